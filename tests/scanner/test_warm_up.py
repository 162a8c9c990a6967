"""Each game plugin's ``warm_up`` builds what its scans keep, so forked batch workers share it."""

from __future__ import annotations

import scanner.games.frontnine as frontnine
import scanner.games.gnoming as gnoming
import scanner.games.minigolf as minigolf
from scanner.games.minigolf import match, tokens


def test_minigolf_warm_up_builds_tile_and_token_templates():
    builders = [match._references, match._unit_templates, match._coarse_templates, match._small_templates,
                match._disc_templates, tokens._templates]
    for builder in builders:
        builder.cache_clear()
    minigolf.warm_up()
    built = [2, 2, 4, 4, 1, 1]  # tiles as printed and evened (a doubtful cell's second look)
    assert [b.cache_info().currsize for b in builders] == built
    match.coarse_score(match.references().templates[0])  # a scan's first look: no template built again
    match.read_tile(match.references(even=True).templates[0], even=True)  # nor a second look
    assert [b.cache_info().misses for b in builders] == built


def test_card_games_warm_up_builds_their_templates():
    for builder in (gnoming.templates, frontnine.templates, frontnine.face_colour):
        builder.cache_clear()
    gnoming.warm_up()
    frontnine.warm_up()
    assert gnoming.templates.cache_info().currsize == 1
    assert frontnine.templates.cache_info().currsize == 1
    assert frontnine.face_colour.cache_info().currsize == len(frontnine.all_ids())

"""The Front Nine scanner on synthetic photos of one player's course: cards and chain order read right,
the distance measured within a fraction of a ball, any way the photo is turned; players merged into one
table through the setup; another game's photo and a blank photo refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from flatphoto import flat_photo, turned

from fixtures.games import frontnine, gnoming
from fixtures.scene import Component, Scene, scene_bounds_mm
from golfscan.pipeline import merge_setup
from rules import registry
from scanner.cards import refined_panel
from scanner.errors import ScanError
from scanner.games import frontnine as scanner

PPM = 3.0


@pytest.fixture(scope="module")
def course():
    board = frontnine.random_board(np.random.default_rng(5))
    rng = np.random.default_rng(5)
    scene = frontnine.compose(board, rng)
    photo = flat_photo(scene, PPM, shadows=0.3)
    return board, frontnine.truth(board, photo), photo


def _only(board: dict, name: str) -> dict:
    return {**board, "players": [p for p in board["players"] if p["name"] == name]}


def test_reads_the_course_in_chain_order_and_the_distance(course):
    board, truth, photo = course
    result = scanner.scan(photo.image, {"players": [{"name": truth["player"]}]})
    got = scanner.compare(_only(board, truth["player"]), result.board)
    assert got["cards"] == len(truth["cards"]) - 1 and got["cards_wrong"] == 0 and got["exact"]
    assert got["distance_abs_err"] < 0.15
    player = result.board["players"][0]
    assert player["name"] == truth["player"]
    assert abs(player["distance_balls"] - truth["distance_balls"]) < 0.15
    assert not result.flagged


@pytest.mark.parametrize("angle", [180, 71])
def test_rotation_does_not_change_the_read(course, angle):
    board, truth, photo = course
    result = scanner.scan(turned(photo, angle).image)  # no setup: "Player 1", compared by the cards
    got = scanner.compare(_only(board, truth["player"]), result.board)
    assert got["exact"] and got["distance_abs_err"] < 0.15


def test_players_photographed_one_by_one_make_one_table(course):
    board, truth, photo = course
    others = [p for p in board["players"] if p["name"] != truth["player"]]  # read from their own photos
    before = [{k: p[k] for k in ("name", "course", "specials")} | {"distance_balls": 12.0} for p in others]
    setup = {"players": [*before[:1], {"name": truth["player"]}, *before[1:]]}
    result = scanner.scan(photo.image, setup)
    assert [p["name"] for p in result.board["players"]] == [p["name"] for p in setup["players"]]
    assert merge_setup(result.board, setup) == result.board  # the pipeline's overlay of the setup changes nothing
    engine, parsed = registry.parse_board(result.board)  # no card id used twice across the table
    assert len(engine.score([parsed]).scores) == len(board["players"])
    with pytest.raises(ScanError, match="already in the table"):
        scanner.scan(photo.image, {"players": [*before, {"name": others[0]["name"]}]})


def test_merge_joins_single_player_boards():
    a = {"format": "golfscan/the-front-nine", "version": 1, "players": [{"name": "A", "course": ["c01"]}]}
    b = {"format": "golfscan/the-front-nine", "version": 1, "players": [{"name": "B", "course": ["c02"]}],
         "review": [{"where": "players[0].course[0]", "confidence": 0.2}]}
    merged = scanner.merge([a, b])
    assert [p["name"] for p in merged["players"]] == ["A", "B"] and len(merged["review"]) == 1


def test_cards_printed_alike_count_as_the_same_read():
    assert scanner.printed("c01") == scanner.printed("c07")  # the catalogue holds two copies of this hole
    assert scanner.printed("c01") != scanner.printed("c03")
    truth = {"players": [{"name": "A", "course": ["c01", "c09"], "specials": ["dune"]}]}
    read = {"players": [{"name": "A", "course": ["c07", "c09"], "specials": ["waterfall"]}]}
    assert scanner.compare(truth, read) == {"cards": 3, "cards_wrong": 1, "distances": 0, "distances_wrong": 0,
                                            "distance_abs_err": 0.0, "exact": False}


@pytest.mark.parametrize(("off_balls", "wrong"), [(0.1, 0), (-0.2, 0), (0.3, 1), (None, 1)])
def test_a_distance_counts_as_read_right_within_a_quarter_ball(off_balls, wrong):
    # the club house and one hole side by side, 15 mm (one ball) apart along the short sides
    truth = {"players": [{"name": "A", "course": ["c01"], "club_house": {"x_mm": 0, "y_mm": 0, "angle_deg": 0},
                          "positions": [{"x_mm": 78.0, "y_mm": 0, "angle_deg": 0}]}]}
    player = {"name": "A", "course": ["c01"]}
    if off_balls is not None:
        player["distance_balls"] = 1.0 + off_balls
    got = scanner.compare(truth, {"players": [player]})
    assert (got["distances"], got["distances_wrong"]) == (1, wrong)
    assert got["distance_abs_err"] == pytest.approx(abs(off_balls) if off_balls is not None else float("inf"))


def test_a_panel_edge_is_found_to_a_fraction_of_a_pixel():
    """The paper mask finds a panel a little too small (a dark one) or too large; the refined outline lies on
    the drawn edges."""
    card = scanner.spec()
    ppm, up = 2.5, 8  # a card about 160 px wide, as on a 12 MP photo read at half size; drawn 8x larger
    (pw, ph), f = card.panel_mm, card.frame_mm
    panel = np.array([[50.3, 40.7], [50.3 + pw * ppm, 40.7], [50.3 + pw * ppm, 40.7 + ph * ppm], [50.3, 40.7 + ph * ppm]])
    frame = panel + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * f * ppm
    big = np.full((320 * up, 260 * up), 120, np.uint8)  # the table
    for quad, level in ((frame, 230), (panel, 70)):
        cv2.fillPoly(big, [np.round((quad + 0.5) * up - 0.5).astype(np.int32)], level)
    grey = cv2.GaussianBlur(cv2.resize(big, (260, 320), interpolation=cv2.INTER_AREA).astype(np.float32), (0, 0), 1.0)
    found = panel + np.array([[0.8, 0.8], [-0.8, 0.8], [-0.8, -0.8], [0.8, -0.8]]) + [0.3, 0.0]
    refined = refined_panel(grey, found, card)
    assert np.abs(found - panel).max() > 1.0
    assert np.abs(refined - panel).max() < 0.15


def test_another_games_photo_is_refused():
    board = gnoming.random_board(np.random.default_rng(3))
    photo = flat_photo(gnoming.compose(board, np.random.default_rng(3)), 1.5)
    with pytest.raises(ScanError):
        scanner.scan(photo.image)
    assert scanner.likelihood(photo.image) < 0.3


def test_a_photo_without_cards_is_a_scan_error():
    with pytest.raises(ScanError, match="no cards"):
        scanner.scan(np.full((600, 800, 3), 200, np.uint8))


def _blank_card_thing(scene) -> Component:
    """A card-sized thing with a light rim and a blank middle (a phone in a white case), beside the cards."""
    img = np.zeros((88 * 4, 63 * 4, 4), np.uint8)
    img[...] = (240, 240, 240, 255)
    img[16:-16, 16:-16, :3] = (30, 30, 36)
    lo, hi = scene_bounds_mm(scene)
    return Component(img, 4.0, (float(lo[0]) - 60.0, float(lo[1]) + 80.0), 10.0)


def test_a_blank_card_sized_thing_is_never_read_unflagged(course):
    board, truth, _ = course
    scene = frontnine.compose(board, np.random.default_rng(5))
    thing = _blank_card_thing(scene)
    scene = Scene(scene.components + [thing])
    photo = flat_photo(scene, PPM)
    result = scanner.scan(photo.image)
    want = next(p for p in board["players"] if p["name"] == truth["player"])
    sure = [r.value for r in result.reads if r.where.split(".")[-1].startswith("specials[") and not r.flagged]
    assert sorted(sure) == sorted(want["specials"])
    centre = flat_photo(Scene([thing]), PPM, around=scene).image.max(axis=2) > 100
    ys, xs = np.nonzero(centre)
    at = np.array([xs.mean(), ys.mean()])
    about = [r for r in result.reads if r.polygon is not None and np.linalg.norm(r.polygon.mean(axis=0) - at) < 30]
    assert not about  # not read as a card: set aside as a thing showing no card face, and said so
    assert any("no card face" in w for w in result.warnings)


def test_a_broken_chain_flags_the_distance(course):
    board, truth, _ = course
    scene = frontnine.compose(board, np.random.default_rng(5))
    gone = f"{truth['player']}/course2"
    photo = flat_photo(Scene([c for c in scene.components if c.name != gone]), PPM, around=scene)
    result = scanner.scan(photo.image)
    distance = next(r for r in result.reads if r.where.endswith("distance_balls"))
    assert distance.flagged and "broken" in distance.note


def test_a_card_outlined_with_its_long_sides_as_the_short_ones_is_still_read(course):
    # a steep view can make a card's short side look the longer one, so the search pairs the sides wrongly
    _, _, photo = course
    image = photo.image
    club = next(r for r in (scanner.read_card(image, c) for c in scanner.photo_cards(image).found) if r.kind == "club")
    assert club.trusted
    misread = scanner._read_as_found(image, club.card.quarter_turned(scanner.spec()), scanner.templates())
    assert not misread.trusted  # taken the wrong way round, the face does not match
    again = scanner.read_card(image, club.card.quarter_turned(scanner.spec()))
    assert again.trusted and again.kind == "club"

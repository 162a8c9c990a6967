"""Minigolf cells read weakly: a clear weak guess goes on the board (checked by a person), green beside the
course that matches no tile is left off it (shown to a person too)."""

from __future__ import annotations

import pytest

from scanner.games.minigolf import GUESS_FROM, GUESS_MARGIN, doubtful, recognised_read, strays
from scanner.games.minigolf.match import UNKNOWN_BELOW, TileRead


@pytest.mark.parametrize(("score", "margin", "given"), [
    (UNKNOWN_BELOW - 0.01, GUESS_MARGIN + 0.05, True),   # washed out, yet nothing else near: the guess
    (UNKNOWN_BELOW - 0.01, GUESS_MARGIN - 0.05, False),  # a look-alike near: unknown
    (GUESS_FROM - 0.01, 0.5, False),                     # unlike every tile
    (UNKNOWN_BELOW + 0.01, 0.0, True),
])
def test_weak_read_given_only_when_clear_and_always_checked(score, margin, given):
    read = TileRead("pn22", 90, score, margin, ())
    assert recognised_read(read) == given
    if score < UNKNOWN_BELOW:
        assert doubtful(read)  # a person checks every read under the level right reads reach


def test_strays_are_unlike_any_tile_and_at_the_course_edge():
    sure = TileRead("st01", 0, 0.95, 0.3, ())
    weak = TileRead("pn22", 0, GUESS_FROM - 0.1, 0.3, ())
    course = {(r, c): sure for r in range(3) for c in range(3)}
    assert strays(course) == set()
    beside = {**course, (1, 3): weak}  # one tile beside it
    assert strays(beside) == {(1, 3)}
    inside = {**course, (1, 1): weak}  # walled in: a tile that could not be read
    assert strays(inside) == set()
    assert strays({**course, (1, 3): TileRead("pn22", 0, GUESS_FROM + 0.01, 0.0, ())}) == set()

"""Property tests: turning or moving a whole course never changes its score."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from minigolf_kit import perfect, play, rotate, translate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "minigolf-designer"
COURSES = {
    "perfect": perfect(clients=["mr-perfect", "mr-straightforward"], orders=["dog-3", "par4-2"]),
    "board-2": json.loads((EXAMPLES / "board-2.json").read_text()),
}


def itemized(board):
    score = play(board).scores[0]
    return [(line.item, line.points) for line in score.lines]


BASELINE = {name: itemized(board) for name, board in COURSES.items()}


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(COURSES)), st.integers(1, 3))
def test_rotating_a_course_keeps_its_score(name, turns):
    board = COURSES[name]
    for _ in range(turns):
        board = rotate(board)
    assert itemized(board) == BASELINE[name]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(COURSES)), st.integers(0, 6), st.integers(0, 6))
def test_translating_a_course_keeps_its_score(name, dr, dc):
    assert itemized(translate(COURSES[name], dr, dc)) == BASELINE[name]

"""18 Holes: tracing holes from their tees along the fairways."""

from __future__ import annotations

import pytest
from eighteen_grid import board, rotate
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.eighteen import parse
from rules.eighteen.tracing import longest_chain, trace_holes

# Every face of the blue dice drawn as part of a hole, heading east from a tee (green of the hole on
# the last square). Each returns (plan, tee, green, length).
DIE_FACES = {
    "straight": ("W>E3 WE W>E3", (0, 0), (0, 2), 3),
    "corner": (
        """
        W>E3 WS
        .    N>E3
        """,
        (0, 0), (1, 1), 3,
    ),
    "two straights": ("W>E4 WE WE W>E4", (0, 0), (0, 3), 4),
    "straight and left corner": (
        """
        .    .  S>E4
        W>E4 WE WN
        """,
        (1, 0), (0, 2), 4,
    ),
    "straight and right corner": (
        """
        W>E4 WE WS
        .    .  N>E4
        """,
        (0, 0), (1, 2), 4,
    ),
    "two corners": (
        """
        W>E4 WS .
        .    NE W>E4
        """,
        (0, 0), (1, 2), 4,
    ),
}


def holes_of(text: str, **extra):
    return {h.tee: h for h in trace_holes(parse(board(text, **extra)))}


@pytest.mark.parametrize("face", DIE_FACES)
@pytest.mark.parametrize("quarter_turns", range(4))
def test_every_die_face_traces_in_every_rotation(face, quarter_turns):
    text, tee, green, length = DIE_FACES[face]
    data = board(text)
    rows, cols = data["grid"]["rows"], data["grid"]["cols"]
    for _ in range(quarter_turns):
        data = rotate(data)
        tee, green = (tee[1], rows - 1 - tee[0]), (green[1], rows - 1 - green[0])
        rows, cols = cols, rows
    hole = {h.tee: h for h in trace_holes(parse(data))}[tee]
    assert hole.complete and hole.green == green
    assert hole.length == length == len(hole.squares)
    assert hole.squares[0] == tee and hole.squares[-1] == green


def test_two_hazards_block_a_fairway():
    holes = holes_of("W>E3 ~ t W>E3")
    assert not holes[(0, 0)].complete
    assert holes[(0, 0)].end == "stops at the water at r0c1"


def test_fairway_off_the_plan_is_a_dead_end():
    hole = holes_of("W>E3 WE")[(0, 0)]
    assert not hole.complete and hole.length == 0
    assert hole.end == "runs off the plan after r0c1"


def test_tee_pointing_off_the_plan():
    assert holes_of("E>W3 WE E>W3")[(0, 0)].end == "runs off the plan after r0c0"


def test_fairway_into_the_side_of_another_fairway_is_a_dead_end():
    hole = holes_of(
        """
        W>E4 WE NS W>E4
        .    .  NS .
        """
    )[(0, 0)]
    assert not hole.complete
    assert hole.end == "runs into the side of the fairway at r0c2"


def test_entering_a_tee_green_square_not_through_its_green_is_a_dead_end():
    holes = holes_of("W>E3 WE N>E3 WE E>W3")
    assert holes[(0, 0)].end == "runs into the tee/green square r0c2 from its W side, not its green"
    # into the tee edge of the square on the right: that edge starts a hole, it ends none
    assert holes[(0, 2)].end == "runs into the tee/green square r0c4 from its W side, not its green"


def test_fairway_loop_without_a_tee_is_no_hole_and_tees_cannot_enter_it():
    holes = holes_of(
        """
        W>E3 ES SW
        .    NE NW
        """
    )
    assert list(holes) == [(0, 0)]
    assert holes[(0, 0)].end == "runs into the side of the fairway at r0c1"


def test_hole_back_to_its_own_tee_green_square_covers_it_once():
    holes = holes_of(
        """
        S>E4 WS
        EN   NW
        """
    )
    hole = holes[(0, 0)]
    assert hole.complete and hole.green == (0, 0)
    assert hole.length == 4
    chain = longest_chain(list(holes.values()))
    assert len(chain) == 1 and chain.circuit


@pytest.mark.parametrize(("text", "length"), [("W>E3 W>E3", 2), ("W>E3 WE WE WE W>E3", 5)])
def test_holes_of_wrong_length_are_completed(text, length):
    hole = holes_of(text)[(0, 0)]
    assert hole.complete and hole.length == length != hole.par


def test_incomplete_hole_stops_at_an_empty_square():
    hole = holes_of("W>E5 WE WE . W>E5")[(0, 0)]
    assert not hole.complete
    assert hole.squares == ((0, 0), (0, 1), (0, 2))
    assert hole.end == "stops at the empty square r0c3"


def test_unknown_square_stops_a_hole():
    assert holes_of("W>E3 ? W>E3")[(0, 0)].end == "stops at the unreadable square r0c1"


def test_null_par_hole_is_still_traced():
    hole = holes_of("W>E? WE W>E3")[(0, 0)]
    assert hole.complete and hole.par is None and hole.length == 3


def test_two_holes_may_not_share_a_fairway_in_opposite_directions():
    # both tees face the same straight fairway: each trace crosses it and ends at the other's tee edge
    holes = holes_of("W>E3 WE E>W3")
    assert not holes[(0, 0)].complete and not holes[(0, 2)].complete


EDGES = "NESW"
CELLS = st.one_of(
    st.sampled_from([{"k": "empty"}, {"k": "water"}, {"k": "unknown"}]),
    st.lists(st.sampled_from(EDGES), min_size=2, max_size=2, unique=True).map(lambda e: {"k": "fairway", "edges": e}),
    st.tuples(st.permutations(EDGES), st.sampled_from([3, 4, 5, None])).map(
        lambda t: {"k": "teegreen", "green_edge": t[0][0], "tee_edge": t[0][1], "par": t[1]}
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5).flatmap(lambda rows: st.lists(st.lists(CELLS, min_size=4, max_size=4), min_size=rows, max_size=rows)))
def test_random_plans_trace_to_simple_paths_with_unique_greens(cells):
    plan = parse({"grid": {"rows": len(cells), "cols": 4}, "cells": cells})
    holes = trace_holes(plan)
    completed = [h for h in holes if h.complete]
    assert len({h.squares[0] for h in holes}) == len(holes)
    assert all(len(set(h.squares)) == len(h.squares) for h in holes)
    assert len({h.green for h in completed}) == len(completed)  # no green ends two holes
    assert len(longest_chain(holes)) <= len(completed)

"""Hole tracing and hole numbers (tokens read, or inferred along the circuit)."""

from __future__ import annotations

import doctest

from minigolf_kit import PERFECT_HOLES, course, perfect, play, points

from rules import registry
from rules.minigolf import catalogue, land
from rules.minigolf.trace import COMPLETED, LOOP, OPEN, trace

FAR = (11, 11, "NW")


def holes(board):
    return trace(registry.parse_board(board)[1]).holes


def test_hole_is_played_from_tee_to_green_whatever_the_tile_order():
    board = course([(1, 1), (1, 2), (2, 2), (2, 3)], entrance=FAR)
    board["tiles"].reverse()
    (hole,) = holes(board)
    assert hole.status == COMPLETED
    assert [s.cell for s in hole.steps] == [(1, 1), (1, 2), (2, 2), (2, 3)]
    assert (hole.tee.leave, hole.green.enter, hole.direction_in) == ("E", "W", "E")


def test_open_pieces_and_loops_are_told_apart():
    tiles = [(1, 1, "te03", 270), (1, 2, "st01", 90),  # tee with an open end
             (5, 5, "st01", 0),  # bare fragment
             (8, 1, "co01", 0), (8, 2, "co01", 90), (9, 2, "co01", 180), (9, 1, "co01", 270)]  # loop
    found = holes(course(entrance=FAR, extra=tiles))
    assert sorted((h.status, h.ends) for h in found) == [
        (LOOP, ("", "")), (OPEN, ("", "")), (OPEN, ("tee", ""))]


def test_tokens_give_the_numbers():
    board = course([(1, 1), (1, 2), (1, 3)], [(3, 1), (3, 2), (3, 3)], entrance=FAR, tokens=[
        {"number": 2, "row": 1, "col": 2}, {"number": 1, "row": 3, "col": 1}])
    result = play(board)
    numbers = {h["number"]: h["tee"] for h in result.scores[0].details["holes"]}
    assert numbers == {1: [3, 1], 2: [1, 1]}
    assert not any("inferred" in w for w in result.scores[0].warnings)


def test_missing_tokens_are_inferred_along_the_circuit_and_flagged():
    board = perfect(tokens=False)
    board["tokens"] = []
    result = play(board)
    assert points(result, "circuit") == 20
    assert sum("inferred" in w for w in result.scores[0].warnings) == 9
    assert all(h["inferred"] for h in result.scores[0].details["holes"])


def test_one_missing_token_fills_the_gap():
    board = perfect()
    board["tokens"] = [t for t in board["tokens"] if t["number"] != 5]
    result = play(board)
    (hole5,) = [h for h in result.scores[0].details["holes"] if h["number"] == 5]
    assert hole5["inferred"] and hole5["tee"] == list(PERFECT_HOLES[4][0][:2])
    assert points(result, "circuit") == 20


def test_token_problems_become_warnings():
    board = course([(1, 1), (1, 2), (1, 3)], entrance=FAR, tokens=[
        {"number": 1, "row": 1, "col": 3}, {"number": 1, "row": 1, "col": 2}, {"number": 4, "row": 7, "col": 7}])
    warnings = play(board).scores[0].warnings
    assert any("appears twice" in w for w in warnings)
    assert any("not on a completed hole" in w for w in warnings)


def test_token_on_a_crossover_needs_its_pathway():
    across = [(2, 0), (2, 1, "cr01"), (2, 2)]
    down = [(1, 1), (2, 1, "cr01"), (3, 1)]
    ambiguous = course(across, down, entrance=FAR, tokens=[{"number": 1, "row": 2, "col": 1}])
    assert any("lies on 2 holes" in w for w in play(ambiguous).scores[0].warnings)
    # pathway 0 of cr01 runs N-S at rotation 0: the "down" hole
    chosen = course(across, down, entrance=FAR, tokens=[{"number": 1, "row": 2, "col": 1, "pathway": 0}])
    holes_ = {h["number"]: h["tee"] for h in play(chosen).scores[0].details["holes"]}
    assert holes_[1] == [1, 1]


def test_module_examples():
    for module in (catalogue, land):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0

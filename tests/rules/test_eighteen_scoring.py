"""18 Holes: par score, Prime Location, linked holes, hazards, Committee Bonus, rating, standings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from eighteen_grid import board, loop_board, ring

from rules import registry, standins
from rules.eighteen import parse, score
from rules.eighteen.scoring import link_points, solo_rating

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "18-holes" / "plan.json"
DEFAULTS = {"linked_holes_12": 6, "linked_holes_13": 8, "linked_holes_17": 18, "linked_holes_18": 22}


@pytest.fixture(autouse=True)
def _no_overrides():
    yield
    standins.set_overrides(None)


def scored(data: dict):
    return score([parse(data)]).scores[0]


def points(player_score, item: str) -> int:
    return sum(line.points for line in player_score.lines if line.item == item)


def test_rulebook_example_game():
    """The rulebook's example: 14 scored holes for 30, 14 linked holes in a circuit for 10, Prime Location 13."""
    _, plan = registry.load_board(EXAMPLE)
    result = score([plan]).scores[0]
    assert result.details["scored_holes"] == 14
    assert points(result, "par score") == result.details["par_score"] == 30
    assert result.details["linked_holes"] == 14 and result.details["circuit"]
    assert points(result, "linked holes") == 10
    assert points(result, "Prime Location") == 13
    hazards = sum(points(result, item) for item in ("bunker", "lake", "copse", "tree"))
    assert result.total == 30 + 13 + 10 + hazards + points(result, "Committee Bonus")
    assert result.warnings == []


def test_hole_lines_say_why():
    lines = scored(board("W>E4 WE WE W>E3 WE W>E5")).lines
    whys = [line.why for line in lines if line.item in ("par score", "incomplete hole")]
    assert whys == [
        "hole from r0c0 (par 4): 4 squares = par, 2",
        "hole from r0c3 (par 3): 3 squares = par, 1",
        "hole from r0c5 (par 5): runs off the plan after r0c5, 0",
    ]


@pytest.mark.parametrize(("par", "length", "expected"), [(3, 3, 1), (4, 4, 2), (5, 5, 3), (4, 3, 0), (3, 5, 0)])
def test_par_score(par, length, expected):
    text = " ".join([f"W>E{par}"] + ["WE"] * (length - 2) + ["W>E3"])
    result = scored(board(text))
    assert points(result, "par score") == expected
    assert result.details["completed_holes"] == 1


def test_setup_numbers_and_defaults():
    with_setup = scored(board("W>E3 WE W>E3", setup={"prime_location": 9, "committee_bonus": 5}))
    assert points(with_setup, "Prime Location") == 9 and points(with_setup, "Committee Bonus") == 5
    without = scored(board("W>E3 WE W>E3"))
    assert points(without, "Prime Location") == 0 and points(without, "Committee Bonus") == 0
    assert with_setup.total - without.total == 14


def test_unknown_square_scores_as_empty_with_a_warning():
    result = scored(board("W>E3 WE W>E3 ? b"))
    assert points(result, "bunker") == 0  # the bunker is next to an unknown square, not a hole square
    assert result.warnings == ["1 unreadable square(s) scored as empty: r0c3"]


def test_null_par_hole_is_not_scored_but_links():
    result = scored(board("W>E3 WE W>E? WE W>E3"))
    assert points(result, "par score") == 1
    assert result.details["linked_holes"] == 2
    assert "par unreadable at r0c2: the hole from it cannot be scored" in result.warnings
    assert "hole from r0c2 (par unreadable): 3 squares, not scored" in [line.why for line in result.lines]


def test_review_entries_become_warnings():
    data = board("W>E3 WE W>E3", review=[{"where": "cells[0][1]", "confidence": 0.4, "note": "straight or corner?"}])
    assert scored(data).warnings == ["check cells[0][1]: straight or corner? (confidence 0.40)"]


# --- hazards: only orthogonally next to a square (tee, fairway or green) of a completed hole ---


def test_bunkers_next_to_tee_fairway_and_green_score_diagonal_does_not():
    result = scored(
        board(
            """
            b    b  .    b
            W>E4 WE WE   W>E3
            .    .  .    .
            .    .  .    b
            """
        )
    )
    assert points(result, "bunker") == 3


def test_hazards_next_to_an_incomplete_hole_do_not_score():
    result = scored(
        board(
            """
            b    ~  t t t
            W>E4 WE . . .
            """
        )
    )
    assert sum(line.points for line in result.lines) == 0


def test_lake_scores_every_water_square_when_any_touches():
    result = scored(
        board(
            """
            W>E3 WE W>E3 .
            .    ~  .    .
            ~    ~  .    ~
            """
        )
    )
    lakes = [line for line in result.lines if line.item == "lake"]
    assert [(line.points, line.why) for line in lakes] == [
        (3, "lake of 3 at r1c1, r2c0, r2c1 next to a completed hole: 3 (stand-in value)")
    ]


def test_copse_needs_three_adjacent_trees():
    copse = scored(board("W>E3 WE W>E3\n.    t  .\nt    t  .\n"))
    assert points(copse, "copse") == 3
    diagonal = scored(board("W>E3 WE W>E3\n.    t  .\nt    .  t\n"))
    assert points(diagonal, "copse") == 0 and points(diagonal, "tree") == 0


def test_hazard_stand_ins_can_be_overridden(tmp_path):
    override = tmp_path / "standins.json"
    override.write_text(json.dumps({"18-holes": {"lone_tree_points": 2, "bunker_points": 3}}))
    standins.set_overrides(override)
    result = scored(board("W>E3 WE W>E3\nt    b  ."))
    assert points(result, "tree") == 2 and points(result, "bunker") == 3


# --- linked holes ---


@pytest.mark.parametrize(
    ("linked", "expected"),
    [(0, 0), (1, 1), (9, 1), (10, 2), (11, 4), (12, 6), (13, 8), (14, 10), (15, 12), (16, 15), (17, 18), (18, 22), (20, 22)],
)
def test_link_points_table(linked, expected):
    assert link_points(linked, DEFAULTS) == expected


def test_full_circuit_of_eighteen_holes():
    # the border of a 10 x 10 plan is 36 squares: 18 par-3 holes of 3 squares sharing tee/green squares
    data = loop_board(10, 10, ring(10, 10), {i: 3 for i in range(0, 36, 2)})
    result = scored(data)
    assert result.details["completed_holes"] == 18 and result.details["scored_holes"] == 18
    assert result.details["linked_holes"] == 18 and result.details["circuit"]
    assert points(result, "linked holes") == 22
    assert points(result, "par score") == 18
    assert "18 completed holes in a chain, a full circuit: 22 (stand-in value)" in [line.why for line in result.lines]


def test_broken_circuit_counts_the_longest_chain():
    data = loop_board(10, 10, ring(10, 10), {i: 3 for i in range(0, 36, 2)})
    data["cells"][0][5] = {"k": "water"}  # breaks the hole from r0c4; 17 holes remain in one chain
    result = scored(data)
    assert result.details["linked_holes"] == 17 and not result.details["circuit"]
    assert points(result, "linked holes") == 18
    assert "17 completed holes in a chain, from r0c6 to r0c4: 18 (stand-in value)" in [line.why for line in result.lines]


def test_two_separate_chains_take_the_longer():
    result = scored(board("W>E3 WE W>E3 WE W>E3 WE W>E3 . W>E3 WE W>E3 WE W>E3"))
    assert result.details["linked_holes"] == 3
    assert points(result, "linked holes") == 1


def test_link_stand_ins_can_be_overridden(tmp_path):
    override = tmp_path / "standins.json"
    override.write_text(json.dumps({"18-holes": {"linked_holes_18": 30}}))
    standins.set_overrides(override)
    result = scored(loop_board(10, 10, ring(10, 10), {i: 3 for i in range(0, 36, 2)}))
    assert points(result, "linked holes") == 30


# --- rating and standings ---


@pytest.mark.parametrize(
    ("total", "rating"),
    [(100, "Supreme (100+)"), (99, "Accomplished (90+)"), (80, "Capable (80+)"), (72, "Par score (72+)"),
     (71, "below the solo benchmarks (under 72)")],
)
def test_solo_rating(total, rating):
    assert solo_rating(total) == rating


def test_one_plan_gets_a_rating_line_several_get_standings():
    solo = score([parse(board("W>E3 WE W>E3", setup={"prime_location": 80}))])
    assert solo.scores[0].lines[-1].why == "82 points: Capable (80+)"
    plans = [
        parse(board("W>E3 WE W>E3", player="Ada", setup={"prime_location": 5})),
        parse(board("W>E3 WE W>E3", player="Bo", setup={"committee_bonus": 5})),
        parse(board("W>E3 WE W>E3", player="Cy")),
    ]
    result = score(plans)
    assert all(line.item != "solo rating" for s in result.scores for line in s.lines)
    assert [(s.rank, s.player, s.total, s.note) for s in result.standings] == [
        (1, "Ada", 7, "shared win"),
        (1, "Bo", 7, "shared win"),
        (3, "Cy", 2, ""),
    ]


def test_single_winner_and_default_player_names():
    result = score([parse(board("W>E3 WE W>E3")), parse(board("W>E4 WE WE W>E4"))])
    assert [(s.rank, s.player, s.note) for s in result.standings] == [(1, "Player 2", ""), (2, "Player 1", "")]

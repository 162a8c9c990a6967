"""The Front Nine: every scoring rule of the rulebook, tie shapes, the decisions in the rules notes.

Resource tests run on a small catalogue of their own (through the ``catalogue`` stand-in) so the
expected counts are visible here rather than hidden in the stand-in card list.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules import registry
from rules import standins as standin_values
from rules.frontnine.catalogue import RESOURCES, catalogue
from rules.frontnine.geometry import Placement, gap_mm
from rules.frontnine.scoring import placings

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "the-front-nine" / "table.json"
PAR3 = [f"c{i:02d}" for i in range(1, 9)]
PAR4 = [f"c{i:02d}" for i in range(9, 31)]
PAR5 = [f"c{i:02d}" for i in range(31, 37)]


def table(*players: dict, **top) -> dict:
    return {"format": "golfscan/the-front-nine", "version": 1, "players": list(players), **top}


def run(data: dict):
    engine, parsed = registry.parse_board(data)
    return engine.score([parsed])


def points(result, item: str) -> dict[str, int]:
    return {s.player: sum(line.points for line in s.lines if line.item == item) for s in result.scores}


@pytest.fixture
def overrides(tmp_path):
    """Set stand-in overrides for The Front Nine for one test."""

    def apply(**values):
        path = tmp_path / "standins.json"
        path.write_text(json.dumps({"the-front-nine": values}))
        standin_values.set_overrides(path)

    yield apply
    standin_values.set_overrides(None)


@pytest.fixture
def tiny(tmp_path, overrides):
    """A catalogue of par-4 cards named by what they hold: 't3a' has 3 trees, 's0b' nothing, ..."""
    zero = {r: 0 for r in RESOURCES}
    course = [
        {"id": f"{r[0]}{n}{copy}", "par": 4, "land": 1, "cost": zero, "income": 1, "features": {**zero, r: n}}
        for r in RESOURCES
        for n in range(7)
        for copy in "abcd"
    ]
    special = [
        {"id": "driving-range", "kind": "income", "name": "Driving Range", "stars": 1},
        {"id": "buggy-hire", "kind": "income", "name": "Buggy Hire", "stars": 2},
        {"id": "pro-shop", "kind": "income", "name": "Pro Shop", "stars": 3},
        {"id": "market-offer-1", "kind": "market-offer", "name": "Market Offer"},
    ]
    special += [
        {"id": f"design-{r}", "kind": "design", "name": f"Design {r}", "resource": r} for r in RESOURCES
    ]
    special += [{"id": f"natural-{r}", "kind": "natural", "name": r, "bonus": {r: 2}} for r in RESOURCES]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"course": course, "special": special}))
    overrides(catalogue=str(path))


# --- ranked categories: 5/3/1, ties add the tied places' points, divide, round down ----------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"a": 9, "b": 5, "c": 2}, {"a": 5, "b": 3, "c": 1}),
        ({"a": 6, "b": 6, "c": 2}, {"a": 4, "b": 4, "c": 1}),  # 2-way tie for 1st: (5 + 3) / 2
        ({"a": 9, "b": 5, "c": 5}, {"a": 5, "b": 2, "c": 2}),  # 2-way tie for 2nd: (3 + 1) / 2
        ({"a": 4, "b": 4, "c": 4}, {"a": 3, "b": 3, "c": 3}),  # 3-way tie for 1st: (5 + 3 + 1) / 3
        ({"a": 9, "b": 5, "c": 5, "d": 5}, {"a": 5, "b": 1, "c": 1, "d": 1}),  # (3 + 1 + 0) / 3, rounded down
        ({"a": 9, "b": 7, "c": 3, "d": 3}, {"a": 5, "b": 3, "c": 0, "d": 0}),  # (1 + 0) / 2, rounded down
        ({"a": 2, "b": 2, "c": 2, "d": 2}, {"a": 2, "b": 2, "c": 2, "d": 2}),  # (5 + 3 + 1 + 0) / 4
    ],
)
def test_place_points_with_ties(values, expected):
    assert {n: p.points for n, p in placings(values, lowest_best=False).items()} == expected


def test_place_points_lowest_best_for_distance():
    assert {n: p.points for n, p in placings({"a": 3.5, "b": 12.0, "c": 7.1}, lowest_best=True).items()} == {
        "a": 5,
        "b": 1,
        "c": 3,
    }


def test_tie_explained_in_the_score_line(tiny):
    players = [
        {"name": "A", "course": ["t3a"]},
        {"name": "B", "course": ["t3b"]},
        {"name": "C", "course": ["t1a"]},
    ]
    result = run(table(*players))
    assert points(result, "trees") == {"A": 4, "B": 4, "C": 1}
    assert "2-way tie for 1st: (5 + 3) / 2 = 4" in result.scores[0].lines[1].why


# --- distance --------------------------------------------------------------------------------------


def test_distance_nearest_best_and_beyond_19_balls_scores_0_without_rank():
    result = run(
        table(
            {"name": "A", "course": ["c09"], "distance_balls": 19.5},
            {"name": "B", "course": ["c10"], "distance_balls": 19},
            {"name": "C", "course": ["c11"], "distance_balls": 4.2},
        )
    )
    # A takes no place, so B is 2nd (3), not 3rd.
    assert points(result, "distance") == {"A": 0, "B": 3, "C": 5}


def test_tied_distance_splits_the_points():
    result = run(
        table(
            {"name": "A", "course": ["c09"], "distance_balls": 6},
            {"name": "B", "course": ["c10"], "distance_balls": 6},
            {"name": "C", "course": ["c11"], "distance_balls": 9},
        )
    )
    assert points(result, "distance") == {"A": 4, "B": 4, "C": 1}


def test_distance_from_card_positions_uses_the_nearest_edges_and_the_ball_scale(overrides):
    overrides(card_mm=[60, 90], club_house_mm=[60, 90], ball_mm=10)
    club = {"x_mm": 0, "y_mm": 0}
    # The last card's near edge (200 - 45 = 155 mm) is 110 mm above the club house's top edge (45 mm).
    positions = [{"x_mm": 0, "y_mm": 90}, {"x_mm": 0, "y_mm": 200}]
    far = {"name": "A", "course": ["c09", "c10"], "club_house": club, "positions": positions}
    near = {"name": "B", "course": ["c11"], "distance_balls": 2}
    result = run(table(far, near))
    assert result.scores[0].details["distance_balls"] == 11.0
    assert points(result, "distance") == {"A": 3, "B": 5}


def test_gap_between_cards():
    size = (60, 90)
    assert gap_mm(Placement(0, 0), size, Placement(60, 0), size) == 0  # touching side by side
    assert gap_mm(Placement(0, 0), size, Placement(30, 30), size) == 0  # overlapping
    assert gap_mm(Placement(0, 0), size, Placement(100, 0), size) == pytest.approx(40)
    # A card turned 90 degrees: its half-width along x is now 45.
    assert gap_mm(Placement(0, 0), size, Placement(100, 0, 90), size) == pytest.approx(25)
    # Diagonal: corner to corner.
    assert gap_mm(Placement(0, 0), size, Placement(90, 120), size) == pytest.approx((30**2 + 30**2) ** 0.5)


def test_small_table_variant_does_not_score_distance():
    players = [{"name": "A", "course": ["c09"], "distance_balls": 1}, {"name": "B", "course": ["c10"]}]
    result = run(table(*players, variant="small-table"))
    assert points(result, "distance") == {"A": 0, "B": 0}
    assert not any("distance" in w for w in result.warnings)


def test_missing_distance_scores_0_with_a_warning():
    result = run(
        table({"name": "A", "course": ["c09"]}, {"name": "B", "course": ["c10"], "distance_balls": 8})
    )
    assert points(result, "distance") == {"A": 0, "B": 5}
    assert any("A: distance" in w for w in result.warnings)


# --- resources -------------------------------------------------------------------------------------


def test_resources_are_summed_over_course_cards_and_natural_cards(tiny):
    result = run(
        table(
            {"name": "A", "course": ["t2a", "t3a", "s1a"], "specials": ["natural-water"]},
            {"name": "B", "course": ["t6a", "w1a"]},
        )
    )
    assert [s.details["resources"] for s in result.scores] == [
        {"trees": 5, "sand": 1, "water": 2},
        {"trees": 6, "sand": 0, "water": 1},
    ]
    assert points(result, "trees") == {"A": 3, "B": 5}
    assert points(result, "water") == {"A": 5, "B": 3}


def test_at_least_one_resource_is_needed_to_rank(tiny):
    result = run(
        table(
            {"name": "A", "course": ["s2a"]},
            {"name": "B", "course": ["t1a"]},
            {"name": "C", "course": ["t1b"], "specials": ["natural-sand"]},
        )
    )
    # B has no sand: no place and no share of 3rd. A and C (2 sand from a Natural card alone) tie for 1st.
    assert points(result, "sand") == {"A": 4, "B": 0, "C": 4}
    assert "at least 1" in result.scores[1].lines[2].why


def test_nobody_with_a_resource_nobody_scores_it(tiny):
    result = run(table({"name": "A", "course": ["t1a"]}, {"name": "B", "course": ["t2a"]}))
    assert points(result, "water") == {"A": 0, "B": 0}


def test_special_design_doubles_its_resource_points_only(tiny):
    result = run(
        table(
            {"name": "A", "course": ["t4a", "s1a"], "specials": ["design-trees"]},
            {"name": "B", "course": ["t4b", "s2a"]},
            {"name": "C", "course": ["t1a"], "specials": ["design-sand"]},
        )
    )
    assert points(result, "trees") == {"A": 8, "B": 4, "C": 1}  # tie for 1st: 4, doubled for A
    assert points(result, "sand") == {"A": 3, "B": 5, "C": 0}  # C's Design doubles nothing: no sand


# --- stars and par ---------------------------------------------------------------------------------


def test_income_card_stars(tiny):
    result = run(
        table({"name": "A", "course": ["t1a"], "specials": ["driving-range", "buggy-hire", "pro-shop"]})
    )
    assert [(line.item, line.points) for line in result.scores[0].lines[4:7]] == [
        ("Driving Range", 1),
        ("Buggy Hire", 2),
        ("Pro Shop", 3),
    ]


@pytest.mark.parametrize(
    ("course", "par", "expected"),
    [
        (PAR4[:9], 36, 5),
        (PAR3[:2] + PAR4[:7], 34, 3),
        (PAR4[:7] + PAR5[:2], 38, 3),
        (PAR3[:4] + PAR4[:5], 32, 1),
        (PAR3[:5] + PAR4[:4], 31, 0),
        (PAR3[:6] + PAR4[:3], 30, 0),
        (PAR4[:3] + PAR5[:6], 42, 0),
        (PAR4[:2], 8, 0),
    ],
)
def test_course_par_points(course, par, expected):
    result = run(table({"name": "A", "course": course}))
    assert result.scores[0].details["par"] == par
    assert points(result, "course par") == {"A": expected}


# --- winner ----------------------------------------------------------------------------------------


def test_tie_on_points_goes_to_more_resources(tiny):
    # Both: distance tie 4, trees tie 4; A has the only sand (5), B the only water (5). B holds 5 resources, A 4.
    result = run(
        table(
            {"name": "A", "course": ["t3a", "s1a"], "distance_balls": 5},
            {"name": "B", "course": ["t3b", "w2a"], "distance_balls": 5},
        )
    )
    totals = {s.player: s.total for s in result.scores}
    assert totals["A"] == totals["B"]
    assert [(s.rank, s.player) for s in result.standings] == [(1, "B"), (2, "A")]
    assert "5 resources decide" in result.standings[0].note


def test_tie_on_points_and_resources_is_a_shared_win(tiny):
    result = run(table({"name": "A", "course": ["t2a"]}, {"name": "B", "course": ["t2b"]}))
    assert [s.rank for s in result.standings] == [1, 1]
    assert result.standings[0].note == "shared win"


def test_example_table():
    result = run(json.loads(EXAMPLE.read_text()))
    assert {s.player: s.total for s in result.scores} == {"Ada": 27, "Bo": 24, "Cy": 13}
    assert [s.player for s in result.standings] == ["Ada", "Bo", "Cy"]
    assert result.scores[0].details["distance_balls"] == pytest.approx(176 / 15, abs=0.05)


# --- single player, odd cards, the catalogue --------------------------------------------------------


def test_one_player_is_scored_with_a_warning():
    result = run(table({"name": "A", "course": PAR4[:9], "distance_balls": 3}))
    assert points(result, "distance") == {"A": 5}
    assert points(result, "course par") == {"A": 5}
    assert any("2 or more players" in w for w in result.warnings)


def test_market_offer_left_on_the_table_scores_nothing_and_warns(tiny):
    result = run(table({"name": "A", "course": ["t1a"], "specials": ["market-offer-1"]}))
    assert not any(line.item == "Market Offer" for line in result.scores[0].lines)
    assert result.scores[0].warnings


def test_review_entries_become_warnings():
    review = [{"where": "players[0].course[0]", "confidence": 0.5, "note": "id unclear"}]
    result = run(table({"name": "A", "course": ["c09"]}, review=review))
    assert "check players[0].course[0]: id unclear (confidence 0.50)" in result.warnings


def test_built_in_catalogue_has_the_rulebook_counts():
    cards = catalogue()
    pars = [card.par for card in cards.course.values()]
    assert (len(pars), pars.count(3), pars.count(4), pars.count(5)) == (36, 8, 22, 6)
    kinds = [card.kind for card in cards.special.values()]
    assert len(kinds) == 14 and kinds.count("income") == 3 and kinds.count("natural") == 3
    assert not set(cards.course) & set(cards.special)
    # The rulebook's Example 3: a par 4 costing GBP2 and 3 water, income GBP2.
    c09 = cards.course["c09"]
    assert (c09.par, c09.land, c09.cost, c09.income) == (4, 2, {"trees": 0, "sand": 0, "water": 3}, 2)
    assert {c.stars for c in cards.special.values() if c.kind == "income"} == {1, 2, 3}


def test_the_format_doc_shows_the_example_file():
    doc = (EXAMPLE.parents[2] / "docs" / "boards" / "the-front-nine.md").read_text()
    assert json.loads(re.search(r"```json\n(.*?)```", doc, re.S).group(1)) == json.loads(EXAMPLE.read_text())

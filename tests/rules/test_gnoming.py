"""Gnoming A Round: every scoring rule of the rulebook, the decisions in the rules notes, deck checks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import registry
from rules.common import BoardError
from rules.gnoming.board import DECK
from rules.gnoming.scoring import score_grid

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gnoming-a-round" / "game.json"

# A grid whose cards never match and add a known amount, to fill out boards: 3+4+5+... with no line.
PLAIN = [["3", "4", "5"], ["6", "7", "8"], ["4", "5", "3"]]  # 45, no row/column/diagonal of equal cards


def grid(text: str) -> list[list[str]]:
    """'5 5 5 / -2 hazard 3 / mulligan 7 4' -> a 3x3 list; M, H, ? abbreviate mulligan, hazard, unknown."""
    names = {"M": "mulligan", "H": "hazard", "?": "unknown"}
    return [[names.get(face, face) for face in row.split()] for row in text.split("/")]


def board(*rounds: dict) -> dict:
    return {"format": "golfscan/gnoming-a-round", "version": 1, "rounds": list(rounds)}


def run(data: dict):
    engine, parsed = registry.parse_board(data)
    return engine.score([parsed])


def totals(result) -> dict[str, int]:
    return {s.player: s.total for s in result.scores}


def grid_total(text: str) -> int:
    return score_grid(tuple(tuple(row) for row in grid(text))).total


# --- one grid --------------------------------------------------------------------------------------


def test_plain_grid_adds_every_positive_card():
    assert grid_total("3 4 5 / 6 7 8 / 4 5 3") == 45


def test_matched_row_subtracts_its_value_and_its_cards_add_nothing():
    assert grid_total("5 5 5 / 3 4 6 / 4 6 3") == -5 + 26


def test_matched_column_subtracts_its_value():
    assert grid_total("6 3 4 / 6 4 5 / 6 5 3") == -6 + 24


def test_crossing_row_and_column_share_a_card_and_both_subtract():
    # row 1 and column 1 are 6s and share the top-left card; every 6 adds nothing.
    result = score_grid(tuple(tuple(r) for r in grid("6 6 6 / 6 -4 3 / 6 8 -3")))
    assert [(m.line, m.value) for m in result.matches] == [("row 1", 6), ("column 1", 6)]
    assert result.total == -6 - 6 + 3 + 8 - 4 - 3


def test_diagonals_never_match():
    assert grid_total("7 3 4 / 5 7 3 / 4 5 7") == 45


def test_negative_cards_always_subtract_even_three_in_a_row():
    # Matching needs positive cards: three -2s do not make a set, each still subtracts.
    assert grid_total("-2 -2 -2 / 3 4 5 / 4 5 3") == -6 + 24


def test_unequal_positive_line_is_no_match():
    assert score_grid(tuple(tuple(r) for r in grid("5 5 6 / 3 4 7 / 4 6 3"))).matches == ()


def test_hazard_adds_ten_each():
    assert grid_total("H 3 4 / 5 6 7 / 4 5 3") == 10 + 37
    assert grid_total("H 3 4 / 5 H 7 / 4 5 3") == 20 + 31


def test_mulligan_completes_a_row():
    result = score_grid(tuple(tuple(r) for r in grid("7 M 7 / 3 4 5 / 4 5 3")))
    assert result.total == -7 + 24
    assert any(line.why == "mulligan completes row 1 as 7s" for line in result.lines)


def test_unused_mulligan_is_worth_zero():
    result = score_grid(tuple(tuple(r) for r in grid("M 3 4 / 5 6 7 / 4 5 3")))
    assert result.total == 37
    assert [line.points for line in result.lines if line.item == "mulligan"] == [0]


def test_mulligan_completes_two_lines_with_different_values():
    # Row 1 wants a 4, column 3 wants a 6: the mulligan is both.
    result = score_grid(tuple(tuple(r) for r in grid("4 4 M / 3 -1 6 / 8 5 6")))
    assert [(m.line, m.value, m.mulligan) for m in result.matches] == [
        ("row 1", 4, True),
        ("column 3", 6, True),
    ]
    assert result.total == -4 - 6 + 3 + 8 + 5 - 1


def test_mulligan_cannot_complete_a_line_with_a_negative_or_hazard():
    assert grid_total("-2 -2 M / 3 4 5 / 4 5 3") == -4 + 24
    assert grid_total("H 5 M / 3 4 6 / 4 6 3") == 10 + 5 + 26


def test_unknown_card_counts_zero_never_matches_and_warns():
    result = score_grid(tuple(tuple(r) for r in grid("5 5 ? / 3 4 6 / 4 6 3")))
    assert result.matches == ()
    assert result.total == 10 + 26
    assert result.warnings and "row 1 col 3" in result.warnings[0]


def _brute_force(g: tuple[tuple[str, ...], ...]) -> int:
    """The lowest score over every value the mulligan could take, separately in its row and its column."""
    at = next(((r, c) for r in range(3) for c in range(3) if g[r][c] == "mulligan"), None)
    options = [None, 3, 4, 5, 6, 7, 8]
    best = None
    for in_row in options:
        for in_col in options:
            matched: set[tuple[int, int]] = set()
            total = 0
            for kind in ("row", "col"):
                for i in range(3):
                    cells = [(i, j) if kind == "row" else (j, i) for j in range(3)]
                    sub = in_row if kind == "row" else in_col
                    faces = [str(sub) if rc == at and sub else g[rc[0]][rc[1]] for rc in cells]
                    if all(f.isdigit() for f in faces) and len(set(faces)) == 1:
                        total -= int(faces[0])
                        matched.update(cells)
            for r in range(3):
                for c in range(3):
                    f = g[r][c]
                    if f == "hazard":
                        total += 10
                    elif f.lstrip("-").isdigit() and (int(f) < 0 or (r, c) not in matched):
                        total += int(f)
            best = total if best is None else min(best, total)
    return best


faces = st.sampled_from(["3", "4", "5", "6", "7", "8", "-1", "-2", "-3", "-4", "hazard"])


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.sampled_from(["3", "4", "5", "6"]) | faces, min_size=9, max_size=9),
    mulligan_at=st.integers(0, 9),
)
def test_mulligan_choice_is_the_lowest_score(cards, mulligan_at):
    if mulligan_at < 9:
        cards[mulligan_at] = "mulligan"
    g = tuple(tuple(cards[3 * r : 3 * r + 3]) for r in range(3))
    assert score_grid(g).total == _brute_force(g)


# --- one round -------------------------------------------------------------------------------------


def test_went_out_first_with_the_lowest_score_gets_minus_five():
    result = run(
        board({"went_out_first": "Ada", "grids": {"Ada": grid("5 5 5 / 5 5 5 / 3 4 6"), "Bo": PLAIN}})
    )
    assert totals(result) == {"Ada": -10 + 13 - 5, "Bo": 45}


def test_went_out_first_tied_for_lowest_counts_as_lowest():
    result = run(board({"went_out_first": "Ada", "grids": {"Ada": PLAIN, "Bo": PLAIN, "Cy": PLAIN}}))
    assert totals(result) == {"Ada": 40, "Bo": 45, "Cy": 45}


def test_went_out_first_without_the_lowest_score_gets_plus_five():
    result = run(
        board({"went_out_first": "Bo", "grids": {"Ada": grid("5 5 5 / 5 5 5 / 3 4 6"), "Bo": PLAIN}})
    )
    assert totals(result)["Bo"] == 50


def test_went_out_first_not_recorded_applies_nothing_and_says_so():
    result = run(board({"grids": {"Ada": PLAIN, "Bo": PLAIN, "Cy": PLAIN}}))
    assert totals(result) == {"Ada": 45, "Bo": 45, "Cy": 45}
    assert any("went out first" in w for w in result.warnings)


def test_fewer_than_three_players_is_scored_with_a_warning():
    result = run(board({"went_out_first": "Ada", "grids": {"Ada": PLAIN}}))
    assert totals(result) == {"Ada": 40}
    assert any("3 to 7" in w for w in result.warnings)


# --- a game ----------------------------------------------------------------------------------------


def test_example_game_totals_and_winner():
    result = run(json.loads(EXAMPLE.read_text()))
    assert totals(result) == {"Ada": 37, "Bo": 17, "Cy": -15, "Di": 48}
    assert [(s.rank, s.player) for s in result.standings] == [(1, "Cy"), (2, "Bo"), (3, "Ada"), (4, "Di")]
    assert [s.details["rounds"] for s in result.scores][2] == [-8, -9, 2]


def test_tie_on_total_goes_to_the_lower_third_round_score():
    # Ada 45 + 45 - 12 = 78, Bo 45 - 12 + 45 = 78: Ada's third round (-12) is lower.
    low = grid("3 3 3 / 4 4 4 / 5 5 5")
    rounds = [
        {"grids": {"Ada": PLAIN, "Bo": PLAIN, "Cy": PLAIN}},
        {"grids": {"Ada": PLAIN, "Bo": low, "Cy": PLAIN}},
        {"grids": {"Ada": low, "Bo": PLAIN, "Cy": PLAIN}},
    ]
    result = run(board(*rounds))
    assert totals(result) == {"Ada": 78, "Bo": 78, "Cy": 135}
    assert [(s.rank, s.player) for s in result.standings] == [(1, "Ada"), (2, "Bo"), (3, "Cy")]
    assert "third round" in result.standings[0].note


def test_tie_on_total_and_third_round_is_a_shared_win():
    low = grid("3 3 3 / 4 4 4 / 5 5 5")
    rounds = [
        {"grids": {"Ada": low, "Bo": PLAIN, "Cy": PLAIN}},
        {"grids": {"Ada": PLAIN, "Bo": low, "Cy": PLAIN}},
        {"grids": {"Ada": PLAIN, "Bo": PLAIN, "Cy": PLAIN}},
    ]
    result = run(board(*rounds))
    assert [(s.rank, s.player) for s in result.standings] == [(1, "Ada"), (1, "Bo"), (3, "Cy")]
    assert result.standings[0].note.endswith("shared win")


def test_rounds_from_several_files_make_one_game():
    parsed = [
        registry.parse_board(board({"grids": {"Ada": PLAIN, "Bo": PLAIN, "Cy": PLAIN}}))[1] for _ in range(3)
    ]
    engine = registry.game("gnoming-a-round")
    result = engine.score(parsed)
    assert totals(result) == {"Ada": 135, "Bo": 135, "Cy": 135}
    assert not any("provisional" in w for w in result.warnings)


def test_unfinished_game_is_provisional():
    result = run(board({"grids": {"Ada": PLAIN, "Bo": PLAIN, "Cy": PLAIN}}))
    assert any("provisional" in w for w in result.warnings)


# --- what the deck cannot hold ---------------------------------------------------------------------


def _error(data: dict) -> BoardError:
    with pytest.raises(BoardError) as caught:
        registry.parse_board(data)
    return caught.value


def test_two_mulligans_in_one_grid_are_rejected():
    err = _error(board({"grids": {"Ada": grid("M 3 M / 4 5 6 / 7 8 3")}}))
    assert err.place == "rounds[0].grids.Ada" and "mulligan" in err.message


def test_more_hazards_in_a_round_than_the_deck_has_are_rejected():
    hazard = grid("H 3 4 / 5 6 7 / 4 5 3")
    err = _error(board({"grids": {name: hazard for name in ("A", "B", "C", "D")}}))
    assert err.place == "rounds[0].grids" and "hazard" in err.message and str(DECK["hazard"]) in err.message


def test_more_number_cards_in_a_round_than_the_deck_has_are_rejected():
    # Five grids of three 8s each = 15 eights; the deck has 13.
    eights = grid("8 8 8 / 3 4 5 / 4 5 3")
    err = _error(board({"grids": {name: eights for name in "ABCDE"}}))
    assert err.place == "rounds[0].grids" and "'8'" in err.message


def test_went_out_first_naming_nobody_is_rejected():
    err = _error(board({"went_out_first": "Zed", "grids": {"Ada": PLAIN}}))
    assert err.place == "rounds[0].went_out_first"


def test_grid_not_three_by_three_is_rejected():
    err = _error(board({"grids": {"Ada": PLAIN[:2]}}))
    assert err.place == "rounds[0].grids.Ada"
    err = _error(board({"grids": {"Ada": [PLAIN[0], PLAIN[1], ["3", "4"]]}}))
    assert err.place == "rounds[0].grids.Ada[2]"


def test_unknown_face_is_rejected():
    err = _error(board({"grids": {"Ada": [PLAIN[0], PLAIN[1], ["3", "4", "9"]]}}))
    assert err.place == "rounds[0].grids.Ada[2][2]"


def test_rounds_with_different_players_are_rejected():
    err = _error(board({"grids": {"Ada": PLAIN, "Bo": PLAIN}}, {"grids": {"Ada": PLAIN, "Cy": PLAIN}}))
    assert err.place == "rounds[1].grids" and "Bo" in err.message and "Cy" in err.message


def test_more_than_three_rounds_over_several_files_are_rejected():
    parsed = [registry.parse_board(board({"grids": {"Ada": PLAIN}}, {"grids": {"Ada": PLAIN}}))[1]] * 2
    with pytest.raises(BoardError, match="4 rounds"):
        registry.game("gnoming-a-round").score(parsed)


def test_the_format_doc_shows_the_example_file():
    doc = (EXAMPLE.parents[2] / "docs" / "boards" / "gnoming-a-round.md").read_text()
    assert json.loads(re.search(r"```json\n(.*?)```", doc, re.S).group(1)) == json.loads(EXAMPLE.read_text())

"""Gnoming A Round board files: grids of card faces per player and round, checked against the deck.

Example:
    >>> grid = [["5", "5", "5"], ["-2", "hazard", "3"], ["mulligan", "7", "4"]]
    >>> board = parse({"rounds": [{"went_out_first": "Ada", "grids": {"Ada": grid}}]})
    >>> board.rounds[0].grids["Ada"][1][1]
    'hazard'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rules.common import BoardError, review_warnings

HAZARD = "hazard"
MULLIGAN = "mulligan"
UNKNOWN = "unknown"  # a card the scanner could not read
MAX_ROUNDS = 3

# The 110-card deck (public sources; the rulebook gives 82 positive, 22 negative, 3 hazard, 3 mulligan).
DECK: dict[str, int] = {
    "8": 13, "7": 13, "6": 14, "5": 14, "4": 14, "3": 14,
    "-1": 6, "-2": 8, "-3": 5, "-4": 3,
    HAZARD: 3, MULLIGAN: 3,
}  # fmt: skip

Grid = tuple[tuple[str, ...], ...]


def number(face: str) -> int | None:
    """The value of a number card, None for hazard, mulligan and unknown.

    >>> number("7"), number("-3"), number("hazard")
    (7, -3, None)
    """
    return int(face) if face.lstrip("-").isdigit() else None


def positive(face: str) -> int | None:
    """The value of a positive card (3..8), else None."""
    value = number(face)
    return value if value is not None and value > 0 else None


def cell(row: int, col: int) -> str:
    """Human name of a grid position (0-based in, 1-based out)."""
    return f"row {row + 1} col {col + 1}"


@dataclass(frozen=True)
class Round:
    """One round's final grids (player -> 3x3 faces) and who went out first (None if not recorded)."""

    grids: dict[str, Grid]
    went_out_first: str | None
    place: str  # where the round sits in its file, for error messages


@dataclass(frozen=True)
class GnomingBoard:
    rounds: tuple[Round, ...]
    warnings: tuple[str, ...] = ()


def parse(data: dict[str, Any]) -> GnomingBoard:
    """Turn schema-valid JSON into a board; raise BoardError for what the deck or the rules cannot hold."""
    rounds = tuple(_parse_round(r, f"rounds[{i}]") for i, r in enumerate(data["rounds"]))
    for i, rnd in enumerate(rounds[1:], start=1):
        check_same_players(rounds[0], rnd, f"round {i + 1}")
    return GnomingBoard(rounds, tuple(review_warnings(data)))


def _parse_round(data: dict[str, Any], place: str) -> Round:
    grids = {name: tuple(tuple(row) for row in grid) for name, grid in data["grids"].items()}
    out = data.get("went_out_first")
    if out is not None and out not in grids:
        raise BoardError(
            f"went_out_first names {out!r}, who has no grid in this round", f"{place}.went_out_first"
        )
    for name, grid in grids.items():
        mulligans = sum(face == MULLIGAN for row in grid for face in row)
        if mulligans > 1:
            raise BoardError(
                f"{mulligans} mulligans in one grid; a player may hold at most one", f"{place}.grids.{name}"
            )
    shown = Counter(face for grid in grids.values() for row in grid for face in row if face != UNKNOWN)
    for face, count in shown.items():
        if count > DECK[face]:
            raise BoardError(
                f"{count} cards '{face}' in this round's grids, but the deck has only {DECK[face]}",
                f"{place}.grids",
            )
    return Round(grids, out, place)


def check_same_players(first: Round, other: Round, what: str) -> None:
    """Every round of a game must have the same players."""
    missing = sorted(set(first.grids) - set(other.grids))
    extra = sorted(set(other.grids) - set(first.grids))
    if missing or extra:
        parts = [
            f"missing {', '.join(missing)}" if missing else "",
            f"extra {', '.join(extra)}" if extra else "",
        ]
        raise BoardError(
            f"{what} has different players from round 1 ({'; '.join(p for p in parts if p)})",
            f"{other.place}.grids",
        )

"""Types shared by every game's rules engine: itemized score lines, results, board errors.

Example:
    >>> line = ScoreLine("visitors", 7, "7 people drawn on the course")
    >>> PlayerScore("Ada", [line]).total
    7
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any


class BoardError(ValueError):
    """A board file that cannot be scored. ``place`` says where (a JSON path like ``tiles[3].rotation``)."""

    def __init__(self, message: str, place: str = "", file: str = ""):
        super().__init__(message)
        self.message = message
        self.place = place
        self.file = file

    def __str__(self) -> str:
        where = ": ".join(p for p in (self.file, self.place) if p)
        return f"{where}: {self.message}" if where else self.message


@dataclass(frozen=True)
class ScoreLine:
    """One item of an itemized score: what, how many points, and why."""

    item: str
    points: int | float
    why: str


@dataclass
class PlayerScore:
    """A player's itemized score; ``warnings`` are things a person should check."""

    player: str
    lines: list[ScoreLine]
    warnings: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int | float:
        return sum(line.points for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "total": self.total,
            "lines": [asdict(line) for line in self.lines],
            "warnings": list(self.warnings),
            "details": self.details,
        }


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    total: int | float
    note: str = ""


@dataclass
class GameResult:
    """What a rules engine returns for one or more boards of one game."""

    game: str
    scores: list[PlayerScore]
    standings: list[Standing] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "scores": [s.to_dict() for s in self.scores],
            "standings": [asdict(s) for s in self.standings],
            "warnings": list(self.warnings),
        }


def rank_by_total(scores: list[PlayerScore], lowest_wins: bool = False) -> list[Standing]:
    """Standard competition ranking (1, 2, 2, 4) by total; equal totals share a rank.

    >>> s = [PlayerScore("a", [ScoreLine("x", 3, "")]), PlayerScore("b", [ScoreLine("x", 5, "")])]
    >>> [(st.rank, st.player) for st in rank_by_total(s)]
    [(1, 'b'), (2, 'a')]
    """
    return rank_by_key(scores, lambda s: s.total if lowest_wins else -s.total)


def rank_by_key(scores: list[PlayerScore], key: Callable[[PlayerScore], Any]) -> list[Standing]:
    """Competition ranking by ``key`` (smaller is better, e.g. a tuple with a tie-breaker); equal keys share a rank.

    >>> s = [PlayerScore("a", [ScoreLine("x", 5, "")], details={"tb": 2}),
    ...      PlayerScore("b", [ScoreLine("x", 5, "")], details={"tb": 1})]
    >>> [(st.rank, st.player) for st in rank_by_key(s, lambda p: (p.total, p.details["tb"]))]
    [(1, 'b'), (2, 'a')]
    """
    ordered = sorted(scores, key=key)
    standings: list[Standing] = []
    for i, s in enumerate(ordered):
        tied = i > 0 and key(ordered[i - 1]) == key(s)
        standings.append(Standing(standings[-1].rank if tied else i + 1, s.player, s.total))
    return standings


def note_ties(standings: list[Standing], broken_by: Callable[[str], str]) -> list[Standing]:
    """Explain shared totals in the notes: a shared place, or how the tie-breaker (``broken_by(player)``) split it.

    >>> st = [Standing(1, "a", 9), Standing(1, "b", 9), Standing(3, "c", 4)]
    >>> [s.note for s in note_ties(st, lambda p: "")]
    ['shared win', 'shared win', '']
    """
    out = []
    for st in standings:
        level = [o for o in standings if o.total == st.total and o.player != st.player]
        if any(o.rank == st.rank for o in level):
            extra = "shared win" if st.rank == 1 else "shared place"
        else:
            extra = broken_by(st.player) if level else ""
        out.append(replace(st, note="; ".join(n for n in (st.note, extra) if n)))
    return out


def review_warnings(data: dict[str, Any]) -> list[str]:
    """The scanner's ``review`` entries of a board file as one warning each.

    >>> review_warnings({"review": [{"where": "tiles[2]", "confidence": 0.41, "note": "flag unclear"}]})
    ['check tiles[2]: flag unclear (confidence 0.41)']
    """
    out = []
    for entry in data.get("review", []):
        conf = entry.get("confidence")
        tail = f" (confidence {conf:.2f})" if isinstance(conf, (int, float)) else ""
        out.append(f"check {entry.get('where', '?')}: {entry.get('note', 'flagged by the scanner')}{tail}")
    return out

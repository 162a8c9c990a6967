"""Score 18 Holes course plans: par score, Prime Location, linked holes, hazards, Committee Bonus.

Printed values (the rulebook and public facts) live here; the values the rulebook text lost are
stand-ins in ``standins.json`` (see docs/standins.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.common import BoardError, GameResult, PlayerScore, ScoreLine, note_ties, rank_by_total
from rules.eighteen.board import STEP, Board, Pos, name, neighbour
from rules.eighteen.tracing import Chain, Hole, longest_chain, trace_holes
from rules.standins import standins

GAME = "18-holes"
STANDINS_FILE = Path(__file__).with_name("standins.json")

HOLE_POINTS = {3: 1, 4: 2, 5: 3}  # par -> points for a hole whose length equals its par
PRINTED_LINK_POINTS = {10: 2, 11: 4, 14: 10, 15: 12, 16: 15}  # and 1-9 linked holes -> 1
STANDIN_LINK_COUNTS = (12, 13, 17, 18)
LONGEST_LINK_TABLE = 18
COPSE_SIZE = 3  # printed: a copse is 3 or more adjacent trees
SOLO_RATINGS = ((100, "Supreme"), (90, "Accomplished"), (80, "Capable"), (72, "Par score"))


def link_points(linked: int, values: dict[str, Any]) -> int:
    """Points for a chain of ``linked`` holes; chains beyond the table's 18 score as 18.

    >>> link_points(9, {}), link_points(12, {"linked_holes_12": 6})
    (1, 6)
    """
    if linked <= 0:
        return 0
    if linked <= 9:
        return 1
    linked = min(linked, LONGEST_LINK_TABLE)
    return values[f"linked_holes_{linked}"] if linked in STANDIN_LINK_COUNTS else PRINTED_LINK_POINTS[linked]


def solo_rating(total: int | float) -> str:
    """The solo benchmark a total reaches.

    >>> solo_rating(85)
    'Capable (80+)'
    """
    for low, label in SOLO_RATINGS:
        if total >= low:
            return f"{label} ({low}+)"
    return f"below the solo benchmarks (under {SOLO_RATINGS[-1][0]})"


def groups(board: Board, kind: str) -> list[list[Pos]]:
    """Orthogonally connected groups of squares of ``kind``, each in reading order."""
    seen: set[Pos] = set()
    found = []
    for start in board.positions(kind):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [], [start]
        while todo:
            pos = todo.pop()
            group.append(pos)
            for edge in STEP:
                nxt = neighbour(pos, edge)
                if board.on_plan(nxt) and nxt not in seen and board.cell(nxt).k == kind:
                    seen.add(nxt)
                    todo.append(nxt)
        found.append(sorted(group))
    return found


def _hole_line(hole: Hole) -> ScoreLine:
    par = f"par {hole.par}" if hole.par is not None else "par unreadable"
    head = f"hole from {name(hole.tee)} ({par})"
    if not hole.complete:
        return ScoreLine("incomplete hole", 0, f"{head}: {hole.end}, 0")
    squares = f"{hole.length} squares"
    if hole.green == hole.tee:
        squares += " (back to its own tee/green square)"
    if hole.par is None:
        return ScoreLine("par score", 0, f"{head}: {squares}, not scored")
    if hole.length == hole.par:
        return ScoreLine("par score", HOLE_POINTS[hole.par], f"{head}: {squares} = par, {HOLE_POINTS[hole.par]}")
    return ScoreLine("par score", 0, f"{head}: {squares}, not par, 0")


def _link_line(chain: Chain, values: dict[str, Any]) -> ScoreLine:
    n = len(chain)
    points = link_points(n, values)
    if n == 0:
        return ScoreLine("linked holes", 0, "no completed hole")
    shape = "a full circuit" if chain.circuit else f"from {name(chain.holes[0].tee)} to {name(chain.holes[-1].green)}"
    beyond = f" (the table stops at {LONGEST_LINK_TABLE})" if n > LONGEST_LINK_TABLE else ""
    standin = " (stand-in value)" if min(n, LONGEST_LINK_TABLE) in STANDIN_LINK_COUNTS else ""
    holes = "1 completed hole" if n == 1 else f"{n} completed holes"
    return ScoreLine("linked holes", points, f"{holes} in a chain, {shape}{beyond}: {points}{standin}")


def _hazard_lines(board: Board, course: set[Pos], values: dict[str, Any]) -> list[ScoreLine]:
    """Hazards next to a square of a completed hole; a lake or copse scores whole when any of it is."""

    def touches(squares: list[Pos]) -> bool:
        return any(neighbour(p, e) in course for p in squares for e in STEP)

    def where(squares: list[Pos]) -> str:
        return ", ".join(map(name, squares))

    scored = [("bunker", [p], values["bunker_points"]) for p in board.positions("bunker")]
    scored += [("lake", lake, values["lake_points_per_water"] * len(lake)) for lake in groups(board, "water")]
    for trees in groups(board, "tree"):
        if len(trees) >= COPSE_SIZE:
            scored.append(("copse", trees, values["copse_points_per_tree"] * len(trees)))
        else:
            scored += [("tree", [p], values["lone_tree_points"]) for p in trees]
    lines = []
    for item, squares, points in scored:
        if points and touches(squares):
            size = f"of {len(squares)} " if item in ("lake", "copse") else ""
            lines.append(ScoreLine(item, points, f"{item} {size}at {where(squares)} next to a completed hole: {points} (stand-in value)"))
    return lines


def _warnings(board: Board, holes: list[Hole]) -> list[str]:
    warnings = list(board.review)
    unknown = board.positions("unknown")
    if unknown:
        warnings.append(f"{len(unknown)} unreadable square(s) scored as empty: {', '.join(map(name, unknown))}")
    warnings += [
        f"par unreadable at {name(h.tee)}: the hole from it cannot be scored" for h in holes if h.par is None
    ]
    return warnings


def score_board(board: Board, values: dict[str, Any], player: str = "") -> PlayerScore:
    """One plan's itemized score (no solo rating line; see :func:`score`)."""
    holes = trace_holes(board)
    completed = [h for h in holes if h.complete]
    chain = longest_chain(holes)
    course = {p for h in completed for p in h.squares}
    lines = [_hole_line(h) for h in holes]
    lines.append(ScoreLine("Prime Location", board.prime_location, "value on the Prime Location card (setup)"))
    lines.append(_link_line(chain, values))
    lines += _hazard_lines(board, course, values)
    lines.append(ScoreLine("Committee Bonus", board.committee_bonus, "Committee Bonus card (setup)"))
    score = PlayerScore(player or board.player, lines, _warnings(board, holes))
    score.details = {
        "tees": len(holes),
        "completed_holes": len(completed),
        "scored_holes": sum(1 for h in completed if h.par is not None and h.length == h.par),
        "incomplete_holes": [{"tee": name(h.tee), "end": h.end} for h in holes if not h.complete],
        "par_score": sum(line.points for line in lines if line.item == "par score"),
        "linked_holes": len(chain),
        "circuit": chain.circuit,
        "holes": [
            {
                "tee": name(h.tee),
                "par": h.par,
                "green": name(h.green) if h.green else None,
                "length": h.length,
                "squares": [name(p) for p in h.squares],
            }
            for h in holes
        ],
        "rating": solo_rating(score.total),
    }
    return score


def score(boards: list[Board], options: dict[str, Any] | None = None) -> GameResult:
    """Score plans; one plan gets its solo rating as a line, several get standings (ties share a win)."""
    values = standins(GAME, STANDINS_FILE)
    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BoardError(f"stand-in {GAME}.{key} must be a number, not {value!r}")
    scores = [score_board(b, values, b.player or f"Player {i + 1}") for i, b in enumerate(boards)]
    if len(scores) == 1:
        solo = scores[0]
        solo.lines.append(ScoreLine("solo rating", 0, f"{solo.total} points: {solo.details['rating']}"))
    # equal totals share their place: the rulebook has no tie-breaker ("they both win")
    return GameResult(GAME, scores, note_ties(rank_by_total(scores), lambda player: ""))

"""Gnoming A Round scoring: a grid, a round (with the went-out-first bonus), a game of three rounds.

Example:
    >>> grid = (("5", "5", "5"), ("-2", "hazard", "3"), ("mulligan", "7", "4"))
    >>> [(line.item, line.points) for line in score_grid(grid).lines]
    [('row 1', -5), ('unmatched cards', 14), ('negative cards', -2), ('hazard', 10), ('mulligan', 0)]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.common import BoardError, GameResult, PlayerScore, ScoreLine, Standing, note_ties, rank_by_key
from rules.gnoming.board import (
    HAZARD,
    MAX_ROUNDS,
    MULLIGAN,
    UNKNOWN,
    GnomingBoard,
    Grid,
    Round,
    cell,
    check_same_players,
    number,
    positive,
)

HAZARD_POINTS = 10
WENT_OUT_BONUS = 5
MIN_PLAYERS = 3

# Rows then columns; diagonals never match.
LINES: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = tuple(
    (f"row {r + 1}", tuple((r, c) for c in range(3))) for r in range(3)
) + tuple((f"column {c + 1}", tuple((r, c) for r in range(3))) for c in range(3))


@dataclass(frozen=True)
class Match:
    """A matched row or column: it subtracts ``value`` once."""

    line: str
    value: int
    mulligan: bool  # completed by the mulligan


@dataclass(frozen=True)
class GridScore:
    matches: tuple[Match, ...]
    lines: tuple[ScoreLine, ...]
    warnings: tuple[str, ...]

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)


def line_match(name: str, faces: list[str]) -> Match | None:
    """The match a line makes: three equal positive cards, a mulligan standing in for one of them.

    >>> line_match("row 1", ["7", "mulligan", "7"])
    Match(line='row 1', value=7, mulligan=True)
    >>> line_match("row 2", ["-2", "-2", "-2"]) is None
    True
    """
    values = [positive(face) for face in faces if face != MULLIGAN]
    if None in values or len(set(values)) != 1:
        return None
    return Match(name, values[0], len(values) < len(faces))


def score_grid(grid: Grid) -> GridScore:
    """Score one 3x3 grid before the went-out-first bonus.

    The mulligan is taken as completing every line it can complete, each with its own value. That is
    the lowest score: a completed line subtracts its value and stops its other cards adding theirs, so
    using the mulligan never raises the score.
    """
    matches = [m for name, cells in LINES if (m := line_match(name, [grid[r][c] for r, c in cells]))]
    matched_cells = {rc for name, cells in LINES for rc in cells if name in {m.line for m in matches}}
    lines = [
        ScoreLine(
            m.line,
            -m.value,
            f"mulligan completes {m.line} as {m.value}s" if m.mulligan else f"three {m.value}s",
        )
        for m in matches
    ]
    loose = [(r, c) for r in range(3) for c in range(3) if (r, c) not in matched_cells]
    unmatched = [(positive(grid[r][c]), cell(r, c)) for r, c in loose if positive(grid[r][c])]
    if unmatched:
        why = " + ".join(f"{v} ({where})" for v, where in unmatched)
        lines.append(ScoreLine("unmatched cards", sum(v for v, _ in unmatched), why))
    negatives = [
        (v, cell(r, c)) for r in range(3) for c in range(3) if (v := number(grid[r][c])) is not None and v < 0
    ]
    if negatives:
        lines.append(
            ScoreLine(
                "negative cards", sum(v for v, _ in negatives), ", ".join(f"{v} ({w})" for v, w in negatives)
            )
        )
    warnings = []
    for r in range(3):
        for c in range(3):
            face, where = grid[r][c], cell(r, c)
            if face == HAZARD:
                lines.append(ScoreLine("hazard", HAZARD_POINTS, f"hazard at {where}"))
            elif face == MULLIGAN and (r, c) not in matched_cells:
                lines.append(ScoreLine("mulligan", 0, f"at {where}, completes no row or column: worth 0"))
            elif face == UNKNOWN:
                lines.append(ScoreLine("unread card", 0, f"{where} could not be read: counted as 0"))
                warnings.append(f"card at {where} could not be read and counts 0; check it")
    return GridScore(tuple(matches), tuple(lines), tuple(warnings))


def went_out_line(own: int, others: list[int]) -> ScoreLine:
    """-5 for the player who went out first if their score is the lowest (a tie counts), else +5.

    >>> went_out_line(4, [4, 9]).points, went_out_line(5, [4]).points
    (-5, 5)
    """
    lowest = min(others, default=own)
    if own < lowest:
        return ScoreLine("went out first", -WENT_OUT_BONUS, f"went out first with the lowest score ({own})")
    if own == lowest:
        return ScoreLine(
            "went out first", -WENT_OUT_BONUS, f"went out first, tied for the lowest score ({own})"
        )
    return ScoreLine(
        "went out first", WENT_OUT_BONUS, f"went out first but {own} is not the lowest ({lowest})"
    )


@dataclass(frozen=True)
class RoundScore:
    lines: dict[str, list[ScoreLine]]
    warnings: dict[str, list[str]]
    note: str  # a round-level remark ("" if none)

    def total(self, player: str) -> int:
        return sum(line.points for line in self.lines[player])


def score_round(rnd: Round) -> RoundScore:
    """Score every grid of a round and apply the went-out-first bonus."""
    grids = {name: score_grid(grid) for name, grid in rnd.grids.items()}
    lines = {name: list(g.lines) for name, g in grids.items()}
    note = ""
    if rnd.went_out_first is None:
        note = "who went out first is not recorded: no +5/-5 applied"
    else:
        others = [g.total for name, g in grids.items() if name != rnd.went_out_first]
        lines[rnd.went_out_first].append(went_out_line(grids[rnd.went_out_first].total, others))
    return RoundScore(lines, {name: list(g.warnings) for name, g in grids.items()}, note)


def score(boards: list[GnomingBoard], options: dict | None = None) -> GameResult:
    """Score a game: the rounds of all boards in order (one file per round, or one file for the game)."""
    rounds = [rnd for board in boards for rnd in board.rounds]
    if len(rounds) > MAX_ROUNDS:
        raise BoardError(f"{len(rounds)} rounds given; a game has {MAX_ROUNDS}", "rounds")
    for i, rnd in enumerate(rounds[1:], start=1):
        check_same_players(rounds[0], rnd, f"round {i + 1}")
    results = [score_round(rnd) for rnd in rounds]
    players = list(rounds[0].grids)
    several = len(rounds) > 1
    scores = []
    for name in players:
        lines = [
            replace(line, item=f"round {k} {line.item}") if several else line
            for k, res in enumerate(results, start=1)
            for line in res.lines[name]
        ]
        warnings = [
            f"round {k}: {w}" if several else w
            for k, res in enumerate(results, start=1)
            for w in res.warnings[name]
        ]
        scores.append(PlayerScore(name, lines, warnings, {"rounds": [res.total(name) for res in results]}))
    warnings = [w for board in boards for w in board.warnings]
    warnings += [
        f"round {k}: {res.note}" if several else res.note for k, res in enumerate(results, 1) if res.note
    ]
    if len(players) < MIN_PLAYERS:
        warnings.append(f"{len(players)} player(s): the game is for {MIN_PLAYERS} to 7; scored as given")
    if len(rounds) < MAX_ROUNDS:
        warnings.append(f"{len(rounds)} of {MAX_ROUNDS} rounds: standings are provisional")
    return GameResult("gnoming-a-round", scores, standings(scores, len(rounds) == MAX_ROUNDS), warnings)


def standings(scores: list[PlayerScore], finished: bool) -> list[Standing]:
    """Lowest total wins; a tie goes to the lower third-round score, else the place is shared."""

    def third(s: PlayerScore) -> int:
        return s.details["rounds"][-1] if finished else 0

    ranked = rank_by_key(scores, lambda s: (s.total, third(s)))
    by_name = {s.player: s for s in scores}
    with_rounds = [
        replace(st, note=f"rounds {', '.join(map(str, by_name[st.player].details['rounds']))}")
        if len(by_name[st.player].details["rounds"]) > 1
        else st
        for st in ranked
    ]
    return note_ties(
        with_rounds, lambda player: f"tie on total, third round {third(by_name[player])} decides"
    )

"""Plain-text rendering of rules results for the terminal."""

from __future__ import annotations

from rules.common import GameResult


def format_result(result: GameResult, title: str = "") -> str:
    """An itemized table per player, then standings (when several players) and warnings.

    >>> from rules.common import PlayerScore, ScoreLine
    >>> r = GameResult("demo", [PlayerScore("Ada", [ScoreLine("visitors", 3, "3 people")])])
    >>> "TOTAL" in format_result(r)
    True
    """
    out: list[str] = []
    for score in result.scores:
        head = f"{title or result.game} - {score.player}"
        out += [head, "-" * len(head)]
        width = max([len(line.item) for line in score.lines] + [5])
        for line in score.lines:
            out.append(f"  {line.item:<{width}}  {_fmt(line.points):>5}  {line.why}")
        out.append(f"  {'TOTAL':<{width}}  {_fmt(score.total):>5}")
        out += [f"  ! {w}" for w in score.warnings]
        out.append("")
    if len(result.standings) > 1:
        out.append("Standings")
        out += [f"  {s.rank:>2}. {s.player:<20} {_fmt(s.total):>5}  {s.note}".rstrip() for s in result.standings]
        out.append("")
    out += [f"! {w}" for w in result.warnings]
    return "\n".join(out).rstrip() + "\n"


def _fmt(points: int | float) -> str:
    return str(int(points)) if float(points).is_integer() else f"{points:.1f}"

"""Final scoring of Minigolf Designer boards, itemized line by line.

Family scoring (default): every client gives its fixed points. Expert variant: for each client the
players are ranked by those points; the best (ties included) score the best player's points, the
worst score the same amount negative, everyone between scores ``expert_middle_points`` (stand-in).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.common import GameResult, PlayerScore, ScoreLine, rank_by_total
from rules.minigolf.board import Board
from rules.minigolf.catalogue import CLIENTS, ORDERS, UNKNOWN
from rules.minigolf.clients import family_score
from rules.minigolf.facts import HOLES, PAR_TARGET, Facts
from rules.standins import standins as load_standins

GAME = "minigolf-designer"
STANDINS_FILE = Path(__file__).parent / "standins.json"


def _cells(cells, limit: int = 6) -> str:
    shown = ", ".join(f"({r},{c})" for r, c in cells[:limit])
    return shown + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def _count_line(item: str, per: int, things: list, what: str) -> ScoreLine:
    return ScoreLine(item, per * len(things), f"{len(things)} {what}" + (f": {'; '.join(things)}" if things else ""))


def base_lines(f: Facts) -> list[ScoreLine]:
    """Every scoring element of the base game (with the expansion's tenth circuit transition)."""
    b = f.board
    lines = [
        ScoreLine("visitors", f.feature("people"), f"{f.feature('people')} people drawn on the course"),
        ScoreLine("bonus tiles", 3 * b.setup.bonus_tiles, f"{b.setup.bonus_tiles} bonus tile(s) x 3"),
    ]
    for order_id in b.setup.orders:
        order = ORDERS[order_id]
        if order.feature:
            n = f.feature(order.feature)
            lines.append(ScoreLine(f"order {order.id}", order.points * n, f"{order.text}: {n} {order.feature} (stand-in order)"))
        else:
            n = sum(1 for h in f.completed if h.par == order.par)
            lines.append(ScoreLine(f"order {order.id}", order.points * n, f"{order.text}: {n} hole(s) (stand-in order)"))
    if f.land:
        land = f.land
        lines += [
            ScoreLine("land card", land.land.value, f"{land.land.name} ({land.land.id}, stand-in card)"),
            ScoreLine("land: missing tiles", -len(land.missing), f"{len(land.missing)} empty plot cell(s) {_cells(land.missing)}".rstrip()),
            ScoreLine("land: beyond the plot", -3 * len(land.outside), f"{len(land.outside)} tile(s) {_cells(land.outside)}".rstrip()),
            ScoreLine("land: on streams", -3 * len(land.on_streams), f"{len(land.on_streams)} tile(s) {_cells(land.on_streams)}".rstrip()),
        ]
    lines += [ScoreLine(f"circuit: {t.label}", 2 if t.joined else 0, t.why) for t in f.circuit]
    pars = ", ".join(f"{n}:{h.par}" for n, h in f.numbering.holes.items())
    green = f.green_area_holes
    lines.append(ScoreLine("par: green area", 2 * len(green), f"{len(green)} hole(s) with par 3-5 (hole:par {pars})"))
    cubes = PAR_TARGET - f.total_par
    cube_why = f"total par {f.total_par}: " + (
        f"{cubes} cube(s) left over" if cubes > 0 else f"{-cubes} black cube(s)" if cubes < 0 else "all 36 cubes used")
    lines.append(ScoreLine("par: cubes", -abs(cubes), cube_why))

    completed = len(f.completed)
    lines.append(ScoreLine("playability: 9 holes", 0 if completed == HOLES else -10,
                           f"{completed} completed hole(s)" + ("" if completed == HOLES else ", not exactly 9")))
    bad = [f"{h.status} ({h.describe()})" for h in f.course.badly_built]
    lines.append(_count_line("playability: badly built", -3, bad, "badly built hole(s)"))
    lines.append(_count_line("playability: mismatches", -3, [m.describe() for m in f.course.mismatches],
                             "mismatched connection(s)"))
    wrong = [s.placement.label for s in f.arrows[1]]
    lines.append(_count_line("playability: arrows", -1, wrong, "arrow(s) pointing the wrong way"))
    if b.setup.reserved_tile_left:
        lines.append(ScoreLine("tile reservation", -3, "a reserved tile is left on the entrance"))
    return lines


def board_warnings(f: Facts) -> list[str]:
    """What a person should check on this board."""
    b = f.board
    out = list(b.review)
    out += [f"unreadable tile at ({p.row},{p.col}) [{p.place}]: scored as {UNKNOWN} (no pathway, no features, not grass)"
            for p in b.tiles if p.tile is None]
    out += list(f.numbering.warnings)
    out += [f"uncompleted hole, not scored: {h.describe()}" for h in f.course.uncompleted]
    if b.setup.land is None:
        out.append("no land card given: land not scored")
    elif f.land and f.land.off_grid:
        out.append(f"{f.land.off_grid} plot cell(s) lie beyond the grid: check the entrance cell and facing")
    if len(b.setup.orders) != 2:
        out.append(f"{len(b.setup.orders)} general order(s) given; the game has two")
    return out


def _client_lines(facts: list[Facts], expert: bool, values: dict[str, Any]) -> tuple[list[list[ScoreLine]], list[str]]:
    """Client lines per board, and warnings."""
    lines: list[list[ScoreLine]] = [[] for _ in facts]
    warnings: list[str] = []
    ids = list(dict.fromkeys(c for f in facts for c in f.board.setup.clients))
    for cid in ids:
        name = CLIENTS[cid].name
        playing = [i for i, f in enumerate(facts) if cid in f.board.setup.clients]
        family = {i: family_score(cid, facts[i], values) for i in playing}
        if any(v is None for v in family.values()):
            warnings.append(f"{name}: card text not known; not scored")
            continue
        if not (expert and len(playing) > 1):
            for i in playing:
                lines[i].append(ScoreLine(f"client: {name}", *family[i]))
            continue
        best, worst = max(family[i][0] for i in playing), min(family[i][0] for i in playing)
        for i in playing:
            points, why = family[i]
            if points == best:
                ranked, rank = best, "best"
            elif points == worst:
                ranked, rank = -best, "worst"
            else:
                ranked, rank = values["expert_middle_points"], "between (stand-in points)"
            lines[i].append(ScoreLine(f"client: {name}", ranked, f"expert: {rank} of {len(playing)} ({points} family; {why})"))
    return lines, warnings


def score(boards: list[Board], options: dict[str, Any] | None = None) -> GameResult:
    """Score one or more boards; several boards give standings."""
    options = options or {}
    values = load_standins(GAME, STANDINS_FILE)
    facts = [Facts(b) for b in boards]
    expert = bool(options.get("expert")) or any(b.setup.expert for b in boards)
    client_lines, warnings = _client_lines(facts, expert, values)
    if expert and len(boards) < 2:
        warnings.append("expert ranking needs two or more boards; clients scored with family points")
    for what in ("orders", "clients"):
        if len({tuple(sorted(getattr(b.setup, what))) for b in boards}) > 1:
            warnings.append(f"the boards name different {what}; every player shares the same {what} in the game")
    scores = []
    for f, clines in zip(facts, client_lines, strict=True):
        holes = [{"number": n, "inferred": n in f.numbering.inferred, "par": h.par, "length": h.length,
                  "tee": list(h.tee.cell), "green": list(h.green.cell), "tiles": [p.label for p in h.tiles]}
                 for n, h in f.numbering.holes.items()]
        details = {"holes": holes, "total_par": f.total_par, "completed_holes": len(f.completed),
                   "uncompleted_holes": len(f.course.uncompleted)}
        scores.append(PlayerScore(f.board.setup.player, base_lines(f) + clines, board_warnings(f), details))
    return GameResult(GAME, scores, rank_by_total(scores) if len(scores) > 1 else [], warnings)

"""Compact Minigolf Designer boards for tests: lay holes out as lists of cells, tiles are chosen and turned.

    >>> data = course([(1, 1), (1, 2), (1, 3)])  # tee, straight, green going east
    >>> [(t["tile"], t["rotation"]) for t in data["tiles"]]
    [('te03', 270), ('st01', 90), ('gr08', 270)]

A cell may name its tile, ``(r, c, "pn13")``, or tile and rotation, ``(r, c, "pn13", 0)``; a cell
that appears in several holes (a crossover, a tricky tile) gets a rotation that suits every use, and
an arrow is turned the way the hole is played unless the rotation is given.
Defaults are feature-free: tee te03 (flag 0), straight st01 (0), corner co01 (0), green gr08 (2).
"""

from __future__ import annotations

import copy
from typing import Any

from rules import registry
from rules.common import GameResult
from rules.minigolf.catalogue import OPPOSITE, ROTATIONS, STEP, TILES, rotate_edge

DEFAULT = {"tee": "te03", "green": "gr08", "straight": "st01", "corner": "co01"}
DIRECTION = {step: edge for edge, step in STEP.items()}
FACING_TURN = {"SE": "SW", "SW": "NW", "NW": "NE", "NE": "SE"}


def _edge(a: tuple, b: tuple) -> str:
    """Edge of cell a that faces the neighbouring cell b."""
    return DIRECTION[(b[0] - a[0], b[1] - a[1])]


def rotations(tile_id: str, edges: set[str], role: str, leave: str | None = None) -> set[int]:
    """Rotations giving tile ``tile_id`` a pathway of ``role`` (tee/green/through) on exactly ``edges``.

    Where the tile's arrow lies on that pathway, only rotations pointing it at ``leave`` are kept.
    """
    tile = TILES[tile_id]
    arrow = tile.arrow
    return {
        r for r in ROTATIONS for k, pw in enumerate(tile.pathways)
        if ("tee" if pw.tee else "green" if pw.green else "through") == role
        and {rotate_edge(e, r) for e in pw.edges} == edges
        and (arrow is None or arrow.pathway != k or leave is None or rotate_edge(arrow.to, r) == leave)
    }


def course(*holes: list, extra: list | tuple = (), tokens: bool | list = True, entrance=(0, 0, "SE"),
           grid=(12, 12), **setup: Any) -> dict[str, Any]:
    """A board dict: ``holes`` as cell lists from tee to green, ``extra`` raw (r, c, id, rotation) tiles.

    ``tokens=True`` puts number token i on the green of the i-th hole; a list gives raw tokens.
    """
    uses: dict[tuple, list[tuple[str, set[int]]]] = {}
    for cells in holes:
        pos = [tuple(c[:2]) for c in cells]
        for i, spec in enumerate(cells):
            sides = {_edge(pos[i], pos[j]) for j in (i - 1, i + 1) if 0 <= j < len(pos)}
            role = "tee" if i == 0 else "green" if i == len(pos) - 1 else "through"
            shape = role if role != "through" else ("straight" if OPPOSITE[min(sides)] in sides else "corner")
            tile_id = spec[2] if len(spec) > 2 else DEFAULT[shape]
            leave = _edge(pos[i], pos[i + 1]) if i + 1 < len(pos) else None
            allowed = {spec[3]} if len(spec) > 3 else rotations(tile_id, sides, role, leave)
            uses.setdefault(pos[i], []).append((tile_id, allowed))
    tiles = []
    for (r, c), use in uses.items():
        ids = {u[0] for u in use}
        allowed = set.intersection(*(u[1] for u in use))
        assert len(ids) == 1 and allowed, f"cell {(r, c)}: no tile/rotation fits {use}"
        tiles.append({"row": r, "col": c, "tile": ids.pop(), "rotation": min(allowed)})
    tiles += [{"row": r, "col": c, "tile": t, "rotation": rot} for r, c, t, rot in extra]
    if tokens is True:
        tokens = [{"number": i + 1, "row": cells[-1][0], "col": cells[-1][1]} for i, cells in enumerate(holes)]
    er, ec, facing = entrance
    return {
        "format": "golfscan/minigolf-designer",
        "version": 1,
        "grid": {"rows": grid[0], "cols": grid[1]},
        "entrance": {"row": er, "col": ec, "facing": facing},
        "tiles": tiles,
        "tokens": tokens or [],
        "setup": {"player": "Ada", **setup},
    }


def play(*boards: dict[str, Any], **options: Any) -> GameResult:
    """Parse (through the registry, schema included) and score boards."""
    parsed = [registry.parse_board(b) for b in boards]
    return parsed[0][0].score([p[1] for p in parsed], options)


def points(result: GameResult, prefix: str, player: int = 0) -> int:
    """Sum of the lines whose item starts with ``prefix`` (asserting there is at least one)."""
    found = [line.points for line in result.scores[player].lines if line.item.startswith(prefix)]
    assert found, f"no line {prefix!r} in {[line.item for line in result.scores[player].lines]}"
    return sum(found)


def rotate(data: dict[str, Any]) -> dict[str, Any]:
    """The same board turned 90 degrees clockwise (tiles, entrance, tokens)."""
    out = copy.deepcopy(data)
    rows = data["grid"]["rows"]
    out["grid"] = {"rows": data["grid"]["cols"], "cols": rows}

    def turn(item: dict[str, Any]) -> None:
        item["row"], item["col"] = item["col"], rows - 1 - item["row"]

    for item in out["tiles"] + out["tokens"] + [out["entrance"]]:
        turn(item)
    for t in out["tiles"]:
        t["rotation"] = (t["rotation"] + 90) % 360
    out["entrance"]["facing"] = FACING_TURN[out["entrance"]["facing"]]
    return out


def translate(data: dict[str, Any], dr: int, dc: int) -> dict[str, Any]:
    """The same board moved by (dr, dc) on a grid grown to fit."""
    out = copy.deepcopy(data)
    out["grid"] = {"rows": data["grid"]["rows"] + dr, "cols": data["grid"]["cols"] + dc}
    for item in out["tiles"] + out["tokens"] + [out["entrance"]]:
        item["row"] += dr
        item["col"] += dc
    return out


# A course that meets every constraint on the Meadow land card (entrance (0,0) facing SE): nine holes,
# each tee next to the previous green, par 4,4,4,3,4,4,4,5,4 = 36, two grass tiles filling the plot.
PERFECT_HOLES = [
    [(0, 1, "te04"), (0, 2, "st02"), (0, 3, "gr02")],
    [(0, 4, "te01"), (0, 5, "st05"), (0, 6, "co02"), (1, 6, "gr06")],
    [(2, 6, "te02"), (3, 6, "st03"), (4, 6, "st01"), (5, 6, "co01"), (5, 5, "gr01")],
    [(5, 4, "te06"), (5, 3, "st07"), (5, 2, "co05"), (4, 2, "gr05")],
    [(4, 3, "te05"), (4, 4, "st10"), (4, 5, "co11"), (3, 5, "st01"), (2, 5, "gr09")],
    [(1, 5, "te07"), (1, 4, "st14"), (1, 3, "st06"), (1, 2, "gr10")],
    [(2, 2, "te09"), (2, 3, "st11"), (2, 4, "co04"), (3, 4, "co08"), (3, 3, "gr12")],
    [(3, 2, "te12"), (3, 1, "co12"), (4, 1, "bf01"), (5, 1, "co14"), (5, 0, "co10"), (4, 0, "gr04")],
    [(3, 0, "te11"), (2, 0, "st12"), (1, 0, "gr02")],
]
PERFECT_GRASS = [(1, 1, "gs02", 0), (2, 1, "gs01", 0)]


def perfect(**setup: Any) -> dict[str, Any]:
    """The perfect Meadow course (see PERFECT_HOLES); ``setup`` adds or replaces setup keys."""
    return course(*PERFECT_HOLES, extra=PERFECT_GRASS, grid=(6, 7), **{"land": "meadow", **setup})

"""A compact text notation for 18 Holes plans in tests.

One token per square, rows on lines: ``.`` empty, ``M``/``X`` mountain (peak/black), ``g`` gorse,
``~`` water, ``t`` tree, ``b`` bunker, ``?`` unreadable, two edge letters (``NS``, ``EW``, ``NE`` ...) a
fairway, and ``W>E4`` a tee/green square with its green on W, its tee on E and par 4 (``W>E?``: par
unreadable).
"""

from __future__ import annotations

from typing import Any

SIMPLE = {
    ".": {"k": "empty"},
    "M": {"k": "mountain", "style": "peak"},
    "X": {"k": "mountain", "style": "black"},
    "g": {"k": "gorse"},
    "~": {"k": "water"},
    "t": {"k": "tree"},
    "b": {"k": "bunker"},
    "?": {"k": "unknown"},
}


def cell(token: str) -> dict[str, Any]:
    if token in SIMPLE:
        return dict(SIMPLE[token])
    if ">" in token:
        par = token[3:]
        return {"k": "teegreen", "green_edge": token[0], "tee_edge": token[2], "par": None if par == "?" else int(par)}
    return {"k": "fairway", "edges": list(token)}


def board(text: str, **extra: Any) -> dict[str, Any]:
    """A board dict from the notation; ``extra`` adds top-level keys (player, setup, review ...)."""
    cells = [[cell(t) for t in line.split()] for line in text.strip().splitlines()]
    data = {"format": "golfscan/18-holes", "version": 1, "grid": {"rows": len(cells), "cols": len(cells[0])}, "cells": cells}
    data.update(extra)
    return data


TURN = {"N": "E", "E": "S", "S": "W", "W": "N"}  # a quarter turn clockwise


def rotate(data: dict[str, Any]) -> dict[str, Any]:
    """The same plan turned a quarter clockwise: square (r, c) moves to (c, rows-1-r)."""
    rows, cols = data["grid"]["rows"], data["grid"]["cols"]
    cells = [[None] * rows for _ in range(cols)]
    for r, row in enumerate(data["cells"]):
        for c, item in enumerate(row):
            item = dict(item)
            for key in ("green_edge", "tee_edge"):
                if key in item:
                    item[key] = TURN[item[key]]
            if "edges" in item:
                item["edges"] = [TURN[e] for e in item["edges"]]
            cells[c][rows - 1 - r] = item
    return {**data, "grid": {"rows": cols, "cols": rows}, "cells": cells}


def loop_board(rows: int, cols: int, path: list[tuple[int, int]], tees: dict[int, int]) -> dict[str, Any]:
    """A plan whose only course is the closed ``path``; ``tees`` maps path indices to pars.

    Squares of the path join their neighbours before and after; the rest of the plan is empty.
    """
    cells = [[{"k": "empty"} for _ in range(cols)] for _ in range(rows)]
    for i, (r, c) in enumerate(path):
        towards = [_edge((r, c), path[i - 1]), _edge((r, c), path[(i + 1) % len(path)])]
        if i in tees:
            cells[r][c] = {"k": "teegreen", "green_edge": towards[0], "tee_edge": towards[1], "par": tees[i]}
        else:
            cells[r][c] = {"k": "fairway", "edges": towards}
    return {"format": "golfscan/18-holes", "version": 1, "grid": {"rows": rows, "cols": cols}, "cells": cells}


def ring(rows: int, cols: int) -> list[tuple[int, int]]:
    """The border squares of a rows x cols plan, clockwise from the top-left corner."""
    top = [(0, c) for c in range(cols)]
    right = [(r, cols - 1) for r in range(1, rows)]
    bottom = [(rows - 1, c) for c in range(cols - 2, -1, -1)]
    left = [(r, 0) for r in range(rows - 2, 0, -1)]
    return top + right + bottom + left


def _edge(a: tuple[int, int], b: tuple[int, int]) -> str:
    return {(-1, 0): "N", (0, 1): "E", (1, 0): "S", (0, -1): "W"}[(b[0] - a[0], b[1] - a[1])]

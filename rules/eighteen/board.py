"""The 18 Holes course plan as typed data: a grid of cells, plus the setup numbers.

Squares are named ``rRcC`` = ``cells[R][C]``, counted from 0 at the top-left with the sheet upright.

Example:
    >>> b = parse({"grid": {"rows": 1, "cols": 2},
    ...            "cells": [[{"k": "teegreen", "green_edge": "W", "tee_edge": "E", "par": 3},
    ...                       {"k": "fairway", "edges": ["W", "E"]}]]})
    >>> b.cell((0, 1)).edges, name((0, 1))
    (('W', 'E'), 'r0c1')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.common import BoardError, review_warnings

Pos = tuple[int, int]

STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def name(pos: Pos) -> str:
    """``(2, 3)`` -> ``'r2c3'``."""
    return f"r{pos[0]}c{pos[1]}"


def neighbour(pos: Pos, edge: str) -> Pos:
    """The square across ``edge`` of ``pos`` (may lie off the plan)."""
    dr, dc = STEP[edge]
    return pos[0] + dr, pos[1] + dc


@dataclass(frozen=True)
class Cell:
    """One square. ``edges`` for a fairway; ``green_edge``/``tee_edge``/``par`` for a tee/green square."""

    k: str
    edges: tuple[str, ...] = ()
    green_edge: str = ""
    tee_edge: str = ""
    par: int | None = None
    style: str = ""

    def other_edge(self, edge: str) -> str:
        """For a fairway entered through ``edge``: the edge it leaves by."""
        return self.edges[1] if self.edges[0] == edge else self.edges[0]


@dataclass(frozen=True)
class Board:
    """A parsed course plan. ``review`` holds the scanner's doubts as ready-made warning texts."""

    player: str
    prime_location: int
    committee_bonus: int
    rows: int
    cols: int
    cells: tuple[tuple[Cell, ...], ...]
    review: tuple[str, ...] = ()

    def on_plan(self, pos: Pos) -> bool:
        return 0 <= pos[0] < self.rows and 0 <= pos[1] < self.cols

    def cell(self, pos: Pos) -> Cell:
        return self.cells[pos[0]][pos[1]]

    def positions(self, *kinds: str) -> list[Pos]:
        """Every square of the given kinds, in reading order."""
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if self.cells[r][c].k in kinds]


def parse(data: dict[str, Any]) -> Board:
    """Schema-valid board JSON -> :class:`Board`; BoardError names the place of a semantic problem."""
    rows, cols = data["grid"]["rows"], data["grid"]["cols"]
    raw = data["cells"]
    if len(raw) != rows:
        raise BoardError(f"grid has {rows} rows but cells has {len(raw)}", "cells")
    cells = []
    for r, raw_row in enumerate(raw):
        if len(raw_row) != cols:
            raise BoardError(f"grid has {cols} columns but this row has {len(raw_row)} cells", f"cells[{r}]")
        row = []
        for c, item in enumerate(raw_row):
            cell = Cell(
                k=item["k"],
                edges=tuple(item.get("edges", ())),
                green_edge=item.get("green_edge", ""),
                tee_edge=item.get("tee_edge", ""),
                par=item.get("par"),
                style=item.get("style", ""),
            )
            if cell.k == "teegreen" and cell.green_edge == cell.tee_edge:
                raise BoardError(
                    f"green_edge and tee_edge must be different edges (both {cell.tee_edge})", f"cells[{r}][{c}]"
                )
            row.append(cell)
        cells.append(tuple(row))
    setup = data.get("setup", {})
    return Board(
        player=data.get("player", ""),
        prime_location=setup.get("prime_location", 0),
        committee_bonus=setup.get("committee_bonus", 0),
        rows=rows,
        cols=cols,
        cells=tuple(cells),
        review=tuple(review_warnings(data)),
    )


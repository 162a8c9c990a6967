"""The land card: its plot placed on the board from the entrance, and how well the course fills it.

The card's drawing has the entrance at its top-left corner, as seen with the entrance facing SE; for
the other facings the drawing turns clockwise (SW 90, NW 180, NE 270 degrees) about the entrance.

    >>> from rules.minigolf.board import Entrance
    >>> from rules.minigolf.catalogue import Land
    >>> plot, streams = plot_cells(Land("x", "x", 1, 5, ("E#", "#~")), Entrance(4, 4, "SW"))
    >>> sorted(plot), sorted(streams)
    ([(4, 3), (5, 4)], [(5, 3)])
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.minigolf.board import Board, Cell, Entrance
from rules.minigolf.catalogue import Land

TURNS = {"SE": 0, "SW": 1, "NW": 2, "NE": 3}  # quarter turns clockwise of the card drawing


def plot_cells(land: Land, entrance: Entrance) -> tuple[set[Cell], set[Cell]]:
    """Board cells of the plot to fill and of its streams."""
    plot: set[Cell] = set()
    streams: set[Cell] = set()
    for i, line in enumerate(land.plot):
        for j, mark in enumerate(line):
            di, dj = i, j
            for _ in range(TURNS[entrance.facing]):
                di, dj = dj, -di
            cell = (entrance.row + di, entrance.col + dj)
            if mark == "#":
                plot.add(cell)
            elif mark == "~":
                streams.add(cell)
    return plot, streams


@dataclass(frozen=True)
class LandFit:
    land: Land
    missing: tuple[Cell, ...]  # plot cells without a tile
    outside: tuple[Cell, ...]  # tiles beyond the plot
    on_streams: tuple[Cell, ...]  # tiles built on a stream
    off_grid: int = 0  # plot cells beyond the photographed grid (a wrong entrance facing?)

    @property
    def perfect(self) -> bool:
        return not (self.missing or self.outside or self.on_streams)


def fit(board: Board, land: Land) -> LandFit:
    plot, streams = plot_cells(land, board.entrance)
    built = set(board.by_cell)
    return LandFit(
        land,
        tuple(sorted(plot - built)),
        tuple(sorted(built - plot - streams)),
        tuple(sorted(built & streams)),
        sum(1 for r, c in plot if not (0 <= r < board.rows and 0 <= c < board.cols)),
    )

"""Follow each hole from its tee along the fairways, and join completed holes into chains.

A hole starts at the tee edge of a tee/green square. Its path enters each fairway square through one of
the fairway's two edges and leaves by the other, until it enters a tee/green square through that
square's green edge (a completed hole) or meets anything else (an incomplete hole): the edge of the
plan, the side of a fairway, an empty, hazard, mountain or unreadable square, a tee/green square from
a side that is not its green.

Example (a par 3 on one row: tee square, a straight fairway, green square):
    >>> from rules.eighteen.board import parse
    >>> tg = {"k": "teegreen", "green_edge": "W", "tee_edge": "E", "par": 3}
    >>> b = parse({"grid": {"rows": 1, "cols": 3},
    ...            "cells": [[tg, {"k": "fairway", "edges": ["W", "E"]}, tg]]})
    >>> [(h.tee, h.green, h.length) for h in trace_holes(b)]
    [((0, 0), (0, 2), 3), ((0, 2), None, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.eighteen.board import OPPOSITE, Board, Pos, name, neighbour


@dataclass(frozen=True)
class Hole:
    """A hole traced from the tee of square ``tee``.

    ``squares`` is every square the hole covers, in playing order, each once (a hole that comes back
    to its own tee/green square covers that square once). ``green`` is None for an incomplete hole,
    and then ``end`` says where it stops.
    """

    tee: Pos
    par: int | None
    squares: tuple[Pos, ...]
    green: Pos | None
    end: str = ""

    @property
    def complete(self) -> bool:
        return self.green is not None

    @property
    def length(self) -> int:
        """Squares covered, tee and green included; 0 for an incomplete hole."""
        return len(self.squares) if self.complete else 0


def trace_holes(board: Board) -> list[Hole]:
    """The hole from every tee/green square, in reading order of the tees."""
    return [trace(board, tee) for tee in board.positions("teegreen")]


def trace(board: Board, tee: Pos) -> Hole:
    """Follow the hole that starts at the tee edge of the tee/green square ``tee``.

    No loop guard is needed: fairway squares join in pairs of edges, so a path can only come back to
    a square it has used through the tee/green square it started from, and that ends the trace.
    """
    par = board.cell(tee).par
    squares = [tee]
    pos, edge = tee, board.cell(tee).tee_edge
    while True:
        nxt, entry = neighbour(pos, edge), OPPOSITE[edge]
        if not board.on_plan(nxt):
            return Hole(tee, par, tuple(squares), None, f"runs off the plan after {name(pos)}")
        cell = board.cell(nxt)
        if cell.k == "fairway" and entry in cell.edges:
            squares.append(nxt)
            pos, edge = nxt, cell.other_edge(entry)
        elif cell.k == "teegreen" and entry == cell.green_edge:
            if nxt != tee:
                squares.append(nxt)
            return Hole(tee, par, tuple(squares), nxt)
        else:
            return Hole(tee, par, tuple(squares), None, _dead_end(cell.k, nxt, entry))


def _dead_end(kind: str, pos: Pos, entry: str) -> str:
    where = name(pos)
    if kind == "fairway":
        return f"runs into the side of the fairway at {where}"
    if kind == "teegreen":
        return f"runs into the tee/green square {where} from its {entry} side, not its green"
    if kind == "unknown":
        return f"stops at the unreadable square {where}"
    if kind == "empty":
        return f"stops at the empty square {where}"
    return f"stops at the {kind} at {where}"


@dataclass(frozen=True)
class Chain:
    """Completed holes joined green-to-tee at shared tee/green squares; ``circuit`` if it closes."""

    holes: tuple[Hole, ...]
    circuit: bool

    def __len__(self) -> int:
        return len(self.holes)


def longest_chain(holes: list[Hole]) -> Chain:
    """The longest chain of completed holes (the first in reading order of its tee among equals).

    Each tee/green square starts at most one hole and is the green of at most one completed hole (a
    path run backwards from a green edge is unique), so chains are simple lines or circuits.

    >>> a = Hole((0, 0), 3, ((0, 0), (0, 1), (0, 2)), (0, 2))
    >>> b = Hole((0, 2), 3, ((0, 2), (1, 2), (2, 2)), (2, 2))
    >>> len(longest_chain([b, a]))
    2
    """
    by_tee = {h.tee: h for h in sorted(holes, key=lambda h: h.tee) if h.complete}
    best = Chain((), False)
    for start in by_tee:
        chain: list[Hole] = []
        pos: Pos | None = start
        circuit = False
        while pos in by_tee:
            chain.append(by_tee[pos])
            pos = by_tee[pos].green
            if pos == start:
                circuit = True
                break
        if len(chain) > len(best):
            best = Chain(tuple(chain), circuit)
    return best

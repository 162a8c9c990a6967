"""Hole tracing: follow the pathways from tile to tile and find the holes of a course.

Each pathway of each placed tile is a node; two nodes connect when their tiles share an edge and
both have a pathway end on it. Every node has at most two ends, so the connected pieces are chains
or closed cycles:

- tee ... green: a completed hole (played from the tee);
- tee ... tee or green ... green: a badly built hole (two tees / two greens);
- a closed cycle: a badly built hole (a loop);
- anything else (an open end somewhere): an uncompleted hole, not scored.

A tile whose two pathways both belong to one hole appears twice in that hole's steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rules.minigolf.board import Board, Cell, Placement
from rules.minigolf.catalogue import OPPOSITE, STEP, rotate_edge

COMPLETED, TWO_TEES, TWO_GREENS, LOOP, OPEN = "completed", "two tees", "two greens", "loop", "uncompleted"
BADLY_BUILT = (TWO_TEES, TWO_GREENS, LOOP)

Node = tuple[int, int]  # (index into board.tiles, pathway index)


@dataclass(frozen=True)
class Step:
    """One pathway on a hole in order of play: entered through edge ``enter``, left through ``leave``.

    Edges are absolute (board) edges; ``enter`` is None on a tee, ``leave`` None on a green.
    """

    placement: Placement
    pathway: int
    enter: str | None
    leave: str | None

    @property
    def cell(self) -> Cell:
        return self.placement.cell

    def reversed(self) -> Step:
        return Step(self.placement, self.pathway, self.leave, self.enter)


@dataclass(frozen=True)
class Hole:
    steps: tuple[Step, ...]
    status: str
    ends: tuple[str, str] = ("", "")  # 'tee', 'green' or '' (open end / loop) at each end of the chain

    @property
    def completed(self) -> bool:
        return self.status == COMPLETED

    @property
    def tee(self) -> Step:
        return self.steps[0]

    @property
    def green(self) -> Step:
        return self.steps[-1]

    @property
    def length(self) -> int:
        """Tiles along the hole; a tile whose two pathways the hole uses counts twice."""
        return len(self.steps)

    @cached_property
    def tiles(self) -> tuple[Placement, ...]:
        """Distinct tiles of the hole, in order of play."""
        return tuple(dict.fromkeys(s.placement for s in self.steps))

    @property
    def par(self) -> int:
        """Sum of the flag numbers; a tile counts once however many of its pathways the hole uses."""
        return sum(p.tile.flag for p in self.tiles if p.tile)

    @property
    def direction_in(self) -> str | None:
        """Direction of play (N/E/S/W) as the ball enters the green."""
        return OPPOSITE[self.green.enter] if self.green.enter else None

    @property
    def direction_out(self) -> str:
        """Direction of play as the ball leaves the tee."""
        return self.tee.leave or ""

    def describe(self) -> str:
        """e.g. 'tee te01@(1,1) -> green gr02@(1,3), 3 tiles' or 'loop through co01@(1,1), 4 tiles'."""
        if self.status == LOOP:
            return f"loop through {self.tee.placement.label}, {self.length} tiles"
        first, last = (end or "open end" for end in self.ends)
        return f"{first} {self.tee.placement.label} -> {last} {self.green.placement.label}, {self.length} tiles"


@dataclass(frozen=True)
class Mismatch:
    """A shared edge with a pathway on one side and grass on the other."""

    pathway_side: Placement
    grass_side: Placement
    edge: str  # edge of pathway_side

    def describe(self) -> str:
        return f"{self.pathway_side.label} {self.edge} edge meets grass of {self.grass_side.label}"


@dataclass(frozen=True)
class Course:
    holes: tuple[Hole, ...]
    mismatches: tuple[Mismatch, ...]

    @property
    def completed(self) -> tuple[Hole, ...]:
        return tuple(h for h in self.holes if h.completed)

    @property
    def badly_built(self) -> tuple[Hole, ...]:
        return tuple(h for h in self.holes if h.status in BADLY_BUILT)

    @property
    def uncompleted(self) -> tuple[Hole, ...]:
        """Open pieces with a tee or a green (bare pathway fragments are not counted as holes)."""
        return tuple(h for h in self.holes if h.status == OPEN and any(h.ends))


def _abs_edges(p: Placement, pathway: int) -> tuple[str, ...]:
    assert p.tile is not None
    return tuple(rotate_edge(e, p.rotation) for e in p.tile.pathways[pathway].edges)


class _Graph:
    """Pathway ends by (cell, absolute edge), and the moves between them."""

    def __init__(self, board: Board):
        self.tiles = board.tiles
        self.index = {p.cell: i for i, p in enumerate(board.tiles)}
        self.ports: dict[tuple[Cell, str], Node] = {}
        for i, p in enumerate(board.tiles):
            for k in range(len(p.tile.pathways) if p.tile else 0):
                for edge in _abs_edges(p, k):
                    self.ports[(p.cell, edge)] = (i, k)

    def edges(self, node: Node) -> tuple[str, ...]:
        return _abs_edges(self.tiles[node[0]], node[1])

    def across(self, node: Node, edge: str) -> Node | None:
        """The node on the far side of ``edge`` of ``node``'s cell, if its pathway reaches that edge."""
        r, c = self.tiles[node[0]].cell
        dr, dc = STEP[edge]
        return self.ports.get(((r + dr, c + dc), OPPOSITE[edge]))

    def node(self, step: Step) -> Node:
        return (self.index[step.cell], step.pathway)

    def terminal(self, node: Node) -> str:
        """'tee', 'green' or '' for a through pathway."""
        pw = self.tiles[node[0]].tile.pathways[node[1]]
        return "tee" if pw.tee else "green" if pw.green else ""

    def free_end(self, node: Node) -> str | None:
        """Where a chain can start at this node: 'inner' for a tee/green, an unconnected edge, else None."""
        if self.terminal(node):
            return "inner"
        return next((e for e in self.edges(node) if self.across(node, e) is None), None)

    def walk(self, start: Node, enter: str | None) -> list[Step]:
        """Follow the chain from ``start`` (entered through ``enter``) until it ends or comes back."""
        steps: list[Step] = []
        seen: set[Node] = set()
        node: Node | None = start
        while node is not None and node not in seen:
            seen.add(node)
            leave = next((e for e in self.edges(node) if e != enter), None)
            steps.append(Step(self.tiles[node[0]], node[1], enter, leave))
            if leave is None:
                break
            node, enter = self.across(node, leave), OPPOSITE[leave]
        return steps


def _classify(graph: _Graph, steps: list[Step], cycle: bool) -> Hole:
    if cycle:
        return Hole(tuple(steps), LOOP)

    first = graph.terminal(graph.node(steps[0])) if steps[0].enter is None else ""
    last = graph.terminal(graph.node(steps[-1])) if steps[-1].leave is None else ""
    # orient the chain in the direction of play: from a tee, or towards a lone green
    if (last == "tee" and first != "tee") or (first == "green" and last != "green"):
        steps = [s.reversed() for s in reversed(steps)]
        first, last = last, first
    ends = (first, last)
    status = {("tee", "green"): COMPLETED, ("tee", "tee"): TWO_TEES, ("green", "green"): TWO_GREENS}.get(ends, OPEN)
    return Hole(tuple(steps), status, ends)


def trace(board: Board) -> Course:
    """All holes (completed, badly built, uncompleted) and mismatched connections of a board."""
    graph = _Graph(board)
    nodes = [(i, k) for i, p in enumerate(board.tiles) for k in range(len(p.tile.pathways) if p.tile else 0)]
    holes: list[Hole] = []
    done: set[Node] = set()
    for node in nodes:  # chains first, from one of their ends
        free = graph.free_end(node)
        if node in done or free is None:
            continue
        steps = graph.walk(node, None if free == "inner" else free)
        done.update(graph.node(s) for s in steps)
        holes.append(_classify(graph, steps, cycle=False))
    for node in nodes:  # what is left has no end: closed loops
        if node not in done:
            steps = graph.walk(node, graph.edges(node)[0])
            done.update(graph.node(s) for s in steps)
            holes.append(_classify(graph, steps, cycle=True))

    mismatches = []
    for p in board.tiles:
        for k in range(len(p.tile.pathways) if p.tile else 0):
            for edge in _abs_edges(p, k):
                dr, dc = STEP[edge]
                other = board.by_cell.get((p.row + dr, p.col + dc))
                if other and other.tile and (other.cell, OPPOSITE[edge]) not in graph.ports:
                    mismatches.append(Mismatch(p, other, edge))
    return Course(tuple(holes), tuple(mismatches))

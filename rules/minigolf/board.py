"""A Minigolf Designer board: what the photo shows (tiles, entrance, number tokens) plus the setup.

:func:`parse` turns schema-valid JSON into a :class:`Board` and raises BoardError (naming the JSON
place) for what a schema cannot check: unknown ids, cells off the grid, two tiles in one cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rules.common import BoardError
from rules.minigolf.catalogue import CLIENTS, LANDS, ORDERS, TILES, UNKNOWN, Tile

Cell = tuple[int, int]


@dataclass(frozen=True)
class Placement:
    """A tile at a cell, turned ``rotation`` degrees clockwise. ``tile`` is None when unreadable."""

    row: int
    col: int
    tile: Tile | None
    rotation: int
    place: str

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)

    @property
    def label(self) -> str:
        return f"{self.tile.id if self.tile else UNKNOWN}@({self.row},{self.col})"


@dataclass(frozen=True)
class Token:
    number: int
    row: int
    col: int
    pathway: int | None
    place: str


@dataclass(frozen=True)
class Entrance:
    row: int
    col: int
    facing: str  # diagonal the plot lies in: SE, SW, NW, NE

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)


@dataclass(frozen=True)
class Setup:
    player: str
    land: str | None = None
    clients: tuple[str, ...] = ()
    orders: tuple[str, ...] = ()
    bonus_tiles: int = 0
    reserved_tile_left: bool = False
    expert: bool = False


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int
    entrance: Entrance
    tiles: tuple[Placement, ...]
    tokens: tuple[Token, ...]
    setup: Setup
    review: tuple[str, ...] = field(default=())

    @cached_property
    def by_cell(self) -> dict[Cell, Placement]:
        return {p.cell: p for p in self.tiles}


def _on_grid(row: int, col: int, rows: int, cols: int, place: str) -> None:
    if not (0 <= row < rows and 0 <= col < cols):
        raise BoardError(f"cell ({row},{col}) is off the {rows}x{cols} grid", place)


def _check_ids(ids: list[str], known: dict[str, Any], what: str, place: str) -> None:
    for i, name in enumerate(ids):
        if name not in known:
            raise BoardError(f"unknown {what} {name!r}; known: {', '.join(sorted(known))}", f"{place}[{i}]")


def parse(data: dict[str, Any]) -> Board:
    """Build a Board from schema-valid JSON (see docs/boards/minigolf-designer.md)."""
    rows, cols = data["grid"]["rows"], data["grid"]["cols"]
    ent = data["entrance"]
    entrance = Entrance(ent["row"], ent["col"], ent["facing"])
    _on_grid(entrance.row, entrance.col, rows, cols, "entrance")

    placements: list[Placement] = []
    seen: dict[Cell, str] = {entrance.cell: "the entrance (a reserved tile left there: setup.reserved_tile_left)"}
    for i, raw in enumerate(data["tiles"]):
        place = f"tiles[{i}]"
        _on_grid(raw["row"], raw["col"], rows, cols, place)
        cell = (raw["row"], raw["col"])
        if cell in seen:
            raise BoardError(f"cell ({cell[0]},{cell[1]}) is already taken by {seen[cell]}", place)
        seen[cell] = place
        tile_id = raw["tile"]
        if tile_id != UNKNOWN and tile_id not in TILES:
            raise BoardError(f"unknown tile id {tile_id!r} (see rules/minigolf/tiles.json)", f"{place}.tile")
        placements.append(Placement(cell[0], cell[1], TILES.get(tile_id), raw["rotation"], place))

    by_cell = {p.cell: p for p in placements}
    tokens: list[Token] = []
    for i, raw in enumerate(data.get("tokens", [])):
        place = f"tokens[{i}]"
        _on_grid(raw["row"], raw["col"], rows, cols, place)
        pathway = raw.get("pathway")
        host = by_cell.get((raw["row"], raw["col"]))
        if pathway is not None and host and host.tile and pathway >= len(host.tile.pathways):
            raise BoardError(f"tile {host.tile.id} has no pathway {pathway}", f"{place}.pathway")
        tokens.append(Token(raw["number"], raw["row"], raw["col"], pathway, place))

    s = data["setup"]
    land = s.get("land")
    if land is not None and land not in LANDS:
        raise BoardError(f"unknown land card {land!r}; known: {', '.join(sorted(LANDS))}", "setup.land")
    _check_ids(s.get("clients", []), CLIENTS, "client", "setup.clients")
    _check_ids(s.get("orders", []), ORDERS, "order", "setup.orders")
    setup = Setup(
        player=s["player"],
        land=land,
        clients=tuple(s.get("clients", [])),
        orders=tuple(s.get("orders", [])),
        bonus_tiles=s.get("bonus_tiles", 0),
        reserved_tile_left=s.get("reserved_tile_left", False),
        expert=s.get("options", {}).get("expert", False),
    )
    review = tuple(
        f"scanner review: {r['where']}: {r['note']}"
        + (f" (confidence {r['confidence']:.2f})" if "confidence" in r else "")
        for r in data.get("review", [])
    )
    return Board(rows, cols, entrance, tuple(placements), tuple(tokens), setup, review)

"""The Minigolf Designer catalogues (tiles, land cards, orders, clients), loaded from the JSON beside this file.

Edges are named N, E, S, W; a tile's edges are given at rotation 0 and a rotation turns it clockwise.

Example:
    >>> rotate_edge("N", 90), rotate_edge("W", 180)
    ('E', 'E')
    >>> TILES["te01"].kind
    'tee'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
EDGES = ("N", "E", "S", "W")
# (row, col) step when leaving a cell through an edge; rows grow southwards
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
ROTATIONS = (0, 90, 180, 270)


def rotate_edge(edge: str, rotation: int) -> str:
    """The edge a tile-local ``edge`` ends up on when the tile is turned ``rotation`` degrees clockwise."""
    return EDGES[(EDGES.index(edge) + rotation // 90) % 4]


@dataclass(frozen=True)
class Pathway:
    """One pathway of a tile: the edges it joins; a tee or green pathway has one edge (the ball leaves/enters there)."""

    edges: tuple[str, ...]
    tee: bool = False
    green: bool = False


@dataclass(frozen=True)
class Arrow:
    """A one-way arrow on pathway ``pathway``, pointing towards tile-local edge ``to``."""

    pathway: int
    to: str


@dataclass(frozen=True, eq=False)  # one object per catalogue id: compared and hashed by identity
class Tile:
    id: str
    set: str
    kind: str
    count: int
    flag: int
    pathways: tuple[Pathway, ...]
    features: dict[str, int]
    obstacle: bool
    arrow: Arrow | None
    name: str = ""

    @property
    def is_grass(self) -> bool:
        """Mrs Camper's grass tile: four green edges, no pathway."""
        return not self.pathways

    @property
    def people(self) -> int:
        return self.features["people"]


# A tile the scanner could not read: no pathway, no features, not grass (its edges never mismatch).
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Land:
    id: str
    name: str
    difficulty: int
    value: int
    plot: tuple[str, ...]


@dataclass(frozen=True)
class Order:
    id: str
    text: str
    points: int
    feature: str | None = None
    par: int | None = None


@dataclass(frozen=True)
class Client:
    id: str
    name: str
    source: str
    rule: str
    params: dict[str, Any]


def _load(name: str) -> dict[str, Any]:
    return json.loads((HERE / name).read_text(encoding="utf-8"))


def _tile(raw: dict[str, Any], features: list[str]) -> Tile:
    arrow = raw.get("arrow")
    return Tile(
        id=raw["id"],
        set=raw["set"],
        kind=raw["kind"],
        count=raw["count"],
        flag=raw["flag"],
        pathways=tuple(
            Pathway(tuple(p["edges"]), p.get("tee", False), p.get("green", False)) for p in raw["pathways"]
        ),
        features={f: raw[f] for f in features},
        obstacle=raw["obstacle"],
        arrow=Arrow(arrow["pathway"], arrow["to"]) if arrow else None,
        name=raw.get("name", ""),
    )


_TILE_DATA = _load("tiles.json")
FEATURES: tuple[str, ...] = tuple(_TILE_DATA["features"])
TILES: dict[str, Tile] = {raw["id"]: _tile(raw, _TILE_DATA["features"]) for raw in _TILE_DATA["tiles"]}
LANDS: dict[str, Land] = {
    raw["id"]: Land(raw["id"], raw["name"], raw["difficulty"], raw["value"], tuple(raw["plot"]))
    for raw in _load("lands.json")["lands"]
}
ORDERS: dict[str, Order] = {raw["id"]: Order(**raw) for raw in _load("orders.json")["orders"]}
CLIENTS: dict[str, Client] = {
    raw["id"]: Client(
        raw["id"], raw["name"], raw["source"], raw["rule"],
        {k: v for k, v in raw.items() if k not in ("id", "name", "source", "rule")},
    )
    for raw in _load("clients.json")["clients"]
}

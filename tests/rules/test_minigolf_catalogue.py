"""The catalogues are consistent data: tile shapes, the expansion's Tile Reference, lands, orders, clients."""

from __future__ import annotations

import re

import pytest

from rules.minigolf.catalogue import CLIENTS, EDGES, FEATURES, LANDS, ORDERS, TILES
from rules.minigolf.clients import SCORERS

# The Putt of No Return Tile Reference, in printed order (features as printed; "A" = arrow)
REFERENCE = """
1 Person, 1 Dog - A | Obstacle - A | 2 People, 1 Tree - A | 1 Dog, 1 Slope - A | 1 Person, 1 Flower - A | 1 Pool
1 Person, 1 Slope, 1 Pipe, Obstacle - A | 1 Person, 1 Pool, 1 Tree - A | 1 Person, 1 Pipe, 1 Flower, 2 Benches - A
Tee, Green, 3 People, 1 Flower | Tee, Green, 3 People, 1 Bench | Tee, Green, 2 People, 1 Dog, 1 Tree
Tee, 3 People, 1 Slope, 1 Pool - A | Tee, 4 People, 1 Flower, 1 Bench | Tee, 2 People, 1 Dog, Obstacle
Green, 3 People, 1 Pipe, 1 Pool | Green, 4 People, 1 Tree, 1 Slope | Green, 3 People, 1 Pipe, Obstacle
1 Person, 1 Tree | 1 Person, 1 Tree | 1 Tree | - | 2 People | 3 People
"""
PLURAL = {"person": "people", "people": "people", "dog": "dogs", "tree": "trees", "bench": "benches",
          "benches": "benches", "pool": "pools", "pipe": "pipes", "slope": "slopes", "flower": "flowers"}


def reference_entries():
    for i, text in enumerate(t.strip() for t in REFERENCE.replace("\n", "|").split("|") if t.strip()):
        counts = {f: 0 for f in FEATURES}
        for n, word in re.findall(r"(\d+) (\w+)", text):
            counts[PLURAL[word.lower()]] += int(n)
        yield f"pn{i + 1:02d}", text, counts


@pytest.mark.parametrize("tile_id, text, counts", list(reference_entries()))
def test_expansion_tiles_follow_the_tile_reference(tile_id, text, counts):
    tile = TILES[tile_id]
    assert tile.set == "expansion" and tile.count == 1
    assert tile.features == counts
    assert tile.obstacle == ("Obstacle" in text)
    assert (tile.arrow is not None) == text.endswith("- A")
    assert any(p.tee for p in tile.pathways) == text.startswith("Tee")
    assert any(p.green for p in tile.pathways) == ("Green" in text)


def test_tile_set_sizes():
    base = [t for t in TILES.values() if t.set == "base"]
    expansion = [t for t in TILES.values() if t.set == "expansion"]
    assert sum(t.count for t in base) == 256  # the box count
    assert 60 <= len(base) <= 90 and len(expansion) == 24
    assert sum(t.kind == "tricky" for t in expansion) == 9
    assert sum(t.arrow is not None for t in expansion) == 9
    assert sum(t.kind == "crossover" for t in base) == 2
    assert {t.kind for t in base} == {"straight", "corner", "tee", "green", "bifurcation", "crossover", "grass"}
    assert {t.flag for t in base} == {0, 1, 2, 3}


SHAPES = {  # kind -> pathway signatures (edge count, role) at any rotation
    "straight": [[(2, "")]], "corner": [[(2, "")]], "bifurcation": [[(2, "")]], "tee": [[(1, "tee")]],
    "green": [[(1, "green")]], "crossover": [[(2, ""), (2, "")]], "grass": [[]],
    "tricky": [[(1, "green"), (1, "tee")], [(1, "tee"), (2, "")], [(1, "green"), (2, "")]],
}


@pytest.mark.parametrize("tile", TILES.values(), ids=lambda t: t.id)
def test_tile_shape_is_consistent(tile):
    used = [e for p in tile.pathways for e in p.edges]
    assert set(used) <= set(EDGES) and len(used) == len(set(used))  # one pathway end per edge
    signature = sorted((len(p.edges), "tee" if p.tee else "green" if p.green else "") for p in tile.pathways)
    assert signature in [sorted(s) for s in SHAPES[tile.kind]]
    for p in tile.pathways:
        if len(p.edges) == 2 and tile.kind in ("straight", "corner"):
            straight = {p.edges[0], p.edges[1]} in ({"N", "S"}, {"E", "W"})
            assert straight == (tile.kind == "straight")
    if tile.arrow:
        assert tile.arrow.to in tile.pathways[tile.arrow.pathway].edges
    assert all(v >= 0 for v in tile.features.values()) and 0 <= tile.flag <= 3


def test_lands_have_the_entrance_at_the_top_left_corner():
    for land in LANDS.values():
        marks = "".join(land.plot)
        assert land.plot[0][0] == "E" and marks.count("E") == 1
        assert set(marks) <= set("E#~.") and land.value > 0


def test_orders_have_one_of_the_two_shapes():
    for order in ORDERS.values():
        assert (order.feature is None) != (order.par is None)
        assert order.feature is None or order.feature in FEATURES


def test_every_scored_client_has_a_scorer():
    assert {c.id for c in CLIENTS.values() if c.source != "not-scored"} == set(SCORERS)

"""A Minigolf tile whose green the colour masks miss (glare washes it out) is still read, not left off."""

from __future__ import annotations

import numpy as np
import pytest
from flatphoto import tile_course

import scanner.games.minigolf as minigolf
from scanner.games.minigolf import Prepared, _read_cells
from scanner.games.minigolf.colour import classify
from scanner.games.minigolf.lattice import lattice_from_quad
from scanner.games.minigolf.match import meaning

PITCH = 100  # working pixels per cell
COURSE = [["co01", "st08", "co04"], ["st01", "gs02", "st04"]]


def course_with_blank_masks_at_corner() -> Prepared:
    """A 2 x 3 course of tiles on a grey table, one tile's pitch all round; the grass and path masks blank
    over the tile at (0, 0), as when glare washes its colours out."""
    img = tile_course(COURSE, PITCH)
    masks = classify(img)
    for m in (masks.grass, masks.path):
        m[PITCH:2 * PITCH, PITCH:2 * PITCH] = False
    return Prepared(img, 1.0, (0.0, 0.0), masks, masks.grass.copy())


def lattice():
    quad = np.float32([[PITCH, PITCH], [4 * PITCH, PITCH], [4 * PITCH, 3 * PITCH], [PITCH, 3 * PITCH]])
    return lattice_from_quad(quad, len(COURSE), len(COURSE[0]))


def test_tile_the_masks_miss_is_read():
    cells = _read_cells(course_with_blank_masks_at_corner(), lattice(), [])
    assert (cells.tiles[(0, 0)].tile, cells.tiles[(0, 0)].rotation) == ("co01", 0)
    assert {rc: meaning(rd.tile, rd.rotation) for rc, rd in cells.tiles.items()} == \
        {(r, c): meaning(t, 0) for r, line in enumerate(COURSE) for c, t in enumerate(line)}


def test_without_the_quick_look_the_tile_would_be_lost(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(minigolf, "WASHED_LOOK", 2.0)  # never read a cell the masks show no tile in
    assert (0, 0) not in _read_cells(course_with_blank_masks_at_corner(), lattice(), []).tiles

"""Minigolf lattice counts: a count missing from the likely ones (the gaps of a steeply seen course's far side
blur away) is still found when the likely counts' cells look little like tiles; a count judged wrongly over the
few cells of a first look is judged again over more."""

from __future__ import annotations

import numpy as np
from flatphoto import tile_course

import scanner.games.minigolf as minigolf
from scanner.games.minigolf import GOOD_LATTICE, Prepared, _best_lattice
from scanner.games.minigolf.colour import classify

PITCH = 100  # working pixels per cell
COURSE = [["co01", "st08", "co04", "te02"], ["st01", "co12", "st04", "gr06"], ["co08", "st10", "co09", "st06"]]


def drawn_course(spoiled: bool = False) -> tuple[Prepared, np.ndarray]:
    """The course's tiles on a grey table with a cell's margin all round, and its outer corners; ``spoiled``
    scrambles the first tile's quarters (it then matches no tile well, as under clutter or shadow streaks)."""
    rows, cols = len(COURSE), len(COURSE[0])
    img = tile_course(COURSE, PITCH)
    if spoiled:
        half = PITCH // 2
        top, bottom = slice(PITCH, PITCH + half), slice(PITCH + half, 2 * PITCH)
        left, right = slice(PITCH, PITCH + half), slice(PITCH + half, 2 * PITCH)
        img[top, left], img[bottom, right] = img[bottom, right].copy(), img[top, left].copy()
    masks = classify(img)
    quad = np.float64([[PITCH, PITCH], [(cols + 1) * PITCH, PITCH], [(cols + 1) * PITCH, (rows + 1) * PITCH],
                       [PITCH, (rows + 1) * PITCH]])
    return Prepared(img, 1.0, (0.0, 0.0), masks, masks.grass.copy()), quad


def test_a_count_one_off_the_likely_ones_is_found():
    p, quad = drawn_course()
    lattice, score = _best_lattice(p, quad, [(2, 4), (2, 5)])  # a row short in both
    assert (lattice.rows, lattice.cols) == (3, 4) and score >= GOOD_LATTICE


def test_a_likely_count_that_looks_like_tiles_stands():
    p, quad = drawn_course()
    lattice, score = _best_lattice(p, quad, [(3, 4), (2, 4)])
    assert (lattice.rows, lattice.cols) == (3, 4) and score >= GOOD_LATTICE


def test_a_count_misjudged_over_a_few_cells_is_judged_again(monkeypatch):
    p, quad = drawn_course(spoiled=True)
    monkeypatch.setattr(minigolf, "SAMPLE_CELLS", 1)  # the first look sees the spoiled tile only
    lattice, score = _best_lattice(p, quad, [(3, 4), (2, 4)])
    assert (lattice.rows, lattice.cols) == (3, 4) and score >= GOOD_LATTICE


def test_without_the_second_judgement_the_spoiled_tile_misleads(monkeypatch):
    p, quad = drawn_course(spoiled=True)
    monkeypatch.setattr(minigolf, "SAMPLE_CELLS", 1)
    monkeypatch.setattr(minigolf, "RECHECK_CELLS", 1)
    lattice, _ = _best_lattice(p, quad, [(3, 4), (2, 4)])
    assert (lattice.rows, lattice.cols) != (3, 4)

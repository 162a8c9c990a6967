"""Minigolf Designer detection: a course photographed small is still recognised by its tiles, and the
scan takes the course and lattice its likelihood found."""

from __future__ import annotations

import numpy as np
import pytest

from fixtures.camera import photograph
from fixtures.games import minigolf as art
from fixtures.presets import PRESETS
from scanner.errors import ScanError
from scanner.games import minigolf


@pytest.fixture(scope="module")
def far_course():
    """A random course in the middle of a wide plain table: little green in the photo."""
    rng = np.random.default_rng(11)
    image = photograph(art.compose(art.random_board(rng), rng), PRESETS["flat-scan"].with_megapixels(0.6),
                       rng).image
    h, w = image.shape[:2]
    table = np.full((3 * h, 3 * w, 3), (70, 100, 140), np.uint8)
    table[h:2 * h, w:2 * w] = image
    return table


def test_a_small_course_is_sure_by_its_tiles(far_course, monkeypatch):
    assert minigolf.likelihood(far_course) >= minigolf.GOOD_LATTICE

    def no_lattice(image):
        raise ScanError("no lattice")

    monkeypatch.setattr(minigolf, "course_lattice", no_lattice)
    assert minigolf.LATTICE_LOOK < minigolf.likelihood(far_course) < 0.5  # its colours alone: unsure


def test_the_scan_reuses_the_lattice_the_likelihood_found(far_course, monkeypatch):
    prepared = []
    real = minigolf.prepare
    monkeypatch.setattr(minigolf, "prepare", lambda image: prepared.append(1) or real(image))
    image = far_course.copy()  # an array the module fixture's other test has not shown the plugin yet
    minigolf.likelihood(image)
    assert minigolf.scan(image).board["tiles"]
    assert len(prepared) == 1

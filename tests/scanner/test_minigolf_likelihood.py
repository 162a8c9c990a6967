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


def course_on_table(widths: int) -> np.ndarray:
    """A random course in the middle of a wide plain table ``widths`` times its own width: little green."""
    rng = np.random.default_rng(11)
    image = photograph(art.compose(art.random_board(rng), rng), PRESETS["flat-scan"].with_megapixels(0.6),
                       rng).image
    h, w = image.shape[:2]
    table = np.full((widths * h, widths * w, 3), (70, 100, 140), np.uint8)
    middle = widths // 2
    table[middle * h:(middle + 1) * h, middle * w:(middle + 1) * w] = image
    return table


@pytest.fixture(scope="module")
def far_course():
    return course_on_table(3)


def test_a_small_course_is_sure_by_its_tiles(far_course, monkeypatch):
    assert minigolf.likelihood(far_course) >= minigolf.GOOD_LATTICE

    def no_lattice(image):
        raise ScanError("no lattice")

    monkeypatch.setattr(minigolf, "course_lattice", no_lattice)
    assert minigolf.LATTICE_LOOK < minigolf.likelihood(far_course) < 0.5  # its colours alone: unsure


def test_a_course_a_fifth_of_the_photo_wide_is_recognised():
    """Seen as small as the photo is first looked at, its thin strips of grass between pathways vanish."""
    assert minigolf.likelihood(course_on_table(5)) >= minigolf.GOOD_LATTICE


def test_the_scan_reuses_the_lattice_the_likelihood_found(far_course, monkeypatch):
    prepared = []
    real = minigolf.prepare
    monkeypatch.setattr(minigolf, "prepare", lambda image: prepared.append(1) or real(image))
    image = far_course.copy()  # an array the module fixture's other test has not shown the plugin yet
    minigolf.likelihood(image)
    assert minigolf.scan(image).board["tiles"]
    assert len(prepared) == 1

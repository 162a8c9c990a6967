"""Minigolf course cut-out: a course the first, coarse look saw only in part (glare thins its grass there) is
cut out again wider, until the course no longer runs off the cut-out's edge."""

from __future__ import annotations

import numpy as np
import pytest
from flatphoto import tile_course

import scanner.games.minigolf as minigolf

PITCH = 60  # photo pixels per tile
COURSE = [["co01", "st08", "co04", "te02", "st01", "gr06"], ["st01", "co12", "st04", "gr06", "st10", "co09"],
          ["co08", "st10", "co09", "st06", "co01", "st08"], ["st01", "co12", "st04", "gr06", "st04", "gr06"]]
LEFT, TOP = 500, 400  # the course's top-left corner in the photo


def course_photo() -> np.ndarray:
    return tile_course(COURSE, PITCH, shape=(1200, 1600), origin=(LEFT, TOP), table=(70, 110, 150))


@pytest.fixture
def first_look_sees_the_left_half(monkeypatch):
    """The coarse look (the first call) finds only the course's left three columns."""
    real, calls = minigolf._masks, []

    def masks(balanced, band):
        found, region = real(balanced, band)
        if not calls:
            region = region.copy()
            ys, xs = np.nonzero(region)
            region[:, (xs.min() + xs.max()) // 2:] = False
        calls.append(balanced.shape)
        return found, region

    monkeypatch.setattr(minigolf, "_masks", masks)


def course_span(p: minigolf.Prepared) -> tuple[float, float]:
    """The course region's left and right ends, photo pixels."""
    xs = np.nonzero(p.region)[1]
    return xs.min() / p.scale + p.offset[0], xs.max() / p.scale + p.offset[0]


def test_a_course_cut_by_the_cut_out_is_cut_out_again_wider(first_look_sees_the_left_half):
    left, right = course_span(minigolf.prepare(course_photo()))
    assert left == pytest.approx(LEFT, abs=4) and right == pytest.approx(LEFT + 6 * PITCH, abs=8)


def test_without_growing_the_cut_out_the_course_is_cut(first_look_sees_the_left_half, monkeypatch):
    monkeypatch.setattr(minigolf, "CROP_GROWS", 0)
    _, right = course_span(minigolf.prepare(course_photo()))
    assert right < LEFT + 5 * PITCH


def test_a_course_seen_whole_at_first_is_cut_out_once(monkeypatch):
    calls = []
    real = minigolf._masks
    monkeypatch.setattr(minigolf, "_masks", lambda balanced, band: calls.append(1) or real(balanced, band))
    left, right = course_span(minigolf.prepare(course_photo()))
    assert len(calls) == 2  # the coarse look and one cut-out
    assert right == pytest.approx(LEFT + 6 * PITCH, abs=8)

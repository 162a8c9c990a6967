"""A plugin's likelihood and scan of one image array share the work they both begin with."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner import cards
from scanner.errors import ScanError
from scanner.games import eighteen, frontnine, gnoming
from scanner.memo import same_image


def test_the_answer_is_kept_for_the_same_array_only():
    calls = []

    @same_image
    def total(image):
        calls.append(image)
        return int(image.sum())

    a = np.ones((4, 4), np.uint8)
    assert total(a) == total(a) == 16 and len(calls) == 1
    b = a.copy()
    b[0, 0] = 5
    assert total(b) == 20 and len(calls) == 2  # another array (pixels may differ): worked out again
    assert total(a) == 16 and len(calls) == 3  # only the last array is kept


def test_a_step_that_fails_is_tried_again():
    calls = []

    @same_image
    def fails(image):
        calls.append(1)
        raise ScanError("nothing here")

    image = np.zeros((2, 2), np.uint8)
    for _ in range(2):
        with pytest.raises(ScanError):
            fails(image)
    assert len(calls) == 2


def counting(monkeypatch, module, name: str) -> list[int]:
    """Count the calls of ``module.name`` (the step a plugin's remembered helper runs)."""
    calls: list[int] = []
    real = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *args: calls.append(1) or real(*args))
    return calls


@pytest.mark.parametrize("plugin", [gnoming, frontnine])
def test_card_games_search_a_photo_once_for_likelihood_and_scan(plugin, monkeypatch):
    masked = counting(monkeypatch, cards, "paper_holes")
    image = np.full((300, 400, 3), 90, np.uint8)  # a plain table: no cards, so both masks are searched
    assert plugin.likelihood(image) == 0.0
    with pytest.raises(ScanError, match="no cards"):
        plugin.scan(image)
    assert len(masked) == 2


def test_both_card_games_share_the_search_of_a_photo(monkeypatch):
    masked = counting(monkeypatch, cards, "paper_holes")
    image = np.full((300, 400, 3), 90, np.uint8)
    assert gnoming.likelihood(image) == frontnine.likelihood(image) == 0.0
    assert len(masked) == 2


def blank_plan() -> np.ndarray:
    """A blank 8 x 12 plan: black grid lines on white paper, on a dark table."""
    image = np.full((560, 760, 3), (40, 45, 50), np.uint8)
    image[60:-60, 60:-60] = 250
    for k in range(13):
        cv2.line(image, (80 + 50 * k, 80), (80 + 50 * k, 480), (20, 20, 20), 2)
    for k in range(9):
        cv2.line(image, (80, 80 + 50 * k), (680, 80 + 50 * k), (20, 20, 20), 2)
    return image


def test_a_plan_is_found_once_for_likelihood_and_scan(monkeypatch):
    located = counting(monkeypatch, eighteen, "find_grid_quad")
    image = blank_plan()
    assert eighteen.likelihood(image) > 0.8
    assert eighteen.scan(image).board["grid"] in ({"rows": 8, "cols": 12}, {"rows": 12, "cols": 8})
    assert len(located) == 1

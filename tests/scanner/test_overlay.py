"""A scan's overlay is drawn when first asked for, once: a plain scan or a benchmark never pays for it."""

from __future__ import annotations

import numpy as np

from scanner.types import ScanResult


def _counting_result() -> tuple[ScanResult, list[int]]:
    calls: list[int] = []

    def draw() -> np.ndarray:
        calls.append(1)
        return np.zeros((4, 6, 3), np.uint8)

    return ScanResult("minigolf-designer", {}, [], draw), calls


def test_the_overlay_is_not_drawn_until_asked_for():
    _, calls = _counting_result()
    assert calls == []


def test_the_overlay_is_drawn_once_however_often_it_is_asked_for():
    result, calls = _counting_result()
    assert result.overlay.shape == (4, 6, 3)
    assert result.overlay is result.overlay
    assert calls == [1]


def test_a_scan_without_a_drawing_has_no_overlay():
    assert ScanResult("minigolf-designer", {}, []).overlay is None

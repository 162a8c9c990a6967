"""A plugin's likelihood and scan of one image array share the work they both begin with."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.errors import ScanError
from scanner.games import frontnine, gnoming
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


@pytest.mark.parametrize("plugin", [gnoming, frontnine])
def test_card_games_search_a_photo_once_for_likelihood_and_scan(plugin, monkeypatch):
    searched = []
    real = plugin.photo_cards.__wrapped__
    monkeypatch.setattr(plugin, "photo_cards", same_image(lambda image: searched.append(1) or real(image)))
    image = np.full((300, 400, 3), 90, np.uint8)  # a plain table: no cards
    assert plugin.likelihood(image) == 0.0
    with pytest.raises(ScanError, match="no cards"):
        plugin.scan(image)
    assert len(searched) == 1

"""The Front Nine on a dim, grainy table beside a pale yellow score pad: the photo's brightest surface is
the pad, so the first card search, white balanced on it, sees the cards' frames as too blue for paper and
finds none; the second search, balanced on the whitest surfaces nearby, reads the course as on a clean
photo."""

from __future__ import annotations

import numpy as np
from flatphoto import flat_photo

from fixtures.games import frontnine
from scanner.cards import search_cards
from scanner.games import frontnine as scanner


def test_a_course_on_a_dim_grainy_table_beside_a_yellow_pad_reads_as_on_a_clean_photo():
    board = frontnine.random_board(np.random.default_rng(7))
    clean = flat_photo(frontnine.compose(board, np.random.default_rng(7)), 3.0).image
    dim = clean.astype(np.float32) * np.float32([0.77, 0.72, 0.68])  # dim, and a little blue
    h, w = dim.shape[:2]
    dim[h - 20 - h // 6:h - 20, w - 20 - w // 5:w - 20] = (174, 250, 254)  # the pad, away from the cards
    dim = np.clip(dim + np.random.default_rng(1).normal(0, 12, dim.shape), 0, 255).astype(np.uint8)
    assert search_cards(dim, scanner.spec(), enough=0).found == []  # the first search alone: nothing
    want, got = scanner.scan(clean).board["players"][0], scanner.scan(dim).board["players"][0]
    assert got["course"] == want["course"] and sorted(got["specials"]) == sorted(want["specials"])
    assert abs(got["distance_balls"] - want["distance_balls"]) < 0.05

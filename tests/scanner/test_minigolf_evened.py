"""Minigolf tiles faded unevenly (a glare spot): the second look with the shading evened out reads them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from fixtures.art.minigolf.tiles import tile_image
from scanner.games.minigolf import doubtful, second_look
from scanner.games.minigolf.match import SHIFT, SIDE, meaning, read_tile


def glared(tile_id: str, strength: float) -> np.ndarray:
    """A cell patch of the tile on a grey table, washed towards white around a spot off its middle, with noise."""
    art = cv2.cvtColor(tile_image(tile_id, 0, 2.0)[..., :3], cv2.COLOR_RGB2BGR)
    n = SIDE + 2 * SHIFT
    patch = np.full((n, n, 3), 90, np.float32)
    patch[SHIFT:SHIFT + SIDE, SHIFT:SHIFT + SIDE] = cv2.resize(art, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    yy, xx = np.mgrid[:n, :n] / n
    wash = strength * np.exp(-((xx - 0.3) ** 2 + (yy - 0.35) ** 2) / 0.08)[..., None]
    noise = np.random.default_rng(1).normal(0, 6, patch.shape)
    return np.clip(patch * (1 - wash) + 255 * wash + noise, 0, 255).astype(np.float32)


@pytest.mark.parametrize("tile_id", ["gr01", "gs02"])
def test_glare_washed_tile_read_right_by_the_second_look(tile_id):
    patch = glared(tile_id, 0.5)
    first = read_tile(patch)
    assert doubtful(first)  # as printed, the washed-out spot hides the tile
    evened = read_tile(patch, even=True)
    assert meaning(evened.tile, evened.rotation) == meaning(tile_id, 0)
    assert not doubtful(evened)
    kept = second_look(first, evened)
    assert (kept.tile, kept.rotation) == (evened.tile, evened.rotation)
    # the first look told another meaning: the board gets the right tile, a person still checks it
    assert doubtful(kept) == (meaning(first.tile, first.rotation) != meaning(tile_id, 0))


def test_second_look_kept_only_when_it_matches_better():
    first = read_tile(glared("gr01", 0.0))
    worse = type(first)("gr08", 0, first.score - 0.1, 0.5, ())
    assert second_look(first, worse) is first

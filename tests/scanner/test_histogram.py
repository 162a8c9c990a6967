"""Order statistics of uint8 pixels from histograms: the numbers numpy gives from the pixels themselves."""

import numpy as np
import pytest

from scanner.histogram import channel_counts, counts_percentile, uint8_percentile


@pytest.mark.parametrize("shape", [(40, 30, 3), (500, 3), (25, 17)])
@pytest.mark.parametrize("masked", [False, True])
def test_channel_counts_are_those_of_the_picked_pixels(shape, masked):
    rng = np.random.default_rng(len(shape) + masked)
    image = rng.integers(0, 256, shape, np.uint8)
    pixels = shape[:-1] if len(shape) == 3 or shape[-1] == 3 else shape
    mask = rng.random(pixels) < 0.3 if masked else None
    for channel in (range(3) if len(pixels) < len(shape) else [None]):
        values = image if channel is None else image[..., channel]
        picked = values if mask is None else values[mask]
        expected = np.bincount(picked.ravel(), minlength=256)
        assert np.array_equal(channel_counts(image, channel, mask), expected)
        assert counts_percentile(expected, 95) == uint8_percentile(picked, 95)
        assert counts_percentile(expected, 95) == pytest.approx(np.percentile(picked, 95))

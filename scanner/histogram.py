"""Exact order statistics of uint8 pixels from their histogram: the numbers ``np.percentile`` gives, without
sorting a photo's worth of values (a 256-bin count is many times faster than a partition)."""

from __future__ import annotations

import numpy as np


def uint8_percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` (linear interpolation) of uint8 ``values``, to the last bit; the same as
    numpy gives for those values as floats with ``q`` among a sequence of percentiles (for a lone ``q`` it
    interpolates a float32 array in float32).

    >>> rng = np.random.default_rng(0)
    >>> samples = [rng.integers(0, 256, n).astype(np.uint8) for n in range(2, 300)]
    >>> qs = (0, 10, 37.5, 62.3, 75, 90, 95, 99, 100)
    >>> all(uint8_percentile(a, q) == np.percentile(a, q) == as_floats
    ...     for a in samples for q, as_floats in zip(qs, np.percentile(a.astype(np.float32), qs)))
    True
    """
    if values.dtype != np.uint8:
        raise TypeError(f"uint8 values expected, got {values.dtype}")
    cumulative = np.cumsum(np.bincount(values.ravel(), minlength=256))
    position = q / 100 * (int(cumulative[-1]) - 1)
    low = int(np.floor(position))
    # the k-th smallest value (from 0) is the first whose cumulative count exceeds k
    below = int(np.searchsorted(cumulative, low, side="right"))
    above = int(np.searchsorted(cumulative, min(low + 1, int(cumulative[-1]) - 1), side="right"))
    share = position - low
    # numpy interpolates from the nearer end, to the last bit
    return below + share * (above - below) if share < 0.5 else above - (1 - share) * (above - below)

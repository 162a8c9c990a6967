"""``np.median`` and ``np.percentile`` of float arrays, to the last bit, in a fraction of numpy's time.

numpy partitions an array about every position it needs at once (for a median the middle two, for a percentile
the neighbours of its place and both ends), and a partition about several positions takes five times as long
as about one (6 ms against 1 for the 440,000 ink values of a plan's squares). Here the array is partitioned
about the lower position alone, and the next value is the least of those above it. Arrays without NaNs only.

Example:
    >>> import numpy as np
    >>> values = np.array([0.3, 0.1, 0.9, 0.4])
    >>> float(median(values)), float(percentile(values, 50)), float(percentile(values, 100))
    (0.35, 0.35, 0.9)
"""

from __future__ import annotations

import numpy as np


def _neighbours(values: np.ndarray, low: int) -> tuple[np.generic, np.generic]:
    """The ``low``-th smallest of ``values`` (1-D, from 0) and the next (the same when it is the largest)."""
    parted = np.partition(values, low)
    return parted[low], (parted[low + 1:].min() if low + 1 < len(parted) else parted[low])


def median(values: np.ndarray) -> np.floating:
    """``np.median(values)`` over all of them (any shape, float, no NaNs): the middle value, or the mean of the
    middle two in the array's own precision, as numpy takes it (and as numpy, a scalar of that precision: a
    float32 times a Python float stays a float32).

    >>> rng = np.random.default_rng(0)
    >>> samples = [rng.random(n).astype(t) ** 3 for n in range(1, 200) for t in (np.float32, np.float64)]
    >>> all(median(a) == np.median(a) and median(a).dtype == np.median(a).dtype
    ...     for a in samples + [np.float32([1, 1, 2, 2]), np.zeros(5)])
    True
    """
    flat = np.ravel(values)
    low, high = _neighbours(flat, (flat.size - 1) // 2)
    return low if flat.size % 2 else (low + high) / 2


def percentile(values: np.ndarray, q: float) -> np.floating:
    """``np.percentile(values, q)`` over all of them (any shape, float, no NaNs) for a lone ``q`` (0-100), with
    numpy's linear interpolation: from the nearer neighbour, in the array's own precision (a scalar of it).

    >>> rng = np.random.default_rng(1)
    >>> samples = [rng.random(n).astype(t) ** 3 for n in range(1, 200) for t in (np.float32, np.float64)]
    >>> all(percentile(a, q) == np.percentile(a, q) and percentile(a, q).dtype == np.percentile(a, q).dtype
    ...     for a in samples for q in (0, 10, 37.5, 50, 90, 99, 100))
    True
    """
    flat = np.ravel(values)
    place = (flat.size - 1) * np.true_divide(q, 100)
    if place >= flat.size - 1:
        return flat.max()
    low = int(np.floor(place))
    below, above = _neighbours(flat, low)
    share = float(place - low)
    step = above - below
    return below + step * share if share < 0.5 else above - step * (1 - share)

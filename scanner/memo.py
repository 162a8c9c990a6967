"""Work shared by a game's ``likelihood`` and its ``scan`` of the same photo, done once.

When the game is detected, the pipeline asks the plugin how likely the photo is its own and then scans
that very image array: the step both begin with (finding the cards, the grid, the tile lattice) is wrapped
in :func:`same_image`, and the scan takes the answer the likelihood already found.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")


def same_image(step: Callable[[np.ndarray], T]) -> Callable[[np.ndarray], T]:
    """``step(image)``, remembered for the last image array it was given (that very object, not an equal one).

    Only the last answer is kept: a batch worker scans one photo at a time, and holding on to the array
    keeps its identity from being reused by another photo. Images are never changed in place by the
    scanners, so the same object means the same pixels. A step that raises is not remembered.

    >>> calls = []
    >>> @same_image
    ... def darkest(image):
    ...     calls.append(1)
    ...     return int(image.min())
    >>> a, b = np.full((2, 2), 7, np.uint8), np.full((2, 2), 7, np.uint8)
    >>> darkest(a), darkest(a), darkest(b), len(calls)
    (7, 7, 7, 2)
    """
    last: tuple[Any, ...] = ()

    @functools.wraps(step)
    def remembered(image: np.ndarray) -> T:
        nonlocal last
        seen = last  # one read: another thread may replace it meanwhile
        if seen and seen[0] is image:
            return seen[1]
        value = step(image)
        last = (image, value)
        return value

    return remembered

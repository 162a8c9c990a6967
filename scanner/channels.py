"""Per-pixel reductions over a photo's colour channels.

Example:
    >>> import numpy as np
    >>> img = np.array([[[200, 60, 40], [220, 220, 220]]], np.uint8)  # a blue pen stroke beside paper
    >>> darkest_channel(img).tolist()
    [[40, 220]]
"""

from __future__ import annotations

import numpy as np


def darkest_channel(image: np.ndarray) -> np.ndarray:
    """The darkest of a colour image's channels at each pixel (a grey image as it is): coloured ink on white
    paper counts fully. Taken by pairs, as numpy's reduction over a short last axis is many times slower."""
    if image.ndim != 3:
        return image
    return np.minimum(np.minimum(image[..., 0], image[..., 1]), image[..., 2])

"""Stage 5: cut every square of a lattice out as a small upright image, and measure ink on paper.

``ink_map`` turns a colour image into "how much darker than the paper around it" (0 = paper, 1 = black),
independent of lighting gradients and of the pen's colour. ``cut_cells`` warps each lattice square to a
``size`` x ``size`` patch; the printed grid line lies in the outer ``size * BORDER`` pixels.

Example:
    >>> import numpy as np
    >>> img = np.full((60, 60, 3), 220, np.uint8); img[20:40, 28:32] = 30
    >>> ink = ink_map(img)
    >>> round(float(ink[30, 30]), 1), round(float(ink[5, 5]), 1)
    (0.9, 0.0)
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.channels import darkest_channel
from scanner.grid import Lattice

BORDER = 0.1  # share of a square's side occupied by (half) the printed line and its blur


def ink_map(image: np.ndarray, paper_scale: int = 0) -> np.ndarray:
    """Ink strength 0..1 per pixel: 1 - value / local paper value, float32.

    The darkest channel is used so that coloured ink on white paper counts fully. The paper value is
    the local maximum over ``paper_scale`` pixels (default: a tenth of the image), which skips over
    strokes and blacked-out areas smaller than that.
    """
    dark = darkest_channel(image).astype(np.float32)
    scale = paper_scale or max(image.shape[:2]) // 10
    factor = 4
    small = cv2.resize(dark, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
    k = max(3, scale // factor) | 1
    paper = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    paper = cv2.GaussianBlur(paper, (0, 0), k / 3)
    paper = cv2.resize(paper, (dark.shape[1], dark.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.clip(1.0 - dark / np.maximum(paper, 1.0), 0.0, 1.0)


def cut_cells(image: np.ndarray, lattice: Lattice, size: int) -> np.ndarray:
    """Every square as a ``size`` x ``size`` patch: array (rows, cols, size, size[, channels])."""
    dst = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    out = np.zeros((lattice.rows, lattice.cols, size, size) + image.shape[2:], image.dtype)
    for r in range(lattice.rows):
        for c in range(lattice.cols):
            h = cv2.getPerspectiveTransform(lattice.cell_quad(r, c), dst)
            out[r, c] = cv2.warpPerspective(image, h, (size, size), flags=cv2.INTER_LINEAR,
                                            borderMode=cv2.BORDER_REPLICATE)
    return out

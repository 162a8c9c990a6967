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
# A cast shadow darkens paper to no less than this share of the lit paper beside it (a lamp's shadow with the
# room's light in it); a patch darker than that beside paper is ink, a blackout.
SHADOW_DEEPEST = 0.4
SHADOW_STEP = 0.1  # along a shadow's edge paper is taken this share above its closing (``paper_level``)
WIDE_BLUR = 4.0  # a blur this wide (sigma, pixels) or wider is taken at half the size (``wide_blur``)


def ink_map(image: np.ndarray, paper_scale: int = 0) -> np.ndarray:
    """Ink strength 0..1 per pixel: 1 - value / local paper value, float32.

    The darkest channel is used so that coloured ink on white paper counts fully. The paper value is
    the local maximum over ``paper_scale`` pixels (default: a tenth of the image), which skips over
    strokes and blacked-out areas smaller than that, kept to the shaded side of a cast shadow's edge
    (``paper_level``).
    """
    dark = darkest_channel(image).astype(np.float32)
    scale = paper_scale or max(image.shape[:2]) // 10
    factor = 4
    small = cv2.resize(dark, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
    k = max(3, scale // factor) | 1
    paper = paper_level(small, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)), k / 3)
    paper = cv2.resize(paper, (dark.shape[1], dark.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.clip(1.0 - dark / np.maximum(paper, 1.0), 0.0, 1.0)


def paper_level(dark: np.ndarray, kernel: np.ndarray, sigma: float) -> np.ndarray:
    """Brightness of the paper under each pixel of ``dark`` (float32, one channel): the brightest within
    ``kernel`` (a structuring element: pen strokes and marks narrower than it are passed over), smoothed by
    ``sigma``; but along a shadow's edge, its shaded side's own.

    The brightest nearby reaches across a shadow's edge: the lit paper's level would stand a square or so into
    the shade, and shaded paper there would read as ink. The closing (the darkest of those brightest, within
    ``kernel`` again) keeps the edge where it is. Where the smooth level stands more than ``SHADOW_STEP``
    above the closing, and the closing is no darker than a shadow's ``SHADOW_DEEPEST`` of it, in a stretch
    that reaches the image's border, the paper is taken ``SHADOW_STEP`` above the closing. A stretch that
    does not reach the border rings a dark patch within the image, a blackout however light, ink: a shadow is
    cast from beyond the sheet.

    >>> lit = np.full((40, 80), 200, np.float32); lit[:, 40:] = 120  # a shadow's sharp edge at x = 40
    >>> paper = paper_level(lit, np.ones((15, 15), np.uint8), 5.0)
    >>> [round(float(paper[20, x])) for x in (10, 44, 70)]  # in the light, just inside the shade, deep in it
    [200, 132, 120]
    >>> lit[:, 40:] = 200; lit[10:30, 50:70] = 120  # a patch as dark, paper all round it: ink
    >>> round(float(paper_level(lit, np.ones((15, 15), np.uint8), 5.0)[20, 52]))
    194
    """
    brightest = cv2.dilate(dark, kernel)
    smooth = wide_blur(brightest, sigma)
    closed = cv2.GaussianBlur(cv2.erode(brightest, kernel), (0, 0), max(sigma / 8, 0.5)) * (1 + SHADOW_STEP)
    stretch = ((closed < smooth) & (closed >= SHADOW_DEEPEST * smooth)).astype(np.uint8)
    count, labels = cv2.connectedComponents(stretch, connectivity=8)
    if count == 1:
        return smooth
    rim = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    cast = np.zeros(count, bool)
    cast[rim] = True
    cast[0] = False
    return np.where(cast[labels], closed, smooth)


def wide_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """``cv2.GaussianBlur`` by ``sigma`` of a float image, taken at half the size when ``sigma`` is ``WIDE_BLUR``
    or more: a blur that wide keeps nothing finer than half the size holds, and at half the size takes a fifth
    of the time (0.05 ms against 0.26 for a tee/green square's crop; within half a grey level of the full
    size's on the paper levels ``paper_level`` smooths).

    >>> steps = np.zeros((60, 80), np.float32); steps[:, 40:] = 200; steps[20:30, 10:20] = 90
    >>> bool(np.abs(wide_blur(steps, 8.0) - cv2.GaussianBlur(steps, (0, 0), 8.0)).max() < 1.0)
    True
    """
    if sigma < WIDE_BLUR:
        return cv2.GaussianBlur(image, (0, 0), sigma)
    height, width = image.shape[:2]
    half = cv2.resize(image, ((width + 1) // 2, (height + 1) // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(half, (0, 0), sigma / 2), (width, height), interpolation=cv2.INTER_LINEAR)


def cut_cells(image: np.ndarray, lattice: Lattice, size: int) -> np.ndarray:
    """Every square as a ``size`` x ``size`` patch: array (rows, cols, size, size[, channels])."""
    out = np.zeros((lattice.rows, lattice.cols, size, size) + image.shape[2:], image.dtype)
    for r in range(lattice.rows):
        for c in range(lattice.cols):
            out[r, c] = cut_cell(image, lattice.cell_quad(r, c), size)
    return out


def cut_cell(image: np.ndarray, quad: np.ndarray, size: int) -> np.ndarray:
    """The quadrilateral ``quad`` (TL, TR, BR, BL, float32) of ``image`` as a ``size`` x ``size`` patch."""
    square = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, square), (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)

"""Squares whose ink is not the colour of the player's pen: the sheet's own print among the drawings.

The rules' two gorse squares come printed on the sheet, and another printing's gorse symbol may look like
anything a player draws (a ring of spikes like a bunker, a cross-hatch like a lake). When fewer than two
squares read as gorse, a symbol read as a drawing in a colour that stands out from the pen's is likely the
print: it is flagged, with gorse offered. The pen's colour is the one the drawn squares share. A colour is
the ink's chroma against the square's paper: the logarithms of its mean colour channels over the paper's,
less their mean, so grey and black ink are 0 whatever the light. On the photos made by another hand
(``shared/outside``), the printed gorse of the two plans drawn in blue stood 0.09 and 0.21 from the pen, whose
own squares lay a median 0.011 and 0.016 from it (the next square: 0.057 and 0.089); on a plan whose drawings
spread 0.085 nothing stands out, nor where the pen is black. On 100 synthetic plans (seed 13402), whose
hands sometimes change pens, 29 plans had a square flagged so, most of them read right.

Example:
    >>> paper = np.full((2, 1, 8, 8, 3), 230, np.uint8)
    >>> paper[0, 0, 2:6, 2:6] = (160, 60, 40)  # blue pen
    >>> paper[1, 0, 2:6, 2:6] = (50, 50, 50)  # black print
    >>> ink = np.zeros((2, 1, 8, 8), np.float32); ink[:, :, 2:6, 2:6] = 0.8
    >>> chroma = ink_chromas(paper, ink, 0.3, border=1)
    >>> unlike_pen(chroma, [(0, 0)], [(1, 0)])
    [(1, 0)]
"""

from __future__ import annotations

import numpy as np

PRINT_COLOUR = 0.05  # least chroma distance from the pen's of a square's ink taken for print ...
STANDS_OUT = 5.0  # ... and least times the pen's own squares' median distance from it
LEAST_INK = 15  # ink pixels a square needs for its colour to be measured
PAPER_INK = 0.05  # ink strength below which a pixel is paper


def ink_chromas(colours: np.ndarray, ink: np.ndarray, threshold: float, border: int) -> np.ndarray:
    """The chroma (3 numbers summing to 0) of each square's ink: ``colours`` (rows, cols, size, size, 3) and
    ``ink`` (rows, cols, size, size) are the squares cut alike, ``threshold`` the plan's ink level, and the
    outer ``border`` pixels (the printed grid line) are left out. NaN where a square has too little ink."""
    inner = (slice(None), slice(None), slice(border, -border), slice(border, -border))
    strength, pixels = ink[inner], colours[inner].astype(np.float32)
    stroke, paper = (strength > threshold).astype(np.float32), (strength < PAPER_INK).astype(np.float32)
    counts, papers = stroke.sum(axis=(2, 3)), paper.sum(axis=(2, 3))
    # mean colours of each square's stroke and paper pixels
    stroke_colour = np.einsum("rcyx,rcyxk->rck", stroke, pixels) / np.maximum(counts, 1)[..., None]
    paper_colour = np.einsum("rcyx,rcyxk->rck", paper, pixels) / np.maximum(papers, 1)[..., None]
    ratio = np.log(stroke_colour + 1) - np.log(paper_colour + 1)
    chroma = ratio - ratio.mean(axis=2, keepdims=True)
    chroma[(counts < LEAST_INK) | (papers == 0)] = np.nan
    return chroma


def unlike_pen(chromas: np.ndarray, pen: list[tuple[int, int]], candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Those of the ``candidates`` squares whose ink's chroma stands out from the pen's, the median chroma of
    the ``pen`` squares: further from it or from its denser shades (``beyond_pen``) than ``PRINT_COLOUR`` and
    than ``STANDS_OUT`` times the pen squares' own median distance from it (two pens, or light that varies
    over the sheet, spread them); none when the pen's colour is unknown."""
    drawn = np.array([chromas[sq] for sq in pen if not np.isnan(chromas[sq]).any()])
    if not len(drawn):
        return []
    colour = np.median(drawn, axis=0)
    spread = float(np.median(np.linalg.norm(drawn - colour, axis=1)))
    return [sq for sq in candidates if beyond_pen(chromas[sq], colour) > max(PRINT_COLOUR, STANDS_OUT * spread)]


def beyond_pen(chroma: np.ndarray, pen: np.ndarray) -> float:
    """How far ``chroma`` lies from the pen's colour made denser: its distance from the ray that starts at
    ``pen`` and runs away from grey. Ink laid thick (a scribble, a heavy hazard) is the pen's colour with less
    paper showing through, so it lies further out along the ray; a print in black or another colour lies off it.

    >>> pen = np.array([0.2, -0.08, -0.12])
    >>> round(beyond_pen(1.5 * pen, pen), 3), round(beyond_pen(0.5 * pen, pen), 3), round(beyond_pen(-pen, pen), 3)
    (0.0, 0.123, 0.493)
    """
    size = float(np.linalg.norm(pen))
    if size == 0:
        return float(np.linalg.norm(chroma))
    along = float(chroma @ pen) / size
    across = float(np.linalg.norm(chroma - along * pen / size))
    return float(np.hypot(across, max(0.0, size - along)))

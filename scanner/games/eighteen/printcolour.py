"""Squares whose ink is not the colour of the player's pen: the sheet's own print among the drawings.

The rules' two gorse squares come printed on the sheet, and another printing's gorse symbol may look like
anything a player draws (a ring of spikes like a bunker, a cross-hatch like a lake). When fewer than two
squares read as gorse, a symbol read as a drawing in a colour that stands out from the pen's is likely the
print: it is flagged, with gorse offered. The pen's colour is the one the drawn squares share. A square's
colour is its ink's against its paper: the logarithms of its mean colour channels over the paper's
(``ink_colours``). Its chroma is that less its mean, so grey and black ink are 0 whatever the light; its hue is
its direction, which ink keeps however thickly it is laid (what ink lets through falls exponentially with its
thickness, so the logarithms scale together), while a print of a paler, purer colour of the pen's own hue
points elsewhere. On the photos made by another hand
(``shared/outside``), the printed gorse of the two plans drawn in blue stood 0.09 and 0.21 from the pen, whose
own squares lay a median 0.011 and 0.016 from it (the next square: 0.057 and 0.089); on a plan whose drawings
spread 0.085 nothing stands out, nor where the pen is black. On 100 synthetic plans (seed 13402), whose
hands sometimes change pens, 29 plans had a square flagged so, most of them read right. On 200 phone plans
(seed 18702), the chroma set apart 145 of the 195 bare printed squares, and 32 of the 6,569 drawn hazards; the
hue too (``PEN_HUE``) 162 and 35: among them five prints in a pale orange, blue or teal beside a dark pen of
about their hue, 14-18 degrees off its hue where the pen's own squares spread 0.3-2.6.

Example:
    >>> paper = np.full((2, 1, 8, 8, 3), 230, np.uint8)
    >>> paper[0, 0, 2:6, 2:6] = (160, 60, 40)  # blue pen
    >>> paper[1, 0, 2:6, 2:6] = (50, 50, 50)  # black print
    >>> ink = np.zeros((2, 1, 8, 8), np.float32); ink[:, :, 2:6, 2:6] = 0.8
    >>> colours = ink_colours(paper, ink, 0.3, border=1)
    >>> unlike_pen(colours, [(0, 0)], [(1, 0)])
    [(1, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PRINT_COLOUR = 0.05  # least chroma distance from the pen's of a square's ink taken for print ...
STANDS_OUT = 5.0  # ... and least times the pen's own squares' median distance from it
PEN_HUE = 10.0  # least angle (degrees) between a square's colour and the pen's for its ink to be print ...
HUE_STANDS_OUT = 5.0  # ... and least times the pen's own squares' median angle from it
PEN_PIXEL = 8.0  # most angle (degrees) of a pixel's colour from the pen's hue for it to be the pen's (``hue_layers``)
PRINT_PIXEL = 15.0  # least angle of a pixel's colour from the pen's hue for it to be another ink's: the print's
PRINT_SHARE = 0.2  # least share of a square's ink pixels of another hue for its print to be told from the pen
SPECK = 4  # pixels of the fewest a piece of the pen layer keeps (a print's edge has a few pixels of the pen's hue)
DRAWN_PIXELS = 60  # least ink pixels in the pen's hue (of a square 64 pixels a side) for a drawing over the print
# (a lake's two thin waves: 83; on 200 phone plans of seed 18812 the bare prints parted and the drawings over a
# print read from their strokes were the same from 100 down to 60; on 18502 and 18602, 3 more drawings read right)
LEAST_INK = 15  # ink pixels a square needs for its colour to be measured
PAPER_INK = 0.05  # ink strength below which a pixel is paper


def ink_colours(colours: np.ndarray, ink: np.ndarray, threshold: float, border: int) -> np.ndarray:
    """The colour of each square's ink against its paper (the logarithms of their mean channels' ratios, 3
    numbers, all below 0 for ink darker than the paper in every channel): ``colours`` (rows, cols, size, size, 3) and
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
    ratio[(counts < LEAST_INK) | (papers == 0)] = np.nan
    return ratio


def _chroma(colours: np.ndarray) -> np.ndarray:
    return colours - colours.mean(axis=-1, keepdims=True)


def _hue(colours: np.ndarray) -> np.ndarray:
    return colours / np.maximum(np.linalg.norm(colours, axis=-1, keepdims=True), 1e-9)


def _degrees(hues: np.ndarray, hue: np.ndarray) -> np.ndarray:
    return np.degrees(np.arccos(np.clip(hues @ hue, -1.0, 1.0)))


def _pen_colours(colours: np.ndarray, pen: list[tuple[int, int]]) -> np.ndarray:
    return np.array([colours[sq] for sq in pen if not np.isnan(colours[sq]).any()]).reshape(-1, 3)


def _median_hue(colours: np.ndarray) -> np.ndarray:
    return _hue(np.median(_hue(colours), axis=0))


def pen_hue(colours: np.ndarray, pen: list[tuple[int, int]]) -> np.ndarray | None:
    """The pen's hue (a unit vector): the median hue of the ``pen`` squares' ink; None when none is measured."""
    drawn = _pen_colours(colours, pen)
    return _median_hue(drawn) if len(drawn) else None


def unlike_pen(colours: np.ndarray, pen: list[tuple[int, int]], candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Those of the ``candidates`` squares whose ink (``colours``: ``ink_colours``) stands out from the pen's,
    that of the ``pen`` squares: its chroma further from their median chroma or from its denser shades
    (``beyond_pen``) than ``PRINT_COLOUR`` and than ``STANDS_OUT`` times the pen squares' own median distance
    from it, or its hue further from their median hue than ``PEN_HUE`` degrees and ``HUE_STANDS_OUT`` times
    their own median angle from it (two pens, or light that varies over the sheet, spread them); none when the
    pen's colour is unknown."""
    drawn = _pen_colours(colours, pen)
    if not len(drawn):
        return []
    chroma = np.median(_chroma(drawn), axis=0)
    spread = float(np.median(np.linalg.norm(_chroma(drawn) - chroma, axis=1)))
    hue = _median_hue(drawn)
    hue_spread = float(np.median(_degrees(_hue(drawn), hue)))
    return [sq for sq in candidates
            if beyond_pen(_chroma(colours[sq]), chroma) > max(PRINT_COLOUR, STANDS_OUT * spread)
            or _degrees(_hue(colours[sq]), hue) > max(PEN_HUE, HUE_STANDS_OUT * hue_spread)]


@dataclass(frozen=True)
class Layers:
    """A square's ink parted by hue (``hue_layers``): the pen's strokes, and the print's."""

    pen: np.ndarray
    print: np.ndarray


def hue_layers(colour: np.ndarray, ink: np.ndarray, hue: np.ndarray, threshold: float, border: int,
               print_share: float = PRINT_SHARE) -> Layers | None:
    """The ink of a square drawn over a print of another hue parted into the pen's and the print's: of ``ink``
    (size, size), the pixels whose colour (``colour``: size, size, 3) against the square's paper lies nearer
    the pen's ``hue`` than the print's (``PEN_PIXEL``, ``PRINT_PIXEL``), grown by a pixel, and the rest. None
    unless the square's ink pixels within its outer ``border`` hold both: ``print_share`` of them of another
    hue, and ``DRAWN_PIXELS`` in the pen's. On 200 phone plans (seed 18812), of the printed squares whose print
    stood apart in hue, 1 of 103 left bare and 39 of 42 drawn over with a tree, bunker or lake were parted.

    >>> colour = np.full((32, 32, 3), 230, np.uint8); ink = np.zeros((32, 32), np.float32)
    >>> colour[4:12, 4:28], ink[4:12, 4:28] = (40, 120, 230), 0.5    # an orange print (BGR)
    >>> colour[18:28, 4:28], ink[18:28, 4:28] = (60, 60, 60), 0.7     # a dark grey pen's stroke
    >>> layers = hue_layers(colour, ink, _hue(np.full(3, -1.0)), 0.3, 2)
    >>> bool(layers.pen[:16].any()), bool(layers.pen[18:28, 4:28].all()), bool(layers.print[16:].any())
    (False, True, False)
    """
    inner = np.s_[border:-border, border:-border]
    paper = ink[inner] < PAPER_INK
    stroke = ink[inner] > threshold
    if not paper.any() or stroke.sum() < LEAST_INK:
        return None
    paper_log = np.log(colour[inner][paper].astype(np.float32).mean(axis=0) + 1)

    def angles_of(pixels: np.ndarray) -> np.ndarray:  # each pixel's hue against the paper, in degrees from the pen's
        return _degrees(_hue(np.log(pixels.astype(np.float32) + 1) - paper_log), hue)

    stroke_angles = angles_of(colour[inner][stroke])  # the strokes alone first: most squares part no print
    if (stroke_angles > PRINT_PIXEL).mean() < print_share or (stroke_angles < PEN_PIXEL).sum() < DRAWN_PIXELS:
        return None
    angles = angles_of(colour)
    # the pen's strokes where they are clear of the paper, grown by a pixel into their blurred edges and the
    # pixels where they cross the print (whose colours mix), less specks
    pen = ((ink > threshold / 2) & (angles < (PEN_PIXEL + PRINT_PIXEL) / 2)).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(pen, connectivity=8)
    pen = (stats[labels, cv2.CC_STAT_AREA] >= SPECK) & (labels > 0)
    grown = cv2.dilate(pen.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    return Layers(np.where(grown, ink, 0).astype(np.float32), np.where(grown, 0, ink).astype(np.float32))


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

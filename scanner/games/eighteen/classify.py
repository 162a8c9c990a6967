"""Read one square from its measurements (``features.measure``): what is drawn in it, and how sure we are.

The order of the tests follows how distinctive each drawing is: a blacked-out square, then a tee/green
diagonal, then fairway lines that reach two edges, then the hazards drawn inside the square. Every
decision compares a measurement with a threshold; the confidence is a logistic function of how far the
measurement lies from it, so a reading near a threshold is flagged for review.

Example:
    >>> import numpy as np
    >>> from scanner.games.eighteen.features import measure
    >>> ink = np.zeros((64, 64), np.float32); ink[:, 20:23] = 1; ink[:, 42:45] = 1
    >>> guess = read_square(measure(ink, 0.3))
    >>> guess.value, guess.confidence > 0.9
    ({'k': 'fairway', 'edges': ['N', 'S']}, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import exp

from scanner.games.eighteen.features import EDGES, CellFeatures, Crossing

# Thresholds, in the units of the measurements (shares of the square's side or area).
BLACK_FILL = 0.4  # mean ink strength over a blacked-out square
DIAGONAL = 0.95  # ink share along the best corner-to-corner path of a drawn diagonal
DIAGONAL_GAP = 0.08  # ... and how much better than the other diagonal it must be
FAIRWAY_EXTENT = 0.25  # distance between a fairway's two lines where they cross an edge
EMPTY_INK = 0.012  # ink share below which a square is blank
DOT_AREA = 0.004  # a stipple dot is smaller than this share of the square
DOTS = 5  # a bunker has at least this many dots
HATCHED_HOLES = 8  # a piece enclosing this many paper regions is a hatch or a scribble

# The two triangles a diagonal makes, each with its two edges: TL-BR diagonal, then BL-TR diagonal.
HALVES = {0: (("N", "E"), ("S", "W")), 1: (("N", "W"), ("S", "E"))}


def sure(value: float, threshold: float, scale: float) -> float:
    """Confidence that ``value`` lies above ``threshold``: 0.5 at it, near 1 a few ``scale`` above."""
    z = max(-30.0, min(30.0, (value - threshold) / scale))
    return 1.0 / (1.0 + exp(-z))


@dataclass(frozen=True)
class Guess:
    """A square's reading. For a tee/green, ``halves`` holds the stroke strength at the two edges of each
    triangle (in ``HALVES[diagonal]`` order)."""

    value: dict
    confidence: float
    alternatives: tuple[tuple[dict, float], ...] = ()
    note: str = ""
    diagonal: int = -1  # 0 = TL-BR, 1 = BL-TR for a tee/green square
    halves: tuple[tuple[float, float], ...] = field(default=())


def fairway_evidence(crossing: Crossing) -> float:
    """How much the strokes across one edge look like a fairway's two lines (their spread)."""
    return crossing.extent if crossing.count >= 2 else 0.0


def _black(f: CellFeatures) -> Guess | None:
    conf = sure(f.fill, BLACK_FILL, 0.04)
    if conf < 0.5:
        return None
    return Guess({"k": "mountain", "style": "black"}, conf)


def _teegreen(f: CellFeatures) -> Guess | None:
    best = 0 if f.diagonal[0] >= f.diagonal[1] else 1
    gap = f.diagonal[best] - f.diagonal[1 - best]
    conf = min(sure(f.diagonal[best], DIAGONAL, 0.015), sure(gap, DIAGONAL_GAP, 0.03))
    if conf < 0.5 or len([b for b in f.blobs if b.holes >= HATCHED_HOLES]):
        return None
    halves = tuple(tuple(_stub_strength(f.beside_diagonal[e]) for e in pair) for pair in HALVES[best])
    value = {"k": "teegreen", "green_edge": "", "tee_edge": "", "par": None}
    return Guess(value, conf, diagonal=best, halves=halves)


def _stub_strength(crossing: Crossing) -> float:
    """How strongly strokes reach one edge of a tee/green triangle: a fairway's two lines beat one stub."""
    return fairway_evidence(crossing) + 0.1 * min(crossing.count, 2)


def _fairway(f: CellFeatures) -> Guess | None:
    evidence = sorted(((fairway_evidence(f.crossings[e]), e) for e in EDGES), reverse=True)
    (ea, a), (eb, b), (ec, _), _ = evidence
    if eb <= 0:
        return None
    conf = min(sure(eb, FAIRWAY_EXTENT, 0.04), sure(FAIRWAY_EXTENT - ec, 0.0, 0.04) if ec > 0 else 1.0)
    edges = sorted((a, b), key=EDGES.index)
    value = {"k": "fairway", "edges": edges}
    if sure(eb, FAIRWAY_EXTENT, 0.04) < 0.5:
        return None
    alternatives = ()
    if ec > 0:
        third = evidence[2][1]
        alternatives = (({"k": "fairway", "edges": sorted((a, third), key=EDGES.index)}, 1 - conf),)
    return Guess(value, conf, alternatives)


def _hazard(f: CellFeatures) -> Guess:
    if f.ink < EMPTY_INK:
        return Guess({"k": "empty"}, sure(EMPTY_INK - f.ink, 0.0, 0.003))
    dots = [b for b in f.blobs if b.area < DOT_AREA]
    pieces = [b for b in f.blobs if b.area >= DOT_AREA]
    if any(b.holes >= HATCHED_HOLES for b in pieces):
        return Guess({"k": "unknown"}, 0.3, note="hatched or scribbled square")
    if len(dots) >= DOTS:
        return Guess({"k": "bunker"}, sure(len(dots), DOTS - 1, 1.0))
    waves = [b for b in pieces if b.box[2] >= 0.3 and b.box[3] <= 0.25 and b.holes == 0]
    if len(waves) >= 2 and len(waves) >= len(pieces) - 1:
        return Guess({"k": "water"}, min(sure(len(waves), 1, 0.4), sure(f.horizontal, 0.3, 0.08)))
    if pieces:
        main = max(pieces, key=lambda b: b.area)
        x, y, w, h = main.box
        if main.hole_area >= 0.02 and h >= 0.9 * w:
            return Guess({"k": "tree"}, min(sure(main.hole_area, 0.015, 0.005), sure(h / w, 0.8, 0.1)))
        if main.hole_area < 0.02 and w >= 0.4 and f.horizontal < 0.35:
            return Guess({"k": "mountain", "style": "peak"}, sure(0.35 - f.horizontal, 0.0, 0.08))
    return Guess({"k": "unknown"}, 0.3, note="drawing not recognised")


def read_structure(f: CellFeatures) -> Guess | None:
    """A blacked-out square, a tee/green or a fairway, if the square is one; these read the same at any
    rotation (their edges turn with the plan). Tee/green readings still need their par digit and tee side."""
    for test in (_black, _teegreen, _fairway):
        guess = test(f)
        if guess is not None:
            return guess
    return None


def read_hazard(f: CellFeatures) -> Guess:
    """What is drawn inside a square that is no fairway or tee/green; ``f`` measured with the plan upright."""
    return _hazard(f)


def read_square(f: CellFeatures) -> Guess:
    """The best reading of a square of an upright plan."""
    return read_structure(f) or read_hazard(f)

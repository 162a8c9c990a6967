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

from scanner.games.eighteen.features import EDGES, Blob, CellFeatures, Crossing

# Thresholds, in the units of the measurements (shares of the square's side or area).
BLACK_INK = 0.75  # share of a blacked-out square that is ink
DIAGONAL = 0.95  # ink share along the best corner-to-corner path of a drawn diagonal
DIAGONAL_GAP = 0.08  # ... and how much better than the other diagonal it must be
FAIRWAY_EXTENT = 0.25  # distance between a fairway's two lines where they cross an edge
EMPTY_INK = 0.012  # ink share below which a square is blank
DOT_AREA = 0.004  # a stipple dot is smaller than this share of the square
DOTS = 4  # a stippled bunker has at least this many specks
SPECK_AREA = 0.015  # a speck (a dot, or a few run together) is smaller than this share of the square
HATCHED_HOLES = 8  # a piece enclosing this many paper regions is a hatch or a scribble
EDGE_LINE = 0.08  # a straight piece thinner than this along an edge is the printed border, not a drawing
STEM = 0.08  # a trunk reaches at least this far below the canopy
CANOPY = 0.02  # least enclosed paper of a tree canopy
OVAL = 1.15  # a bunker's outline is at least this much wider than tall
TALL = 1.1  # a tree drawing is at least this much taller than wide
ROUND = 0.6  # an oval outline with its inside fills at least this share of its bounding box
LONG = 1.6  # an elongated piece (a wavy line) is this much longer than wide; a compact one is not
WAVE_FILL = 0.65  # a wavy stroke covers at most this share of its box (a thick pen fills more than half)
WAVE_LOOPS = 0.15  # paper enclosed where two wavy lines touch: at most this share of the piece's box
CLUMP = 0.35  # stipple dots run together by a thick pen: a compact piece covering this share of its box
CLUMP_SURE = 0.6  # ... read as a bunker, but flagged: a solid blot has the same shape

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
    """How much the strokes across one edge look like a fairway (two lines, or a shaded band): their spread."""
    return crossing.extent


def _black(f: CellFeatures) -> Guess | None:
    # A blacked-out square is ink right into its corners; a shaded fairway band leaves some paper.
    conf = min(sure(f.ink, BLACK_INK, 0.05), sure(f.corners, BLACK_INK, 0.05))
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


def _edge_line(b: Blob) -> bool:
    """A straight piece hugging the square's edge: the printed border (thick outer lines) or its shadow."""
    x, y, w, h = b.box
    flat = h <= EDGE_LINE and w >= 0.3 and (y <= 0.15 or y + h >= 0.85)
    tall = w <= EDGE_LINE and h >= 0.3 and (x <= 0.15 or x + w >= 0.85)
    return flat or tall


def _inside(dot: Blob, outer: Blob) -> bool:
    x, y, w, h = outer.box
    cx, cy = dot.box[0] + dot.box[2] / 2, dot.box[1] + dot.box[3] / 2
    return x < cx < x + w and y < cy < y + h


def _wave(b: Blob) -> bool:
    """A thin, elongated stroke (a wavy line, in either direction); two lines run together enclose
    only slivers of paper, an outline encloses its whole inside."""
    w, h = b.box[2], b.box[3]
    long, short = max(w, h), min(w, h)
    return long >= 0.18 and long >= LONG * short and b.enclosed <= WAVE_LOOPS * w * h and b.area <= WAVE_FILL * w * h


def _hazard(f: CellFeatures) -> Guess:
    pieces = [b for b in f.blobs if not _edge_line(b)]
    ink = sum(b.area for b in pieces)
    if ink < EMPTY_INK:
        return Guess({"k": "empty"}, sure(EMPTY_INK - ink, 0.0, 0.003))
    big = [b for b in pieces if b.area >= DOT_AREA]
    if any(b.holes >= HATCHED_HOLES for b in big):
        return Guess({"k": "unknown"}, 0.3, note="hatched or scribbled square")
    main = max(pieces, key=lambda b: b.area)
    specks = [b for b in pieces if max(b.box[2], b.box[3]) < 0.25 and not b.holes]
    if len(specks) >= DOTS and sum(b.area for b in specks) >= 0.7 * ink and ink / len(specks) < SPECK_AREA:
        return Guess({"k": "bunker"}, sure(len(specks), DOTS - 1, 1.0))  # a stipple of small marks
    inside = [b for b in pieces if b is not main and _inside(b, main)]
    # A closed outline without a trunk: an oval with specks in it (or run into its rim), or a flat oval.
    flat = main.box[2] >= OVAL * main.box[3]
    # an oval, outline and inside together, fills most of its box (pi / 4); a triangle fills half
    rounded = main.area + main.enclosed >= ROUND * main.box[2] * main.box[3]
    thin = main.area <= 0.35 * main.box[2] * main.box[3]
    open_oval = not main.holes and flat and thin and len(inside) >= 2  # an outline left open, specks in it
    if open_oval or (main.holes and main.stem < STEM and rounded and (inside or main.holes >= 2 or flat)):
        evidence = sure(len(inside) + main.holes - 1 + flat, 0, 0.5)
        return Guess({"k": "bunker"}, min(evidence, sure(STEM - main.stem, 0.0, 0.02)))
    big = [b for b in pieces if b.area >= DOT_AREA]
    if main.hole_area >= CANOPY and main.stem >= STEM:
        return Guess({"k": "tree"}, min(sure(main.stem, STEM, 0.02), sure(main.hole_area, CANOPY, 0.005)))
    waves = [b for b in big if _wave(b)]
    if len(waves) >= 2 and sum(b.area for b in waves) >= 0.7 * sum(b.area for b in big):
        return Guess({"k": "water"}, sure(len(waves), 1, 0.4))
    if main.box[3] >= TALL * main.box[2] and main.box[3] >= 0.45 and main.area >= DOT_AREA * 4:
        # no closed canopy found, but a drawing taller than wide: a tree's silhouette (peaks are wide)
        return Guess({"k": "tree"}, min(0.75, sure(main.box[3] / main.box[2], TALL, 0.1)))
    x, y, w, h = main.box
    if w >= 0.3 and w >= h and h >= 0.2 and main.area <= 0.35 * w * h and f.horizontal < 0.35:  # open strokes, slanted
        return Guess({"k": "mountain", "style": "peak"}, sure(0.35 - f.horizontal, 0.0, 0.08))
    if not any(b.holes for b in big) and max(w, h) <= 0.6 and max(w, h) <= LONG * min(w, h) \
            and main.area >= CLUMP * w * h:
        return Guess({"k": "bunker"}, CLUMP_SURE, note="stipple run together")
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

"""Card rectangles on the table and the straight-line gap between two of them (for the distance score).

Example:
    >>> club, card = Placement(0, 0), Placement(0, 200)
    >>> gap_mm(club, (63, 88), card, (63, 88))
    112.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class Placement:
    """A card's centre in mm and its angle (degrees counter-clockwise; at 0 the long side runs along y)."""

    x_mm: float
    y_mm: float
    angle_deg: float = 0.0


def corners(at: Placement, size_mm: tuple[float, float]) -> list[Point]:
    """The four corners, in order around the rectangle."""
    half_w, half_h = size_mm[0] / 2, size_mm[1] / 2
    cos, sin = math.cos(math.radians(at.angle_deg)), math.sin(math.radians(at.angle_deg))
    return [
        (at.x_mm + dx * cos - dy * sin, at.y_mm + dx * sin + dy * cos)
        for dx, dy in ((-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h))
    ]


def _edges(poly: list[Point]) -> list[tuple[Point, Point]]:
    return list(zip(poly, poly[1:] + poly[:1], strict=True))


def _separated(a: list[Point], b: list[Point]) -> bool:
    """True when some edge normal of either rectangle separates them (separating axis test)."""
    for p, q in _edges(a) + _edges(b):
        axis = (q[1] - p[1], p[0] - q[0])
        pa = [axis[0] * x + axis[1] * y for x, y in a]
        pb = [axis[0] * x + axis[1] * y for x, y in b]
        if max(pa) < min(pb) or max(pb) < min(pa):
            return True
    return False


def _point_segment(pt: Point, seg: tuple[Point, Point]) -> float:
    (x, y), ((x1, y1), (x2, y2)) = pt, seg
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - (x1 + t * dx), y - (y1 + t * dy))


def gap_mm(a: Placement, a_size: tuple[float, float], b: Placement, b_size: tuple[float, float]) -> float:
    """Shortest distance between the edges of two cards; 0 when they touch or overlap."""
    pa, pb = corners(a, a_size), corners(b, b_size)
    if not _separated(pa, pb):
        return 0.0
    # For two disjoint convex polygons the gap is reached at a corner of one of them.
    return min(
        min(_point_segment(p, e) for p in pa for e in _edges(pb)),
        min(_point_segment(p, e) for p in pb for e in _edges(pa)),
    )

"""Stage 2: find a printed grid (a lattice of thin dark lines on paper) in a photo.

Works on a downscaled copy: thin dark lines are picked out with a black-hat filter (wide dark areas such
as a table cloth or a shadow are not thin, so they drop out), and the grid is the largest connected web
of such lines. Its outline is reduced to a quadrilateral. Pen strokes drawn inside the grid join the
web but do not change its outline; the later grid stage refines the corners from the printed lines.

Example:
    >>> import numpy as np, cv2
    >>> img = np.full((400, 500, 3), 235, np.uint8)
    >>> for k in range(6):
    ...     _ = cv2.line(img, (100 + 50 * k, 80), (100 + 50 * k, 330), (40, 40, 40), 2)
    ...     _ = cv2.line(img, (100, 80 + 50 * k), (350, 80 + 50 * k), (40, 40, 40), 2)
    >>> found = find_grid_quad(img)
    >>> bool(np.abs(found.corners - [[100, 80], [350, 80], [350, 330], [100, 330]]).max() < 2)
    True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner.debug import draw_polygon
from scanner.errors import ScanError

WORK_SIDE = 1000  # longer side of the working copy: fast, and grid lines stay 1-3 px wide
MIN_AREA_FRACTION = 0.02  # a grid smaller than this share of the photo cannot be read anyway


@dataclass(frozen=True)
class GridQuad:
    """Outer corners of a grid in photo pixels, clockwise from the top-left *as photographed*."""

    corners: np.ndarray  # (4, 2) float32
    line_pixels: int  # size of the line web at working scale (evidence strength)
    area_fraction: float  # quadrilateral area / photo area

    def draw(self, image: np.ndarray) -> np.ndarray:
        return draw_polygon(image, self.corners, (0, 200, 255), max(2, image.shape[1] // 400))


def downscale(image: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """Copy with longer side ``side`` (never enlarged), and the factor used."""
    scale = min(1.0, side / max(image.shape[:2]))
    if scale == 1.0:
        return image, 1.0
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


def thin_dark(image: np.ndarray, width: int) -> np.ndarray:
    """Strength of dark structures thinner than ``width`` pixels (black-hat), uint8.

    For a colour image, the strongest of the three channels: a pale coloured print (a light red grid on
    cream paper) stands out in one channel far more than in grey.
    """
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (width, width))
    hat = cv2.morphologyEx(image, cv2.MORPH_BLACKHAT, kernel)
    # per-channel maximum by pairs: numpy's reduction over a short last axis is many times slower
    return np.maximum(np.maximum(hat[..., 0], hat[..., 1]), hat[..., 2]) if hat.ndim == 3 else hat


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points -> clockwise order starting with the one nearest the image's top-left."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def quad_from_points(points: np.ndarray) -> np.ndarray:
    """The quadrilateral that best outlines a point cloud: its convex hull simplified to four corners."""
    hull = cv2.convexHull(points.reshape(-1, 1, 2).astype(np.float32))
    perimeter = cv2.arcLength(hull, True)
    for frac in np.linspace(0.005, 0.2, 40):
        approx = cv2.approxPolyDP(hull, frac * perimeter, True)
        if len(approx) <= 4:
            break
    if len(approx) != 4:  # a hull that does not simplify to 4 corners: fall back to its bounding box
        approx = cv2.boxPoints(cv2.minAreaRect(hull))
    return order_corners(approx.reshape(4, 2))


def find_grid_quad(image: np.ndarray) -> GridQuad:
    """Locate the largest printed grid; ScanError if the photo holds none."""
    small, scale = downscale(image)
    strength = thin_dark(small, 7)
    threshold = max(12.0, float(np.percentile(strength, 90)))
    mask = (strength > threshold).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count < 2:
        raise ScanError("no printed grid found (the photo shows no thin dark lines)")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == best)
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    quad = quad_from_points(points)
    area = abs(cv2.contourArea(quad)) / float(small.shape[0] * small.shape[1])
    if area < MIN_AREA_FRACTION:
        raise ScanError("no printed grid found (no large lattice of lines in the photo)")
    return GridQuad((quad + 0.5) / scale - 0.5, int(stats[best, cv2.CC_STAT_AREA]), area)

"""Lattice stage: where the course's tile lattice lies in the photo, under perspective.

The course's outline is straight along its outer tile rows and columns: its two pairs of boundary lines
(Hough on the outline, refined by least squares) give a quadrilateral that is a whole number of tiles on
each side. The counts come from the printed path width (a known share of a tile). Cell (r, c) is then
the homography image of the unit square [c, c+1] x [r, r+1].
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from scipy.ndimage import median_filter

from scanner.errors import ScanError
from scanner.locate import order_corners

PATH_SHARE = 0.25  # printed path band width / tile side (the red part, without its borders)
MIN_HALF_PX = 5.0  # thinnest path half width counted, working pixels
TILE_SHARE = 60.0 / 61.5  # a tile's side as a share of the lattice pitch (tiles lie with small gaps)
EDGE_PX = 64  # pixels per tile where the tiles' edges are looked for
EDGE_REACH = 0.22  # how far (tiles) a tile's edge is looked for from where the lattice puts it
EDGE_STEP = 0.3  # least rise of the art share across a tile's edge
EDGE_AGREE = 0.06  # a tile's two edges found this much (tiles) further apart or closer than its side: no edges
SPREAD = (25.0, 35.0)  # degrees a boundary line may turn from the strongest one / from square to it
WIDE_SPREAD = (40.0, 40.0)  # the same when the course is seen steeply: its far side turns further (29 degrees
# between a course's opposite sides, camera 34 degrees from overhead); tried only when the narrow ones find no
# four sides, as a wider fan also takes in lines cut across a notch
BEYOND = 0.015  # share of the course area a boundary line may leave outside it: less than a tile of a typical
# course (one is 0.024 of 42 tiles); green cloth or clutter touching the course leave 0.007 at most


@dataclass(frozen=True)
class Lattice:
    """``h`` maps lattice coordinates (x = column, y = row, in tiles) to photo pixels."""

    h: np.ndarray
    rows: int
    cols: int

    def to_photo(self, pts) -> np.ndarray:
        p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, self.h).reshape(np.shape(pts))

    def cell_quad(self, r: float, c: float) -> np.ndarray:
        """Photo corners (NW, NE, SE, SW) of cell (r, c)."""
        return self.to_photo([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]])

    def cell_px(self) -> float:
        """Typical cell side in photo pixels."""
        q = self.cell_quad(self.rows / 2 - 0.5, self.cols / 2 - 0.5)
        return float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))


def _line_through(points: np.ndarray) -> np.ndarray:
    """(a, b, c) with a x + b y = c, |(a, b)| = 1, fitted to points by least squares."""
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    a, b = -vy, vx
    return np.array([a, b, a * x0 + b * y0])


def boundary_lines(region: np.ndarray, spread: tuple[float, float] = SPREAD) -> list[np.ndarray]:
    """Four lines (a, b, c) bounding the course region: two per lattice direction, each within ``spread``
    degrees of the strongest line's direction (first pair) or of square to it (second pair)."""
    contours, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    pts = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float64)
    outline = np.zeros(region.shape, np.uint8)
    cv2.polylines(outline, [pts.astype(np.int32).reshape(-1, 1, 2)], True, 255, 1)
    side = np.sqrt(cv2.contourArea(pts.astype(np.float32)))
    step = max(1, int(side / 150))  # a sample of the area's pixels: about 150 across
    ys, xs = np.nonzero(region[::step, ::step])
    area = np.stack([xs, ys], axis=1).astype(np.float64) * step
    found = cv2.HoughLines(outline, 2, np.pi / 360, max(20, int(side * 0.15)))
    if found is None or len(found) < 4:
        raise ScanError("no Minigolf Designer course found (the green area has no straight edges)")
    lines = found[:80, 0, :]
    first = lines[0, 1]
    chosen: list[np.ndarray] = []
    for target, fan in ((first, np.radians(spread[0])), (first + np.pi / 2, np.radians(spread[1]))):
        best: dict[int, np.ndarray] = {}
        for rho, theta in lines:
            diff = abs((theta - target + np.pi / 2) % np.pi - np.pi / 2)
            if diff > fan:
                continue
            n = np.array([np.cos(theta), np.sin(theta)])
            if n @ (np.cos(target), np.sin(target)) < 0:  # one normal per family: sides then agree
                n, rho = -n, -rho
            offset = pts @ n - rho
            sign = 1 if np.median(offset) > 0 else -1
            if sign in best:
                continue  # a weaker twin
            # a line through the middle of the course leaves tiles outside it; cloth or clutter touching the
            # course only leave specks (they make the outline ragged: its length outside says nothing)
            if np.mean(sign * (area @ n - rho) < -side * 0.02) > BEYOND:
                continue
            near = pts[np.abs(offset) < max(3.0, side * 0.01)]
            if len(near) < side * 0.2:
                continue
            best[sign] = _line_through(near)
        if len(best) < 2:
            raise ScanError("no Minigolf Designer course found (no rectangular lattice of tiles)")
        chosen += [best[-1], best[1]]
    return chosen


def _meet(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    m = np.array([[p[0], p[1]], [q[0], q[1]]])
    return np.linalg.solve(m, np.array([p[2], q[2]]))


def boundary_quad(region: np.ndarray) -> np.ndarray:
    """Corners of the course's bounding lattice rectangle in the photo, clockwise from the top-left.

    A side whose outline is broken (glare or deep shade hiding an outer tile's grass bites a notch out of the
    course) may be too short to find: the outline of the course's convex hull then stands in, whose straight
    sides a notch does not break. A course seen steeply has sides further from square: then ``WIDE_SPREAD``."""
    def attempts():  # lazily: most photos need only the first
        yield region, SPREAD
        contours, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = np.zeros(region.shape, np.uint8)
        cv2.fillConvexPoly(hull, cv2.convexHull(max(contours, key=cv2.contourArea)), 1)
        hull_area = hull.astype(bool)
        yield hull_area, SPREAD
        yield region, WIDE_SPREAD
        yield hull_area, WIDE_SPREAD

    failure = None
    for area, spread in attempts():
        try:
            a0, a1, b0, b1 = boundary_lines(area, spread)
            break
        except ScanError as e:
            failure = e
    else:
        raise failure
    corners = np.array([_meet(a0, b0), _meet(a0, b1), _meet(a1, b1), _meet(a1, b0)])
    return order_corners(corners).astype(np.float64)


def _flatten(quad: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``mask`` (float) warped so the quadrilateral becomes an upright rectangle of about its own size."""
    w = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    h = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    size = (max(8, int(round(w))), max(8, int(round(h))))
    m = cv2.getPerspectiveTransform(quad.astype(np.float32),
                                    np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]]))
    return cv2.warpPerspective(mask.astype(np.float32), m, size)


def _gap_score(profile: np.ndarray, n: int) -> float:
    """How much more table shows on the n-1 inner lattice lines than across the tile middles."""
    if n < 2:
        return 0.0
    span = len(profile)

    def at(x: float) -> float:
        i = int(round(x))
        return float(profile[max(0, i - 1):i + 2].max())

    lines = np.mean([at(k * span / n) for k in range(1, n)])
    middles = np.mean([at((k + 0.5) * span / n) for k in range(n)])
    return float(lines - middles)


def tile_counts(quad: np.ndarray, path: np.ndarray, art: np.ndarray) -> list[tuple[int, int]]:
    """Likely (rows, cols) of tiles in the quadrilateral, likeliest first: a first guess from the printed
    path width (a known share of a tile), then the three counts nearby per side whose inner lattice lines
    fall best on the gaps between tiles."""
    flat = (_flatten(quad, path) > 0.5).astype(np.uint8)
    flat = cv2.morphologyEx(flat, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    dist = cv2.distanceTransform(flat, cv2.DIST_L2, 5)
    ridge = (dist > 0) & (dist >= cv2.dilate(dist, np.ones((5, 5), np.uint8)) - 1e-3)
    if ridge.sum() < 20:
        raise ScanError("no Minigolf Designer course found (no red pathways on the tiles)")
    # the most common ridge distance is the bands' half width: a red table in a hole of the course is wider
    # and rarer; specks and a red table in the gaps between tiles are thinner than MIN_HALF_PX (the working
    # image has about 100 pixels per tile, so bands are 10 or more pixels wide)
    along = dist[ridge]
    counts = np.bincount(np.round(along[along >= MIN_HALF_PX]).astype(int))
    if counts.sum() < 20:
        raise ScanError("no Minigolf Designer course found (no red pathways on the tiles)")
    counts = np.convolve(counts, [1, 2, 1], mode="same")
    tile = 2 * float(np.argmax(counts)) / PATH_SHARE
    gaps = 1.0 - _flatten(quad, art)
    best = []
    for axis, profile in ((0, gaps.mean(axis=1)), (1, gaps.mean(axis=0))):
        # thin gaps only: a hole in the course (a stream) is a wide bump, taken out by a running median
        profile = profile - median_filter(profile, size=max(3, int(tile * 0.4)) | 1, mode="nearest")
        guess = gaps.shape[axis] / tile  # perspective and lens can skew it: look widely, keep three
        options = range(max(1, int(np.floor(guess * 0.6))), int(np.ceil(guess * 1.7)) + 1)
        best.append(sorted(options, key=lambda n, p=profile: -_gap_score(p, n))[:3])
    return [(r, c) for r in best[0] for c in best[1]]


def flatten(image: np.ndarray, lattice: Lattice, px: int, pad: int = 0) -> np.ndarray:
    """The lattice area (plus ``pad`` cells around) as an upright image, ``px`` pixels per tile."""
    src = np.float32([[-pad, -pad], [lattice.cols + pad, -pad], [lattice.cols + pad, lattice.rows + pad],
                      [-pad, lattice.rows + pad]])
    quad = lattice.to_photo(src).astype(np.float32)
    w, h = (lattice.cols + 2 * pad) * px, (lattice.rows + 2 * pad) * px
    m = cv2.getPerspectiveTransform(quad, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _edges(profile: np.ndarray, lo: float, hi: float, reach: int) -> float | None:
    """Shift (pixels) of a tile's span [lo, hi] along an art-share profile: its rising edge near ``lo`` and
    falling edge near ``hi`` (a gap or the course border), each looked for within ``reach``. None unless
    both show and lie a tile's width apart (a flag or a figure near the edge is no edge)."""
    step = np.zeros(len(profile))
    step[2:-2] = profile[4:] - profile[:-4]  # rise over 4 pixels: a gap is 1-2 pixels wide
    found = []
    for edge, sign in ((lo, 1.0), (hi, -1.0)):
        a, b = int(round(edge)) - reach, int(round(edge)) + reach + 1
        if a < 2 or b > len(profile) - 2:
            return None
        k = a + int(np.argmax(sign * step[a:b]))
        if sign * step[k] < EDGE_STEP:
            return None
        found.append(k - edge)
    return float(np.mean(found)) if abs(found[0] - found[1]) <= EDGE_AGREE * (hi - lo) else None


def cell_offsets(lattice: Lattice, art: np.ndarray) -> np.ndarray:
    """Where each tile lies in its cell (hand-laid tiles sit off the lattice by up to a fifth of a tile),
    in tiles, (rows + 2, cols + 2, 2) for the lattice padded by a cell all round: (dx, dy) from the gaps
    and the course border around it, 0 where they do not both show."""
    px = EDGE_PX
    flat = flatten(art.astype(np.uint8) * 255, lattice, px=px, pad=2).astype(np.float32) / 255
    out = np.zeros((lattice.rows + 2, lattice.cols + 2, 2))
    reach = int(EDGE_REACH * px)
    inset = (1 - TILE_SHARE) / 2 * px
    band = slice(px // 4, 3 * px // 4)  # the middle half of a side: clear of corners
    for r in range(lattice.rows + 2):
        for c in range(lattice.cols + 2):
            y0, x0 = (r + 1) * px, (c + 1) * px  # the cell's corner in the flattened image (pad 2 = 1 + 1)
            rows = flat[y0 + band.start:y0 + band.stop].mean(axis=0)
            cols = flat[:, x0 + band.start:x0 + band.stop].mean(axis=1)
            dx = _edges(rows, x0 + inset, x0 + px - inset, reach)
            dy = _edges(cols, y0 + inset, y0 + px - inset, reach)
            out[r, c] = ((dx or 0.0) / px, (dy or 0.0) / px)
    return out


def lattice_from_quad(quad: np.ndarray, rows: int, cols: int) -> Lattice:
    src = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])
    return Lattice(cv2.getPerspectiveTransform(src, quad.astype(np.float32)).astype(np.float64), rows, cols)

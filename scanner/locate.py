"""Stage 2: find a printed grid (a lattice of thin dark lines on paper) in a photo.

Works on a downscaled copy: thin dark lines are picked out with a black-hat filter (wide dark areas such
as a table cloth or a shadow are not thin, so they drop out), and the grid is the connected web of such
lines that encloses the most cells (``find_grid_quad``). Its outline is reduced to a quadrilateral. Pen
strokes drawn inside the grid join the web but do not change its outline. Squares blacked out at a corner
take the lines there away, and a stroke may join other print to the web (a title's rule), which pulls the
outline out to it: the outline is offered again with its cut corners restored (``restore_corners``), from all
its lines and from those beside the cells the web encloses. (How much of its sides lies on the lines tells too
little: the outline of a 9 x 9 plan that cut across a blacked-out corner by most of a square still had 0.805
of each side on them, against 0.87 and up for whole outlines.) The later grid stage refines the corners from
the printed lines.

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

from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from scanner.debug import draw_polygon
from scanner.errors import ScanError
from scanner.histogram import channel_counts, counts_percentile, uint8_percentile

WORK_SIDE = 1000  # longer side of the working copy: fast, and grid lines stay 1-3 px wide
MIN_AREA_FRACTION = 0.02  # a grid smaller than this share of the photo is seldom read right (a 12 MP photo's
# squares come out under 50 pixels; clutter and a sheet's score boxes make webs this size) ...
SMALL_AREA_FRACTION = 0.015  # ... so one down to this share is looked for only when no larger one is found
MIN_LEVEL = 12.0  # faintest line strength (black-hat, 0-255) looked at: paper texture stays below it
LEVELS = 6  # line strength levels tried, halving from the paper-bright part's strongest tenth to MIN_LEVEL
CANDIDATES = 8  # largest webs of lines examined at each level
MIN_CELL_PIXELS = 9  # least area of an enclosed cell at working scale (3 x 3 pixels)
EDGE_YIELD = 0.25  # least share of its cells a stronger web inside the photo needs to win over one running off it
BACKGROUND = 0.5  # share of the photo from which a web that runs off it is taken for the background
FRAME = 0.08  # width of the band around a web's outline looked at for paper, share of the outline's size
FRAMED = 0.6  # least share of paper in that band of a grid printed on a sheet (plans: 0.8-1; a patch of a
# checked cloth: 0.3-0.4)
PAPER_SATURATION = 60  # HSV saturation (0-255) below which a bright pixel counts as paper, colours balanced
LATTICE_PAPER = 0.5  # least paper a lattice's cells enclose, per pixel of its lines (a grid: 2-5; stripes,
# a checked cloth: 0-0.3; a grid under heavy pen: about 1)
SIDE_REACH = 2  # how far (working pixels) a line pixel may lie from a cell it encloses, and a restored outline's
# corner from the outline's to be another guess
CORNER_DETAIL = 0.01  # simplification of a web's hull before its cut corners are restored, share of its perimeter
NEAR_REACH = 0.5  # share of a grid's size the part of the photo it is located again in reaches beyond it (``find_grid_quad_near``)


@dataclass(frozen=True)
class GridQuad:
    """Outer corners of a grid in photo pixels, clockwise from the top-left *as photographed*."""

    corners: np.ndarray  # (4, 2) float32
    line_pixels: int  # size of the line web at working scale (evidence strength)
    area_fraction: float  # quadrilateral area / photo area
    edge: bool = False  # the web of lines runs off the photo (a plan cut by it, or a table's checks)
    cornered: tuple[np.ndarray, ...] = ()  # the outline with its cut corners restored (``restore_corners``), of
    # all the web's lines and of those beside the cells it encloses (``_Web.lattice_rim``), where that moves a
    # corner: other guesses, for the caller to check

    def draw(self, image: np.ndarray) -> np.ndarray:
        return draw_polygon(image, self.corners, (0, 200, 255), max(2, image.shape[1] // 400))


def downscale(image: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """Copy with longer side ``side`` (never enlarged), and the factor used."""
    scale = min(1.0, side / max(image.shape[:2]))
    if scale == 1.0:
        return image, 1.0
    # halved first while that stays above the target: OpenCV's area average over 2 x 2 pixels is a fast
    # special case, and a 12 MP photo comes down to 1,000 pixels in a third of the time of one area resize
    left = scale
    while left <= 0.5:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
        left *= 2
    if left == 1.0:
        return image, scale
    return cv2.resize(image, None, fx=left, fy=left, interpolation=cv2.INTER_AREA), scale


def thin_dark(image: np.ndarray, width: int) -> np.ndarray:
    """Strength of dark structures thinner than ``width`` pixels (black-hat), uint8.

    For a colour image, the strongest of the three channels: a pale coloured print (a light red grid on
    cream paper) stands out in one channel far more than in grey.
    """
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (width, width))
    return channel_max(cv2.morphologyEx(image, cv2.MORPH_BLACKHAT, kernel))


def channel_max(image: np.ndarray) -> np.ndarray:
    """The strongest channel of each pixel (a grey image as it is), taken by pairs of whole channels: numpy's
    reduction over a short last axis is many times slower, and its pairwise maximum of the interleaved channels
    takes three times as long as OpenCV's of the split ones (0.8 against 0.3 ms for a 1000 x 563 photo).

    >>> channel_max(np.array([[[3, 9, 4], [7, 1, 2]]], np.uint8)).tolist()
    [[9, 7]]
    """
    if image.ndim != 3:
        return image
    blue, green, red = cv2.split(image)
    return cv2.max(cv2.max(blue, green), red)


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


def cell_outlines(component: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The paper regions a web of lines (binary mask) encloses, at least ``MIN_CELL_PIXELS`` each: each one's
    contour and area."""
    contours, hierarchy = cv2.findContours(component, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    holes = [(c, cv2.contourArea(c)) for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0]
    return [(c, area) for c, area in holes if area >= MIN_CELL_PIXELS]


def enclosed_cells(component: np.ndarray) -> tuple[int, float]:
    """How many cells a web of lines encloses (``cell_outlines``), and their total area."""
    cells = cell_outlines(component)
    return len(cells), float(sum(area for _, area in cells))


@dataclass(frozen=True)
class _Web:
    """A connected web of thin dark lines at working scale: its pixels and how many cells it encloses."""

    component: np.ndarray  # uint8 mask of the web in its bounding box
    origin: tuple[int, int]  # x, y of that box
    pixels: int
    cells: int
    background: bool  # runs off the photo and spans most of it, or across it: a cloth's or a floor's pattern
    edge: bool  # runs off the photo
    level: float  # the line strength it was found at

    def rim(self, mask: np.ndarray | None = None) -> np.ndarray:
        """(N, 2) x, y of the first and last of the web's pixels in each row (of ``mask``, a part of its box, if
        given): every point the pixels' convex hull can rest on, a few hundred instead of tens of thousands."""
        inked = (self.component if mask is None else mask) > 0
        rows = np.flatnonzero(inked.any(axis=1))
        first = inked[rows].argmax(axis=1)
        last = inked.shape[1] - 1 - inked[rows, ::-1].argmax(axis=1)
        xs, ys = np.concatenate([first, last]), np.concatenate([rows, rows])
        return np.stack([xs + self.origin[0], ys + self.origin[1]], axis=1).astype(np.float32)

    @cached_property
    def quad(self) -> np.ndarray:
        """The web's outline as a quadrilateral (``quad_from_points``), at working scale."""
        return quad_from_points(self.rim())

    @property
    def area(self) -> float:
        """The outline's area in working pixels."""
        return abs(cv2.contourArea(self.quad))

    def lattice_rim(self) -> np.ndarray:
        """The ``rim`` of the web's pixels beside a cell it encloses (within ``SIDE_REACH``): the lattice
        without the spurs of other print that a stroke joins to it (a title's rule, a box's side)."""
        cells = np.zeros_like(self.component)
        cv2.drawContours(cells, [c for c, _ in cell_outlines(self.component)], -1, 1, -1)
        return self.rim(cv2.dilate(cells, np.ones((2 * SIDE_REACH + 1,) * 2, np.uint8)) & self.component)

    def cornered_quad(self, points: np.ndarray) -> np.ndarray | None:
        """The outline of some of the web's pixels (``points``: a ``rim``) with its cut corners restored
        (``restore_corners``), at working scale."""
        hull = cv2.convexHull(points)
        simpler = cv2.approxPolyDP(hull, CORNER_DETAIL * cv2.arcLength(hull, True), True)
        return restore_corners(simpler.reshape(-1, 2))


def restore_corners(polygon: np.ndarray) -> np.ndarray | None:
    """A convex polygon (N, 2) brought down to four corners by replacing, one at a time, the edge whose
    neighbours extended until they meet add the least area; the last such step (five corners to four) takes the
    quadrilateral whose opposite sides are likest in length instead (``side_skew``). Squares blacked out at a
    grid's corner take its lines away and the lines' hull cuts across the corner; the sides beside it still run on
    to the corner. A block of them cuts deep, and a short edge where the cut meets a side adds less area than the
    cut itself: a 10 x 10 grid's hull, 3 x 4 squares blacked out at its corner, was restored at the wrong corner.
    None when no edge's neighbours meet beyond it.

    >>> restore_corners(np.array([[0, 0], [8, 0], [10, 2], [10, 10], [0, 10]])).tolist()
    [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    >>> restore_corners(np.array([[0, 0], [7, 0], [10, 7.7], [10, 10], [0, 10]])).tolist()  # a deep cut
    [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    """
    corners = np.asarray(polygon, np.float64)
    while len(corners) > 4:
        best = None
        for k in range(len(corners)):
            before, start, end, after = (corners[(k + j) % len(corners)] for j in (-1, 0, 1, 2))
            meet = line_crossing(start, start - before, end, after - end)
            if meet is None or (meet - start) @ (start - before) <= 0 or (meet - end) @ (end - after) <= 0:
                continue  # the neighbours meet behind the edge: no corner there
            (ax, ay), (bx, by) = meet - start, end - start
            replaced = np.insert(np.delete(corners, [k, (k + 1) % len(corners)], axis=0),
                                 k if k + 1 < len(corners) else 0, meet, axis=0)
            cost = side_skew(replaced) if len(corners) == 5 else abs(ax * by - ay * bx) / 2  # else the area added
            if best is None or cost < best[0]:
                best = (cost, replaced)
        if best is None:
            return None
        corners = best[1]
    return order_corners(corners) if len(corners) == 4 else None


def corners_apart(quad: np.ndarray, other: np.ndarray) -> float:
    """How far apart two quadrilaterals' corners lie: the farthest of each corner from its match, the corners matched
    in the order that brings them closest (a grid seen turned by half a right angle has two corners about as near
    the top left, and ``order_corners`` may start two outlines of it at either).

    >>> square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> corners_apart(square, np.roll(square, 1, axis=0)), corners_apart(square, square + 1)
    (0.0, 1.0)
    """
    return float(min(np.abs(np.roll(quad, k, axis=0) - other).max() for k in range(4)))


def side_skew(quad: np.ndarray) -> float:
    """How unlike in length a quadrilateral's opposite sides are: the sum of their log ratios (0 for any
    parallelogram; a grid seen in perspective stays near it).

    >>> round(side_skew(np.array([[0, 0], [10, 0], [10, 10], [0, 10]])), 3), round(side_skew(np.array([[0, 0], [20, 0], [20, 10], [0, 10]])), 3)
    (0.0, 0.0)
    >>> round(side_skew(np.array([[0, 0], [10, 0], [10, 5], [0, 10]])), 2)  # a side cut short by half, one long
    0.8
    """
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1) + 1e-9
    return float(abs(np.log(sides[0] / sides[2])) + abs(np.log(sides[1] / sides[3])))


def line_crossing(start: np.ndarray, step: np.ndarray, other: np.ndarray, other_step: np.ndarray) -> np.ndarray | None:
    """Where two lines (a point and a direction each) cross; None if they are (nearly) parallel.

    >>> line_crossing(np.array([0.0, 1.0]), np.array([1.0, 0.0]), np.array([2.0, 0.0]), np.array([0.0, 1.0])).tolist()
    [2.0, 1.0]
    """
    system = np.array([step, -other_step]).T
    if abs(np.linalg.det(system)) < 1e-6:
        return None
    return start + np.linalg.solve(system, other - start)[0] * step


def _webs(strength: np.ndarray, threshold: float) -> list[_Web]:
    """The largest connected webs of lines stronger than ``threshold`` that enclose paper, as a lattice of
    thin lines does: its cells hold more paper than its lines hold ink (``LATTICE_PAPER``). Parallel lines
    (floor boards, stripes) enclose nothing; a cloth's dense checks enclose little."""
    # Grana's block-based labelling: the same labels as OpenCV's default, with the statistics in a third of the time
    count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm((strength > threshold).astype(np.uint8), 8,
                                                                            cv2.CV_32S, cv2.CCL_GRANA)
    webs = []
    for k in 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:CANDIDATES]:
        x, y, w, h, pixels = (int(v) for v in stats[k])
        component = (labels[y:y + h, x:x + w] == k).astype(np.uint8)
        cells, paper = enclosed_cells(component)
        if cells and paper >= LATTICE_PAPER * pixels:
            height, width = strength.shape
            edge = x == 0 or y == 0 or x + w == width or y + h == height
            # a web across the photo from edge to edge is the background too: a sheet cut on both sides
            # cannot be read anyway
            background = edge and (w * h >= BACKGROUND * width * height or w == width or h == height)
            webs.append(_Web(component, (x, y), pixels, cells, background, edge, threshold))
    return webs


def _grid_web(webs: list[_Web]) -> _Web:
    """The web that is the printed grid: the one enclosing the most cells, the first (strongest level) of
    equals, but not the background (a checked cloth's faint lines join up into a web over the whole photo,
    with more cells than a plan that takes up part of it). A web running off the photo that only joins up at
    a fainter level than a web inside it with a fair share (``EDGE_YIELD``) of its cells yields to that one: a
    cloth's checks around a plan. A plan cut by the photo's edge is its own strongest web, and stays chosen
    (and refused).

    >>> from dataclasses import replace
    >>> cloth = _Web(np.ones((1, 1), np.uint8), (0, 0), 1, 305, False, True, 21.75)
    >>> plan = _Web(np.ones((1, 1), np.uint8), (0, 0), 1, 104, False, False, 43.5)
    >>> _grid_web([cloth, plan]).cells, _grid_web([replace(cloth, level=43.5), plan]).cells
    (104, 305)
    """
    best = max(webs, key=lambda web: (not web.background, web.cells))
    inside = [web for web in webs if not web.edge and web.level > best.level and web.cells >= EDGE_YIELD * best.cells]
    return max(inside, key=lambda web: web.cells) if best.edge and inside else best


def _bright(image: np.ndarray) -> np.ndarray:
    """Where the photo is about as bright as paper (at least half its brightest hundredth): the part whose
    line strength sets the levels, so a small sheet on a dark table is judged by its own lines."""
    grey = channel_max(image)
    return grey >= 0.5 * uint8_percentile(grey, 99)


def balanced_to_white(image: np.ndarray, reference: np.ndarray | None = None) -> np.ndarray:
    """Colour ``image`` (..., 3, uint8) with each channel scaled so that the 95th percentile of the pixels
    picked by ``reference`` (a mask over the image's pixels; all when None) is neutral: warm or coloured
    light tints paper.

    >>> balanced_to_white(np.array([[[200, 100, 100]]], np.uint8))[0, 0].tolist()
    [133, 133, 133]
    """
    white = np.maximum(np.float32([counts_percentile(channel_counts(image, k, reference), 95) for k in range(3)]), 1.0)
    # a lookup table per channel: a tenth of the time of scaling every pixel
    table = np.clip(np.arange(256, dtype=np.float32)[:, None] * (white.mean() / white), 0, 255).astype(np.uint8)
    return cv2.LUT(np.ascontiguousarray(image).reshape(-1, 1, 3), table.reshape(256, 1, 3)).reshape(image.shape)


def _paper(image: np.ndarray, bright: np.ndarray) -> np.ndarray:
    """Where the photo is paper: about as bright as its brightest part (``bright``, from ``_bright``) and
    colourless once the colours of that part are balanced to white."""
    if image.ndim != 3:
        return bright
    return bright & (cv2.cvtColor(balanced_to_white(image, bright), cv2.COLOR_BGR2HSV)[..., 1] < PAPER_SATURATION)


def framed_by_paper(quad: np.ndarray, paper: np.ndarray) -> bool:
    """Whether a band around the outline ``quad`` (``FRAME`` of its size) is mostly paper (``FRAMED``): a grid
    printed on a sheet has the sheet around it, a patch of a checked cloth has more cloth."""
    centre = quad.mean(axis=0)
    band = np.zeros(paper.shape, np.uint8)
    cv2.fillPoly(band, [np.int32(np.round((quad - centre) * (1 + FRAME) + centre))], 1)
    cv2.fillPoly(band, [np.int32(np.round(quad))], 0)
    around = band.astype(bool)
    return bool(around.any()) and float(paper[around].mean()) >= FRAMED


def find_grid_quad(image: np.ndarray, side: int = WORK_SIDE, inside: bool = False,
                   least_share: float = MIN_AREA_FRACTION) -> GridQuad:
    """Locate the printed grid: of the webs of thin lines large enough to be read (``least_share`` of the
    photo), the one enclosing the most cells (not one that runs off the photo and spans most of it), of those
    framed by paper if any are; ScanError if the photo holds none. A smaller web with more cells (a sheet's
    score boxes) is no rival to a faint grid.

    The line strength that makes a web depends on the print and the light, and a busy background (wood
    grain, a striped or checked cloth) can be stronger than pale grid lines, so the webs are looked for at
    a few levels, from the strongest tenth of the photo's paper-bright part (``_bright``) down to faint
    lines. ``side`` is the working copy's longer side: a small grid's lines may merge with the sheet's other
    print at the usual scale. With ``inside``, only webs clear of the photo's edge compete.
    """
    small, scale = downscale(image, side)
    strength = thin_dark(small, 7)
    bright = _bright(small)
    top = counts_percentile(channel_counts(strength, mask=bright), 90)
    levels = sorted({max(MIN_LEVEL, top / 2 ** k) for k in range(LEVELS)}, reverse=True)
    webs = [web for level in levels for web in _webs(strength, level)]
    if not webs:
        raise ScanError("no printed grid found (no lattice of thin dark lines in the photo)")
    least = least_share * strength.size  # smaller webs are never read (their outline lies in their box)
    large = [web for web in webs if web.component.size >= least and web.area >= least and not (inside and web.edge)]
    if not large:
        raise ScanError("no printed grid found (no lattice of lines large enough to read: photograph the plan from closer)")
    if len(large) > 1:  # a grid on paper before a pattern of the table's that encloses more cells
        paper = _paper(small, bright)
        large = [web for web in large if framed_by_paper(web.quad, paper)] or large
    best = _grid_web(large)
    guesses: list[np.ndarray] = []
    for quad in (best.cornered_quad(points) for points in (best.rim(), best.lattice_rim())):
        if quad is not None and all(corners_apart(quad, seen) > SIDE_REACH for seen in [best.quad, *guesses]):
            guesses.append(quad)
    return GridQuad((best.quad + 0.5) / scale - 0.5, best.pixels, best.area / strength.size, best.edge,
                    tuple((quad + 0.5) / scale - 0.5 for quad in guesses))


def find_grid_quad_near(image: np.ndarray, corners: np.ndarray, reach: float = NEAR_REACH) -> GridQuad:
    """The grid located again (``find_grid_quad``) in the part of the photo around ``corners`` (their box grown
    by ``reach`` of its size on every side), in photo pixels: a grid a few percent of the photo gets several
    times the detail the whole photo's working copy gives it, and the levels its lines are looked for at are
    those of its own sheet. ScanError when none is found there.

    >>> photo = np.full((3000, 4000, 3), 90, np.uint8)
    >>> photo[1400:1700, 1800:2100] = 235
    >>> for k in range(7):
    ...     _ = cv2.line(photo, (1850 + 33 * k, 1450), (1850 + 33 * k, 1650), (40, 40, 40), 2)
    ...     _ = cv2.line(photo, (1850, 1450 + 33 * k), (2050, 1450 + 33 * k), (40, 40, 40), 2)
    >>> found = find_grid_quad_near(photo, np.float32([[1850, 1450], [2050, 1450], [2050, 1650], [1850, 1650]]))
    >>> bool(np.abs(found.corners - [[1850, 1450], [2050, 1450], [2050, 1650], [1850, 1650]]).max() < 6)
    True
    """
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    grow = reach * max(x1 - x0, y1 - y0)
    h, w = image.shape[:2]
    left, top = int(max(0, x0 - grow)), int(max(0, y0 - grow))
    right, bottom = int(min(w, x1 + grow + 1)), int(min(h, y1 + grow + 1))
    part = find_grid_quad(image[top:bottom, left:right])
    shift = np.float32([left, top])
    return replace(part, corners=part.corners + shift, area_fraction=part.area_fraction * (right - left) * (bottom - top) / (w * h),
                   cornered=tuple(quad + shift for quad in part.cornered))

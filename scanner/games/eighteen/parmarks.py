"""Where a tee/green square's par digit may be: its ink pieces, cut from the photo at full detail.

The 64-pixel squares the classifier reads are too coarse for a digit a quarter of a square tall, and a
digit often touches the printed grid line, the diagonal or a fairway stub. So each tee/green square is
cut again from the photo (``CROP`` pixels a side, with a ``PAD`` margin all round, so a digit written
across the border is whole), binarised at each of a few ink levels taken from the pen strokes inside
the square (``ink_levels``: a sharp digit is whole at the lower, a blurred one apart from its neighbours
only at the higher), and then at each level (``cut_levels``):

1. the printed grid lines and other long straight strokes are removed, with the pixels where a pen
   stroke crosses them put back (a digit written over a grid line stays in one piece);
2. the diagonal is erased along its path, taken through the middle of its stroke, with the pixels where
   a pen stroke crosses it put back (a digit written over the diagonal stays in one piece);
3. the remaining ink falls into connected pieces, down to a few pixels (what is left of a digit's stroke
   between two lines); a candidate (from any level) is a piece, a group of pieces close to each other (a
   5's separate bar, a digit cut by a line), or the inside of a ring drawn round a digit; a candidate that
   touches erased strokes is offered once more with them put back within its box (a digit written along a
   line, its stem on the line, or a 4 whose slanting stroke lies on the diagonal, lost a stroke with it).

Example:
    >>> import numpy as np, cv2
    >>> img = np.full((200, 200, 3), 235, np.uint8)
    >>> _ = cv2.rectangle(img, (50, 50), (150, 150), (60, 60, 60), 2)    # the square's printed border
    >>> _ = cv2.line(img, (50, 50), (150, 150), (90, 30, 30), 2)         # its diagonal
    >>> _ = cv2.putText(img, "4", (58, 143), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (90, 30, 30), 2)
    >>> quad = np.float32([[50, 50], [150, 50], [150, 150], [50, 150]])
    >>> cands = square_candidates(img, quad, 0.3)
    >>> [round(v, 1) for v in cands[0].centre]
    [0.2, 0.8]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from scanner.cells import paper_level
from scanner.channels import darkest_channel
from scanner.games.eighteen.digits import Candidate
from scanner.games.eighteen.features import diagonal_paths
from scanner.quantiles import median

CROP = 96  # pixels per square side in the digit crop
PAD = 0.15  # crop margin beyond the square on every side, share of the side
LINE = 0.4  # a horizontal or vertical run longer than this share of the side is a line, not a digit stroke
STUB = 0.2  # ... and one longer than this that starts on the square's border, a fairway stub
BORDER = 0.04  # how near the border line (share of the side) a stub starts
GAP = 0.05  # pieces closer than this share of the side may belong to one digit
MIN_TALL, MAX_TALL, MAX_WIDE = 0.1, 0.5, 0.45  # a candidate's size, shares of the side
MIN_AREA = 0.004  # least ink of a candidate, share of the square
MIN_PIECE = 0.0005  # least ink of a piece that may be part of one: a digit written over a line or the diagonal
# comes out of their removal in fragments a few pixels large
MAX_CANDIDATES = 12  # the largest ones are read (each costs four readings): a shaded square breaks into many pieces
INNER = 0.1  # the printed border's band, share of the side
LEVELS = (0.5, 0.65, 0.95, 1.25)  # shares of the typical stroke strength that count as ink: the square is
# cut at each and the pieces of all are read. A thin or faint digit is whole only at the lowest; a blurred
# photo or a broad pen runs a small digit into a blob (or into the ring round it, the stub beside it) that
# only the highest, the strokes' dark cores, keeps apart.
FAINTEST = 0.5  # lowest level, share of the plan's threshold: a light pen's digit, whole only below the
# plan's level (set by its darker lines and shading), still stands clear of the paper there
BROAD = 0.08  # ink this broad (share of the side) all round is filled in: shading, a blot, not a pen line
CENTRE_REACH = 0.08  # how far (share of the side) the diagonal's stroke may lie beside its coarse path
RING_HOLE = 0.015  # least enclosed paper of a ring drawn round a digit, share of the square
_NEIGHBOURS = np.ones((3, 3), np.uint8)  # a pixel's eight neighbours, as a kernel


def square_ink(image: np.ndarray, quad: np.ndarray, side: int = CROP) -> np.ndarray:
    """Ink strength (0..1) of one square and a ``PAD`` margin, warped upright from the photo.

    ``quad``: the square's corners TL, TR, BR, BL in photo pixels. Paper brightness is taken locally
    (``paper_level``: a bright maximum over a third of the side, kept to a shadow's side of its edge), so
    shadows and tinted sheets read as paper.
    """
    pad = int(round(PAD * side))
    dst = np.float32([[pad, pad], [pad + side, pad], [pad + side, pad + side], [pad, pad + side]])
    h = cv2.getPerspectiveTransform(np.float32(quad), dst)
    full = side + 2 * pad
    crop = cv2.warpPerspective(image, h, (full, full), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    crop = darkest_channel(crop).astype(np.float32)
    k = side // 3 | 1
    paper = paper_level(crop, np.ones((k, k), np.uint8), k / 4)
    return np.clip(1.0 - crop / np.maximum(paper, 1.0), 0.0, 1.0)


def _beyond(b: np.ndarray, reach: int, vertical: bool) -> tuple[np.ndarray, np.ndarray]:
    """Pixels with ink of ``b`` within ``reach`` before them and within ``reach`` after them (above and
    below when ``vertical``, else left and right). Like the other steps of the cleaning, for one binary
    image (H, W) or several of the same square as channels (H, W, levels)."""
    before = np.ones((reach + 1, 1), np.uint8)
    after = before.copy()
    before[-1], after[0] = 0, 0
    if not vertical:
        before, after = before.T, after.T
    return (cv2.dilate(b, before, anchor=(0, reach) if vertical else (reach, 0)).reshape(b.shape),
            cv2.dilate(b, after, anchor=(0, 0)).reshape(b.shape))


def _runs(b: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixels on horizontal and on vertical runs of at least ``length``."""
    # (OpenCV returns an image of one channel without its channel axis: the shape is put back)
    return (cv2.morphologyEx(b, cv2.MORPH_OPEN, np.ones((1, length), np.uint8)).reshape(b.shape),
            cv2.morphologyEx(b, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8)).reshape(b.shape))


@cache
def _near_border(size: int, side: int) -> np.ndarray:
    """Where a stub drawn to the border line of a ``side`` square in a ``size`` crop starts (boolean)."""
    pad = (size - side) // 2
    near = np.zeros((size, size), bool)
    reach = max(1, int(round(BORDER * side)))
    for at in (pad, pad + side):
        near[at - reach:at + reach + 1, :] = True
        near[:, at - reach:at + reach + 1] = True
    return near


def _stubs(b: np.ndarray, side: int) -> np.ndarray:
    """Straight runs of stub length that start on the square's border line (fairway stubs drawn to it)."""
    near = _near_border(b.shape[0], side)
    out = np.zeros_like(b)
    levels = out.reshape(*b.shape[:2], -1)  # a view: one channel a level, one for a single image
    for runs in _runs(b, max(4, int(round(STUB * side)))):
        runs = runs.reshape(levels.shape)
        for level in range(runs.shape[2]):  # connected pieces are looked for one level at a time
            one = np.ascontiguousarray(runs[..., level])
            count, labels = cv2.connectedComponents(one, connectivity=8)
            touching = np.zeros(count, np.uint8)
            touching[labels[near & (one > 0)]] = 1
            touching[0] = 0
            levels[..., level] |= np.take(touching, labels)
    return out


def without_lines(b: np.ndarray, side: int) -> np.ndarray:
    """Binary ink without long horizontal and vertical runs (printed lines, straight stubs), except where
    a pen stroke crosses them: a line pixel with ink just beyond the line on both sides stays."""
    rows, cols = _runs(b, max(5, int(round(LINE * side))))
    stubs = _stubs(b, side)
    rest = b & ~(rows | cols | stubs)
    reach = max(2, side // 16)  # thicker than a printed line, thinner than a digit
    keep = np.zeros_like(b)
    for lines, vertical in ((rows, True), (cols, False)):
        before, after = _beyond(rest, reach, vertical)
        keep |= lines & before & after
    return rest | keep


def diagonal_stroke(b: np.ndarray, side: int, pad: int) -> tuple[np.ndarray, int]:
    """The diagonal's path (x, y points in the crop) and the width to erase along it: found on a 64-pixel
    copy of the square's binary ink ``b``, then put on the middle of the stroke in ``b`` (``_centred``)."""
    square = b[pad:pad + side, pad:pad + side]
    small = (cv2.resize(square.astype(np.float32), (64, 64), interpolation=cv2.INTER_AREA) > 0.25).astype(np.uint8)
    m = 6  # the printed line's margin, as features.binarize clears it
    small[:m], small[-m:], small[:, :m], small[:, -m:] = 0, 0, 0, 0
    _, path = diagonal_paths(small)
    scale = side / 64
    ends = np.float32([[0, 0], [63, 63]]) if path[0, 1] <= path[-1, 1] else np.float32([[0, 63], [63, 0]])
    full = np.vstack([ends[:1], path, ends[1:]]) * scale + pad
    # twice: a run the coarse path lies far off the middle of may reach past CENTRE_REACH the first time
    centred, breadth = _centred(_centred(full, b, side)[0], b, side)
    # the diagonal's own breadth where it was found (a bold digit beside a fine diagonal must not widen
    # the erasing), and a margin for its wobble
    return centred, int(round(breadth if breadth is not None else _stroke_width(square))) + int(round(0.05 * side))


def _centred(path: np.ndarray, b: np.ndarray, side: int) -> tuple[np.ndarray, float | None]:
    """The diagonal's path moved onto the middle of its stroke in ``b``, and the stroke's breadth (None when
    no ink lies near the path): the path found on the coarse copy keeps to one edge of a broad stroke (any
    offset on ink scores alike), and erasing along it would leave the stroke's far half. Each point moves
    square to the diagonal to the middle of the ink run it lies on (or the nearest within
    ``CENTRE_REACH``); the shifts are smoothed along the path and the breadth is the runs' median (a digit
    crossing the diagonal widens the run at a few points only)."""
    diag = path[-1] - path[0]
    normal = np.float32([-diag[1], diag[0]]) / (np.linalg.norm(diag) + 1e-6)
    reach = int(round(CENTRE_REACH * side))
    offsets = np.arange(-reach, reach + 1)
    pts = np.rint(path[:, None, :] + offsets[None, :, None] * normal).astype(int)
    inside = (pts >= 0).all(axis=2) & (pts[..., 0] < b.shape[1]) & (pts[..., 1] < b.shape[0])
    on = np.zeros(pts.shape[:2], bool)
    on[inside] = b[pts[..., 1][inside], pts[..., 0][inside]] > 0
    # the ink pixel nearest the path on each line square to it, and the run of ink it lies in
    start = np.where(on, np.abs(offsets), len(offsets)).argmin(axis=1)
    at = np.arange(len(offsets))
    lo = np.maximum.accumulate(np.where(on, -1, at), axis=1)[np.arange(len(path)), start] + 1
    hi = np.minimum.accumulate(np.where(on, len(at), at)[:, ::-1], axis=1)[:, ::-1][np.arange(len(path)), start] - 1
    shifts = np.where(on.any(axis=1), (offsets[np.clip(lo, 0, len(at) - 1)] + offsets[np.clip(hi, 0, len(at) - 1)]) / 2,
                      np.nan)
    if np.isnan(shifts).all():
        return path, None
    breadth = float(median((hi - lo + 1)[on.any(axis=1)].astype(np.float64)))
    known = ~np.isnan(shifts)
    shifts = np.interp(np.arange(len(path)), np.flatnonzero(known), shifts[known])
    k = 2  # a running median over five points
    padded = np.concatenate([np.repeat(shifts[:1], k), shifts, np.repeat(shifts[-1:], k)])  # the ends repeated
    smooth = np.sort(np.lib.stride_tricks.sliding_window_view(padded, 2 * k + 1), axis=1)[:, k]  # the middle one
    return (path + smooth[:, None] * normal).astype(np.float32), breadth


@dataclass(frozen=True)
class DiagonalBand:
    """Where the diagonal's stroke is erased from a crop (``diagonal_band``), the same at every ink level."""

    band: np.ndarray  # the stroke's pixels
    edge: np.ndarray  # a ring round it, a margin clear of it: where a stroke crossing the diagonal leaves it
    reach: tuple[np.ndarray, np.ndarray]  # kernels reaching across the band, square to the diagonal, either way


def diagonal_band(shape: tuple[int, ...], path: np.ndarray, width: int, side: int) -> DiagonalBand:
    """The band of ``width`` along the diagonal's ``path`` (x, y points) in a crop of ``shape``."""
    line = path.reshape(-1, 1, 2).astype(np.int32)
    band, outer = np.zeros(shape[:2], np.uint8), np.zeros(shape[:2], np.uint8)
    cv2.polylines(band, [line], False, 1, width)
    margin = max(2, side // 32)
    cv2.polylines(outer, [line], False, 1, width + 2 * margin)
    edge = cv2.dilate(outer, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * margin + 1, 2 * margin + 1))) & (1 - outer)
    # square to the diagonal: (1, -1) for the one from top left to bottom right, else (1, 1)
    dy = -1 if (path[-1, 1] - path[0, 1]) * (path[-1, 0] - path[0, 0]) > 0 else 1
    steps = int(np.ceil((width + 4 * margin) / np.sqrt(2)))
    kernels = []
    for sign in (1, -1):
        kernel = np.zeros((2 * steps + 1, 2 * steps + 1), np.uint8)
        for i in range(1, steps + 1):
            kernel[steps + sign * dy * i, steps + sign * i] = 1
        kernels.append(kernel)
    return DiagonalBand(band, edge, (kernels[0], kernels[1]))


def without_diagonal(b: np.ndarray, diagonal: DiagonalBand) -> np.ndarray:
    """Binary ink without the diagonal's stroke, except where a pen stroke crosses it: a pixel of the erased
    band stays when strokes meet the band's edges on both sides of it, square to the diagonal (a digit
    written over the diagonal stays in one piece). Only ink that reaches the band counts: the diagonal's
    own fringe lies within the margin, and a digit's loops on both sides that do not touch it must not
    bring the diagonal back between them."""
    band, edge = (diagonal.band, diagonal.edge) if b.ndim == 2 else (diagonal.band[..., None], diagonal.edge[..., None])
    touching = b & edge
    both = [cv2.dilate(touching, k, anchor=(k.shape[1] // 2, k.shape[0] // 2)).reshape(b.shape) for k in diagonal.reach]
    return (b & (1 - band)) | (band & b & both[0] & both[1])


def _stroke_width(b: np.ndarray) -> int:
    """Typical pen stroke width in pixels (twice the median distance to paper along the strokes' cores)."""
    if not b.any():
        return 1
    dist = cv2.distanceTransform(b, cv2.DIST_L2, 3)
    core = dist[(dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8))) & (b > 0)]
    return max(1, int(round(2 * float(np.median(core)))))


def _ring_inside(piece: np.ndarray, side: int) -> np.ndarray | None:
    """The ink inside a ring drawn round a digit (the piece without its outer band), or None."""
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(piece)
    cv2.drawContours(filled, contours, -1, 1, -1)
    if np.count_nonzero(filled > piece) < RING_HOLE * side * side:  # paper enclosed by the piece
        return None
    band = _stroke_width(piece) + max(1, side // 48)
    inner = cv2.erode(filled, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band + 1, 2 * band + 1)))
    inside = piece & inner
    return inside if inside.sum() >= MIN_AREA * side * side else None


@cache
def _above_diagonal(n: int) -> np.ndarray:
    """The pairs (i, j) of n pieces with i < j, as a boolean n x n matrix (``np.triu``'s mask, made once a size)."""
    return np.triu(np.ones((n, n), bool), 1)


def _groups(boxes: np.ndarray, gap: float) -> list[list[int]]:
    """Pieces as candidates: each alone, each near pair, and each cluster of pieces within ``gap``."""
    n = len(boxes)
    x0, y0 = boxes[:, 0], boxes[:, 1]
    x1, y1 = x0 + boxes[:, 2], y0 + boxes[:, 3]
    near = ((x0[:, None] - gap <= x1[None, :]) & (x0[None, :] - gap <= x1[:, None])
            & (y0[:, None] - gap <= y1[None, :]) & (y0[None, :] - gap <= y1[:, None]))
    pairs = np.argwhere(near & _above_diagonal(n)).tolist()
    # clusters: connected parts of the "near" relation, joined pair by pair under their lowest piece (a crop's
    # dozen pieces and their pairs: plain Python beats array closures at this size)
    lowest = list(range(n))

    def cluster_of(i: int) -> int:
        while lowest[i] != i:
            lowest[i] = i = lowest[lowest[i]]
        return i

    for a, b in pairs:
        first, second = sorted((cluster_of(a), cluster_of(b)))
        lowest[second] = first
    clusters: dict[int, list[int]] = {}
    for i in range(n):  # each cluster's members in order, the clusters in the order of their lowest pieces
        clusters.setdefault(cluster_of(i), []).append(i)
    return [[i] for i in range(n)] + pairs + [members for members in clusters.values() if len(members) > 2]


def _candidate(mask: np.ndarray, x: int, y: int, side: int, pad: int, restored: bool = False) -> Candidate | None:
    """A candidate from a binary mask whose top left lies at (x, y) of the crop, if it has a digit's size."""
    m = cv2.moments(mask, binaryImage=True)  # ink and its centre, without listing the pixels
    if m["m00"] < MIN_AREA * side * side:
        return None
    left, top, w, h = cv2.boundingRect(mask)
    if not (MIN_TALL <= max(w, h) / side <= MAX_TALL and min(w, h) / side <= MAX_WIDE):
        return None
    patch = np.ascontiguousarray(mask[top:top + h, left:left + w], np.uint8)
    centre = ((x + m["m10"] / m["m00"] - pad) / side, (y + m["m01"] / m["m00"] - pad) / side)
    return Candidate(patch, centre, (x + left, y + top), restored)


def with_erased(mask: np.ndarray, erased: np.ndarray) -> np.ndarray | None:
    """A candidate's ``mask`` with the erased strokes that touch it put back (both cut to a box round it),
    or None when none touches it."""
    touching = cv2.dilate(mask, _NEIGHBOURS) & erased
    if not cv2.countNonZero(touching):
        return None
    count, labels = cv2.connectedComponents(erased, connectivity=8)
    kept = np.zeros(count, np.uint8)
    kept[labels[touching > 0]] = 1
    kept[0] = 0
    return mask | np.take(kept, labels)


def pieces_to_candidates(b: np.ndarray, side: int, pad: int, erased: np.ndarray | None = None) -> list[Candidate]:
    """Digit-sized candidates from the cleaned binary crop (square at ``pad``..``pad + side``); with the
    ``erased`` line and diagonal pixels, also each group that touches them with them put back (``with_erased``,
    in the group's box and ``GAP`` beyond)."""
    # 16-bit labels (a crop has far fewer pieces) take OpenCV half the time of 32-bit ones
    count, labels, stats, _ = cv2.connectedComponentsWithStats(b, connectivity=8, ltype=cv2.CV_16U)
    x0, y0, w, h, area = (stats[:, i] for i in range(5))
    cx, cy = x0 + w / 2, y0 + h / 2
    # pieces mostly outside the square belong to the neighbours
    kept = (area >= MIN_PIECE * side * side) & (pad <= cx) & (cx <= pad + side) & (pad <= cy) & (cy <= pad + side)
    kept[0] = False  # the background
    inside = np.flatnonzero(kept).tolist()
    out: list[Candidate | None] = []
    groups = [[inside[i] for i in group] for group in (_groups(stats[inside, :4].astype(float), GAP * side)
                                                        if inside else [])]
    # the pieces' boxes and ink as Python numbers: a group's box is taken from them many times over
    left, top, right, bottom, ink = (x0.tolist(), y0.tolist(), (x0 + w).tolist(), (y0 + h).tolist(), area.tolist())
    groups.sort(key=lambda ids: -sum(ink[i] for i in ids))  # a group's ink is its pieces': the largest first
    reach = max(2, int(round(GAP * side)))
    for ids in groups:
        if len(out) - out.count(None) >= MAX_CANDIDATES:  # the rest are smaller: never read
            break
        gx0, gy0 = min(left[i] for i in ids), min(top[i] for i in ids)
        gx1, gy1 = max(right[i] for i in ids), max(bottom[i] for i in ids)
        tall, wide = max(gx1 - gx0, gy1 - gy0) / side, min(gx1 - gx0, gy1 - gy0) / side
        if not (MIN_TALL <= tall <= MAX_TALL and wide <= MAX_WIDE):  # cheap test before the mask is made
            continue
        chosen = np.zeros(count, np.uint8)
        chosen[ids] = 1
        out.append(_candidate(chosen[labels[gy0:gy1, gx0:gx1]], gx0, gy0, side, pad))
        if erased is not None:  # looked for a little beyond the box: the erasing took the stroke's end too
            ex0, ey0 = max(0, gx0 - reach), max(0, gy0 - reach)
            box = np.s_[ey0:gy1 + reach, ex0:gx1 + reach]
            whole = with_erased(chosen[labels[box]], np.ascontiguousarray(erased[box]))
            if whole is not None:
                out.append(_candidate(whole, ex0, ey0, side, pad, restored=True))
    for k in inside:
        # a ring round a digit: its box holds room for the ring's hole besides its ink
        room = w[k] * h[k] - area[k] >= RING_HOLE * side * side
        if room and MIN_TALL <= max(w[k], h[k]) / side <= 1.3 * MAX_TALL:
            piece = cv2.copyMakeBorder((labels[y0[k]:y0[k] + h[k], x0[k]:x0[k] + w[k]] == k).astype(np.uint8),
                                       1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
            ring = _ring_inside(piece, side)
            if ring is not None:
                out.append(_candidate(ring, int(x0[k]) - 1, int(y0[k]) - 1, side, pad))
    found = [c for c in out if c is not None]
    found.sort(key=lambda c: -cv2.countNonZero(c.patch))
    return found[:MAX_CANDIDATES]


def ink_levels(ink: np.ndarray, threshold: float, side: int = CROP, levels: tuple[float, ...] = LEVELS) -> list[float]:
    """The ink levels a square is cut at: each of ``levels`` times the typical strength of the strokes inside
    the square that reach the plan's ``threshold`` (a blurred photo spreads every stroke, and its digit's loops
    close up at the plan's level), and no lower than ``FAINTEST`` of that threshold (a light pen). The printed
    border is left out of that: it may be much darker than the pen."""
    pad = (ink.shape[0] - side) // 2
    m = int(round(INNER * side))
    inner = ink[pad + m:pad + side - m, pad + m:pad + side - m]
    inked = (inner > threshold).astype(np.uint8)
    # a digit is written in a line, not filled in: shading (often another, bolder pen) is left out of the
    # typical strength when enough pen lines remain, or a light pen's digit falls below every level
    k = int(round(BROAD * side)) | 1
    lines = inked & (1 - cv2.morphologyEx(inked, cv2.MORPH_OPEN, np.ones((k, k), np.uint8)))
    overall = float(median(inner[inked > 0])) if inked.any() else 0.0
    typical = float(median(inner[lines > 0])) if lines.sum() >= MIN_AREA * side * side else overall
    cuts = [max(FAINTEST * threshold, level * typical) for level in levels]
    # ... but the dark cores of a broad, blurred digit are kept apart only at the top of all its ink
    cuts[-1] = max(cuts[-1], levels[-1] * overall)
    return cuts


def _identity(c: Candidate) -> tuple:
    """What makes two candidates the same ink cut from the same place."""
    return c.origin, c.patch.shape, c.patch.tobytes()


def square_candidates(image: np.ndarray, quad: np.ndarray, threshold: float, side: int = CROP,
                      levels: tuple[float, ...] = LEVELS) -> list[Candidate]:
    """Par digit candidates of the tee/green square ``quad`` (photo corners TL, TR, BR, BL): ``ink_candidates``
    of its ``square_ink``."""
    return ink_candidates(square_ink(image, quad, side), threshold, side, levels)


def ink_candidates(ink: np.ndarray, threshold: float, side: int = CROP,
                   levels: tuple[float, ...] = LEVELS) -> list[Candidate]:
    """Par digit candidates of a tee/green square's ink crop (``square_ink`` at ``side``), cut at each ink
    level (see ``ink_levels``; a piece cut alike at two levels is given once); centres are in the square's
    own frame (0..1, x right, y down), patches binary at ``side`` pixels a square."""
    pad = (ink.shape[0] - side) // 2
    out: list[Candidate] = []
    seen: set[tuple] = set()  # the identities of the earlier levels' candidates
    for cut in cut_levels(ink, threshold, side, levels):
        new = [c for c in pieces_to_candidates(cut.ink, side, pad, cut.erased) if _identity(c) not in seen]
        out += new
        seen.update(_identity(c) for c in new)
    return out


@dataclass(frozen=True)
class Cut:
    """A tee/green square's ink at one level: what candidates are cut from, and the strokes erased from it."""

    ink: np.ndarray  # binary, without printed lines, long straight strokes and the diagonal
    erased: np.ndarray  # binary, those lines and strokes


def cut_levels(ink: np.ndarray, threshold: float, side: int = CROP, levels: tuple[float, ...] = LEVELS) -> list[Cut]:
    """A tee/green square's ink crop (``square_ink``) binarised at each of its ink levels (``ink_levels``),
    and cut apart from printed lines, long straight strokes and the diagonal."""
    pad = (ink.shape[0] - side) // 2
    # levels that coincide (a faint pen: several at the lowest, ``FAINTEST`` of the threshold) are cut once
    cuts = list(dict.fromkeys(ink_levels(ink, threshold, side, levels)))
    # every level at once, one channel each: OpenCV filters the channels of an image alike and apart, in a
    # third of the time of one call per level
    raw = np.stack([ink > level for level in cuts], axis=2).astype(np.uint8)
    plain = without_lines(raw, side)
    # the diagonal is found once, where it is boldest: at the lowest level
    diagonal = diagonal_band(ink.shape, *diagonal_stroke(np.ascontiguousarray(plain[..., 0]), side, pad), side)
    clean = without_diagonal(plain, diagonal)
    erased = raw & (1 - clean)
    return [Cut(np.ascontiguousarray(clean[..., k]), np.ascontiguousarray(erased[..., k])) for k in range(len(cuts))]

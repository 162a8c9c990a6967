"""Structural measurements of one course-plan square (an ink patch from ``scanner.cells``).

What is measured is what every hand-drawn plan shares, whatever the pen or the sheet:

* ``ink``, ``corners`` - how much of the square is inked, and of its corners (a blacked-out mountain
  is ink right into them);
* ``crossings`` - per edge N/E/S/W, the strokes that cross a band just inside that edge (a fairway's two
  parallel lines reach two edges; hazards drawn inside the square reach none);
* ``diagonal``  - for each diagonal, the share of a corner-to-corner path that runs on ink, allowing a
  hand-drawn wobble (a tee/green square is split by a diagonal);
* ``stub_ink``  - per edge, straight strokes running square to it within its triangle (a tee/green's stub
  is a pair of such lines from the edge's middle to the diagonal);
* ``blobs``     - connected ink pieces away from the edges (digits, flags, trees, dots, waves).

Example:
    >>> import numpy as np
    >>> ink = np.zeros((64, 64), np.float32); ink[:, 20:23] = 1; ink[:, 42:45] = 1
    >>> f = measure(ink, 0.3)
    >>> [e for e in EDGES if f.crossings[e].count == 2]
    ['N', 'S']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

EDGES = ("N", "E", "S", "W")
BAND = (0.1, 0.2)  # crossing band: from the printed line's edge to a fifth of the square inward
MARGIN = 0.1  # the printed grid line and its blur occupy this share of the side
WOBBLE = 0.05
WEAK = 0.5  # a stroke's fainter stretches count down to this share of the threshold, where they join ink above it
STUB_LINE = 0.2  # a stub's side line runs straight at least this share of the side (digit and flag strokes are shorter)
STUB_STRIP = 0.35  # a stub's lines lie within this share of the side from the middle of their edge
DIAGONAL_CLEAR = 0.06  # ink this close to the diagonal (share of the side) is the diagonal's own stroke
MIDDLE = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}  # (x, y) of each edge's middle


@dataclass(frozen=True)
class Crossing:
    """Strokes crossing the band inside one edge, as (start, end) spans in 0..1 along the edge."""

    spans: tuple[tuple[float, float], ...]

    @property
    def count(self) -> int:
        return len(self.spans)

    @property
    def extent(self) -> float:
        """Distance from the start of the first crossing stroke to the end of the last (0 without any).

        A fairway's two lines, or a shaded fairway's solid band, span a good part of the edge."""
        return self.spans[-1][1] - self.spans[0][0] if self.spans else 0.0


@dataclass(frozen=True)
class Blob:
    """A connected ink piece: bounding box (x, y, w, h) in 0..1 units, ink pixels, holes."""

    box: tuple[float, float, float, float]
    area: float  # share of the square
    holes: int  # enclosed paper regions (a tree canopy, an oval)
    hole_area: float  # the largest enclosed paper region, share of the square
    stem: float  # how far the piece reaches below that region, under its middle (a trunk), share of the side
    enclosed: float = 0.0  # all enclosed paper regions together, share of the square


@dataclass(frozen=True)
class CellFeatures:
    corners: float  # least ink share of the four inner corner zones (a blacked-out square fills them all)
    ink: float  # share of inner pixels that are ink
    crossings: dict[str, Crossing]
    diagonal: tuple[float, float]  # (TL-BR, BL-TR) ink share along the best path
    blobs: tuple[Blob, ...]
    strokes: np.ndarray  # the binarised patch (``binarize``) the measurements come from


def binarize(ink: np.ndarray, threshold: float) -> np.ndarray:
    """Ink above threshold, with the printed-line margin cleared: of one square patch (size, size), or of each
    of a stack of them (N, size, size).

    Hysteresis: a thin or light stroke dips below the threshold here and there (blur, a pencil's grain);
    pixels down to ``WEAK`` of it count when they join a stroke that reaches it, while paper texture at
    that level, never touching a real stroke, stays out.

    >>> ink = np.zeros((2, 20, 20), np.float32)
    >>> ink[0, 5:15, 9] = 0.3; ink[0, 10, 9] = 0.9  # a light stroke that reaches the threshold at one pixel
    >>> ink[1, 5:15, 9] = 0.3                        # one that never does
    >>> [int(b.sum()) for b in binarize(ink, 0.5)], bool((binarize(ink[0], 0.5) == binarize(ink, 0.5)[0]).all())
    ([10, 0], True)
    """
    size = ink.shape[-1]
    m = int(round(MARGIN * size))
    weak = (ink > WEAK * threshold).astype(np.uint8)
    weak[..., :m, :], weak[..., -m:, :], weak[..., :m], weak[..., -m:] = 0, 0, 0, 0
    # the patches one above another, labelled at once: no stroke reaches across their cleared margins
    count, labels = cv2.connectedComponents(weak.reshape(-1, size), connectivity=8)
    labels = labels.reshape(ink.shape)
    strong = np.zeros(count, np.uint8)
    strong[labels[(ink > threshold) & (weak > 0)]] = 1
    strong[0] = 0
    return strong[labels]


def crossings(bs: np.ndarray) -> list[dict[str, Crossing]]:
    """Strokes crossing the band inside each edge (``BAND``) of each of N binary patches (N, size, size): ink
    at every depth of the band. The four bands of every patch are looked at together, each laid with its
    depth across its rows."""
    n, size = len(bs), bs.shape[-1]
    lo, hi = int(round(BAND[0] * size)), int(round(BAND[1] * size))
    bands = np.concatenate([bs[:, lo:hi, :], bs[:, size - hi:size - lo, :],
                            bs[:, :, lo:hi].transpose(0, 2, 1), bs[:, :, size - hi:size - lo].transpose(0, 2, 1)])
    # A stroke crossing at a slant shifts along the band; widen a little so it still counts.
    wide = cv2.dilate(bands.reshape(-1, size), np.ones((1, 5), np.uint8)).reshape(bands.shape)
    through = wide.all(axis=1).astype(np.int8)
    m = int(round(MARGIN * size * 0.6))
    through[:, :m], through[:, -m:] = 0, 0
    d = np.diff(np.pad(through, ((0, 0), (1, 1))), axis=1)
    starts, ends = np.argwhere(d == 1), np.argwhere(d == -1)  # (band, position), band by band
    cuts = np.searchsorted(starts[:, 0], np.arange(1, 4 * n))
    spans = [tuple((s / size, e / size) for s, e in zip(first, last, strict=True))
             for first, last in zip(np.split(starts[:, 1], cuts), np.split(ends[:, 1], cuts), strict=True)]
    return [{edge: Crossing(spans[k * n + i]) for k, edge in enumerate("NSWE")} for i in range(n)]


@cache
def _diagonal_samples(size: int, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """(y, x) sample points (steps, offsets) along the TL-BR diagonal, each step shifted sideways along the
    normal (1, -1)/sqrt2 by up to ``WOBBLE`` of the side."""
    t = np.linspace(MARGIN, 1 - MARGIN, steps) * (size - 1)
    reach = int(round(WOBBLE * size))
    offsets = np.arange(-reach, reach + 1)
    ys = np.clip(np.round(t[:, None] - offsets[None, :] / np.sqrt(2)), 0, size - 1).astype(int)
    xs = np.clip(np.round(t[:, None] + offsets[None, :] / np.sqrt(2)), 0, size - 1).astype(int)
    return ys, xs


def _diagonal_values(b: np.ndarray, steps: int) -> np.ndarray:
    """Ink at the sample points of both diagonals, (..., 2, steps, offsets) for patches (..., size, size):
    the BL-TR diagonal is TL-BR of the upside-down patch."""
    ys, xs = _diagonal_samples(b.shape[-1], steps)
    return np.stack([b[..., ys, xs], b[..., ::-1, :][..., ys, xs]], axis=-3).astype(np.float32)


def _path_scores(values: np.ndarray) -> np.ndarray:
    """Best path score ending at each (step, offset) of ``values`` (..., steps, offsets), a step moving the
    offset by at most one (dynamic programming)."""
    scores = np.empty_like(values)
    scores[..., 0, :] = values[..., 0, :]
    for k in range(1, values.shape[-2]):
        prev = scores[..., k - 1, :]
        best = prev.copy()
        np.maximum(best[..., 1:], prev[..., :-1], out=best[..., 1:])
        np.maximum(best[..., :-1], prev[..., 1:], out=best[..., :-1])
        scores[..., k, :] = values[..., k, :] + best
    return scores


def _widen(b: np.ndarray) -> np.ndarray:
    return cv2.dilate(b, np.ones((3, 3), np.uint8))


def diagonal_shares(bs: np.ndarray, steps: int = 32) -> np.ndarray:
    """(N, 2) share of steps on ink of the best wobbly TL-BR and BL-TR path of N binary patches at once."""
    wide = np.stack([_widen(b) for b in bs])
    return _path_scores(_diagonal_values(wide, steps))[..., -1, :].max(axis=-1) / steps


def diagonal_paths(b: np.ndarray, steps: int = 32) -> tuple[tuple[float, float], np.ndarray]:
    """Best wobbly corner-to-corner path for each diagonal (dynamic programming over sideways offsets).

    Returns the share of steps on ink for (TL-BR, BL-TR), and the (x, y) points of the better path.
    """
    size = b.shape[0]
    ys, xs = _diagonal_samples(size, steps)
    scores = _path_scores(_diagonal_values(_widen(b), steps))  # (2, steps, offsets)
    score = scores[:, -1]
    shares = [float(score[d].max() / steps) for d in (0, 1)]
    d = 0 if shares[0] >= shares[1] else 1
    j = int(score[d].argmax())
    path = [j]
    for k in range(steps - 1, 0, -1):  # walk back along the best predecessors
        lo = max(0, j - 1)
        j = lo + int(scores[d, k - 1, lo:j + 2].argmax())
        path.append(j)
    path = np.array(path[::-1])
    py = ys[np.arange(steps), path]
    points = np.stack([xs[np.arange(steps), path], size - 1 - py if d else py], axis=1)
    return (shares[0], shares[1]), points


@cache
def _stub_zones(size: int, diagonal: int) -> dict[str, np.ndarray]:
    """Per edge, the pixels where its stub's lines may lie: its side of ``diagonal``, clear of it, near the
    edge's middle."""
    y, x = (np.mgrid[0:size, 0:size] + 0.5) / size
    across = (x - y) if diagonal == 0 else (x + y - 1)  # signed, 0 on the diagonal
    clear = np.abs(across) > DIAGONAL_CLEAR * np.sqrt(2)
    zones = {}
    for edge, (mx, my) in MIDDLE.items():
        side = np.sign((mx - my) if diagonal == 0 else (mx + my - 1))
        along = x if edge in "NS" else y
        zones[edge] = clear & (np.sign(across) == side) & (np.abs(along - 0.5) < STUB_STRIP)
    return zones


def stub_ink(b: np.ndarray, diagonal: int) -> dict[str, float]:
    """Per edge, the ink (in units of the side) of straight strokes square to that edge, near its middle, on
    its side of ``diagonal`` (0 = TL-BR, 1 = BL-TR) and clear of it.

    A tee/green triangle connects through the edge its stub comes from: two lines from that edge to the
    diagonal. Straight runs only count, so a digit or flag beside the stub adds little; measuring the
    lines themselves, not where strokes cross a band, leaves out what is left of the diagonal near the
    corners.
    """
    size = b.shape[0]
    line = max(3, int(round(STUB_LINE * size)))
    wide = _widen(b)  # a line slanting a little stays one run
    runs = {"NS": cv2.morphologyEx(wide, cv2.MORPH_OPEN, np.ones((line, 1), np.uint8)) & b,
            "EW": cv2.morphologyEx(wide, cv2.MORPH_OPEN, np.ones((1, line), np.uint8)) & b}
    return {edge: float(np.count_nonzero(runs["NS" if edge in "NS" else "EW"][zone])) / size
            for edge, zone in _stub_zones(size, diagonal).items()}


def blobs(b: np.ndarray) -> tuple[Blob, ...]:
    size = b.shape[0]
    # 16-bit labels (a square has few pieces) take OpenCV half the time of 32-bit ones
    count, labels, stats, _ = cv2.connectedComponentsWithStats(b, connectivity=8, ltype=cv2.CV_16U)
    out = []
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if area < 3:
            continue
        piece = (labels[y:y + h, x:x + w] == k).astype(np.uint8)
        # holes: paper regions inside the piece not connected to the piece's surroundings (the piece padded with
        # paper by copyMakeBorder: a seventh of np.pad's time)
        padded = cv2.copyMakeBorder(1 - piece, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
        n_paper, paper_labels, paper_stats, _ = cv2.connectedComponentsWithStats(padded, connectivity=4, ltype=cv2.CV_16U)
        holes = [j for j in range(2, n_paper) if paper_stats[j, cv2.CC_STAT_AREA] >= 4]
        stem = 0.0
        if holes:
            j = max(holes, key=lambda j: paper_stats[j, cv2.CC_STAT_AREA])
            hx, hy, hw, hh = paper_stats[j, :4] - [1, 1, 0, 0]  # back to piece coordinates
            band = piece[hy + hh:, hx + hw // 3:hx + hw - hw // 3]
            rows = np.nonzero(band.any(axis=1))[0] if band.size else np.array([])
            stem = float(rows.max() + 1) / size if len(rows) else 0.0
        hole_sizes = [paper_stats[j, cv2.CC_STAT_AREA] / size**2 for j in holes]
        out.append(Blob((x / size, y / size, w / size, h / size), area / size**2, len(holes),
                        max(hole_sizes, default=0.0), stem, sum(hole_sizes)))
    return tuple(out)


def _corner_ink(b: np.ndarray) -> float:
    size = b.shape[0]
    lo, hi = int(round(MARGIN * size)), int(round(0.3 * size))
    zones = [b[lo:hi, lo:hi], b[lo:hi, size - hi:size - lo], b[size - hi:size - lo, lo:hi],
             b[size - hi:size - lo, size - hi:size - lo]]
    return min(_share(z) for z in zones)


def _share(b: np.ndarray) -> float:
    """The share of a binary (0/1) image's pixels that are set: its mean, without numpy's mean's overhead.

    >>> _share(np.uint8([[0, 1], [1, 1]]))
    0.75
    """
    return cv2.countNonZero(b) / b.size


def measure_all(patches, threshold: float) -> list[CellFeatures]:
    """All measurements of each of a plan's ink patches (square, values 0..1); the diagonals of all of them
    are traced at once."""
    if not len(patches):
        return []
    stacked = binarize(np.asarray(patches), threshold)
    shares = diagonal_shares(stacked)
    size = stacked.shape[-1]
    inner = slice(int(round(MARGIN * size)), size - int(round(MARGIN * size)))
    return [CellFeatures(corners=_corner_ink(b), ink=_share(b[inner, inner]), crossings=crossed,
                         diagonal=(float(d[0]), float(d[1])), blobs=blobs(b), strokes=b)
            for b, d, crossed in zip(stacked, shares, crossings(stacked), strict=True)]


def measure(ink: np.ndarray, threshold: float) -> CellFeatures:
    """All measurements of one square's ink patch (square, values 0..1)."""
    return measure_all([ink], threshold)[0]

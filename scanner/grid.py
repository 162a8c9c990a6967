"""Stage 4: find the rows and columns of a printed grid of squares in a rectified image, any size.

Input is a rectified image whose grid is roughly axis-aligned (``scanner.rectify``). Printed lines cross
the whole grid, pen strokes do not: the row lines are the strong, evenly spaced peaks of the profile of
horizontal line strength (and likewise for columns), counted from long straight runs only, so that the
short straight strokes of a heavy drawing beside pale printed lines do not pass for lines. When the print
is all but lost on both axes (washed out, or dotted), the squares are counted from the drawing's rhythm
instead: symbols sit in the middles of squares, clear of their sides. Each line is then refined locally,
square by square, and fitted with a gentle curve (a quadratic), so perspective residue and mild lens
distortion do not shift the squares. Blacked-out squares or heavy shading hide a line locally; the curve
bridges them.

Example:
    >>> import numpy as np, cv2
    >>> img = np.full((420, 540), 230, np.uint8)
    >>> for k in range(9):
    ...     _ = cv2.line(img, (30 + 60 * k, 30), (30 + 60 * k, 390), 40, 2)
    >>> for k in range(7):
    ...     _ = cv2.line(img, (30, 30 + 60 * k), (510, 30 + 60 * k), 40, 2)
    >>> lat = find_lattice(img)
    >>> lat.rows, lat.cols
    (6, 8)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np
from scipy.ndimage import maximum_filter1d, uniform_filter1d

from scanner.channels import darkest_channel
from scanner.errors import ScanError
from scanner.histogram import uint8_percentile
from scanner.locate import thin_dark
from scanner.quantiles import median

MIN_CELLS, MAX_CELLS = 2, 40
PLAUSIBLE = 0.7  # a line count whose comb scores this share of the best is a candidate
HALF_FITS = 0.5  # ... and the half of a drawing's plausible count that scores this share of it (``_undoubled``)
SHAPED = 0.4  # share of its axis's best comb score a count needs when the plausible ones make no squares
CLEAR_LINES = 0.2  # comb score of clearly printed lines (plans: 0.38 and up on their clearer axis; tiles and cards
# that line up: 0.1 at most)
FAINT_AXIS = 0.35  # an axis whose best comb scores below this share of the other's clear lines has all but lost
# its lines (motion blur along them, a pale print): its count follows from the other's and the outline's shape
ASPECT_TOLERANCE = 0.15  # log-ratio steps in which rows / cols may differ from the outline's shape
LINE_LEVEL = 95  # percentile of line strength in the grid taken as its printed lines' level
PAPER_LEVEL, PAPER_SPREADS = 75, 8  # ... unless pen strokes make that level far above paper's (its 75th
# percentile): then a line is this many times paper's
LINE_PRESENT = 0.5  # share of that level from which a pixel is line
NEAR_TIE = 0.9  # an outer line is looked for among the peaks this share as strong as the strongest near the outline
ONE_LINE = 0.25  # ... peaks within this share of that reach of each other being one line's
DRIFT = 0.012  # how far (share of the grid's side) a comb looks for each line around its even position
WINDOW = 0.15  # how far (share of a square) a line may lie from its evenly spaced position ...
DRIFT_LOOK = 0.5  # ... or, once the lines found drift this share of that off them somewhere, from its drift
DRIFT_PEAKS = 12  # least line segments found to fit a drift to
LINE_SEEN = 1 / 3  # least share of a line's segments it must be found on to be moved off where it is expected:
# with the print all but lost, a fairway's edge along three of ten squares pulled a line 0.14 of a square off
DRIFT_CLOSE, DRIFT_FIT = 1.5, 0.8  # the share of them within this many pixels of the drift it needs (plans whose
# outline was found a little off: 0.93 and up; pale lines among heavy pen strokes: 0.2-0.45)
FAINT_PRINT = 0.35  # comb score below which, on both axes, the printed lines are taken as lost (a washed-out or
# dotted print): the squares are counted from the drawing's rhythm instead; below which on one axis, from the
# drawing where the lines find one of its counts plausible
DRAWING_RHYTHM = 0.25  # least comb score of the drawing's rhythm on an axis for it to count the squares (lost-line
# plans: 0.34 and up; plans with clear lines, whose printed lines are ink too: 0.05-0.98 over 398 plans)
INK_CONTRAST = 40  # grey levels below the surrounding paper, in the darkest channel, from which a pixel is a stroke
LINE_RUN = 15  # least straight run (pixels) of a line segment, for placing lines and confirming them
COUNT_RUN = 41  # ... and for counting them: pen strokes beside a pale printed line seldom run this straight


@dataclass(frozen=True)
class Lattice:
    """Grid-line crossings ``points[r, c] = (x, y)`` for r in 0..rows, c in 0..cols (image pixels)."""

    points: np.ndarray  # (rows + 1, cols + 1, 2) float64
    line_support: float  # share of line segments confirmed by local evidence, 0..1
    # which segments were confirmed: of each row line, its cols segments; of each column line, its rows segments
    confirmed: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def rows(self) -> int:
        return self.points.shape[0] - 1

    @property
    def cols(self) -> int:
        return self.points.shape[1] - 1

    def corners(self) -> np.ndarray:
        """Outer corners TL, TR, BR, BL."""
        p = self.points
        return np.float32([p[0, 0], p[0, -1], p[-1, -1], p[-1, 0]])

    def cell_quad(self, r: int, c: int) -> np.ndarray:
        p = self.points
        return np.float32([p[r, c], p[r, c + 1], p[r + 1, c + 1], p[r + 1, c]])

    def ringed(self) -> Lattice:
        """The lattice with one more square all round, each line carried on by its neighbour's step (the paper
        just beyond the grid).

        >>> Lattice(np.stack(np.meshgrid([0.0, 10, 20], [0.0, 10]), axis=-1), 1.0).ringed().points[0, :, 0]
        array([-10.,   0.,  10.,  20.,  30.])
        """
        p = self.points
        p = np.concatenate([2 * p[:1] - p[1:2], p, 2 * p[-1:] - p[-2:-1]], axis=0)
        p = np.concatenate([2 * p[:, :1] - p[:, 1:2], p, 2 * p[:, -1:] - p[:, -2:-1]], axis=1)
        return Lattice(p, self.line_support)

    @classmethod
    def even(cls, corners: np.ndarray, rows: int, cols: int) -> Lattice:
        """Evenly spaced lines between the outer corners TL, TR, BR, BL (support unknown: 0).

        >>> Lattice.even(np.float32([[0, 0], [30, 0], [30, 20], [0, 20]]), 2, 3).points[1, :, 0].tolist()
        [0.0, 10.0, 20.0, 30.0]
        """
        tl, tr, br, bl = np.asarray(corners, np.float64)
        across = np.linspace(0.0, 1.0, cols + 1)[None, :, None]
        down = np.linspace(0.0, 1.0, rows + 1)[:, None, None]
        top, bottom = tl + (tr - tl) * across, bl + (br - bl) * across
        return cls(top + (bottom - top) * down, 0.0)

    def draw(self, image: np.ndarray, color=(0, 200, 0)) -> np.ndarray:
        out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        pts = np.round(self.points).astype(np.int32)
        for r in range(pts.shape[0]):
            cv2.polylines(out, [pts[r].reshape(-1, 1, 2)], False, color, 1, cv2.LINE_AA)
        for c in range(pts.shape[1]):
            cv2.polylines(out, [np.ascontiguousarray(pts[:, c]).reshape(-1, 1, 2)], False, color, 1, cv2.LINE_AA)
        return out


def line_strengths(image: np.ndarray, width: int = 7, runs: tuple[int, ...] = (LINE_RUN,)) -> list[np.ndarray]:
    """Strength of thin dark straight runs of each length in ``runs``: (horizontal lines, vertical lines) per
    run, uint8 each; thin dark structures (computed once) opened along each axis."""
    strength = thin_dark(image, width)
    return [cv2.morphologyEx(strength, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, shape))
            for run in runs for shape in ((run, 1), (1, run))]


def line_share(strength: np.ndarray, region: tuple[slice, slice]) -> np.ndarray:
    """Line strength capped at the level of the printed lines, as a share of it (0..1): a profile of it
    measures how much of a row is line, so heavy pen strokes count no more than pale printed lines do.
    The level is that of the strongest twentieth of ``region``, but no more than ``PAPER_SPREADS`` times
    the paper's own (a plan covered in heavy ink has a twentieth of pen strokes). ``strength``: one of
    ``line_strengths`` (uint8); the share is float32, looked up per value (a quarter of the time of the
    arithmetic over the pixels).

    >>> line_share(np.uint8([[0, 20, 40, 40, 40, 255, 40, 40]]), np.s_[:, :]).tolist()
    [[0.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]
    """
    sample = strength[region][::2, ::2]  # whole numbers 0-255: counted, not sorted
    low, high = uint8_percentile(sample, PAPER_LEVEL), uint8_percentile(sample, LINE_LEVEL)
    cap = max(1.0, min(float(high), PAPER_SPREADS * max(1.0, float(low))))
    return cv2.LUT(strength, np.minimum(np.arange(256, dtype=np.float32), cap) / cap)


def _period(profile: np.ndarray) -> float:
    """Dominant spacing of a profile's peaks, from its autocorrelation."""
    x = profile - profile.mean()
    ac = np.correlate(x, x, mode="full")[len(x) - 1:]
    ac = ac / (ac[0] + 1e-9)
    lo = max(4, len(x) // (MAX_CELLS + 2))
    peaks, heights = find_peaks(ac[lo:len(x) // MIN_CELLS + 1], 0.05)
    if len(peaks) == 0:
        raise ScanError("no regular grid found (printed lines are not evenly spaced)")
    # The first strong autocorrelation peak is the period; later ones are its multiples.
    first = int(np.argmax(heights >= 0.6 * heights.max()))
    return subpixel_peak(ac, int(peaks[first] + lo))


def find_peaks(values: np.ndarray, least: float, distance: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Indices and heights of the local maxima of ``values`` that reach ``least``, none within ``distance`` of
    a higher one. A maximum is a sample, or the middle of a flat run, higher than its neighbours on both sides
    (the ends are never one); of maxima closer than ``distance``, the higher is kept (the later of equal ones).

    >>> find_peaks(np.array([0, 2, 1, 3, 3, 3, 0, 1, 0.5, 9]), 0.5)
    (array([1, 4, 7]), array([2., 3., 1.]))
    >>> find_peaks(np.array([0, 2, 1, 3, 3, 3, 0, 1, 0.5, 9]), 0.5, distance=4)[0]
    array([4])
    """
    values = np.asarray(values, float)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])  # runs of equal values
    ends = np.r_[starts[1:], len(values)] - 1
    level = values[starts]
    higher = (level[1:-1] > level[:-2]) & (level[1:-1] > level[2:])
    peaks = ((starts[1:-1] + ends[1:-1]) // 2)[higher]
    peaks = peaks[values[peaks] >= least]
    if distance > 1 and len(peaks) > 1:
        keep = np.ones(len(peaks), bool)
        for i in np.argsort(values[peaks], kind="stable")[::-1]:  # highest first
            if keep[i]:
                near = np.abs(peaks - peaks[i]) < distance
                near[i] = False
                keep[near] = False
        peaks = peaks[keep]
    return peaks, values[peaks]


def subpixel_peak(values: np.ndarray, k: int) -> float:
    """Position of the maximum at index ``k``, refined by a parabola through its neighbours."""
    if not 0 < k < len(values) - 1:
        return float(k)
    left, mid, right = values[k - 1], values[k], values[k + 1]
    denom = left - 2 * mid + right
    return float(k + (0.5 * (left - right) / denom if denom else 0.0))


def _chain_bounds(profile: np.ndarray) -> tuple[float, float]:
    """First and last line of the longest chain of strong, evenly spaced peaks (no outline known)."""
    period = _period(profile)
    peaks, heights = find_peaks(profile, 0, distance=max(2, int(period * 0.3)))
    if len(peaks) < MIN_CELLS + 1:
        raise ScanError("no grid found (too few printed lines)")
    strong = peaks[heights >= 0.4 * np.percentile(heights, 90)]
    best: list[int] = []
    for start in strong:
        chain = [int(start)]
        while True:
            target = chain[-1] + period
            near = strong[np.abs(strong - target) <= 0.15 * period]
            if len(near) == 0:
                # allow one hidden line (blacked-out squares, a heavy stroke along it)
                near = strong[np.abs(strong - (target + period)) <= 0.15 * period]
                if len(near) == 0:
                    break
            chain.append(int(near[np.argmin(np.abs(near - target))]))
        if len(chain) > len(best) or (len(chain) == len(best) and chain[-1] - chain[0] > best[-1] - best[0]):
            best = chain
    return float(best[0]), float(best[-1])


def _near_peak(profile: np.ndarray, at: float, reach: float) -> float:
    """The line of ``profile`` within ``reach`` of ``at`` where the outer grid line lies: of the lines there about as
    strong as the strongest (``NEAR_TIE``), the nearest to ``at``, where the located outline puts it (a heavy stroke
    a third of a square inside a plan's outer line, broadened by the blur, as strong as the line to the hundredth,
    took its place at one quarter turn of the photo and not at another), at its highest value (its first, on a
    flat top); else the profile's highest value there. Peaks within ``ONE_LINE`` of the reach of each other are one
    line's; the reach's end on the flank of a line beyond it is no peak.

    >>> profile = np.array([0, 9, 8, 7, 1, 2, 6, 2, 0, 5.6, 1], float)
    >>> _near_peak(profile, 5.0, 3.0), _near_peak(profile, 2.0, 1.0), _near_peak(profile, 8.0, 3.0)
    (6.0, 1.0, 9.0)
    >>> _near_peak(np.array([0, 0, 0, 9, 9, 9, 0, 0, 0, 0, 0, 0], float), 4.0, 8.0)  # a flat top: its first
    3.0
    """
    lo, hi = int(max(0, at - reach)), int(min(len(profile) - 1, at + reach)) + 1
    # each value of the reach against its neighbours (beyond the profile's ends, none)
    around = np.concatenate([[-np.inf], profile, [-np.inf]])[lo:hi + 2]
    within = around[1:-1]
    peaks = lo + np.flatnonzero((within >= around[:-2]) & (within >= around[2:]))
    if not len(peaks):
        return float(lo + np.argmax(within))
    strong = peaks[profile[peaks] >= NEAR_TIE * profile[peaks].max()]
    nearest = strong[np.argmin(np.abs(strong - at))]
    line = peaks[np.abs(peaks - nearest) <= ONE_LINE * reach]
    return float(line[np.argmax(profile[line])])


@dataclass(frozen=True)
class _Axis:
    """Candidate line counts along one axis: count -> comb score, and the outer line positions."""

    first: float
    last: float
    scores: dict[int, float]

    def lines(self, count: int) -> np.ndarray:
        return np.linspace(self.first, self.last, count + 1)


def _axis(profile: np.ndarray, bounds: tuple[float, float] | None = None) -> _Axis:
    """Outer lines and comb scores of candidate counts of evenly spaced grid lines in a profile.

    ``bounds`` is where the outer lines are expected (e.g. the located outline); they are snapped to the
    strongest line nearby. A count's comb of inner line positions should hit lines while its half-way
    positions miss them, so half the true count scores low (its half-way positions fall on lines) as does
    double (half its comb falls between lines). A count scores the median over its lines of how much more
    line there is at the line than half-way to its neighbours: a few lines hidden under ink, or a few heavy
    pen strokes along a half-way position, do not move it.
    """
    if bounds is None:
        first, last = _chain_bounds(profile)
    else:
        reach = 0.03 * (bounds[1] - bounds[0])
        first, last = _near_peak(profile, bounds[0], reach), _near_peak(profile, bounds[1], reach)
    smooth = maximum_filter1d(profile, 5)
    nearest: dict[int, np.ndarray] = {}  # the profile's maximum within each reach, for all counts that use it
    scores = {}
    for count in range(MIN_CELLS, MAX_CELLS + 1):
        pitch = (last - first) / count
        if pitch < 6:
            break
        pos = np.linspace(first, last, count + 1)
        mids = smooth[np.round(0.5 * (pos[:-1] + pos[1:])).astype(int)]
        # an outline found a little off leaves some perspective in the rectified grid: lines drift off their
        # even positions by a small share of the grid's side (and not so far as to reach a neighbour)
        size = 2 * int(max(2, min(DRIFT * (last - first), 0.2 * pitch))) + 1
        if size not in nearest:
            nearest[size] = maximum_filter1d(profile, size)
        hits = nearest[size][np.round(pos[1:-1]).astype(int)]
        scores[count] = float(median(hits - 0.5 * (mids[:-1] + mids[1:])))
    return _Axis(first, last, scores)


def _choose_counts(rows: _Axis, cols: _Axis, aspect: float | None) -> tuple[int, int]:
    """The (rows, cols) pair among the plausible counts of each axis.

    A count is plausible when its comb scores nearly as well as the best one; a whole fraction of the
    true count (every 2nd, 5th ... line) can score as well as the true one, so of plausible counts the
    one that explains the most lines - the largest - wins. So may a multiple of a plausible count
    (``_multiples``). With ``aspect`` (rows / cols expected for square cells, from the outline's shape in
    the photo), the pair closest to it wins first. When even that pair's squares are far from square while
    the other axis's lines are clear (``CLEAR_LINES``), the lines of one axis are weak (pale print, or
    shading over them) and the pairs of counts scoring ``SHAPED`` of their axis's best that make squares are
    taken instead. When one axis's lines are all but lost (``FAINT_AXIS``) and the other's are clear, or when
    such pairs make squares only nearly, the weaker axis's count is the one that makes the clearer axis's
    squares square.
    """
    row_counts, col_counts = _plausible(rows, PLAUSIBLE), _plausible(cols, PLAUSIBLE)
    if aspect is not None:  # each axis's multiples judged against the other's plausible counts alone
        more_rows = _multiples(rows, row_counts, lambda m: any(_off_square((m, c), aspect) == 0 for c in col_counts))
        more_cols = _multiples(cols, col_counts, lambda m: any(_off_square((r, m), aspect) == 0 for r in row_counts))
        row_counts, col_counts = row_counts + more_rows, col_counts + more_cols
    best = _largest_squarest([(r, c) for r in row_counts for c in col_counts], aspect)
    row_top, col_top = max(rows.scores.values()), max(cols.scores.values())
    if aspect is not None and max(row_top, col_top) >= CLEAR_LINES:
        if row_top < FAINT_AXIS * col_top:
            return _squared(best[1], False, aspect)
        if col_top < FAINT_AXIS * row_top:
            return _squared(best[0], True, aspect)
    if _off_square(best, aspect) < 2 or max(row_top, col_top) < CLEAR_LINES:
        return best
    shaped = [(r, c) for r in _plausible(rows, SHAPED) for c in _plausible(cols, SHAPED)
              if _off_square((r, c), aspect) < 2]
    if not shaped:
        return best
    chosen = _largest_squarest(shaped, aspect)
    if _off_square(chosen, aspect) == 0:
        return chosen
    # only near square: of the weaker axis's near misses the largest would win (a 10 x 10 plan's pale columns:
    # 12 at 0.13 of their best 0.31, 10 at 0.09), so it takes the count that makes the clearer axis's squares
    # square, as for lines all but lost
    by_rows = row_top >= col_top
    return _squared(best[0] if by_rows else best[1], by_rows, aspect)


def _squared(count: int, of_rows: bool, aspect: float) -> tuple[int, int]:
    """(rows, cols) from one axis's ``count`` (of the rows, or of the columns) and the other's that makes the
    squares square for ``aspect`` (rows / cols).

    >>> _squared(10, True, 0.8), _squared(10, False, 0.8)
    ((10, 12), (8, 10))
    """
    return (count, max(MIN_CELLS, round(count / aspect))) if of_rows else (max(MIN_CELLS, round(count * aspect)), count)


def _plausible(axis: _Axis, share: float) -> list[int]:
    """Counts whose comb scores at least ``share`` of the axis's best."""
    top = max(axis.scores.values(), default=0.0)
    if top <= 0:
        raise ScanError("no regular grid found (printed lines are not evenly spaced)")
    return [n for n, v in axis.scores.items() if v >= share * top]


def _off_square(pair: tuple[int, int], aspect: float | None) -> int:
    """How many ``ASPECT_TOLERANCE`` steps the (rows, cols) pair's squares are from square."""
    return 0 if aspect is None else round(abs(np.log(pair[0] / pair[1]) - np.log(aspect)) / ASPECT_TOLERANCE)


def _largest_squarest(pairs: list[tuple[int, int]], aspect: float | None) -> tuple[int, int]:
    return min(pairs, key=lambda pair: (_off_square(pair, aspect), -(pair[0] + pair[1])))


def stroke_map(image: np.ndarray) -> np.ndarray:
    """1 where a pixel is a stroke (``INK_CONTRAST`` darker in its darkest channel than the paper around it,
    taken as the smoothed brightest of its 15 x 15 neighbourhood), else 0; float32.

    >>> img = np.full((40, 40, 3), 220, np.uint8)
    >>> img[18:22, 5:35] = (200, 60, 40)  # a blue pen stroke
    >>> m = stroke_map(img)
    >>> int(m[20, 20]), int(m[5, 5])
    (1, 0)
    """
    darkest = darkest_channel(image).astype(np.float32)
    paper = cv2.GaussianBlur(cv2.dilate(darkest, np.ones((15, 15), np.uint8)), (0, 0), 8)
    return (paper - darkest > INK_CONTRAST).astype(np.float32)


def _rhythm_axis(profile: np.ndarray, first: float, last: float) -> _Axis:
    """Comb scores of the drawing's rhythm along one axis (``profile``: share of stroke pixels). Players draw
    each square's symbol in its middle and keep off its sides, so a count's square middles hold more of the
    drawing than its lines: the score is the difference, as a share of the mean. Half the true count puts
    its middles on lines, twice the true count puts half its lines in middles: both score low."""
    counts = itertools.takewhile(lambda count: (last - first) / count >= 6, range(MIN_CELLS, MAX_CELLS + 1))
    return _Axis(first, last, {count: _rhythm(profile, first, last, count) for count in counts})


def _rhythm(profile: np.ndarray, first: float, last: float, count: int) -> float:
    """``_rhythm_axis``'s score of one count."""
    pitch = (last - first) / count
    smooth = uniform_filter1d(profile, max(1, int(pitch / 4)))
    pos = np.linspace(first, last, count + 1)
    lines = smooth[np.round(pos[1:-1]).astype(int)]
    middles = smooth[np.round(0.5 * (pos[:-1] + pos[1:])).astype(int)]
    return float((middles.mean() - lines.mean()) / (float(profile[int(first):int(last)].mean()) + 1e-9))


BARE_CROSSING = 0.2  # most share of outer rows' crossing line segments confirmed for them to be no rows of the
# grid, when their outer lines, or the outermost alone, are confirmed on less than ``BARE_RIM`` of their segments
# too: an outline pulled out over a sheet's title box, two rows below the grid (a phone plan: 0.00 and 0.40 for the
# last row), or two above it, the box's edge between them (0.4 on the rim, 0.6 within: read 12 x 10 for 10 x 10).
# Squares blacked out along the grid's edge hide its crossing lines, not its outer line (a column at 0.11 and 1.0);
# nor do glare or hazards drawn along it (three rows without crossings, their lines 1.0, 0.33 and 0.33) ...
BARE_RIM = 0.5
DARK_ROW = 0.5  # ... and each of them no more than this share dark (``DARK_LEVEL``): a row blacked out over its
# lines hides them all, and is still a row of the grid
DARK_LEVEL = 0.5  # share of the paper's grey level under which a pixel is dark


def confirmed_span(image: np.ndarray, lattice: Lattice) -> tuple[slice, slice]:
    """The rows and the columns of squares of ``lattice`` in ``image`` that stay when the most outer rows and
    columns whose lines are not there (neither their crossing lines nor their outer lines: ``BARE_CROSSING``,
    ``BARE_RIM``) on paper (``DARK_ROW``) are cut off, at least two of each; all of them for a lattice that does
    not say which segments it confirmed.

    >>> points = np.stack(np.meshgrid(np.arange(0.0, 50, 10), np.arange(0.0, 40, 10)), axis=-1)
    >>> rows, cols = np.ones((4, 4), bool), np.ones((5, 3), bool)
    >>> rows[-1] = cols[1:-1, -1] = False  # the bottom row shows no crossing lines, nor its outer line
    >>> paper = np.full((40, 50), 230, np.uint8)
    >>> confirmed_span(paper, Lattice(points, 0.8, (rows, cols)))
    (slice(0, 2, None), slice(0, 4, None))
    >>> confirmed_span(np.where(np.arange(40)[:, None] > 20, 30, paper), Lattice(points, 0.8, (rows, cols)))
    (slice(0, 3, None), slice(0, 4, None))
    >>> taller = np.stack(np.meshgrid(np.arange(0.0, 50, 10), np.arange(0.0, 60, 10)), axis=-1)  # 5 x 4 squares
    >>> rows, cols = np.ones((6, 4), bool), np.ones((5, 5), bool)
    >>> rows[0], cols[:, :2] = False, False  # the top two rows: no crossing lines, a title box's edge between them
    >>> confirmed_span(np.full((60, 50), 230, np.uint8), Lattice(taller, 0.8, (rows, cols)))
    (slice(2, 5, None), slice(0, 4, None))
    """
    if lattice.confirmed is None:
        return slice(0, lattice.rows), slice(0, lattice.cols)
    horizontal, vertical = lattice.confirmed
    p = lattice.points

    @cache
    def dark_shares() -> tuple[list[float], list[float]]:  # each row's and each column's, looked at only for
        # bands whose lines are not there
        grey = darkest_channel(image)
        top, bottom = (int(np.clip(v, 0, grey.shape[0])) for v in (p[0, :, 1].mean(), p[-1, :, 1].mean()))
        left, right = (int(np.clip(v, 0, grey.shape[1])) for v in (p[:, 0, 0].mean(), p[:, -1, 0].mean()))
        inside = grey[top:bottom, left:right]
        dark = inside < DARK_LEVEL * uint8_percentile(inside, 75)
        return ([dark[int(a) - top:int(b) - top].mean() for a, b in itertools.pairwise(p[:, :, 1].mean(axis=1))],
                [dark[:, int(a) - left:int(b) - left].mean() for a, b in itertools.pairwise(p[:, :, 0].mean(axis=0))])

    def span(crossing: np.ndarray, lines: np.ndarray, axis: int) -> slice:
        """``crossing``: each band's interior crossing segments confirmed (bands x lines); ``lines``: each line's
        own segments (bands + 1 lines); ``axis``: 0 for rows, 1 for columns."""
        n = len(crossing)

        def bare(bands: slice, outer: slice, rim: int) -> bool:  # a title box's edge runs on the rim or within
            return (crossing[bands].mean() < BARE_CROSSING and min(lines[outer].mean(), lines[rim].mean()) < BARE_RIM
                    and max(dark_shares()[axis][bands]) <= DARK_ROW)

        first = max((k for k in range(1, n - 1) if bare(slice(0, k), slice(0, k), 0)), default=0)
        cut = max((k for k in range(1, n - 1 - first) if bare(slice(n - k, n), slice(n + 1 - k, n + 1), n)), default=0)
        return slice(first, n - cut)

    return span(vertical[1:-1].T, horizontal, 0), span(horizontal[1:-1].T, vertical, 1)


def _counts_rhythm(strokes: np.ndarray, inside: tuple[slice, slice], rows: tuple[float, float, int],
                   cols: tuple[float, float, int]) -> float:
    """``_rhythm`` of a stroke map's (``stroke_map``) rows and of its columns within ``inside`` (rows, columns),
    each (first line, last line, count), the mean of the two."""
    return 0.5 * (_rhythm(strokes[:, inside[1]].mean(axis=1), *rows) + _rhythm(strokes[inside[0]].mean(axis=0), *cols))


def drawing_rhythm(image: np.ndarray, lattice: Lattice) -> float:
    """How well the squares of ``lattice`` fit the drawing in ``image``: ``_rhythm_axis``'s score of its row and
    column counts, the mean of the two: about 0 on a blank plan, and on a drawn one highest for the true count
    (a small, blurred plan: 0.53 for its 10 x 10, 0.31 for 6 x 6). Where printed lines are too pale to tell
    two counts apart, the drawing still can.

    >>> img = np.full((200, 200, 3), 235, np.uint8)
    >>> for r in range(4):
    ...     for c in range(4):
    ...         _ = cv2.circle(img, (25 + 50 * c, 25 + 50 * r), 12, (40, 40, 40), 3)
    >>> def even(n): return Lattice(np.stack(np.meshgrid(np.linspace(0, 199, n + 1), np.linspace(0, 199, n + 1)), -1), 0.0)
    >>> drawing_rhythm(img, even(4)) > 0.25 > drawing_rhythm(img, even(2))
    True
    """
    p = lattice.points
    top, bottom = float(p[0, :, 1].mean()), float(p[-1, :, 1].mean())
    left, right = float(p[:, 0, 0].mean()), float(p[:, -1, 0].mean())
    inside = (slice(int(top), int(bottom)), slice(int(left), int(right)))
    return _counts_rhythm(stroke_map(image), inside, (top, bottom, lattice.rows), (left, right, lattice.cols))


def _drawing_counts(image: np.ndarray, inside: tuple[slice, slice], rows: _Axis, cols: _Axis,
                    aspect: float | None) -> tuple[int, int] | None:
    """(rows, cols) from the rhythm of the drawing between the outer lines of ``rows`` and ``cols``, or None
    when it has none clear enough (``DRAWING_RHYTHM``): the largest pair of plausible counts that makes
    squares; None too when none makes squares within a step (``ASPECT_TOLERANCE``) of the outline's shape
    (a plan seen 45 degrees turned, its pale lines counting 10 x 10: its drawing's rhythm made 4 x 2).
    When only one axis's drawing has a clear rhythm (fairways running along the other blur its rhythm: a
    washed-out plan, 0.35 for its 10 rows, 0.15 for 9 columns and 0.15 for 10), that axis's count is taken
    and the other's is the one that makes the squares square (as ``_choose_counts`` does for lost lines)."""
    strokes = stroke_map(image)
    row_axis = _rhythm_axis(strokes[:, inside[1]].mean(axis=1), rows.first, rows.last)
    col_axis = _rhythm_axis(strokes[inside[0]].mean(axis=0), cols.first, cols.last)
    row_top, col_top = max(row_axis.scores.values()), max(col_axis.scores.values())
    if max(row_top, col_top) < DRAWING_RHYTHM:
        return None

    def counts(axis: _Axis) -> list[int]:  # asked only of an axis with a clear rhythm
        return _undoubled(axis, _plausible(axis, PLAUSIBLE))

    if min(row_top, col_top) < DRAWING_RHYTHM:
        if aspect is None:
            return None
        by_rows = row_top >= DRAWING_RHYTHM
        return _squared(max(counts(row_axis if by_rows else col_axis)), by_rows, aspect)
    row_counts, col_counts = counts(row_axis), counts(col_axis)
    best = _largest_squarest([(r, c) for r in row_counts for c in col_counts], aspect)
    return best if _off_square(best, aspect) < 2 else None


def _undoubled(axis: _Axis, counts: list[int]) -> list[int]:
    """The drawing's plausible ``counts`` on ``axis``, each whose half fits it too (``HALF_FITS`` of the count's
    score) taken as that half. Twice the true count can outscore it, as a fairway's two lines lie near a quarter
    and three quarters of its square (10 x 10 plans with pale lines: 0.54 and 0.45 for 20, 0.47 and 0.40 for 10;
    on one axis 0.30 for 20 and 0.16 for 10); but the true count's half, or the half of a count that is not the
    true one, puts its middles on the true lines and scores little. Each count is halved once at most, its half
    not halved again: a 10 x 10 plan's rows scored 0.47 for 10, 0.35 for 20 and 0.25 for 5 (every other line),
    and halving 20 to 10 and that to 5 read it as 5 x 5; as 10 and 5, the columns' 10 and the squares' shape
    choose between them.

    >>> axis = _Axis(0.0, 100.0, {20: 0.54, 10: 0.47, 7: 0.4, 18: 0.52, 9: 0.1, 27: 0.4, 5: 0.25})
    >>> _undoubled(axis, [20, 10, 7]), _undoubled(axis, [18, 27]), _undoubled(axis, [10])
    ([5, 7, 10], [18, 27], [5])
    """
    return sorted({n // 2 if n % 2 == 0 and axis.scores.get(n // 2, 0.0) >= HALF_FITS * axis.scores[n] else n
                   for n in counts})


def _agrees_on_an_axis(counts: tuple[int, int], rows: _Axis, cols: _Axis) -> bool:
    """Whether the drawing's (rows, cols) ``counts`` name a count the lines' comb finds plausible (``PLAUSIBLE``) on
    either axis.

    >>> lines = _Axis(0.0, 100.0, {3: 0.45, 10: 0.28, 2: 0.29}), _Axis(0.0, 100.0, {8: 0.25, 24: 0.25, 2: 0.1})
    >>> _agrees_on_an_axis((11, 8), *lines), _agrees_on_an_axis((11, 12), *lines)
    (True, False)
    """
    return counts[0] in _plausible(rows, PLAUSIBLE) or counts[1] in _plausible(cols, PLAUSIBLE)


def _against_drawing(image: np.ndarray, inside: tuple[slice, slice], rows: _Axis, cols: _Axis,
                     counts: tuple[int, int]) -> bool:
    """Whether the (rows, cols) ``counts`` between the outer lines of ``rows`` and ``cols`` put their lines on the
    drawing more than their squares' middles (its rhythm, ``_rhythm``, below nought on the two axes together): no
    player draws along a grid's lines. A plan printed so pale its lines were lost, its fairways' long straight
    strokes counted as 3 x 2 lines (confirmed at 0.82), had a rhythm of -0.19 there; its drawing counted 10 x 9.

    >>> img = np.full((200, 200, 3), 235, np.uint8)
    >>> for r in range(4):
    ...     for c in range(4):
    ...         _ = cv2.circle(img, (25 + 50 * c, 25 + 50 * r), 12, (40, 40, 40), 3)
    >>> _ = cv2.line(img, (100, 5), (100, 195), (40, 40, 40), 3)  # two long strokes across the middle
    >>> _ = cv2.line(img, (5, 100), (195, 100), (40, 40, 40), 3)
    >>> outline = _Axis(0.0, 199.0, {})
    >>> inside = (slice(0, 200), slice(0, 200))
    >>> _against_drawing(img, inside, outline, outline, (4, 4)), _against_drawing(img, inside, outline, outline, (2, 2))
    (False, True)
    """
    return _counts_rhythm(stroke_map(image), inside, (rows.first, rows.last, counts[0]),
                          (cols.first, cols.last, counts[1])) < 0


def _halved_by_lines(counts: tuple[int, int], rows: _Axis, cols: _Axis) -> tuple[int, int]:
    """The drawing's (rows, cols) ``counts``, or their halves where the printed lines, pale as they are, bear
    the halves out on both axes: plausible (``PLAUSIBLE``) and scoring above the counts themselves. Rings drawn
    in the squares' middles, like a fairway's sides, lie near a quarter and three quarters of a square, so the
    drawing can double the count beyond what ``_undoubled`` sees (a blurred 10 x 10 plan: 20 scored 0.48 and 10
    0.16 on its rows, while its lines scored 10 at 0.32 and 20 at 0.0). Over 2,346 plans it halved the
    drawing's counts twice, both times rightly.

    >>> lines = _Axis(0.0, 100.0, {10: 0.32, 20: 0.0, 2: 0.3})
    >>> _halved_by_lines((20, 20), lines, lines), _halved_by_lines((10, 10), lines, lines)
    ((10, 10), (10, 10))
    >>> _halved_by_lines((20, 20), lines, _Axis(0.0, 100.0, {10: 0.1, 20: 0.2, 2: 0.3}))
    (20, 20)
    """
    def borne(count: int, axis: _Axis) -> bool:
        half = count // 2
        return (count % 2 == 0 and half in _plausible(axis, PLAUSIBLE)
                and axis.scores[half] > axis.scores.get(count, -np.inf))

    return (counts[0] // 2, counts[1] // 2) if borne(counts[0], rows) and borne(counts[1], cols) else counts


def _multiples(axis: _Axis, plausible: list[int], makes_squares: Callable[[int], bool]) -> list[int]:
    """Counts that are multiples of a plausible count, where the lines are clear (``CLEAR_LINES``), whose
    comb still finds lines (``SHAPED`` of the best score) and that make square cells with a plausible count
    of the other axis (``makes_squares``). A small count's score rests on a few lines, and a heavy stroke
    along the middle one lifts it above the true count's; a wrong multiple's comb falls between lines as
    often as on them, but pen strokes a third of the way across a square (a fairway's sides) lift three
    times the count, so the other axis must bear it out."""
    top = max(axis.scores.values())
    if top < CLEAR_LINES:
        return []
    return [m for m, v in axis.scores.items() if m not in plausible and v >= SHAPED * top
            and any(m % n == 0 for n in plausible) and makes_squares(m)]


def _refine(strength: np.ndarray, lines: np.ndarray, cross: np.ndarray, window: float,
            drift: _Drift | None = None) -> tuple[np.ndarray, float, list[np.ndarray]]:
    """Fit each horizontal line (rows of ``strength``) as y = quadratic(x), from local peaks per segment.

    ``cross`` are the perpendicular line positions (segment bounds). Each segment's line is looked for within
    ``window`` of where the line is expected: its even position, moved by ``drift`` (``_drift``) if given.
    A line found on fewer than ``LINE_SEEN`` of its segments stays where it is expected. Returns coefficients
    per line (highest power first), whether each of its segments had a clear local line (lines x segments),
    and the peaks found (x, y rows) per line.
    """
    coefs, peaks, confirmed = [], [], np.zeros((len(lines), len(cross) - 1), bool)
    h, w = strength.shape[:2]
    # each row's count of line pixels left of each column: a segment's count is a difference of two
    counts = np.zeros((h, w + 1), np.int32)
    np.cumsum(strength > LINE_PRESENT, axis=1, out=counts[:, 1:])
    span = (cross[0], cross[-1])
    middles = 0.5 * (cross[:-1] + cross[1:])
    # each segment's columns, as slicing the image would take them
    columns = [slice(int(a), int(b) + 1).indices(w)[:2] for a, b in zip(cross[:-1], cross[1:], strict=False)]
    starts, stops = (np.array(v) for v in zip(*columns, strict=True))
    stops = np.maximum(stops, starts)  # no columns (an outline beyond the image): shares unknown, as a mean of none
    for i, y0 in enumerate(lines):
        expected = np.array([0.0, 0.0, y0]) + (drift.along_line(y0) if drift is not None else 0.0)
        xs, ys, ws = [], [], []
        # Share of each segment that is line: a printed line runs all along it, a pen stroke seldom does.
        shares, tops = _segment_shares(counts, np.polyval(expected, middles).tolist(), window, starts, stops)
        for j, (middle, share, top) in enumerate(zip(middles.tolist(), shares, tops, strict=True)):
            if len(share) < 3:  # expected off the image (an outline that cut a corner badly)
                continue
            k = int(np.argmax(share))
            if share[k] < 0.5 or k in (0, len(share) - 1):
                continue
            xs.append(middle)
            ys.append(top + subpixel_peak(share, k))
            ws.append(float(share[k]))
            confirmed[i, j] = True
        peaks.append(np.array([xs, ys]).reshape(2, -1).T)
        seen = len(xs) >= LINE_SEEN * (len(cross) - 1)
        coefs.append(_robust_fit(np.array(xs), np.array(ys), np.array(ws), expected, span, window) if seen else expected)
    return np.array(coefs), confirmed, peaks


def _segment_shares(counts: np.ndarray, centres: list[float], window: float, starts: np.ndarray,
                    stops: np.ndarray) -> tuple[list[np.ndarray], list[int]]:
    """For segments from column ``starts`` to ``stops`` (each row's line pixels counted left of each column,
    ``counts``), the share of line pixels of each row within ``window`` of the segment's centre row, as
    float32, and the first of those rows: one gather for all the segments of a line, the same shares as the
    mean over each segment's slice of the image."""
    h = counts.shape[0]
    tops = [int(max(0, c - window)) for c in centres]
    rows = [slice(top, int(min(h - 1, c + window)) + 1).indices(h)[:2] for top, c in zip(tops, centres, strict=True)]
    first, lengths = np.array([r[0] for r in rows]), np.array([max(0, r[1] - r[0]) for r in rows])
    at = np.minimum(first[:, None] + np.arange(max(1, int(lengths.max()))), h - 1)
    sums = counts[at, stops[:, None]] - counts[at, starts[:, None]]
    with np.errstate(invalid="ignore"):  # as numpy's mean of float32 values divides: in 64 bits, rounded to 32
        shares = (sums / (stops - starts)[:, None]).astype(np.float32)
    return [share[:n] for share, n in zip(shares, lengths.tolist(), strict=True)], tops


@dataclass(frozen=True)
class _Drift:
    """A smooth displacement of one axis's lines off their even positions over the grid: d = coef . (1, p, a,
    p a, p^2, a^2), for p across the lines and a along them, each scaled to 0..1 over the grid.

    >>> drift = _Drift(np.array([1.0, 2, 3, 4, 5, 6]), (0.0, 100.0), (10.0, 210.0))
    >>> x = np.array([10.0, 60.0, 210.0])
    >>> bool(np.allclose(np.polyval(drift.along_line(30.0), x), drift.at(30.0, x)))
    True
    """

    coef: np.ndarray
    lines: tuple[float, float]  # first and last line (across)
    span: tuple[float, float]  # first and last crossing line (along)

    def scaled(self, across: np.ndarray | float, along: np.ndarray | float) -> tuple:
        return ((np.asarray(across, np.float64) - self.lines[0]) / (self.lines[1] - self.lines[0]),
                (np.asarray(along, np.float64) - self.span[0]) / (self.span[1] - self.span[0]))

    @staticmethod
    def terms(p: np.ndarray, a: np.ndarray) -> np.ndarray:
        return np.stack([np.ones_like(p), p, a, p * a, p**2, a**2], axis=-1)

    def at(self, across: np.ndarray | float, along: np.ndarray | float) -> np.ndarray:
        return self.terms(*np.broadcast_arrays(*self.scaled(across, along))) @ self.coef

    def along_line(self, y0: float) -> np.ndarray:
        """The drift of the line at ``y0`` as a quadratic in the position x along it (highest power first)."""
        p = float(self.scaled(y0, 0.0)[0])
        c0, c1, c2, c3, c4, c5 = self.coef
        # d = level + slope a + bow a^2 with a = u x + v
        level, slope, bow = c0 + c1 * p + c4 * p**2, c2 + c3 * p, c5
        u = 1.0 / (self.span[1] - self.span[0])
        v = -self.span[0] * u
        return np.array([bow * u * u, slope * u + 2 * bow * u * v, level + slope * v + bow * v * v])


def _drift(lines: np.ndarray, cross: np.ndarray, peaks: list[np.ndarray]) -> _Drift | None:
    """The smooth displacement (``_Drift``) of one axis's lines that fits the peaks ``_refine`` found, outliers
    (pen strokes beside a line) dropped; None with too few peaks. A corner of the outline found a little off
    leaves a tilt, a bent sheet a bow, and lines faint where they drift beyond ``_refine``'s window are not
    found there: the lines found elsewhere show where they went."""
    rows = [(y0, x, y - y0) for y0, found in zip(lines, peaks, strict=True) for x, y in found]
    if len(rows) < DRIFT_PEAKS:
        return None
    across, along, offset = (np.array(v, np.float64) for v in zip(*rows, strict=True))
    drift = _Drift(np.zeros(6), (float(lines[0]), float(lines[-1])), (float(cross[0]), float(cross[-1])))
    terms = drift.terms(*drift.scaled(across, along))
    keep = np.ones(len(offset), bool)
    for _ in range(3):
        coef = np.linalg.lstsq(terms[keep], offset[keep], rcond=None)[0]
        resid = np.abs(terms @ coef - offset)
        keep = resid <= max(DRIFT_CLOSE, 2.5 * float(median(resid[keep])))
    # peaks that are pen strokes as often as lines (a pale print under heavy ink) show no drift
    return replace(drift, coef=coef) if np.mean(resid <= DRIFT_CLOSE) >= DRIFT_FIT else None


def _refine_drifting(strength: np.ndarray, lines: np.ndarray, cross: np.ndarray, window: float
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``_refine``'s lines and segments confirmed; where the lines it found drift (``_drift``) a good
    share of the window (``DRIFT_LOOK``) off their even positions somewhere, each line is looked for again
    around its drift, and that fit is kept when it confirms as many segments or more. The segments returned are
    the first look's: lines that drift say the outline is off, and a better one may yet be found (a plan
    whose outline cut a corner was counted 9 x 10 at 0.69, and followed, seemed confirmed at 0.74)."""
    fit, found, peaks = _refine(strength, lines, cross, window)
    drift = _drift(lines, cross, peaks)
    if drift is None or np.abs(drift.at(*np.meshgrid(lines, cross))).max() < DRIFT_LOOK * window:
        return fit, found
    again, found_again, _ = _refine(strength, lines, cross, window, drift)
    return (again if found_again.sum() >= found.sum() else fit), found


def _robust_fit(xs: np.ndarray, ys: np.ndarray, ws: np.ndarray, fallback: np.ndarray,
                span: tuple[float, float], window: float) -> np.ndarray:
    """Quadratic (or lower order with few points) through the local peaks, outliers dropped.

    The line stays within ``window`` of where it was expected, the quadratic ``fallback``, all along
    ``span``: peaks found on part of it only (the rest hidden under shading) must not bend it away
    elsewhere, so a curve that strays is replaced by a straight line, and that by the expected one moved
    level with the peaks. The fit is of the peaks' offsets from the expected line, weighted by ``ws``.
    """
    if len(xs) < 2:
        return np.asarray(fallback, np.float64)
    # fitted in t, the position along the span scaled to -1..1: well conditioned for the normal equations
    centre, half = 0.5 * (span[0] + span[1]), max(0.5 * (span[1] - span[0]), 1.0)
    t = (xs - centre) / half
    offsets = ys - np.polyval(fallback, xs)
    keep = np.ones(len(xs), bool)
    for _ in range(2):
        deg = 2 if keep.sum() >= 5 else (1 if keep.sum() >= 2 else 0)
        fit = _weighted_polyfit(t[keep], offsets[keep], ws[keep], deg)
        resid = np.abs(np.polyval(fit, t) - offsets)
        keep = resid <= max(1.5, 2.5 * median(resid[keep]))
    while len(fit) > 1 and np.abs(np.polyval(fit, _ALONG)).max() > window:
        fit = _weighted_polyfit(t[keep], offsets[keep], ws[keep], len(fit) - 2) if keep.any() else np.array([0.0])
    c2, c1, c0 = np.concatenate([np.zeros(3 - len(fit)), fit])
    # back from t to x: t = (x - centre) / half
    return np.array([c2 / half**2, c1 / half - 2 * c2 * centre / half**2,
                     c2 * centre**2 / half**2 - c1 * centre / half + c0]) + fallback


_ALONG = np.linspace(-1.0, 1.0, 9)  # where a fitted line is checked to stay within its window, scaled as ``t``


def _weighted_polyfit(x: np.ndarray, y: np.ndarray, weights: np.ndarray, deg: int) -> np.ndarray:
    """Coefficients (highest power first) of the polynomial of degree ``deg`` that fits ``y`` at ``x`` least
    squared, each point's square weighted by ``weights``: ``np.polyfit(x, y, deg, w=np.sqrt(weights))`` from the
    normal equations, a third of its time for the few points of a line (20 us against 58; x within -1..1
    keeps them well conditioned).

    >>> x = np.linspace(-1, 1, 7); w = np.linspace(0.5, 1, 7); y = 2 * x**2 - x + 0.5 + np.sin(9 * x) / 10
    >>> bool(np.allclose(_weighted_polyfit(x, y, w, 2), np.polyfit(x, y, 2, w=np.sqrt(w))))
    True
    """
    powers = np.vander(x, deg + 1)
    weighted = powers.T * weights
    return np.linalg.solve(weighted @ powers, weighted @ y)


def find_lattice(image: np.ndarray, outline: tuple[float, float, float, float] | None = None,
                 aspect: float | None = None, drawn_on: Callable[[], bool] | None = None,
                 counts: tuple[int, int] | None = None) -> Lattice:
    """Rows, columns and every line crossing of the grid in a rectified image (colour or grey).

    ``outline`` (left, top, right, bottom) is where the outer grid lines are expected, if known;
    ``aspect`` the expected rows / cols (the grid's height / width in the photo: squares are square);
    ``drawn_on``, whether the grid is a sheet players draw on (asked only where the drawing's count may overrule
    the lines' for lying on the drawing: cards' pictures keep to no squares' middles); ``counts``, the (rows, cols)
    to place the lines of, when they are known already.
    """
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (0, 0, w, h) if outline is None else (int(v) for v in outline)
    inside = (slice(y0, y1), slice(x0, x1))
    horiz, vert, long_horiz, long_vert = (line_share(s, inside) for s in line_strengths(image, runs=(LINE_RUN, COUNT_RUN)))
    row_bounds = None if outline is None else (outline[1], outline[3])
    col_bounds = None if outline is None else (outline[0], outline[2])

    def axes(horiz: np.ndarray, vert: np.ndarray) -> tuple[_Axis, _Axis, tuple[int, int]]:
        row_axis, col_axis = _axis(horiz[:, x0:x1].mean(axis=1), row_bounds), _axis(vert[y0:y1].mean(axis=0), col_bounds)
        return row_axis, col_axis, _choose_counts(row_axis, col_axis, aspect)

    # The grid's outer lines are found and its lines counted from long straight runs, where a heavy drawing's
    # strokes beside pale printed lines fall away; each line is then placed and confirmed from short runs.
    # Lines slanted by a wrongly found outline show no long runs: they are counted from the short ones, and
    # still show how poorly they are confirmed.
    try:
        row_axis, col_axis, (rows, cols) = axes(long_horiz, long_vert)
    except ScanError:
        row_axis, col_axis, (rows, cols) = axes(horiz, vert)
    tops = max(row_axis.scores.values()), max(col_axis.scores.values())
    if counts is not None:
        rows, cols = counts
    elif outline is not None and min(tops) < FAINT_PRINT:
        drawn = _drawing_counts(image, inside, row_axis, col_axis, aspect)
        # with one axis's lines clear, the drawing is taken only where its count is one the lines bear out on an axis
        # (a washed-out 11 x 8 plan, heavy fairways along its rows: its lines scored 3 rows at 0.45 and 8 columns at
        # 0.25, and it read 3 x 2; its drawing scored 11 and 8 at 0.79 and 0.68), or where it counts more squares
        # than the lines, which lie on the drawing (``_against_drawing``: fewer lines than the plan has lie on its
        # fairways' long strokes; the right count can lie on a heavy drawing too, a hard photo's 9 x 8 at -0.16,
        # whose drawing's rhythm counted 2 x 2)
        if drawn is not None and (max(tops) < FAINT_PRINT or _agrees_on_an_axis(drawn, row_axis, col_axis)
                                  or (drawn[0] * drawn[1] > rows * cols and drawn_on is not None
                                      and _against_drawing(image, inside, row_axis, col_axis, (rows, cols))
                                      and drawn_on())):
            rows, cols = _halved_by_lines(drawn, row_axis, col_axis)
    row_lines, col_lines = row_axis.lines(rows), col_axis.lines(cols)
    # Rectification leaves lines within a small share of a square of their even positions.
    row_window = WINDOW * np.diff(row_lines).mean()
    col_window = WINDOW * np.diff(col_lines).mean()
    row_fit, row_found = _refine_drifting(horiz, row_lines, col_lines, row_window)
    col_fit, col_found = _refine_drifting(vert.T, col_lines, row_lines, col_window)
    # every crossing at once: y on its row's curve at x, x on its column's curve at y, in turn
    x, y = np.broadcast_arrays(np.asarray(col_lines, np.float64)[None, :], np.asarray(row_lines, np.float64)[:, None])
    for _ in range(3):
        y = quadratic(row_fit[:, None, :], x)
        x = quadratic(col_fit[None, :, :], y)
    return Lattice(np.stack([x, y], axis=-1), 0.5 * float(row_found.mean() + col_found.mean()), (row_found, col_found))


def quadratic(coefs: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Quadratics (coefficients on the last axis, highest power first) at ``x``, elementwise, evaluated as
    ``np.polyval`` does (the same numbers to the last bit), for many curves at once.

    >>> bool(quadratic(np.array([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]]), np.array([2.0, 4.0])).tolist() == [11.0, 7.0])
    True
    """
    return ((0.0 * x + coefs[..., 0]) * x + coefs[..., 1]) * x + coefs[..., 2]

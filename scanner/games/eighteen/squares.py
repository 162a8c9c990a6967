"""What kind of drawing a course-plan square holds, from its ink: a small network over shape measurements.

Each square (an ink patch from ``scanner.cells``) is described by three groups of numbers, all taken relative
to the plan's own ink level so that pen, paper and lighting matter little:

* a coarse 12 x 12 picture of its stroke pixels (where the ink is),
* a histogram of stroke directions in each cell of a 4 x 4 grid (what the strokes look like),
* the structural measurements of ``features.measure`` in a form that does not depend on which way the
  square is turned (edge crossings sorted, diagonal shares sorted, loops, trunk, blob sizes).

A one-hidden-layer network turns them into probabilities of the nine kinds in ``KINDS``, pooled with those of a
convolutional network that sees the square's ink picture itself (``square_kinds``, ``pooled_kinds``) unless the
first is sure (``MEASURED_SURE``). Which edges a fairway or tee/green uses is read by ``classify`` from the
strokes; the network only says what the square is.
It was trained on synthetic photos (``python -m scanner.games.eighteen.squares FOLDER...`` rebuilds
``squares_model.npz`` from photos with ground truth, reading them with two processes), each square cut from the
grid the scanner found and from jittered copies of it, so that a grid line found a pixel or two off does not
change the reading; squares scribbled out whole are left out (``labelled_rows``: learnt as empty, they made
another sheet's cross-hatched gorse and shaded fairways read empty). The shipped model was trained on ten
200-photo phone sets, about a million squares, in 20 minutes on two cores: seeds 16302 to 16802, whose sheets all
print our first gorse symbol, and 18412 to 18442, whose printings print five of the six
(``fixtures.art.eighteen.sheet.GORSE_DESIGNS``; the sixth, "scrub", rows of small arcs, was taken out of that list
while they were made, to see a printing the network never saw). Against the model before it (twelve sets of seeds
11602 to 12702, first printing only), with the scanner of the day: on 200 plans of seed 18452 (all six printings)
158 plans read exactly instead of 134, and 16 instead of 37 hold a gorse square misread (the unseen arcs too: both
of a sheet's bare arcs, read as lakes, are now gorse); on 200 plans each of 17802 and 18302 (first printing only)
159 and 161 instead of 161 and 164 (on 17802, 10 squares right now and 12 wrong now); on the six plans drawn by
another hand (``shared/outside``), 5 squares wrong either way: their five-fan gorse and a fairway drawn over their
cross-hatch read right now, a tee/green and an empty square read as fairways now (flagged).

Example:
    >>> import numpy as np, cv2
    >>> from scanner.games.eighteen.features import measure
    >>> ink = np.zeros((64, 64), np.float32)
    >>> _ = cv2.rectangle(ink, (3, 3), (60, 60), 1.0, -1)
    >>> KINDS[int(np.argmax(kind_probabilities([ink], [measure(ink, 0.3)], 0.3)[0]))]
    'Mb'
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from scanner.games.eighteen.digits import softmax
from scanner.games.eighteen.features import MARGIN, CellFeatures, measure_all
from scanner.games.eighteen.square_kinds import read_kinds

if TYPE_CHECKING:  # the scanner's own modules import this one
    from scanner.games.eighteen import Squares
    from scanner.load import LoadedPhoto

KINDS = ("empty", "Mb", "Mp", "gorse", "fairway", "teegreen", "water", "tree", "bunker")  # Mb/Mp: black/peak
MODEL = Path(__file__).with_name("squares_model.npz")
PICTURE = 12  # side of the coarse stroke picture
DIRECTIONS, DIRECTION_CELLS = 8, 4  # stroke-direction histogram: bins over 180 degrees (a quarter turn moves
# an orientation by half of them), cells per side
DOT = 0.004  # a blob smaller than this share of the square is a dot (stipple)
TEMPERATURE = 2.0  # the network's logits are softened: fitted to be sure, it is sure of many of its mistakes
# (on the squares of two sets it was not fitted on, softened by 1.5, 22 of 97 wrong reads come above 0.8; by 2,
# 9, and 701 of about 38,700 right reads below; by 2.5, none and 1,897)
MEASURE_POWER, PICTURE_POWER = 0.5, 0.5  # the two kind readers' probabilities are pooled raised to these: the
# picture network is sure of most of its few mistakes. On 38,972 squares of seeds 19302 and 19402, pooled: 31 wrong,
# 21 of them at 0.8 or above, 35 right reads below it; the picture network alone 35, 27 and 27; the measurements'
# alone 149, 34 and 741. Over the 600 plans of seeds 19202-19402 (the first picture network), powers of 0.5 and 0.75
# or 0.35 and 0.5 read one plan fewer exactly, and the picture network alone (0 and 0.5) 3 fewer
MEASURED_SURE = 0.98  # a square the measurements' network is this sure of is not shown to the picture network: pooled
# at these powers, the picture network overturns such a reading only when it is 49 times surer of another kind than of
# this one, and it never was near that: of 68,039 squares (seeds 22802-23002, the hard preset's 60, the other hand's
# six), 45,861 were read so surely, and there it gave another kind more than 0.5 three times, 0.85 at most. Such a
# square's reading is the measurements' alone (its confidence theirs): two thirds of a plan's squares skip the picture
# network, 10 ms a plan; 766 photos (the 600 of those seeds, the hard preset's 60, 40 flat scans, the other hand's six
# and 60 copies of them turned, halved, blurred, tinted or noisy) read every square and flag every read as before


def kind_of(value: dict) -> str:
    """A board cell's kind as a ``KINDS`` name."""
    k = value["k"]
    return ("Mb" if value.get("style") == "black" else "Mp") if k == "mountain" else k


def _directions(images: np.ndarray) -> np.ndarray:
    """Stroke-direction histograms (unsigned gradient orientation, weighted by strength) per grid cell of
    each of N square images (N, side, side): array (N, cells, cells, DIRECTIONS). The images' gradients are
    taken in one pass over them stacked, each padded by its own mirror image as OpenCV pads one image alone
    (the same gradients, but for the last bit of some in an image's last column, which OpenCV's filter then
    reaches by another loop: no square read differently on 56 plans)."""
    n, side = images.shape[:2]
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1)), mode="reflect")
    stacked = padded.reshape(-1, side + 2)
    gx, gy = (cv2.Sobel(stacked, cv2.CV_32F, dx, 1 - dx, ksize=3).reshape(padded.shape)[:, 1:-1, 1:-1] for dx in (1, 0))
    # cv2's polar conversion (angles good to a fraction of a degree, in 0..2 pi), as ``digits.hog`` takes it:
    # a seventh of the time of numpy's arctan2 (a bin moves for 1 pixel in 16,000)
    mag, angle = (a.reshape(gx.shape) for a in cv2.cartToPolar(gx.reshape(-1, side), gy.reshape(-1, side)))
    direction = (angle * np.float32(DIRECTIONS / np.pi)).astype(np.int64) % DIRECTIONS
    cell = (np.arange(side) * DIRECTION_CELLS // side).astype(np.int64)
    where = ((np.arange(n)[:, None, None] * DIRECTION_CELLS + cell[None, :, None]) * DIRECTION_CELLS
             + cell[None, None, :]) * DIRECTIONS + direction
    hist = np.bincount(where.ravel(), mag.ravel(), n * DIRECTION_CELLS**2 * DIRECTIONS)
    return hist.reshape(n, DIRECTION_CELLS, DIRECTION_CELLS, DIRECTIONS)


def _turned(hist: np.ndarray, k: int) -> np.ndarray:
    """Direction histograms (N, cells, cells, DIRECTIONS) of N images turned ``k`` quarter turns, one row
    each: the cells turn and every direction moves by half the bins (a quarter turn of an unsigned
    orientation); each cell normalised by its own strength plus a share of its square's mean, so faint noise
    stays small."""
    turned = np.roll(np.rot90(hist, k, axes=(1, 2)), (DIRECTIONS // 2) * k, axis=3).reshape(len(hist), -1, DIRECTIONS)
    norm = np.sqrt((turned**2).sum(axis=2))
    return (turned / (norm + 0.2 * norm.mean(axis=1, keepdims=True) + 1e-6)[..., None]).reshape(len(hist), -1).astype(np.float32)


def _shape(f: CellFeatures) -> np.ndarray:
    """The measurements that do not change when the square turns."""
    extents = sorted((c.extent for c in f.crossings.values()), reverse=True)
    counts = sorted((min(c.count, 4) for c in f.crossings.values()), reverse=True)
    blobs = f.blobs
    main = max(blobs, key=lambda b: b.area) if blobs else None
    elongation = max(main.box[2:]) / max(min(main.box[2:]), 1e-3) if main else 0.0
    return np.asarray([f.ink, f.corners, *extents, *counts, max(f.diagonal), min(f.diagonal), len(blobs),
                       sum(b.holes for b in blobs), max((b.hole_area for b in blobs), default=0.0),
                       max((b.stem for b in blobs), default=0.0), main.area if main else 0.0, elongation,
                       sum(b.enclosed for b in blobs), sum(1 for b in blobs if b.area < DOT)], np.float32)


def describe(inks, measured: list[CellFeatures], threshold: float, turns: tuple[int, ...] = (0,)) -> np.ndarray:
    """Feature rows of squares' ink patches and their measurements (``measure_all(inks, threshold)``), one per
    quarter turn in ``turns`` (the patch turned anticlockwise that many times) for each square in turn:
    (N * len(turns), features)."""
    size = measured[0].strokes.shape[0]
    m = int(round(MARGIN * size))
    inner = slice(m, size - m)
    pictures = np.stack([cv2.resize(f.strokes[inner, inner].astype(np.float32), (PICTURE, PICTURE),
                                    interpolation=cv2.INTER_AREA) for f in measured])
    levels = np.stack([cv2.resize(np.clip(np.asarray(ink, np.float32)[inner, inner] / threshold, 0.0, 2.0), (48, 48),
                                  interpolation=cv2.INTER_AREA) for ink in inks])
    shapes = np.stack([_shape(f) for f in measured])
    directions = _directions(levels)
    rows = [np.concatenate([np.rot90(pictures, k, axes=(1, 2)).reshape(len(measured), -1), _turned(directions, k), shapes],
                           axis=1) for k in turns]
    return np.stack(rows, axis=1).reshape(len(measured) * len(turns), -1)


@cache
def _weights() -> dict[str, np.ndarray]:
    with np.load(MODEL) as data:
        return {k: data[k] for k in data.files}


def measured_probabilities(patches, measured: list[CellFeatures], threshold: float) -> np.ndarray:
    """(N, len(KINDS)) probabilities from the measurements' network alone: the quick reading."""
    w = _weights()
    # Each square is read in its four quarter turns and the readings averaged: the kind of a square does
    # not depend on which way the photo was taken, and neither does the answer then.
    x = describe(patches, measured, threshold, (0, 1, 2, 3))
    hidden = np.maximum(((x - w["mean"]) / w["scale"]) @ w["w1"] + w["b1"], 0.0)
    return softmax((hidden @ w["w2"] + w["b2"]) / TEMPERATURE).reshape(len(measured), 4, -1).mean(axis=1)


def kind_probabilities(patches, measured: list[CellFeatures], threshold: float) -> np.ndarray:
    """(N, len(KINDS)) probabilities for N ink patches with their measurements (which do not depend on
    the patch's quarter turn: edge crossings and diagonals are sorted, pieces counted), pooled with the picture
    network's reading of the patches (``pooled_kinds``) where the measurements leave them less sure than
    ``MEASURED_SURE``."""
    p = measured_probabilities(patches, measured, threshold)
    pictured = p.copy()  # pooled with itself, a reading stays as it is
    unsure = np.flatnonzero(p.max(axis=1) < MEASURED_SURE)
    if len(unsure):
        pictured[unsure] = read_kinds(np.asarray(patches)[unsure], threshold)
    return pooled_kinds(p, pictured)


def pooled_kinds(measured: np.ndarray, pictured: np.ndarray) -> np.ndarray:
    """The kind probabilities of the measurements' network (``measured``) and the picture network's
    (``square_kinds``, ``pictured``) pooled: each raised to its power (``MEASURE_POWER``, ``PICTURE_POWER``),
    multiplied and normalised.

    >>> pooled_kinds(np.array([[0.6, 0.4]]), np.array([[0.2, 0.8]])).round(2)
    array([[0.38, 0.62]])
    """
    return softmax(MEASURE_POWER * np.log(measured + 1e-6) + PICTURE_POWER * np.log(pictured + 1e-6))


# ---------------------------------------------------------------------------------------------------------
# Training (build step): synthetic photos with ground truth -> squares cut by the scanner's own stages.

SHIFTS = 4  # jittered cuts of every training square besides the exact one
JITTER = 0.04  # most misplacement of a grid line in a jittered cut, share of the square's side


def jittered(lattice, rng: np.random.Generator):
    """The lattice with every grid line moved by up to ``JITTER`` of a square and every crossing by a
    little more: the scanner's grid lands a pixel or two off the drawn lines, and a read must not hang
    on that."""
    from scanner.grid import Lattice

    pts = lattice.points.copy()
    side = float(np.mean(np.diff(pts[:, :, 0], axis=1)))
    rows, cols = pts.shape[:2]
    pts[:, :, 1] += rng.uniform(-JITTER, JITTER, (rows, 1)) * side
    pts[:, :, 0] += rng.uniform(-JITTER, JITTER, (1, cols)) * side
    pts += rng.normal(0.0, JITTER / 3, pts.shape) * side
    return Lattice(pts, lattice.line_support)


@dataclass(frozen=True)
class ScannedTruth:
    """A synthetic photo cut as the scanner cuts it, and its truth turned into the scanner's frame."""

    loaded: LoadedPhoto
    truth: dict
    cut: Squares  # the scanner's own grid and squares
    turns: int  # quarter turns anticlockwise that make the scanner's rectified frame upright
    where: list[tuple[int, int]]  # where each rectified square (row by row) lies on the upright plan
    cells: list[dict]  # the true board cell of each rectified square, row by row


def scanned_truth(photo: Path) -> ScannedTruth | None:
    """The scanner's grid and squares of one synthetic ``photo`` and the true cell of each square, or None when
    the scanner does not find its grid where the truth file puts it (``grid_points``)."""
    from scanner.errors import ScanError
    from scanner.games import eighteen
    from scanner.games.eighteen.plan import upright_index
    from scanner.games.eighteen.truth_photos import with_truth

    known = with_truth(photo)
    if known is None:
        return None
    loaded, truth, grid = known
    try:
        cut = eighteen.cut_squares(loaded.image)
    except ScanError:
        return None
    geo = cut.geometry
    found = geo.rectified.to_photo(geo.lattice.points.reshape(-1, 2))
    side = float(np.linalg.norm(grid[0, 1] - grid[0, 0]))
    off = max(np.linalg.norm(grid.reshape(-1, 2) - p, axis=1).min() for p in found) / side
    corners = geo.rectified.to_photo(geo.lattice.corners())
    turns = int(np.argmin(np.linalg.norm(corners - grid[0, 0], axis=1)))  # where the true top-left lies
    rows, cols = cut.patches.shape[:2]
    cells = truth["board"]["cells"]
    if off > 0.12 or (len(cells), len(cells[0])) != ((cols, rows) if turns % 2 else (rows, cols)):
        return None
    where = [upright_index(r, c, rows, cols, turns) for r in range(rows) for c in range(cols)]
    return ScannedTruth(loaded, truth, cut, turns, where, [cells[ur][uc] for ur, uc in where])


def labelled_cuts(photo: Path, shifts: int = SHIFTS, seed: int = 0) -> tuple[list[np.ndarray], np.ndarray, float] | None:
    """Ink patches (one (N, CELL, CELL) array per cut), kind indices and ink threshold of the squares of one
    synthetic ``photo``, or None when the scanner does not find its grid where the truth file puts it
    (``scanned_truth``): each square is cut from the scanner's own grid and from ``shifts`` jittered ones
    (``jittered``, random stream (seed, photo's name)). The truth is turned into the scanner's frame; squares
    it says were scribbled out whole are left out."""
    from scanner.cells import cut_cells, ink_map
    from scanner.games import eighteen

    known = scanned_truth(photo)
    if known is None:
        return None
    cut, geo = known.cut, known.cut.geometry
    rows, cols = cut.patches.shape[:2]
    labels = [KINDS.index(kind_of(cell)) for cell in known.cells]
    # a square scribbled out whole is empty with a heap of ink on it: learnt as empty, it teaches the network
    # that dense strokes may be blank (another sheet's cross-hatched gorse read empty at 0.99); the scanner's
    # scribble reader (``scribbles``) reads those squares after the network (``eighteen.scribbled_out``)
    scribbled = known.truth.get("scribbled_out", [])
    kept = np.array([list(upright) not in scribbled for upright in known.where])
    rng = np.random.default_rng([seed, *photo.name.encode()])
    cell_px = float(np.mean(np.diff(geo.lattice.points[:, :, 0], axis=1)))
    ink = ink_map(geo.rectified.image, paper_scale=int(2 * cell_px))
    cuts = [cut.patches] + [eighteen.lift_shade(cut_cells(ink, jittered(geo.lattice, rng).ringed(), eighteen.CELL))[0]
                            for _ in range(shifts)]
    return ([each.reshape(rows * cols, eighteen.CELL, eighteen.CELL)[kept] for each in cuts], np.array(labels)[kept],
            cut.threshold)


def labelled_rows(photo: Path, shifts: int = SHIFTS, seed: int = 0) -> tuple[np.ndarray, np.ndarray] | None:
    """Feature rows (``describe``, unturned) and kind indices of the squares of one synthetic ``photo``
    (``labelled_cuts``), or None."""
    known = labelled_cuts(photo, shifts, seed)
    if known is None:
        return None
    cuts, labels, threshold = known
    x = []
    for patches in cuts:
        measured = measure_all(patches, threshold)
        x += list(describe(patches, measured, threshold))
    return np.stack(x).astype(np.float32), np.tile(labels, len(cuts))


def train(folders: list[Path], jobs: int = 2) -> dict[str, np.ndarray]:
    """Fit the network on the squares of the synthetic photos in ``folders`` (``labelled_rows``, photos
    read by ``jobs`` processes)."""
    from scanner.games.eighteen.truth_photos import read_photos

    rows = read_photos(folders, labelled_rows, jobs)
    if not rows:
        raise ValueError("no photo with a truth file whose grid the scanner finds")
    return fit(np.concatenate([x for x, _ in rows]), np.concatenate([y for _, y in rows]))


def fit(x: np.ndarray, y: np.ndarray, hidden: int = 128, alpha: float = 0.03, seed: int = 0) -> dict[str, np.ndarray]:
    """The network's arrays for feature rows ``x`` and kind indices ``y`` (scikit-learn, a development
    dependency, does the fitting).
    The weight penalty ``alpha`` keeps it from being sure of its mistakes (of 4416 held-out squares, 35
    wrong reads came above 0.8 at 0.01, 23 at 0.03, 10 at 0.1, which put about 100 more right reads below).
    With the shipped model's photos, fewer seeds (eight) read the squares of seeds 12802 and 12902 with
    64 + 32 errors at 128 hidden units and 0.03, 61 + 39 at 64 units, 70 + 39 at 256, 75 + 56 at alpha 0.1."""
    from sklearn.neural_network import MLPClassifier

    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    net = MLPClassifier((hidden,), alpha=alpha, max_iter=300, random_state=seed).fit((x - mean) / scale, y)
    if list(net.classes_) != list(range(len(KINDS))):
        raise ValueError("the photos do not show every kind of square")
    return {"mean": mean.astype(np.float32), "scale": scale.astype(np.float32),
            "w1": net.coefs_[0].astype(np.float32), "b1": net.intercepts_[0].astype(np.float32),
            "w2": net.coefs_[1].astype(np.float32), "b2": net.intercepts_[1].astype(np.float32)}


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: python -m scanner.games.eighteen.squares FOLDER... (synthetic photos with truth)", file=sys.stderr)
        raise SystemExit(2)
    np.savez_compressed(MODEL, **train([Path(a) for a in sys.argv[1:]]))
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} KiB)")

"""Read a tee/green square's par from the whole square at once, as a second opinion on the digit reader.

The digit reader (``digits``) reads the ink pieces ``parmarks`` cuts out of a square, so a digit that comes
out in fragments, or joined to a grid line or a fairway stub, is misread or never a candidate at all. This
reader looks at the whole square's ink (``parmarks.square_ink``, the square and its margin, shrunk to
``SIDE`` pixels and turned upright with the plan) and says 3, 4, 5 or "no par digit" (a fairway): a small
convolutional network of five 3 x 3 convolutions (``WIDTHS``: 16, 32, 64, 64, 96 channels, three 2 x 2
poolings, a maximum over the whole image), run with ONNX Runtime (``digits.run_net``). It needs no cut, so it
does well where the cut goes wrong, and worse where a digit is small beside the rest of the square's ink.

Trained on squares drawn and photographed as the digit reader's are (``digits_train.draw_square``,
``photograph``: random hands, pens, shading, sizes, blur, light and JPEG), each square's whole ink labelled
with its par. Run ``python -m scanner.games.eighteen.square_par`` (needs PyTorch, ``pip install -e
.[train]``) to rebuild ``square_par.onnx``; on two cores the 24,000 squares take about 10 minutes to draw,
and the 20 passes over them took nearly two hours on a machine busy with other work. Its held-out accuracy
is 0.965 (1,500 squares of seed 1, at 30 to 170 pixels a square, where many a digit is a few pixels tall),
and 0.977 on 4,000 of the squares it was trained on. The narrower network before it (16, 32, 64, 64, 96
channels, 18 passes) gave 0.958 and 0.970, and with 16,000 squares 0.932; at 64 pixels a side, 0.937. On
200 photographed plans (seed 12402) the final pars, read with the digit reader and the holes' lengths, were
76 wrong of 3,957 with this network and 81 with the narrower one (on seed 12302: 65 and 79 of 3,901; with
the pooling powers of ``plan.pooled_evidence`` fitted again to it, 71 on 12402 and 57 on 12302); at 64
pixels with 16,000 squares the reader alone misread 244 pars, the narrower one 142. It read the 20
tee/greens of a plan in about 27 ms on one core (the narrower one in 10).

It was then trained on (``tune``: 2 passes at a peak rate of 5e-4) over the tee/green squares and four
fairways of each of the 2,000 photographed plans of seeds 12102-13002 (about 42,000 squares), cut from the
true grid (``photo_squares``), so that it knows the photos' own blur, light and digit placement: run
``python -m scanner.games.eighteen.square_par FOLDER...`` (about 25 minutes on two cores). On the squares of
the unseen seed 13102 it then misread 70 of 3,899 pars instead of 97; the final pars of those plans, 45
instead of 61, and of the fresh seed 13202, 38 of 3,941 instead of 60. Held-out drawn squares: 0.964.
It was trained on so once more over the 1,000 plans of seeds 17002-17402 (made at the phone preset's own
range of sizes; 11 minutes): final pars wrong on seed 15352 44 -> 40 of 3,976 (five right now, one wrong
now) and on seed 16302 27 -> 21 of 3,899, plans exactly right 151 -> 156 there. Held-out drawn squares: 0.963.
A third time, with ``square_edges``, over the 2,000 plans of seeds 16302-16902 and 17502-17702 (13 minutes): on
the fresh seeds 17802 and 17902 the final pars (this reader and the digit reader's) were wrong 12 -> 12 and
42 -> 37 times of about 3,900 each, and 338 -> 339 of the 400 plans exactly right; on 17802 five pars came
right and four went wrong, so within chance there. Held-out drawn squares: 0.962.
A fourth time, with ``square_edges``, over the 1,600 plans of seeds 18502-19102 (all six printings; 13 minutes),
once the square kinds were read by ``square_kinds`` too: final pars wrong on seeds 19202, 19302 and 19402
18 -> 13, 24 -> 24 and 17 -> 17 of about 3,850 each; 177, 164 and 171 plans exactly right instead of 176, 164 and
170. Held-out drawn squares: 0.964.
A fifth time, alone, over the 1,000 plans of seeds 19902, 20302, 20702, 20802 and 21002 (18 minutes on two cores
busy with other work): on seeds 21102 and 21202, which it was not trained on, the final pars were wrong 10 -> 8
and 24 -> 16 times of 3,785 and 3,911 (of the 24, 11 were a 5 read as a 3, most of them small digits ringed round),
plans exactly right 178 -> 181 and 174 -> 180, reads flagged 1,537 -> 1,534 and 1,775 -> 1,783; the other hand's
six plans read as before. Held-out drawn squares: 0.958.
A sixth time, alone, over the 1,800 plans of seeds 21102-21902 (17 minutes on two cores): on seeds 22002 and 22202,
which it was not trained on, the final pars were wrong 25 -> 22 and 36 -> 32 times of 3,851 and 3,822, plans exactly
right 177 -> 179 on each; wrong pars read 0.92 or surer (not flagged) 1 -> 3 and 2 -> 1 (the new two on 22002: a
blotted 3 beside its neighbour's 4, and a small ringed 3, read as 4s by both readers); the other hand's six plans
read as before. Held-out drawn squares: 0.958.
A seventh time, alone, over the 1,000 plans of seeds 22002 and 22202-22502 (9 minutes on two cores): on the seed
22602, which it was not trained on, the final pars were wrong 17 -> 13 times of 3,839 (four right now, none wrong
now) and 181 -> 182 plans exactly right, none wrong unflagged either way; the other hand's six plans, 40 flat scans
and 60 hard photos read as before (but for two of the hard photos' 341 wrong pars). Held-out drawn squares: 0.961.
The network to that point had 24, 48, 96, 96 and 128 channels. It was then narrowed to ``WIDTHS`` (``narrowed``: each
layer keeps the channels whose weights are largest) and taught by itself, the wide one (``digits_cnn.fit`` with its
readings, ``--taught``: 4 passes over the 1,400 plans of seeds 22902 and 23502-24002, 32,549 squares; 16 minutes on
two cores): half the time (a plan's batch 34 -> 18 ms), and on the squares of seed 24102, which neither saw, 0.9848
right against the wide one's 0.9839 (they agree on 0.992). That seed's final pars were wrong 47 -> 46 times of
3,810, its plans exactly right 86.5% either way; the other hand's six plans 1 -> 0 of 132, the 60 hard photos 46 ->
51 on the 12 that changed. A narrow network trained from the start over the same squares (7 passes) read only 0.937.
Held-out drawn squares: 0.957 (the wide one, 0.960).
It was then trained on (``tune``) over the 400 plans of seeds 24102 and 24202 (about 9,260 squares; under 10 minutes
on two cores busy with other work): on seed 24402, which it was not trained on, the final pars were wrong 21 -> 19
times of 3,840 (two right now, none wrong now), plans exactly right 185 -> 186 of 200. Held-out drawn squares: 0.951.

Example:
    >>> import numpy as np, cv2
    >>> from scanner.games.eighteen.parmarks import square_ink
    >>> img = np.full((200, 200, 3), 235, np.uint8)
    >>> _ = cv2.rectangle(img, (50, 50), (150, 150), (60, 60, 60), 2)
    >>> _ = cv2.line(img, (50, 50), (150, 150), (90, 30, 30), 2)
    >>> _ = cv2.putText(img, "4", (60, 140), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (90, 30, 30), 3)
    >>> quad = np.float32([[50, 50], [150, 50], [150, 150], [50, 150]])
    >>> probs = read_squares([square_ink(img, quad)])
    >>> CLASSES[int(np.argmax(probs[0]))]
    4
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scanner.games.eighteen.digits import eight_bit, onnx_net, run_net
from scanner.quantiles import percentile

MODEL = Path(__file__).with_name("square_par.onnx")
SIDE = 96  # the square's ink crop is shrunk to this many pixels a side
CLASSES = (3, 4, 5, None)  # None: no par digit in the square
BRIGHTEST = 99  # percentile of a crop's ink taken as full strength: a faint pen reads like a dark one
FLOOR = 0.05  # ... but never below this (a blank square stays blank, not blown up to noise)
TRAIN_SEEDS, SQUARES, HELD_OUT_SEED, HELD_OUT = (0, 2, 3), 8000, 1, 1500
EPOCHS, BATCH, SHIFT = 20, 128, 4  # training passes, batch size, random shift (pixels) of each batch
WIDTHS = (16, 32, 64, 64, 96)  # channels of the network's five convolutions
TAUGHT_EPOCHS, TAUGHT_RATE = 4, 1e-3  # passes and peak rate of a network narrowed from the committed one, taught by it
UNSURE = 0.95  # a square read less surely than this is read again moved a pixel each way (``steadied``)


def inputs(inks: list[np.ndarray], side: int = SIDE) -> np.ndarray:
    """A network's input (N, 1, side, side) for upright square ink crops (``square_ink``, any size): each
    shrunk to ``side`` and divided by its ``BRIGHTEST`` percentile, clipped at 1.5."""
    small = np.stack([cv2.resize(np.float32(ink), (side, side), interpolation=cv2.INTER_AREA) for ink in inks])
    top = percentile(small.reshape(len(small), -1), BRIGHTEST, axis=-1)[:, None, None]
    return np.clip(small / np.maximum(top, FLOOR), 0.0, 1.5)[:, None].astype(np.float32)


def read_squares(inks: list[np.ndarray]) -> np.ndarray:
    """Probabilities (N, 4) of par 3, 4, 5 and no par digit (``CLASSES``) for upright square ink crops."""
    return steadied(eight_bit(MODEL), inputs(inks))


def steadied(model: Path, x: np.ndarray) -> np.ndarray:
    """Probabilities of the ONNX network at ``model`` for inputs ``x`` (N, 1, side, side); an input read less
    surely than ``UNSURE`` is read again moved a pixel up and left and a pixel down and right, and takes the
    geometric mean of its three readings (the moves training made, ``digits_cnn.fit``). Where a pixel falls
    sways an unsure reading: on the tee/green squares of 200 photographed plans (seed 13402, cut from the
    true grid) the reader misread 44 of 4,704 squares alone and 35 so, re-reading 4% of them. The plans'
    final pars: 23 wrong of 3,904 before and 19 after; on seed 13602, 30 and 29 of 3,887. ``square_edges``
    reads its squares so too (one square more read right on 13602, none changed on 13402).

    >>> x = np.zeros((2, 1, SIDE, SIDE), np.float32)
    >>> steadied(MODEL, x).shape
    (2, 4)
    """
    probs = run_net(model, {"x": x})
    unsure = np.flatnonzero(probs.max(axis=1) < UNSURE)
    if len(unsure):
        # rolled, as training moves its batches (``digits_cnn.fit``): a blank or repeated edge reads otherwise
        moved = np.concatenate([np.roll(x[unsure], (step, step), axis=(2, 3)) for step in (1, -1)])
        readings = np.concatenate([probs[unsure][None], run_net(model, {"x": moved}).reshape(2, len(unsure), -1)])
        mean = np.exp(np.log(readings + 1e-6).mean(axis=0))
        probs[unsure] = mean / mean.sum(axis=1, keepdims=True)
    return probs


def _drawn_square(seed: tuple[int, int]) -> tuple[np.ndarray, dict]:
    from scanner.games.eighteen.digits_train import draw_square, photograph
    from scanner.games.eighteen.parmarks import square_ink

    rng = np.random.default_rng(seed)
    image, quad, mask, cell = draw_square(rng)
    photo, quad, _ = photograph(image, quad, mask, rng)
    return square_ink(photo, quad).astype(np.float16), cell


def drawn_squares(seed: int, squares: int, side: int = SIDE, jobs: int = 2) -> tuple[np.ndarray, list[dict]]:
    """Inputs (``inputs`` at ``side``) of ``squares`` drawn and photographed squares, square i from random
    stream (seed, i), and each one's board cell: the training material of this reader and of
    ``square_edges``."""
    from multiprocessing import Pool

    with Pool(jobs) as pool:
        drawn = pool.map(_drawn_square, [(seed, i) for i in range(squares)], chunksize=50)
    return inputs([ink for ink, _ in drawn], side), [cell for _, cell in drawn]


def training_set(seed: int, squares: int) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and par labels (``CLASSES`` indices) of ``drawn_squares``."""
    x, cells = drawn_squares(seed, squares)
    return x, np.array([CLASSES.index(cell.get("par")) for cell in cells])


def network(classes: int = len(CLASSES), layout: int = 1, widths: tuple[int, ...] = WIDTHS):
    """Five convolutions (``widths`` channels) and three poolings, then the strongest response in each of
    ``layout`` x ``layout`` regions of the square (1: anywhere in it, as a digit may be) to the ``classes``
    outputs."""
    from torch import nn

    def conv(into: int, out: int) -> list:
        return [nn.Conv2d(into, out, 3, padding=1), nn.ReLU()]

    a, b, c, d, e = widths
    return nn.Sequential(*conv(1, a), nn.MaxPool2d(2), *conv(a, b), nn.MaxPool2d(2), *conv(b, c), *conv(c, d),
                         nn.MaxPool2d(2), *conv(d, e), nn.AdaptiveMaxPool2d(layout), nn.Flatten(), nn.Dropout(0.3),
                         nn.Linear(e * layout**2, classes))


# ---------------------------------------------------------------------------------------------------------
# Training further on photographed plans (build step): tee/green squares of synthetic photos, cut where
# their truth files put the grid, so the reader sees the photos' own blur, light and digit placement.

FAIRWAYS = 4  # fairway squares of each photo taken too, as "no par digit"
TUNE_EPOCHS, TUNE_RATE = 2, 5e-4  # passes over the photos' squares, and the peak training rate


def chosen_squares(cells: list[dict], photo: Path, seed: int = 0) -> list[int]:
    """Which of a photographed plan's squares (``cells``, its board cells in any fixed order) its training material
    takes, as indices: every tee/green, then ``FAIRWAYS`` of its fairways (random stream (seed, photo's name)); none
    when it has no tee/green.

    >>> chosen_squares([{"k": "fairway"}, {"k": "teegreen"}, {"k": "empty"}], Path("a.jpg"))
    [1, 0]
    """
    teegreens = [i for i, cell in enumerate(cells) if cell["k"] == "teegreen"]
    if not teegreens:
        return []
    fairways = [i for i, cell in enumerate(cells) if cell["k"] == "fairway"]
    picked = np.random.default_rng([seed, *photo.name.encode()]).permutation(len(fairways))[:FAIRWAYS]
    return teegreens + [fairways[i] for i in picked]


def photo_squares(photo: Path, side: int = SIDE, seed: int = 0) -> tuple[np.ndarray, list[dict]] | None:
    """Inputs (``inputs`` at ``side``, float16) and board cells of one synthetic ``photo``'s tee/green squares
    and ``FAIRWAYS`` of its fairways (random stream (seed, photo's name)), each cut upright from the true grid
    (``grid_points`` of its truth file; training moves each batch a few pixels, as the scanner's grid lands
    a little off); None without a truth file or a tee/green."""
    from scanner.games.eighteen.parmarks import square_ink
    from scanner.games.eighteen.truth_photos import square_quad, with_truth

    known = with_truth(photo)
    if known is None:
        return None
    loaded, truth, grid = known
    cells = truth["board"]["cells"]
    where = [(r, c) for r, row in enumerate(cells) for c in range(len(row))]
    chosen = [where[i] for i in chosen_squares([cells[r][c] for r, c in where], photo, seed)]
    if not chosen:
        return None
    quads = [square_quad(grid, r, c) for r, c in chosen]
    return (inputs([square_ink(loaded.image, quad) for quad in quads], side).astype(np.float16),
            [cells[r][c] for r, c in chosen])


def photographed_squares(folders: list[Path], side: int = SIDE, jobs: int = 2) -> tuple[np.ndarray, list[dict]]:
    """``photo_squares`` of every synthetic photo in ``folders`` (read by ``jobs`` processes), as float32: the
    material this reader and ``square_edges`` are trained on further."""
    from functools import partial

    from scanner.games.eighteen.truth_photos import read_photos

    parts = read_photos(folders, partial(photo_squares, side=side), jobs)
    if not parts:
        raise ValueError("no photo with a truth file and a tee/green")
    return np.concatenate([x for x, _ in parts]).astype(np.float32), [cell for _, cells in parts for cell in cells]


def with_weights(net, path: Path):
    """``net`` (PyTorch) with the weights of the ONNX network at ``path``, which keeps each layer's weights
    under the network's own names."""
    import onnx
    import torch

    net.load_state_dict({w.name: torch.tensor(onnx.numpy_helper.to_array(w)) for w in onnx.load(str(path)).graph.initializer})
    return net


def stored_widths(path: Path) -> tuple[int, ...]:
    """The channels of each convolution of the ONNX network at ``path`` (of ``network``'s shape), in order."""
    import onnx

    weights = [w for w in onnx.load(str(path)).graph.initializer if len(w.dims) == 4]
    return tuple(int(w.dims[0]) for w in sorted(weights, key=lambda w: int(w.name.split(".")[0])))


def narrowed(wide, widths: tuple[int, ...]):
    """A network of ``network``'s shape with ``widths`` channels, made from the PyTorch network ``wide`` (the same
    shape, wider): each convolution keeps the output channels of ``wide``'s whose weights are largest (summed), with
    the weights of the inputs the convolution before kept, and so does the last layer. It reads nearly as ``wide``
    does before any training, a start a narrow network trained afresh falls well short of (on the squares of seed
    24102: 0.974 right against the wide one's 0.984, and 0.937 after seven passes from the start)."""
    import torch

    narrow = network(widths=widths)
    kept = torch.arange(1)  # the image's one channel
    with torch.no_grad():
        for source, target, width in zip(*(
                [m for m in net if isinstance(m, torch.nn.Conv2d)] for net in (wide, narrow)), widths, strict=True):
            weights = source.weight[:, kept]
            strongest = torch.argsort(weights.abs().sum(dim=(1, 2, 3)), descending=True)[:width].sort().values
            target.weight.copy_(weights[strongest])
            target.bias.copy_(source.bias[strongest])
            kept = strongest
        source, target = ([m for m in net if isinstance(m, torch.nn.Linear)][0] for net in (wide, narrow))
        target.weight.copy_(source.weight[:, kept])
        target.bias.copy_(source.bias)
    return narrow


def tune(net, model: Path, inputs: tuple[np.ndarray, ...], y: np.ndarray, batch: int, shift: int):
    """``net`` (PyTorch, of the ONNX network at ``model``'s shape) with ``model``'s weights, trained on over
    ``inputs`` (the arrays it takes, in order) and labels ``y`` at a gentler rate than from scratch
    (``TUNE_EPOCHS`` at ``TUNE_RATE``)."""
    from scanner.games.eighteen.digits_cnn import fit

    return fit(with_weights(net, model), inputs, y, TUNE_EPOCHS, batch, shift, peak_rate=TUNE_RATE)


if __name__ == "__main__":
    import sys

    from scanner.games.eighteen.digits_cnn import export, fit

    if sys.argv[1:2] == ["--taught"]:  # FOLDER...: the committed network narrowed to ``WIDTHS`` and taught by itself
        x, cells = photographed_squares([Path(a) for a in sys.argv[2:]])
        taught = np.concatenate([onnx_net(MODEL).run(None, {"x": x[i:i + BATCH]})[0] for i in range(0, len(x), BATCH)])
        net = fit(narrowed(with_weights(network(widths=stored_widths(MODEL)), MODEL), WIDTHS), (x,),
                  np.array([CLASSES.index(cell.get("par")) for cell in cells]), TAUGHT_EPOCHS, BATCH, SHIFT,
                  peak_rate=TAUGHT_RATE, taught=taught)
    elif len(sys.argv) > 1:  # FOLDER...: trained on over photographed plans
        x, cells = photographed_squares([Path(a) for a in sys.argv[1:]])
        net = tune(network(), MODEL, (x,), np.array([CLASSES.index(cell.get("par")) for cell in cells]), BATCH, SHIFT)
    else:
        parts = [training_set(seed, SQUARES) for seed in TRAIN_SEEDS]
        x, y = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
        net = fit(network(), (x,), y, EPOCHS, BATCH, SHIFT)
    export(net, (np.zeros((1, 1, SIDE, SIDE), np.float32),), ("x",), MODEL)
    onnx_net.cache_clear()
    held_x, held_y = training_set(HELD_OUT_SEED, HELD_OUT)
    read = run_net(MODEL, {"x": held_x}).argmax(axis=1)
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} KiB); held-out accuracy {(read == held_y).mean():.3f}")

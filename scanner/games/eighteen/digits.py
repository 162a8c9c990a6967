"""Handwritten par digits (3, 4, 5): read the ink pieces of a tee/green square, and tell which way is up.

The pieces come from ``parmarks``. Two readers look at them. The first is a few small neural networks (one
hidden layer each, their probabilities averaged) over HOG features of a piece's ink: cheap, it reads every
piece at every quarter turn. A piece it reads as a digit at all is read again by a small convolutional
network (``predict_images``), which tells digits from flags, stubs and fragments better (on crops cut from
drawn squares it was not trained on: digits read right 76% -> 82%, other marks taken for a digit 6.7% -> 3.4%).
Both are trained on the very pieces a scan cuts from tee/green squares drawn by the random hands and pens of
the fixtures' art module, varied further, and photographed at random sizes and blur, plus lone digits in
typefaces and hands with random slant, rotation and stroke width (``digits_train``; run ``python -m
scanner.games.eighteen.digits`` to rebuild ``digits_model.npz`` and ``python -m
scanner.games.eighteen.digits_cnn`` for ``digits_cnn.onnx``, which needs PyTorch: ``pip install -e
.[train]``); the convolutional network was then trained further on the pieces a scan cuts from
photographed plans (``digits_cnn.photo_candidates``). They have a fourth class, "not a par digit": flags,
stubs, rings, blots, fragments, part of a digit, and the digits turned by 90, 180 and 270 degrees - so they
also say whether a digit is upright, which is how the plan's orientation is found. Each upright digit is
also trained once more with a pixel of ink more or less, or more or less slanted.

Example:
    >>> import numpy as np, cv2
    >>> patch = np.zeros((40, 40), np.uint8)
    >>> _ = cv2.putText(patch, "4", (8, 33), cv2.FONT_HERSHEY_SIMPLEX, 1.1, 1, 3)
    >>> probs = read_digit(patch)
    >>> LABELS[int(np.argmax(probs))]
    '4'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import onnxruntime

LABELS = ("3", "4", "5", "other")
PAR = {"3": 3, "4": 4, "5": 5}
MODEL = Path(__file__).with_name("digits_model.npz")
CNN_MODEL = Path(__file__).with_name("digits_cnn.onnx")
SIDE = 24  # normalised digit image
CELL, BINS = 6, 9  # HOG cell side (pixels) and orientations
_BIN_OF = np.arange(2 * BINS + 2) % BINS  # unsigned orientation bin of a bin over the full turn
_CELL_FIRST_BIN = (np.arange(SIDE)[:, None] // CELL * (SIDE // CELL) + np.arange(SIDE)[None, :] // CELL) * BINS  # a
# pixel's HOG cell, as the index of the cell's first bin in an image's histogram
MAYBE = 0.1  # a crop the feature network reads as a par digit with more than this is read by the convolutional one
SLANTS = (-0.3, -0.15, 0.15, 0.3)  # shears a reading must survive (x shift per pixel of height)
HIDDEN = 256  # hidden units of each member network
MEMBERS = 3  # networks trained from different starting weights, read together (a steadier reading)
SQUARES, LONE = 7000, 400  # training: drawn squares (tee/greens, some fairways), and lone digits per class


@dataclass(frozen=True)
class Candidate:
    """An ink piece in a square that may be a digit: its patch and its centre (0..1 in the square)."""

    patch: np.ndarray  # binary uint8, cropped to the piece
    centre: tuple[float, float]  # (x, y)
    origin: tuple[int, int] = (0, 0)  # the patch's top left corner (x, y) in the image it was cut from
    restored: bool = False  # with strokes that were erased as lines or the diagonal put back


def _placed(box: np.ndarray, out: np.ndarray) -> None:
    """The ink's box (float) scaled to fit a 20-pixel box and written centred into ``out`` (SIDE x SIDE, zeros)."""
    h, w = box.shape
    scale = 20.0 / max(h, w)
    small = cv2.resize(box, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    y0, x0 = (SIDE - small.shape[0]) // 2, (SIDE - small.shape[1]) // 2
    out[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small


def turned(image: np.ndarray, turns: int) -> np.ndarray:
    """``np.rot90(image, turns)`` (a view) for a 2-D image, without its argument handling: a scan turns
    thousands of small crops, and that handling cost more than the rest of their scaling.

    >>> m = np.arange(6).reshape(2, 3)
    >>> all((turned(m, k) == np.rot90(m, k)).all() for k in range(-1, 5))
    True
    """
    k = turns % 4
    return image if k == 0 else image.T[::-1] if k == 1 else image[::-1, ::-1] if k == 2 else image[::-1].T


def hog(images: np.ndarray) -> np.ndarray:
    """Histograms of oriented gradients of (N, SIDE, SIDE) images: 9 unsigned orientations per CELL x CELL
    cell, blocks of 2 x 2 cells L2-normalised, clipped at 0.2 and normalised again. (N, blocks * 36)."""
    n = len(images)
    gx, gy = np.zeros_like(images), np.zeros_like(images)
    gx[:, :, 1:-1] = images[:, :, 2:] - images[:, :, :-2]
    gy[:, 1:-1, :] = images[:, 2:, :] - images[:, :-2, :]
    # cv2's polar conversion (angles good to a fraction of a degree, in 0..2 pi) and a table for the bin
    # modulo: many times faster than numpy's arctan2 and remainders
    mag, angle = (a.reshape(images.shape) for a in cv2.cartToPolar(gx.reshape(-1, SIDE), gy.reshape(-1, SIDE)))
    at = angle * np.float32(BINS / np.pi)  # 0..2 BINS: each orientation twice
    whole = at.astype(np.int32)
    frac = at - whole
    cells = SIDE // CELL
    # each pixel votes into its cell's two nearest orientation bins: the first bin of its image's cell, plus the bin
    where = (np.arange(n) * (cells * cells * BINS))[:, None, None] + _CELL_FIRST_BIN
    size = n * cells * cells * BINS
    hist = (np.bincount((where + _BIN_OF[whole]).ravel(), (mag * (1 - frac)).ravel(), size)
            + np.bincount((where + _BIN_OF[whole + 1]).ravel(), (mag * frac).ravel(), size))
    hist = hist.reshape(n, cells, cells, BINS)
    blocks = np.stack([hist[:, i:i + 2, j:j + 2].reshape(n, -1) for i in range(cells - 1) for j in range(cells - 1)], 1)
    for _ in range(2):
        blocks = np.minimum(blocks / np.sqrt((blocks**2).sum(axis=2, keepdims=True) + 1e-6), 0.2)
    blocks /= np.sqrt((blocks**2).sum(axis=2, keepdims=True) + 1e-6)
    return blocks.reshape(n, -1)


def normalised_turns(patches: list[np.ndarray], turns: int = 1) -> np.ndarray:
    """(crops * ``turns``, SIDE, SIDE) float images: each binary crop's ink scaled to fit a 20-pixel box, centred,
    at its first ``turns`` quarter turns anticlockwise, a crop's turns following one another.

    >>> ring = np.zeros((10, 5), np.uint8); ring[0], ring[-1], ring[:, 0], ring[:, -1] = 1, 1, 1, 1
    >>> def box(image):  # first and last row, first and last column with ink
    ...     rows, cols = np.flatnonzero(image.any(axis=1)), np.flatnonzero(image.any(axis=0))
    ...     return [int(rows[0]), int(rows[-1]), int(cols[0]), int(cols[-1])]
    >>> [box(image) for image in normalised_turns([ring], 2)]  # 20 pixels tall, then 20 wide
    [[2, 21, 7, 16], [7, 16, 2, 21]]
    """
    out = np.zeros((len(patches) * turns, SIDE, SIDE), np.float32)
    for i, patch in enumerate(patches):
        x, y, w, h = cv2.boundingRect(np.ascontiguousarray(patch, np.uint8))  # the ink's box (much faster than numpy's)
        if w == 0:
            continue
        box = patch[y:y + h, x:x + w].astype(np.float32)  # the box of each turn is this box turned
        # each crop turned before it is scaled, as a crop cut from a turned photo is: scaled first and then
        # turned, its pixels round differently (a scaling is not symmetric), and the network reads a pixel's shift
        for k in range(turns):
            _placed(np.ascontiguousarray(turned(box, k)), out[i * turns + k])
    return out


_BLOCK_MEANS = np.kron(np.eye(8), np.full((1, SIDE // 8), 8 / SIDE)).astype(np.float32)  # (8, SIDE): block averages


def describe_all(patches: list[np.ndarray], turns: int = 1, stack: np.ndarray | None = None) -> np.ndarray:
    """Feature rows of binary crops: HOG of the normalised image, the image itself at 8 x 8, and the crop's
    aspect ratio. With ``turns`` 4, each crop's rows for 0, 1, 2 and 3 quarter turns anticlockwise follow
    one another. ``stack``: the crops' ``normalised_turns``, when already made."""
    if stack is None:
        stack = normalised_turns(patches, turns)
    ratios = np.log([max(p.shape[0], 1) / max(p.shape[1], 1) for p in patches])
    aspects = (ratios[:, None] * (-1.0) ** np.arange(turns)[None, :]).ravel()
    # 8 x 8 by the mean of each 3 x 3 block (what an area resize does; cv2's takes at most 128 images at once), as
    # two matrix products: a tenth of the time of numpy's mean over the blocks' axes (the same to the last bit or so)
    small = (_BLOCK_MEANS @ stack @ _BLOCK_MEANS.T).reshape(len(stack), -1)
    return np.concatenate([hog(stack), small, aspects.astype(np.float32)[:, None]], axis=1).astype(np.float32)


def describe(patch: np.ndarray) -> np.ndarray:
    """Feature vector of one binary digit crop (see ``describe_all``)."""
    return describe_all([patch])[0]


@cache
def _weights() -> dict[str, np.ndarray]:
    """The network's arrays, the features' standardisation folded into the first layer (``predict`` then
    reads the feature rows as they are: a pass over every row less)."""
    with np.load(MODEL) as data:
        w = {k: data[k].astype(np.float64) for k in data.files}
    w["b1"] = w["b1"] - (w["mean"] / w["scale"]) @ w["w1"]
    w["w1"] = w["w1"] / w["scale"][:, None]
    return {k: v.astype(np.float32) for k, v in w.items()}


def predict(features: np.ndarray) -> np.ndarray:
    """Class probabilities (N, 4) for feature rows (N, F): the mean of the member networks' probabilities."""
    w = _weights()
    hidden = np.maximum(features @ w["w1"] + w["b1"], 0.0)
    members = len(w["w2"])
    # each member's hidden units through its own output layer: one batched product (members, N, classes)
    logits = np.matmul(hidden.reshape(len(features), members, -1).transpose(1, 0, 2), w["w2"]) + w["b2"][:, None]
    logits -= logits.max(axis=2, keepdims=True)
    p = np.exp(logits)
    return (p / p.sum(axis=2, keepdims=True)).mean(axis=0)


def image_inputs(patches: list[np.ndarray], images: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The convolutional network's inputs for binary crops: normalised images (N, 1, SIDE, SIDE) and the log
    of each crop's height over its width (N, 1). ``images``: the crops' ``normalised_turns``, when already made."""
    if images is None:
        images = normalised_turns(patches)
    aspects = np.log([max(p.shape[0], 1) / max(p.shape[1], 1) for p in patches]).astype(np.float32)[:, None]
    return images[:, None], aspects


@cache
def onnx_net(path: Path) -> onnxruntime.InferenceSession:
    """The ONNX network at ``path``, loaded once, run by ONNX Runtime on one thread (a batch already runs one
    photo per core). OpenCV's own inference reads these small networks the same to 1e-6 at a quarter of the
    speed."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def eight_bit(path: Path) -> Path:
    """Where the 8-bit twin of the trained ONNX network at ``path`` is kept: the network a scan runs, written
    by ``quantize`` (half the time, the same readings but for a few unsure ones).

    >>> eight_bit(Path("square_par.onnx")).name
    'square_par.int8.onnx'
    """
    return path.with_suffix(".int8.onnx")


def run_net(path: Path, inputs: dict[str, np.ndarray]) -> np.ndarray:
    """Class probabilities (softmax of its one output, the logits) of the ONNX network at ``path`` for named
    inputs."""
    return softmax(onnx_net(path).run(None, inputs)[0].astype(np.float64))


def softmax(logits: np.ndarray) -> np.ndarray:
    """Probabilities from log-odds along the last axis (each row normalised).

    >>> softmax(np.log(np.array([[1.0, 3.0], [2.0, 2.0]])))
    array([[0.25, 0.75],
           [0.5 , 0.5 ]])
    """
    p = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return p / p.sum(axis=-1, keepdims=True)


def predict_images(patches: list[np.ndarray], images: np.ndarray | None = None) -> np.ndarray:
    """Class probabilities (N, 4) of binary crops (already turned upright) by the convolutional network: three
    3 x 3 convolutions (16, 32, 32 channels, two 2 x 2 poolings) over the normalised image, then a hidden layer
    of 128 that also sees the crop's aspect ratio. Trained by ``digits_cnn`` on the same crops as ``predict``.
    ``images``: the crops' ``normalised_turns``, when already made."""
    images, aspects = image_inputs(patches, images)
    return run_net(eight_bit(CNN_MODEL), {"x": images, "a": aspects})


def read_digit(patch: np.ndarray) -> np.ndarray:
    """Probabilities of (3, 4, 5, other) for one binary crop."""
    return predict(describe(patch)[None])[0]


def read_rotations(patches: list[np.ndarray]) -> np.ndarray:
    """Probabilities (crops, 4 rotations, 4 classes): [i, k] is crop i turned k quarter turns anticlockwise.

    Every turn is read by the feature network (``predict``); a turn it reads as a par digit at all (more than
    ``MAYBE``) is read instead by the convolutional network (``predict_images``), which tells digits from
    flags, stubs and fragments better but costs several times more a crop.
    """
    return _read(patches, 4)


def read_turned(patches: list[np.ndarray], turns: int) -> np.ndarray:
    """Probabilities (crops, 4 classes) of crops turned ``turns`` quarter turns anticlockwise, read as
    ``read_rotations`` reads each turn: when the plan's orientation is known, a quarter of the work."""
    return _read([np.ascontiguousarray(turned(p, turns)) for p in patches], 1)[:, 0]


def _read(patches: list[np.ndarray], turns: int) -> np.ndarray:
    """Probabilities (crops, ``turns``, 4 classes) of crops read at their first ``turns`` quarter turns: every
    turn by the feature network, and each turn it reads as a par digit at all read again by the
    convolutional network (``read_rotations``).
    """
    stack = normalised_turns(patches, turns)
    probs = predict(describe_all(patches, turns, stack)).reshape(len(patches), turns, len(LABELS))
    # (crop, turn) pairs: most crops read as a digit at one turn or at none, so few reach the slower network,
    # which reads the images the feature network's were made from
    maybe = np.argwhere(probs[:, :, :3].max(axis=2) > MAYBE)
    if len(maybe):
        probs[maybe[:, 0], maybe[:, 1]] = predict_images([turned(patches[i], turn) for i, turn in maybe],
                                                         stack[maybe[:, 0] * turns + maybe[:, 1]])
    return probs


def _slanted(patch: np.ndarray, slant: float) -> np.ndarray:
    """A binary crop sheared sideways by ``slant`` (x shift per pixel up), as a more slanted hand writes."""
    h, w = patch.shape
    pad = int(np.ceil(abs(slant) * h)) + 1
    m = np.float32([[1, slant, pad - (slant * h if slant > 0 else 0)], [0, 1, 0]])
    return (cv2.warpAffine(patch.astype(np.uint8), m, (w + 2 * pad, h)) > 0).astype(np.uint8)


def steady(patches: list[np.ndarray], turns: int) -> list[bool]:
    """Whether each crop, read turned ``turns`` quarter turns, stays the same par digit with a pixel of ink
    more and a pixel less round its strokes, and is read as no other par when written more or less
    slanted: a reading that flips with that is a guess. All the crops' variants are read in one batch."""
    variants, inked_counts = [], []
    k = np.ones((2, 2), np.uint8)
    for patch in patches:
        upright = np.ascontiguousarray(np.rot90(patch, turns))
        thin = cv2.erode(upright, k)
        inked = [upright, cv2.dilate(upright, k)] + ([thin] if thin.sum() >= 8 else [])
        variants += inked + [_slanted(upright, slant) for slant in SLANTS]
        inked_counts.append(len(inked))
    if not variants:
        return []
    all_probs = predict(describe_all(variants))[:, :3]  # upright only: the crops are already turned
    verdicts, start = [], 0
    for count in inked_counts:
        probs = all_probs[start:start + count + len(SLANTS)]
        start += count + len(SLANTS)
        value = int(probs[0].argmax())
        same_ink = bool((probs[:count].argmax(axis=1) == value).all() and probs[:count].max(axis=1).min() > 0.5)
        other = np.delete(probs[count:], value, axis=1)
        verdicts.append(same_ink and float(other.max()) <= 0.5)
    return verdicts


# ---------------------------------------------------------------------------------------------------------
# Training (build step): rendered digits and non-digits -> a one-hidden-layer network stored as numpy arrays.

FONT_DIR = Path("/usr/share/fonts/truetype")
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
           cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX, cv2.FONT_HERSHEY_PLAIN)


def _render_text(text: str, rng: np.random.Generator, fonts: list) -> np.ndarray:
    """One glyph drawn large on a blank canvas with a random typeface and stroke."""
    canvas = np.zeros((96, 96), np.uint8)
    font = fonts[rng.integers(len(fonts))]
    if isinstance(font, int):
        italic = cv2.FONT_ITALIC if rng.random() < 0.3 else 0
        cv2.putText(canvas, text, (24, 76), font | italic, 2.2, 255, int(rng.integers(2, 7)), cv2.LINE_AA)
    else:
        from PIL import Image, ImageDraw, ImageFont

        img = Image.new("L", (96, 96), 0)
        ImageDraw.Draw(img).text((22, 4), text, fill=255, font=ImageFont.truetype(str(font), 70))
        canvas = np.asarray(img).copy()
        k = int(rng.integers(0, 3))
        if k:
            canvas = cv2.dilate(canvas, np.ones((k + 1, k + 1), np.uint8))
    return canvas


def _render_hand(text: str, rng: np.random.Generator, flag: bool = False) -> np.ndarray:
    """A digit (or a flag) drawn stroke by stroke by a random hand and pen of the fixtures' art module."""
    from fixtures.art.eighteen import pen as art

    ink = art.Ink(96, 96, 8.0, rng)
    pen, hand = art.random_pen(rng), art.random_hand(rng)
    if flag:
        art.draw_flag(ink, pen, hand, rng, (6.0, 10.5), 8.0)
    else:
        art.write(ink, pen, hand, rng, text, (6.0, 6.0), 8.0)
    cover = sum(ink.layers.values())
    return (255 * cover / max(float(cover.max()), 1e-6)).astype(np.uint8)


def _render_other(rng: np.random.Generator) -> np.ndarray:
    """A non-digit mark: a flag, a stroke fragment, a loop, a squiggle, a corner or a blot."""
    canvas = np.zeros((96, 96), np.uint8)
    t = int(rng.integers(4, 9))
    kind = rng.integers(6)
    if kind == 0:  # flag on a pole
        x, top, bottom = int(rng.integers(30, 60)), int(rng.integers(8, 25)), int(rng.integers(60, 90))
        cv2.line(canvas, (x, top), (x, bottom), 255, t)
        side = 1 if rng.random() < 0.5 else -1
        pts = np.array([[x, top], [x + side * int(rng.integers(15, 35)), top + 10], [x, top + 22]], np.int32)
        if rng.random() < 0.5:
            cv2.fillPoly(canvas, [pts], 255)
        else:
            cv2.polylines(canvas, [pts], False, 255, t)
        if rng.random() < 0.5:
            cv2.ellipse(canvas, (x, bottom), (10, 4), 0, 0, 360, 255, max(2, t // 2))
    elif kind == 1:  # straight stroke
        a, b = rng.integers(5, 90, size=2), rng.integers(5, 90, size=2)
        cv2.line(canvas, tuple(int(v) for v in a), tuple(int(v) for v in b), 255, t)
    elif kind == 2:  # loop
        cv2.ellipse(canvas, (48, 48), (int(rng.integers(10, 40)), int(rng.integers(10, 40))),
                    float(rng.uniform(0, 180)), 0, float(rng.uniform(200, 360)), 255, t)
    elif kind == 3:  # squiggle
        pts = np.cumsum(rng.normal(0, 14, size=(6, 2)), axis=0) + 48
        cv2.polylines(canvas, [pts.astype(np.int32).reshape(-1, 1, 2)], False, 255, t)
    elif kind == 4:  # corner of two strokes
        c = rng.integers(25, 70, size=2)
        cv2.line(canvas, (int(c[0]), 5), (int(c[0]), int(c[1])), 255, t)
        cv2.line(canvas, (int(c[0]), int(c[1])), (90, int(c[1])), 255, t)
    else:  # a blot: a filled lump (a pennant, a tree, shading run together)
        a = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(4, 9))))
        r = rng.uniform(12, 40) * rng.uniform(0.5, 1.0, len(a))
        pts = np.c_[48 + r * np.cos(a), 48 + rng.uniform(0.6, 1.6) * r * np.sin(a)]
        cv2.fillPoly(canvas, [pts.astype(np.int32)], 255)
    return canvas


def _distort(canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random hand-like slant, rotation, scale, blur and binarisation."""
    angle = rng.uniform(-14, 14)
    shear = rng.uniform(-0.3, 0.3)
    m = cv2.getRotationMatrix2D((48, 48), angle, rng.uniform(0.8, 1.1))
    m[0, 1] += shear
    m[0, 2] -= shear * 48
    out = cv2.warpAffine(canvas, m, (96, 96))
    out = cv2.resize(out, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)  # digit ~15-25 px tall
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.0))
    return (out > rng.uniform(70, 150)).astype(np.uint8)


def training_set(n_per_class: int, seed: int = 0) -> list[tuple[np.ndarray, int, int]]:
    """Lone digits and marks: (binary crop, quarter turns 0, label)."""
    rng = np.random.default_rng(seed)
    fonts: list = list(HERSHEY) + sorted(FONT_DIR.rglob("*.ttf"))
    xs, ys = [], []
    def digit(text: str) -> np.ndarray:  # a third typeset, two thirds handwritten
        return _render_text(text, rng, fonts) if rng.random() < 0.33 else _render_hand(text, rng)

    def sample(make) -> np.ndarray:
        while True:  # a mark that comes out too small to read is drawn anew
            patch = _distort(make(), rng)
            ys, xs = np.nonzero(patch)
            if len(xs) >= 8 and max(np.ptp(xs), np.ptp(ys)) >= 6:
                return patch

    for label, text in enumerate(("3", "4", "5")):
        for _ in range(n_per_class):
            xs.append(sample(lambda text=text: digit(text)))
            ys.append(label)
    makers = (  # a par digit turned (not upright, so "other": this is what finds the orientation), a flag,
        lambda: np.ascontiguousarray(np.rot90(digit("345"[int(rng.integers(3))]), int(rng.integers(1, 4)))),
        lambda: _render_hand("", rng, flag=True),  # ... and other marks
        lambda: _render_other(rng),
    )
    for i in range(n_per_class * 3):
        xs.append(sample(makers[i % 3]))
        ys.append(3)
    return [(patch, 0, label) for patch, label in zip(xs, ys, strict=True)]


def train_model(x: np.ndarray, y: np.ndarray, seed: int = 0) -> dict[str, np.ndarray]:
    """Train the digit network on feature rows (needs scikit-learn, a development dependency); its arrays."""
    from sklearn.neural_network import MLPClassifier

    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    net = MLPClassifier(hidden_layer_sizes=(HIDDEN,), alpha=1e-3, max_iter=400, early_stopping=True,
                        random_state=seed)
    net.fit((x - mean) / scale, y)
    return {"mean": mean, "scale": scale, "w1": net.coefs_[0], "b1": net.intercepts_[0],
            "w2": net.coefs_[1], "b2": net.intercepts_[1]}


def build(squares: int = SQUARES, seed: int = 0) -> dict[str, np.ndarray]:
    """Training data (candidates of drawn squares, plus lone digits and marks) -> network arrays."""
    from scanner.games.eighteen.digits_train import square_training_set

    return train_on(square_training_set(squares, seed) + training_set(LONE, seed), seed)


def train_on(samples: list[tuple[np.ndarray, int, int]], seed: int = 0) -> dict[str, np.ndarray]:
    """Network arrays from labelled crops, each upright digit also trained once more varied: ``MEMBERS``
    networks from different starting weights, their hidden layers side by side."""
    from scanner.games.eighteen.digits_train import features, varied

    x, y = features(samples + varied(samples, np.random.default_rng(seed)))
    nets = [train_model(x, y, seed + m) for m in range(MEMBERS)]
    return {"mean": nets[0]["mean"], "scale": nets[0]["scale"],
            "w1": np.concatenate([n["w1"] for n in nets], axis=1), "b1": np.concatenate([n["b1"] for n in nets]),
            "w2": np.stack([n["w2"] for n in nets]), "b2": np.stack([n["b2"] for n in nets])}


def save(arrays: dict[str, np.ndarray]) -> None:
    """Write the network to ``MODEL``: weights at half precision (they keep far more digits than matter)."""
    np.savez_compressed(MODEL, **{k: v.astype(np.float32 if k in ("mean", "scale") else np.float16)
                                  for k, v in arrays.items()})


if __name__ == "__main__":
    save(build())
    _weights.cache_clear()
    from scanner.games.eighteen.digits_train import features, square_training_set

    x_test, y_test = features(square_training_set(SQUARES // 10, seed=1))
    accuracy = float((predict(x_test).argmax(axis=1) == y_test).mean())
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} KiB); held-out accuracy {accuracy:.3f}")

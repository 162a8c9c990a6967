"""Read which two edges a fairway joins from the square and the ends of its neighbours, all at once.

The stroke reading (``classify._fairway``) takes the two edges a fairway's strokes reach furthest; where a
pen's strokes reach a third edge nearly as far (a bend drawn wide, hatching that runs into the printed line, a
neighbour's ink crossing over), the pair it picks is a toss-up. This reader looks at the square with a margin
of ``CONTEXT`` of its side all round, so that it sees whether the fairway goes on across each edge, and says
which of the six edge pairs (``CLASSES``) is drawn.

Trained on photographed plans only (``photo_fairways``): ``PER_PHOTO`` fairways of each synthetic photo at
random, cut where its truth file puts the grid, each at all four turns and both mirror images (a fairway has no
top and no hand). Run ``python -m scanner.games.eighteen.fairway_edges FOLDER... HELD_OUT_FOLDER`` (needs
PyTorch, ``pip install -e .[train]``) to rebuild ``fairway_edges.onnx``: it starts from ``square_edges``'s
convolutions and prints its accuracy on the held-out folder's fairways.

The committed network was trained so on the 1,400 plans of seeds 24202-24802 (16,800 fairways, 134,400 inputs; 18
minutes on two cores) and held out on 25102: 2,400 of 2,400 fairways read right. A scan asks it only about the
fairways still in doubt once their neighbours have been heard (``ASK``), so it runs at 32 bits, with no 8-bit
twin. On the 1,599 plans of seeds 25202-25902 read on the right grid, 1,829 of their 62,506 fairways were so asked
(1,819 of them truly fairways): the strokes had read 1,766 right, the reader read 1,810. Taking its pair when it
is at least ``SWITCH`` sure of another mended 49 and broke 2 (one on a plan whose grid lines are poorly
confirmed); at 0.5 it broke 5, at 0.99 it mended 40. Asking every fairway as well would mend 3 of the 9 read wrong
of the 60,677 read 0.95 sure or more, and break 1, at 39 asks a plan. Of the fairways flagged for their edges
where the reader agrees 0.99 sure, 2 of 1,545 were wrong, both no fairway at all (a faint square, a scribble): the
reader vouches for edges, not for the kind, and the flags stay as they were.

Example:
    >>> import numpy as np, cv2
    >>> img = np.full((300, 300, 3), 235, np.uint8)
    >>> for x in (100, 200): _ = cv2.line(img, (x, 0), (x, 299), (60, 60, 60), 2)
    >>> for y in (100, 200): _ = cv2.line(img, (0, y), (299, y), (60, 60, 60), 2)
    >>> for x in (135, 165): _ = cv2.line(img, (x, 90), (x, 210), (120, 40, 30), 3)  # a fairway from N to S
    >>> quad = np.float32([[100, 100], [200, 100], [200, 200], [100, 200]])
    >>> CLASSES[int(np.argmax(read_fairways(image_context(img, [quad]))[0]))]
    ('N', 'S')
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scanner.games.eighteen.classify import Guess, turned_fairway
from scanner.games.eighteen.digits import run_net
from scanner.games.eighteen.features import EDGES
from scanner.games.eighteen.parmarks import PAD, square_ink
from scanner.games.eighteen.plan import rotate_edge
from scanner.games.eighteen.square_par import inputs

MODEL = Path(__file__).with_name("fairway_edges.onnx")
CLASSES = tuple((a, b) for i, a in enumerate(EDGES) for b in EDGES[i + 1:])
SIDE = 64  # the crop (square and margin) is shrunk to this many pixels a side
CONTEXT = 0.3  # margin of the crop beyond the square on every side, share of the side
LAYOUT = 4  # regions a side kept by the network's last pooling
WIDTHS = (16, 32, 64, 64, 96)  # channels of its five convolutions (``square_par.network``)
PER_PHOTO = 12  # fairways taken at random from each training photo
EPOCHS, BATCH, SHIFT, RATE = 3, 128, 3, 1e-3  # passes, batch size, random shift (pixels), peak training rate
MIRROR = {"E": "W", "W": "E"}  # a crop flipped left to right
ASK = 0.95  # fairways the strokes read less surely than this are asked (1.1 a plan on average)
SWITCH = 0.8  # ... and take the reader's pair when it is at least this sure of it


def image_context(image: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
    """Ink crops (``parmarks.square_ink``) of squares (corners TL, TR, BR, BL in ``image``'s pixels), each with a
    margin of ``CONTEXT`` of the side beyond the square: each square grown so that ``square_ink``'s own margin
    (``PAD``) reaches that far."""
    grown = []
    for quad in quads:
        centre = quad.mean(axis=0)
        grown.append(np.float32(centre + (quad - centre) * (1 + 2 * CONTEXT) / (1 + 2 * PAD)))
    return [square_ink(image, quad, SIDE) for quad in grown]


def read_fairways(crops: list[np.ndarray]) -> np.ndarray:
    """Probabilities (N, 6) of the edge pairs of ``CLASSES`` for upright crops of ``image_context``."""
    if not crops:
        return np.zeros((0, len(CLASSES)))
    return run_net(MODEL, {"x": inputs(crops, SIDE)})


def with_whole_reading(guess: Guess, probs: np.ndarray) -> Guess:
    """A fairway ``guess`` with the edge pair this reader gives it (``probs`` in ``CLASSES`` order) when the reader
    is at least ``SWITCH`` sure of another pair than the strokes', the strokes' pair offered first; else ``guess``.
    The confidence stays the strokes': it is what decides the review, and the reader is sure of some squares that
    are no fairway at all.

    >>> read = Guess({"k": "fairway", "edges": ["N", "S"]}, 0.3, (({"k": "fairway", "edges": ["E", "S"]}, 0.6),))
    >>> turned = with_whole_reading(read, np.float32([0.01, 0, 0, 0.98, 0.01, 0]))
    >>> turned.value["edges"], [(alt["edges"], round(p, 2)) for alt, p in turned.alternatives], turned.confidence
    (['E', 'S'], [(['N', 'S'], 0.3)], 0.3)
    >>> with_whole_reading(read, np.float32([0, 0.9, 0, 0.1, 0, 0])) is read
    True
    """
    best = int(np.argmax(probs))
    pair = sorted(CLASSES[best], key=EDGES.index)
    if probs[best] < SWITCH or pair == guess.value["edges"]:
        return guess
    return turned_fairway(guess, pair, "edges read from the whole square")


def label(edges: list[str], turns: int = 0, mirrored: bool = False) -> int:
    """The ``CLASSES`` index of a fairway joining ``edges``, its crop mirrored left to right (first) and turned
    ``turns`` quarter turns anticlockwise.

    >>> CLASSES[label(["N", "E"], 1)], CLASSES[label(["N", "E"], 0, True)]
    (('N', 'W'), ('N', 'W'))
    """
    moved = {rotate_edge(MIRROR.get(e, e) if mirrored else e, turns) for e in edges}
    return next(i for i, pair in enumerate(CLASSES) if set(pair) == moved)


def photo_fairways(photo: Path, seed: int = 0) -> tuple[np.ndarray, list[list[str]]] | None:
    """Inputs (``inputs`` at ``SIDE``, float16) and edges of ``PER_PHOTO`` of one synthetic ``photo``'s fairways
    (random stream (seed, photo's name)), cut upright from the true grid; None without a truth file or fairway."""
    from scanner.games.eighteen.truth_photos import square_quad, with_truth

    known = with_truth(photo)
    if known is None:
        return None
    loaded, truth, grid = known
    cells = truth["board"]["cells"]
    fairways = [(r, c) for r, row in enumerate(cells) for c, cell in enumerate(row) if cell["k"] == "fairway"]
    if not fairways:
        return None
    picked = np.random.default_rng([seed, *photo.name.encode()]).permutation(len(fairways))[:PER_PHOTO]
    chosen = [fairways[i] for i in picked]
    quads = [square_quad(grid, r, c) for r, c in chosen]
    return (inputs(image_context(loaded.image, quads), SIDE).astype(np.float16),
            [cells[r][c]["edges"] for r, c in chosen])


def photographed_fairways(folders: list[Path], jobs: int = 2) -> tuple[np.ndarray, list[list[str]]]:
    """``photo_fairways`` of every synthetic photo in ``folders``, as float32."""
    from scanner.games.eighteen.truth_photos import read_photos

    parts = read_photos(folders, photo_fairways, jobs, progress=True)
    if not parts:
        raise ValueError("no photo with a truth file and a fairway")
    return np.concatenate([x for x, _ in parts]).astype(np.float32), [e for _, edges in parts for e in edges]


def every_turn(x: np.ndarray, edges: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and labels of fairways at each of the four quarter turns, unmirrored and mirrored."""
    xs, ys = [], []
    for mirrored in (False, True):
        flipped = x[..., ::-1] if mirrored else x
        for k in range(4):
            xs.append(np.rot90(flipped, k, axes=(2, 3)))
            ys.append([label(e, k, mirrored) for e in edges])
    return np.ascontiguousarray(np.concatenate(xs)), np.concatenate(ys)


if __name__ == "__main__":
    import sys

    from scanner.games.eighteen.digits import onnx_net
    from scanner.games.eighteen.digits_cnn import export, fit
    from scanner.games.eighteen.square_edges import MODEL as EDGE_MODEL
    from scanner.games.eighteen.square_par import network, with_weights

    *folders, held_out = (Path(a) for a in sys.argv[1:])
    x, y = every_turn(*photographed_fairways(folders))
    net = with_weights(network(13, LAYOUT, WIDTHS), EDGE_MODEL)  # the edge reader's convolutions, a new last layer
    net[-1] = network(len(CLASSES), LAYOUT, WIDTHS)[-1]
    net = fit(net, (x,), y, EPOCHS, BATCH, SHIFT, peak_rate=RATE)
    export(net, (np.zeros((1, 1, SIDE, SIDE), np.float32),), ("x",), MODEL)
    onnx_net.cache_clear()
    held_x, held_edges = photographed_fairways([held_out])
    read = run_net(MODEL, {"x": held_x}).argmax(axis=1)
    truth = np.array([label(e) for e in held_edges])
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} KiB); held-out accuracy {(read == truth).mean():.4f} "
          f"on {len(truth)} fairways")

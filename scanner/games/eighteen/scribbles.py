"""Tell a square scribbled out from a hazard drawn large: a small network over the square's whole ink.

A player who draws a feature in the wrong square scribbles it out, leaving the square empty; a heavy pen's
trees, bunkers and lakes can cover as much of a square with one looping piece of ink. Counting the paper
pockets the ink encloses (``eighteen.loops``) tells most of them apart, but a scribble in a broad or dark pen
runs its loops together, and a lake or tree drawn over a printed symbol encloses as many pockets as a
scribble. This reader looks at the square's ink as ``square_par`` does (the same input, at ``SIDE`` pixels a
side, with the same convolutions at ``WIDTHS`` channels) and says how likely the square is scribbled out.
It is asked only about squares read as a tree, bunker or lake with one large looping piece of ink
(``eighteen.looping_piece``); either reading stays flagged, with the other offered.

Trained on photographed plans only (``photographed``): every square scribbled out whole and ``HAZARDS`` of
the trees, bunkers and lakes of each synthetic photo (half of them those with the most ink, half at random), cut where its truth file puts the grid,
each at all eight turns and mirror images (a scribble has no top, and a hazard turned over is no scribble).
Run ``python -m scanner.games.eighteen.scribbles FOLDER...`` (needs PyTorch, ``pip install -e .[train]``) to
rebuild ``scribbles.onnx``; the folder given last is held out, and its accuracy on scribbles and on hazards
is printed. A plan holds a few such squares at most, so the network runs at 32 bits (no 8-bit twin).

The committed network was trained on the 1,400 plans of seeds 17002-17402, 15352 and 16302 (about 9 minutes on
two cores) and held out on 16502: it read all 57 scribbles and 1,599 of 1,600 hazards there right. Over the
whole plans, where the loop count read 11 of the 46 looping scribbles of 16502 as hazards and 8 of its 136
looping hazards as scribbles, plans exactly right went from 77.5% to 82.5% (with ``printcolour``'s change of
the same round) and on the fresh seed 16602 from 77% to 81%; the outside plans read as before. Trained also on
the most inked fairways and asked about every looping fairway (2,985 in the plans of 16602, 19 of them
scribbled over), it righted five fairways scribbled over and broke four shaded ones, even when a fairway had to
be 0.97 sure: not kept; a fairway's loops are still counted (``eighteen.stray_fairway``).

Example:
    >>> import numpy as np, cv2
    >>> from scanner.games.eighteen.parmarks import square_ink
    >>> img = np.full((200, 200, 3), 235, np.uint8)
    >>> _ = cv2.rectangle(img, (50, 50), (150, 150), (60, 60, 60), 2)
    >>> rng = np.random.default_rng(0)
    >>> for x, y in rng.uniform(70, 130, (40, 2)).astype(int):
    ...     _ = cv2.circle(img, (int(x), int(y)), 12, (120, 40, 30), 3)
    >>> quad = np.float32([[50, 50], [150, 50], [150, 150], [50, 150]])
    >>> float(scribbled_probability([square_ink(img, quad)])[0]) > 0.5
    True
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scanner.games.eighteen.digits import run_net
from scanner.games.eighteen.square_par import inputs

MODEL = Path(__file__).with_name("scribbles.onnx")
SIDE = 64  # the square's ink crop is shrunk to this many pixels a side
WIDTHS = (16, 32, 64, 64, 96)  # channels of the network's five convolutions (``square_par.network``)
HAZARDS = 8  # trees, bunkers and lakes taken from each training photo (its scribble, if any, is one square)
EPOCHS, BATCH, SHIFT = 6, 128, 3  # training passes, batch size, random shift (pixels) of each batch
HAND_DRAWN = ("tree", "bunker", "water")
INKED = 0.3  # input strength taken as ink when a hazard's ink is measured


def scribbled_probability(inks: list[np.ndarray]) -> np.ndarray:
    """How likely each square ink crop (``parmarks.square_ink``, any turn) is a square scribbled out rather
    than a tree, bunker or lake."""
    return run_net(MODEL, {"x": inputs(inks, SIDE)})[:, 1]


def photo_squares(photo: Path, seed: int = 0) -> tuple[np.ndarray, np.ndarray] | None:
    """Inputs (``inputs`` at ``SIDE``, float16) and labels (1: scribbled out) of one synthetic ``photo``'s
    squares scribbled out whole and up to ``HAZARDS`` of its hazards (half the most inked, half picked by the
    random stream (seed, photo's name)), cut from the true grid; None without a truth file or any such square."""
    from scanner.games.eighteen.parmarks import square_ink
    from scanner.games.eighteen.truth_photos import with_truth

    known = with_truth(photo)
    if known is None:
        return None
    loaded, truth, grid = known
    cells = truth["board"]["cells"]
    scribbled = [tuple(rc) for rc in truth.get("scribbled_out", [])]
    hazards = [(r, c) for r, row in enumerate(cells) for c, cell in enumerate(row)
               if cell["k"] in HAND_DRAWN and (r, c) not in scribbled]
    if not scribbled + hazards:
        return None
    quads = [np.float32([grid[r, c], grid[r, c + 1], grid[r + 1, c + 1], grid[r + 1, c]]) for r, c in scribbled + hazards]
    x = inputs([square_ink(loaded.image, quad) for quad in quads], SIDE)
    # the hazards with the most ink are the ones a scribble can be taken for: half of those taken are those
    inked = np.argsort(-(x[len(scribbled):] > INKED).mean(axis=(1, 2, 3)))
    heavy, rest = inked[:HAZARDS // 2], inked[HAZARDS // 2:]
    picked = np.concatenate([heavy, np.random.default_rng([seed, *photo.name.encode()]).permutation(rest)])[:HAZARDS]
    keep = np.concatenate([np.arange(len(scribbled)), len(scribbled) + picked]).astype(int)
    return x[keep].astype(np.float16), np.array([1] * len(scribbled) + [0] * len(picked))


def photographed(folders: list[Path], jobs: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``photo_squares`` of every synthetic photo in ``folders``, each square at its eight turns and mirror
    images (float32 inputs, labels)."""
    from scanner.games.eighteen.truth_photos import read_photos

    parts = read_photos(folders, photo_squares, jobs)
    if not parts:
        raise ValueError("no photo with a truth file and a scribble or hazard")
    x, y = np.concatenate([x for x, _ in parts]).astype(np.float32), np.concatenate([y for _, y in parts])
    turned = [np.rot90(x, k, axes=(2, 3)) for k in range(4)]
    return np.ascontiguousarray(np.concatenate(turned + [t[:, :, :, ::-1] for t in turned])), np.tile(y, 8)


if __name__ == "__main__":
    import sys

    from scanner.games.eighteen.digits import onnx_net
    from scanner.games.eighteen.digits_cnn import export, fit
    from scanner.games.eighteen.square_par import network

    if len(sys.argv) < 3:
        print("usage: python -m scanner.games.eighteen.scribbles FOLDER... HELD_OUT_FOLDER (synthetic photos with "
              "truth)", file=sys.stderr)
        raise SystemExit(2)
    x, y = photographed([Path(a) for a in sys.argv[1:-1]])
    net = fit(network(2, 1, WIDTHS), (x,), y, EPOCHS, BATCH, SHIFT)
    export(net, (np.zeros((1, 1, SIDE, SIDE), np.float32),), ("x",), MODEL)
    onnx_net.cache_clear()
    parts = [p for p in (photo_squares(photo) for photo in sorted(Path(sys.argv[-1]).glob("*.jpg"))) if p]
    held_x, held_y = np.concatenate([x for x, _ in parts]).astype(np.float32), np.concatenate([y for _, y in parts])
    read = run_net(MODEL, {"x": held_x}).argmax(axis=1)
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} KiB); held out: scribbles "
          f"{(read[held_y == 1] == 1).mean():.3f} of {(held_y == 1).sum()}, hazards "
          f"{(read[held_y == 0] == 0).mean():.3f} of {(held_y == 0).sum()}")

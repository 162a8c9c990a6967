"""Which way is up on a tee/green square, read from its par digit in the whole square at once.

A plan's orientation is in its handwriting alone: the par digits (and the trees) stand upright on the sheet,
the grid does not. The digit reader (``digits``) tells it from the ink pieces ``parmarks`` cuts out, read at
each of the four turns, which costs the cut and four readings a square. This reader looks at the square's ink
as ``square_edges`` does (``square_par.inputs`` at 64 pixels a side, in the rectified frame as cut) and says how
many quarter turns anticlockwise make its par digit upright, or that it holds no par digit: the convolutions of
``square_par.network``, narrower, with the strongest response anywhere in the square (a digit may be anywhere).
Its readings of a plan's tee/greens settle the orientation (``plan_turn``) when they agree surely;
otherwise the digit reader settles it as before.

Trained from the start on the tee/green squares and four fairways of each photographed plan in the folders
given, cut as a scan cuts them (``photo_squares``), each at all four turns (a fairway and a tee/green with no par
digit are "no digit" at every turn): run ``python -m scanner.games.eighteen.square_turn FOLDER...`` (needs
PyTorch, ``pip install -e .[train]``), then ``quantize --only square_turn FOLDER``. It prints the accuracy on
drawn squares (``square_par.drawn_squares`` of the held-out seed), each at the four turns.

The committed network was trained on the 788 usable plans of seeds 22902, 23502, 23602 and 23702 (18,336 squares,
73,344 with their turns; 6 passes, 19 minutes on two cores), its twin set on seed 22902. On the squares of seed
23802 as the scanner cut them it read the turn of 98.5% of the 15,480 with a digit and took 3 of the 3,184 fairways
for one. Over those 200 plans, each turned all four ways, the first ten tee/greens of each, read at all four
turns (``read_turns``), settled all 800 orientations right, the least sure at 0.9945 (``EARLY_SURE`` is 0.99; read
once each, all of them settled every one right too); of the other hand's six plans, four at 0.993 to 0.9999, and two
(0.978 and 0.982) were left to the digit pieces, which read them right. Held-out drawn squares:
0.962 (the digits' turn 0.956, the fairways 1.000). A network trained first on squares cut upright from the true
grid read 99% of such squares right, yet a third of the scanner's wrong (a turn of one half most often).

Example (three squares drawn by the project's art, each at the four turns):
    >>> from scanner.games.eighteen.square_edges import turned_set
    >>> from scanner.games.eighteen.square_par import drawn_squares
    >>> squares, cells = drawn_squares(HELD_OUT_SEED, 3, SIDE, jobs=1)  # as ``inputs`` gives them
    >>> turned, labels = turned_set(squares, cells, label)
    >>> [CLASSES[i] for i in labels]
    [0, 0, 0, 3, 3, 3, 2, 2, 2, 1, 1, 1]
    >>> bool((run_net(eight_bit(MODEL), {"x": turned}).argmax(axis=1) == labels).all())
    True
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scanner.games.eighteen.digits import eight_bit, run_net
from scanner.games.eighteen.plan import EARLY_SURE, Orientation, weighed_turns
from scanner.games.eighteen.square_par import chosen_squares, inputs

MODEL = Path(__file__).with_name("square_turn.onnx")
CLASSES = (0, 1, 2, 3, None)  # quarter turns anticlockwise that make the par digit upright; None: no par digit
SIDE = 64  # the square's ink crop is shrunk to this many pixels a side
WIDTHS = (16, 32, 48, 48, 64)  # channels of its five convolutions (``square_par.network``)
HELD_OUT_SEED, HELD_OUT = 1, 1500
EPOCHS, BATCH, SHIFT = 6, 128, 3  # training passes, batch size, random shift (pixels) of each batch
SQUARES_READ = 10  # tee/greens a plan's way up is read from (each four times): over the 200 plans of seed 23802, each
# turned four ways, ten settled every orientation right at 0.9945 or surer, eight at 0.9858 or surer (8 unsure)
SQUARES_FIRST = 4  # ... the first of them read alone, the rest only when these leave the way up unsure: of those 200
# plans (as photographed) four settled 198 at 0.992 or surer, each the way ten do, and of 56 hard photos 34, each so


def read_turns(inks: list[np.ndarray]) -> np.ndarray:
    """Probabilities (N, 5) of ``CLASSES`` for square ink crops (``parmarks.square_ink``) as cut, unturned: each
    square is read at all four turns, and the turn it needs is the one those readings agree on (the reading of the
    square turned k times, moved back by k: their geometric mean). A leaning the network has whichever way a square
    is turned cancels out: a printed font's upright 3, 4 or 5 each read alone as needing three turns, at every turn
    alike; their four readings agree on no turn (0.4-0.47 for the likeliest), and twelve such squares settle no way up
    (0.51-0.60, below ``plan.EARLY_SURE``)."""
    if not inks:
        return np.zeros((0, len(CLASSES)))
    x = inputs(inks, SIDE)
    probs = run_net(eight_bit(MODEL), {"x": np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in range(4)])})
    probs = probs.reshape(4, len(inks), len(CLASSES))
    # the square turned k times needs k turns fewer: its reading of t - k turns is moved to t
    agreed = np.exp(np.mean([np.log(np.roll(probs[k, :, :4], k, axis=1) + 1e-6) for k in range(4)], axis=0))
    digit = 1.0 - probs[:, :, -1].mean(axis=0)
    return np.column_stack([agreed / agreed.sum(axis=1, keepdims=True) * digit[:, None], 1.0 - digit])


def plan_turn(inks: list[np.ndarray], up_votes: np.ndarray) -> Orientation:
    """Which way is up on a plan (``plan.weighed_turns``), from its tee/greens' ink crops as cut (``read_turns``) and
    other up-cues (``up_votes``): the first ``SQUARES_FIRST`` read, and when they leave it less sure than
    ``plan.EARLY_SURE``, all of the first ``SQUARES_READ`` together."""
    read = read_turns(inks[:SQUARES_FIRST])
    orient = weighed_turns(read[:, :4], up_votes)
    if orient.confidence < EARLY_SURE and len(inks) > SQUARES_FIRST:
        read = np.concatenate([read, read_turns(inks[SQUARES_FIRST:SQUARES_READ])])
        orient = weighed_turns(read[:, :4], up_votes)
    return orient


def label(cell: dict, turns: int = 0) -> int:
    """The ``CLASSES`` index of a board cell drawn upright, then turned ``turns`` quarter turns anticlockwise.

    >>> label({"k": "teegreen", "par": 4}, 1), label({"k": "teegreen", "par": None}, 1), label({"k": "fairway"})
    (3, 4, 4)
    """
    if cell["k"] != "teegreen" or cell.get("par") is None:
        return len(CLASSES) - 1
    return -turns % 4


def photo_squares(photo: Path, seed: int = 0) -> tuple[np.ndarray, np.ndarray] | None:
    """Inputs (float16) and labels of one synthetic ``photo``'s tee/green squares and some of its fairways
    (``square_par.chosen_squares``), each at all four turns; None when the scanner does not find the grid
    where the truth puts it (``squares.scanned_truth``) or the plan has no tee/green. Each square is cut as a scan
    cuts it: from the scanner's own grid, in its rectified frame, however the photo was turned. Cut from the true
    grid, upright, every square shares the cut's own slight lean (a border line a pixel bolder on one side, say),
    which turns with the square: a network learnt the way up from that and misread a third of a scan's squares."""
    from scanner.games.eighteen.parmarks import square_ink
    from scanner.games.eighteen.square_edges import turned_set
    from scanner.games.eighteen.squares import scanned_truth

    known = scanned_truth(photo)
    if known is None:
        return None
    chosen = chosen_squares(known.cells, photo, seed)
    if not chosen:
        return None
    geo = known.cut.geometry
    cols = geo.lattice.cols
    x = inputs([square_ink(known.loaded.image, geo.rectified.to_photo(geo.lattice.cell_quad(i // cols, i % cols)))
                for i in chosen], SIDE)
    # as cut, a square is its upright drawing turned back by the scanner's frame's turns
    turned, labels = turned_set(x, [known.cells[i] for i in chosen], lambda cell, k: label(cell, k - known.turns))
    return turned.astype(np.float16), labels


if __name__ == "__main__":
    import sys

    from scanner.games.eighteen.digits import onnx_net
    from scanner.games.eighteen.digits_cnn import export, fit
    from scanner.games.eighteen.square_edges import turned_set
    from scanner.games.eighteen.square_par import drawn_squares, network
    from scanner.games.eighteen.truth_photos import read_photos

    if len(sys.argv) < 2:
        sys.exit("usage: python -m scanner.games.eighteen.square_turn FOLDER... (synthetic photos with truth files)")
    parts = read_photos([Path(a) for a in sys.argv[1:]], photo_squares, progress=True)
    x, y = np.concatenate([p[0] for p in parts]).astype(np.float32), np.concatenate([p[1] for p in parts])
    print(f"{len(y) // 4} squares from {len(parts)} photos", flush=True)
    net = fit(network(len(CLASSES), 1, WIDTHS), (x,), y, EPOCHS, BATCH, SHIFT)
    export(net, (np.zeros((1, 1, SIDE, SIDE), np.float32),), ("x",), MODEL)
    onnx_net.cache_clear()
    held_x, held_y = turned_set(*drawn_squares(HELD_OUT_SEED, HELD_OUT, SIDE), label)
    read = run_net(MODEL, {"x": held_x}).argmax(axis=1)
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} KiB); held-out accuracy {(read == held_y).mean():.3f}")

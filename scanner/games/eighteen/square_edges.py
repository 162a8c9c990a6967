"""Read which edge of a tee/green square is the tee and which the green, from the whole square at once.

The stroke reading (``classify``) finds a tee/green's diagonal and each triangle's stub, and the par digit
(``digits``) says which triangle is the tee; a digit the reader cannot tell from the flag drawn in the
green's triangle (a small digit in a ring beside a flag like a 7 or an F) turns the square round, and a
stub that runs faint or into hatching picks the wrong edge. This reader looks at the square's ink as
``square_par`` does (the same input, at 64 pixels a side) and says which of the twelve (tee edge, green
edge) pairs is drawn, or that the square is no tee/green: the same convolutions as ``square_par`` keeping a
4 x 4 layout of the square, where the par reader keeps only the strongest response anywhere.

Trained on the squares of the first two of the par reader's seeds (``square_par.drawn_squares``), each also
turned by one, two and three quarter turns with its edges turned alike, so that it learns flag against digit
and stub against edge wherever they lie. Run ``python -m scanner.games.eighteen.square_edges`` (needs
PyTorch, ``pip install -e .[train]``) to rebuild ``square_edges.onnx``; on two cores drawing the squares and
the 5 passes over them take about 17 minutes. It prints the held-out accuracy: 0.985 for the committed
network (1,500 squares of seed 1, a tee/green right only with both its edges right), drawn with each par
digit and flag inside its own triangle as the rules have it. The network before it, trained on squares whose
marks now and then crossed the diagonal, scored 0.978 there; on 200 photographed plans (seed 12802) it left 8
tee/greens swapped and 13 with a wrong edge (this one 7 and 12), and on the plans drawn by another hand 16
squares wrong of 600 (this one 12). Trained alike at 96 pixels a side, an earlier network scored 0.983 there,
yet read the edges of 46 tee/greens wrong on 200 photographed plans (seed 12402) against the 64-pixel one's
45, at more than twice the cost: not kept.

The committed network was then trained on, as ``square_par`` is (``square_par.tune``: 2 passes at a peak
rate of 5e-4), over the tee/green squares and four fairways of each of the 2,000 photographed plans of seeds
12102-13002, each at all four turns (about 170,000 squares): run ``python -m
scanner.games.eighteen.square_edges FOLDER...`` (about 15 minutes on two cores). On the tee/greens of the
unseen seed 13102, cut from the true grid, it then read 27 of 3,899 wrong instead of 66, and on the outside
plans 26 of about 130 instead of 29; held-out drawn squares 0.980 instead of 0.985. Whole plans of 13102:
wrong squares 0.29% -> 0.25%, exact 73% -> 75.5%; outside plans 10 -> 11 wrong squares (one more tee/green
turned round, flagged at 0.1). Trained on so once more over the 1,000 plans of seeds 17002-17402 (5 minutes),
after the par readers' own second training: two squares right now and one wrong now over the 400 plans of
seeds 15352 and 16302, the outside plans read the same; held-out drawn squares 0.981. Within chance, kept as
the network that has seen more photographs.
Trained on a third time with the par reader, over the 2,000 plans of seeds 16302-16902 and 17502-17702
(8 minutes): 186 squares wrong either way over the 400 fresh plans of seeds 17802 and 17902 (one fewer in
two plans, one more in two others) and one square fewer of the outside plans; held-out drawn squares
0.979. Kept for the same reason.
A fourth time, after the par reader's fourth, over the 1,600 plans of seeds 18502-19102 (8 minutes): tee/greens
with tee and green swapped or an edge wrong on seeds 19202, 19302 and 19402, 8 -> 5, 10 -> 10 and 6 -> 3; plans
exactly right 177, 164 and 171 -> 177, 164 and 172; the outside plans read the same. Held-out drawn squares: 0.982.
A fifth time, alone, over the 1,000 plans of seeds 24302-24702 (all four turns of about 22,000 squares; 24 minutes on
two cores busy with other work): on seed 24802, made after them, every plan reads as before; on seed 24902, made
after that, 3 plans change, each for the better (squares wrong 9 -> 6 of 20,070, plans exactly right 180 -> 182);
60 hard photos (seed 20602): squares wrong 35.29% -> 35.24%, pars 37.8% -> 37.4%, plans exact 14 -> 13; the outside
plans read the same. Held-out drawn squares: 0.977. The par readers and ``square_kinds``, trained on over the same
plans, changed little (on 24802, tried as the par readers and the kind reader apart, no plan more or less exact,
15 -> 14 pars wrong; on 24902, all three, 180 -> 182 plans exact, 14 -> 13 pars wrong) and read the hard photos a
little worse (2 plans fewer exact, squares 35.3% -> 35.7%): not kept.

Example:
    >>> import numpy as np, cv2
    >>> from scanner.games.eighteen.parmarks import square_ink
    >>> img = np.full((200, 200, 3), 235, np.uint8)
    >>> _ = cv2.rectangle(img, (50, 50), (150, 150), (60, 60, 60), 2)
    >>> _ = cv2.line(img, (50, 150), (150, 50), (90, 30, 30), 2)
    >>> for x in (90, 110): _ = cv2.line(img, (x, 50), (x, 90), (90, 30, 30), 2)  # a stub from the north
    >>> for y in (115, 135): _ = cv2.line(img, (150, y), (120, y), (90, 30, 30), 2)  # a stub from the east
    >>> _ = cv2.putText(img, "4", (62, 84), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (90, 30, 30), 2)
    >>> _ = cv2.line(img, (128, 110), (128, 84), (90, 30, 30), 2); _ = cv2.line(img, (128, 84), (140, 90), (90, 30, 30), 2)
    >>> probs = read_edges([square_ink(img, np.float32([[50, 50], [150, 50], [150, 150], [50, 150]]))])
    >>> CLASSES[int(np.argmax(probs[0]))]
    ('N', 'E')
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from scanner.games.eighteen.digits import eight_bit, run_net
from scanner.games.eighteen.features import EDGES
from scanner.games.eighteen.square_par import inputs, steadied

MODEL = Path(__file__).with_name("square_edges.onnx")
CLASSES: tuple[tuple[str, str] | None, ...] = (*((t, g) for t in EDGES for g in EDGES if t != g), None)
SIDE = 64  # the square's ink crop is shrunk to this many pixels a side
LAYOUT = 4  # regions a side kept by the network's last pooling
WIDTHS = (16, 32, 64, 64, 96)  # channels of its five convolutions (``square_par.network``)
TRAIN_SEEDS, SQUARES, HELD_OUT_SEED, HELD_OUT = (0, 2), 8000, 1, 1500
EPOCHS, BATCH, SHIFT = 5, 128, 3  # training passes, batch size, random shift (pixels) of each batch


def read_edges(inks: list[np.ndarray]) -> np.ndarray:
    """Probabilities (N, 13) of the (tee edge, green edge) pairs of ``CLASSES`` for upright square ink crops
    (``parmarks.square_ink``); the last column: no tee/green."""
    return steadied(eight_bit(MODEL), inputs(inks, SIDE))


def label(cell: dict, turns: int = 0) -> int:
    """The ``CLASSES`` index of a board cell drawn in a square turned ``turns`` quarter turns anticlockwise.

    >>> CLASSES[label({"k": "teegreen", "tee_edge": "N", "green_edge": "E", "par": 3}, 1)]
    ('W', 'N')
    """
    from scanner.games.eighteen.plan import rotate_edge  # plan reads this module's CLASSES

    if cell["k"] != "teegreen":
        return len(CLASSES) - 1
    return CLASSES.index((rotate_edge(cell["tee_edge"], turns), rotate_edge(cell["green_edge"], turns)))


def turned_set(x: np.ndarray, cells: list[dict], labelled: Callable[[dict, int], int] = label
               ) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and labels (``labelled(cell, turns)``, this reader's ``label`` unless given) of squares at each of
    the four quarter turns."""
    xs = np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in range(4)])
    return np.ascontiguousarray(xs), np.array([labelled(cell, k) for k in range(4) for cell in cells])


if __name__ == "__main__":
    import sys

    from scanner.games.eighteen.digits import onnx_net
    from scanner.games.eighteen.digits_cnn import export, fit
    from scanner.games.eighteen.square_par import drawn_squares, network, photographed_squares, tune

    if len(sys.argv) > 1:  # FOLDER...: the committed network trained on over photographed plans
        x, y = turned_set(*photographed_squares([Path(a) for a in sys.argv[1:]], SIDE))
        net = tune(network(len(CLASSES), LAYOUT, WIDTHS), MODEL, (x,), y, BATCH, SHIFT)
    else:
        parts = [turned_set(*drawn_squares(seed, SQUARES, SIDE)) for seed in TRAIN_SEEDS]
        x, y = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
        net = fit(network(len(CLASSES), LAYOUT, WIDTHS), (x,), y, EPOCHS, BATCH, SHIFT)
    export(net, (np.zeros((1, 1, SIDE, SIDE), np.float32),), ("x",), MODEL)
    onnx_net.cache_clear()
    held_x, held_cells = drawn_squares(HELD_OUT_SEED, HELD_OUT, SIDE)
    read = run_net(MODEL, {"x": held_x}).argmax(axis=1)
    truth = np.array([label(cell) for cell in held_cells])
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} KiB); held-out accuracy {(read == truth).mean():.3f}")

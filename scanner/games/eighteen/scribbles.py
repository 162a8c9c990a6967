"""Tell a square scribbled out from a drawing that loops as much: small networks over the square's whole ink.

A player who draws a feature in the wrong square scribbles it out, leaving the square empty; a heavy pen's
trees, bunkers and lakes, and shaded fairways, can cover as much of a square with one looping piece of ink.
Counting the paper pockets the ink encloses told most of them apart, but a scribble in a broad or dark pen
runs its loops together, and a lake drawn over a printed symbol or a fairway shaded in zigzags encloses as
many pockets as a scribble. A reader here looks at the square's ink as ``square_par`` does (the same input,
at ``SIDE`` pixels a side, with the same convolutions at ``WIDTHS`` channels) and says how likely the square
is scribbled out. Two are kept (``READERS``): one for squares read as a tree, bunker or lake with looping ink
or a blot over much of them (``eighteen.scribble_like``; either reading stays flagged, with the other offered), one
for looping fairways that no neighbouring square joins (``eighteen.stray_fairway``; read as scribbled out,
flagged, or left as the fairway).

Each is trained on photographed plans only (``photographed``): every square scribbled out whole and, of each
synthetic photo, the most inked of its drawings (``Reader.heavy`` of its hazards and, for the fairway reader,
of its fairways) and ``OTHERS`` more at random, cut where its truth file puts the grid, each at all eight
turns and mirror images (a scribble has no top, and a drawing turned over is no scribble). Run ``python -m
scanner.games.eighteen.scribbles [hazard|fairway] FOLDER... HELD_OUT_FOLDER`` (needs PyTorch, ``pip install -e
.[train]``) to rebuild both networks or the one named; each prints its accuracy on the scribbles and drawings
of the held-out folder (then ``python -m scanner.games.eighteen.quantize --only scribbles_fairway FOLDER...``
writes the fairway reader's 8-bit twin again). A plan holds a few looping hazards at most, so the hazard
reader runs at 32 bits; the fairway reader is asked about every blotted fairway too (26 a plan on average, 5 at
the median), and runs as its 8-bit twin (``Reader.quantized``, written by ``quantize``: half the time; on the
1,648 squares of seed 20302's training material its chance moved by 0.004 at most, none across 0.5 or 0.99. The
hazard reader's twin moved one of them across 0.99, by up to 0.12, and is not used).

The committed networks were trained on the 1,400 plans of seeds 17002-17402, 15352 and 16302 (about 9 minutes
each on two cores) and held out on 16502: the hazard reader read all 57 scribbles and 1,599 of 1,600
drawings there right, the fairway reader the same. Over the plans of 16502, where the loop count the hazard
reader replaces read 11 of the 46 looping scribbles as hazards and 8 of the 136 looping hazards as scribbles,
plans exactly right went from 77.5% to 82.5% (with ``printcolour``'s change of the same round), and on the
fresh seed 16602 from 77% to 81%; the outside plans read as before. On the looping hazards of the plans of
16602 and 16702 it reads all 70 scribbles and none of the 320 hazards as scribbled out. It was trained before
its random drawings were picked as the fairway reader's are (the rest of a photo's hazards were shuffled from
their order by ink, not by place); trained again with this code, it read 3 of those 320 hazards as scribbles,
and is not committed. Of the 50 fairways there that no neighbour joins over one looping piece, 26 scribbled
over, the fairway reader reads all 26 as scribbled out and none of the 24 shaded ones; the loop count it replaces (seven loops or more at full detail) took 19 and 6.
The hazard reader asked about the fairways instead took 25 and 4. The fairway reader asked about every
looping fairway (2,985 in the plans of 16602), not only those no neighbour joins, righted five fairways
scribbled over and broke four shaded ones even when a fairway had to be 0.97 sure: it is not.
Asked about every square read as a tree, bunker or lake of the 600 plans of seeds 16502-16702 (19,928
drawings, 123 scribbles), the hazard reader gave no drawing a chance over 0.15 and every scribble 0.77 or more; seven
of those scribbles (two rows of loops, or loops run together into a blot) were asked only once
``scribble_like`` took looping pieces together and blots.
The hazard reader was trained again on the 1,800 plans of seeds 21102-21902, made with the sheet's six printings
(the first training saw only the first), taking every drawing over a printed symbol too (27 minutes on two cores;
held out on 22002: 34 of 36 scribbles and all 1,680 drawings read right). A lake drawn over a print of three rings
loops as a scribble does, and the first network took two such lakes of seed 22202 for scribbles. On the
material of seeds 20702, 20802, 21002 and 22202, which neither network was trained on (190 scribbles, 6,719
drawings), the first network missed 1 scribble and took 5 drawings for scribbles; this one misses 3 and takes 1.
Plans exactly right: 22202 179 -> 181, 22002 179 -> 179.

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

from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from scanner.games.eighteen.digits import eight_bit, run_net
from scanner.games.eighteen.square_par import inputs

SIDE = 64  # the square's ink crop is cut at this many pixels a side (and its margin), and shrunk to it with the margin:
# cut at the digit crop's 96 pixels (as the committed readers' training material was), it took 0.4 ms a square, not
# 0.17, and a plan asks about 27 fairways on average. On 140 plans of seeds 22902 and 23002 (3,670 fairways and 369
# hazards asked) the chance moved by 0.0006 on average and 0.25 at most; one fairway crossed 0.5, one 0.99
WIDTHS = (16, 32, 64, 64, 96)  # channels of the network's five convolutions (``square_par.network``)
EPOCHS, BATCH, SHIFT = 6, 128, 3  # training passes, batch size, random shift (pixels) of each batch
HAND_DRAWN = ("tree", "bunker", "water")  # kinds players draw (gorse is printed)
INKED = 0.3  # input strength taken as ink when a drawing's ink is measured
OTHERS = 4  # drawings taken at random from each training photo, besides its most inked ones


@dataclass(frozen=True)
class Reader:
    """One of the two networks: where it is kept, the drawings it tells a scribble from, and how many of each
    group of them (hazards; fairways) it takes from a training photo, the most inked first."""

    model: Path
    kinds: tuple[str, ...]
    heavy: int
    quantized: bool = False  # a scan runs the network's 8-bit twin (``digits.eight_bit``)

    def runs(self) -> Path:
        """The network a scan runs."""
        return eight_bit(self.model) if self.quantized else self.model


READERS = {
    "hazard": Reader(Path(__file__).with_name("scribbles.onnx"), HAND_DRAWN, 4),
    "fairway": Reader(Path(__file__).with_name("scribbles_fairway.onnx"), (*HAND_DRAWN, "fairway"), 2, quantized=True),
}


def scribbled_probability(inks: list[np.ndarray], over: str = "hazard") -> np.ndarray:
    """How likely each square ink crop (``parmarks.square_ink`` at ``SIDE`` pixels a square, any turn) is a square
    scribbled out rather than the drawing it was read as: a tree, bunker or lake (``over="hazard"``) or a fairway
    (``"fairway"``)."""
    if not inks:
        return np.zeros(0)
    return run_net(READERS[over].runs(), {"x": inputs(inks, SIDE)})[:, 1]


def photo_squares(photo: Path, reader: Reader, seed: int = 0) -> tuple[np.ndarray, np.ndarray] | None:
    """Inputs (``inputs`` at ``SIDE``, float16) and labels (1: scribbled out) of one synthetic ``photo``'s
    squares scribbled out whole and of its drawings of the ``reader``'s kinds: those over a printed symbol
    (``printed`` in its truth file), of its other hazards and of its other fairways the ``reader.heavy`` most
    inked, and ``OTHERS`` more picked by the random stream (seed, photo's name), all cut from the true grid; None
    without a truth file or any such square."""
    from scanner.games.eighteen.parmarks import square_ink
    from scanner.games.eighteen.truth_photos import square_quad, with_truth

    known = with_truth(photo)
    if known is None:
        return None
    loaded, truth, grid = known
    cells = truth["board"]["cells"]
    scribbled = [tuple(rc) for rc in truth.get("scribbled_out", [])]
    drawn = [(r, c) for r, row in enumerate(cells) for c, cell in enumerate(row)
             if cell["k"] in reader.kinds and (r, c) not in scribbled]
    if not scribbled + drawn:
        return None
    quads = [square_quad(grid, r, c) for r, c in scribbled + drawn]
    x = inputs([square_ink(loaded.image, quad, SIDE) for quad in quads], SIDE)
    # the drawings a scribble can be taken for: those over the sheet's printed symbol (its loops and the
    # drawing's together), and those with the most ink (a heavy pen's hazards, shading)
    over_print = [i for i, rc in enumerate(drawn) if list(rc) in truth.get("printed", [])]
    inked = (x[len(scribbled):] > INKED).mean(axis=(1, 2, 3))
    fairway = np.array([cells[r][c]["k"] == "fairway" for r, c in drawn], bool)
    heavy = over_print + [i for group in (~fairway, fairway)
                          for i in sorted(set(np.flatnonzero(group)) - set(over_print), key=lambda i: -inked[i])[:reader.heavy]]
    rest = np.setdiff1d(np.arange(len(drawn)), heavy)
    picked = np.array(heavy + np.random.default_rng([seed, *photo.name.encode()]).permutation(rest)[:OTHERS].tolist(), int)
    keep = np.concatenate([np.arange(len(scribbled)), len(scribbled) + picked]).astype(int)
    return x[keep].astype(np.float16), np.array([1] * len(scribbled) + [0] * len(picked))


def photographed(folders: list[Path], reader: Reader, jobs: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``photo_squares`` of every synthetic photo in ``folders``, each square at its eight turns and mirror
    images (float32 inputs, labels)."""
    from scanner.games.eighteen.truth_photos import read_photos

    parts = read_photos(folders, partial(photo_squares, reader=reader), jobs)
    if not parts:
        raise ValueError("no photo with a truth file and a scribble or drawing")
    x, y = np.concatenate([x for x, _ in parts]).astype(np.float32), np.concatenate([y for _, y in parts])
    turned = [np.rot90(x, k, axes=(2, 3)) for k in range(4)]
    return np.ascontiguousarray(np.concatenate(turned + [t[:, :, :, ::-1] for t in turned])), np.tile(y, 8)


def train(reader: Reader, folders: list[Path], held_out: Path) -> str:
    """Fit the ``reader``'s network on the photos in ``folders`` and write it; what it reads right of the
    squares of the photos in ``held_out``."""
    from scanner.games.eighteen.digits import onnx_net
    from scanner.games.eighteen.digits_cnn import export, fit
    from scanner.games.eighteen.square_par import network
    from scanner.games.eighteen.truth_photos import read_photos

    x, y = photographed(folders, reader)
    net = fit(network(2, 1, WIDTHS), (x,), y, EPOCHS, BATCH, SHIFT)
    export(net, (np.zeros((1, 1, SIDE, SIDE), np.float32),), ("x",), reader.model)
    onnx_net.cache_clear()
    parts = read_photos([held_out], partial(photo_squares, reader=reader))
    held_x, held_y = np.concatenate([x for x, _ in parts]).astype(np.float32), np.concatenate([y for _, y in parts])
    read = run_net(reader.model, {"x": held_x}).argmax(axis=1)
    return (f"wrote {reader.model.name} ({reader.model.stat().st_size // 1024} KiB); held out: scribbles "
            f"{(read[held_y == 1] == 1).mean():.3f} of {(held_y == 1).sum()}, drawings "
            f"{(read[held_y == 0] == 0).mean():.3f} of {(held_y == 0).sum()}")


if __name__ == "__main__":
    import sys

    names = [a for a in sys.argv[1:] if a in READERS] or list(READERS)
    folders = [Path(a) for a in sys.argv[1:] if a not in READERS]
    if len(folders) < 2:
        print("usage: python -m scanner.games.eighteen.scribbles [hazard|fairway] FOLDER... HELD_OUT_FOLDER "
              "(synthetic photos with truth)", file=sys.stderr)
        raise SystemExit(2)
    for name in names:
        print(train(READERS[name], folders[:-1], folders[-1]))

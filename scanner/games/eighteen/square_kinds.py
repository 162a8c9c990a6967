"""What kind of drawing a course-plan square holds, read from its ink picture by a small convolutional network:
a second opinion on ``squares`` (a network over shape measurements), pooled with it in
``squares.kind_probabilities``.

The measurements summarise a square's strokes (a 12 x 12 picture, stroke directions, loops, blobs); a tree
drawn upside down, a faint pencil tree or a lake's ripples beside a bunker's dots can look alike to them. This
network sees the square's ink itself (its ``CELL``-pixel patch with the grid line's margin, relative to the
plan's ink threshold, shrunk to ``SIDE`` pixels): five 3 x 3 convolutions (``WIDTHS``), three poolings and the
strongest response in each quarter of the square (``square_par.network``), to the nine ``squares.KINDS``.

Trained on the squares of synthetic photos cut as the scanner cuts them (``squares.labelled_cuts``: its own grid
and jittered copies), each at a random quarter turn, so that it reads a square whichever way the plan lies:
run ``python -m scanner.games.eighteen.square_kinds FOLDER...`` (needs PyTorch, ``pip install -e .[train]``),
then ``python -m scanner.games.eighteen.quantize --only square_kinds FOLDER`` for the 8-bit twin a scan runs.
The committed network: 541,043 squares of 2,543 phone photos of seeds 18002-19102 (the first printing, then all six
from 18502), 3 passes in about 13 minutes on two cores after 6 minutes of cutting; its twin reads 100 squares in
about 7 ms. On the 38,972 squares of seeds 19302 and 19402, cut by the scanner: 149 read wrong by the
measurements' network, 35 by this one (15 of them one plan's fairways shaded with zigzags, read as peaks by both),
31 pooled. A first network, from 330,971 squares of seeds 18502-19102 in 4 passes, read 40 wrong there, and 4
plans fewer exactly over 600 plans of seeds 19202-19402.

``python -m scanner.games.eighteen.square_kinds --further FOLDER...`` trains the committed network on instead
(``square_par.tune``: 2 passes at a peak rate of 5e-4). So trained over the 1,000 plans of seeds 24302-24702
(209,402 squares; 39 minutes on two cores busy with other work), it read seed 24802's squares as the committed one
does but for one read flagged now, and 60 hard photos (seed 20602), with both par readers trained on alike, 35.3% ->
35.7% of their squares wrong; not kept.

Example:
    >>> import numpy as np, cv2
    >>> ink = np.zeros((64, 64), np.float32)
    >>> _ = cv2.rectangle(ink, (3, 3), (60, 60), 1.0, -1)
    >>> from scanner.games.eighteen.squares import KINDS
    >>> KINDS[int(np.argmax(read_kinds([ink], 0.3)[0]))]
    'Mb'
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scanner.games.eighteen.digits import eight_bit, run_net

MODEL = Path(__file__).with_name("square_kinds.onnx")
SIDE = 48  # the square's patch is shrunk to this many pixels a side
LAYOUT = 2  # regions a side kept by the network's last pooling
WIDTHS = (16, 32, 64, 64, 96)  # channels of its five convolutions
LEVEL_CAP = 2.0  # ink is read relative to the plan's threshold, up to this many times it
EPOCHS, BATCH, SHIFT = 3, 128, 3  # training passes, batch size, random shift (pixels) of each batch
COMMON_SHARE = 0.3  # share of the empty and fairway squares of each photo trained on (the rest are many alike)


def inputs(patches, threshold: float) -> np.ndarray:
    """The network's input (N, 1, SIDE, SIDE) for ``CELL``-pixel ink patches and the plan's ink ``threshold``."""
    level = [cv2.resize(np.clip(np.float32(p) / threshold, 0.0, LEVEL_CAP), (SIDE, SIDE), interpolation=cv2.INTER_AREA)
             for p in patches]
    return np.stack(level)[:, None].astype(np.float32)


def read_kinds(patches, threshold: float) -> np.ndarray:
    """Probabilities (N, len(KINDS)) of the kinds of N ``CELL``-pixel ink patches (N at least 1)."""
    return run_net(eight_bit(MODEL), {"x": inputs(patches, threshold)})


# ---------------------------------------------------------------------------------------------------------
# Training (build step)

def photo_samples(photo: Path, seed: int = 0) -> tuple[np.ndarray, np.ndarray] | None:
    """Inputs (float16, each at a random quarter turn) and kind indices of one synthetic ``photo``'s squares
    (``squares.labelled_cuts``), with ``COMMON_SHARE`` of its empty and fairway squares; None if unusable."""
    from scanner.games.eighteen.squares import KINDS, labelled_cuts

    known = labelled_cuts(photo, shifts=2, seed=seed)
    if known is None:
        return None
    cuts, labels, threshold = known
    rng = np.random.default_rng([seed, 1, *photo.name.encode()])
    common = np.isin(labels, [KINDS.index("empty"), KINDS.index("fairway")])
    xs, ys = [], []
    for patches in cuts:
        kept = ~common | (rng.random(len(labels)) < COMMON_SHARE)
        x = inputs(patches[kept], threshold)
        turns = rng.integers(0, 4, len(x))
        xs.append(np.stack([np.rot90(image, k, axes=(1, 2)) for image, k in zip(x, turns, strict=True)]))
        ys.append(labels[kept])
    return np.concatenate(xs).astype(np.float16), np.concatenate(ys)


if __name__ == "__main__":
    import sys

    from scanner.games.eighteen.digits import onnx_net
    from scanner.games.eighteen.digits_cnn import export, fit
    from scanner.games.eighteen.square_par import network, tune
    from scanner.games.eighteen.squares import KINDS
    from scanner.games.eighteen.truth_photos import read_photos

    further = sys.argv[1:2] == ["--further"]  # the committed network trained on, not a new one from the start
    folders = [Path(a) for a in sys.argv[1 + further:]]
    if not folders:
        print("usage: python -m scanner.games.eighteen.square_kinds [--further] FOLDER... (synthetic photos with truth)",
              file=sys.stderr)
        raise SystemExit(2)
    parts = read_photos(folders, photo_samples)
    x, y = np.concatenate([p[0] for p in parts]).astype(np.float32), np.concatenate([p[1] for p in parts])
    print(f"{len(y)} squares from {len(parts)} photos", flush=True)
    if further:
        net = tune(network(len(KINDS), LAYOUT, WIDTHS), MODEL, (x,), y, BATCH, SHIFT)
    else:
        net = fit(network(len(KINDS), LAYOUT, WIDTHS), (x,), y, EPOCHS, BATCH, SHIFT)
    export(net, (np.zeros((1, 1, SIDE, SIDE), np.float32),), ("x",), MODEL)
    onnx_net.cache_clear()
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} KiB)")

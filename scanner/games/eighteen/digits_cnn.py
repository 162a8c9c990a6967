"""Train the convolutional par digit reader (``digits.predict_images``) and write ``digits_cnn.onnx``.

A build step, not part of a scan: it needs PyTorch (``pip install -e .[train]``), while a scan runs the
written network with ONNX Runtime (``digits.run_net``). The crops are those the feature network is trained
on (``digits.build``: candidates of drawn tee/green squares and lone digits, each upright digit once more
varied), so the two readers learn the same classes from the same examples. On two cores the crops take
about 10 minutes to make and each of the 8 passes over them 30 seconds or more.

Run ``python -m scanner.games.eighteen.digits_cnn``; it prints the held-out accuracy on crops of squares
drawn from another seed. The training loop (``fit``, ``export``) is shared with the whole-square par reader
(``square_par``).

``python -m scanner.games.eighteen.digits_cnn FOLDER...`` trains the committed network on further (as
``square_par.tune`` does: 2 passes at a peak rate of 5e-4) over the very pieces a scan cuts from the
tee/green squares of photographed plans (``photo_candidates``), labelled from their truth files: the piece
the scan reads its par from, and the other cuts of that mark, as the square's true par (and turned, as not a
digit); pieces apart from it that the scan reads as no digit, as not a digit. Drawn squares are clean and
their digits whole; a photo's are blurred, small and cut by its own ink threshold, and there the reader
misread about 1 in 15 of the pieces a par was read from.

The committed network was so trained over the 1,200 photographed plans of seeds 13402-13902 (about 450,000
pieces; 23 minutes on two cores, most of it the scans). On the pieces a par was read from in the unseen
seeds 14002 and 14102 it then misread 525 of 7,825 instead of 554, and was wrong at 0.9 or surer 110 times
instead of 171; it also took 1,467 of 164,748 pieces that are no digit for one instead of 857 (the feature
network's first look keeps most of those from it in a scan). Whole plans: final pars wrong 39 -> 34 and
35 -> 33, plans exactly right 153 -> 158 and 155 -> 158; on the fresh seeds 14202 and 14302 little: 100 -> 97
and 97 -> 98 pars wrong, 151 -> 151 and 148 -> 147 plans exact.
Held-out drawn crops: 0.928, as before. It was trained on so once more over the 1,000 plans of seeds
17002-17402 (21 minutes), after the whole-square reader's own second training on them: final pars wrong on
seed 15352 40 -> 37 of 3,976 (three right now, one of them wrong and unflagged before; none wrong now; one
still wrong is no longer flagged), on 16302 21 -> 21 of 3,899. Held-out drawn crops: 0.928.
A third time over the 2,800 plans of seeds 18002-19102 (about 80 minutes on two cores, shared): held-out drawn
crops 0.938; final pars wrong on seeds 19202, 19302 and 19402 13/24/17 -> 12/25/15 of about 3,850 each.
A fourth time over the 1,800 plans of seeds 21102-21902 (26 minutes on two cores), after the whole-square reader's
sixth training on them: held-out drawn crops 0.935; on seeds 22002 and 22202, which it was not trained on, final pars
wrong 22 -> 20 and 32 -> 33 of 3,851 and 3,822, plans exactly right 179 -> 180 and 181 -> 182. The six outside
plans and 40 flat scans read as before.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scanner.games.eighteen.digits import (
    CNN_MODEL,
    LABELS,
    LONE,
    SIDE,
    SQUARES,
    image_inputs,
    training_set,
    turned,
)

EPOCHS, BATCH, PEAK_RATE = 8, 256, 3e-3
TAUGHT_SHARE, TAUGHT_TEMPERATURE = 0.7, 2.0  # a taught network's loss: its share, and the softening of both readings
DIGIT_LIKE = 0.5  # a piece the scan reads as a par digit at least this surely counts as one (``photo_candidates``)
OTHERS_KEPT = 0.3  # share of a photo's pieces that are no digit trained on (a square gives many)


def arrays(samples: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Network inputs (normalised images (N, 1, 24, 24), aspect ratios (N, 1)) and labels of (crop, turn, label)
    samples, each crop turned as a scan turns it."""
    images, aspects = image_inputs([np.ascontiguousarray(turned(patch, turn)) for patch, turn, _ in samples])
    return images, aspects, np.array([label for _, _, label in samples])


def network():
    import torch
    from torch import nn

    class DigitNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.c1, self.c2, self.c3 = nn.Conv2d(1, 16, 3, padding=1), nn.Conv2d(16, 32, 3, padding=1), \
                nn.Conv2d(32, 32, 3, padding=1)
            self.fc, self.out, self.drop = nn.Linear(32 * 36 + 1, 128), nn.Linear(128, len(LABELS)), nn.Dropout(0.3)

        def forward(self, x, a):
            x = torch.max_pool2d(torch.relu(self.c1(x)), 2)
            x = torch.max_pool2d(torch.relu(self.c3(torch.relu(self.c2(x)))), 2)
            return self.out(self.drop(torch.relu(self.fc(torch.cat([x.flatten(1), a], 1)))))

    return DigitNet()


def fit(net, inputs: tuple[np.ndarray, ...], labels: np.ndarray, epochs: int, batch: int, shift: int = 0,
        seed: int = 0, peak_rate: float = PEAK_RATE, taught: np.ndarray | None = None):
    """``net`` fitted to ``inputs`` (arrays it takes in this order) and ``labels`` (cross-entropy, Adam,
    one-cycle rate peaking at ``peak_rate``), in eval mode. ``shift``: each batch's images (the first input)
    moved by up to this many pixels, the same random way for the whole batch. ``taught``: another network's
    log-odds for the same inputs, which ``net`` learns to match besides the labels (``TAUGHT_SHARE`` of the loss,
    both softened by ``TAUGHT_TEMPERATURE``): a narrower network learns more from a wider one's leanings than
    from the labels alone."""
    import torch

    torch.manual_seed(seed)
    torch.set_flush_denormal(True)  # tiny weights late in training otherwise slow every step several times
    tensors, y = [torch.tensor(a) for a in inputs], torch.tensor(labels)
    if taught is not None:
        teacher = torch.log_softmax(torch.tensor(taught, dtype=torch.float32) / TAUGHT_TEMPERATURE, dim=1)
    steps = -(-len(y) // batch)
    opt = torch.optim.Adam(net.parameters(), 1e-3, weight_decay=1e-5)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, peak_rate, total_steps=epochs * steps)
    net.train()
    for _ in range(epochs):
        order = torch.randperm(len(y))
        for i in range(0, len(y), batch):
            chosen = order[i:i + batch]
            xs = [t[chosen] for t in tensors]
            if shift:
                dy, dx = (int(v) for v in torch.randint(-shift, shift + 1, (2,)))
                xs[0] = torch.roll(xs[0], (dy, dx), (2, 3))
            logits = net(*xs)
            loss = torch.nn.functional.cross_entropy(logits, y[chosen])
            if taught is not None:
                # the softened match scaled by the temperature squared, as its gradients shrink by that much
                matched = torch.nn.functional.kl_div(torch.log_softmax(logits / TAUGHT_TEMPERATURE, dim=1), teacher[chosen],
                                                     reduction="batchmean", log_target=True)
                loss = (1 - TAUGHT_SHARE) * loss + TAUGHT_SHARE * TAUGHT_TEMPERATURE**2 * matched
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
    return net.eval()


def export(net, examples: tuple[np.ndarray, ...], names: tuple[str, ...], path) -> None:
    """``net`` written as ONNX to ``path``, its inputs named ``names`` (shaped as ``examples``, any batch size)
    and its output "logits". A scan runs the network's 8-bit twin: write it again with ``quantize``."""
    import torch

    axes = {name: {0: "n"} for name in (*names, "logits")}
    torch.onnx.export(net, tuple(torch.tensor(e) for e in examples), str(path), input_names=list(names),
                      output_names=["logits"], dynamic_axes=axes, dynamo=False)


def photo_candidates(photo: Path) -> list[tuple[np.ndarray, int, int]] | None:
    """(crop, quarter turns, label) samples of one synthetic ``photo``: each square its scan reads a par in that
    its truth file makes a tee/green, cut into pieces as the scan cuts it and read as the scan reads them
    (``plan.digit_probabilities`` at the plan's turn), labelled by the true par (see the module's text);
    None without a truth file, or for a photo the scan cannot read. Random stream: the photo's name."""
    from scanner.errors import ScanError
    from scanner.games.eighteen import plan as planmod
    from scanner.games.eighteen import read_plan
    from scanner.games.eighteen.parmarks import ink_candidates, square_ink
    from scanner.games.eighteen.truth_photos import with_truth

    known = with_truth(photo)
    if known is None:
        return None
    loaded, truth, _ = known
    try:
        plan = read_plan(loaded.image)
    except ScanError:
        return None
    cells, turns = truth["board"]["cells"], plan.orientation.turns
    lattice, rect = plan.geometry.lattice, plan.geometry.rectified
    rng = np.random.default_rng(list(photo.name.encode()))
    other, out = len(LABELS) - 1, []
    for r, c in plan.digits:
        ur, uc = planmod.upright_index(r, c, lattice.rows, lattice.cols, turns)
        if ur >= len(cells) or uc >= len(cells[ur]) or cells[ur][uc]["k"] != "teegreen":
            continue
        cands = ink_candidates(square_ink(loaded.image, rect.to_photo(lattice.cell_quad(r, c))), plan.threshold)
        if not cands:
            continue
        digit_like = planmod.digit_probabilities(cands, turns)[:, turns, :3]
        best = int(digit_like.max(axis=1).argmax())
        found = digit_like[best].sum() >= DIGIT_LIKE
        for cand, likeness in zip(cands, digit_like.sum(axis=1), strict=True):
            if planmod.overlaps(cand, cands[best]):
                if found and likeness >= DIGIT_LIKE:
                    out += [(cand.patch, turns, LABELS.index(str(cells[ur][uc]["par"]))),
                            (cand.patch, (turns + int(rng.integers(1, 4))) % 4, other)]
            elif likeness < DIGIT_LIKE and rng.random() < OTHERS_KEPT:
                out.append((cand.patch, turns, other))
    return out


if __name__ == "__main__":
    import sys

    from scanner.games.eighteen.digits import onnx_net, run_net
    from scanner.games.eighteen.digits_train import square_training_set, varied
    from scanner.games.eighteen.square_par import tune
    from scanner.games.eighteen.truth_photos import read_photos

    if len(sys.argv) > 1:  # FOLDER...: trained on over photographed plans
        samples = [s for part in read_photos([Path(a) for a in sys.argv[1:]], photo_candidates) for s in part]
        images, aspects, labels = arrays(samples)
        net = tune(network(), CNN_MODEL, (images, aspects), labels, BATCH, 0)
    else:
        samples = square_training_set(SQUARES, 0) + training_set(LONE, 0)
        images, aspects, labels = arrays(samples + varied(samples, np.random.default_rng(0)))
        net = fit(network(), (images, aspects), labels, EPOCHS, BATCH)
    export(net, (np.zeros((1, 1, SIDE, SIDE), np.float32), np.zeros((1, 1), np.float32)), ("x", "a"), CNN_MODEL)
    onnx_net.cache_clear()
    # the network just written, not the 8-bit twin a scan runs (``quantize`` writes that from it)
    images, aspects, labels = arrays(square_training_set(SQUARES // 10, seed=1))
    read = run_net(CNN_MODEL, {"x": images, "a": aspects}).argmax(axis=1)
    print(f"wrote {CNN_MODEL} ({CNN_MODEL.stat().st_size // 1024} KiB); held-out accuracy {(read == labels).mean():.3f}")

"""The whole-square reader of a tee/green's tee and green edges (``square_edges``), on squares drawn by the
project's art from a seed it was not trained on."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.games.eighteen.digits import eight_bit, run_net
from scanner.games.eighteen.square_edges import CLASSES, HELD_OUT_SEED, MODEL, SIDE, label, turned_set
from scanner.games.eighteen.square_par import drawn_squares


@pytest.fixture(scope="module")
def held_out() -> tuple[np.ndarray, list[dict]]:
    return drawn_squares(HELD_OUT_SEED, 80, SIDE, jobs=1)


def test_the_reader_tells_tee_from_green_on_squares_it_never_saw(held_out):
    x, cells = held_out
    read = run_net(eight_bit(MODEL), {"x": x}).argmax(axis=1)
    truth = np.array([label(cell) for cell in cells])
    assert {CLASSES[i] for i in truth} > {None, ("N", "E"), ("S", "W")}  # several arrangements and fairways
    assert (read == truth).mean() >= 0.92  # 0.980 on 1,500 such squares


def test_a_square_turned_a_quarter_reads_with_its_edges_turned_alike(held_out):
    x, cells = held_out
    turned, labels = turned_set(x, cells)
    quarter = slice(len(cells), 2 * len(cells))  # each square turned once anticlockwise
    read = run_net(eight_bit(MODEL), {"x": turned[quarter]}).argmax(axis=1)
    assert (read == labels[quarter]).mean() >= 0.9
    unturned = run_net(eight_bit(MODEL), {"x": x}).argmax(axis=1)
    tees = [i for i, cell in enumerate(cells) if cell["k"] == "teegreen"]
    assert (read[tees] != unturned[tees]).mean() > 0.9  # a turned tee/green is another pair, not the same one

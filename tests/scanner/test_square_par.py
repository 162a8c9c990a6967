"""The whole-square par reader on drawn and photographed squares it was not trained on (seed 1)."""

import numpy as np

from scanner.games.eighteen.digits import run_net
from scanner.games.eighteen.square_par import CLASSES, HELD_OUT_SEED, MODEL, drawn_squares


def test_the_reader_reads_pars_of_squares_it_never_saw():
    x, cells = drawn_squares(HELD_OUT_SEED, 150, jobs=1)
    truth = np.array([CLASSES.index(cell.get("par")) for cell in cells])
    assert set(truth) == {0, 1, 2, 3}  # every par and fairways without one
    read = run_net(MODEL, {"x": x}).argmax(axis=1)
    # 145 of these 150 are read right (the narrower network before it read 147, though on all 1,500 held-out
    # squares 0.958 against this one's 0.965); two squares spare for another machine's rounding
    assert (read == truth).sum() >= 143

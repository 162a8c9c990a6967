"""The whole-square reader of which way a tee/green's par digit stands (``square_turn``), on squares drawn by the
project's art from a seed it was not trained on and on the committed phone photos' squares cut as a scan cuts them,
and the plan's orientation it settles (``plan.weighed_turns``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scanner.games.eighteen import square_turn
from scanner.games.eighteen.digits import eight_bit, run_net
from scanner.games.eighteen.plan import EARLY_SURE, weighed_turns
from scanner.games.eighteen.square_edges import turned_set
from scanner.games.eighteen.square_par import drawn_squares
from scanner.games.eighteen.square_turn import (
    CLASSES,
    HELD_OUT_SEED,
    MODEL,
    SIDE,
    SQUARES_FIRST,
    SQUARES_READ,
    label,
    photo_squares,
    plan_turn,
    read_turns,
)

PHOTOS = sorted((Path(__file__).parents[2] / "fixtures" / "sets" / "18-holes-phone").glob("*.jpg"))


@pytest.fixture(scope="module")
def held_out() -> tuple[np.ndarray, list[dict]]:
    return drawn_squares(HELD_OUT_SEED, 80, SIDE, jobs=1)


def probabilities(x: np.ndarray) -> np.ndarray:
    return run_net(eight_bit(MODEL), {"x": x})  # the drawn squares come as the network's inputs (``read_turns``'s)


def test_each_turn_of_a_square_it_never_saw_reads_as_that_turn(held_out):
    x, cells = held_out
    turned, labels = turned_set(x, cells, label)
    read = probabilities(turned).argmax(axis=1)
    with_digit = labels != CLASSES.index(None)
    assert set(labels[with_digit]) == {0, 1, 2, 3}
    assert (read[with_digit] == labels[with_digit]).mean() >= 0.9  # 251 of 256 when written
    assert (read[~with_digit] == labels[~with_digit]).mean() >= 0.8  # fairways: no par digit at any turn (64 of 64)


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_the_tee_greens_of_a_plan_settle_its_orientation(held_out, turns):
    x, cells = held_out
    teegreens = [i for i, cell in enumerate(cells) if label(cell) != CLASSES.index(None)][:12]
    assert len(teegreens) == 12
    # the plan's squares as cut from a photo turned ``turns`` quarter turns clockwise of upright (the drawn squares
    # are inputs already, which read_turns takes as ink crops and leaves as they are)
    cut = [np.rot90(square, -turns) for square in x[teegreens, 0]]
    orient = weighed_turns(read_turns(cut)[:, :4], np.zeros(4))
    assert orient.turns == turns
    assert orient.confidence >= EARLY_SURE  # 0.9999 when written


def test_a_leaning_the_network_has_at_every_turn_cancels_out(monkeypatch):
    # a stand-in network that reads "three turns" however a square is turned (as ours reads a printed font's upright
    # digits): read at all four turns, the square needs no turn more than another, and twelve settle no way up
    leaning = np.array([0.05, 0.05, 0.05, 0.8, 0.05])
    monkeypatch.setattr(square_turn, "run_net", lambda model, inputs: np.tile(leaning, (len(inputs["x"]), 1)))
    probs = read_turns([np.zeros((80, 80), np.float32)] * 12)
    assert np.allclose(probs[:, :4], 0.95 / 4)
    assert weighed_turns(probs[:, :4], np.zeros(4)).confidence < EARLY_SURE


def test_a_square_read_at_four_turns_needs_the_turn_its_readings_agree_on(monkeypatch):
    # a stand-in network that reads where a square's one inked pixel lies: top left, no turn; top right (turned a
    # quarter clockwise), one turn; and so on, a little unsure each time
    corner_turns = {(0, 0): 0, (0, 1): 1, (1, 1): 2, (1, 0): 3}

    def read_corner(model, inputs):
        out = []
        for x in inputs["x"][:, 0]:
            row, col = np.unravel_index(x.argmax(), x.shape)
            p = np.full(5, 0.1)
            p[corner_turns[(int(row >= SIDE // 2), int(col >= SIDE // 2))]] = 0.6
            out.append(p)
        return np.array(out)

    monkeypatch.setattr(square_turn, "run_net", read_corner)
    square = np.zeros((SIDE, SIDE), np.float32)
    square[5, 5] = 1.0
    for turns in range(4):  # the square cut from a photo turned ``turns`` quarter turns clockwise of upright
        assert read_turns([np.rot90(square, -turns)])[0].argmax() == turns


def test_a_plan_reads_more_tee_greens_only_when_the_first_leave_its_way_up_unsure(monkeypatch):
    # a stand-in that reads a square of ones as needing one turn, a square of zeros as needing none, both surely; two
    # upright trees vote for one turn too (four squares alone reach 0.976 at most, ``plan.FLOOR``)
    read = []

    def stand_in(inks):
        read.append(len(inks))
        return np.array([[0.97, 0.01, 0.01, 0.01, 0.0] if ink.max() == 0 else [0.01, 0.97, 0.01, 0.01, 0.0]
                         for ink in inks])

    monkeypatch.setattr(square_turn, "read_turns", stand_in)
    one, none, trees = np.ones((4, 4), np.float32), np.zeros((4, 4), np.float32), np.array([0.0, 4.0, 0.0, 0.0])
    orient = plan_turn([one] * 12, trees)
    assert (orient.turns, read) == (1, [SQUARES_FIRST]) and orient.confidence >= EARLY_SURE
    # the first four split two against two: the next six read too, and the ten settle it together
    read.clear()
    orient = plan_turn([one, none] * 2 + [one] * 8, trees)
    assert (orient.turns, read) == (1, [SQUARES_FIRST, SQUARES_READ - SQUARES_FIRST]) and orient.confidence >= EARLY_SURE
    read.clear()
    assert plan_turn([one, none] * 2, trees).confidence < EARLY_SURE and read == [SQUARES_FIRST]  # none left to read


def test_the_squares_of_photos_it_never_saw_read_their_turn_as_cut_by_the_scanner():
    cut = [photo_squares(photo) for photo in PHOTOS]
    assert all(c is not None for c in cut)
    x, labels = (np.concatenate(parts) for parts in zip(*cut, strict=True))
    with_digit = labels != CLASSES.index(None)
    assert set(labels[with_digit]) == {0, 1, 2, 3} and (~with_digit).any()  # each square at all four turns
    read = probabilities(x.astype(np.float32)).argmax(axis=1)
    assert (read[with_digit] == labels[with_digit]).mean() >= 0.9  # 144 of 148 when written
    assert (read[~with_digit] == labels[~with_digit]).mean() >= 0.9  # 32 of 32

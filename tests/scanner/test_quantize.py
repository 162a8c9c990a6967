"""The 8-bit twins a scan runs (``quantize``) read as the trained networks do, on drawn squares neither was
trained or set on: a network trained anew and not quantized again fails here."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.games.eighteen import scribbles, square_edges, square_kinds, square_par
from scanner.games.eighteen.digits import CNN_MODEL, eight_bit, run_net
from scanner.games.eighteen.digits_cnn import arrays
from scanner.games.eighteen.digits_train import square_training_set

HELD_OUT_SEED = 5  # drawn squares of a stream no network was trained on, nor any twin set on


@pytest.fixture(scope="module")
def digit_pieces() -> dict[str, np.ndarray]:
    images, aspects, _ = arrays(square_training_set(40, HELD_OUT_SEED, jobs=1))
    return {"x": images, "a": aspects}


def agreement(model, inputs: dict[str, np.ndarray]) -> float:
    trained, twin = run_net(model, inputs), run_net(eight_bit(model), inputs)
    return float((trained.argmax(axis=1) == twin.argmax(axis=1)).mean())


@pytest.mark.parametrize("reader", [square_par, square_edges], ids=["par", "edges"])
def test_a_whole_square_readers_twin_reads_drawn_squares_as_the_trained_network(reader):
    x, _ = square_par.drawn_squares(HELD_OUT_SEED, 60, reader.SIDE, jobs=1)
    assert agreement(reader.MODEL, {"x": x}) >= 0.95  # 60 of 60 when written


def test_the_digit_networks_twin_reads_drawn_pieces_as_the_trained_network(digit_pieces):
    assert len(digit_pieces["x"]) >= 100
    assert agreement(CNN_MODEL, digit_pieces) >= 0.97  # 812 of 812 when written


def test_the_fairway_scribble_readers_twin_gives_drawn_squares_the_trained_networks_chances():
    # its chance is read against 0.5 and 0.99, not only taken as the likelier class: it has to stay close
    reader = scribbles.READERS["fairway"]
    assert reader.runs() == eight_bit(reader.model)
    x, _ = square_par.drawn_squares(HELD_OUT_SEED, 60, scribbles.SIDE, jobs=1)
    trained, twin = (run_net(model, {"x": x})[:, 1] for model in (reader.model, reader.runs()))
    assert np.abs(trained - twin).max() < 0.02  # 0.004 at most on 1,648 photographed squares when written


FAIRWAY_SCRIBBLES = scribbles.READERS["fairway"].model


@pytest.mark.parametrize("model", [CNN_MODEL, square_par.MODEL, square_edges.MODEL, square_kinds.MODEL,
                                   FAIRWAY_SCRIBBLES], ids=lambda m: m.stem)
def test_each_twin_is_stored_in_eight_bits(model):
    # a twin a third the size or less: weights of one byte, not four (a copy of the trained file fails)
    assert eight_bit(model).stat().st_size < 0.35 * model.stat().st_size

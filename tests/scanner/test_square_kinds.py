"""The picture network that reads a square's kind (``square_kinds``), alone, on the committed phone photos'
squares cut as the scanner cuts them (photos it was not trained on)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scanner.games.eighteen.digits import eight_bit, run_net
from scanner.games.eighteen.square_kinds import MODEL, inputs, read_kinds
from scanner.games.eighteen.squares import KINDS, labelled_cuts

PHOTOS = sorted((Path(__file__).parents[2] / "fixtures" / "sets" / "18-holes-phone").glob("*.jpg"))


@pytest.fixture(scope="module")
def squares() -> list[tuple[np.ndarray, np.ndarray, float]]:
    cut = [labelled_cuts(photo, shifts=0) for photo in PHOTOS]
    assert all(c is not None for c in cut)
    return [(patches, labels, threshold) for (patches,), labels, threshold in cut]


def test_the_network_reads_the_kinds_of_photographed_squares(squares):
    for patches, labels, threshold in squares:
        assert len(set(labels)) >= 6  # fairways, tee/greens, hazards and mountains, not one kind
        read = read_kinds(patches, threshold).argmax(axis=1)
        assert (read == labels).mean() >= 0.97  # 208 of 208 when trained


def test_a_square_turned_a_quarter_is_the_same_kind(squares):
    for patches, labels, threshold in squares:
        for turns in (1, 2, 3):
            read = read_kinds(np.rot90(patches, turns, axes=(1, 2)), threshold).argmax(axis=1)
            assert (read == labels).mean() >= 0.95


def test_blank_paper_and_a_blacked_out_square_read_apart():
    blank, black = np.zeros((64, 64), np.float32), np.ones((64, 64), np.float32)
    read = read_kinds([blank, black], 0.3).argmax(axis=1)
    assert [KINDS[i] for i in read] == ["empty", "Mb"]


def test_the_scan_runs_the_twin_which_reads_as_the_trained_network(squares):
    x = np.concatenate([inputs(patches, threshold) for patches, _, threshold in squares])
    agree = run_net(MODEL, {"x": x}).argmax(axis=1) == run_net(eight_bit(MODEL), {"x": x}).argmax(axis=1)
    assert agree.mean() >= 0.98

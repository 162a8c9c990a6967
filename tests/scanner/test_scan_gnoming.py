"""Gnoming A Round scanner on synthetic photos: every card and grid read right, any way the photo is
turned; a missing card, an unreadable card, another game's photo and a blank photo are reported."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from flatphoto import flat_photo, turned

from fixtures.games import frontnine, gnoming
from fixtures.scene import Scene
from rules import registry
from scanner.errors import ScanError
from scanner.games import gnoming as scanner

PPM = 2.5  # about a phone photo's resolution of a table of grids


def _round(players: int, seed: int) -> dict:
    board = gnoming.random_board(np.random.default_rng(seed))
    grids = dict(list(board["rounds"][0]["grids"].items())[:players])
    return {**board, "rounds": [{"grids": grids}]}


@pytest.fixture(scope="module")
def two_grids():
    board = _round(2, 4)
    scene = gnoming.compose(board, np.random.default_rng(4))
    return board, scene, flat_photo(scene, PPM, shadows=0.3)


def test_reads_every_card_and_grid(two_grids):
    board, _, photo = two_grids
    result = scanner.scan(photo.image)
    got = scanner.compare(board, result.board)
    assert got == {"cards": 18, "cards_wrong": 0, "grids": 2, "grids_exact": 2, "exact": True}
    assert not result.flagged
    registry.parse_board(result.board)  # the read board is a valid board file
    # each read's outline is its card's, in the photo
    truth = gnoming.truth(board, photo)
    for read in result.reads:
        centre = read.polygon.mean(axis=0)
        nearest = min(truth["cards"], key=lambda c: np.linalg.norm(np.mean(c["corners"], axis=0) - centre))
        assert nearest["face"] == read.value
        assert np.abs(np.asarray(nearest["corners"]) - read.polygon).max() < 3.0


@pytest.mark.parametrize("angle", [90, 180, 33])
def test_rotation_does_not_change_the_read(two_grids, angle):
    board, _, photo = two_grids
    result = scanner.scan(turned(photo, angle).image)
    assert scanner.compare(board, result.board)["exact"]


def test_setup_says_who_went_out_first(two_grids):
    board, _, photo = two_grids
    result = scanner.scan(photo.image, {"rounds": [{"went_out_first": "Player 2"}]})
    rnd = result.board["rounds"][0]
    assert sorted(rnd["grids"]) == ["Player 1", "Player 2"] and rnd["went_out_first"] == "Player 2"
    result = scanner.scan(photo.image, {"rounds": [{"went_out_first": "Ada"}]})
    assert "went_out_first" not in result.board["rounds"][0] and "Ada" in result.warnings[0]


def test_a_missing_card_is_flagged_where_it_belongs(two_grids):
    board, scene, _ = two_grids
    name = next(iter(board["rounds"][0]["grids"]))
    gone = f"{name}/r1c2"
    photo = flat_photo(Scene([c for c in scene.components if c.name != gone]), PPM, around=scene)
    result = scanner.scan(photo.image)
    got = scanner.compare(board, result.board)
    assert got["cards_wrong"] == 1 and got["grids_exact"] == 1
    flagged = [r for r in result.reads if r.flagged]
    assert len(flagged) == 1 and flagged[0].where.endswith("[1][2]") and "no card" in flagged[0].note
    assert any(e["where"] == flagged[0].where for e in result.board["review"])


def test_an_unreadable_card_is_unknown_not_a_guess(two_grids):
    board, _, photo = two_grids
    truth = gnoming.truth(board, photo)
    card = truth["cards"][4]
    image = photo.image.copy()
    quad = np.asarray(card["corners"])
    centre = quad.mean(axis=0)
    inner = (centre + 0.6 * (quad - centre)).astype(np.int32)  # a smudge over the middle of the card
    cv2.fillPoly(image, [inner], (128, 128, 128))
    result = scanner.scan(image)
    flagged = [r for r in result.reads if r.flagged]
    assert [r.value for r in flagged] == ["unknown"]
    assert scanner.compare(board, result.board)["cards_wrong"] == 1


def test_another_games_photo_is_refused():
    board = frontnine.random_board(np.random.default_rng(1))
    photo = flat_photo(frontnine.compose(board, np.random.default_rng(1)), 2.0)
    with pytest.raises(ScanError, match="wrong game"):
        scanner.scan(photo.image)
    assert scanner.likelihood(photo.image) < 0.3


def test_likelihood_is_high_on_its_own_game(two_grids):
    assert scanner.likelihood(two_grids[2].image) > 0.8


def test_a_photo_without_cards_is_a_scan_error():
    with pytest.raises(ScanError, match="no cards"):
        scanner.scan(np.full((600, 800, 3), 90, np.uint8))


def test_compare_pairs_grids_by_content_and_counts_wrong_cards():
    truth = _round(3, 7)
    grids = list(truth["rounds"][0]["grids"].values())
    swapped = [[list(row) for row in g] for g in reversed(grids)]  # another order, other names
    swapped[0][2][2] = "unknown"
    read = {"rounds": [{"grids": {f"P{k}": g for k, g in enumerate(swapped)}}]}
    got = scanner.compare(truth, read)
    assert got == {"cards": 27, "cards_wrong": 1, "grids": 3, "grids_exact": 2, "exact": False}
    read["rounds"][0]["grids"].pop("P1")
    assert scanner.compare(truth, read)["cards_wrong"] == 10

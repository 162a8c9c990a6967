"""Minigolf Designer scanner on small synthetic photos: reads against ground truth, invariance, bad input."""

from __future__ import annotations

import copy

import cv2
import numpy as np
import pytest

from fixtures.camera import photograph
from fixtures.games import minigolf as art
from fixtures.presets import PRESETS
from rules import registry
from rules.minigolf.catalogue import UNKNOWN
from scanner.errors import ScanError
from scanner.games import minigolf
from scanner.games.minigolf.match import UNKNOWN_BELOW, TileRead
from scanner.games.minigolf.tokens import assign

# two short holes, a bifurcation and grass: 11 tiles keep the test quick
BOARD = {
    "format": "golfscan/minigolf-designer", "version": 1, "grid": {"rows": 5, "cols": 6},
    "entrance": {"row": 1, "col": 1, "facing": "SE"},
    "tiles": [
        {"row": 1, "col": 2, "tile": "te05", "rotation": 270}, {"row": 1, "col": 3, "tile": "st07", "rotation": 90},
        {"row": 1, "col": 4, "tile": "co02", "rotation": 90}, {"row": 2, "col": 4, "tile": "gr05", "rotation": 0},
        {"row": 2, "col": 3, "tile": "te02", "rotation": 90}, {"row": 2, "col": 2, "tile": "pn01", "rotation": 90},
        {"row": 2, "col": 1, "tile": "co09", "rotation": 0}, {"row": 3, "col": 1, "tile": "gr01", "rotation": 0},
        {"row": 3, "col": 2, "tile": "gs04", "rotation": 0}, {"row": 3, "col": 3, "tile": "bf01", "rotation": 0},
        {"row": 3, "col": 4, "tile": "gs05", "rotation": 90},
    ],
    "tokens": [{"number": 1, "row": 2, "col": 4}, {"number": 2, "row": 3, "col": 1}],
    "setup": {"player": "Ada"},
}


def turned(board: dict, facing: str) -> dict:
    """The same course with the entrance facing another way (the whole course turned clockwise)."""
    out = copy.deepcopy(board)
    turns = minigolf.FACINGS.index(facing)
    for _ in range(turns):
        rows = out["grid"]["rows"]
        for item in out["tiles"] + out["tokens"] + [out["entrance"]]:
            item["row"], item["col"] = item["col"], rows - 1 - item["row"]
            if "rotation" in item:
                item["rotation"] = (item["rotation"] + 90) % 360
        out["grid"] = {"rows": out["grid"]["cols"], "cols": rows}
    out["entrance"]["facing"] = facing
    return out


@pytest.fixture(scope="module")
def photo():
    board = turned(BOARD, "NW")
    scene = art.compose(board, np.random.default_rng(3))
    return board, photograph(scene, PRESETS["flat-scan"].with_megapixels(1.5), np.random.default_rng(5)).image


@pytest.fixture(scope="module")
def result(photo):
    return minigolf.scan(photo[1], {"setup": {"player": "Ada", "land": "meadow"}})


def test_reads_the_course_exactly(photo, result):
    board, _ = photo
    registry.parse_board(result.board)  # a valid board file
    assert minigolf.compare(board, result.board) == {"tiles": 11, "tiles_wrong": 0, "tokens": 2,
                                                      "tokens_wrong": 0, "exact": True}
    assert result.board["entrance"]["facing"] == "SE"  # written as seen from the entrance
    assert result.board["setup"] == {"player": "Ada", "land": "meadow"}
    assert result.overlay is not None and result.overlay.shape == photo[1].shape


def test_same_board_when_the_photo_is_turned(photo, result):
    image = photo[1]
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 8.0, 1.0)
    slight = cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    quarter = np.ascontiguousarray(np.rot90(image))
    for img in (slight, quarter):
        again = minigolf.scan(img)
        assert minigolf.compare(result.board, again.board)["exact"]


def test_compare_counts_what_changes_the_score():
    same = turned(BOARD, "SW")  # turned course: nothing wrong
    assert minigolf.compare(BOARD, same)["exact"]
    grass = copy.deepcopy(BOARD)
    grass["tiles"][8]["rotation"] = 180  # a grass tile turned changes nothing scoring sees
    assert minigolf.compare(BOARD, grass)["tiles_wrong"] == 0
    wrong = copy.deepcopy(BOARD)
    wrong["tiles"][1]["tile"] = "st01"  # a tile without its visitor and dog
    wrong["tiles"][5]["rotation"] = 270  # the arrow turned round
    wrong["tokens"][0]["number"] = 7
    got = minigolf.compare(BOARD, wrong)
    assert (got["tiles_wrong"], got["tokens_wrong"], got["exact"]) == (2, 1, False)


def test_a_doubt_flags_only_when_another_scoring_meaning_is_close():
    def read(score: float, margin: float) -> TileRead:
        return TileRead("gs07", 90, score, margin, (("gs01", 180, score - margin),))

    weak = minigolf.FLAG_BELOW - 0.05
    assert not minigolf.doubtful(read(weak, minigolf.CLEAR_MARGIN + 0.1))  # worn art, nothing else near
    assert minigolf.doubtful(read(weak, minigolf.CLEAR_MARGIN - 0.1))  # worn art, a rival close behind
    assert not minigolf.doubtful(read(0.95, minigolf.CLEAR_MARGIN - 0.1))  # a sharp look stands on less
    assert minigolf.doubtful(read(0.95, 0.0))  # a tie between meanings
    assert minigolf.doubtful(read(UNKNOWN_BELOW - 0.05, 1.0))  # not a tile we know


def test_tokens_are_read_together_each_number_once():
    digits = np.full((2, 9), 0.1)
    digits[0, :2] = 0.80, 0.84  # looks a little more like a 2 than a 1
    digits[1, :2] = 0.50, 0.95  # clearly a 2: so the first token is the 1
    (first, first_margin, first_alts), (second, second_margin, _) = assign(digits)
    assert (first, second) == (1, 2)
    assert first_margin == pytest.approx(0.95 + 0.80 - 0.84 - 0.50)  # both would have to change
    assert first_alts[0][0] == 2 and second_margin == pytest.approx(first_margin)


def test_no_course_is_a_one_line_error():
    rng = np.random.default_rng(1)
    table = np.full((600, 800, 3), (60, 110, 170), np.uint8) + rng.integers(0, 20, (600, 800, 3), dtype=np.uint8)
    with pytest.raises(ScanError) as err:
        minigolf.scan(table)
    assert "\n" not in str(err.value)
    assert minigolf.likelihood(table) < 0.1


def test_likelihood_prefers_a_course(photo):
    assert minigolf.likelihood(photo[1]) > 0.5



def _worn(monkeypatch, unread: int) -> None:
    """Scans then find the first ``unread`` tiles of a course matching no catalogue tile."""
    read_cells = minigolf._read_cells

    def worn(*args):
        cells = read_cells(*args)
        for rc in sorted(cells.tiles)[:unread]:
            cells.tiles[rc] = TileRead("gr01", 0, UNKNOWN_BELOW / 2, 0.0, ())
        return cells

    monkeypatch.setattr(minigolf, "_read_cells", worn)


def test_a_course_with_most_cells_unrecognised_is_read_and_its_lattice_flagged(photo, monkeypatch):
    _worn(monkeypatch, 6)  # 5 of 11 tiles recognised
    res = minigolf.scan(photo[1])
    grid = [r for r in res.reads if r.where == "grid"]
    assert len(grid) == 1 and grid[0].flagged and "lattice" in grid[0].note
    assert sum(t["tile"] != UNKNOWN for t in res.board["tiles"]) == 5


def test_green_art_with_hardly_any_catalogue_tile_is_no_course(photo, monkeypatch):
    _worn(monkeypatch, 9)  # 2 of 11 tiles recognised
    with pytest.raises(ScanError, match="no catalogue tiles"):
        minigolf.scan(photo[1])


def test_a_course_read_clearly_has_no_lattice_doubt(result):
    assert not any(r.where == "grid" for r in result.reads)

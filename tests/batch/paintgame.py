"""A stand-in game plugin for the batch and review tests: an 18 Holes plan painted as coloured squares.

Each square of the image is one cell; its colour says what the cell holds (see ``PALETTE``). A colour
between two palette colours is read as the nearer one with a low confidence, so a test can make a
doubtful read on purpose. It checks batch/review behaviour, never a real scanner's accuracy.

``PAINT_DELAY`` (seconds, environment) slows every scan down, for the kill-and-resume test.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.types import Read, ScanResult

GAME = "18-holes"
TEE = {"k": "teegreen", "green_edge": "W", "tee_edge": "E", "par": 3}
PALETTE = {  # BGR colour -> cell
    (255, 255, 255): {"k": "empty"},
    (200, 60, 0): {"k": "water"},
    (0, 110, 0): {"k": "tree"},
    (0, 220, 240): {"k": "bunker"},
    (110, 110, 110): {"k": "fairway", "edges": ["W", "E"]},
    (0, 0, 220): TEE,
}
CODES = {"E": (255, 255, 255), "W": (200, 60, 0), "T": (0, 110, 0), "B": (0, 220, 240),
         "F": (110, 110, 110), "G": (0, 0, 220)}
FLAG_BELOW = 0.75
MIN_CELL = 32


def cell_size(height: int, width: int) -> int:
    return max(MIN_CELL, min(height, width) // 8)


def paint(path: str | Path, rows: list[str], cell: int = MIN_CELL, between: dict | None = None) -> Path:
    """Write a plan: ``rows`` of codes (``"GFG"``); ``between`` maps (r, c) -> (code, code, t) to blend two
    colours (t = weight of the second), making that read doubtful."""
    image = np.zeros((len(rows) * cell, len(rows[0]) * cell, 3), np.uint8)
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            colour = np.array(CODES[code], float)
            if between and (r, c) in between:
                a, b, t = between[(r, c)]
                colour = (1 - t) * np.array(CODES[a], float) + t * np.array(CODES[b], float)
            image[r * cell:(r + 1) * cell, c * cell:(c + 1) * cell] = np.round(colour).astype(np.uint8)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)
    return path


def _grid(image: np.ndarray) -> tuple[int, int, int, np.ndarray]:
    h, w = image.shape[:2]
    size = cell_size(h, w)
    rows, cols = max(1, round(h / size)), max(1, round(w / size))
    small = cv2.resize(image, (cols, rows), interpolation=cv2.INTER_AREA).astype(float)
    return rows, cols, size, small


def _ranked(colour: np.ndarray) -> list[tuple[float, tuple[int, int, int]]]:
    return sorted((float(np.linalg.norm(colour - np.array(key, float))), key) for key in PALETTE)


def likelihood(image: np.ndarray) -> float:
    _, _, _, small = _grid(image)
    near = [_ranked(px)[0][0] < 40 for px in small.reshape(-1, 3)]
    return float(np.mean(near))


def scan(image: np.ndarray, setup=None, debug=None) -> ScanResult:
    delay = float(os.environ.get("PAINT_DELAY", "0"))
    if delay:
        time.sleep(delay)
    rows, cols, size, small = _grid(image)
    cells, reads = [], []
    overlay = image.copy()
    for r in range(rows):
        row = []
        for c in range(cols):
            (d1, best), (d2, second) = _ranked(small[r, c])[:2]
            confidence = 1.0 - d1 / (d1 + d2) if d1 + d2 else 1.0
            value = PALETTE[best]
            row.append(dict(value))
            polygon = np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], float) * size
            flagged = confidence < FLAG_BELOW
            reads.append(Read(f"cells[{r}][{c}]", dict(value), confidence, flagged, polygon,
                              ((dict(PALETTE[second]), 1.0 - confidence),), "colour in between" if flagged else ""))
            if flagged:
                cv2.rectangle(overlay, (c * size, r * size), ((c + 1) * size - 1, (r + 1) * size - 1), (255, 0, 255), 2)
        cells.append(row)
    board = {"format": "golfscan/18-holes", "version": 1, "grid": {"rows": rows, "cols": cols}, "cells": cells,
             "review": [read.review_entry() | {"note": read.note} for read in reads if read.flagged]}
    return ScanResult(GAME, board, reads, lambda: overlay)


def register(plugins: dict) -> None:
    """Make this module the only game plugin (in place: the pipeline holds the same dict)."""
    here = str(Path(__file__).parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    plugins.clear()
    plugins[GAME] = "paintgame"


def register_here() -> None:
    """``register`` in the process that calls it (a Dask worker: ``client.run(register_here)``)."""
    from scanner.games import PLUGINS

    register(PLUGINS)


# ---------------------------------------------------------------------------------------------- fixtures
# Shared by tests/batch and tests/review: each conftest imports them.

@pytest.fixture
def painted():
    """This module is the only game plugin for the test's duration."""
    from scanner.games import PLUGINS

    saved = dict(PLUGINS)
    register(PLUGINS)
    yield sys.modules[__name__]
    PLUGINS.clear()
    PLUGINS.update(saved)


@pytest.fixture
def club_night(tmp_path, painted):
    """A table of two players (one doubtful read), a photo scored alone, a broken photo, a note."""
    root = tmp_path / "night"
    paint(root / "table1" / "ada.png", ["GFG", "EEE"])
    paint(root / "table1" / "bo.png", ["GFG", "EEE"], between={(0, 1): ("F", "W", 0.45)})
    (root / "table1" / "setup.json").write_text(json.dumps(
        {"game": "18-holes", "photos": {"ada.png": {"player": "Ada"}, "bo.png": {"player": "Bo"}},
         "board": {"setup": {"committee_bonus": 1}}}))
    paint(root / "loose" / "solo.png", ["GFG", "TTB"])
    (root / "loose" / "broken.jpg").write_bytes(b"not a jpeg")
    (root / "loose" / "notes.txt").write_text("bring pencils")
    return root

"""Batch tests run on the painted stand-in game (``paintgame``), never on a real scanner's accuracy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import paintgame  # noqa: E402

from scanner.games import PLUGINS  # noqa: E402


@pytest.fixture
def painted(monkeypatch):
    """The painted game is the only plugin for the test's duration."""
    saved = dict(PLUGINS)
    paintgame.register(PLUGINS)
    yield paintgame
    PLUGINS.clear()
    PLUGINS.update(saved)


@pytest.fixture
def club_night(tmp_path, painted):
    """A table of two players (one doubtful read), a photo scored alone, a broken photo, a note."""
    root = tmp_path / "night"
    painted.paint(root / "table1" / "ada.png", ["GFG", "EEE"])
    painted.paint(root / "table1" / "bo.png", ["GFG", "EEE"], between={(0, 1): ("F", "W", 0.45)})
    (root / "table1" / "setup.json").write_text(json.dumps(
        {"game": "18-holes", "photos": {"ada.png": {"player": "Ada"}, "bo.png": {"player": "Bo"}},
         "board": {"setup": {"committee_bonus": 1}}}))
    painted.paint(root / "loose" / "solo.png", ["GFG", "TTB"])
    (root / "loose" / "broken.jpg").write_bytes(b"not a jpeg")
    (root / "loose" / "notes.txt").write_text("bring pencils")
    return root

"""Choices come from each game's board schema (and catalogue), and every one is a valid value there."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from golfscan.choices import check_value, choices
from golfscan.corrections import set_place
from rules import registry

REPO = Path(__file__).resolve().parents[2]
SMALL_PLAN = {"format": "golfscan/18-holes", "version": 1, "grid": {"rows": 1, "cols": 2},
              "cells": [[{"k": "teegreen", "green_edge": "W", "tee_edge": "E", "par": 3},
                         {"k": "fairway", "edges": ["W", "E"]}]]}


def test_every_square_kind_with_its_fields():
    found = [c.value for c in choices("18-holes", SMALL_PLAN, "cells[0][1]")]
    kinds = {v["k"] for v in found}
    assert kinds == set(registry.game("18-holes").SCHEMA["$defs"]["cell"]["properties"]["k"]["enum"])
    assert sum(v["k"] == "fairway" for v in found) == 6  # edge pairs: N-E N-S N-W E-S E-W S-W
    assert sum(v["k"] == "teegreen" for v in found) == 4 * 3 * 4  # green edge x another tee edge x par (or none)
    assert {"k": "mountain", "style": "black"} in found


def test_every_choice_scores_in_the_board():
    for choice in choices("18-holes", SMALL_PLAN, "cells[0][1]"):
        board = set_place(copy.deepcopy(SMALL_PLAN), "cells[0][1]", choice.value)
        registry.parse_board(board)  # schema-valid and parseable


def test_par_digits_follow_the_square_they_are_in():
    assert [c.value for c in choices("18-holes", SMALL_PLAN, "cells[0][0].par")] == [3, 4, 5, None]


def test_card_faces():
    board = {"format": "golfscan/gnoming-a-round", "version": 1, "rounds": [{"grids": {"Ada": [["5"] * 3] * 3}}]}
    faces = [c.value for c in choices("gnoming-a-round", board, "rounds[0].grids.Ada[2][1]")]
    assert faces == registry.game("gnoming-a-round").SCHEMA["$defs"]["card"]["enum"]


def test_catalogue_tiles_with_their_rotations_keep_their_place():
    engine = pytest.importorskip("rules.minigolf")
    ids = [t["id"] for t in json.loads((Path(engine.__file__).parent / "tiles.json").read_text())["tiles"]]
    board = {"format": "golfscan/minigolf-designer", "version": 1, "grid": {"rows": 3, "cols": 3},
             "entrance": {"row": 0, "col": 0, "facing": "SE"}, "setup": {"player": "Ada"},
             "tiles": [{"row": 1, "col": 2, "tile": ids[0], "rotation": 90}]}
    found = [c.value for c in choices("minigolf-designer", board, "tiles[0]")]
    assert len(found) == (len(ids) + 1) * 4  # every id and "unknown", four rotations each
    assert all((v["row"], v["col"]) == (1, 2) for v in found)
    labels = [c.label for c in choices("minigolf-designer", board, "tiles[0]")]
    assert labels[:2] == [f"{ids[0]}, rotation 0", f"{ids[0]}, rotation 90"]


def test_scanner_guesses_come_first_and_invalid_guesses_are_dropped():
    guesses = [{"k": "water"}, {"k": "lava"}]
    found = choices("18-holes", SMALL_PLAN, "cells[0][1]", guesses)
    assert found[0].value == {"k": "water"} and found[0].group == "the scanner's guesses"
    assert {"k": "lava"} not in [c.value for c in found]
    assert sum(c.value == {"k": "water"} for c in found) == 1


def test_free_text_has_no_choices_but_is_checked():
    assert choices("18-holes", SMALL_PLAN, "player") == []
    assert check_value("18-holes", SMALL_PLAN, "player", "Ada") == ""
    assert "is not of type 'string'" in check_value("18-holes", SMALL_PLAN, "player", 7)

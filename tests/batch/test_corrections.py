"""Correction sidecars: JSON places, applying to a scan, files that are broken or from another photo."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from golfscan import corrections
from golfscan.cli import main
from scanner.types import Read, ScanResult


def scan_of(board: dict, reads: list[Read]) -> ScanResult:
    return ScanResult("18-holes", board, reads, None)


@pytest.mark.parametrize("where, parts", [
    ("cells[3][4]", ["cells", 3, 4]),
    ("tiles[2].rotation", ["tiles", 2, "rotation"]),
    ("rounds[0].grids.Ada Lovelace[1][2]", ["rounds", 0, "grids", "Ada Lovelace", 1, 2]),
    ("player", ["player"]),
])
def test_places_parse_as_the_rules_name_them(where, parts):
    assert corrections.parse_place(where) == parts


@pytest.mark.parametrize("where", ["", "cells[x]", "cells[1", "cells..k"])
def test_malformed_places_are_refused(where):
    with pytest.raises(corrections.PlaceError):
        corrections.parse_place(where)


def test_a_correction_never_invents_structure():
    board = {"cells": [[{"k": "tree"}]]}
    for where in ("cells[1][0]", "cells[0][0].par.x", "tiles[0]"):
        with pytest.raises(corrections.PlaceError):
            corrections.set_place(board, where, 1)
    assert board == {"cells": [[{"k": "tree"}]]}


def test_apply_replaces_values_and_clears_their_flags():
    board = {"cells": [[{"k": "tree"}, {"k": "empty"}]],
             "review": [{"where": "cells[0][0]", "confidence": 0.4, "note": "?"}]}
    reads = [Read("cells[0][0]", {"k": "tree"}, 0.4, True, np.zeros((4, 2))), Read("cells[0][1]", {"k": "empty"}, 0.9, False)]
    sidecar = corrections.Sidecar("abc", [corrections.Correction("cells[0][0]", {"k": "water"}),
                                          corrections.Correction("cells[5][5]", {"k": "water"})])
    scan = scan_of(board, reads)
    fixed = corrections.apply(scan, sidecar, "abc")
    assert fixed.board["cells"][0][0] == {"k": "water"} and fixed.board["review"] == []
    assert [(r.value, r.flagged, r.confidence) for r in fixed.reads][0] == ({"k": "water"}, False, 1.0)
    assert fixed.warnings == ["correction of cells[5][5] no longer fits the board read: not applied"]
    assert scan.board["cells"][0][0] == {"k": "tree"} and scan.reads[0].flagged  # the input is unchanged
    other_photo = corrections.apply(scan, sidecar, "def")
    assert other_photo.board == scan.board and "photo changed" in other_photo.warnings[0]


def test_correcting_twice_keeps_one_entry_per_place(tmp_path):
    photo = tmp_path / "p.png"
    photo.write_bytes(b"pixels")
    corrections.correct(photo, "cells[0][0]", {"k": "water"}, was={"k": "tree"})
    corrections.correct(photo, "cells[0][0]", {"k": "bunker"}, was={"k": "tree"})
    saved = corrections.load_sidecar(photo)
    assert [(c.where, c.value) for c in saved.corrections] == [("cells[0][0]", {"k": "bunker"})]
    assert saved.photo_sha256 == corrections.file_sha256(photo)
    assert corrections.uncorrect(photo, "cells[0][0]").corrections == []


def test_a_broken_sidecar_stops_scan_with_its_name_and_line(club_night):
    photo = club_night / "table1" / "bo.png"
    corrections.sidecar_path(photo).write_text('{"format": "golfscan/corrections",\n "version": 1,,\n}')
    outcome = CliRunner().invoke(main, ["scan", str(photo)])
    assert outcome.exit_code == 2
    assert "bo.png.golfscan.json: line 2" in outcome.output and "Traceback" not in outcome.output


def test_a_sidecar_of_another_kind_is_refused(tmp_path):
    photo = tmp_path / "p.png"
    corrections.sidecar_path(photo).write_text(json.dumps({"format": "golfscan/18-holes", "version": 1}))
    with pytest.raises(ValueError, match="not a golfscan corrections file"):
        corrections.load_sidecar(photo)

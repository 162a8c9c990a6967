"""Gnoming A Round through `golfscan score-board`: bad files give one line naming file and place, exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from golfscan.cli import main

PLAIN = [["3", "4", "5"], ["6", "7", "8"], ["4", "5", "3"]]


def _write(tmp_path, rounds) -> str:
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"format": "golfscan/gnoming-a-round", "version": 1, "rounds": rounds}))
    return str(path)


@pytest.mark.parametrize(
    ("rounds", "place"),
    [
        ([{"grids": {"Ada": [["mulligan", "3", "mulligan"], PLAIN[1], PLAIN[2]]}}], "rounds[0].grids.Ada"),
        ([{"grids": {n: [["hazard", "3", "4"], PLAIN[1], PLAIN[2]] for n in "ABCD"}}], "rounds[0].grids"),
        ([{"went_out_first": "Zed", "grids": {"Ada": PLAIN}}], "rounds[0].went_out_first"),
        ([{"grids": {"Ada": PLAIN[:2]}}], "rounds[0].grids.Ada"),
        ([{"grids": {"Ada": PLAIN}}, {"grids": {"Bo": PLAIN}}], "rounds[1].grids"),
        ([], "rounds"),
    ],
)
def test_invalid_board_is_one_line_naming_file_and_place(tmp_path, rounds, place):
    path = _write(tmp_path, rounds)
    result = CliRunner().invoke(main, ["score-board", path])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert path in lines[0] and place in lines[0]
    assert "Traceback" not in result.output


def test_valid_board_prints_itemized_score(tmp_path):
    grid = [["4", "4", "mulligan"], ["3", "-1", "6"], ["8", "5", "6"]]
    path = _write(tmp_path, [{"went_out_first": "Ada", "grids": {"Ada": grid, "Bo": PLAIN, "Cy": PLAIN}}])
    result = CliRunner().invoke(main, ["score-board", path, "--json"])
    assert result.exit_code == 0
    scores = {s["player"]: s["total"] for s in json.loads(result.output)["scores"]}
    assert scores == {"Ada": -4 - 6 + 3 + 8 + 5 - 1 - 5, "Bo": 45, "Cy": 45}

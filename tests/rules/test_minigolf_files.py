"""Minigolf Designer board files through `golfscan score-board`: examples, malformed files, scanner keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from minigolf_kit import course

from golfscan.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "minigolf-designer"


def run(*args: str):
    return CliRunner().invoke(main, ["score-board", *args])


def test_example_board_prints_an_itemized_table():
    result = run(str(EXAMPLES / "board.json"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Minigolf Designer - Ada"
    for item in ("visitors", "circuit: green 9 -> entrance", "par: green area", "client: Mrs Noreturn", "TOTAL"):
        assert any(line.strip().startswith(item) for line in lines), item


def test_two_example_boards_give_standings_and_json():
    files = [str(EXAMPLES / "board.json"), str(EXAMPLES / "board-2.json")]
    assert "Standings" in run(*files).output
    data = json.loads(run(*files, "--json").output)
    totals = {s["player"]: s["total"] for s in data["scores"]}
    assert [s["player"] for s in data["standings"]] == sorted(totals, key=lambda p: -totals[p])
    assert len(data["scores"][0]["details"]["holes"]) == 9


def test_expert_flag_ranks_clients():
    files = [str(EXAMPLES / "board.json"), str(EXAMPLES / "board-2.json")]
    family = json.loads(run(*files, "--json").output)
    expert = json.loads(run(*files, "--json", "--expert").output)
    assert family != expert
    assert any("expert:" in line["why"] for line in expert["scores"][1]["lines"])


def write(tmp_path, data, name="board.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def bad(change):
    data = course([(1, 1), (1, 2), (1, 3)])
    change(data)
    return data


@pytest.mark.parametrize("data, place, words", [
    ('{"format": "golfscan/minigolf-designer",', "line 1", "not valid JSON"),
    (bad(lambda d: d["tiles"][1].update(tile="st99")), "tiles[1].tile", "unknown tile id 'st99'"),
    (bad(lambda d: d["tiles"][2].update(row=12)), "tiles[2]", "off the 12x12 grid"),
    (bad(lambda d: d["tiles"][2].update(row=1, col=2)), "tiles[2]", "already taken by tiles[1]"),
    (bad(lambda d: d["tiles"][0].update(row=0, col=0)), "tiles[0]", "the entrance"),
    (bad(lambda d: d.update(version=2)), "version", "not supported"),
    (bad(lambda d: d["tiles"][0].update(rotation=45)), "tiles[0].rotation", ""),
    (bad(lambda d: d["setup"].update(clients=["mr-tall"])), "setup.clients[0]", "unknown client"),
    (bad(lambda d: d["setup"].update(land="swamp")), "setup.land", "unknown land card"),
    (bad(lambda d: d["tokens"].append({"number": 2, "row": 1, "col": 2, "pathway": 3})), "tokens[1].pathway", "no pathway 3"),
])
def test_malformed_board_one_clear_line_exit_2(tmp_path, data, place, words):
    path = write(tmp_path, data)
    result = run(path)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert lines[0].startswith(f"golfscan: {path}: {place}")
    assert words in lines[0]


def test_scanner_source_and_review_keys_pass_through_as_warnings(tmp_path):
    data = course([(1, 1), (1, 2), (1, 3)])
    data["source"] = {"photo": "IMG_0001.jpg", "scanner": "0.1"}
    data["review"] = [{"where": "tiles[1]", "confidence": 0.41, "note": "rotation unsure"}]
    result = run(write(tmp_path, data))
    assert result.exit_code == 0
    assert "scanner review: tiles[1]: rotation unsure (confidence 0.41)" in result.output

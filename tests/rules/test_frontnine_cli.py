"""The Front Nine through `golfscan score-board`: bad files give one line naming file and place, exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from golfscan.cli import main
from rules import standins as standin_values


def _player(name: str, course: list[str], **extra) -> dict:
    return {"name": name, "course": course, **extra}


def _write(tmp_path, players, name="table.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"format": "golfscan/the-front-nine", "version": 1, "players": players}))
    return str(path)


@pytest.mark.parametrize(
    ("players", "place", "words"),
    [
        (
            [_player("A", ["c09", "c10"]), _player("B", ["c11", "c09"])],
            "players[1].course[1]",
            "already on the table",
        ),
        ([_player("A", ["c09", "c99"])], "players[0].course[1]", "unknown course card"),
        ([_player("A", ["c09", "pro-shop"])], "players[0].course[1]", "special card"),
        ([_player("A", ["c09"], specials=["c10"])], "players[0].specials[0]", "course card"),
        ([_player("A", ["c09"], specials=["pro-shop", "pro-shop"])], "players[0].specials[1]", "already"),
        ([_player("A", [f"c{i}" for i in range(10, 20)])], "players[0].course", "at most 9"),
        ([_player(n, ["c09"]) for n in "ABCDE"], "players", "expected at most 4 item(s), found 5"),
        ([], "players", "expected at least 1 item(s), found 0"),
        ([_player("A", ["c09"]), _player("A", ["c10"])], "players[1].name", "twice"),
        (
            [_player("A", ["c01", "c02"]), _player("B", ["c03", "c04"])],
            "players",
            "2-player game uses only 3",
        ),
        (
            [
                _player(
                    "A",
                    ["c09", "c10"],
                    club_house={"x_mm": 0, "y_mm": 0},
                    positions=[{"x_mm": 0, "y_mm": 88}],
                )
            ],
            "players[0].positions",
            "one per card",
        ),
        ([_player("A", ["c09"], positions=[{"x_mm": 0, "y_mm": 88}])], "players[0]", "club_house"),
        ([_player("A", ["c09"], distance_balls=-1)], "players[0].distance_balls", "minimum"),
    ],
)
def test_invalid_table_is_one_line_naming_file_and_place(tmp_path, players, place, words):
    path = _write(tmp_path, players)
    result = CliRunner().invoke(main, ["score-board", path])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert f"{path}: {place}:" in lines[0] and words in lines[0]


def test_two_files_are_refused_because_one_file_holds_the_table(tmp_path):
    a = _write(tmp_path, [_player("A", ["c09"])], "a.json")
    b = _write(tmp_path, [_player("B", ["c10"])], "b.json")
    result = CliRunner().invoke(main, ["score-board", a, b])
    assert result.exit_code == 2
    assert "whole table" in result.output


def test_stand_in_override_changes_the_ball_scale(tmp_path):
    club, card = {"x_mm": 0, "y_mm": 0}, [{"x_mm": 0, "y_mm": 238}]  # gap 238 - 88 = 150 mm
    path = _write(tmp_path, [_player("A", ["c09"], club_house=club, positions=card)])
    overrides = tmp_path / "standins.json"
    overrides.write_text(json.dumps({"the-front-nine": {"ball_mm": 30}}))
    plain = CliRunner().invoke(main, ["score-board", path, "--json"])
    try:
        scaled = CliRunner().invoke(main, ["score-board", path, "--json", "--standins", str(overrides)])
    finally:
        standin_values.set_overrides(None)  # the command leaves its overrides set in this process
    distance = [json.loads(r.output)["scores"][0]["details"]["distance_balls"] for r in (plain, scaled)]
    assert distance == [10.0, 5.0]

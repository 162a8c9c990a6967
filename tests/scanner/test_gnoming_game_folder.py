"""A Gnoming A Round game end to end: a folder of three round photos and a setup naming who went out
first in each, through ``golfscan batch``, gives the game's standings as the rules score the true rounds."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from flatphoto import flat_photo

from fixtures.games import gnoming
from golfscan.batch import OUT_NAME
from golfscan.cli import main
from rules import registry

PPM = 2.5
OUT_FIRST = ["Player 2", "Player 1", "Player 2"]  # as the scanner names the grids (seats from the bottom)


def _round(seed: int) -> dict:
    """One round of two players, Ada and Bo, with grids drawn at random."""
    board = gnoming.random_board(np.random.default_rng(seed))
    grids = dict(zip(["Ada", "Bo"], list(board["rounds"][0]["grids"].values())[:2], strict=True))
    return {**board, "rounds": [{"grids": grids}]}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A game folder: three rounds photographed at the same table (the players keep their seats)."""
    folder = tmp_path_factory.mktemp("night") / "table1"
    folder.mkdir()
    rounds = [_round(seed) for seed in (21, 22, 23)]
    for k, board in enumerate(rounds):
        photo = flat_photo(gnoming.compose(board, np.random.default_rng(4)), PPM, shadows=0.3)
        cv2.imwrite(str(folder / f"round{k + 1}.png"), photo.image)
    setup = {"game": "gnoming-a-round",
             "photos": {f"round{k + 1}.png": {"rounds": [{"went_out_first": who}]} for k, who in enumerate(OUT_FIRST)}}
    (folder / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    outcome = CliRunner().invoke(main, ["batch", str(folder.parent), "--jobs", "1", "--quiet"])
    return rounds, folder.parent / OUT_NAME, outcome


def test_each_round_is_read_whole_and_the_seats_keep_their_names(played):
    rounds, out, outcome = played
    assert outcome.exit_code == 0, outcome.output
    records = {r["photo"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    names = set()
    for k, truth in enumerate(rounds):
        record = records[f"table1/round{k + 1}.png"]
        assert record["flagged"] == 0
        read = json.loads((out / record["board"]).read_text())["rounds"][0]
        assert read["went_out_first"] == OUT_FIRST[k]
        # every grid read is one of the true grids, and each player sits under the same name every round
        seen = {name: next(p for p, g in truth["rounds"][0]["grids"].items() if g == grid)
                for name, grid in read["grids"].items()}
        assert sorted(seen.values()) == ["Ada", "Bo"]
        names.add(tuple(sorted(seen.items())))
    assert len(names) == 1


def test_the_game_standings_are_the_true_rounds_scored(played):
    rounds, out, _ = played
    summary = json.loads((out / "summary.json").read_text())
    (game,) = summary["games"]
    assert game["folder"] == "table1" and not game["error"]
    # the true game, with the grids under the names the scanner gave them
    records = {r["photo"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    read = json.loads((out / records["table1/round1.png"]["board"]).read_text())["rounds"][0]["grids"]
    name_of = {next(p for p, g in rounds[0]["rounds"][0]["grids"].items() if g == grid): name
               for name, grid in read.items()}
    true_rounds = [{"grids": {name_of[p]: g for p, g in r["rounds"][0]["grids"].items()}, "went_out_first": who}
                   for r, who in zip(rounds, OUT_FIRST, strict=True)]
    engine, board = registry.parse_board({"format": "golfscan/gnoming-a-round", "version": 1, "rounds": true_rounds})
    want = [(s.player, s.total, s.rank) for s in engine.score([board], {}).standings]
    assert [(s["player"], s["total"], s["rank"]) for s in game["result"]["standings"]] == want
    items = {line["item"].split()[1] for line in game["result"]["scores"][0]["lines"]}
    assert items == {"1", "2", "3"}  # itemized round by round

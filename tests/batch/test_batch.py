"""golfscan batch: game folders get standings, results files, errors, resume, corrections, Dask."""

from __future__ import annotations

import csv
import json
import os
import platform
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from golfscan import batch, corrections
from golfscan.batch import CACHE_DIR, OUT_NAME, run_batch
from golfscan.cli import main
from scanner.games import PLUGINS

RUN_CLI = Path(__file__).with_name("run_cli.py")
REPO = Path(__file__).resolve().parents[2]


def results(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def by_photo(out: Path) -> dict[str, dict]:
    return {r["photo"]: r for r in results(out)}


def test_game_folder_standings_singles_and_errors(club_night):
    outcome = CliRunner().invoke(main, ["batch", str(club_night), "--jobs", "1", "--quiet"])
    assert outcome.exit_code == 1, outcome.output  # one broken photo: reported, the rest scored
    out = club_night / OUT_NAME
    summary = json.loads((out / "summary.json").read_text())
    (game,) = summary["games"]
    assert game["folder"] == "table1"
    standings = [(s["player"], s["total"]) for s in game["result"]["standings"]]
    assert sorted(standings) == [("Ada", 3), ("Bo", 3)]  # par 3 hole + link + committee bonus 1 each
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert {(r["photo"], r["player"], r["rank"]) for r in rows if r["status"] == "ok"} == {
        ("table1/ada.png", "Ada", "1"), ("table1/bo.png", "Bo", "1"), ("loose/solo.png", "Player 1", "")}
    errors = list(csv.DictReader((out / "errors.csv").open()))
    assert [(e["file"], "not a readable image" in e["reason"]) for e in errors] == [("loose/broken.jpg", True)]
    records = by_photo(out)
    assert records["table1/bo.png"]["flagged"] == 1 and records["table1/bo.png"]["review"][0]["where"] == "cells[0][1]"
    assert records["table1/ada.png"]["flagged"] == 0
    assert (out / records["table1/bo.png"]["overlay"]).is_file()
    board = json.loads((out / records["table1/bo.png"]["board"]).read_text())
    assert board["player"] == "Bo" and board["setup"] == {"committee_bonus": 1}
    assert summary["ignored"] == ["loose/notes.txt"]
    assert "Game in table1" in outcome.output and "loose/broken.jpg" in outcome.output


def test_second_run_reuses_results_until_a_photo_changes(club_night, painted):
    first = run_batch(club_night, jobs=1)
    assert (first.scanned, first.reused) == (4, 0)
    again = run_batch(club_night, jobs=1)
    assert (again.scanned, again.reused) == (0, 4)
    assert again.records == first.records
    painted.paint(club_night / "loose" / "solo.png", ["GWG", "TTB"])  # the photo was retaken
    third = run_batch(club_night, jobs=1)
    assert third.scanned == 1
    assert by_photo(third.out)["loose/solo.png"]["result"]["scores"][0]["total"] == 0
    assert len(list((third.out / CACHE_DIR).glob("*.json"))) == 4  # the stale entry is gone


def test_parallel_run_matches_serial_run(club_night, tmp_path):
    serial = run_batch(club_night, tmp_path / "serial", jobs=1)
    parallel = run_batch(club_night, tmp_path / "parallel", jobs=2)
    assert parallel.records == serial.records
    assert parallel.games == serial.games


def test_detection_asks_first_the_game_of_the_folders_last_two_photos(tmp_path, painted, monkeypatch):
    from golfscan import pipeline

    for folder, name in [("a", "1.png"), ("a", "2.png"), ("a", "3.png"), ("a", "4.png"), ("b", "5.png")]:
        painted.paint(tmp_path / "in" / folder / name, ["GFG", "EEE"])
    tried = []
    load_and_detect = pipeline.load_and_detect
    monkeypatch.setattr(pipeline, "load_and_detect",
                        lambda path, game, likely: tried.append(likely) or load_and_detect(path, game, likely))
    run_batch(tmp_path / "in", tmp_path / "out", jobs=1)
    assert tried == [None, None, "18-holes", "18-holes", None]  # a new folder starts without a guess


def test_a_folder_of_games_in_turn_gets_no_guess():
    batch._FOLDER_GAMES.clear()
    for game in ["18-holes", "gnoming-a-round", "18-holes"]:
        batch._remember_game("night", game)
    assert batch.likely_game("night") is None
    batch._remember_game("night", "18-holes")
    assert batch.likely_game("night") == "18-holes"


def test_scanners_start_up_only_when_photos_are_to_be_scanned(club_night, monkeypatch):
    loads = []
    load = batch._load_scanners
    monkeypatch.setattr(batch, "_load_scanners", lambda games: loads.append(set(games)) or load(games))
    run_batch(club_night, jobs=2)
    assert loads and None in loads[0]  # while the photos were hashed: every game, as one photo is detected
    loads.clear()
    run_batch(club_night, jobs=2)  # everything up to date
    assert loads == []


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc options")
def test_workers_keep_the_memory_they_free():
    probe = "from golfscan.batch import keep_freed_memory; print(keep_freed_memory())"  # its own process
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


def test_corrections_are_applied_and_survive_a_rescan(club_night):
    bo = club_night / "table1" / "bo.png"
    before = run_batch(club_night, jobs=1)
    assert by_photo(before.out)["table1/bo.png"]["result"]["scores"][0]["total"] == 3
    corrections.correct(bo, "cells[0][1]", {"k": "water"}, was={"k": "fairway", "edges": ["W", "E"]})
    after = run_batch(club_night, jobs=1)
    assert after.scanned == 1  # only the corrected photo
    for report in (after, run_batch(club_night, jobs=1, fresh=True)):
        record = by_photo(report.out)["table1/bo.png"]
        assert record["result"]["scores"][0]["total"] == 1  # hole broken: only the committee bonus
        assert record["flagged"] == 0
        board = json.loads((report.out / record["board"]).read_text())
        assert board["cells"][0][1] == {"k": "water"} and board["review"] == []
        standings = {s["player"]: s["rank"] for s in report.games[0]["result"]["standings"]}
        assert standings == {"Ada": 1, "Bo": 2}
    assert json.loads(corrections.sidecar_path(bo).read_text())["corrections"][0]["where"] == "cells[0][1]"


def test_scan_command_respects_the_sidecar(club_night):
    bo = club_night / "table1" / "bo.png"
    corrections.correct(bo, "cells[0][1]", {"k": "water"})
    outcome = CliRunner().invoke(main, ["scan", str(bo), "--json"])
    data = json.loads(outcome.output)
    assert data["result"]["scores"][0]["total"] == 0 and data["review"] == []


def test_setup_typo_names_file_and_line_and_the_rest_goes_on(club_night):
    (club_night / "table1" / "setup.json").write_text('{\n  "game": "18-holes",\n  "palyers": ["Ada"]\n}\n')
    report = run_batch(club_night, jobs=1)
    (problem,) = [e for e in report.errors if e.file == "table1/setup.json"]
    assert "line 3" in problem.reason and "palyers" in problem.reason and "2 photo(s) were not scanned" in problem.reason
    assert by_photo(report.out)["loose/solo.png"]["status"] == "ok"
    assert "table1/ada.png" not in by_photo(report.out)


@pytest.mark.parametrize("text, line, words", [
    ('{\n  "game": "18-hole",\n  "photos": {}\n}\n', 2, "game must be one of"),
    ('{\n  "game": "18-holes",\n  "photos": {\n    "ada.jpg": {"player": "Ada"}\n  }\n}\n', 4,
     "photo 'ada.jpg' named in the setup is not in this folder"),
])
def test_setup_mistakes_name_file_and_line(club_night, text, line, words):
    (club_night / "table1" / "setup.json").write_text(text)
    report = run_batch(club_night, jobs=1)
    (problem,) = [e for e in report.errors if e.file == "table1/setup.json"]
    assert f"setup.json: line {line}: {words}" in problem.reason
    assert by_photo(report.out)["loose/solo.png"]["status"] == "ok"


def test_unreadable_and_truncated_photos_are_error_lines(club_night, painted):
    loose = club_night / "loose"
    (loose / "gone.jpg").symlink_to(loose / "deleted.jpg")  # a dangling link: nothing can be read
    half = painted.paint(loose / "half.jpg", ["GFG", "EEE"], cell=160)
    half.write_bytes(half.read_bytes()[:-200])  # the end of the picture is missing
    report = run_batch(club_night, jobs=2)
    reasons = {e.file: e.reason for e in report.errors}
    assert reasons["loose/gone.jpg"] == "cannot read (No such file or directory)"
    assert reasons["loose/half.jpg"] == "the JPEG file is truncated"
    assert "not a readable image" in reasons["loose/broken.jpg"]
    assert len(list(csv.DictReader((report.out / "errors.csv").open()))) == len(reasons) == 3
    assert by_photo(report.out)["loose/solo.png"]["status"] == "ok"
    assert [s["player"] for s in report.games[0]["result"]["standings"]] == ["Ada", "Bo"]


def test_a_scanner_that_cannot_load_fails_its_photos_not_the_batch(club_night, tmp_path, monkeypatch, painted):
    (tmp_path / "halfwritten.py").write_text("raise ImportError(\"cannot import name 'x'\")\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    PLUGINS["the-front-nine"] = "halfwritten"  # the painted fixture puts the real plugins back afterwards
    report = run_batch(club_night, jobs=2)
    assert [s["player"] for s in report.games[0]["result"]["standings"]] == ["Ada", "Bo"]  # game given: no detection
    assert "scanner failed (ImportError: cannot import name 'x')" in by_photo(report.out)["loose/solo.png"]["error"]


def test_setup_json_syntax_error_names_the_line(club_night):
    (club_night / "table1" / "setup.json").write_text('{\n  "game": "18-holes",\n  "photos": {,}\n}\n')
    report = run_batch(club_night, jobs=1)
    (problem,) = [e for e in report.errors if e.file == "table1/setup.json"]
    assert "line 3" in problem.reason and "not valid JSON" in problem.reason


def test_empty_folder_and_folder_of_non_images(tmp_path, painted):
    (tmp_path / "empty").mkdir()
    outcome = CliRunner().invoke(main, ["batch", str(tmp_path / "empty")])
    assert outcome.exit_code == 2 and "no photos found" in outcome.output
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("x")
    outcome = CliRunner().invoke(main, ["batch", str(docs)])
    assert outcome.exit_code == 2 and "a.txt" in outcome.output
    assert not (docs / OUT_NAME).exists()


def _env(delay: str) -> dict[str, str]:
    return {**os.environ, "PAINT_DELAY": delay, "PYTHONPATH": str(REPO)}


def test_kill_midway_then_rerun_equals_an_uninterrupted_run(tmp_path, painted):
    root = tmp_path / "photos"
    for i in range(20):
        rows = ["GFG", "EEE"] if i % 3 else ["GWG", "TBE"]
        painted.paint(root / f"t{i % 2}" / f"p{i:02d}.png", rows)
    killed_out = tmp_path / "killed"
    command = [sys.executable, str(RUN_CLI), "batch", str(root), "--jobs", "2", "--quiet"]
    proc = subprocess.Popen([*command, "--out", str(killed_out)], env=_env("0.15"), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(list((killed_out / CACHE_DIR).glob("*.json"))) < 6 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the batch and its worker processes, mid-work
    proc.wait()
    done = len(list((killed_out / CACHE_DIR).glob("*.json")))
    assert 6 <= done < 20, "the kill should land midway"
    for path in killed_out.rglob("*.json"):
        if not path.name.endswith(".tmp"):
            json.loads(path.read_text())  # no half-written file
    rerun = subprocess.run([*command, "--out", str(killed_out)], env=_env("0"), capture_output=True, text=True)
    assert f"{20 - done} scanned, {done} up to date" in rerun.stdout, rerun.stdout + rerun.stderr
    whole = subprocess.run([*command, "--out", str(tmp_path / "whole")], env=_env("0"), capture_output=True)
    assert whole.returncode == rerun.returncode == 0
    assert results(killed_out) == results(tmp_path / "whole")
    assert (killed_out / "results.csv").read_text() == (tmp_path / "whole" / "results.csv").read_text()


def test_dask_cluster_gives_the_same_results(club_night, tmp_path, painted):
    import distributed  # the dev extra installs it: this must run in CI

    local = run_batch(club_night, tmp_path / "local", jobs=1)
    # worker processes of their own, reached over TCP, as a real cluster's would be
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  worker_dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert len(set(client.run(os.getpid).values()) - {os.getpid()}) == 2
        client.run(painted.register_here)
        remote = run_batch(club_night, tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert remote.scanned == 4
    assert remote.records == local.records
    assert remote.games == local.games


def test_scheduler_without_dask_is_one_line(club_night, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if Dask were not installed
    outcome = CliRunner().invoke(main, ["batch", str(club_night), "--scheduler", "tcp://127.0.0.1:8786"])
    assert outcome.exit_code == 2
    assert outcome.output == "golfscan: --scheduler needs Dask: pip install 'golfscan[dask]'\n"


def test_unreachable_scheduler_is_one_line(club_night, monkeypatch):
    monkeypatch.setattr(batch, "SCHEDULER_TIMEOUT", "1s")  # Dask retries a refused connection until then
    outcome = CliRunner().invoke(main, ["batch", str(club_night), "--scheduler", "tcp://127.0.0.1:9"])
    assert outcome.exit_code == 2 and outcome.output.count("\n") == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in outcome.output

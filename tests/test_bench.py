"""The benchmark's arithmetic: rates per item kind, flags, and unreadable photos counted as all wrong; its truth
files: any the game reads, others refused with one line before anything is scanned."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from paths import outside_dir

from golfscan import bench
from golfscan.bench import PhotoOutcome, _all_wrong, format_summary, read_truth, summarize
from golfscan.cli import main


def _outcome(wrong, exact, score_right, flagged, seconds=1.0):
    return PhotoOutcome("p.jpg", {"tiles": 40, "tiles_wrong": wrong}, exact, score_right, flagged,
                        scan_seconds=seconds, decode_seconds=0.5)


def test_summary_rates():
    outcomes = [_outcome(0, True, True, False), _outcome(2, False, False, True, 3.0),
                _outcome(1, False, False, False, 2.0), _outcome(0, True, True, False)]
    s = summarize(outcomes)
    assert s["tiles read error %"] == pytest.approx(100 * 3 / 160)
    assert s["boards exactly right %"] == 50.0
    assert s["photos flagged %"] == 25.0
    assert s["wrong scores not flagged"] == 1  # the third photo: wrong score, no flag
    assert s["median scan s"] == 1.5 and s["scan / decode"] == pytest.approx(3.0)
    assert "| tiles read error % | 1.875 |" in format_summary(s, "t")


def test_unreadable_photo_counts_every_item_wrong():
    counts = {"cards": 27, "cards_wrong": 0, "grids": 3, "exact": True, "wrong": []}
    assert _all_wrong(counts) == {"cards": 27, "cards_wrong": 27, "grids": 3}


def test_a_scanner_fault_on_one_photo_is_counted_as_its_failure_and_the_run_goes_on(monkeypatch):
    folder = (outside_dir() or Path("missing")) / "18-holes"
    if not folder.is_dir():
        pytest.skip("outside sample photos not found")
    photos = sorted(folder.glob("*.jpg"))[:2]
    scan = bench.scan_photo

    def faulty(path, *args):  # a scanner bug on the first photo only
        if Path(path) == photos[0]:
            raise KeyError((2, 4))
        return scan(path, *args)

    monkeypatch.setattr(bench, "scan_photo", faulty)
    first, second = bench.run(photos, "18-holes")
    assert first.error == "scanner failed (KeyError: (2, 4))" and first.flagged and not first.exact
    assert first.counts["squares_wrong"] == first.counts["squares"] > 0
    assert second.error == "" and second.counts["squares"] > 0
    assert summarize([first, second])["scan errors"] == 1


def test_wrong_reads_not_flagged_are_counted_only_for_games_that_list_them():
    listing = [_outcome(1, False, False, True), _outcome(0, True, True, False)]
    listing[0].missed, listing[1].missed = ["cells[0][1]", "cells[2][2].par"], []
    assert summarize(listing)["wrong reads not flagged"] == 2
    assert "wrong reads not flagged" not in summarize([_outcome(1, False, False, True)])


def test_a_truth_file_of_another_kind_stops_the_bench_before_it_scans_with_one_line(tmp_path):
    (tmp_path / "plan.jpg").write_bytes(b"not scanned")
    for content, reason in (('{"rows": 1}', "not a ground-truth file for 18-holes"), ('{"rows":', "cannot read")):
        (tmp_path / "plan.json").write_text(content)
        result = CliRunner().invoke(main, ["bench", "--game", "18-holes", "--seed", "1", "--photos", str(tmp_path),
                                           "--out", str(tmp_path / "out")])
        assert result.exit_code != 0 and isinstance(result.exception, SystemExit)
        assert reason in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
        assert not (tmp_path / "out").exists()


def test_a_folder_of_photos_is_measured_without_a_seed_and_with_neither_the_bench_says_what_it_needs(tmp_path):
    (tmp_path / "plan.jpg").write_bytes(b"not scanned")
    (tmp_path / "plan.json").write_text('{"rows": 1}')
    without_seed = CliRunner().invoke(main, ["bench", "--game", "18-holes", "--photos", str(tmp_path)])
    assert "not a ground-truth file for 18-holes" in without_seed.output  # it got as far as the truth files
    for command in (["bench", "--game", "18-holes"], ["bench-batch"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code != 0 and "Traceback" not in result.output
        assert result.output.strip().splitlines() == ["golfscan: give --seed to make fresh photos, or --photos FOLDER to "
                                                      + ("measure" if command[0] == "bench" else "time")
                                                      + " photos you have"]


def test_outside_samples_in_the_neutral_format_are_benchmarked_as_they_are():
    folder = (outside_dir() or Path("missing")) / "18-holes"
    if not folder.is_dir():
        pytest.skip("outside sample photos not found")
    photo = sorted(folder.glob("*.jpg"))[0]
    setup, board = read_truth(photo, "18-holes")
    truth = json.loads(photo.with_suffix(".json").read_text())
    assert board["cells"] == truth["cells"] and board["grid"] == {"rows": truth["rows"], "cols": truth["cols"]}
    assert setup == {}

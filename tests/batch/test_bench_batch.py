"""golfscan bench-batch: batch throughput, CPU per photo, flags, errors and game detection, as CSV + markdown."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from golfscan.cli import main


def with_truth(photo, game: str) -> None:
    """Ground truth beside a photo, as the photo synthesizer writes it (only the game matters here)."""
    photo.with_suffix(".json").write_text(json.dumps({"board": {"format": f"golfscan/{game}", "version": 1}}))


def test_bench_batch_reports_throughput_and_detection(tmp_path, painted):
    photos = tmp_path / "photos"
    with_truth(painted.paint(photos / "a.png", ["GFG", "EEE"]), "18-holes")
    with_truth(painted.paint(photos / "b.png", ["GFG", "EEE"], between={(0, 1): ("F", "W", 0.45)}), "18-holes")
    with_truth(painted.paint(photos / "c.png", ["GWG", "TTB"]), "gnoming-a-round")  # detected as 18 Holes
    (photos / "d.jpg").write_bytes(b"not a jpeg")
    out = tmp_path / "bench"
    outcome = CliRunner().invoke(main, ["bench-batch", "--seed", "1", "--photos", str(photos), "--out", str(out),
                                        "--jobs", "2"])
    assert outcome.exit_code == 0, outcome.output
    table = (out / "summary.md").read_text()
    assert table.startswith(f"## batch, photos in {photos}, 4 photos, 2 jobs\n") and table in outcome.output + "\n"
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [(r["photo"], r["true_game"], r["detected_game"], r["status"], r["flagged"]) for r in rows] == [
        ("a.png", "18-holes", "18-holes", "ok", "0"), ("b.png", "18-holes", "18-holes", "ok", "1"),
        ("c.png", "gnoming-a-round", "18-holes", "ok", "0"), ("d.jpg", "", "", "error", "0")]
    measured = {line.split(" | ")[0].strip("| "): float(line.split(" | ")[1].strip(" |"))
                for line in table.splitlines()[4:]}
    assert measured["photos"] == 4 and measured["photos flagged"] == 1 and measured["errors"] == 1
    assert measured["game detected right %"] == pytest.approx(200 / 3, abs=1e-3)
    assert measured["photos / min"] == pytest.approx(60 * 4 / measured["wall s"], rel=1e-2)
    assert measured["CPU s / photo"] > 0
    assert all(float(r["cpu_s"]) > 0 for r in rows[:3])  # every scanned photo timed in its worker
    assert measured["worker CPU s / photo, gnoming-a-round"] == pytest.approx(float(rows[2]["cpu_s"]), abs=1e-3)
    assert measured["worker CPU s / photo, 18-holes"] == pytest.approx(
        (float(rows[0]["cpu_s"]) + float(rows[1]["cpu_s"])) / 2, abs=1e-3)
    assert not (photos / "golfscan-results").exists()  # the batch wrote under --out, not into the photos


"""Accuracy and speed of a game scanner on photos with ground truth (fresh synthetic sets or any folder).

For each photo ``X.jpg`` with ground truth ``X.json`` (``{"board": <board file>, ...}``) the benchmark
scans the photo, compares the board read with the truth through the game plugin's ``compare``, scores
both boards with the rules engine, and times the scan against a plain full-size OpenCV decode.

``measure_batch`` times ``golfscan batch`` itself on a folder of mixed games: photos per minute (wall
clock, every core), CPU seconds per photo, flagged photos, errors and how often the game was detected.
"""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2

from golfscan.batch import Outcome, default_jobs, run_batch
from golfscan.files import write_bytes_atomic
from golfscan.pipeline import scan_photo
from rules import registry
from rules.common import BoardError
from scanner.errors import ScanError
from scanner.games import PLUGINS, plugin


@dataclass
class PhotoOutcome:
    photo: str
    counts: dict[str, float] = field(default_factory=dict)  # from the plugin's compare()
    exact: bool = False
    score_right: bool = False
    flagged: bool = False
    error: str = ""
    scan_seconds: float = 0.0
    decode_seconds: float = 0.0
    # wrong reads a person checking the flagged ones would not see (``ScanResult.unflagged``); None when the
    # game's compare() does not list the places it found wrong
    missed: list[str] | None = None

    @property
    def wrong_unflagged(self) -> bool:
        return not self.score_right and not self.flagged


def truth_setup(truth: dict[str, Any], game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a player would supply with ``--setup`` (the parts of the true board a photo cannot show), and
    the true board to compare scores with. A plugin whose photos cannot show the whole board (players'
    names, who went out first, other players' courses) says so with ``bench_setup(truth)``."""
    hook = getattr(plugin(game), "bench_setup", None)
    if hook is not None:
        return hook(truth)
    board = truth["board"]
    return {key: board[key] for key in ("setup", "player") if key in board}, board


def totals(board: dict[str, Any]) -> list[float] | None:
    """The players' totals for a board file, sorted (names a photo cannot show do not matter), or None
    when it cannot be scored."""
    try:
        engine, parsed = registry.parse_board(board)
        return sorted(s.total for s in engine.score([parsed], {}).scores)
    except BoardError:
        return None


class TruthError(ValueError):
    """A photo's ground-truth file that cannot be read as one for the game."""


def read_truth(jpg: Path, game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``truth_setup`` of the truth file beside ``jpg``; TruthError, naming the file, when it is unreadable or
    not a truth file for ``game``."""
    path = jpg.with_suffix(".json")
    try:
        return truth_setup(json.loads(path.read_text(encoding="utf-8")), game)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise TruthError(f"{path}: cannot read the ground truth ({err})") from None
    except (KeyError, TypeError, AttributeError, IndexError) as err:
        raise TruthError(f"{path}: not a ground-truth file for {game} (no {err})") from None


def measure_photo(jpg: Path, game: str) -> PhotoOutcome:
    setup, true_board = read_truth(jpg, game)
    outcome = PhotoOutcome(jpg.name)
    start = time.perf_counter()
    cv2.imread(str(jpg), cv2.IMREAD_COLOR)
    outcome.decode_seconds = time.perf_counter() - start
    start = time.perf_counter()
    try:
        scored = scan_photo(jpg, game, setup)
    except Exception as err:  # noqa: BLE001 - a scanner fault on one photo is that photo's failure, not the run's
        outcome.error = str(err) if isinstance(err, ScanError) else f"scanner failed ({type(err).__name__}: {err})"
        outcome.flagged = True
        outcome.scan_seconds = time.perf_counter() - start
        outcome.counts = _all_wrong(plugin(game).compare(true_board, true_board))
        return outcome
    outcome.scan_seconds = time.perf_counter() - start
    counts = plugin(game).compare(true_board, scored.scan.board)
    outcome.exact = bool(counts.pop("exact"))
    outcome.counts = counts
    if "wrong" in counts:
        outcome.missed = scored.scan.unflagged(counts["wrong"])
    outcome.flagged = bool(scored.scan.flagged) or scored.result is None
    outcome.error = scored.error
    read_totals = sorted(s.total for s in scored.result.scores) if scored.result else None
    outcome.score_right = read_totals is not None and read_totals == totals(true_board)
    return outcome


def _all_wrong(counts: dict[str, Any]) -> dict[str, float]:
    """A photo that could not be read gets every item counted wrong (and nothing else)."""
    return {k: (counts[k[: -len("_wrong")]] if k.endswith("_wrong") else v)
            for k, v in counts.items() if isinstance(v, int | float) and k != "exact" and not isinstance(v, bool)}


def summarize(outcomes: list[PhotoOutcome]) -> dict[str, float]:
    """Rates over a set: item error per counted kind, exact boards, right scores, flags, timings."""
    n = len(outcomes)
    summary: dict[str, float] = {"photos": n}
    kinds = sorted({k for o in outcomes for k in o.counts if f"{k}_wrong" in o.counts})
    for kind in kinds:
        total = sum(o.counts.get(kind, 0) for o in outcomes)
        wrong = sum(o.counts.get(f"{kind}_wrong", 0) for o in outcomes)
        summary[f"{kind} read error %"] = 100.0 * wrong / total if total else 0.0
    summary["boards exactly right %"] = 100.0 * sum(o.exact for o in outcomes) / n
    summary["scores exactly right %"] = 100.0 * sum(o.score_right for o in outcomes) / n
    summary["photos flagged %"] = 100.0 * sum(o.flagged for o in outcomes) / n
    summary["wrong scores not flagged"] = sum(o.wrong_unflagged for o in outcomes)
    listed = [o.missed for o in outcomes if o.missed is not None]
    if listed:  # stricter: a flagged photo may still hide a wrong read among its unflagged ones
        summary["wrong reads not flagged"] = sum(len(m) for m in listed)
    summary["scan errors"] = sum(bool(o.error) for o in outcomes)
    scans = sorted(o.scan_seconds for o in outcomes)
    decodes = sorted(o.decode_seconds for o in outcomes)
    summary["median scan s"] = statistics.median(scans)
    summary["p95 scan s"] = scans[min(n - 1, int(round(0.95 * (n - 1))))]
    summary["median decode s"] = statistics.median(decodes)
    summary["scan / decode"] = summary["median scan s"] / max(summary["median decode s"], 1e-9)
    return summary


def run(
    photos: Iterable[Path], game: str, on_done: Callable[[PhotoOutcome], None] | None = None
) -> list[PhotoOutcome]:
    outcomes = []
    for jpg in photos:
        outcome = measure_photo(jpg, game)
        outcomes.append(outcome)
        if on_done:
            on_done(outcome)
    return outcomes


def write_reports(outcomes: list[PhotoOutcome], summary: dict[str, float], out_dir: Path, title: str) -> None:
    """results.csv (one row per photo) and summary.md (the table quoted in notes)."""
    keys = sorted({k for o in outcomes for k in o.counts})
    header = ["photo", *keys, "exact", "score_right", "flagged", "wrong_unflagged", "wrong_reads_unflagged",
              "scan_s", "decode_s", "error"]
    rows = [[o.photo, *(o.counts.get(k, "") for k in keys), int(o.exact), int(o.score_right), int(o.flagged),
             int(o.wrong_unflagged), "" if o.missed is None else " ".join(o.missed), f"{o.scan_seconds:.3f}",
             f"{o.decode_seconds:.3f}", o.error] for o in outcomes]
    write_tables([header, *rows], summary, out_dir, title)


def write_tables(rows: list[list[Any]], summary: dict[str, float], out_dir: Path, title: str) -> None:
    """``rows`` (a header first) as results.csv and ``summary`` as summary.md."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    write_bytes_atomic(out_dir / "results.csv", buffer.getvalue().encode())
    write_bytes_atomic(out_dir / "summary.md", (format_summary(summary, title) + "\n").encode())


def format_summary(summary: dict[str, float], title: str) -> str:
    lines = [f"## {title}", "", "| measure | value |", "|---|---|"]
    for key, value in summary.items():
        shown = f"{value:.3f}" if isinstance(value, float) and not float(value).is_integer() else f"{value:g}"
        lines.append(f"| {key} | {shown} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- batch speed

def make_mixed(preset: str, n: int, seed: int, out: Path, megapixels: float | None = None,
               jobs: int = 1) -> list[Path]:
    """``n`` fresh photos with ground truth, equal shares of every game (one folder per game).

    >>> [n // 4 + (i < n % 4) for n in [6] for i in range(4)]  # the shares of 6 photos
    [2, 2, 1, 1]
    """
    from fixtures.make import make_batch

    photos = []
    for i, game in enumerate(PLUGINS):
        share = n // len(PLUGINS) + (i < n % len(PLUGINS))
        if share:
            names = make_batch(game, preset, share, seed, out / game, megapixels=megapixels, jobs=jobs)
            photos += [out / game / f"{name}.jpg" for name in names]
    return photos


def true_game(photo: Path) -> str:
    """The game of a photo with ground truth beside it (``X.json``: its board's format names the game)."""
    truth = json.loads(photo.with_suffix(".json").read_text(encoding="utf-8"))
    return truth["board"]["format"].removeprefix("golfscan/")


def cpu_seconds() -> float:
    """CPU time of this process and of its ended child processes (a batch's workers, once it is done)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


BATCH_COLUMNS = ["photo", "true_game", "detected_game", "status", "flagged", "cpu_s", "error"]


def measure_batch(photos: Path, out: Path, jobs: int | None = None, progress: Callable | None = None,
                  ) -> tuple[dict[str, float], list[list[Any]]]:
    """Run ``batch`` afresh on a folder (games detected) and time it: the summary, and a table of one row per
    photo for ``write_tables``. Photos with ground truth (``X.json``) also count how often the game was
    detected, and the CPU time per photo of each true game."""
    cpu_of: dict[str, float] = {}

    def timed(stream: Iterable[Outcome], total: int) -> Iterable[Outcome]:
        for outcome in progress(stream, total) if progress else stream:
            cpu_of[outcome.record["photo"]] = outcome.cpu_seconds
            yield outcome

    load = os.getloadavg()[0]
    cpu, start = cpu_seconds(), time.perf_counter()
    report = run_batch(photos, out, jobs=jobs, fresh=True, progress=timed)
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    n = len(report.records)
    rows = []
    for record in report.records:
        photo = report.root / record["photo"]
        truth = true_game(photo) if photo.with_suffix(".json").is_file() else ""
        rows.append([record["photo"], truth, record["game"] or "", record["status"], record["flagged"],
                     round(cpu_of.get(record["photo"], 0.0), 4), record["error"]])
    known = [row for row in rows if row[1]]
    summary: dict[str, float] = {
        "photos": n, "jobs": min(jobs or default_jobs(), n), "wall s": wall,
        "photos / min": 60.0 * n / wall if wall else 0.0, "CPU s / photo": cpu / n if n else 0.0,
        "photos flagged": sum(r["flagged"] > 0 for r in report.records), "errors": len(report.errors),
    }
    if known:
        summary["game detected right %"] = 100.0 * sum(row[1] == row[2] for row in known) / len(known)
    for game in sorted({row[1] for row in known}):
        summary[f"worker CPU s / photo, {game}"] = statistics.mean(row[5] for row in known if row[1] == game)
    summary["load average before"] = load
    summary["load average after"] = os.getloadavg()[0]
    return summary, [BATCH_COLUMNS, *rows]

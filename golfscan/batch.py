"""Score a folder tree of photos: games with standings, single photos, flagged reads, errors.

A folder holding a ``setup.json`` is one game: its photos (in name order) are that game's boards and
the game gets standings. Photos elsewhere are scored alone, their game detected unless given::

    {"game": "18-holes",                          # required
     "options": {},                               # passed to the rules (e.g. {"expert": true})
     "board": {"setup": {"committee_bonus": 2}},  # merged into every photo's board
     "photos": {"ada.jpg": {"player": "Ada"}}}    # merged into one photo's board

Work is spread over local processes (``jobs``) or a Dask cluster (``scheduler``). Every finished
photo is recorded at once under ``OUT/.cache`` by a key of its content, setup and corrections, so a
second run (or one after a kill) only scans what is new or changed. One bad file never stops a
batch: it becomes a line in ``errors.csv``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from golfscan import __version__, corrections
from golfscan.files import write_bytes_atomic, write_json_atomic
from rules import registry
from rules import standins as standin_values
from rules.common import BoardError

SETUP_NAME = "setup.json"
OUT_NAME = "golfscan-results"
CACHE_DIR = ".cache"
IMAGE_EXTS = {".jpg", ".jpeg", ".png", ".webp", ".tif", ".tiff", ".bmp", ".gif"}
IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG", b"GIF8", b"II*\x00", b"MM\x00*", b"BM")
SETUP_KEYS = {"game", "options", "board", "photos"}
OVERLAY_MAX_SIDE = 1600
SHOW_IGNORED = 10
SCHEDULER_TIMEOUT = "20s"


@dataclass(frozen=True)
class Problem:
    """A file that was not scored, with its one-line reason."""

    file: str
    reason: str


@dataclass(frozen=True)
class Job:
    """One photo to scan: everything a worker needs (picklable, no open files)."""

    photo: str  # absolute path
    rel: str  # path under the batch root, with '/'
    game: str | None  # None: detect
    setup: dict[str, Any] | None
    group: str  # the game folder (relative) or "" for a photo scored alone
    standins: str | None = None


@dataclass(frozen=True)
class GameFolder:
    folder: str  # relative to the root ('.' for the root itself)
    setup_file: str
    game: str
    options: dict[str, Any]
    photos: tuple[str, ...]  # relative paths, in board order


@dataclass
class Plan:
    jobs: list[Job] = field(default_factory=list)
    games: list[GameFolder] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # files that are not photos


@dataclass
class Outcome:
    """What a worker sends back for one photo: the results line, plus the files to write."""

    record: dict[str, Any]
    board: dict[str, Any] | None = None
    overlay_jpeg: bytes | None = None
    cpu_seconds: float = 0.0  # the worker process's CPU time for this photo (kept out of the results)


@dataclass
class BatchReport:
    root: Path
    out: Path
    records: list[dict[str, Any]]
    games: list[dict[str, Any]]
    problems: list[Problem]
    ignored: list[str]
    scanned: int
    reused: int
    seconds: float

    @property
    def flagged(self) -> int:
        return sum(r["flagged"] for r in self.records)

    @property
    def errors(self) -> list[Problem]:
        return (self.problems + [Problem(r["photo"], r["error"]) for r in self.records if r["status"] != "ok"]
                + [Problem(g["folder"], g["error"]) for g in self.games if g["error"]])


class SetupError(ValueError):
    """A setup file that cannot be used; the message names the file and, where it can, the line."""


# ---------------------------------------------------------------------------------------------- discovery

def natural_key(name: str) -> list[Any]:
    """Sort 'round2' before 'round10'.

    >>> sorted(["r10.jpg", "r2.jpg"], key=natural_key)
    ['r2.jpg', 'r10.jpg']
    """
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


def looks_like_photo(path: Path) -> bool:
    if path.suffix.lower() in IMAGE_EXTS:
        return True
    try:
        with open(path, "rb") as handle:
            head = handle.read(12)
    except OSError:
        return False
    return head.startswith(IMAGE_MAGIC) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


def _line_of(text: str, key: str) -> int | None:
    """The line where ``"key"`` first appears in a JSON text (for messages about a setup file)."""
    at = text.find(json.dumps(key))
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def read_game_setup(path: Path, photos_here: set[str]) -> tuple[str, dict[str, Any], dict[str, Any], dict]:
    """Check a folder's setup file; returns (game, options, board part, per-photo parts).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "setup.json"
    >>> _ = p.write_text('{"game": "18-holes",\\n "palyers": 3}')
    >>> read_game_setup(p, set())
    Traceback (most recent call last):
    golfscan.batch.SetupError: ...setup.json: line 2: unknown key 'palyers' (known: board, game, options, photos)
    """
    from golfscan.pipeline import read_setup
    from scanner.errors import ScanError

    try:
        data = read_setup(path)
    except ScanError as err:
        raise SetupError(str(err)) from None
    text = path.read_text(encoding="utf-8")

    def fail(key: str, message: str) -> SetupError:
        line = _line_of(text, key)
        return SetupError(f"{path}: {f'line {line}: ' if line else ''}{message}")

    for key in data:
        if key not in SETUP_KEYS:
            raise fail(key, f"unknown key {key!r} (known: {', '.join(sorted(SETUP_KEYS))})")
    game = data.get("game")
    if game not in registry.GAME_MODULES:
        raise fail("game", f"game must be one of {', '.join(registry.GAME_MODULES)} (got {game!r})")
    for key in ("options", "board", "photos"):
        if not isinstance(data.get(key, {}), dict):
            raise fail(key, f"{key!r} must be a JSON object")
    photos = data.get("photos", {})
    for name, part in photos.items():
        if name not in photos_here:
            raise fail(name, f"photo {name!r} named in the setup is not in this folder")
        if not isinstance(part, dict):
            raise fail(name, f"the setup of {name!r} must be a JSON object (a partial board)")
    return game, data.get("options", {}), data.get("board", {}), photos


def discover(root: str | Path, out: str | Path | None = None, game: str | None = None,
             standins: str | None = None, recursive: bool = True) -> Plan:
    """Walk ``root``: the photos to scan, the game folders, and the files that cannot be used."""
    from golfscan.pipeline import merge_setup

    root = Path(root).resolve()
    out = Path(out).resolve() if out else root / OUT_NAME
    plan = Plan()
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted((d for d in dirs if recursive and not d.startswith(".") and (here / d).resolve() != out
                          and d != OUT_NAME), key=natural_key)
        names = sorted((f for f in files if not f.startswith(".") and not corrections.is_sidecar(f)
                        and f != SETUP_NAME), key=natural_key)
        photos = [n for n in names if looks_like_photo(here / n)]
        plan.ignored += [(here / n).relative_to(root).as_posix() for n in names if n not in photos]
        rel_folder = here.relative_to(root).as_posix()
        rel = [(here / n).relative_to(root).as_posix() for n in photos]
        setup_path = here / SETUP_NAME
        if not setup_path.is_file():
            plan.jobs += [Job(str(here / n), r, game, None, "", standins) for n, r in zip(photos, rel, strict=True)]
            continue
        try:
            folder_game, options, board_part, per_photo = read_game_setup(setup_path, set(photos))
        except SetupError as err:
            skipped = f"; its {len(photos)} photo(s) were not scanned" if photos else ""
            plan.problems.append(Problem(setup_path.relative_to(root).as_posix(), f"{err}{skipped}"))
            continue
        plan.games.append(GameFolder(rel_folder, setup_path.relative_to(root).as_posix(), folder_game,
                                     options, tuple(rel)))
        plan.jobs += [Job(str(here / n), r, folder_game, merge_setup(board_part, per_photo.get(n, {})),
                          rel_folder, standins) for n, r in zip(photos, rel, strict=True)]
    return plan


def job_key(job: Job, photo_sha256: str) -> str:
    """A result is up to date while the photo (bytes and place), its setup, corrections and stand-ins are."""
    def sha_of(path: Path | str | None) -> str | None:
        return corrections.file_sha256(path) if path and Path(path).is_file() else None

    basis = {"photo": photo_sha256, "path": job.rel, "game": job.game, "setup": job.setup, "group": job.group,
             "corrections": sha_of(corrections.sidecar_path(job.photo)), "standins": sha_of(job.standins),
             "golfscan": __version__}
    return hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()


# ---------------------------------------------------------------------------------------------- one photo

# The games of each folder's last photos, in this process: photos of one folder (a table's) are mostly of one
# game, and once two in a row show the same one it is asked first (``pipeline.load_and_detect``), sparing the
# other games' likelihoods and, for 18 Holes, a second decode. In a folder of games taken in turn the guess
# would mostly be wrong, and a wrong 18 Holes guess costs a full-size decode: two alike, not one, are asked for.
_FOLDER_GAMES: dict[str, tuple[str, ...]] = {}
SAME_IN_A_ROW = 2


def likely_game(folder: str) -> str | None:
    """The game the folder's last ``SAME_IN_A_ROW`` photos in this process all showed, if they did."""
    last = _FOLDER_GAMES.get(folder, ())
    return last[0] if len(last) == SAME_IN_A_ROW and len(set(last)) == 1 else None


def _remember_game(folder: str, game: str) -> None:
    _FOLDER_GAMES[folder] = (*_FOLDER_GAMES.get(folder, ()), game)[-SAME_IN_A_ROW:]


def _init_worker() -> None:
    import cv2

    cv2.setNumThreads(1)  # one photo per core: OpenCV's own threads would only compete
    keep_freed_memory()


# glibc's malloc options (mallopt): never map large blocks on their own, and hand freed memory back to the
# system only beyond this much
M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4
KEEP_FREED = 1 << 30


def keep_freed_memory() -> bool:
    """Have this process keep the memory it frees for reuse rather than hand it back to the system (glibc's
    malloc; elsewhere nothing changes; True when it took). Photo after photo a worker needs arrays of the
    same sizes, and memory fresh from the system costs a page fault on its first touch of every page: a 12 MP
    decode took 46 ms into fresh memory against 27 ms into kept memory, and the batch ran 10% faster. The
    worker keeps its largest footprint until it ends."""
    import ctypes.util

    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, KEEP_FREED))


def run_job(job: Job, key: str = "", photo_sha256: str = "") -> Outcome:
    """Scan and score one photo, timed. Never raises: any failure is that photo's error line."""
    start = time.process_time()
    outcome = _scan_job(job, key, photo_sha256)
    outcome.cpu_seconds = time.process_time() - start
    return outcome


def _scan_job(job: Job, key: str, photo_sha256: str) -> Outcome:
    import cv2

    from golfscan.pipeline import scan_photo
    from scanner.errors import ScanError

    record = error_record(job, "", key, photo_sha256)
    try:
        standin_values.set_overrides(job.standins)
        folder = job.rel.rpartition("/")[0]
        scored = scan_photo(job.photo, job.game, job.setup, likely=likely_game(folder))
        _remember_game(folder, scored.scan.game)
    except (ScanError, BoardError) as err:
        record["error"] = _one_line(str(err), job.photo)
        return Outcome(record)
    except Exception as err:  # noqa: BLE001 - a scanner bug on one photo must not stop the batch
        record["error"] = _one_line(f"scanner failed ({type(err).__name__}: {err})")
        record["key"] = ""  # not remembered: the next run tries this photo again
        return Outcome(record)
    flagged = sorted(scored.scan.flagged, key=lambda r: r.confidence)
    record.update(
        game=scored.scan.game, status="ok" if scored.result else "unscored", error=scored.error,
        result=scored.result.to_dict() if scored.result else None, flagged=len(flagged),
        review=[r.review_entry() for r in flagged], warnings=list(scored.scan.warnings),
        board=f"boards/{job.rel}.board.json",
    )
    jpeg = None
    if scored.scan.overlay is not None:
        ok, encoded = cv2.imencode(".jpg", preview(scored.scan.overlay), [cv2.IMWRITE_JPEG_QUALITY, 90])
        if ok:
            jpeg = encoded.tobytes()
            record["overlay"] = f"overlays/{job.rel}.overlay.jpg"
    return Outcome(record, scored.scan.board, jpeg)


def preview(image: np.ndarray, max_side: int = OVERLAY_MAX_SIDE) -> np.ndarray:
    """Halve until the longer side is at most ``max_side``: OpenCV's area average has a fast path for
    halving (a 12 MP overlay: about 7 ms for two halvings, against about 24 ms for a third in one step).

    >>> preview(np.zeros((3000, 4000, 3), np.uint8)).shape
    (750, 1000, 3)
    """
    import cv2

    while max(image.shape[:2]) > max_side:
        image = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    return image


def error_record(job: Job, error: str, key: str = "", photo_sha256: str = "") -> dict[str, Any]:
    """A results line for a photo that was not scored (``run_job`` fills it in when it is)."""
    return {"photo": job.rel, "sha256": photo_sha256, "key": key, "group": job.group, "game": job.game,
            "status": "error", "error": error, "result": None, "flagged": 0, "review": [], "warnings": [],
            "board": None, "overlay": None}


def _one_line(text: str, photo: str = "") -> str:
    """One line; the photo's own path is left out (the file column names it)."""
    text = " ".join(text.split())
    return text[len(photo) + 2:] if photo and text.startswith(f"{photo}: ") else text


# ---------------------------------------------------------------------------------------------- executors

def default_jobs() -> int:
    """Every core this process may run on (a container or ``taskset`` may allow fewer than the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _load_scanners(games: Iterable[str | None]) -> None:
    """Import the pipeline and every game plugin, and have the plugins of ``games`` (all when one is to be
    detected: None) build the templates their scans keep (``warm_up``): a forked worker then starts ready and
    shares them, instead of each worker importing the plugins again (about 2 CPU seconds, mostly SciPy) and
    building the templates again (about 1 CPU second)."""
    import cv2

    from golfscan.pipeline import PLUGINS, plugin

    games = set(games)
    warm = set(PLUGINS) if None in games else games
    # No OpenCV thread pool may be running when the workers fork: a forked copy of one hangs the worker
    # that reconfigures it (``_init_worker``). One thread stops it; the pool starts again only when used.
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    for game in PLUGINS:
        try:
            module = plugin(game)
            if game in warm and hasattr(module, "warm_up"):
                module.warm_up()
        except Exception:  # noqa: BLE001 - a scanner that cannot load fails only its own photos, one by one
            continue  # in the workers, each with the reason
    cv2.setNumThreads(threads)


def _local(tasks: list[tuple[Job, str, str]], jobs: int) -> Iterator[Outcome]:
    jobs = min(jobs, len(tasks))
    if jobs <= 1:
        for task in tasks:
            yield run_job(*task)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    _load_scanners({job.game for job, _, _ in tasks})
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker) as pool:
        futures = [pool.submit(run_job, *task) for task in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def _dask(tasks: list[tuple[Job, str, str]], scheduler: Any) -> Iterator[Outcome]:
    """Run on a Dask cluster: ``scheduler`` is its address or an existing ``distributed.Client``."""
    if not tasks:  # everything up to date: no need to reach the cluster
        return
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SetupError("--scheduler needs Dask: pip install 'golfscan[dask]'") from None
    try:
        client = scheduler if isinstance(scheduler, Client) else Client(scheduler, timeout=SCHEDULER_TIMEOUT)
    except (OSError, ValueError) as err:  # TimeoutError is an OSError
        raise SetupError(f"cannot reach the Dask scheduler at {scheduler} ({_one_line(str(err)) or 'timed out'})") from None
    try:
        futures = client.map(run_job, *zip(*tasks, strict=True), pure=False)
        for future in as_completed(futures):
            yield future.result()
    finally:
        if client is not scheduler:
            client.close()


# ---------------------------------------------------------------------------------------------- the batch

def run_batch(
    root: str | Path,
    out: str | Path | None = None,
    jobs: int | None = None,
    game: str | None = None,
    scheduler: Any = None,
    fresh: bool = False,
    standins: str | None = None,
    progress: Callable[[Iterable[Outcome], int], Iterable[Outcome]] | None = None,
) -> BatchReport:
    """Scan everything under ``root`` that is not up to date, then write every result file under ``out``.

    ``progress`` wraps the stream of finished photos (e.g. a progress bar); ``fresh`` ignores earlier results.
    """
    start = time.perf_counter()
    root = Path(root).resolve()
    out = Path(out).resolve() if out else root / OUT_NAME
    standin_values.set_overrides(standins)
    _FOLDER_GAMES.clear()  # each batch learns its own folders (workers fork with this process's memory)
    plan = discover(root, out, game, standins)
    if not plan.jobs and not plan.problems:
        ignored = f" ({len(plan.ignored)} file(s) that are not photos: {', '.join(plan.ignored[:3])}" \
                  f"{' ...' if len(plan.ignored) > 3 else ''})" if plan.ignored else ""
        raise SetupError(f"{root}: no photos found{ignored}")
    cache = out / CACHE_DIR
    records: dict[str, dict[str, Any]] = {}
    todo: list[tuple[Job, str, str]] = []
    jobs = jobs or default_jobs()
    with ThreadPoolExecutor(1) as hasher:
        hashes = hasher.map(_photo_sha256, plan.jobs)
        if scheduler is None and jobs > 1 and (fresh or _cached_count(cache) < len(plan.jobs)):
            # photos to scan, most likely: the workers' start-up (about a second) goes on while the photos are
            # read and hashed (about 2 ms each, the interpreter free meanwhile)
            _load_scanners({job.game for job in plan.jobs})
        for job, (sha, unreadable) in zip(plan.jobs, hashes, strict=True):
            if unreadable:
                records[job.rel] = error_record(job, f"cannot read ({unreadable})")
                continue
            key = job_key(job, sha)
            cached = None if fresh else _load_cached(cache, key, out)
            if cached is not None:
                records[job.rel] = cached
            else:
                todo.append((job, key, sha))
    stream = _dask(todo, scheduler) if scheduler is not None else _local(todo, jobs)
    for outcome in progress(stream, len(todo)) if progress else stream:
        _store(out, outcome)
        records[outcome.record["photo"]] = outcome.record
    ordered = [records[job.rel] for job in plan.jobs if job.rel in records]
    games = [score_game(folder, records, out) for folder in plan.games]
    _prune(cache, {r["key"] for r in ordered})
    report = BatchReport(root, out, ordered, games, plan.problems, plan.ignored, len(todo),
                         len(plan.jobs) - len(todo), time.perf_counter() - start)
    write_reports(report)
    return report


def _photo_sha256(job: Job) -> tuple[str, str]:
    """The photo's content hash, or why it cannot be read."""
    try:
        return corrections.file_sha256(job.photo), ""
    except OSError as exc:
        return "", exc.strerror or type(exc).__name__


def _cached_count(cache: Path) -> int:
    try:
        return len(os.listdir(cache))
    except OSError:
        return 0


def _load_cached(cache: Path, key: str, out: Path) -> dict[str, Any] | None:
    try:
        record = json.loads((cache / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    files = [record.get("board"), record.get("overlay")]
    return record if all((out / f).is_file() for f in files if f) else None


def _store(out: Path, outcome: Outcome) -> None:
    """Write one photo's files, the cache record last: a record exists only once its files do."""
    record = outcome.record
    if outcome.board is not None and record["board"]:
        write_json_atomic(out / record["board"], outcome.board)
    if outcome.overlay_jpeg is not None and record["overlay"]:
        write_bytes_atomic(out / record["overlay"], outcome.overlay_jpeg)
    if record["key"]:
        write_json_atomic(out / CACHE_DIR / f"{record['key']}.json", record)


def _prune(cache: Path, keep: set[str]) -> None:
    if cache.is_dir():
        for stale in cache.glob("*.json"):
            if stale.stem not in keep:
                stale.unlink(missing_ok=True)


def score_game(folder: GameFolder, records: dict[str, dict[str, Any]], out: Path) -> dict[str, Any]:
    """Score a game folder's boards together (standings). Photos that failed are left out, with a warning."""
    entry: dict[str, Any] = {"folder": folder.folder, "game": folder.game, "photos": list(folder.photos),
                             "result": None, "error": ""}
    good = [records[p] for p in folder.photos if p in records and records[p]["status"] == "ok"]
    missing = [p for p in folder.photos if p not in records or records[p]["status"] != "ok"]
    if not folder.photos:
        entry["error"] = f"{folder.setup_file}: the folder has no photos"
        return entry
    try:
        engine = registry.game(folder.game)
        boards = [registry.load_board(out / r["board"])[1] for r in good]
        if not boards:
            raise BoardError("no photo of this game could be scored", file=folder.setup_file)
        result = engine.score(boards, folder.options)
    except BoardError as err:
        entry["error"] = _one_line(str(err))
        return entry
    result.warnings += [f"{p}: not scored, left out of the standings" for p in missing]
    entry["result"] = result.to_dict()
    return entry


# ---------------------------------------------------------------------------------------------- reports

CSV_COLUMNS = ["photo", "group", "game", "player", "total", "rank", "flagged", "status", "error", "sha256"]


def write_reports(report: BatchReport) -> None:
    """results.csv, results.jsonl, errors.csv, summary.json and summary.txt, each written atomically."""
    out = report.out
    ranks = {(g["folder"], s["player"]): s["rank"] for g in report.games if g["result"]
             for s in g["result"]["standings"]}
    rows = []
    for r in report.records:
        scores = r["result"]["scores"] if r["result"] else [{"player": "", "total": ""}]
        rows += [{"photo": r["photo"], "group": r["group"], "game": r["game"] or "", "player": s["player"],
                  "total": s["total"], "rank": ranks.get((r["group"], s["player"]), "") if r["group"] else "",
                  "flagged": r["flagged"], "status": r["status"], "error": r["error"], "sha256": r["sha256"]}
                 for s in scores]
    write_bytes_atomic(out / "results.csv", _csv(CSV_COLUMNS, rows))
    write_bytes_atomic(out / "results.jsonl",
                       "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in report.records).encode())
    errors = report.errors
    write_bytes_atomic(out / "errors.csv", _csv(["file", "reason"], [e.__dict__ for e in errors]))
    write_json_atomic(out / "summary.json", {
        "photos": len(report.records), "scanned": report.scanned, "up_to_date": report.reused,
        "flagged_reads": report.flagged, "errors": len(errors), "games": report.games,
        "ignored": report.ignored,
    })
    write_bytes_atomic(out / "summary.txt", summary_text(report).encode())


def _csv(columns: list[str], rows: list[dict[str, Any]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue().encode()


def summary_text(report: BatchReport) -> str:
    """The human summary: games with standings, photos scored alone, flagged reads, errors."""
    lines = [f"{len(report.records)} photo(s): {report.scanned} scanned, {report.reused} up to date; "
             f"{report.flagged} flagged read(s); {len(report.errors)} error(s)"]
    for g in report.games:
        lines += ["", f"Game in {g['folder']} ({g['game']}, {len(g['photos'])} photo(s))"]
        if not g["result"]:
            lines.append(f"  ! {g['error']}")
            continue
        lines += [f"  {s['rank']:>2}. {s['player']:<20} {s['total']:>6}  {s['note']}".rstrip()
                  for s in g["result"]["standings"]]
        lines += [f"  ! {w}" for w in g["result"]["warnings"]]
    alone = [r for r in report.records if not r["group"] and r["result"]]
    if alone:
        lines += ["", "Photos scored alone"]
        lines += [f"  {r['photo']}  {r['game']}  " + ", ".join(f"{s['player'] or '-'} {s['total']}"
                                                            for s in r["result"]["scores"]) for r in alone]
    flagged = [r for r in report.records if r["flagged"]]
    if flagged:
        lines += ["", f"Flagged reads (check with: golfscan review {report.root})"]
        lines += [f"  {r['photo']}: {r['flagged']} read(s), least sure {r['review'][0]['where']} "
                  f"({r['review'][0]['confidence']:.2f})" for r in flagged]
    errors = report.errors
    if errors:
        lines += ["", "Errors"] + [f"  {e.file}: {e.reason}" for e in errors]
    if report.ignored:
        shown = report.ignored[:SHOW_IGNORED]
        more = len(report.ignored) - len(shown)
        lines += ["", "Not photos, ignored"] + [f"  {name}" for name in shown]
        lines += [f"  ... and {more} more (summary.json lists them all)"] if more else []
    return "\n".join(lines) + "\n"

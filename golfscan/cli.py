"""The ``golfscan`` command line."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from golfscan.report import format_result
from rules import registry
from rules import standins as standin_values
from rules.common import BoardError

EXIT_BAD_INPUT = 2
EXIT_SCANNER_FAULT = 3


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    """Print one line to stderr and exit: bad input never shows a traceback."""
    click.echo(f"golfscan: {message}", err=True)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="golfscan")
def main() -> None:
    """Score finished golf-themed tabletop games from a photo or a board file."""


@main.command("score-board")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--expert", is_flag=True, help="Minigolf Designer: rank clients among the players (expert variant).")
@click.option(
    "--standins",
    type=click.Path(dir_okay=False),
    envvar="GOLFSCAN_STANDINS",
    help="JSON file overriding stand-in values ({game: {key: value}}); see docs/standins.md.",
)
def score_board(files: tuple[str, ...], as_json: bool, expert: bool, standins: str | None) -> None:
    """Score board FILES (JSON). Several files of one game print the standings."""
    try:
        standin_values.set_overrides(standins)
        loaded = [registry.load_board(f) for f in files]
        games = {engine.GAME for engine, _ in loaded}
        if len(games) > 1:
            fail(f"files mix games ({', '.join(sorted(games))}); score one game at a time")
        engine = loaded[0][0]
        result = engine.score([board for _, board in loaded], {"expert": expert})
    except BoardError as err:
        fail(str(err))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        click.echo(format_result(result, engine.TITLE), nl=False)


GAME_CHOICE = click.Choice(sorted(registry.GAME_MODULES))


@main.command("scan")
@click.argument("photo", type=click.Path(dir_okay=False))
@click.option("--game", type=GAME_CHOICE, help="The game in the photo (detected when not given).")
@click.option("--setup", "setup_file", type=click.Path(dir_okay=False),
              help="JSON with what a photo cannot show (land card, clients, players ...), merged into the board.")
@click.option("--json", "as_json", is_flag=True, help="Print score and review flags as JSON.")
@click.option("--board", "board_out", type=click.Path(dir_okay=False), help="Write the board file read (editable).")
@click.option("--overlay", "overlay_out", type=click.Path(dir_okay=False), help="Write the overlay image (PNG).")
@click.option("--debug", "debug_dir", type=click.Path(file_okay=False), help="Write every stage's overlay here.")
def scan(photo: str, game: str | None, setup_file: str | None, as_json: bool, board_out: str | None,
         overlay_out: str | None, debug_dir: str | None) -> None:
    """Scan PHOTO of a finished game: print the itemized score and the reads to check."""
    import cv2

    from golfscan.files import write_bytes_atomic, write_json_atomic
    from golfscan.pipeline import read_setup, scan_photo
    from scanner.debug import Debug
    from scanner.errors import ScanError

    debug = Debug() if debug_dir else None
    try:
        scored = scan_photo(photo, game, read_setup(setup_file), debug)
    except ScanError as err:
        fail(str(err))
    except Exception as exc:  # a scanner fault on an odd photo: one line for the user, the trace on request
        if os.environ.get("GOLFSCAN_TRACEBACK"):
            raise
        fail(f"{photo}: the scanner failed on this photo ({type(exc).__name__}: {exc}); "
             "set GOLFSCAN_TRACEBACK=1 to see where", EXIT_SCANNER_FAULT)
    if board_out:
        write_json_atomic(board_out, scored.scan.board)
    if overlay_out and scored.scan.overlay is not None:
        ok, png = cv2.imencode(".png", scored.scan.overlay)
        if ok:
            write_bytes_atomic(overlay_out, png.tobytes())
    if debug is not None:
        debug.save(debug_dir)
    flagged = scored.scan.flagged
    if as_json:
        click.echo(json.dumps({
            "photo": photo,
            "game": scored.scan.game,
            "result": scored.result.to_dict() if scored.result else None,
            "error": scored.error or None,
            "review": [r.review_entry() for r in flagged],
            "warnings": scored.scan.warnings,
        }, indent=2))
    else:
        if scored.result is not None:
            click.echo(format_result(scored.result, registry.game(scored.scan.game).TITLE), nl=False)
        else:
            click.echo(f"! {scored.error}")
        for warning in scored.scan.warnings:
            click.echo(f"! {warning}")
        if flagged:
            click.echo(f"\nCheck {len(flagged)} read(s):")
            for read in sorted(flagged, key=lambda r: r.confidence):
                note = f"  ({read.note})" if read.note else ""
                click.echo(f"  {read.where:<18} read as {_show(read.value):<28} confidence {read.confidence:.2f}{note}")
        else:
            click.echo("\nNo reads flagged for review.")
    if scored.result is None:
        sys.exit(1)


def _show(value) -> str:
    return json.dumps(value, separators=(",", ":")) if isinstance(value, dict | list) else str(value)


@main.command("batch")
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--out", type=click.Path(file_okay=False), help="Where results go (default: FOLDER/golfscan-results).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Photos scanned at once (default: all cores).")
@click.option("--game", type=GAME_CHOICE, help="The game of photos outside game folders (detected when not given).")
@click.option("--scheduler", help="Address of a Dask scheduler to run on (pip install 'golfscan[dask]').")
@click.option("--fresh", is_flag=True, help="Rescan everything, ignoring earlier results.")
@click.option("--standins", type=click.Path(dir_okay=False), envvar="GOLFSCAN_STANDINS",
              help="JSON file overriding stand-in values; see docs/standins.md.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def batch(folder: str, out: str | None, jobs: int | None, game: str | None, scheduler: str | None, fresh: bool,
          standins: str | None, quiet: bool) -> None:
    """Score every photo under FOLDER; a folder with a setup.json is one game and gets standings."""
    from golfscan.batch import SetupError, run_batch

    try:
        report = run_batch(folder, out, jobs, game, scheduler, fresh, standins, None if quiet else _progress)
    except (SetupError, BoardError) as err:
        fail(str(err))
    except OSError as err:
        fail(f"{err.filename or folder}: {err.strerror}")
    click.echo((report.out / "summary.txt").read_text(encoding="utf-8"), nl=False)
    click.echo(f"Results in {report.out}")
    if report.errors:
        sys.exit(1)


def _progress(stream, total):
    """A progress bar over a batch's finished photos, with a running count of photos with flagged reads."""
    from tqdm import tqdm

    flagged = 0
    with tqdm(total=total, unit="photo", disable=None, dynamic_ncols=True) as bar:  # None: off without a terminal
        for outcome in stream:
            flagged += outcome.record["flagged"] > 0
            bar.set_postfix(flagged=flagged, refresh=False)
            bar.update()
            yield outcome


@main.command("review")
@click.argument("path", type=click.Path(exists=True))
@click.option("--game", type=GAME_CHOICE, help="The game of photos outside game folders (detected when not given).")
@click.option("--terminal", is_flag=True, help="No browser: go through the doubtful reads at this prompt.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: any free one).")
@click.option("--open/--no-open", "open_browser", default=True, help="Open the page in the default browser.")
def review(path: str, game: str | None, terminal: bool, port: int, open_browser: bool) -> None:
    """Check and correct the doubtful reads of a photo or a batch FOLDER; corrections rescore at once.

    Corrections are saved beside each photo (PHOTO.golfscan.json) and used by scan and batch from then on.
    """
    import os
    import webbrowser

    from golfscan.review.server import serve
    from golfscan.review.session import ReviewError, ReviewSession
    from golfscan.review.terminal import review_in_terminal

    try:
        session = ReviewSession(path, game)
    except ReviewError as err:
        fail(str(err))
    if terminal:
        review_in_terminal(session, lambda text: click.prompt(text, default="", show_default=False), click.echo)
        return

    def ready(url: str) -> None:
        click.echo(f"Review at {url}  (Ctrl-C stops)")
        # Without a display a console browser could take over this terminal: only open a real one.
        if open_browser and (sys.platform != "linux" or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            webbrowser.open(url)

    try:
        serve(session, port, ready)
    except OSError as err:
        fail(f"cannot listen on 127.0.0.1:{port} ({err.strerror})")
    click.echo("stopped")


from fixtures.cli import fixtures_group  # noqa: E402  (after `fail`, which it uses)

main.add_command(fixtures_group)


def fresh_photo_options(command):
    """``--preset``, ``--seed`` and ``--megapixels``: how ``bench`` and ``bench-batch`` make fresh photos."""
    for option in reversed((
        click.option("--preset", default="phone", show_default=True, help="Photo preset: flat-scan, phone, hard."),
        click.option("--seed", type=int, default=None,
                     help="A seed the scanners were never tuned on (needed to make photos, not with --photos)."),
        click.option("--megapixels", type=click.FloatRange(min=0.5), default=None,
                     help="Fixed photo size (default: preset's)."),
    )):
        command = option(command)
    return command


def bench_folder(prefix: str, preset: str, seed: int | None, photos_dir: str | None, out_dir: str | None,
                 verb: str) -> Path:
    """Where a bench run's reports go (``out_dir``, else ``bench/<prefix>-<preset>-<seed>`` for fresh photos or
    ``bench/<prefix>-<folder>`` for ``photos_dir``, just ``bench/<folder>`` when its name already begins with
    the prefix); a one-line error when it has neither a seed nor photos.

    >>> [str(bench_folder("18-holes", "phone", None, d, None, "measure")) for d in ("shots/club", "outside/18-holes/")]
    ['bench/18-holes-club', 'bench/18-holes']
    """
    if photos_dir is None and seed is None:
        fail(f"give --seed to make fresh photos, or --photos FOLDER to {verb} photos you have")
    if out_dir:
        return Path(out_dir)
    if photos_dir is None:
        return Path(f"bench/{prefix}-{preset}-{seed}")
    name = Path(photos_dir).resolve().name
    return Path("bench", name if name.startswith(prefix) else f"{prefix}-{name}")


@main.command("bench")
@click.option("--game", type=GAME_CHOICE, required=True)
@fresh_photo_options
@click.option("--n", "count", type=click.IntRange(min=1), default=200, show_default=True, help="Photos to make.")
@click.option("--photos", "photos_dir", type=click.Path(file_okay=False, exists=True),
              help="Measure an existing folder of photos with ground truth instead of making new ones.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Where photos and reports go (default: bench/<game>-<preset>-<seed>, or bench/<game>-<folder>, or bench/<folder> when it begins with the game).")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="Processes for making photos; scanning is timed on one core.")
def bench(game: str, preset: str, count: int, seed: int | None, megapixels: float | None, photos_dir: str | None,
          out_dir: str | None, jobs: int) -> None:
    """Make fresh photos with ground truth, scan them, and report accuracy and speed (CSV + markdown)."""
    import cv2
    from tqdm import tqdm

    from fixtures.games import GameUnavailable
    from fixtures.make import make_batch
    from golfscan import bench as benchmark

    out = bench_folder(game, preset, seed, photos_dir, out_dir, "measure")
    if photos_dir:
        photos = sorted(p for p in Path(photos_dir).glob("*.jpg") if p.with_suffix(".json").is_file())
        if not photos:
            fail(f"{photos_dir}: no photos with ground truth (X.jpg beside X.json)")
        for photo in photos:  # every truth file checked before the long part
            try:
                benchmark.read_truth(photo, game)
            except benchmark.TruthError as err:
                fail(str(err))
    else:
        try:
            names = make_batch(game, preset, count, seed, out / "photos", megapixels=megapixels, jobs=jobs)
        except (GameUnavailable, ValueError) as err:
            fail(str(err))
        photos = [out / "photos" / f"{name}.jpg" for name in names]
    cv2.setNumThreads(1)  # the speed target is per photo on one core
    flagged = 0
    with tqdm(total=len(photos), desc="scanning", unit="photo") as bar:
        def done(outcome):
            nonlocal flagged
            flagged += outcome.flagged
            bar.set_postfix(flagged=flagged)
            bar.update(1)
        outcomes = benchmark.run(photos, game, done)
    summary = benchmark.summarize(outcomes)
    made = f"preset {preset}, seed {seed}" if seed is not None else f"photos in {photos_dir}"
    title = f"{game}, {made}, {len(photos)} photos"
    benchmark.write_reports(outcomes, summary, out, title)
    click.echo(benchmark.format_summary(summary, title))
    click.echo(f"\nper-photo results: {out / 'results.csv'}")


@main.command("bench-batch")
@fresh_photo_options
@click.option("--n", "count", type=click.IntRange(min=1), default=100, show_default=True,
              help="Photos to make, equal shares of every game.")
@click.option("--photos", "photos_dir", type=click.Path(file_okay=False, exists=True),
              help="Time an existing folder of photos instead of making new ones.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Where photos and reports go (default: bench/batch-<preset>-<seed>, or bench/batch-<folder>).")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Photos scanned at once, as `batch --jobs` (default: all cores); also used to make photos.")
def bench_batch(preset: str, count: int, seed: int | None, megapixels: float | None, photos_dir: str | None,
                out_dir: str | None, jobs: int | None) -> None:
    """Time `golfscan batch` on fresh photos of mixed games (detected): photos per minute, CPU per photo."""
    from fixtures.games import GameUnavailable
    from golfscan import bench as benchmark
    from golfscan.batch import SetupError, default_jobs

    out = bench_folder("batch", preset, seed, photos_dir, out_dir, "time")
    photos = Path(photos_dir) if photos_dir else out / "photos"
    if not photos_dir:
        try:
            benchmark.make_mixed(preset, count, seed, photos, megapixels, jobs or default_jobs())
        except (GameUnavailable, ValueError) as err:
            fail(str(err))
    try:
        summary, rows = benchmark.measure_batch(photos, out / "batch", jobs, _progress)
    except SetupError as err:
        fail(str(err))
    title = f"batch, {'photos in ' + str(photos) if photos_dir else f'preset {preset}, seed {seed}'}, " \
            f"{summary['photos']} photos, {summary['jobs']} jobs"
    benchmark.write_tables(rows, summary, out, title)
    click.echo(benchmark.format_summary(summary, title))
    click.echo(f"\nper-photo results: {out / 'results.csv'}")

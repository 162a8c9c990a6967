"""Measure the 18 Holes scanner against ground truth: square read errors and par-digit accuracy.

``compare`` counts differences between a true and a read board; ``evaluate_folder`` scans every photo that
has a truth file beside it (``plan_NNNN.jpg`` + ``plan_NNNN.json``, the truth either a board file or the
neutral format of outside samples). Run ``python -m scanner.games.eighteen.evaluate FOLDER``; with
``--digits`` it compares the par-digit network with tesseract on the same ink pieces instead; with ``--grids
FOLDER...`` it checks only the grid's count of rows and columns on every photo (``grid_study``: the geometry alone,
a fifth of a scan), the quick check of a change to locating or counting the grid over thousands of photos.

Example:
    >>> t = {"cells": [[{"k": "empty"}, {"k": "teegreen", "green_edge": "W", "tee_edge": "E", "par": 3}]]}
    >>> r = {"cells": [[{"k": "water"}, {"k": "teegreen", "green_edge": "W", "tee_edge": "E", "par": 4}]]}
    >>> compare(t, r)
    {'squares': 2, 'squares_wrong': 1, 'digits': 1, 'digits_wrong': 1, 'exact': False, 'wrong': ['cells[0][0]', 'cells[0][1].par']}
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scanner.errors import ScanError
from scanner.games.eighteen.truth_photos import read_photos
from scanner.load import load_photo


def _shape(cell: dict) -> dict:
    """A cell without its par digit (compared separately); edges as a set."""
    out = {k: v for k, v in cell.items() if k != "par"}
    if "edges" in out:
        out["edges"] = sorted(out["edges"])
    return out


def compare(truth_board: dict, read_board: dict) -> dict[str, Any]:
    """Counts of squares and par digits read wrong. A grid of the wrong size counts every square wrong."""
    truth, read = truth_board["cells"], read_board["cells"]
    squares = sum(len(row) for row in truth)
    digits = sum(1 for row in truth for cell in row if cell["k"] == "teegreen")
    if len(truth) != len(read) or any(len(a) != len(b) for a, b in zip(truth, read, strict=False)):
        return {"squares": squares, "squares_wrong": squares, "digits": digits, "digits_wrong": digits,
                "exact": False, "wrong": ["grid"]}
    wrong = []
    digits_wrong = 0
    for r, (trow, rrow) in enumerate(zip(truth, read, strict=True)):
        for c, (t, g) in enumerate(zip(trow, rrow, strict=True)):
            if _shape(t) != _shape(g):
                wrong.append(f"cells[{r}][{c}]")
            if t["k"] == "teegreen" and (g.get("k") != "teegreen" or g.get("par") != t.get("par")):
                digits_wrong += 1
                wrong.append(f"cells[{r}][{c}].par")
    squares_wrong = sum(1 for w in wrong if not w.endswith(".par"))
    return {"squares": squares, "squares_wrong": squares_wrong, "digits": digits, "digits_wrong": digits_wrong,
            "exact": not wrong, "wrong": wrong}


def truth_board(path: Path) -> dict:
    """A truth file as a board dict (``as_board``)."""
    return as_board(json.loads(path.read_text()))


def as_board(truth: dict) -> dict:
    """A truth file's contents as a board dict: a synthetic photo's board, a board file itself, or the neutral
    outside-sample format converted. KeyError when it is none of them."""
    if "board" in truth:  # a synthetic photo's truth: the board plus the photo geometry
        return truth["board"]
    if "format" in truth:
        return truth
    from rules.eighteen.neutral import from_neutral

    return from_neutral(truth)


def bench_setup(truth: dict) -> tuple[dict, dict]:
    """For ``golfscan bench``: the setup a player would give (player, Prime Location, Committee Bonus) and the
    true board, from any truth file ``as_board`` reads (outside samples can be benchmarked as they are)."""
    board = as_board(truth)
    return {key: board[key] for key in ("setup", "player") if key in board}, board


def photos_with_truth(folder: Path) -> list[Path]:
    """The photos of ``folder`` with a truth file beside them, in order."""
    return [photo for photo in sorted(folder.glob("*.jpg")) + sorted(folder.glob("*.png"))
            if photo.with_suffix(".json").exists()]


def evaluate_folder(folder: Path) -> dict[str, Any]:
    """Scan each photo with a truth file; totals, per-photo rows and timings."""
    from scanner.games import eighteen

    rows, totals = [], {"squares": 0, "squares_wrong": 0, "digits": 0, "digits_wrong": 0, "exact": 0,
                        "photos": 0, "unflagged_wrong": 0, "failed": 0}
    times, decode_times = [], []
    for photo in photos_with_truth(folder):
        truth_path = photo.with_suffix(".json")
        t0 = time.perf_counter()
        loaded = load_photo(photo)
        t1 = time.perf_counter()
        totals["photos"] += 1
        try:
            result = eighteen.scan(loaded.image)
        except ScanError as exc:
            totals["failed"] += 1
            rows.append({"photo": photo.name, "error": str(exc)})
            continue
        t2 = time.perf_counter()
        times.append(t2 - t1)
        decode_times.append(t1 - t0)
        cmp = compare(truth_board(truth_path), result.board)
        missed = result.unflagged(cmp["wrong"])
        for key in ("squares", "squares_wrong", "digits", "digits_wrong"):
            totals[key] += cmp[key]
        totals["exact"] += int(cmp["exact"])
        totals["unflagged_wrong"] += len(missed)
        rows.append({"photo": photo.name, **cmp, "unflagged": missed, "flagged": len(result.flagged),
                     "seconds": round(t2 - t1, 3)})
    if times:
        totals["median_seconds"] = round(statistics.median(times), 3)
        totals["median_decode_seconds"] = round(statistics.median(decode_times), 3)
    return {"totals": totals, "photos": rows}


def tesseract_digit(patch: np.ndarray) -> int | None:
    """Tesseract's reading of one upright binary digit crop (single character, digits 3-5 only)."""
    import pytesseract

    img = np.pad(255 * (1 - patch.astype(np.uint8)), 6, constant_values=255)
    img = cv2.resize(img, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    text = pytesseract.image_to_string(img, config="--psm 10 -c tessedit_char_whitelist=345").strip()
    return int(text[0]) if text[:1] in ("3", "4", "5") else None


def digit_study(folder: Path) -> dict[str, int]:
    """Par digits right by the network and by tesseract on the same ink pieces (the ones the scanner chose).

    Counts every true tee/green square; a square where no piece was found counts as wrong for both.
    """
    from scanner.games import eighteen
    from scanner.games.eighteen.plan import upright_index

    counts = {"digits": 0, "network_right": 0, "tesseract_right": 0, "no_piece": 0}
    for photo in photos_with_truth(folder):
        truth = truth_board(photo.with_suffix(".json"))["cells"]
        try:
            plan = eighteen.read_plan(load_photo(photo).image, cut_every_square=True)
        except ScanError:
            continue
        lat, turns = plan.geometry.lattice, plan.orientation.turns
        where = {upright_index(r, c, lat.rows, lat.cols, turns): (r, c)
                 for r in range(lat.rows) for c in range(lat.cols)}
        for ur, row in enumerate(truth):
            for uc, cell in enumerate(row):
                if cell["k"] != "teegreen":
                    continue
                counts["digits"] += 1
                read = plan.digits.get(where.get((ur, uc), (-1, -1)))
                if read is None or read.patch is None:
                    counts["no_piece"] += 1
                    continue
                counts["network_right"] += int(read.par == cell["par"])
                upright = np.ascontiguousarray(np.rot90(read.patch, turns))
                counts["tesseract_right"] += int(tesseract_digit(upright) == cell["par"])
    return counts


def grid_found(photo: Path) -> dict[str, Any] | None:
    """The true rows and columns of ``photo``'s plan and those its grid is found with (``find_geometry``), with the
    lattice's line support, or the reason no grid was found; None without a truth file. ``right``: the count is
    right, in either order (the rectified frame may be a quarter turn from upright)."""
    from scanner.games import eighteen

    truth_path = photo.with_suffix(".json")
    if not truth_path.exists():
        return None
    grid = truth_board(truth_path)["grid"]
    truth = [grid["rows"], grid["cols"]]
    try:
        lattice = eighteen.find_geometry(load_photo(photo).image).lattice
    except ScanError as exc:
        return {"photo": photo.name, "truth": truth, "right": False, "error": str(exc)}
    found = [lattice.rows, lattice.cols]
    return {"photo": photo.name, "truth": truth, "found": found, "support": round(lattice.line_support, 3),
            "right": sorted(found) == sorted(truth)}


def grid_study(folders: list[Path], jobs: int = 1, progress: bool = False) -> list[dict[str, Any]]:
    """``grid_found`` for every JPEG with a truth file in ``folders``, ``jobs`` photos at a time (with a
    progress bar on a terminal, if ``progress``)."""
    return read_photos(folders, grid_found, jobs, progress)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scanner.games.eighteen.evaluate",
                                     description="Measure the 18 Holes scanner on photos with truth files.")
    parser.add_argument("folders", nargs="+", type=Path, metavar="FOLDER")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--digits", action="store_true", help="the par-digit network against tesseract (one folder)")
    mode.add_argument("--grids", action="store_true", help="only the grid's count of rows and columns, every folder")
    parser.add_argument("--jobs", type=int, default=1, help="photos checked at a time (--grids)")
    args = parser.parse_args(argv)
    missing = [str(folder) for folder in args.folders if not folder.is_dir()]
    if missing:
        parser.error(f"not a folder: {', '.join(missing)}")
    if args.grids:
        rows = grid_study(args.folders, args.jobs, progress=True)
        for row in rows:
            if not row["right"]:
                print(json.dumps(row))
        print(f"grids counted right: {sum(row['right'] for row in rows)} of {len(rows)}")
        return 0
    if len(args.folders) > 1:
        parser.error("one folder at a time, but with --grids")
    if args.digits:
        print(json.dumps(digit_study(args.folders[0])))
        return 0
    report = evaluate_folder(args.folders[0])
    for row in report["photos"]:
        print(json.dumps(row))
    t = report["totals"]
    print(json.dumps(t))
    if t["squares"]:
        print(f"square error {t['squares_wrong'] / t['squares']:.2%}, par digits right "
              f"{1 - t['digits_wrong'] / max(t['digits'], 1):.2%}, plans exact {t['exact']}/{t['photos']}, "
              f"wrong and unflagged {t['unflagged_wrong']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""The review model shared by the web page and the terminal mode: photos, reads, choices, corrections.

Each photo is scanned once when first opened; the scanner's own reading is kept, so a correction only
re-applies the sidecar and rescores (no rescan): picking a value updates the score at once.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from golfscan import corrections
from golfscan.batch import OUT_NAME, Job, discover, run_batch, summary_text
from golfscan.choices import check_value, choices, label
from golfscan.pipeline import PhotoScore, read_photo, score_scan
from rules import registry
from scanner.debug import fit
from scanner.errors import ScanError
from scanner.load import LoadedPhoto
from scanner.types import Read, ScanResult

IMAGE_MAX_SIDE = 2000
KEEP_OPEN = 6
CROP_MARGIN = 0.35  # of the read's size, each side: enough context to judge a square


class ReviewError(Exception):
    """A request the review cannot serve (unknown photo, unknown read); the message says why."""


@dataclass
class Opened:
    job: Job
    photo: LoadedPhoto
    raw: ScanResult  # the scanner's own reading, before setup and corrections
    scored: PhotoScore


class ReviewSession:
    """The photos under one folder (or one photo) and what a person has corrected in them."""

    def __init__(self, path: str | Path, game: str | None = None):
        path = Path(path).resolve()
        self.game = game
        self.folder = path.is_dir()  # a batch folder (not one photo): its results can be rescored here
        if path.is_file():
            self.root = path.parent
            plan = discover(self.root, game=game, recursive=False)
            self.jobs = {j.rel: j for j in plan.jobs if Path(j.photo) == path}
            if not self.jobs:
                problem = next((p.reason for p in plan.problems), f"{path}: not a photo")
                raise ReviewError(problem)
        elif path.is_dir():
            self.root = path
            plan = discover(self.root, game=game)
            # A link to a photo elsewhere would let the page show a file outside the folder: left out.
            self.jobs = {j.rel: j for j in plan.jobs if Path(j.photo).resolve().is_relative_to(self.root)}
            if not self.jobs:
                raise ReviewError(f"{path}: no photos found")
        else:
            raise ReviewError(f"{path}: no such file or folder")
        self.problems = plan.problems
        self._batch = self._batch_results()
        self._opened: OrderedDict[str, Opened] = OrderedDict()  # most recently used last
        self._seen: dict[str, tuple[int, float | None]] = {}  # flagged count, least confidence, per opened photo
        self._lock = threading.RLock()

    def _batch_results(self) -> dict[str, dict[str, Any]]:
        """What the last ``batch`` run found, to list the doubtful photos first before opening any."""
        try:
            lines = (self.root / OUT_NAME / "results.jsonl").read_text(encoding="utf-8").splitlines()
            return {r["photo"]: r for r in map(json.loads, lines)}
        except (OSError, json.JSONDecodeError, KeyError, TypeError):
            return {}

    # ------------------------------------------------------------------------------------------ photos

    def photos(self) -> list[dict[str, Any]]:
        """Every photo with its flagged-read count (from this session, else the last batch), doubtful first."""
        out = []
        for rel in self.jobs:
            if rel in self._seen:
                flagged, least = self._seen[rel]
            else:
                record = self._batch.get(rel, {})
                flagged = record.get("flagged")
                least = record["review"][0]["confidence"] if record.get("review") else None
            out.append({"photo": rel, "flagged": flagged, "least_confidence": least})
        return sorted(out, key=lambda p: (-(p["flagged"] or 0), p["least_confidence"] or 1.0))

    def open(self, rel: str) -> Opened:
        """Scan a photo (once while it is among the last few opened) and score it with its setup and corrections."""
        with self._lock:
            if rel not in self._opened:
                job = self.job(rel)
                try:
                    photo, raw = read_photo(job.photo, job.game, job.setup)
                    self._opened[rel] = Opened(job, photo.upright(), raw, score_scan(job.photo, raw, job.setup))
                except ScanError as err:
                    raise ReviewError(str(err)) from None
                while len(self._opened) > KEEP_OPEN:  # a 12 MP photo holds ~40 MB: keep only the last few
                    self._opened.popitem(last=False)
            self._opened.move_to_end(rel)
            self._note(self._opened[rel])
            return self._opened[rel]

    def _note(self, opened: Opened) -> None:
        scan = opened.scored.scan
        self._seen[opened.job.rel] = (len(scan.flagged), _least(scan.reads))

    def job(self, rel: str) -> Job:
        if rel not in self.jobs:  # only photos found under the folder: nothing else is ever opened
            raise ReviewError(f"{rel!r} is not a photo of this review")
        return self.jobs[rel]

    def _rescore(self, rel: str) -> Opened:
        opened = self.open(rel)
        try:
            opened.scored = score_scan(opened.job.photo, opened.raw, opened.job.setup)
        except ScanError as err:
            raise ReviewError(str(err)) from None
        self._note(opened)
        return opened

    # ------------------------------------------------------------------------------------------ state

    def state(self, rel: str) -> dict[str, Any]:
        """Everything the page shows for a photo: score, reads (least confident first), corrections."""
        opened = self.open(rel)
        scan, result = opened.scored.scan, opened.scored.result
        height, width = opened.photo.image.shape[:2]
        sidecar = corrections.load_sidecar(opened.job.photo)
        return {
            "photo": rel,
            "game": scan.game,
            "title": registry.game(scan.game).TITLE,
            "size": [width, height],
            "result": result.to_dict() if result else None,
            "error": opened.scored.error,
            "warnings": scan.warnings,
            "reads": [_read_dict(r) for r in sorted(scan.reads, key=lambda r: r.confidence)],
            "corrections": [c.to_dict() for c in sidecar.corrections] if sidecar else [],
            "flagged": len(scan.flagged),
        }

    def read(self, rel: str, where: str) -> Read:
        for read in self.open(rel).scored.scan.reads:
            if read.where == where:
                return read
        raise ReviewError(f"{rel}: no read at {where!r}")

    def choices(self, rel: str, where: str) -> list[dict[str, Any]]:
        opened = self.open(rel)
        self.read(rel, where)
        raw_read = next((r for r in opened.raw.reads if r.where == where), None)
        guesses = [raw_read.value] + [v for v, _ in raw_read.alternatives] if raw_read else []
        return [c.to_dict() for c in choices(opened.scored.scan.game, opened.scored.scan.board, where, guesses)]

    # ------------------------------------------------------------------------------------------ changes

    def correct(self, rel: str, where: str, value: Any) -> dict[str, Any]:
        """Save ``value`` at ``where`` in the photo's sidecar and rescore; returns the new state."""
        with self._lock:
            opened = self.open(rel)
            self.read(rel, where)
            problem = check_value(opened.scored.scan.game, opened.scored.scan.board, where, value)
            if problem:
                raise ReviewError(f"{where}: {problem}")
            was = next((r.value for r in opened.raw.reads if r.where == where), None)
            corrections.correct(opened.job.photo, where, value, was)
            self._rescore(rel)
            return self.state(rel)

    def uncorrect(self, rel: str, where: str) -> dict[str, Any]:
        """Drop the correction at ``where``: the scanner's reading counts again."""
        with self._lock:
            corrections.uncorrect(self.job(rel).photo, where)
            self._rescore(rel)
            return self.state(rel)

    def rescore_folder(self) -> dict[str, Any]:
        """Run ``batch`` on the folder: only corrected or new photos are scanned again; standings update."""
        if not self.folder:
            raise ReviewError("one photo under review: there are no folder results to update")
        with self._lock:  # one process: few photos change between two rescores, and no fork from a server
            report = run_batch(self.root, jobs=1, game=self.game)
        self._batch = self._batch_results()
        return {"summary": summary_text(report), "games": report.games}

    # ------------------------------------------------------------------------------------------ images

    def image_jpeg(self, rel: str) -> bytes:
        """The photo as the scanner saw it (EXIF orientation applied), so outlines line up."""
        return _encode(".jpg", self.open(rel).photo.image)

    def overlay_png(self, rel: str) -> bytes:
        overlay = self.open(rel).raw.overlay
        if overlay is None:
            raise ReviewError(f"{rel}: the scanner drew no overlay")
        return _encode(".png", overlay)

    def crop_png(self, rel: str, where: str) -> bytes:
        """The read's square (with some surroundings), outlined, as PNG."""
        read = self.read(rel, where)
        if read.polygon is None:
            raise ReviewError(f"{rel}: the read at {where} has no outline")
        image = self.open(rel).photo.image
        points = np.asarray(read.polygon, float).reshape(-1, 2)
        (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
        pad = CROP_MARGIN * max(x1 - x0, y1 - y0, 8)
        h, w = image.shape[:2]
        left, top = int(max(0, x0 - pad)), int(max(0, y0 - pad))
        right, bottom = int(min(w, x1 + pad)), int(min(h, y1 + pad))
        crop = image[top:bottom, left:right].copy()
        shifted = np.round(points - [left, top]).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(crop, [shifted], True, (255, 0, 255), max(1, round(min(crop.shape[:2]) / 100)), cv2.LINE_AA)
        return _encode(".png", crop)


def _encode(ext: str, image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(ext, fit(image, IMAGE_MAX_SIDE) if ext == ".jpg" else image)
    if not ok:
        raise ReviewError("cannot encode the image")
    return data.tobytes()


def _least(reads: list[Read]) -> float | None:
    flagged = [r.confidence for r in reads if r.flagged]
    return min(flagged) if flagged else None


def _read_dict(read: Read) -> dict[str, Any]:
    return {
        "where": read.where,
        "value": read.value,
        "label": label(read.value),
        "confidence": round(float(read.confidence), 3),
        "flagged": read.flagged,
        "corrected": read.note == corrections.CORRECTED_NOTE,
        "note": read.note,
        "polygon": np.asarray(read.polygon, float).round(1).tolist() if read.polygon is not None else None,
    }

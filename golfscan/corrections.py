"""A person's corrections of scanner reads, kept in a sidecar file beside the photo.

``IMG_0042.jpg`` gets ``IMG_0042.jpg.golfscan.json``::

    {"format": "golfscan/corrections", "version": 1, "photo_sha256": "...",
     "corrections": [{"where": "cells[3][4]", "value": {"k": "water"}, "was": {"k": "tree"}}]}

Every read names its board file JSON place (``where``), so one sidecar format serves every game: a
correction replaces the value at that place in the scanned board. ``scan``, ``batch`` and ``review``
all apply it, so a rescan never throws a correction away. Corrections made on another version of the
photo (its bytes changed) are not applied, but stay in the sidecar.

Example:
    >>> board = {"cells": [[{"k": "tree"}, {"k": "empty"}]]}
    >>> set_place(board, "cells[0][1]", {"k": "water"})["cells"][0][1]
    {'k': 'water'}
    >>> parse_place("rounds[0].grids.Ada[1][2]")
    ['rounds', 0, 'grids', 'Ada', 1, 2]
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from golfscan.files import write_json_atomic
from scanner.types import Read, ScanResult

FORMAT = "golfscan/corrections"
VERSION = 1
SUFFIX = ".golfscan.json"
CORRECTED_NOTE = "corrected by a person"

_PLACE_PART = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


class PlaceError(ValueError):
    """A JSON place that does not exist in the board (or is not a place at all)."""


def parse_place(where: str) -> list[str | int]:
    """``"cells[3][4]"`` -> ``["cells", 3, 4]``: the inverse of how board errors name places."""
    parts: list[str | int] = []
    pos = 0
    while pos < len(where):
        match = _PLACE_PART.match(where, pos)
        if not match or match.end() == pos:
            raise PlaceError(f"not a JSON place: {where!r}")
        parts.append(int(match.group(1)) if match.group(1) is not None else match.group(2))
        pos = match.end()
    if not parts:
        raise PlaceError("empty JSON place")
    return parts


def get_place(data: Any, where: str) -> Any:
    node = data
    for part in parse_place(where):
        node = _step(node, part, where)
    return node


def set_place(data: Any, where: str, value: Any) -> Any:
    """Replace the value at ``where`` (in place; returns ``data``). The place must already exist."""
    parts = parse_place(where)
    parent = data
    for part in parts[:-1]:
        parent = _step(parent, part, where)
    _step(parent, parts[-1], where)  # the place itself must exist: a correction never invents structure
    parent[parts[-1]] = copy.deepcopy(value)
    return data


def _step(node: Any, part: str | int, where: str) -> Any:
    if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
        return node[part]
    if isinstance(part, str) and isinstance(node, dict) and part in node:
        return node[part]
    raise PlaceError(f"{where} is not in this board")


@dataclass(frozen=True)
class Correction:
    where: str
    value: Any
    was: Any = None  # what the scanner read, for the record

    def to_dict(self) -> dict[str, Any]:
        return {"where": self.where, "value": self.value, "was": self.was}


@dataclass
class Sidecar:
    photo_sha256: str
    corrections: list[Correction] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "photo_sha256": self.photo_sha256,
                "corrections": [c.to_dict() for c in self.corrections]}

    def with_correction(self, correction: Correction) -> Sidecar:
        """A sidecar where ``correction`` replaces any earlier one at the same place."""
        kept = [c for c in self.corrections if c.where != correction.where]
        return Sidecar(self.photo_sha256, [*kept, correction])

    def without(self, where: str) -> Sidecar:
        return Sidecar(self.photo_sha256, [c for c in self.corrections if c.where != where])


def sidecar_path(photo: str | Path) -> Path:
    photo = Path(photo)
    return photo.with_name(photo.name + SUFFIX)


def is_sidecar(path: str | Path) -> bool:
    return Path(path).name.endswith(SUFFIX)


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_sidecar(photo: str | Path) -> Sidecar | None:
    """The photo's sidecar, or None when there is none. ValueError (naming the file) when it is broken."""
    path = sidecar_path(photo)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read corrections ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno} column {exc.colno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"{path}: not a golfscan corrections file (format {FORMAT!r}, version {VERSION})")
    items = data.get("corrections")
    if not isinstance(items, list) or not all(isinstance(c, dict) and isinstance(c.get("where"), str)
                                              and "value" in c for c in items):
        raise ValueError(f"{path}: corrections must be a list of {{\"where\": ..., \"value\": ...}}")
    return Sidecar(str(data.get("photo_sha256", "")),
                   [Correction(c["where"], c["value"], c.get("was")) for c in items])


def save_sidecar(photo: str | Path, sidecar: Sidecar) -> Path:
    path = sidecar_path(photo)
    write_json_atomic(path, sidecar.to_dict())
    return path


def correct(photo: str | Path, where: str, value: Any, was: Any = None) -> Sidecar:
    """Record one correction for ``photo`` (replacing an earlier one at the same place) and save it."""
    current = load_sidecar(photo)
    sha = file_sha256(photo)
    if current is None or current.photo_sha256 != sha:
        # A sidecar from an older version of the photo does not apply to this one; start afresh.
        current = Sidecar(sha)
    updated = current.with_correction(Correction(where, value, was))
    save_sidecar(photo, updated)
    return updated


def uncorrect(photo: str | Path, where: str) -> Sidecar | None:
    """Drop the correction at ``where`` (the scanner's read counts again)."""
    current = load_sidecar(photo)
    if current is None:
        return None
    updated = current.without(where)
    save_sidecar(photo, updated)
    return updated


def apply(scan: ScanResult, sidecar: Sidecar, photo_sha256: str) -> ScanResult:
    """The scan with the sidecar's corrections applied to its board and reads (the input is not changed).

    A corrected read gets confidence 1 and is no longer flagged; its ``review`` entry leaves the board.
    A correction whose place the board no longer has is reported as a warning and kept in the sidecar.
    """
    if sidecar.photo_sha256 and sidecar.photo_sha256 != photo_sha256:
        return replace(scan, warnings=[*scan.warnings,
                                       "the photo changed since it was corrected: corrections not applied"])
    board = copy.deepcopy(scan.board)
    warnings = list(scan.warnings)
    applied: dict[str, Any] = {}
    for corr in sidecar.corrections:
        try:
            set_place(board, corr.where, corr.value)
            applied[corr.where] = corr.value
        except PlaceError:
            warnings.append(f"correction of {corr.where} no longer fits the board read: not applied")
    if "review" in board:
        board["review"] = [e for e in board["review"] if e.get("where") not in applied]
    if applied:
        board.setdefault("source", {})["corrections"] = len(applied)
    reads = [_corrected(r, applied[r.where]) if r.where in applied else r for r in scan.reads]
    known = {r.where for r in scan.reads}
    reads += [Read(w, v, 1.0, False, note=CORRECTED_NOTE) for w, v in applied.items() if w not in known]
    return replace(scan, board=board, reads=reads, warnings=warnings)


def _corrected(read: Read, value: Any) -> Read:
    return replace(read, value=copy.deepcopy(value), confidence=1.0, flagged=False, note=CORRECTED_NOTE)


def apply_sidecar(photo: str | Path, scan: ScanResult) -> ScanResult:
    """``apply`` with the photo's own sidecar; the scan unchanged when there is none."""
    sidecar = load_sidecar(photo)
    if sidecar is None or not sidecar.corrections:
        return scan
    return apply(scan, sidecar, file_sha256(photo))

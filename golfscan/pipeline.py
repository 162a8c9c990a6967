"""Photo -> board -> score: the whole job for one photo, shared by ``scan``, ``batch`` and ``bench``."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from golfscan import corrections
from rules import registry
from rules.common import BoardError, GameResult
from scanner.debug import Debug
from scanner.errors import ScanError
from scanner.games import PLUGINS, plugin
from scanner.load import MAX_PIXELS, LoadedPhoto, load_photo
from scanner.types import ScanResult

# Below this likelihood no game is recognised in the photo.
MIN_LIKELIHOOD = 0.2


@dataclass
class PhotoScore:
    photo: str
    scan: ScanResult
    result: GameResult | None  # None when the board read cannot be scored (e.g. unknown pieces)
    error: str = ""


def detect_game(image: np.ndarray) -> str:
    """The game whose plugin finds the photo most likely its own; ScanError when none does."""
    best, best_score = "", 0.0
    for game in PLUGINS:
        try:
            score = plugin(game).likelihood(image)
        except ScanError:  # plugin not available
            continue
        if score > best_score:
            best, best_score = game, score
    if best_score < MIN_LIKELIHOOD:
        raise ScanError("no known game recognised in the photo (try --game)")
    return best


def merge_setup(board: dict[str, Any], setup: dict[str, Any] | None) -> dict[str, Any]:
    """Overlay what a photo cannot show (a partial board dict) onto the scanned board, recursively.

    A list of objects merges item by item, so a round's ``went_out_first`` joins the grids read:

    >>> merge_setup({"setup": {"a": 1, "b": 2}, "cells": []}, {"setup": {"b": 3}})
    {'setup': {'a': 1, 'b': 3}, 'cells': []}
    >>> merge_setup({"rounds": [{"grids": {}}]}, {"rounds": [{"went_out_first": "Ada"}]})
    {'rounds': [{'grids': {}, 'went_out_first': 'Ada'}]}
    """
    merged = copy.deepcopy(board)
    for key, value in (setup or {}).items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_setup(merged[key], value)
        elif _objects(value) and _objects(merged.get(key)):
            scanned = merged[key]
            merged[key] = [merge_setup(scanned[i], part) if i < len(scanned) else copy.deepcopy(part)
                           for i, part in enumerate(value)] + scanned[len(value):]
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _objects(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def read_setup(path: str | Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScanError(f"{path}: cannot read setup file ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise ScanError(f"{path}: line {exc.lineno} column {exc.colno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ScanError(f"{path}: a setup file must be a JSON object")
    return data


def scan_photo(
    path: str | Path,
    game: str | None = None,
    setup: dict[str, Any] | None = None,
    debug: Debug | None = None,
) -> PhotoScore:
    """Scan one photo and score the board read from it. Raises ScanError for unreadable photos."""
    return score_scan(path, read_board(load_for_game(path, game), game, setup, debug), setup)


def load_for_game(path: str | Path, game: str | None = None) -> LoadedPhoto:
    """Decode a photo at the size the game's scanner works at (any game's, when not given).

    A plugin may declare ``WORK_PIXELS``: a JPEG decoded straight to half or quarter size costs a fraction
    of a full decode, and the scanner then works on fewer pixels too.
    """
    games = [game] if game else list(PLUGINS)
    return load_photo(path, max_pixels=max(getattr(plugin(g), "WORK_PIXELS", MAX_PIXELS) for g in games))


def read_board(
    photo: LoadedPhoto, game: str | None = None, setup: dict[str, Any] | None = None, debug: Debug | None = None
) -> ScanResult:
    """The game plugin's own reading of a loaded photo (the game detected when not given)."""
    return plugin(game or detect_game(photo.image)).scan(photo.image, setup=setup, debug=debug)


def score_scan(path: str | Path, scan: ScanResult, setup: dict[str, Any] | None = None) -> PhotoScore:
    """Merge the setup and a person's saved corrections (sidecar) into a scanned board, and score it.

    ``scan`` is not changed, so ``review`` can keep the scanner's own reading and rescore it at once.
    """
    scan = replace(scan, board=merge_setup(scan.board, setup))
    scan.board.setdefault("source", {})["photo"] = Path(path).name
    try:
        scan = corrections.apply_sidecar(path, scan)
    except ValueError as err:
        raise ScanError(str(err)) from None
    try:
        engine, board = registry.parse_board(scan.board, str(path))
        result = engine.score([board], {})
    except BoardError as err:
        return PhotoScore(str(path), scan, None, f"board read cannot be scored: {err.message}")
    return PhotoScore(str(path), scan, result)

"""Photo -> board -> score: the whole job for one photo, shared by ``scan``, ``batch`` and ``bench``."""

from __future__ import annotations

import copy
import json
from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from threadpoolctl import ThreadpoolController

from golfscan import corrections
from rules import registry
from rules.common import BoardError, GameResult
from scanner.debug import Debug
from scanner.errors import ScanError
from scanner.games import PLUGINS, plugin
from scanner.load import MAX_PIXELS, LoadedPhoto, decode_reduction, load_photo
from scanner.types import ScanResult

# Below this likelihood no game is recognised in the photo.
MIN_LIKELIHOOD = 0.2


@dataclass
class PhotoScore:
    photo: str
    scan: ScanResult
    result: GameResult | None  # None when the board read cannot be scored (e.g. unknown pieces)
    error: str = ""


# Likelihoods are tried cheapest first (CPU per 3 MP decode of a phone photo not of that game: Minigolf
# Designer ~0.02 s, 18 Holes ~0.05 s, Gnoming A Round ~0.1 s, The Front Nine ~0.15 s); a sure answer ends
# the search, so most photos pay for one or two of them, not all four. Work the detected game's likelihood
# did is reused by its scan. Games not listed here (new plugins) come last.
DETECT_ORDER = ("minigolf-designer", "18-holes", "gnoming-a-round", "the-front-nine")
# Other games' photos stayed far below this (32 phone photos: at most 0.26). One hard-preset 18 Holes
# plan among the committed photos scores 1.0 for Minigolf Designer: the full search picks that too.
SURE_LIKELIHOOD = 0.8


def detect_game(image: np.ndarray, exclude: Collection[str] = (), least: float = MIN_LIKELIHOOD) -> str:
    """The game whose plugin finds the photo most likely its own (at least ``least``, and not in ``exclude``);
    ScanError when none does.

    The search stops at the first game that is sure (``SURE_LIKELIHOOD``), trying the cheapest first.
    """
    best, best_score = "", 0.0
    for game in sorted(set(PLUGINS) - set(exclude), key=_detect_rank):
        score = likelihood(game, image)
        if score > best_score:
            best, best_score = game, score
        if score >= SURE_LIKELIHOOD:
            break
    if best_score < least:
        raise ScanError("no known game recognised in the photo (try --game)")
    return best


def likelihood(game: str, image: np.ndarray) -> float:
    """How likely ``game``'s plugin finds the photo its own; 0 when the plugin is not available or finds
    nothing of its game."""
    try:
        return plugin(game).likelihood(image)
    except ScanError:
        return 0.0


def _detect_rank(game: str) -> int:
    return DETECT_ORDER.index(game) if game in DETECT_ORDER else len(DETECT_ORDER)


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
    likely: str | None = None,
) -> PhotoScore:
    """Scan one photo and score the board read from it (``likely``: the game to try first when detecting).
    Raises ScanError for unreadable photos."""
    _, scan = read_photo(path, game, setup, debug, likely)
    return score_scan(path, scan, setup)


def read_photo(
    path: str | Path, game: str | None = None, setup: dict[str, Any] | None = None, debug: Debug | None = None,
    likely: str | None = None,
) -> tuple[LoadedPhoto, ScanResult]:
    """The photo (at its game's working size; as stored, when its scanner reads any quarter turn alike:
    ``LoadedPhoto.upright`` shows it) and the board its game's scanner reads from it.

    Without a game, the detected game's scanner reads it; when that scanner finds no board of its game, another
    game the photo is sure to show (``SURE_LIKELIHOOD``) is read instead: a quick look can take a green table
    beside cards for a course, where a scanner's full look is not fooled. With no such game the first
    scanner's reason stands.
    """
    detected = game is None
    with _blas().limit(limits=1, user_api="blas"):
        game, photo = load_and_detect(path, game, likely)
        refused: list[str] = []
        while True:
            try:
                return photo, read_board(photo, game, setup, debug)
            except ScanError as err:
                refused.append(game)
                if not detected:
                    raise
                seen = shrink(photo, detect_pixels())  # likelihoods judge the size they were detected at
                try:
                    game = detect_game(seen.image, exclude=refused, least=SURE_LIKELIHOOD)
                except ScanError:
                    raise err from None
                photo = at_work_size(path, seen, game)


@cache
def _blas() -> ThreadpoolController:
    """The BLAS thread pools. Every matrix product a scanner makes is small (a card against a few dozen faces,
    a few hundred digit crops through a small network): more threads only spin waiting for each other, which
    costs several times the work, and a batch already runs one photo per core."""
    return ThreadpoolController()


def work_pixels(game: str) -> int:
    """How many pixels the game's scanner works on (a plugin may declare ``WORK_PIXELS``)."""
    return getattr(plugin(game), "WORK_PIXELS", MAX_PIXELS)


def load_for_game(path: str | Path, game: str | None = None) -> LoadedPhoto:
    """Decode a photo at the size the game's scanner works at (the largest any game needs, when not given).

    A plugin may declare ``WORK_PIXELS``: a JPEG decoded straight to half or quarter size costs a fraction
    of a full decode, and the scanner then works on fewer pixels too. A plugin that declares ``ANY_TURN`` is
    given a photo stored a quarter turn from how it is shown as stored (``LoadedPhoto.unturned``).
    """
    return load_photo(path, max_pixels=max(work_pixels(g) for g in ([game] if game else PLUGINS)),
                      any_turn=game is not None and reads_any_turn(game))


def reads_any_turn(game: str) -> bool:
    """Whether the game's scanner reads any quarter turn of a photo alike (a plugin may declare ``ANY_TURN``)."""
    return getattr(plugin(game), "ANY_TURN", False)


def detect_pixels() -> int:
    """The size photos are decoded at to detect their game: the smallest any game works at, as every game's
    likelihood judges a 3 MP photo as it does a 12 MP one, and most photos are then scanned at that very size.
    """
    return min(work_pixels(g) for g in PLUGINS)


def load_and_detect(
    path: str | Path, game: str | None = None, likely: str | None = None
) -> tuple[str, LoadedPhoto]:
    """The game (detected when not given) and the photo at its scanner's working size.

    Without a game the photo is decoded at ``detect_pixels`` and the game detected on that; a game that works
    at that size (or smaller) scans the same image array, so work its likelihood did is not done again
    (``scanner.memo``); a game that needs more pixels has the photo decoded again at its size.

    A ``likely`` game (the one a batch last found in the same folder, say) is asked first, on the photo
    decoded at its own working size: when it is sure, its scan reuses that work and nothing is decoded twice;
    when it is not, the search goes on as without it.
    """
    if game is not None:
        return game, load_for_game(path, game)
    if likely in PLUGINS:
        photo = load_for_game(path, likely)
        if likelihood(likely, photo.image) >= SURE_LIKELIHOOD:
            return likely, photo
        seen = shrink(photo, detect_pixels())
        game = detect_game(seen.image)
        return game, photo if game == likely else at_work_size(path, seen, game)
    photo = load_photo(path, max_pixels=detect_pixels())
    game = detect_game(photo.image)
    return game, at_work_size(path, photo, game)


def at_work_size(path: str | Path, photo: LoadedPhoto, game: str) -> LoadedPhoto:
    """``photo`` at the size ``game``'s scanner works at: shrunk, or decoded again when it needs more detail."""
    wanted = work_pixels(game)
    if wanted > photo.image.shape[0] * photo.image.shape[1] and photo.scale < 1.0:
        return load_for_game(path, game)
    return shrink(photo, wanted)


def shrink(photo: LoadedPhoto, max_pixels: int) -> LoadedPhoto:
    """The photo at the size ``load_photo`` gives for ``max_pixels`` (a reduced decode: a whole factor, then
    a fit), so a photo whose game was detected is scanned at the size it would have with ``--game``.
    An area average of the decoded pixels stands in for the reduced decode. Never enlarges.

    >>> import numpy as np
    >>> p = LoadedPhoto(np.zeros((3000, 4000, 3), np.uint8), "p.jpg", (4000, 3000), 1.0, 1)
    >>> shrink(p, 3_000_000).image.shape, shrink(p, 3_000_000).scale
    ((1500, 2000, 3), 0.5)
    >>> shrink(p, 16_000_000) is p
    True
    """
    photo = photo.upright()
    width, height = photo.original_size
    factor = decode_reduction(width * height, max_pixels)
    width, height = -(-width // factor), -(-height // factor)  # a reduced JPEG decode rounds up
    if width * height > max_pixels:
        fit = (max_pixels / (width * height)) ** 0.5
        width, height = round(width * fit), round(height * fit)
    if width >= photo.image.shape[1]:
        return photo
    image = cv2.resize(photo.image, (width, height), interpolation=cv2.INTER_AREA)
    return replace(photo, image=image, scale=width / photo.original_size[0])


def read_board(
    photo: LoadedPhoto, game: str, setup: dict[str, Any] | None = None, debug: Debug | None = None
) -> ScanResult:
    """The game plugin's own reading of a photo loaded for it (``load_and_detect``, ``at_work_size``): a photo
    left as stored a quarter turn from how it is shown (for a plugin that reads any turn, ``ANY_TURN``) is read
    with that turn, which its reads are placed by."""
    if photo.unturned == 1:
        return plugin(game).scan(photo.image, setup=setup, debug=debug)
    if not reads_any_turn(game):
        return read_board(photo.upright(), game, setup, debug)
    return plugin(game).scan(photo.image, setup=setup, debug=debug, turned=photo.unturned)


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

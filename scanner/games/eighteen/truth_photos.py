"""Synthetic photos with truth files as training material for the 18 Holes readers (a build step, not a scan):
each photo loaded as a scan loads it, with its true grid in the loaded image's pixels, and a folder's photos
read by several processes.

Example:
    >>> from pathlib import Path
    >>> with_truth(Path("no-such-photo.jpg")) is None
    True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from scanner.load import LoadedPhoto

T = TypeVar("T")


def with_truth(photo: Path) -> tuple[LoadedPhoto, dict, np.ndarray] | None:
    """The ``photo`` loaded as an 18 Holes scan loads it, shown upright, its truth file, and the grid crossings the
    truth puts in it (``grid_points``, row 0 at the top of the upright sheet) in the loaded image's pixels; None
    without a truth file that has them."""
    from golfscan.pipeline import load_for_game
    from scanner.games.eighteen import GAME

    truth_file = photo.with_suffix(".json")
    truth = json.loads(truth_file.read_text()) if truth_file.exists() else {}
    if "grid_points" not in truth:
        return None
    loaded = load_for_game(photo, GAME).upright()
    return loaded, truth, np.asarray(truth["grid_points"]) * loaded.scale


def square_quad(grid: np.ndarray, r: int, c: int) -> np.ndarray:
    """Corners TL, TR, BR, BL of square (r, c) of grid crossings ``grid`` (rows + 1, cols + 1, 2).

    >>> square_quad(np.mgrid[0:3, 0:3].transpose(1, 2, 0)[..., ::-1] * 10.0, 1, 0).tolist()
    [[0.0, 10.0], [10.0, 10.0], [10.0, 20.0], [0.0, 20.0]]
    """
    return np.float32([grid[r, c], grid[r, c + 1], grid[r + 1, c + 1], grid[r + 1, c]])


def _on_one_thread(read: Callable[[Path], T | None], photo: Path) -> T | None:
    cv2.setNumThreads(1)  # the pool's processes share the cores
    return read(photo)


def read_photos(folders: list[Path], read: Callable[[Path], T | None], jobs: int = 2, progress: bool = False) -> list[T]:
    """``read(photo)`` of every JPEG in ``folders``, in name order, by ``jobs`` processes (one: in this process);
    the Nones (photos it has no use for) left out. ``read`` must be a module's function (or a ``partial`` of one).
    With ``progress``, a progress bar on a terminal."""
    from multiprocessing import Pool

    from tqdm import tqdm

    photos = sorted(photo for folder in folders for photo in folder.glob("*.jpg"))

    def kept(done: Iterable[T | None]) -> list[T]:
        return [r for r in tqdm(done, total=len(photos), unit="photo", disable=None if progress else True)
                if r is not None]

    if jobs <= 1:  # nothing to fork (a process forked from one whose libraries run threads can hang)
        return kept(map(read, photos))
    with Pool(jobs) as pool:
        return kept(pool.imap(partial(_on_one_thread, read), photos, chunksize=4))

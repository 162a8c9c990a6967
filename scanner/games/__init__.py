"""Game plugins: each game's scanner behind the same small interface.

A plugin module provides::

    GAME: str                                   # game id, as in rules.registry
    def scan(image, setup=None, debug=None) -> ScanResult
    def likelihood(image) -> float               # 0..1, how much the photo looks like this game
    def compare(truth_board, read_board) -> dict  # counts for `golfscan bench`: {"<items>": n,
                                                  # "<items>_wrong": k, ..., "exact": bool}
    def bench_setup(truth) -> (setup, board)    # optional: `golfscan bench`'s setup and true board from a
                                                # truth file (default: its "board", setup and player from it)
    WORK_PIXELS: int                            # optional: decode photos down to about this many pixels
    def warm_up() -> None                       # optional: build now what ``scan`` builds once and keeps
                                                # (templates): a batch calls it before its workers fork
    ANY_TURN: bool                              # optional: ``scan`` reads any quarter turn of a photo alike; a
                                                # photo stored turned (EXIF orientation 3, 6, 8) is then given as
                                                # stored, with ``scan(..., turned=orientation)`` to place its reads

``scan`` takes a BGR array (``scanner.load.load_photo(...).image``) and returns a ScanResult whose board is a
board file dict for ``rules``. It raises ``ScanError`` with a one-line reason when the photo cannot be read.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from scanner.errors import ScanError

PLUGINS = {
    "minigolf-designer": "scanner.games.minigolf",
    "18-holes": "scanner.games.eighteen",
    "gnoming-a-round": "scanner.games.gnoming",
    "the-front-nine": "scanner.games.frontnine",
}


def plugin(game: str) -> ModuleType:
    if game not in PLUGINS:
        raise ScanError(f"unknown game {game!r}; known: {', '.join(PLUGINS)}")
    try:
        return import_module(PLUGINS[game])
    except ModuleNotFoundError:
        raise ScanError(f"no scanner for {game} yet") from None

"""Typed results shared by the scanner stages and game plugins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Read:
    """One thing the scanner read (a cell, tile, card, digit) with its confidence.

    ``where`` uses the board file's JSON place (e.g. ``cells[3][4]``) so a person can find and fix it;
    ``polygon`` is its outline in the photo (pixels, displayed orientation); ``alternatives`` are the
    next-best readings, best first, as (value, confidence).
    """

    where: str
    value: Any
    confidence: float
    flagged: bool
    polygon: np.ndarray | None = None
    alternatives: tuple[tuple[Any, float], ...] = ()
    note: str = ""

    def review_entry(self) -> dict[str, Any]:
        """The board file's ``review`` entry for this read."""
        entry: dict[str, Any] = {"where": self.where, "confidence": round(float(self.confidence), 3)}
        if self.note:
            entry["note"] = self.note
        if self.alternatives:
            entry["alternatives"] = [{"value": v, "confidence": round(float(c), 3)} for v, c in self.alternatives]
        return entry


@dataclass
class ScanResult:
    """What a game plugin returns: the board file it read, every read, and how to draw its overlay. The
    overlay is drawn when first asked for: a batch keeps a preview of it, a plain scan or a benchmark none.
    """

    game: str
    board: dict[str, Any]
    reads: list[Read]
    draw_overlay: Callable[[], np.ndarray] | None = field(default=None, repr=False)
    warnings: list[str] = field(default_factory=list)

    @cached_property
    def overlay(self) -> np.ndarray | None:
        """The photo with the reads drawn on it, doubtful ones marked."""
        return None if self.draw_overlay is None else self.draw_overlay()

    @property
    def flagged(self) -> list[Read]:
        return [r for r in self.reads if r.flagged]

    def unflagged(self, wrong: list[str]) -> list[str]:
        """Of the board places read wrong (``wrong``, as ``Read.where`` names them), those a person checking the
        flagged reads would not be shown: neither the read there nor the read of the item it belongs to
        (``cells[2][3]`` for ``cells[2][3].par``) is flagged. A place no read stands for (the grid's size, say)
        is shown only when every read is flagged.

        >>> cell = Read("cells[0][0]", {"k": "empty"}, 0.5, True)
        >>> ScanResult("g", {}, [cell, Read("cells[0][1]", {"k": "empty"}, 0.9, False)]).unflagged(
        ...     ["cells[0][0].par", "cells[0][1]", "grid"])
        ['cells[0][1]', 'grid']
        """
        flagged, known = {r.where for r in self.flagged}, {r.where for r in self.reads}

        def shown(place: str) -> bool:
            item = place.split(".")[0]
            if place in known or item in known:
                return place in flagged or item in flagged
            return flagged == known

        return [w for w in wrong if not shown(w)]

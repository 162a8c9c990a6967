"""Typed results shared by the scanner stages and game plugins."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    """What a game plugin returns: the board file it read, every read, and an overlay."""

    game: str
    board: dict[str, Any]
    reads: list[Read]
    overlay: np.ndarray | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> list[Read]:
        return [r for r in self.reads if r.flagged]

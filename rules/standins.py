"""Stand-in values: our own decisions where the rulebooks are silent, kept in one overridable place.

Each game's defaults live in ``rules/<game>/standins.json``. A user may override any of them with a JSON
file ``{"<game>": {"<key>": value, ...}}`` passed as ``golfscan score-board --standins FILE`` (or the
``GOLFSCAN_STANDINS`` environment variable). None of these values is the publisher's printed rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.common import BoardError

_overrides: dict[str, dict[str, Any]] = {}


def set_overrides(path: str | Path | None) -> None:
    """Load overrides from a file (None clears them)."""
    _overrides.clear()
    if path is None:
        return
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BoardError(f"cannot read stand-in overrides: {exc}", file=str(path)) from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise BoardError("stand-in overrides must be an object of objects: {game: {key: value}}", file=str(path))
    _overrides.update(data)


def standins(game: str, defaults_file: str | Path) -> dict[str, Any]:
    """The stand-ins for ``game``: defaults from ``defaults_file`` updated by any overrides."""
    values = json.loads(Path(defaults_file).read_text(encoding="utf-8"))
    values.pop("_comment", None)
    unknown = set(_overrides.get(game, {})) - set(values)
    if unknown:
        raise BoardError(f"unknown stand-in key(s) for {game}: {', '.join(sorted(unknown))}")
    values.update(_overrides.get(game, {}))
    return values


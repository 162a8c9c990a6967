"""Convert the neutral ground-truth format of outside sample plans into a golfscan board file.

The neutral format (``{"rows", "cols", "cells", "grid_corners", "grid_points", "image"}``) uses the
same cell vocabulary as our board files, so the cells carry over unchanged; the photo geometry goes
into ``source``.

    >>> b = from_neutral({"rows": 1, "cols": 1, "cells": [[{"k": "empty"}]], "image": {"file": "p.jpg"}})
    >>> b["format"], b["grid"], b["source"]["photo"]
    ('golfscan/18-holes', {'rows': 1, 'cols': 1}, 'p.jpg')
"""

from __future__ import annotations

import copy
from typing import Any

from rules.eighteen import FORMAT_VERSION, GAME
from rules.registry import format_name


def from_neutral(data: dict[str, Any]) -> dict[str, Any]:
    """A board dict (format version 1) for a neutral ground-truth plan."""
    board: dict[str, Any] = {
        "format": format_name(GAME),
        "version": FORMAT_VERSION,
        "grid": {"rows": data["rows"], "cols": data["cols"]},
        "cells": copy.deepcopy(data["cells"]),
    }
    image = data.get("image", {})
    source = {"photo": image["file"]} if "file" in image else {}
    source.update({key: copy.deepcopy(data[key]) for key in ("grid_corners", "grid_points") if key in data})
    if source:
        board["source"] = source
    return board

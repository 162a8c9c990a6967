"""Where the tests find data that lives outside the repository."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def outside_dir() -> Path | None:
    """Photos made by another hand, with ground truth: ``$GOLFSCAN_OUTSIDE`` or ``../shared/outside``."""
    folder = Path(os.environ.get("GOLFSCAN_OUTSIDE") or REPO.parent / "shared" / "outside")
    return folder if folder.is_dir() else None

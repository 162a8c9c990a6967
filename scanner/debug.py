"""Debug overlays: every stage can draw what it found; a ``Debug`` collects them by stage name."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np


@dataclass
class Debug:
    """Collects one overlay image per stage. Pass ``None`` instead of a Debug to skip drawing entirely."""

    overlays: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, stage: str, image: np.ndarray) -> None:
        self.overlays[stage] = image

    def save(self, folder: str | Path, max_side: int = 1600) -> list[Path]:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for i, (stage, image) in enumerate(self.overlays.items()):
            out = folder / f"{i:02d}-{stage}.png"
            cv2.imwrite(str(out), fit(image, max_side))
            written.append(out)
        return written


def fit(image: np.ndarray, max_side: int) -> np.ndarray:
    """Downscale so the longer side is at most ``max_side`` (never upscale)."""
    scale = max_side / max(image.shape[:2])
    if scale >= 1:
        return image
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def draw_polygon(image: np.ndarray, points: np.ndarray, color=(0, 255, 255), thickness: int = 2) -> np.ndarray:
    """Draw a closed polygon (N, 2) on a copy of the image."""
    out = image.copy()
    cv2.polylines(out, [np.round(points).astype(np.int32).reshape(-1, 1, 2)], True, color, thickness, cv2.LINE_AA)
    return out

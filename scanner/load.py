"""Stage 1: load a photo from disk as a BGR array, EXIF orientation applied, size bounded.

Example:
    >>> import numpy as np, cv2, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.png")
    >>> _ = cv2.imwrite(path, np.zeros((80, 120, 3), np.uint8))
    >>> load_photo(path).image.shape
    (80, 120, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from scanner.errors import ScanError

# Photos larger than this (in pixels) are decoded at a reduced size: enough detail for every game,
# and a 50 MP photo never costs gigabytes.
MAX_PIXELS = 16_000_000
MIN_SIDE = 64

Image.MAX_IMAGE_PIXELS = 400_000_000  # refuse decompression bombs, accept real camera files


@dataclass(frozen=True)
class LoadedPhoto:
    image: np.ndarray  # BGR uint8, displayed orientation
    path: str
    original_size: tuple[int, int]  # (width, height) as displayed, before any reduction
    scale: float  # image pixels per original pixel (1.0 unless reduced)
    exif_orientation: int


def load_photo(path: str | Path, max_pixels: int = MAX_PIXELS) -> LoadedPhoto:
    """Read JPEG/PNG/WebP/...; apply the EXIF orientation; reduce very large photos while decoding."""
    path = Path(path)
    if not path.is_file():
        raise ScanError(f"{path}: no such file")
    try:
        with Image.open(path) as img:
            orientation = int(img.getexif().get(0x0112, 1) or 1)
            width, height = img.size
            if width * height > max_pixels and img.format == "JPEG":
                # JPEG can decode at 1/2, 1/4, 1/8 directly: the cheap way to bound memory.
                factor = (width * height / max_pixels) ** 0.5
                img.draft("RGB", (int(width / factor), int(height / factor)))
            img = ImageOps.exif_transpose(img)
            img = img.convert("RGB")
            img.load()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise ScanError(f"{path}: not a readable image ({_short(exc)})") from None
    rgb = np.asarray(img)
    shown_w, shown_h = (height, width) if orientation in (5, 6, 7, 8) else (width, height)
    if min(rgb.shape[:2]) < MIN_SIDE:
        raise ScanError(f"{path}: image is too small ({rgb.shape[1]}x{rgb.shape[0]} pixels)")
    scale = rgb.shape[1] / shown_w
    if rgb.shape[0] * rgb.shape[1] > max_pixels:
        scale *= (max_pixels / (rgb.shape[0] * rgb.shape[1])) ** 0.5
        rgb = cv2.resize(rgb, None, fx=scale * shown_w / rgb.shape[1], fy=scale * shown_w / rgb.shape[1],
                         interpolation=cv2.INTER_AREA)
    bgr = np.ascontiguousarray(rgb[:, :, ::-1])
    return LoadedPhoto(bgr, str(path), (shown_w, shown_h), scale, orientation)


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
    return text[:120]

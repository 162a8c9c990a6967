"""Stage 1: load a photo from disk as a BGR array, EXIF orientation applied (or, for a scanner that reads any
quarter turn alike, left to apply: ``LoadedPhoto.unturned``), size bounded.

Example:
    >>> import numpy as np, cv2, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.png")
    >>> _ = cv2.imwrite(path, np.zeros((80, 120, 3), np.uint8))
    >>> load_photo(path).image.shape
    (80, 120, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import simplejpeg
from PIL import Image, ImageOps, UnidentifiedImageError

from scanner.errors import ScanError

# Photos larger than this (in pixels) are decoded at a reduced size: enough detail for every game,
# and a 50 MP photo never costs gigabytes.
MAX_PIXELS = 16_000_000
MIN_SIDE = 64

Image.MAX_IMAGE_PIXELS = 400_000_000  # refuse decompression bombs, accept real camera files
# EXIF orientations that turn the stored pixels without mirroring them: the photo a scanner that reads any
# quarter turn alike may read as stored (turning a 12 MP photo takes 13-20 ms, a third of its decode)
QUARTER_TURNS = (3, 6, 8)


@dataclass(frozen=True)
class LoadedPhoto:
    image: np.ndarray  # BGR uint8, displayed orientation
    path: str
    original_size: tuple[int, int]  # (width, height) as displayed, before any reduction
    scale: float  # image pixels per original pixel (1.0 unless reduced)
    exif_orientation: int
    unturned: int = 1  # the EXIF orientation still to apply to ``image`` (1: it is displayed as it is)

    def upright(self) -> LoadedPhoto:
        """The photo as displayed: ``image`` turned by ``unturned``."""
        if self.unturned == 1:
            return self
        return replace(self, image=oriented(self.image, self.unturned), unturned=1)


def load_photo(path: str | Path, max_pixels: int = MAX_PIXELS, any_turn: bool = False) -> LoadedPhoto:
    """Read JPEG/PNG/WebP/TIFF/...; apply the EXIF orientation; reduce very large photos while decoding.
    With ``any_turn``, a JPEG decoded at full size whose orientation is a quarter turn (``QUARTER_TURNS``) is
    left as stored, that turn in ``unturned``: for a scanner that reads any turn of a photo alike."""
    path = Path(path)
    if not path.is_file():
        raise ScanError(f"{path}: no such file")
    data = np.fromfile(path, np.uint8)
    try:
        with Image.open(path) as header:  # reads the header only: size, format, orientation
            width, height, fmt = *header.size, header.format
            orientation = int(header.getexif().get(0x0112, 1) or 1)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise ScanError(f"{path}: not a readable image ({_short(exc)})") from None
    if fmt == "JPEG" and not _jpeg_complete(data):
        raise ScanError(f"{path}: the JPEG file is truncated")
    shown_w, shown_h = (height, width) if orientation in (5, 6, 7, 8) else (width, height)
    if min(width, height) < MIN_SIDE:
        raise ScanError(f"{path}: image is too small ({shown_w}x{shown_h} pixels)")
    reduction = decode_reduction(width * height, max_pixels)
    unturned = orientation if any_turn and orientation in QUARTER_TURNS else 1
    bgr = _full_jpeg(data, orientation, keep=unturned) if fmt == "JPEG" and reduction == 1 else None
    if bgr is None:
        unturned = 1
        bgr = cv2.imdecode(data, _REDUCED[reduction])  # applies the EXIF orientation itself
    if bgr is None:
        bgr = _decode_with_pillow(path)
    if bgr.shape[0] * bgr.shape[1] > max_pixels:
        shrink = (max_pixels / (bgr.shape[0] * bgr.shape[1])) ** 0.5
        bgr = cv2.resize(bgr, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    stored_w = width if unturned in (6, 8) else shown_w  # the original width in the image's own frame
    return LoadedPhoto(bgr, str(path), (shown_w, shown_h), bgr.shape[1] / stored_w, orientation, unturned)


def decode_reduction(pixels: int, max_pixels: int) -> int:
    """The factor (1, 2, 4 or 8) a photo of ``pixels`` is decoded down by for ``max_pixels``: OpenCV decodes
    JPEG at 1/2, 1/4 or 1/8 size directly, the cheap way to bound time and memory.

    >>> decode_reduction(12_000_000, 3_000_000), decode_reduction(12_000_000, 16_000_000)
    (2, 1)
    """
    return next((r for r in (1, 2, 4, 8) if pixels / r**2 <= max_pixels * 1.5), 8)


_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}


def _full_jpeg(data: np.ndarray, orientation: int, keep: int = 1) -> np.ndarray | None:
    """A JPEG decoded at full size with libjpeg-turbo through simplejpeg, turned to its EXIF ``orientation``
    (left as stored when that is ``keep``): the very pixels OpenCV decodes, in about half the time (OpenCV's
    decoder takes about 0.07 s for a 12 MP photo, this 0.04 s with the turn). None when simplejpeg cannot read
    it: OpenCV's turn then.

    >>> _, jpeg = cv2.imencode(".jpg", np.full((16, 24, 3), 200, np.uint8))
    >>> _full_jpeg(jpeg, 6).shape
    (24, 16, 3)
    """
    try:
        bgr = simplejpeg.decode_jpeg(data, "BGR")
    except ValueError:
        return None
    return bgr if orientation == keep else oriented(bgr, orientation, in_place=True)


def displayed_matrix(orientation: int, stored_size: tuple[int, int]) -> np.ndarray:
    """The 3 x 3 matrix taking pixel coordinates (x, y) of an image as stored, ``stored_size`` (width, height),
    to those of the image ``oriented`` to a quarter turn ``orientation`` (``QUARTER_TURNS``, or 1).

    >>> a = np.arange(12, dtype=np.uint8).reshape(3, 4)
    >>> all(oriented(a, o)[tuple(np.rint(displayed_matrix(o, (4, 3)) @ [3, 1, 1])[1::-1].astype(int))] == a[1, 3]
    ...     for o in (1, 3, 6, 8))
    True
    """
    w, h = stored_size
    return np.array({1: [[1, 0, 0], [0, 1, 0]], 3: [[-1, 0, w - 1], [0, -1, h - 1]],
                     6: [[0, -1, h - 1], [1, 0, 0]], 8: [[0, 1, 0], [-1, 0, w - 1]]}[orientation] + [[0, 0, 1]],
                    np.float64)


def oriented(image: np.ndarray, orientation: int, in_place: bool = False) -> np.ndarray:
    """``image`` as displayed under EXIF ``orientation`` (1-8: the row and column order the camera stored); with
    ``in_place``, a flip alone is made in ``image`` itself (no new 36 MB to fill: 1 ms against 5).

    >>> a = np.arange(6, dtype=np.uint8).reshape(2, 3)
    >>> oriented(a, 6).tolist(), oriented(a, 8).tolist(), oriented(a, 2).tolist()
    ([[3, 0], [4, 1], [5, 2]], [[2, 5], [1, 4], [0, 3]], [[2, 1, 0], [5, 4, 3]])
    """
    # the flip each orientation makes before a transpose (5-8) or alone (2-4): 1 about the vertical axis, 0 the
    # horizontal one, -1 both
    flip = {2: 1, 3: -1, 4: 0, 6: 0, 7: -1, 8: 1}.get(orientation)
    if orientation in (5, 6, 7, 8):
        return _transposed(image, flip)
    if flip is None:
        return image
    return cv2.flip(image, flip, dst=image) if in_place else cv2.flip(image, flip)


TURN_STRIP = 128  # columns transposed at a time: a strip stays in the cache (12 ms for a 12 MP turn, not 18)


def _transposed(image: np.ndarray, flip: int | None) -> np.ndarray:
    """``image`` flipped by ``flip`` (as ``cv2.flip``; None: not), then transposed, strip by strip of columns.

    >>> a = np.arange(6, dtype=np.uint8).reshape(2, 3)
    >>> [np.array_equal(_transposed(a, f), cv2.transpose(a if f is None else cv2.flip(a, f))) for f in (None, 0, 1, -1)]
    [True, True, True, True]
    """
    width = image.shape[1]
    out = np.empty((width, image.shape[0], *image.shape[2:]), image.dtype)
    for left in range(0, width, TURN_STRIP):
        strip = image[:, left:left + TURN_STRIP]
        if flip is not None:
            strip = cv2.flip(strip, flip)
        count = strip.shape[1]
        rows = slice(left, left + count) if flip in (None, 0) else slice(width - left - count, width - left)
        cv2.transpose(strip, dst=out[rows])
    return out


def _jpeg_complete(data: np.ndarray) -> bool:
    """A whole JPEG ends with the EOI marker (some cameras pad a few bytes after it)."""
    tail = data[-64:].tobytes()
    return b"\xff\xd9" in tail


def _decode_with_pillow(path: Path) -> np.ndarray:
    """Formats OpenCV cannot decode (e.g. some GIF, palette or 16-bit files)."""
    try:
        with Image.open(path) as img:
            rgb = np.asarray(ImageOps.exif_transpose(img).convert("RGB"))
    except (OSError, SyntaxError, ValueError) as exc:
        raise ScanError(f"{path}: not a readable image ({_short(exc)})") from None
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
    return text[:120]

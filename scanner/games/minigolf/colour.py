"""Colour stage: undo the light's colour cast with the tiles' own colours, then grass / path masks.

Every course tile is printed with the same grass green and terracotta path. A loose first look finds
pixels that are clearly grass under any usual light; the per-channel gains that bring their median back
to the printed green are the white balance. After it, tight thresholds classify grass and path.

>>> import numpy as np
>>> img = np.zeros((10, 20, 3), np.uint8); img[:, :10] = (56, 138, 72); img[:, 10:] = (52, 74, 181)
>>> cast = (img * np.array([0.7, 0.95, 1.15])).clip(0, 255).astype(np.uint8)   # BGR gains: a warm lamp
>>> m = classify(balance(cast))
>>> int(m.grass[:, :10].mean() * 100), int(m.path[:, 10:].mean() * 100)
(100, 100)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner.errors import ScanError

GRASS_BGR = np.array([56.0, 138.0, 72.0])  # printed grass (BGR), as in the reference art
TABLE_BAND = 0.3  # log-ratio distance from the printed grass's hue: tile grass mostly within (90% on usual
# photos), a green table's cloth mostly beyond (99% in photos of tiles on green cloth)
TABLE_GREEN = 0.08  # share of the table (the photo outside the course) that is off-hue green on a green table:
# 0.15 and up on green cloths, plain or checked; 0.04 at most on other tables (green clutter, shadows; 260 photos)


@dataclass(frozen=True)
class Masks:
    grass: np.ndarray  # bool
    path: np.ndarray  # bool

    @property
    def art(self) -> np.ndarray:
        return self.grass | self.path


_LOG = np.log(np.arange(256, dtype=np.float32) + 4.0)  # per-channel log through a look-up table: fast


def _ratios(img: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    b, g, r = (cv2.LUT(c, _LOG) for c in cv2.split(img))  # split bytes, not floats: cheaper
    return g - r, g - b, r - b


_PRINTED = _ratios(GRASS_BGR.astype(np.uint8).reshape(1, 1, 3))  # the printed grass's own ratios


def classify(img: np.ndarray, loose: bool = False) -> Masks:
    """Grass and path pixels of a (balanced) BGR image; ``loose`` for the first look under a cast."""
    gr, gb, rb = _ratios(img)
    f = img.astype(np.int16)
    b, g, r = f[..., 0], f[..., 1], f[..., 2]
    k = 0.25 if loose else 0.0
    # ratios for the hue, absolute differences so dark noisy pixels do not count
    grass = (gr > 0.3 - k) & (gb > 0.35 - k) & (g - np.maximum(r, b) > 14)
    path = (gr < -0.55 + k) & (rb > 0.7 - k) & (r - np.maximum(g, b) > 30)
    return Masks(grass, path)


def _hue_distance(img: np.ndarray, blur: int) -> np.ndarray:
    """Log-ratio distance of every pixel from the printed grass's hue, judged over ``blur`` pixels wide areas
    (noise averages out)."""
    gr, gb, _ = _ratios(cv2.blur(img, (blur, blur)))
    return np.maximum(np.abs(gr - _PRINTED[0]), np.abs(gb - _PRINTED[1]))


def green_table(img: np.ndarray) -> float | None:
    """None unless a balanced photo shows the course on a green table: green off the printed grass's hue
    (tile grass is a lighter, yellower green than a cloth) covers a fair share (``TABLE_GREEN``) of the photo
    outside the patch of on-hue green. Off-hue noise inside the course (dim light amplified by the balance)
    does not count; a checked cloth counts though its green squares cover less than the course.

    On a green table: the hue band that tells tile grass from the cloth, ``TABLE_BAND`` or, for a cloth
    nearer the printed hue, half the cloth's typical distance from it."""
    grass = classify(img).grass
    far = _hue_distance(img, 5)  # dim light amplified by the balance is noisy
    printed = grass & (far < TABLE_BAND)
    if printed.sum() < 50:
        return None
    course = largest_filled(printed, max(img.shape[:2]) // 40)
    if (grass & ~printed & ~course).sum() <= TABLE_GREEN * (~course).sum():
        return None
    return float(min(TABLE_BAND, 0.5 * np.median(far[grass & ~course])))


def course_masks(img: np.ndarray, band: float | None) -> Masks:
    """Grass and path of a balanced image; on a green table (``band`` from :func:`green_table`) only grass
    within ``band`` of the printed hue counts."""
    m = classify(img)
    return m if band is None else Masks(m.grass & (_hue_distance(img, 3) < band), m.path)  # thin gaps stay


def largest_filled(mask: np.ndarray, close_px: int, most: np.ndarray | None = None) -> np.ndarray:
    """The largest piece of ``mask`` after closing gaps up to ``close_px`` (or the piece holding the most
    ``most`` pixels), with its holes filled."""
    k = max(3, close_px) | 1
    clean = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))  # specks
    closed = cv2.morphologyEx(clean, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise ScanError("no Minigolf Designer course found (no green tiles in the photo)")
    if most is None:
        best = max(contours, key=cv2.contourArea)
    else:
        n, labels = cv2.connectedComponents(closed)
        hits = np.bincount(labels[most & (closed > 0)], minlength=n)
        y, x = np.argwhere(labels == int(np.argmax(hits[1:])) + 1)[0]
        best = next(c for c in contours if cv2.pointPolygonTest(c, (float(x), float(y)), False) >= 0)
    out = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(out, [best], -1, 1, -1)
    return out.astype(bool)


def near_grass(grass: np.ndarray, region: np.ndarray) -> np.ndarray:
    """Pixels of the course region between grass: where pathways can be (they run between grass on both
    sides; a red table showing through a hole in the course or along its edge has grass on one side only).
    Between: within a fifth to two fifths of a tile of grass each way, for 10 to 50 tiles."""
    k = 2 * int(0.06 * np.sqrt(region.sum())) + 1
    return region & cv2.morphologyEx(grass.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)).astype(bool)


def white_gains(img: np.ndarray) -> np.ndarray:
    """Per-channel gains that give the course's grass its printed colour. A colour cast scales each channel,
    so one reference colour fixes all three gains: the grass right beside a pathway is surely a tile's (a
    green table is not; the path's own red could be a red table)."""
    m = classify(img, loose=True)
    if m.grass.sum() < 50:
        return np.ones(3)
    k = max(3, max(img.shape[:2]) // 100) | 1
    near_path = m.grass & cv2.dilate(m.path.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    # the piece of green with the most pathway beside it (not specks in a table's shadows; not a green
    # cloth that may cover more of the photo than the course)
    grass = m.grass & largest_filled(m.grass, max(img.shape[:2]) // 40, near_path if near_path.any() else None)
    beside = grass & near_path
    ref = beside if beside.sum() >= 50 else grass
    seen = np.median(img[ref], axis=0).astype(np.float64)
    return GRASS_BGR / np.maximum(seen, 1.0)


def balance(img: np.ndarray, gains: np.ndarray | None = None) -> np.ndarray:
    """``img`` with the ``gains`` (by default its own :func:`white_gains`) applied."""
    g = white_gains(img) if gains is None else gains
    return cv2.transform(img, np.diag(g))  # rounds and saturates to uint8 in one pass

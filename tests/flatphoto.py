"""Fast stand-in photos for tests: a scene drawn straight from above onto a plain table, ground-truth
points in that image's pixels; and turning such a photo by any angle with its points."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from fixtures.art.minigolf.tiles import tile_image
from fixtures.scene import Eye, Lighting, Scene, Solid, render_view, scene_bounds_mm, scene_points_mm
from fixtures.view import view_around


def flat_photo(scene: Scene, px_per_mm: float = 1.5, table_bgr=(0.12, 0.1, 0.08), around: Scene | None = None,
               shadows: float = 0.0) -> SimpleNamespace:
    """``image`` (BGR uint8) and ``points`` ("<name>:<point>" -> pixels) of the scene, framing ``around``
    (default: the scene itself) with a 20 mm border."""
    lo, hi = scene_bounds_mm(around or scene)
    view = view_around(lo - 20, hi + 20, px_per_mm)
    table = np.empty((view.size[1], view.size[0], 3), np.float32)
    table[:] = table_bgr
    eye = Eye(tuple((lo + hi) / 2), 1e7)
    img = render_view(view, table, [Solid(c) for c in scene.components], eye, Lighting(strength=shadows))
    points = {k: view.to_px(v) for k, v in scene_points_mm(scene, eye).items()}
    return SimpleNamespace(image=(np.clip(img, 0, 1) * 255).astype(np.uint8), points=points)


def turned(photo: SimpleNamespace, angle_deg: float) -> SimpleNamespace:
    """The photo turned by ``angle_deg`` (counter-clockwise) on a canvas that holds all of it."""
    h, w = photo.image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    size = (int(h * sin + w * cos), int(h * cos + w * sin))
    m[:, 2] += (size[0] / 2 - w / 2, size[1] / 2 - h / 2)
    image = cv2.warpAffine(photo.image, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    points = {k: np.asarray(v) @ m[:, :2].T + m[:, 2] for k, v in photo.points.items()}
    return SimpleNamespace(image=image, points=points)


def tile_course(course: list[list[str]], pitch: int, shape: tuple[int, int] | None = None,
                origin: tuple[int, int] | None = None, table=(120, 120, 120)) -> np.ndarray:
    """Minigolf Designer tiles (ids, unturned) seen straight from above, one every ``pitch`` pixels with a thin
    gap between, on a plain ``table`` (BGR): a pitch of table all round, or an image of ``shape`` (h, w) with
    the course's top-left at ``origin`` (x, y)."""
    rows, cols = len(course), len(course[0])
    img = np.empty((*(shape or ((rows + 2) * pitch, (cols + 2) * pitch)), 3), np.uint8)
    img[:] = table
    x0, y0 = origin or (pitch, pitch)
    side = int(pitch * 60 / 61.5)
    inset = (pitch - side) // 2
    for r, line in enumerate(course):
        for c, tile in enumerate(line):
            art = cv2.cvtColor(tile_image(tile, 0, 2.0)[..., :3], cv2.COLOR_RGB2BGR)
            y, x = y0 + r * pitch + inset, x0 + c * pitch + inset
            img[y:y + side, x:x + side] = cv2.resize(art, (side, side), interpolation=cv2.INTER_AREA)
    return img

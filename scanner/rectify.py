"""Stage 3: warp a quadrilateral of the photo to an upright square (or rectangle) of canonical size.

A margin around the quadrilateral is kept so that later stages can find lines that lie a little outside
the first estimate.

Example:
    >>> import numpy as np
    >>> img = np.zeros((100, 100, 3), np.uint8)
    >>> r = rectify(img, np.float32([[10, 10], [90, 10], [90, 90], [10, 90]]), (40, 40), margin=5)
    >>> r.image.shape, np.round(r.to_photo(np.float32([[5, 5], [45, 45]]))).tolist()
    ((50, 50, 3), [[10.0, 10.0], [90.0, 90.0]])
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Rectified:
    image: np.ndarray  # the warped image
    homography: np.ndarray  # photo pixels -> rectified pixels
    margin: int
    size: tuple[int, int]  # (width, height) of the quadrilateral's image, margin excluded

    def to_photo(self, points: np.ndarray) -> np.ndarray:
        """Rectified pixel coordinates (N, 2) -> photo pixel coordinates."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)

    def from_photo(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)


def rectify(image: np.ndarray, corners: np.ndarray, size: tuple[int, int], margin: int = 0) -> Rectified:
    """Map ``corners`` (TL, TR, BR, BL in the photo) to a ``size`` rectangle inside ``margin`` pixels."""
    w, h = size
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    dst = np.float32([[margin, margin], [margin + w, margin], [margin + w, margin + h], [margin, margin + h]])
    homography = cv2.getPerspectiveTransform(corners, dst)
    # A bilinear warp that shrinks a lot skips pixels and loses thin lines: shrink the region first by area.
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    shrink = min(1.0, 1.5 * max(w, h) / max(float(sides.max()), 1.0))
    source, pre = image, np.eye(3)
    if shrink < 0.75:
        x0, y0 = np.maximum(np.floor(corners.min(axis=0) - sides.max() * 0.2), 0).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0) + sides.max() * 0.2).astype(int)
        crop = image[y0:y1, x0:x1]
        source = cv2.resize(crop, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        pre = np.array([[shrink, 0, -x0 * shrink], [0, shrink, -y0 * shrink], [0, 0, 1]])
    warp = homography @ np.linalg.inv(pre)
    warped = cv2.warpPerspective(source, warp, (w + 2 * margin, h + 2 * margin), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return Rectified(warped, homography, margin, (w, h))

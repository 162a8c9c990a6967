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

from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np


@dataclass(frozen=True)
class Rectified:
    image: np.ndarray  # the warped image
    homography: np.ndarray  # photo pixels -> rectified pixels
    margin: int
    size: tuple[int, int]  # (width, height) of the quadrilateral's image, margin excluded

    @cached_property
    def _inverse(self) -> np.ndarray:
        """Rectified pixels -> photo pixels (inverted once: a plan's every square asks for it)."""
        return np.linalg.inv(self.homography)

    def to_photo(self, points: np.ndarray) -> np.ndarray:
        """Rectified pixel coordinates (N, 2) -> photo pixel coordinates."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self._inverse).reshape(-1, 2)

    def from_photo(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def seen_through(self, matrix: np.ndarray) -> Rectified:
        """The same rectified image, its photo coordinates moved by ``matrix`` (3 x 3, old photo pixels -> new:
        the photo turned, say).

        >>> r = rectify(np.zeros((100, 100, 3), np.uint8), np.float32([[10, 10], [90, 10], [90, 90], [10, 90]]), (40, 40))
        >>> np.round(r.seen_through(np.float64([[1, 0, 5], [0, 1, 0], [0, 0, 1]])).to_photo([[0, 0]])).tolist()
        [[15.0, 10.0]]
        """
        return replace(self, homography=self.homography @ np.linalg.inv(matrix))


def rectify(image: np.ndarray, corners: np.ndarray, size: tuple[int, int], margin: int = 0) -> Rectified:
    """Map ``corners`` (TL, TR, BR, BL in the photo) to a ``size`` rectangle inside ``margin`` pixels."""
    w, h = size
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    dst = np.float32([[margin, margin], [margin + w, margin], [margin + w, margin + h], [margin, margin + h]])
    homography = cv2.getPerspectiveTransform(corners, dst)
    # A bilinear warp that shrinks a lot skips pixels and loses thin lines: the region is halved first (a 2 x 2
    # area average, OpenCV's fast case: 2 ms for a 6 MP crop, where an area resize by 0.6 takes 30 ms) until
    # the warp shrinks it by at most 1.5 or so, and never below the output's detail.
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    shrink = min(1.0, 1.5 * max(w, h) / max(float(sides.max()), 1.0))
    source, pre = image, np.eye(3)
    if shrink < 0.75:
        x0, y0 = np.maximum(np.floor(corners.min(axis=0) - sides.max() * 0.2), 0).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0) + sides.max() * 0.2).astype(int)
        source, pre = image[y0:y1, x0:x1], np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]])
        while shrink < 0.75:
            half_h, half_w = source.shape[0] // 2, source.shape[1] // 2  # even sides: the fast case
            source = cv2.resize(source[:2 * half_h, :2 * half_w], (half_w, half_h), interpolation=cv2.INTER_AREA)
            # pixel centres: x' = (x + 0.5) / 2 - 0.5
            pre = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1]]) @ pre
            shrink *= 2
    warp = homography @ np.linalg.inv(pre)
    warped = cv2.warpPerspective(source, warp, (w + 2 * margin, h + 2 * margin), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return Rectified(warped, homography, margin, (w, h))


# A phone's main camera sees about this wide (a 26 mm equivalent lens on a 4:3 sensor: 65-70 degrees);
# the shape found below moves by about 3% over 60-80 degrees for a steeply seen sheet.
PHONE_HFOV = 68.0
# Most the perspective may change the sides' ratio before the shape is taken as unknown: a view that oblique
# (a sheet seen 35 degrees off, far from the photo's centre) or no rectangle's (an outline found on cards or
# tiles: up to 2.5) is told by neither. Of 772 photographed plans (seeds 14402-14702) five went beyond 1.4: the
# perspective's shape was right for three and the sides' ratio for two; each ratio misled the grid's count once.
MOST_CORRECTION = 1.4


def rectangle_aspect(corners: np.ndarray, image_shape: tuple[int, ...], hfov_deg: float = PHONE_HFOV) -> float | None:
    """Height / width of the rectangle whose perspective view is ``corners`` (TL, TR, BR, BL) in a photo of
    ``image_shape``, taken by a camera of horizontal field ``hfov_deg`` centred on the photo: the sides'
    lengths in the photo mislead when the sheet is seen at a slant (its near side looks longer).

    The vanishing geometry of the quadrilateral gives its two sides' directions in space (the whiteboard
    method of Zhang and He); with no usable perspective (sides parallel in the photo, a focal length that
    does not fit) the mean side lengths' ratio stands, and a shape the perspective changes by more than
    ``MOST_CORRECTION`` is not known (None).

    >>> square = np.float32([[100, 100], [300, 100], [300, 300], [100, 300]])
    >>> round(rectangle_aspect(square, (400, 400)), 3)
    1.0
    >>> leaning = np.float32([[144.7, 157.6], [255.3, 157.6], [244.6, 234.2], [155.4, 234.2]])  # a square,
    >>> round(rectangle_aspect(leaning, (400, 400)), 2)  # tilted 40 degrees away (its sides: 0.77)
    1.0
    """
    pts = np.asarray(corners, np.float64)
    tl, tr, br, bl = (np.array([x, y, 1.0]) for x, y in pts)
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)  # top, right, bottom, left
    plain = float((sides[1] + sides[3]) / (sides[0] + sides[2]))
    h, w = image_shape[:2]
    f = (max(w, h) / 2) / np.tan(np.deg2rad(hfov_deg) / 2)
    inverse = np.linalg.inv(np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]]))
    metric = inverse.T @ inverse
    # the corners' depths relative to the top left one, from the plane's vanishing geometry
    k_right = np.dot(np.cross(tl, br), bl) / np.dot(np.cross(tr, br), bl)
    k_down = np.dot(np.cross(tl, br), tr) / np.dot(np.cross(bl, br), tr)
    across, down = k_right * tr - tl, k_down * bl - tl  # the top and left sides' directions in space
    width2, height2 = across @ metric @ across, down @ metric @ down
    if not (np.isfinite(width2) and np.isfinite(height2) and width2 > 0 and height2 > 0 and k_right > 0 and k_down > 0):
        return plain
    aspect = float(np.sqrt(height2 / width2))
    return aspect if max(aspect / plain, plain / aspect) <= MOST_CORRECTION else None

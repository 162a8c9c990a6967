"""Stage: find printed cards (a white frame around a coloured panel) in a photo, and rectify each.

Cards laid edge to edge (a course chain, a grid of cards) merge into one bright region, so a card is
not found as a bright blob but as its panel: a large, nearly rectangular hole in the mask of white
frame. Two panels stay apart even where the cards touch or overlap by less than the frame width. Each
panel outline is fitted with four robust lines (pictures touching the frame notch it, but not its
sides), and the card's corners follow from the panel through the known frame width, perspective
included.

The mask is "white paper": bright relative to the brightest surfaces nearby (so a shadow or vignetting
does not cut it) and unsaturated after a white balance on the brightest pixels (so a warm lamp does not).

Example:
    >>> import numpy as np, cv2
    >>> img = np.full((600, 800, 3), (40, 60, 90), np.uint8)
    >>> _ = cv2.rectangle(img, (100, 100), (225, 275), (245, 245, 245), -1)
    >>> _ = cv2.rectangle(img, (108, 108), (217, 267), (60, 140, 50), -1)
    >>> found = find_cards(img, CardSpec((63.0, 88.0), 4.0))
    >>> corners = found[0].corners if found[0].corners[0, 1] < 200 else found[0].turned().corners
    >>> len(found), np.round(corners).tolist()
    (1, [[100.0, 100.0], [226.0, 100.0], [226.0, 276.0], [100.0, 276.0]])
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner.debug import draw_polygon
from scanner.locate import downscale
from scanner.rectify import Rectified, rectify

WORK_SIDE = 2000


@dataclass(frozen=True)
class CardSpec:
    """A card's size (short side, long side) in mm and the width of its white frame in mm."""

    size_mm: tuple[float, float]
    frame_mm: float

    @property
    def panel_mm(self) -> tuple[float, float]:
        return (self.size_mm[0] - 2 * self.frame_mm, self.size_mm[1] - 2 * self.frame_mm)


@dataclass(frozen=True)
class FoundCard:
    """A card in the photo: corners TL, TR, BR, BL with TL->TR a short side (which short side is the top is
    not known yet), and its panel outline; all in photo pixels."""

    corners: np.ndarray  # (4, 2) float
    panel: np.ndarray  # (4, 2) float
    area_px: float  # panel area

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    def quarter_turned(self, spec: CardSpec) -> FoundCard:
        """The same panel with its other sides taken as the short ones (a steep view can make a card's short
        side look the longer one; only a fitted table plane tells)."""
        panel = np.roll(self.panel, -1, axis=0)
        return FoundCard(card_from_panel(panel, spec), panel, self.area_px)

    def turned(self) -> FoundCard:
        """The same card read the other way up."""
        return FoundCard(np.roll(self.corners, 2, axis=0), np.roll(self.panel, 2, axis=0), self.area_px)

    def draw(self, image: np.ndarray, color=(0, 255, 255)) -> np.ndarray:
        return draw_polygon(image, self.corners, color, max(2, image.shape[1] // 500))


def paper_mask(image: np.ndarray) -> np.ndarray:
    """uint8 mask of white card stock: bright relative to its surroundings and unsaturated."""
    img = image.astype(np.float32)
    sample = img[::4, ::4].reshape(-1, 3)  # statistics from a sixteenth of the pixels: plenty, and fast
    lum = sample.sum(axis=1)
    white = np.median(sample[lum >= np.percentile(lum, 99.5)], axis=0) + 1.0
    img *= (white.mean() / white).astype(np.float32)  # white balance on the brightest surfaces
    b, g, r = cv2.split(img)  # (OpenCV's per-pixel max/min: numpy's over a 3-long axis is slow)
    v = cv2.max(cv2.max(b, g), r)
    s = (v - cv2.min(cv2.min(b, g), r)) / np.maximum(v, 1.0)
    # the brightest surface within ~1/25 of the photo, computed on a coarse copy (it varies slowly)
    coarse = cv2.resize(v, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
    k = max(3, int(max(coarse.shape) / 25) | 1)
    top_coarse = cv2.GaussianBlur(cv2.dilate(coarse, np.ones((k, k), np.uint8)), (0, 0), k / 2)
    local_top = cv2.resize(top_coarse, (v.shape[1], v.shape[0]), interpolation=cv2.INTER_LINEAR)
    return ((v > 0.7 * local_top) & (s < 0.3) & (v > 60)).astype(np.uint8)


def _fit_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    vx, vy, x0, y0 = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0]), np.array([vx, vy])


def _fit_quad(contour: np.ndarray) -> np.ndarray | None:
    """Four robust lines through a hole's outline -> its corners (in order around it).

    Each side takes the outline points near the matching side of the outline's bounding rectangle, away
    from the round corners; a second pass keeps the points near the first line (perspective makes the
    sides converge, so the rectangle's sides are only a first guess)."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    rect = cv2.boxPoints(cv2.minAreaRect(pts))
    centre = rect.mean(axis=0)
    side = np.linalg.norm(rect - np.roll(rect, -1, axis=0), axis=1)
    lines = []
    for k in range(4):
        a, b = rect[k], rect[(k + 1) % 4]
        d = (b - a) / max(side[k], 1e-6)
        n = np.array([-d[1], d[0]])
        t = (pts - a) @ d
        span = (t > 0.12 * side[k]) & (t < 0.88 * side[k])
        near = span & (np.abs((pts - a) @ n) < 0.1 * side.min() + 2.0)
        if near.sum() < 5:
            return None
        p, u = _fit_line(pts[near])
        near = span & (np.abs((pts - p) @ np.array([-u[1], u[0]])) < 2.0)
        if near.sum() < 5:
            return None
        p, u = _fit_line(pts[near])
        # the outline runs through the hole's edge pixel centres: its true edge is half a pixel further out
        out = np.array([-u[1], u[0]])
        out *= np.sign(np.dot(out, p - centre))
        lines.append((p + 0.5 * out, u))
    corners = []
    for k in range(4):
        (p, u), (q, v) = lines[k - 1], lines[k]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, q - p)
        corners.append(p + t[0] * u)
    return np.array(corners, np.float32)


def _short_side_first(quad: np.ndarray) -> np.ndarray:
    """Order a quadrilateral clockwise as seen in the photo, its first side a short one."""
    x, y = quad[:, 0], quad[:, 1]
    if np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) < 0:
        quad = quad[::-1]
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        quad = np.roll(quad, -1, axis=0)
    return quad


def card_from_panel(panel: np.ndarray, spec: CardSpec) -> np.ndarray:
    """The card's corners from its panel's (same order, first side short), through the panel homography."""
    pw, ph = spec.panel_mm
    f = spec.frame_mm
    h = cv2.getPerspectiveTransform(np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]]), panel.astype(np.float32))
    card = np.float32([[-f, -f], [pw + f, -f], [pw + f, ph + f], [-f, ph + f]]).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(card, h).reshape(4, 2)


def find_cards(image: np.ndarray, spec: CardSpec, min_fraction: float = 2e-4) -> list[FoundCard]:
    """Every card (panel inside a white frame) in the photo, largest first."""
    small, scale = downscale(image, WORK_SIDE)
    mask = paper_mask(small)
    aspect = spec.panel_mm[0] / spec.panel_mm[1]
    min_area = min_fraction * mask.size
    # holes of the paper mask: regions of other colour that paper encloses
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
    found = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area < min_area or x == 0 or y == 0 or x + w >= mask.shape[1] or y + h >= mask.shape[0]:
            continue  # a small hole (text, an icon, a dark check of a table cloth) or the open table
        roi = (labels[y - 1 : y + h + 1, x - 1 : x + w + 1] == i).astype(np.uint8)
        ring = cv2.dilate(roi, np.ones((5, 5), np.uint8)) - roi
        if mask[y - 1 : y + h + 1, x - 1 : x + w + 1][ring > 0].mean() < 0.7:
            continue  # not enclosed by paper
        k = max(3, int(0.06 * min(w, h)) | 1)  # open away thin spurs (a printed arrow reaching into the frame)
        roi = cv2.morphologyEx(roi, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        contours, _ = cv2.findContours(roi, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            continue
        contour = max(contours, key=cv2.contourArea) + np.array([x - 1, y - 1])
        hull_area = cv2.contourArea(cv2.convexHull(contour))
        if cv2.contourArea(contour) < 0.8 * hull_area:
            continue
        quad = _fit_quad(contour)
        if quad is None:
            continue
        quad = _short_side_first(quad)
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        ratio = (sides[0] + sides[2]) / max(sides[1] + sides[3], 1e-6)
        quad_area = abs(cv2.contourArea(quad))
        # a wide range of side ratios: a steep view foreshortens one side
        if not (0.5 * aspect < ratio < 1.6 * aspect) or not 0.85 < hull_area / max(quad_area, 1e-6) < 1.1:
            continue
        panel = (quad + 0.5) / scale - 0.5
        found.append(FoundCard(card_from_panel(panel, spec), panel, quad_area / scale**2))
    if found:  # cards of one game are one size, the largest holes: drop the far smaller ones (a check pattern)
        areas = sorted((c.area_px for c in found), reverse=True)
        typical = areas[min(2, len(areas) - 1)]
        found = [c for c in found if c.area_px > 0.3 * typical]
    kept: list[FoundCard] = []
    for card in sorted(found, key=lambda c: -c.area_px):  # a hole inside a card found already is its picture
        if all(cv2.pointPolygonTest(k.corners.astype(np.float32), tuple(map(float, card.centre)), False) < 0
               for k in kept):
            kept.append(card)
    return kept


def rectify_card(image: np.ndarray, card: FoundCard, spec: CardSpec, px_per_mm: float) -> Rectified:
    """The card warped upright (as its corners are ordered) at ``px_per_mm``."""
    size = (int(round(spec.size_mm[0] * px_per_mm)), int(round(spec.size_mm[1] * px_per_mm)))
    return rectify(image, card.corners, size)


GATE = 0.15  # a face whose whole-card match is this far below the best one's is another kind of card
FLAT = 0.04  # contrast (in paper whites) below which a region counts as blank: it is not blown up to noise


def white_balanced(image: np.ndarray) -> np.ndarray:
    """A card image (BGR) divided by the colour of its paper (the brightest few per cent), as float32."""
    img = image.astype(np.float32)
    sample = img[::2, ::2].reshape(-1, 3)
    bright = sample[sample.sum(axis=1) >= np.percentile(sample.sum(axis=1), 95)]
    return img / (bright.mean(axis=0) + 1.0)


def standardized(image: np.ndarray, box_px: tuple[int, int, int, int], blur_px: float = 1.0) -> np.ndarray:
    """The part ``box_px`` (x0, y0, x1, y1) of a white-balanced card image, blurred, each channel's mean
    removed (what every card of a kind shares), scaled to unit variance over all channels together (so
    the contrast between the channels, e.g. a purple or a teal panel against the white frame, stays)."""
    x0, y0, x1, y1 = box_px
    part = np.ascontiguousarray(cv2.GaussianBlur(image, (0, 0), blur_px)[y0:y1, x0:x1])
    part -= np.array(cv2.mean(part)[:3], np.float32)
    return part / max(float(part.std()), FLAT)


@dataclass(frozen=True)
class Templates:
    """Reference faces for matching: label -> standardized regions of the upright face. A card is scored
    as photographed and turned half a circle. Per region the score is 1 - half the mean squared difference
    of the standardized images: the normalized cross-correlation where both show something, 0.5 where
    one is blank and the other is not (a missing tree costs as much as an extra one), 1 where both are
    blank. The card's score is the regions' weighted mean: small regions around what tells faces apart
    sharpen the decision, the whole card keeps it robust. The first region also gates: a face it matches
    much worse than the best face does (another kind of card: other colours, other layout) is ranked
    below every face it matches well, whatever its details say."""

    labels: tuple[str, ...]
    features: tuple[np.ndarray, ...]  # per region: (n, h, w, 3)
    energy: np.ndarray  # (regions, n): mean square of each standardized region (1, or less if blank)
    boxes: tuple[tuple[int, int, int, int], ...]  # per region, pixels
    weights: tuple[float, ...]
    px_per_mm: float

    @classmethod
    def build(cls, faces: dict[str, np.ndarray], px_per_mm: float,
              regions: dict[tuple[float, float, float, float], float]) -> Templates:
        """``faces``: label -> BGR(A) card image at ``px_per_mm``; ``regions``: box in mm -> weight."""
        boxes = tuple(tuple(int(round(v * px_per_mm)) for v in box) for box in regions)
        balanced = [white_balanced(img[..., :3]) for img in faces.values()]
        feats = tuple(np.array([standardized(img, box) for img in balanced], np.float32) for box in boxes)
        energy = np.array([(f * f).mean(axis=(1, 2, 3)) for f in feats])
        return cls(tuple(faces), feats, energy, boxes, tuple(regions.values()), px_per_mm)

    def scores(self, card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Match of a rectified card (BGR, at ``px_per_mm``) with every face, as given and turned: the
        scores (n, 2); and the match over only the regions where each face shows something (n, 2), which
        a blank thing of card size (a phone, a coaster) cannot earn by being as blank as a sparse card."""
        out = np.zeros((len(self.labels), 2))
        shown = np.zeros((len(self.labels), 2))
        gate = np.zeros((len(self.labels), 2))
        balanced = white_balanced(card)
        for turn, image in enumerate((balanced, np.ascontiguousarray(balanced[::-1, ::-1]))):
            for k, (feats, energy, box, weight) in enumerate(
                    zip(self.features, self.energy, self.boxes, self.weights, strict=True)):
                part = standardized(image, box)
                dot = np.einsum("nyxc,yxc->n", feats, part) / part.size
                region = dot + 1.0 - (energy + float((part * part).mean())) / 2
                out[:, turn] += weight * region
                shown[:, turn] += weight * region * (energy > 0.99)
                if k == 0:
                    gate[:, turn] = region
        weight_shown = (np.array(self.weights)[:, None] * (self.energy > 0.99)).sum(axis=0)
        return out / sum(self.weights) - (gate < gate.max() - GATE), shown / weight_shown[:, None]

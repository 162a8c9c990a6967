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

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from scanner.debug import draw_polygon
from scanner.locate import downscale, line_crossing
from scanner.memo import same_image
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


PAPER_TINT = 0.6  # lowest channel over highest: paper under a lamp a phone did not fully correct stays above


def _whiteness(b: np.ndarray, g: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Brightness, strongly coloured pixels counted darker (see :func:`paper_white`)."""
    tint = np.minimum(np.minimum(b, g), r) / np.maximum(np.maximum(np.maximum(b, g), r), 1.0)
    return (b + g + r) * np.where(tint >= PAPER_TINT, 1.0, tint**2)


def paper_white(pixels: np.ndarray) -> np.ndarray:
    """The colour of white paper among ``pixels`` (n, 3), as the light shows it: the median of the brightest
    few (0.5 %), strongly coloured ones counted darker. A yellow panel in a lamp's spot can outshine the
    paper; taken for white, it would make the paper look blue, too coloured to count as paper. (Merely
    tinted surfaces keep their brightness: paper under a warm lamp is as tinted as a grey-green table.)

    >>> paper = np.tile([[124.0, 140.0, 148.0]], (40, 1))
    >>> yellow = np.tile([[128.0, 212.0, 236.0]], (20, 1))
    >>> table = np.tile([[30.0, 40.0, 50.0]], (4000, 1))
    >>> paper_white(np.concatenate([paper, yellow, table])).tolist()
    [125.0, 141.0, 149.0]
    """
    whiteness = _whiteness(*pixels.T)  # (numpy's max over a 3-long axis is slow)
    return np.median(pixels[whiteness >= np.percentile(whiteness, 99.5)], axis=0) + 1.0


def paper_mask(image: np.ndarray) -> np.ndarray:
    """uint8 mask of white card stock: bright relative to its surroundings and unsaturated.

    Computed in 8 bits throughout (a photo of several megapixels: float planes would cost several times
    as much); the white balance saturates at 255, which only makes white whiter."""
    sample = image[::4, ::4].reshape(-1, 3).astype(np.float32)  # a sixteenth of the pixels: plenty
    white = paper_white(sample)
    gains = white.mean() / white  # white balance on the brightest surfaces
    return _bright_and_grey(cv2.transform(image, np.diag(gains).astype(np.float32)))


LOCAL_BLOCK = 8  # px: the local white is judged from the brightest pixel of each block this size
LOCAL_WINDOW = 0.1  # of the photo's longer side: the reach of a local white (light changes slowly)
LOCAL_WHITEST = 0.9  # blocks this close to the whitest nearby one show the paper there


def local_paper_mask(image: np.ndarray) -> np.ndarray:
    """Like :func:`paper_mask`, but white balanced on the whitest surfaces nearby rather than on the
    photo's brightest: a pale yellow score pad outshining the cards sets a global white that makes their
    frames look blue. Paper is judged bright against the table around it too (not only against a fixed
    floor: an underexposed photo, a deep shadow), and the mask is cleaned of single-pixel specks and gaps
    (a noisy table's grain breaks thin frames, so that a panel's hole leaks into the table).

    >>> img = np.full((400, 600, 3), 45, np.uint8)
    >>> img[20:120, 420:580] = (170, 250, 255)  # a yellow pad, the brightest thing in the photo
    >>> _ = cv2.rectangle(img, (60, 200), (185, 375), (215, 212, 200), -1)  # a bluish white
    >>> _ = cv2.rectangle(img, (68, 208), (177, 367), (40, 90, 40), -1)
    >>> frame = (slice(210, 365), slice(60, 64))  # the left side of its frame
    >>> float(paper_mask(img)[frame].mean()), float(local_paper_mask(img)[frame].mean())
    (0.0, 1.0)
    """
    sample = image[::2, ::2]  # every other pixel: a frame is still several wide
    n = LOCAL_BLOCK // 2
    h, w = (s // n for s in sample.shape[:2])
    blocks = sample[:h * n, :w * n].reshape(h, n, w, n, 3).transpose(0, 2, 1, 3, 4).reshape(h, w, -1, 3)
    lum = blocks.sum(axis=3, dtype=np.uint16)
    colour = np.take_along_axis(blocks, lum.argmax(axis=2)[..., None, None], axis=2)[:, :, 0].astype(np.float32)
    whiteness = _whiteness(*cv2.split(colour))
    k = max(3, int(LOCAL_WINDOW * max(h, w)) | 1)
    whitest = (whiteness >= LOCAL_WHITEST * cv2.dilate(whiteness, np.ones((k, k), np.uint8))).astype(np.float32)
    weight = cv2.GaussianBlur(whitest, (0, 0), k / 2)
    white = cv2.GaussianBlur(colour * whitest[..., None], (0, 0), k / 2) / np.maximum(weight, 1e-6)[..., None] + 1.0
    gains = cv2.resize(white.mean(axis=2, keepdims=True) / white, (image.shape[1], image.shape[0]),
                       interpolation=cv2.INTER_LINEAR)
    balanced = cv2.multiply(image, gains, dtype=cv2.CV_8U)
    return cv2.medianBlur(_bright_and_grey(balanced, against_table=True), 3)


PAPER_FLOOR = 60  # paper is never darker (a dark table far from any card is the brightest surface near it) ...
TABLE_CONTRAST = 1.3  # ... or, judged against the table, than this many times most surfaces nearby


def _bright_and_grey(balanced: np.ndarray, against_table: bool = False) -> np.ndarray:
    """The paper mask of a white-balanced photo (see :func:`paper_mask`); ``against_table``, the floor is
    lowered where the table nearby is darker than it (an underexposed photo, a deep shadow)."""
    b, g, r = cv2.split(balanced)  # (OpenCV's per-pixel max/min: numpy's over a 3-long axis is slow)
    v = cv2.max(cv2.max(b, g), r)
    low = cv2.min(cv2.min(b, g), r)
    # the brightest surface within ~1/25 of the photo, computed on a coarse copy (it varies slowly)
    small = cv2.resize(v, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
    coarse = small.astype(np.float32)
    k = max(3, int(max(coarse.shape) / 25) | 1)
    top_coarse = cv2.GaussianBlur(cv2.dilate(coarse, np.ones((k, k), np.uint8)), (0, 0), k / 2)
    floor = PAPER_FLOOR
    if against_table:  # the table: the median surface within ~1/10 of the photo (cards are the fewer)
        table = cv2.medianBlur(small, max(3, int(max(coarse.shape) / 10) | 1)).astype(np.float32)
        floor = np.minimum(PAPER_FLOOR, TABLE_CONTRAST * table)
    bright = cv2.resize(np.clip(np.maximum(0.7 * top_coarse, floor), 0, 255).astype(np.uint8),
                        (v.shape[1], v.shape[0]), interpolation=cv2.INTER_LINEAR)
    # saturation (v - low) / v < 0.3, i.e. low > 0.7 v
    grey = cv2.compare(low, cv2.multiply(v, 0.7, dtype=cv2.CV_8U), cv2.CMP_GT)
    return cv2.bitwise_and(cv2.compare(v, bright, cv2.CMP_GT), grey) // 255


def _fit_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    vx, vy, x0, y0 = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0]), np.array([vx, vy])


SIDE_SAMPLES = 16  # candidate points per side for the consensus line (lines through pairs of them)
SIDE_VOTES = 64  # points per side that vote for a line


def _side_line(pts: np.ndarray, tolerance: float = 2.0) -> tuple[np.ndarray, np.ndarray] | None:
    """The straight side among outline points (in order along it): the line through two of them that most
    points lie close to (within ``tolerance`` px, the closer the more each counts), refitted to those. A
    picture touching the frame notches the side over part of its length; a least-squares line, even a
    robust one, tilts towards the notch, the line most points agree on does not.

    >>> xs = np.arange(100.0)
    >>> side = np.c_[xs, np.where(xs > 55, -8.0, 0.0)]  # a notch 8 px deep over 44 % of the side
    >>> p, u = _side_line(side.astype(np.float32))
    >>> round(abs(float(u[1])), 3), round(float(p[1]), 1)
    (0.0, 0.0)
    """
    p, u = _fit_line(pts)
    near = np.abs((pts - p) @ np.array([-u[1], u[0]])) < tolerance
    if near.mean() >= 0.9:  # a clean side (most are): the robust fit is right, no search needed
        return _fit_line(pts[near])
    picks = pts[np.linspace(0, len(pts) - 1, min(SIDE_SAMPLES, len(pts))).astype(int)]
    votes = pts[np.linspace(0, len(pts) - 1, min(SIDE_VOTES, len(pts))).astype(int)]
    i, j = np.triu_indices(len(picks), k=len(picks) // 4 or 1)  # pairs far enough apart to set a direction
    d = picks[j] - picks[i]
    n = np.c_[-d[:, 1], d[:, 0]] / np.maximum(np.linalg.norm(d, axis=1), 1e-6)[:, None]
    dist = np.abs(np.einsum("kpc,kc->kp", votes[None, :, :] - picks[i][:, None, :], n))
    closeness = np.maximum(0.0, 1.0 - (dist / tolerance) ** 2)  # points right on a line count most
    best = int(np.argmax(closeness.sum(axis=1)))
    support = np.abs((pts - picks[i[best]]) @ n[best]) < tolerance
    if support.sum() < 5:
        return None
    return _fit_line(pts[support])


def _fit_quad(contour: np.ndarray) -> np.ndarray | None:
    """Four robust lines through a hole's outline -> its corners (in order around it).

    Each side takes the outline points near the matching side of the outline's bounding rectangle, away
    from the round corners, and the line most of them agree on is fitted (:func:`_side_line`; perspective
    makes the sides converge, so the rectangle's sides are only a first guess)."""
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
        order = np.argsort(t[near])
        line = _side_line(pts[near][order])
        if line is None:
            return None
        p, u = line
        # the outline runs through the hole's edge pixel centres: its true edge is half a pixel further out
        out = np.array([-u[1], u[0]])
        out *= np.sign(np.dot(out, p - centre))
        lines.append((p + 0.5 * out, u))
    corners = [line_crossing(*lines[k - 1], *lines[k]) for k in range(4)]
    if any(corner is None for corner in corners):
        return None
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


def _outlines_mm(spec: CardSpec) -> tuple[np.ndarray, np.ndarray]:
    """The panel's and the card's corners (TL, TR, BR, BL) in mm, the panel's top-left at the origin."""
    pw, ph = spec.panel_mm
    f = spec.frame_mm
    return (np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]]),
            np.float32([[-f, -f], [pw + f, -f], [pw + f, ph + f], [-f, ph + f]]))


def _mapped(points: np.ndarray, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """``points`` carried through the homography taking quadrilateral ``src`` to ``dst``."""
    h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    return cv2.perspectiveTransform(points.astype(np.float32).reshape(-1, 1, 2), h).reshape(-1, 2)


def card_from_panel(panel: np.ndarray, spec: CardSpec) -> np.ndarray:
    """The card's corners from its panel's (same order, first side short), through the panel homography."""
    panel_mm, card_mm = _outlines_mm(spec)
    return _mapped(card_mm, panel_mm, panel)


def card_around(outline: np.ndarray, spec: CardSpec, whole: bool = False) -> FoundCard:
    """A card whose panel (or, ``whole``, the card itself) is the rectangle around ``outline`` (photo
    pixels): a rough guess at a card seen too badly to fit its sides (perspective ignored: for a card far
    away, seen small)."""
    rect = _short_side_first(cv2.boxPoints(cv2.minAreaRect(outline.astype(np.float32))).astype(np.float64))
    if whole:  # the panel inside, through the same map as card_from_panel's
        panel_mm, card_mm = _outlines_mm(spec)
        panel = _mapped(panel_mm, card_mm, rect).astype(np.float64)
    else:
        panel = rect
    return FoundCard(card_from_panel(panel, spec), panel, float(abs(cv2.contourArea(panel.astype(np.float32)))))


EDGE_REACH_PX = 5.0  # profiles run this far each side of a found panel edge (blur plus the mask's error),
EDGE_REACH_FRAME = 0.45  # but within this share of the white frame (beyond it lies the table)
EDGE_MOVE_MAX_PX = 1.5  # the mask's error is well under this; a larger move found some other edge
EDGE_CONTRAST = 12.0  # grey levels between panel and frame below which an edge profile says nothing


def _edge_offsets(grey: np.ndarray, points: np.ndarray, normal: np.ndarray, reach: float) -> np.ndarray:
    """Where the grey level crosses half way between inside and outside along ``normal`` through each point
    (px, signed; NaN where the profile shows no clear edge). A symmetric blur keeps that crossing on the
    edge, where a threshold (the paper mask) moves it with the panel's colour."""
    s = np.linspace(-reach, reach, 33, dtype=np.float32)
    xy = (points[:, None, :] + s[None, :, None] * normal).astype(np.float32)
    prof = cv2.remap(grey, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    edge = len(s) // 4
    inner, outer = np.median(prof[:, :edge], axis=1), np.median(prof[:, -edge:], axis=1)
    out = np.full(len(points), np.nan)
    for i, (p, a, b) in enumerate(zip(prof, inner, outer, strict=True)):
        if abs(b - a) < EDGE_CONTRAST:
            continue
        level = (p - (a + b) / 2) * np.sign(b - a)  # rises through 0 at the edge
        cross = np.flatnonzero((level[:-1] < 0) & (level[1:] >= 0))
        if len(cross) != 1:
            continue  # print or a shadow near the edge: no single crossing
        j = cross[0]
        out[i] = s[j] + (s[j + 1] - s[j]) * level[j] / (level[j] - level[j + 1])
    return out


def refined_panel(grey: np.ndarray, panel: np.ndarray, card: CardSpec) -> np.ndarray:
    """A found panel outline (4 corners, first side short) with each side moved onto the panel's edge in
    ``grey`` (float32); a side with too few clear profiles, or moved too far, stays as found."""
    centre = panel.mean(axis=0)
    lines = []
    for k in range(4):
        a, b = panel[k], panel[(k + 1) % 4]
        u = (b - a) / np.linalg.norm(b - a)
        n = np.array([-u[1], u[0]])
        n *= np.sign(np.dot(n, a - centre))
        reach = min(EDGE_REACH_PX, EDGE_REACH_FRAME * card.frame_mm * np.linalg.norm(b - a) / card.panel_mm[k % 2])
        pts = a + np.linspace(0.15, 0.85, 16)[:, None] * (b - a)  # away from the round corners
        off = _edge_offsets(grey, pts, n, reach)
        ok = np.isfinite(off)
        if ok.sum() >= 6 and np.abs(off[ok] - np.median(off[ok])).max() < min(1.0, reach / 2):
            pts = pts[ok] + off[ok, None] * n
            mid = pts.mean(axis=0)
            w = np.linalg.svd(pts - mid)[2][0]
            moved = np.abs((np.array([a, b]) - mid) @ np.array([-w[1], w[0]]))
            if moved.max() < EDGE_MOVE_MAX_PX:  # farther: another edge (a card alongside), not this one
                a, u = mid, w
        lines.append((a, u))
    out = []
    for k in range(4):
        (p, u), (q, v) = lines[k - 1], lines[k]
        t = np.linalg.solve(np.array([u, -v]).T, q - p)
        out.append(p + t[0] * u)
    return np.array(out)


def refined_card(grey: np.ndarray, card: FoundCard, spec: CardSpec) -> FoundCard:
    """The card with its panel's sides moved onto the edges the photo shows (see :func:`refined_panel`)."""
    panel = refined_panel(grey, card.panel.astype(np.float64), spec)
    return FoundCard(card_from_panel(panel, spec), panel, card.area_px)


@dataclass(frozen=True)
class CardSearch:
    """The cards found in a photo, largest first, and the outlines (photo pixels, convex) of the other
    holes in the white paper that are roughly rectangular and large enough to be a card's panel, but not
    card-shaped: a card half covered, or one whose frame the photo shows too badly to fit."""

    found: list[FoundCard]
    loose: list[np.ndarray]


def find_cards(image: np.ndarray, spec: CardSpec, enough: int = 1) -> list[FoundCard]:
    """Every card (panel inside a white frame) in the photo, largest first (see :func:`search_cards`)."""
    return search_cards(image, spec, enough).found


def search_cards(image: np.ndarray, spec: CardSpec, enough: int = 1) -> CardSearch:
    """Every card in the photo (see :class:`CardSearch`). When the paper mask yields fewer than ``enough``
    cards, the search is done again on :func:`local_paper_mask` and the cards it adds are kept too: a
    coloured surface taken for the paper white (a yellow score pad) makes the frames look tinted, and a
    dim, noisy table breaks them up."""
    first = _first_holes(image).cards(spec)
    if len(first.found) >= enough:
        return first
    return _merged(first, _second_holes(image).cards(spec))


def _merged(first: CardSearch, second: CardSearch) -> CardSearch:
    """The cards of ``first`` and those of ``second`` that none of them overlaps, largest first; and the
    loose outlines of both that no card covers (each place once)."""
    found = list(first.found)
    for card in second.found:
        if not any(_inside(card.centre, k.corners) or _inside(k.centre, card.corners) for k in found):
            found.append(card)
    loose = [p for p in first.loose + second.loose if not any(_inside(p.mean(axis=0), k.corners) for k in found)]
    kept: list[np.ndarray] = []
    for p in loose:
        if not any(_inside(p.mean(axis=0), q) for q in kept):
            kept.append(p)
    return CardSearch(sorted(found, key=lambda c: -c.area_px), kept)


MIN_HOLE = 2e-4  # of the photo's area: smaller holes in the paper are print, icons, a cloth's checks


@dataclass(frozen=True)
class Hole:
    """A hole in a paper mask that paper encloses (mask pixels): its outline's convex hull, whether that is
    roughly rectangular, and the four-sided fit of the outline (short side first; None when the outline is
    not nearly convex or has no four clear sides)."""

    hull: np.ndarray
    hull_area: float
    boxy: bool
    quad: np.ndarray | None


@dataclass(frozen=True)
class PaperHoles:
    """A photo shrunk to ``scale`` for the search, a paper mask of it and the mask's holes. They do not depend
    on which game's cards are looked for, so both card games' searches of one photo share them."""

    small: np.ndarray
    scale: float
    mask: np.ndarray
    holes: list[Hole]
    searched: dict[CardSpec, CardSearch] = field(default_factory=dict, compare=False)  # each spec's cards, once

    def cards(self, spec: CardSpec) -> CardSearch:
        """The cards among the holes that ``spec`` describes (found once per spec: a game's likelihood and
        its scan of one photo ask alike)."""
        if spec not in self.searched:
            self.searched[spec] = _search_holes(self, spec)
        return self.searched[spec]


@same_image
def _first_holes(image: np.ndarray) -> PaperHoles:
    small, scale = downscale(image, WORK_SIDE)
    return paper_holes(small, scale, paper_mask(small))


@same_image
def _second_holes(image: np.ndarray) -> PaperHoles:
    first = _first_holes(image)
    return paper_holes(first.small, first.scale, local_paper_mask(first.small))


def paper_holes(small: np.ndarray, scale: float, mask: np.ndarray) -> PaperHoles:
    """The holes of a paper ``mask`` of ``small`` (the photo at ``scale``): regions of other colour that
    paper encloses, large enough to be a card's panel."""
    min_area = MIN_HOLE * mask.size
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
    holes = []
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
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        quad = _fit_quad(contour) if cv2.contourArea(contour) >= 0.8 * hull_area else None
        (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
        boxy = min(rw, rh) >= 0.3 * max(rw, rh) and hull_area >= 0.8 * rw * rh  # not a pen, not a gap between cards
        holes.append(Hole(hull, hull_area, boxy, None if quad is None else _short_side_first(quad)))
    return PaperHoles(small, scale, mask, holes)


def _search_holes(paper: PaperHoles, spec: CardSpec) -> CardSearch:
    """The cards among the holes of a paper mask: card-shaped and framed as ``spec`` says."""
    small, scale = paper.small, paper.scale
    aspect = spec.panel_mm[0] / spec.panel_mm[1]
    found, loose = [], []
    for hole in paper.holes:
        quad = hole.quad
        if quad is not None:
            sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
            ratio = (sides[0] + sides[2]) / max(sides[1] + sides[3], 1e-6)
            quad_area = abs(cv2.contourArea(quad))
            # a wide range of side ratios: a steep view foreshortens one side
            if (0.5 * aspect < ratio < 1.6 * aspect and 0.85 < hole.hull_area / max(quad_area, 1e-6) < 1.1
                    and _framed(small, quad, spec)):
                panel = (quad + 0.5) / scale - 0.5
                found.append(FoundCard(card_from_panel(panel, spec), panel, quad_area / scale**2))
                continue
        if hole.boxy:
            loose.append((hole.hull.reshape(-1, 2).astype(np.float64) + 0.5) / scale - 0.5)
    if found:  # cards of one game are one size, the largest holes: drop the far smaller ones (a check pattern,
        # but not a card far away in a steep view)
        areas = sorted((c.area_px for c in found), reverse=True)
        typical = areas[min(2, len(areas) - 1)]
        found = [c for c in found if c.area_px > 0.15 * typical]
        loose = [p for p in loose if 0.2 * typical < cv2.contourArea(p.astype(np.float32)) < 3 * typical]
        # a card's size where a patch lies: that of the nearest card found (a steep view shrinks far cards)
        centres = np.array([c.centre for c in found]) * scale
        card_areas = np.array([c.area_px for c in found]) * np.prod(spec.size_mm) / np.prod(spec.panel_mm) * scale**2

        def card_area(x: float, y: float) -> float:
            return float(card_areas[np.argmin(np.hypot(*(centres - (x, y)).T))])

        blobs = [(p + 0.5) / scale - 0.5 for p in _card_blobs(paper.mask, card_area, aspect)]
        loose += [b for b in blobs if not any(_inside(b.mean(axis=0), p) for p in loose)]  # a hole there: said
    kept: list[FoundCard] = []
    for card in sorted(found, key=lambda c: -c.area_px):  # a hole inside a card found already is its picture
        if not any(_inside(card.centre, k.corners) for k in kept):
            kept.append(card)
    return CardSearch(kept, [p for p in loose if not any(_inside(p.mean(axis=0), k.corners) for k in kept)])


BLOB_AREA = (0.6, 1.35)  # of a card there: a card-sized patch of paper (a score pad is larger)
BLOB_STEP = 4  # paper patches are looked for on a mask this many times coarser


def _card_blobs(mask: np.ndarray, card_area: Callable[[float, float], float], aspect: float) -> list[np.ndarray]:
    """Outlines (mask pixels) of patches of paper with a card's shape and size (``card_area(x, y)``, in mask
    pixels, at a place): a card whose panel the mask takes for paper (a pale grey print, glare) shows no
    hole, only its outline.

    >>> mask = np.zeros((400, 400), np.uint8)
    >>> mask[100:276, 100:226] = 1
    >>> (blob,) = _card_blobs(mask, lambda x, y: 126 * 176, 0.7)
    >>> bool(np.abs(blob.min(axis=0) - 100).max() < 6 and np.abs(blob.max(axis=0) - [226, 276]).max() < 6)
    True
    >>> _card_blobs(mask, lambda x, y: 2 * 126 * 176, 0.7)  # half a card's size: not a card
    []
    >>> ring = np.zeros((400, 400), np.uint8)  # only the frame is paper, seen askew and foreshortened
    >>> _ = cv2.polylines(ring, [np.int32([[150, 100], [260, 160], [200, 290], [90, 230]])], True, 1, 4)
    >>> len(_card_blobs(ring, lambda x, y: 17900, 0.7))
    1
    """
    coarse = cv2.resize(mask, None, fx=1 / BLOB_STEP, fy=1 / BLOB_STEP, interpolation=cv2.INTER_AREA)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(coarse, connectivity=8)  # a thin frame steps diagonally
    out = []
    for i in range(1, count):
        x, y, w, h, _ = stats[i]
        here = card_area((x + w / 2) * BLOB_STEP, (y + h / 2) * BLOB_STEP)
        if not BLOB_AREA[0] * here < w * h * BLOB_STEP**2 < 2 * BLOB_AREA[1] * here:
            continue  # (a card turned 45 degrees fills half its bounding box)
        if x == 0 or y == 0 or x + w >= coarse.shape[1] or y + h >= coarse.shape[0]:
            continue
        contours, _ = cv2.findContours((labels[y:y + h, x:x + w] == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea) + np.array([x, y])
        area = cv2.contourArea(outline) + cv2.arcLength(outline, True) / 2  # (the outline runs through pixel centres)
        (_, _), (rw, rh), _ = cv2.minAreaRect(outline)
        if (BLOB_AREA[0] * here < area * BLOB_STEP**2 < BLOB_AREA[1] * here and area >= 0.7 * (rw + 1) * (rh + 1)
                and 0.75 * aspect < min(rw, rh) / max(rw, rh, 1) < 1.3 * aspect):
            out.append((outline.reshape(-1, 2).astype(np.float64) + 0.5) * BLOB_STEP - 0.5)
    return out


FRAME_CONTRAST = 20.0  # levels (largest channel) between a panel and its frame: a printed card shows more


def _framed(image: np.ndarray, quad: np.ndarray, spec: CardSpec) -> bool:
    """Whether a panel outline (first side short) has a frame: along at least three of its sides the colour
    just outside differs from the colour just inside. A dark table far from any card can pass as paper
    (nothing brighter nearby), leaving a hole around a whole card; its outline lies in the table, the
    same colour on both sides.

    >>> img = np.full((300, 300, 3), 60, np.uint8)
    >>> _ = cv2.rectangle(img, (100, 80), (190, 210), (245, 245, 245), -1)
    >>> _ = cv2.rectangle(img, (107, 87), (183, 203), (150, 60, 140), -1)
    >>> spec = CardSpec((63.0, 88.0), 4.0)
    >>> _framed(img, np.float32([[107, 87], [183, 87], [183, 203], [107, 203]]), spec)
    True
    >>> _framed(img, np.float32([[60, 40], [230, 40], [230, 250], [60, 250]]), spec)
    False
    """
    centre = quad.mean(axis=0)
    pairs = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        n = np.array([-(b - a)[1], (b - a)[0]]) / max(float(np.linalg.norm(b - a)), 1e-6)
        n *= np.sign(np.dot(n, a - centre))
        step = max(1.0, 0.5 * spec.frame_mm * float(np.linalg.norm(b - a)) / spec.panel_mm[k % 2])
        pts = a + np.linspace(0.15, 0.85, 12)[:, None] * (b - a)
        pairs.append(np.stack([pts - step * n, pts + step * n]))  # (inside, outside) x 12 points
    xy = np.array(pairs, np.float32).reshape(1, -1, 2)
    colours = cv2.remap(image, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    means = colours.reshape(4, 2, 12, 3).astype(np.float32).mean(axis=2)  # side, inside/outside, channel
    return int((np.abs(means[:, 0] - means[:, 1]).max(axis=1) > FRAME_CONTRAST).sum()) >= 3


def _inside(point: np.ndarray, polygon: np.ndarray) -> bool:
    return cv2.pointPolygonTest(polygon.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0


def rectify_card(image: np.ndarray, card: FoundCard, spec: CardSpec, px_per_mm: float) -> Rectified:
    """The card warped upright (as its corners are ordered) at ``px_per_mm``."""
    size = (int(round(spec.size_mm[0] * px_per_mm)), int(round(spec.size_mm[1] * px_per_mm)))
    return rectify(image, card.corners, size)


GATE = 0.15  # a face whose whole-card match is this far below the best one's is another kind of card
FLAT = 0.04  # contrast (in paper whites) below which a region counts as blank: it is not blown up to noise


def white_balanced(image: np.ndarray) -> np.ndarray:
    """A card image (BGR) divided by the colour of its paper (the brightest few per cent), as float32."""
    sample = image[::2, ::2].astype(np.float32)
    lum = cv2.transform(sample, np.ones((1, 3), np.float32)).ravel()
    cut = int(0.95 * (lum.size - 1))
    bright = (lum >= np.partition(lum, cut)[cut]).astype(np.uint8)
    paper = np.array(cv2.mean(sample, mask=bright.reshape(sample.shape[:2]))[:3], np.float32) + 1.0
    return image.astype(np.float32) * (1.0 / paper)


BLUR_PX = 1.0  # both the faces and the photographed card are blurred alike before comparing


def region_vector(blurred: np.ndarray, box_px: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray, float]:
    """The part ``box_px`` (x0, y0, x1, y1) of a blurred, white-balanced card image as a flat vector, its
    per-channel mean, and its standard deviation over all channels together. Standardized, a region is
    (vector - mean) / max(deviation, FLAT): each channel's mean removed (what every card of a kind
    shares), the contrast between the channels kept (a purple or a teal panel against the white frame)."""
    x0, y0, x1, y1 = box_px
    part = blurred[y0:y1, x0:x1]
    mean, std = cv2.meanStdDev(part)
    return part.reshape(-1), mean.ravel().astype(np.float32), float(np.sqrt(np.mean(std**2)))


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
    features: tuple[np.ndarray, ...]  # per region: (n, h * w * 3) standardized, each channel of mean 0
    energy: np.ndarray  # (regions, n): mean square of each standardized region (1, or less if blank)
    boxes: tuple[tuple[int, int, int, int], ...]  # per region, pixels
    weights: tuple[float, ...]
    px_per_mm: float

    @classmethod
    def build(cls, faces: dict[str, np.ndarray], px_per_mm: float,
              regions: dict[tuple[float, float, float, float], float]) -> Templates:
        """``faces``: label -> BGR(A) card image at ``px_per_mm``; ``regions``: box in mm -> weight."""
        boxes = tuple(tuple(int(round(v * px_per_mm)) for v in box) for box in regions)
        blurred = [cv2.GaussianBlur(white_balanced(img[..., :3]), (0, 0), BLUR_PX) for img in faces.values()]
        feats = []
        for box in boxes:
            rows = []
            for img in blurred:
                vector, mean, deviation = region_vector(img, box)
                rows.append(((vector.reshape(-1, 3) - mean) / max(deviation, FLAT)).ravel())
            feats.append(np.array(rows, np.float32))
        energy = np.array([(f * f).mean(axis=1) for f in feats])
        return cls(tuple(faces), tuple(feats), energy, boxes, tuple(regions.values()), px_per_mm)

    def scores(self, card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Match of a rectified card (BGR, at ``px_per_mm``) with every face, as given and turned: the
        scores (n, 2); and the match over only the regions where each face shows something (n, 2), which
        a blank thing of card size (a phone, a coaster) cannot earn by being as blank as a sparse card."""
        out = np.zeros((len(self.labels), 2))
        shown = np.zeros((len(self.labels), 2))
        gate = np.zeros((len(self.labels), 2))
        blurred = cv2.GaussianBlur(white_balanced(card), (0, 0), BLUR_PX)
        images = (blurred, cv2.flip(blurred, -1))  # (a symmetric blur commutes with the half turn)
        for k, (feats, energy, box, weight) in enumerate(
                zip(self.features, self.energy, self.boxes, self.weights, strict=True)):
            vectors, square = [], []
            for image in images:
                vector, _, deviation = region_vector(image, box)
                # the faces' channels have mean 0, so the card's channel means drop out of the dot product
                vectors.append(vector / max(deviation, FLAT))
                square.append((deviation / max(deviation, FLAT)) ** 2)  # mean square once standardized
            dot = feats @ np.stack(vectors, axis=1) / feats.shape[1]
            region = dot + 1.0 - (energy[:, None] + np.array(square)[None, :]) / 2
            out += weight * region
            shown += weight * region * (energy > 0.99)[:, None]
            if k == 0:
                gate = region
        weight_shown = (np.array(self.weights)[:, None] * (self.energy > 0.99)).sum(axis=0)
        return out / sum(self.weights) - (gate < gate.max() - GATE), shown / weight_shown[:, None]


"""The Front Nine scanner: a photo of ONE player's cards -> that player in a table board file.

A finished table is photographed one player at a time (a course runs up to half a metre; four of them
in one photo would leave the cards too small to read). The setup, a partial board laid over the read
one, names the player and carries the players read before: ``{"players": [<Ada as read from her
photo>, {"name": "Bo"}]}`` reads this photo as Bo (the entry without a ``course``) and returns the
whole table so far, ready to score once the last player is in. Without a setup the photo's player is
"Player 1", alone at the table (:func:`merge` joins such single-player boards).

Stages: find every card by its framed panel (``scanner.cards``; searched again on a paper mask judged
locally when too few cards, no club house or an unread card-sized region are found), its sides then moved onto the edges the
photo shows to a fraction of a pixel (the mask's threshold moves them with the panel's colour, and a card
seen a few tenths of a pixel too small makes every distance a little too long); read each by matching it against the
cards of the stand-in catalogue, upright and upside down (the better one tells which way it faces);
cards printed alike count as one reading, and a weak or ambiguous best match is flagged. Then one
plane is fitted to the photo: a homography (with one radial lens term) that makes every card a
rigid card of the known size, the club house fixed at the origin. In that plane the course cards are
chained from the club house, tee to flag, and the distance is the gap between the club house and the
last course card, divided by the stand-in length of a ball.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache, partial
from typing import Any

import cv2
import numpy as np
from scipy.optimize import least_squares

from fixtures.art.frontnine import BORDER_MM, CLUB_HOUSE, all_ids, exit_side, render_card, sections_mm
from rules.frontnine.catalogue import catalogue, values
from rules.frontnine.geometry import Placement, corners, gap_mm
from rules.frontnine.scoring import MAX_BALLS
from scanner.artcache import drawn
from scanner.cards import (
    CardSearch,
    CardSpec,
    FoundCard,
    Templates,
    card_around,
    rectify_card,
    refined_card,
    search_cards,
    white_balanced,
)
from scanner.debug import Debug
from scanner.errors import ScanError
from scanner.types import Read, ScanResult

GAME = "the-front-nine"
WORK_PIXELS = 3_000_000  # a 12 MP photo decodes at half size: a card is still 100-400 px wide
READ_PX_PER_MM = 2.0
# The whole card (colours against the frame), and each place where course cards differ, compared on its
# own so that one cost cube or one tree changes the score visibly: par, land cost, cost cubes, income,
# the two columns of trees / bunkers / ponds, and the green's corner of the fairway (the exit); and a
# special card's icon and name.
REGIONS = {(1.0, 1.0, 62.0, 87.0): 1.0, (9.5, 8.5, 15.5, 14.5): 2.0, (47.0, 7.0, 56.0, 13.0): 2.0,
           (4.5, 16.5, 24.0, 21.5): 3.0, (44.0, 17.0, 57.5, 21.0): 2.0, (8.0, 30.0, 24.0, 82.0): 3.0,
           (39.0, 30.0, 55.0, 82.0): 3.0, (4.5, 22.0, 58.5, 44.0): 1.0,
           (20.0, 38.0, 43.0, 60.0): 1.0, (4.5, 8.0, 58.5, 26.0): 1.0}  # a special card's icon and name
# Rejection rule, from the statistics of correct reads on synthetic 12 MP photos read at 2 px/mm (phone:
# 318 cards, all right: score 0.92 +- 0.03, lowest 0.79, margin over the best card printed differently 1st
# percentile 0.015; hard: 116 cards, 115 right: score 0.83 +- 0.07, margin 1st percentile 0.009, lowest
# 0.006). A read below 0.55 or with a margin under 0.008 is flagged for review.
READ_MIN = 0.55
MARGIN_MIN = 0.008
# The match over the regions where the card shows something: real cards 0.76 and up on phone photos, 0.58
# and up on hard ones (5th percentile 0.68); a phone in a white case, blank where a sparse special card
# is blank too, reaches 0.63. Below SHOWN_MIN a read is not trusted; a special card below it is kept
# (flagged) only if it reads clearly and the middle of its panel has its face's colour (see COLOUR_GAP).
SHOWN_MIN = 0.65
# Things with a light rim showing no card face at all (a face-down card, a phone, a cup, a die) match below
# 0.13 over the regions where a card shows something; real cards, even misread on hard photos, 0.31 and up.
NOT_A_FACE = 0.2
# The middle of a card's panel, plain on most faces: real cards (638 on phone and hard photos) within 0.3
# of their face's colour in every channel, and within 0.2 unless read sure; the phones, coasters and
# face-down cards that read as a sparse special card (unsure) differ by 0.24 to 0.71.
COLOUR_BOX_MM = (10.0, 30.0, 53.0, 78.0)
COLOUR_GAP = 0.2
# A card found whole is its size on the plane to a few per cent; a faceless thing as close to it is a card
# lying face down, set aside. Any other faceless thing may be a card whose outline was found wrong.
FACE_DOWN_FIT = 0.1
DISTANCE_SURE = 0.25  # balls: a distance this close to the last scoring ball may lie on either side of it
DISTANCE_RIGHT = 0.25  # balls: the bench counts a distance this close to the truth as read right
JOIN_MAX_MM = 20.0  # a tee farther than this from the previous flag exit: the chain is broken there
MIN_CARDS = 4  # a course photo shows at least the club house and three more cards: fewer found, look harder


def card_size() -> tuple[float, float]:
    w, h = values()["card_mm"]
    return float(w), float(h)


def spec() -> CardSpec:
    return CardSpec(card_size(), BORDER_MM)


@cache
def printed(card_id: str) -> str:
    """What a card shows (its catalogue entry without the id, and where a hole exits): equal for copies."""
    cards = catalogue()
    entry = cards.course.get(card_id) or cards.special.get(card_id)
    if entry is None:
        return card_id
    shown = {k: v for k, v in vars(entry).items() if k != "id"}
    return repr(shown) + (exit_side(card_id) if card_id in cards.course else "")


@lru_cache(maxsize=1)
def course_ids() -> frozenset[str]:
    return frozenset(catalogue().course)


@cache
def faces() -> dict[str, np.ndarray]:
    """Every card as drawn at ``READ_PX_PER_MM`` (BGRA), kept between runs (``scanner.artcache``)."""
    drawing = drawn("front-nine-cards",
                    lambda: {cid: render_card(cid, px_per_mm=READ_PX_PER_MM) for cid in all_ids()})
    return {cid: np.ascontiguousarray(drawing[cid][..., 2::-1]) for cid in all_ids()}


@lru_cache(maxsize=1)
def templates() -> Templates:
    """One template per printed face (copies printed alike are matched once: :func:`_assign_ids` picks
    which copy a read is)."""
    unlike: dict[str, np.ndarray] = {}
    for cid, face in faces().items():  # in catalogue order: the first of copies printed alike stands for them
        if all(printed(cid) != printed(other) for other in unlike):
            unlike[cid] = face
    return Templates.build(unlike, READ_PX_PER_MM, REGIONS)


@dataclass(frozen=True)
class CardRead:
    card: FoundCard  # corners turned so that TL..TR is the card's printed top edge
    card_id: str  # best matching catalogue id (one of its printed-alike copies)
    score: float
    margin: float  # over the best card printed differently
    alternatives: tuple[tuple[str, float], ...]
    shown: float  # the match over the regions where the card shows something
    colour_gap: float  # how far the middle of its panel is from the face's colour (paper white = 1)
    loose: bool = False  # read where only a loose region was found (its sides guessed): never trusted

    @property
    def faceless(self) -> bool:
        """Shows no card face: nothing of one where a card shows something, or, read unsure, the wrong colour
        where a card is plain (a phone, a coaster, a face-down card: all plain in the middle)."""
        return self.shown < NOT_A_FACE or (self.shown < SHOWN_MIN and self.colour_gap > COLOUR_GAP)

    @property
    def clear(self) -> bool:
        """Matches one card well and better than any printed differently."""
        return self.score >= READ_MIN and self.margin >= MARGIN_MIN

    @property
    def trusted(self) -> bool:
        return self.clear and self.shown >= SHOWN_MIN and not self.loose

    @property
    def kind(self) -> str:
        return "club" if self.card_id == CLUB_HOUSE else "course" if self.card_id in course_ids() else "special"


@cache
def face_colour(card_id: str) -> np.ndarray:
    return panel_colour(faces()[card_id][..., :3])


def warm_up() -> None:
    """Build the card templates and face colours a scan reads against (a batch does this before its workers
    fork: they share them)."""
    templates()
    for card_id in all_ids():
        face_colour(card_id)


def panel_colour(card: np.ndarray) -> np.ndarray:
    """The mean colour (BGR, paper white = 1) of the middle of an upright card's panel at READ_PX_PER_MM."""
    x0, y0, x1, y1 = (int(v * READ_PX_PER_MM) for v in COLOUR_BOX_MM)
    return white_balanced(np.ascontiguousarray(card))[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0)


def read_card(image: np.ndarray, card: FoundCard, tpl: Templates | None = None) -> CardRead:
    """Match one card against every face, both ways up. A card not read surely is read again with its other
    sides as the short ones (a steep view can make a card's short side look the longer one); that reading
    replaces it only if it is sure."""
    tpl = tpl or templates()
    read = _read_as_found(image, card, tpl)
    if read.trusted:
        return read
    other = _read_as_found(image, card.quarter_turned(spec()), tpl)
    return other if other.trusted else read


def _read_as_found(image: np.ndarray, card: FoundCard, tpl: Templates) -> CardRead:
    upright = rectify_card(image, card, spec(), tpl.px_per_mm).image
    scores, shown = tpl.scores(upright)
    best = scores.max(axis=1)
    order = np.argsort(-best)
    top = tpl.labels[order[0]]
    other = [i for i in order[1:] if printed(tpl.labels[i]) != printed(top)]
    margin = float(best[order[0]] - best[other[0]])
    turned = int(np.argmax(scores[order[0]]))
    alts = tuple((tpl.labels[i], round(float(best[i]), 3)) for i in other[:2])
    colour = panel_colour(upright[::-1, ::-1] if turned else upright)
    return CardRead(card.turned() if turned else card, top, float(best[order[0]]), margin, alts,
                    float(shown[order[0], turned]), float(np.abs(colour - face_colour(top)).max()))


# ---- the table plane -------------------------------------------------------------------------------


def _undistort(points: np.ndarray, centre: np.ndarray, radius: float, k1: float) -> np.ndarray:
    d = (points - centre) / radius
    return centre + (points - centre) / (1.0 + k1 * (d * d).sum(axis=-1, keepdims=True))


def _to_plane(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.c_[points, np.ones(len(points))] @ h.T
    return pts[:, :2] / pts[:, 2:3]


@dataclass(frozen=True)
class Plane:
    """The table plane as fitted: placements of the cards fitted (the first at the origin), the RMS misfit
    in mm, and the map of photo pixels to plane mm."""

    poses: list[Placement]
    misfit: float
    homography: np.ndarray
    k1: float
    centre: np.ndarray
    radius: float

    def to_plane(self, points: np.ndarray) -> np.ndarray:
        return _to_plane(self.homography, _undistort(points, self.centre, self.radius, self.k1))

    def card_shaped(self, quad: np.ndarray, size: tuple[float, float], tolerance: float = 0.25) -> bool:
        """Whether a quadrilateral of the photo is a card of ``size`` on this plane (not a coaster, a box):
        each side within ``tolerance`` (a share) of the card's."""
        mm = self.to_plane(quad)
        sides = np.linalg.norm(mm - np.roll(mm, -1, axis=0), axis=1)
        return bool((np.abs(sides / np.tile(size, 2) - 1) < tolerance).all())


def fit_plane(photo_corners: list[np.ndarray], size: tuple[float, float], shape: tuple[int, ...]) -> Plane:
    """Fit the plane to cards whose corners (TL, TR, BR, BL each) the photo shows: the plane map and the
    card placements together (every card a rigid card of ``size``, the first at the origin), with one
    radial lens term."""
    centre = np.array([shape[1] / 2, shape[0] / 2])
    radius = float(np.hypot(*centre))
    rect = np.array(corners(Placement(0, 0), size))
    h0 = cv2.getPerspectiveTransform(photo_corners[0].astype(np.float32), rect.astype(np.float32))
    h0 /= h0[2, 2]
    poses0 = []
    for quad in photo_corners[1:]:
        mm = _to_plane(h0, quad)
        mid = mm.mean(axis=0)
        across = mm[1] - mm[0]
        poses0.append([mid[0], mid[1], np.degrees(np.arctan2(across[1], across[0]))])
    x0 = np.r_[h0.ravel()[:8], 0.0, np.ravel(poses0)]
    quads = np.array(photo_corners, np.float64).reshape(-1, 2)  # (cards * 4, 2)
    local = rect[None, :, :]  # a card's corners about its centre at angle 0 (the first card's placement)

    def residuals(x: np.ndarray) -> np.ndarray:
        h = np.r_[x[:8], 1.0].reshape(3, 3)
        mm = _to_plane(h, _undistort(quads, centre, radius, x[8])).reshape(-1, 4, 2)
        poses = np.r_[0.0, 0.0, 0.0, x[9:]].reshape(-1, 3)
        a = np.radians(poses[:, 2])[:, None]
        cos, sin = np.cos(a), np.sin(a)
        placed = np.stack([poses[:, :1] + local[..., 0] * cos - local[..., 1] * sin,
                           poses[:, 1:2] + local[..., 0] * sin + local[..., 1] * cos], axis=-1)
        return (mm - placed).ravel()

    fit = least_squares(residuals, x0, x_scale="jac", max_nfev=200)
    poses = [Placement(0, 0)] + [Placement(*fit.x[9 + 3 * k : 12 + 3 * k]) for k in range(len(photo_corners) - 1)]
    h = np.r_[fit.x[:8], 1.0].reshape(3, 3)
    return Plane(poses, float(np.sqrt(np.mean(fit.fun**2))), h, float(fit.x[8]), centre, radius)


def _point(at: Placement, size: tuple[float, float], art_mm: tuple[float, float]) -> np.ndarray:
    """A point of the card art (mm from the top-left, y down) on the plane. The plane is mirrored against the
    rules' frame (the photo's corners TL, TR, BR, BL map to corners() in order); distances do not care."""
    q = np.array([art_mm[0] - size[0] / 2, art_mm[1] - size[1] / 2])
    a = np.radians(at.angle_deg)
    return np.array([at.x_mm + q[0] * np.cos(a) - q[1] * np.sin(a), at.y_mm + q[0] * np.sin(a) + q[1] * np.cos(a)])


def _tee(at: Placement, size: tuple[float, float]) -> np.ndarray:
    return _point(at, size, (size[0] / 2, size[1]))


def _exits(read: CardRead, at: Placement, size: tuple[float, float]) -> list[np.ndarray]:
    """Where the card's flag exit may be: its own, or every possible one if the card is not trusted."""
    if read.trusted and read.kind == "course":
        return [_point(at, size, sections_mm(read.card_id)["exit"][0])]
    return [_point(at, size, p) for p in ((size[0] / 2, 0.0), (0.0, 36.0), (size[0], 36.0))]


def _beside(quad_mm: np.ndarray, points: list[np.ndarray]) -> bool:
    """Whether a quadrilateral on the plane reaches within joining distance of any of the points."""
    contour = quad_mm.astype(np.float32).reshape(-1, 1, 2)
    return any(cv2.pointPolygonTest(contour, (float(p[0]), float(p[1])), True) > -JOIN_MAX_MM for p in points)


def _rect_distance(point: np.ndarray, at: Placement, size: tuple[float, float]) -> float:
    return gap_mm(at, size, Placement(float(point[0]), float(point[1])), (1e-3, 1e-3))


def chain(club: Placement, holes: list[tuple[CardRead, Placement]], size: tuple[float, float]
          ) -> tuple[list[int], list[str]]:
    """Order of the course cards from the club house, tee to flag; and where the chain looks broken."""
    left = list(range(len(holes)))
    order: list[int] = []
    problems = []
    while left:
        if not order:
            dist = [_rect_distance(_tee(holes[i][1], size), club, size) for i in left]
        else:
            read, at = holes[order[-1]]
            dist = [min(np.linalg.norm(_tee(holes[i][1], size) - e) for e in _exits(read, at, size)) for i in left]
        k = int(np.argmin(dist))
        if dist[k] > JOIN_MAX_MM:
            where = "the club house" if not order else f"hole {len(order)}"
            problems.append(f"no tee meets {where} (nearest {dist[k]:.0f} mm away): the chain may be broken")
        order.append(left.pop(k))
    return order, problems


# ---- the scan -----------------------------------------------------------------------------------------


def _assign_ids(reads: list[CardRead], taken: set[str]) -> list[str]:
    """One catalogue id per read: the read id, or an unused copy printed alike (each card exists once)."""
    ids = []
    for read in reads:
        pool = [cid for cid in all_ids() if printed(cid) == printed(read.card_id) and cid not in taken]
        cid = read.card_id if read.card_id in pool else (pool[0] if pool else read.card_id)
        taken.add(cid)
        ids.append(cid)
    return ids


def _read_search(image: np.ndarray, grey: np.ndarray, search: CardSearch, tpl: Templates
                 ) -> tuple[list[CardRead], list[np.ndarray]]:
    """The cards a search found, read (their sides first moved onto the edges ``grey`` shows: the mask's
    edges shift with a panel's colour); and the loose regions no card was read in.

    A loose region may be a panel the mask saw speckled, or a card whose panel it took for paper (pale
    prints): read as the panel, and as the card, in its rectangle, a clear match is kept (flagged, as a loose
    read is never trusted); else it stays loose."""
    reads = [read_card(image, refined_card(grey, card, spec()), tpl) for card in search.found]
    rescued = [replace(max((read_card(image, refined_card(grey, card_around(o, spec(), whole), spec()), tpl)
                            for whole in (False, True)), key=lambda r: r.score), loose=True)
               for o in search.loose]
    clear = [r.clear and not r.faceless for r in rescued]
    reads += [r for r, ok in zip(rescued, clear, strict=True) if ok]
    return reads, [o for o, ok in zip(search.loose, clear, strict=True) if not ok]


def scan(image: np.ndarray, setup: dict[str, Any] | None = None, debug: Debug | None = None) -> ScanResult:
    """Read one player's course (see the module docstring for the setup keys)."""
    given = [dict(p) for p in (setup or {}).get("players", [])]
    slot = next((k for k, p in enumerate(given) if "course" not in p), len(given))
    name = given[slot].get("name") if slot < len(given) else None
    name = name or f"Player {slot + 1}"
    if any(p.get("name") == name for k, p in enumerate(given) if k != slot):
        raise ScanError(f"player {name!r} is already in the table; name this photo's player differently")
    table = {"format": "golfscan/the-front-nine", "version": 1, "players": [p for p in given if "course" in p]}
    search = photo_cards(image)
    if not search.found:
        raise ScanError("no cards found in the photo (The Front Nine cards: a white frame around a coloured panel)")
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    tpl = templates()
    reads, loose = _read_search(image, grey, search, tpl)
    if loose or not any(r.trusted and r.kind == "club" for r in reads):  # a card or the club house missed: look harder
        more = search_cards(image, spec(), len(search.found) + 1)
        if (len(more.found), len(more.loose)) != (len(search.found), len(search.loose)):
            reads, loose = _read_search(image, grey, more, tpl)
    trusted = [r for r in reads if r.trusted]
    clubs = sorted((r for r in trusted if r.kind == "club"), key=lambda r: -r.score)
    if not clubs and len(trusted) < 0.5 * len(reads):
        raise ScanError(f"{len(reads)} cards found, but most do not look like The Front Nine cards: wrong game?")
    if not clubs:
        raise ScanError("no club house found in the photo: the distance is measured from it")
    club = clubs[0]
    size = card_size()
    # the plane from the course read surely; every other shape must be a card of the right size on it
    core = [r for r in trusted if r.kind == "course"]
    plane = fit_plane([club.card.corners] + [r.card.corners for r in core], size, image.shape)
    others = [r for r in reads if r.kind != "club" and not (r.trusted and r.kind == "course")]
    shaped, odd = [], []
    for r in others:
        if not plane.card_shaped(r.card.corners, size):
            r = replace(read_card(image, r.card.quarter_turned(spec()), tpl), loose=r.loose)  # short sides the other two?
        (shaped if plane.card_shaped(r.card.corners, size) else odd).append(r)
    warnings = []
    # a thing showing nothing of any card face is ignored: a card lying face down, with a warning; anything
    # else (a phone, or a card whose outline was found wrong: too large, too small, askew) is reported below.
    # A card seen badly or in part still shows some of its face.
    faceless = [r for r in shaped + odd if r.faceless]
    face_down = [r for r in faceless if plane.card_shaped(r.card.corners, size, FACE_DOWN_FIT)]
    if face_down:
        warnings.append(f"{len(face_down)} card-sized thing(s) showing no card face (face down?) ignored")
    odd = [r for r in odd if not r.faceless] + [r for r in faceless if not any(r is d for d in face_down)]
    shaped = [r for r in shaped if not r.faceless]
    holes = core + [r for r in shaped if r.kind == "course"]
    # a special card is kept if it shows what a card shows, or, shown poorly (far away, blurred), matches one
    # card clearly and has its colour; it is flagged unless read surely (see CardRead.trusted). Else it is set
    # aside, and flagged.
    kept = [r.shown >= SHOWN_MIN or r.clear for r in shaped]
    specials = [r for r, k in zip(shaped, kept, strict=True) if r.kind == "special" and k]
    odd += [r for r, k in zip(shaped, kept, strict=True) if r.kind == "special" and not k]
    plane = fit_plane([club.card.corners] + [r.card.corners for r in holes], size, image.shape)
    poses, misfit = plane.poses, plane.misfit
    order, problems = chain(poses[0], [(r, p) for r, p in zip(holes, poses[1:], strict=True)], size)
    taken = {cid for p in table["players"] for cid in p["course"] + p.get("specials", [])}
    course_ids = _assign_ids([holes[i] for i in order], taken)
    special_ids = _assign_ids(specials, taken)
    place = f"players[{slot}]"
    out_reads = []
    for k, (i, cid) in enumerate(zip(order, course_ids, strict=True)):
        r = holes[i]
        note = "" if r.trusted else "card not recognised with confidence: check it"
        out_reads.append(Read(f"{place}.course[{k}]", cid, r.score, not r.trusted, r.card.corners, r.alternatives,
                              note))
    for k, (r, cid) in enumerate(zip(specials, special_ids, strict=True)):
        note = "" if r.trusted else "card not recognised with confidence: check it"
        out_reads.append(Read(f"{place}.specials[{k}]", cid, r.score, not r.trusted, r.card.corners,
                              r.alternatives, note))
    distance = None
    if holes:
        last = poses[1 + order[-1]]
        if any(_beside(plane.to_plane(r.card.corners), _exits(holes[order[-1]], last, size)) for r in faceless):
            problems.append("a framed thing showing no card face lies where the chain goes on: is a card missing?")
        distance = gap_mm(poses[0], size, last, size) / float(values()["ball_mm"])
        if abs(distance - MAX_BALLS) < DISTANCE_SURE:
            problems.append(f"within {DISTANCE_SURE} ball of the {MAX_BALLS}-ball limit: it may fall on either side")
        sure = not problems and misfit < 2.0 and all(holes[i].trusted for i in order)
        note = f"{distance:.2f} balls from the card positions (plane fit misfit {misfit:.1f} mm)"
        note += "".join(f"; {p}" for p in problems)
        out_reads.append(Read(f"{place}.distance_balls", round(distance, 2), 1.0 if sure else 0.5, not sure,
                              None, (), note))
    for r in odd:  # most are things on the table, but a card seen badly must not vanish unnoticed
        what = "showing no card face" if r.faceless else "not read as a card"
        out_reads.append(Read(f"{place}.specials", None, 0.0, True, r.card.corners, (),
                              f"a framed shape {what}: ignored; is a card missing?"))
    for outline in loose:  # a card found by nobody would go missing without a word
        out_reads.append(Read(f"{place}.specials", None, 0.0, True, outline, (),
                              "a framed region of card size not read as a card (covered or seen badly): "
                              "is a card missing?"))
    if len(clubs) > 1:
        warnings.append(f"{len(clubs)} club houses in the photo: measured from the best read one")
    player: dict[str, Any] = {"name": name, "course": course_ids, "specials": special_ids}
    if distance is not None:
        player["distance_balls"] = round(distance, 2)
    players = table["players"][:slot] + [player] + table["players"][slot:]
    board = {**table, "players": players, "review": [r.review_entry() for r in out_reads if r.flagged],
             "source": {"scanner": GAME}}
    result = ScanResult(GAME, board, out_reads, partial(draw_overlay, image, club, out_reads), warnings)
    if debug is not None:
        debug.add("cards", result.overlay)
    return result


def draw_overlay(image: np.ndarray, club: CardRead, reads: list[Read]) -> np.ndarray:
    out = image.copy()
    t = max(2, image.shape[1] // 600)
    cv2.polylines(out, [np.round(club.card.corners).astype(np.int32)], True, (255, 0, 255), t, cv2.LINE_AA)
    for read in reads:
        if read.polygon is None:
            continue
        colour = (0, 0, 255) if read.flagged else (0, 200, 0)
        cv2.polylines(out, [np.round(read.polygon).astype(np.int32)], True, colour, t, cv2.LINE_AA)
        label = read.where.rsplit(".", 1)[-1] + f" {read.value}"
        cv2.putText(out, label, tuple(np.round(read.polygon.mean(axis=0)).astype(int)), cv2.FONT_HERSHEY_SIMPLEX,
                    t * 0.5, colour, t, cv2.LINE_AA)
    return out


def photo_cards(image: np.ndarray) -> CardSearch:
    """The card search of a photo (done once, shared with the likelihood: ``scanner.cards``)."""
    return search_cards(image, spec(), MIN_CARDS)


def likelihood(image: np.ndarray) -> float:
    """How much the photo looks like a Front Nine course: the share of card shapes read as our cards, at
    least four of them, a club house among them."""
    found = photo_cards(image).found
    if not found:
        return 0.0
    tpl = templates()
    reads = [read_card(image, c, tpl) for c in found[:12]]
    sure = sum(r.trusted for r in reads)
    club = any(r.trusted and r.kind == "club" for r in reads)
    return float(sure / len(reads) * min(1.0, sure / 4) * (1.0 if club else 0.5))


def merge(boards: list[dict[str, Any]]) -> dict[str, Any]:
    """One table from boards of single players (e.g. scanned without passing the table along)."""
    players = [p for b in boards for p in b["players"]]
    review = [e for b in boards for e in b.get("review", [])]
    return {"format": "golfscan/the-front-nine", "version": 1, "players": players, "review": review}


def compare(truth_board: dict[str, Any], read_board: dict[str, Any]) -> dict[str, Any]:
    """Each read player against the truth player of the same name (else the one sharing the most cards):
    cards compared by what they show (course in chain order, specials as a set) and the distance (its
    largest error, and how many are off by more than DISTANCE_RIGHT)."""
    truth = truth_board["players"]
    out = {"cards": 0, "cards_wrong": 0, "distances": 0, "distances_wrong": 0, "distance_abs_err": 0.0,
           "exact": True}
    for p in read_board["players"]:
        seen = [printed(c) for c in p["course"]]

        def shared(t: dict[str, Any], seen: list[str] = seen) -> int:
            return sum(a == b for a, b in zip([printed(c) for c in t["course"]], seen, strict=False))

        t = next((t for t in truth if t["name"] == p["name"]), None) or max(truth, key=shared)
        want = [printed(c) for c in t["course"]]
        wrong = sum(a != b for a, b in zip(want, seen, strict=False)) + abs(len(want) - len(seen))
        want_s, seen_s = sorted(printed(c) for c in t.get("specials", [])), [printed(c) for c in p.get("specials", [])]
        missing = list(want_s)
        for s in seen_s:
            if s in missing:
                missing.remove(s)
        wrong += max(len(missing), len(seen_s) - (len(want_s) - len(missing)))
        out["cards"] += len(want) + len(want_s)
        out["cards_wrong"] += wrong
        if "positions" in t and t["positions"]:
            true_d = gap_mm(Placement(**t["club_house"]), card_size(), Placement(**t["positions"][-1]), card_size())
            true_d /= float(values()["ball_mm"])
            err = abs(p.get("distance_balls", float("inf")) - true_d)
            out["distance_abs_err"] = max(out["distance_abs_err"], err)
            out["distances"] += 1
            out["distances_wrong"] += int(not err <= DISTANCE_RIGHT)
        out["exact"] = out["exact"] and wrong == 0
    return out


def bench_setup(truth: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """For ``golfscan bench``: a photo shows one player's course, so the setup names that player and the
    scores are compared on a table of that player alone (rankings among the others need their photos)."""
    player = next(p for p in truth["board"]["players"] if p["name"] == truth["player"])
    return {"players": [{"name": player["name"]}]}, {**truth["board"], "players": [player]}

"""Number tokens: white round faces on the course, read by matching the token art over all turns.

Tokens are found in the course flattened to ``PX`` pixels per tile: a token face is a white disc inside a
player-coloured rim, the largest light disc a tile can show with a darker ring around it (flag discs,
shirts and arrows are much smaller; the paved entrance and a white table much larger). The likeliest
spots are read, and those that show no printed digit dropped. Each face is cut upright from the photo and compared with the nine printed faces turned in
10-degree steps (tokens lie at any angle; 6 and 9 differ by their underline). Measured on the same crops
of 87 tokens in synthetic phone photos: templates read 85 right, Tesseract (single character, digits
only) 55 even when given the upright angle, 36 trying the four quarter turns; so templates are used.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from fixtures.art.minigolf.pieces import TOKEN_MM, token_image
from fixtures.art.minigolf.tiles import TILE_MM
from scanner.games.minigolf.lattice import Lattice, flatten

PX = 64  # flattened course: pixels per tile
FACE = 0.36 * TOKEN_MM / TILE_MM  # white face radius in tiles
RADIUS = 0.5 * TOKEN_MM / TILE_MM  # whole token radius in tiles
CROP = 40  # side of an upright face crop, pixels
SLACK = 4  # the crop is searched this many pixels off its middle
CROP_TILES = 2.2 * FACE  # side of the crop in tiles
ANGLES = np.arange(0, 360, 10)
FACE_IN = 0.85  # a face's inside, in face radii: clear of the rim however the token lies
RIM_IN, RIM_OUT = 1.1, 1.35  # the player-coloured rim around the face, in face radii (the token's edge: 1.39)
FACE_CONTRAST = 25.0  # a face's inside is this much lighter than its rim at least (faces: 100 and up, also
# shaded and under a tinted light; 1080 tokens on 120 phone photos): below it, noise
ON_TILE = 0.3  # a face's centre has the tile it lies on within this many tiles all round ...
GRASS_AROUND = 0.1  # ... and so at least this share of grass there (tiles' middles: 0.11 and up)
CANDIDATES = 20  # the strongest spots read as faces (faces ranked 16th at worst among a course's spots) ...
FACE_SHARE = 0.3  # ... with this share of the strongest one's contrast at least (faces: 0.56 and up; 1080 tokens
# on 120 phone photos)
TOKEN_MIN = 0.65  # right token reads score about 0.75 and more; white patches without a digit 0.55 or less


@dataclass(frozen=True)
class TokenRead:
    number: int
    centre: tuple[float, float]  # lattice coordinates (x = column, y = row)
    score: float
    margin: float  # over the best reading of all tokens with this one taking another number
    alternatives: tuple[tuple[int, float], ...]


def find_faces(flat: np.ndarray, bounds: tuple[int, int] | None = None,
               grass: np.ndarray | None = None) -> list[tuple[float, float]]:
    """Centres (flattened pixels) of the likeliest token faces, strongest first: spots where a face-sized
    disc is much lighter in its darkest colour channel than the ring around it. A white face is light in
    every channel under any light's tint (grass, paths and the player-coloured rim are dark in one), its
    digit only dims it; a white table or the paved entrance is as light around as inside, a flag too small
    to fill the disc. ``bounds`` (rows, cols of tiles, the flattened image padded by one tile): centres
    outside the tiles are left out (a token lies on a tile); and with ``grass`` (the flattened grass mask),
    centres with no grass around them (a checked cloth seen through a hole in the course: its white squares
    framed in red look like faces)."""
    lightest = cv2.min(cv2.min(flat[..., 0], flat[..., 1]), flat[..., 2]).astype(np.float32)
    r = FACE * PX * np.sqrt(np.pi) / 2  # squares as large as the discs: box filters cost a few additions a pixel
    inside, rim_in, rim_out = (2 * int(round(f * r)) + 1 for f in (FACE_IN, RIM_IN, RIM_OUT))
    sums = [cv2.boxFilter(lightest, -1, (k, k), normalize=False) for k in (inside, rim_in, rim_out)]
    contrast = sums[0] / inside ** 2 - (sums[2] - sums[1]) / (rim_out ** 2 - rim_in ** 2)
    k = 2 * int(FACE * PX) + 1  # one peak per face
    peak = (contrast >= cv2.dilate(contrast, np.ones((k, k), np.uint8))) & (contrast >= FACE_CONTRAST)
    if bounds is not None:
        keep = np.zeros_like(peak)
        keep[PX:(bounds[0] + 1) * PX, PX:(bounds[1] + 1) * PX] = True
        peak &= keep
    ys, xs = np.nonzero(peak)
    if grass is not None:  # any scale of the flattened course (a coarse one does)
        scale = grass.shape[0] / flat.shape[0]
        k = 2 * int(ON_TILE * PX * scale) + 1
        around = cv2.blur(grass.astype(np.float32), (k, k))[(ys * scale).astype(int), (xs * scale).astype(int)]
        ys, xs = ys[around >= GRASS_AROUND], xs[around >= GRASS_AROUND]
    strength = contrast[ys, xs]
    order = [i for i in np.argsort(-strength, kind="stable")[:CANDIDATES] if strength[i] >= FACE_SHARE * strength.max()]
    return [(float(xs[i]), float(ys[i])) for i in order]


def crop_face(image: np.ndarray, lattice: Lattice, centre: tuple[float, float]) -> np.ndarray:
    """Grey crop of a token face with ``SLACK`` pixels to spare all round, upright in the lattice frame
    (perspective removed)."""
    x, y = centre
    h = CROP_TILES / 2 * (CROP + 2 * SLACK) / CROP
    side = CROP + 2 * SLACK
    quad = lattice.to_photo([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]]).astype(np.float32)
    m = cv2.getPerspectiveTransform(quad, np.float32([[0, 0], [side, 0], [side, side], [0, side]]))
    crop = cv2.warpPerspective(image, m, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _disc(side: int, frac: float) -> np.ndarray:
    yy, xx = np.mgrid[:side, :side] - (side - 1) / 2
    return (xx * xx + yy * yy) <= (frac * side / 2) ** 2


@lru_cache(maxsize=1)
def _templates() -> tuple[np.ndarray, np.ndarray]:
    """Face templates (digit, angle) -> zero-mean unit vectors over the inner disc; and that disc."""
    disc = _disc(CROP, 0.8)
    temps = np.zeros((9, len(ANGLES), int(disc.sum())), np.float32)
    for n in range(1, 10):
        art = token_image(n, 8.0)
        side = art.shape[0]
        keep = int(round(side * CROP_TILES * TILE_MM / TOKEN_MM))
        o = (side - keep) // 2
        grey = cv2.cvtColor(np.ascontiguousarray(art[o:o + keep, o:o + keep, :3]), cv2.COLOR_RGB2GRAY)
        face = cv2.resize(grey, (CROP, CROP), interpolation=cv2.INTER_AREA).astype(np.float32)
        for k, a in enumerate(ANGLES):
            m = cv2.getRotationMatrix2D(((CROP - 1) / 2, (CROP - 1) / 2), float(a), 1.0)
            v = cv2.warpAffine(face, m, (CROP, CROP), borderMode=cv2.BORDER_REPLICATE)[disc]
            v = v - v.mean()
            temps[n - 1, k] = v / max(float(np.linalg.norm(v)), 1e-6)
    return temps, disc


def warm_up() -> None:
    """Build the token templates a scan reads against (a batch does this before its workers fork: they share them)."""
    _templates()


def read_face(crop: np.ndarray) -> np.ndarray:
    """How well a face crop from :func:`crop_face` shows each digit 1..9 (index 0 is digit 1); the face may
    sit a few pixels off its middle (a white flag beside it pulls the found centre)."""
    temps, disc = _templates()
    views = []
    for dy in range(0, 2 * SLACK + 1, 2):
        for dx in range(0, 2 * SLACK + 1, 2):
            v = crop[dy:dy + CROP, dx:dx + CROP][disc]
            v = v - v.mean()
            views.append(v / max(float(np.linalg.norm(v)), 1e-6))
    corr = temps.reshape(-1, temps.shape[2]) @ np.array(views).T  # (digit x angle, shift): one product
    return corr.reshape(temps.shape[0], -1).max(axis=1)


def assign(scores: np.ndarray) -> list[tuple[int, float, tuple[tuple[int, float], ...]]]:
    """(number, margin, alternatives) per token from its digit scores (tokens x 9): a player's tokens carry
    each number once, so the numbers are read together. A token's margin is what the best reading loses
    when that token takes another number (and the others make room), its alternatives the numbers it takes
    then and next.

    >>> [(n, round(m, 2)) for n, m, _ in assign(np.array([[0.8, 0.9] + [0.1] * 7, [0.95, 0.5] + [0.1] * 7]))]
    [(2, 0.55), (1, 0.55)]
    """
    if len(scores) > scores.shape[1]:  # more faces than numbers: not one player's set, read each alone
        return [(int(np.argmax(row)) + 1, float(np.sort(row)[-1] - np.sort(row)[-2]),
                 tuple((int(k) + 1, float(row[k])) for k in np.argsort(-row)[1:3])) for row in scores]
    rows, cols = linear_sum_assignment(scores, maximize=True)
    best = float(scores[rows, cols].sum())
    out = []
    for i, col in zip(rows, cols, strict=True):
        barred = scores.copy()
        barred[i, col] = -len(scores)  # this token may not take its number
        r2, c2 = linear_sum_assignment(barred, maximize=True)
        other = int(c2[list(r2).index(i)])
        rest = [int(k) for k in np.argsort(-scores[i]) if k not in (col, other)]
        alts = tuple((int(k) + 1, float(scores[i, k])) for k in [other, *rest][:2])
        out.append((int(col) + 1, best - float(barred[r2, c2].sum()), alts))
    return out


def read_tokens(image: np.ndarray, lattice: Lattice, photo: np.ndarray, shown: Lattice,
                grass: np.ndarray | None = None) -> list[TokenRead]:
    """Every number token on the lattice: found in the working ``image`` (balanced), read from the full
    ``photo`` (whose lattice is ``shown``), where the digits are sharpest."""
    flat = flatten(image, lattice, PX, pad=1)  # a token on an outer tile may hang over the course's edge
    ground = None if grass is None else flatten(grass.astype(np.uint8) * 255, lattice, PX // 4, pad=1) > 127
    faces = []
    for fx, fy in find_faces(flat, (lattice.rows, lattice.cols), ground):
        centre = (fx / PX - 1, fy / PX - 1)
        digits = read_face(crop_face(photo, shown, centre))
        if digits.max() >= TOKEN_MIN:  # white patches that show no printed digit are no tokens
            faces.append((centre, digits))
        if len(faces) == len(digits):  # every number found: weaker spots are no tokens of this course
            break
    if not faces:
        return []
    read = assign(np.array([d for _, d in faces]))
    return [TokenRead(number, centre, float(digits[number - 1]), margin, alts)
            for (centre, digits), (number, margin, alts) in zip(faces, read, strict=True)]

"""Training data for the par-digit reader (build step): whole tee/green squares drawn and photographed, cut
into candidates exactly as a scan does (``parmarks``), each candidate labelled by the digit's own ink.

A square is drawn by the fixtures' art module with one random hand and pen, in a 3 x 3 block of cells
so that the neighbours' strokes run over the border as on a plan. The par digit is drawn on a layer of its
own (and sometimes warped elastically or set in a typeface, for hands unlike any of the art module's), so
the ground truth says which pixels are the digit. The block is then blurred, shrunk to a random size,
given noise and JPEG artefacts, and cut into candidates. A candidate that is the digit (nearly all of the
digit's visible ink, little else) is labelled with it; one that holds little of the digit is "other";
one with only part of the digit is "other" too (a 5 without its bar must not pass for a 3); anything
between is left out. Digits turned by a quarter or half turn are "other" too: that is how the
reader tells which way is up.

Needs the development dependencies (the fixtures package, scikit-learn).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from scanner.games.eighteen.digits import LABELS
from scanner.games.eighteen.parmarks import CROP, PAD, clean_square, ink_levels, pieces_to_candidates

CELL_MM = 18.0
PPM = 9.0  # drawing resolution, px per mm
EDGES = ("N", "E", "S", "W")
DIGIT_SHARE, OTHER_SHARE = 0.8, 0.3  # a candidate's share of digit ink (and the digit's share in it)
PART = 0.6  # a candidate holding less of the digit than this is "other" (a 5 without its bar is no 3)
# Ink levels (shares of the strokes' strength, see ``parmarks.LEVELS``) the candidates are cut at; the scan's
# lowest level, 0.5, is covered by the random plan threshold below it
TRAIN_LEVELS = (0.65, 0.95)
FONTS = sorted(Path("/usr/share/fonts/truetype").rglob("*.ttf"))


def _neighbour(rng: np.random.Generator, towards: str | None) -> dict:
    """A random cell; ``towards`` (an edge of the neighbour) makes it a fairway ending on that edge."""
    if towards is not None:
        other = str(rng.choice([e for e in EDGES if e != towards]))
        return {"k": "fairway", "edges": sorted([towards, other], key=EDGES.index)}
    kind = str(rng.choice(["empty", "fairway", "tree", "water", "bunker", "mountain", "teegreen"]))
    if kind == "fairway":
        return {"k": "fairway", "edges": [str(e) for e in rng.choice(EDGES, 2, replace=False)]}
    if kind == "teegreen":
        tee, green = rng.choice(EDGES, 2, replace=False)
        return {"k": "teegreen", "tee_edge": str(tee), "green_edge": str(green), "par": int(rng.integers(3, 6))}
    if kind == "mountain":
        return {"k": "mountain", "style": str(rng.choice(["peak", "black"]))}
    return {"k": kind}


def _elastic(cover: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A smooth random warp of a coverage layer: the same digit as another hand might write it."""
    h, w = cover.shape
    ys, xs = np.nonzero(cover > 0.1)
    if not len(xs):
        return cover
    size = max(np.ptp(xs), np.ptp(ys)) + 1
    field = [cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), size / 4) for _ in range(2)]
    field = [f / (np.abs(f).max() + 1e-6) * strength * size for f in field]
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(cover, (gx + field[0]).astype(np.float32), (gy + field[1]).astype(np.float32), cv2.INTER_LINEAR)


def _typeset(cover: np.ndarray, text: str, rng: np.random.Generator) -> np.ndarray:
    """The digit set in a typeface, in the box the hand's digit took."""
    from PIL import Image, ImageDraw, ImageFont

    ys, xs = np.nonzero(cover > 0.1)
    if not len(xs):
        return cover
    h = int(np.ptp(ys)) + 1
    font = ImageFont.truetype(str(FONTS[int(rng.integers(len(FONTS)))]), max(8, int(h * 1.35)))
    img = Image.new("L", cover.shape[::-1], 0)
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    draw.text((cx - (x0 + x1) / 2, cy - (y0 + y1) / 2), text, fill=255, font=font)
    return np.asarray(img, np.float32) / 255.0 * float(cover.max())


@contextlib.contextmanager
def _digit_layer(art, rng: np.random.Generator) -> Iterator[list]:
    """While active, the art module writes digits on a layer of their own (returned in the list), varied."""
    original, captured = art.write, []

    def write(ink, pen, hand, rng_, text, center, height):
        own = art.Ink(*ink.shape, ink.ppm, rng_)
        original(own, pen, hand, rng_, text, center, height)
        cover = own.coverage(pen)
        roll = rng.random()
        if roll < 0.15:
            cover = _typeset(cover, text, rng)
        elif roll < 0.6:
            cover = _elastic(cover, rng, rng.uniform(0.04, 0.12))
        np.maximum(ink.coverage(pen), cover, out=ink.coverage(pen))
        captured.append((cover > 0.35).astype(np.uint8))

    art.write = write
    try:
        yield captured
    finally:
        art.write = original


def draw_square(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """A tee/green square amid neighbours, as drawn: (RGB image, quad of the square, digit mask, par)."""
    from fixtures.art.eighteen import pen as art
    from fixtures.art.eighteen.sheet import printer_pen, random_style

    style = random_style(rng)
    pen, hand = art.random_pen(rng), art.random_hand(rng)
    shade_pen = pen if rng.random() < 0.6 else art.random_pen(rng, weights=art.SHADE_WEIGHTS)
    side = int(3 * CELL_MM * PPM)
    ink = art.Ink(side, side, PPM, rng)
    grid = printer_pen(style.grid)
    for k in range(4):
        at = k * CELL_MM
        ink.rect(grid, at - style.grid_width_mm / 2, 0, at + style.grid_width_mm / 2, 3 * CELL_MM)
        ink.rect(grid, 0, at - style.grid_width_mm / 2, 3 * CELL_MM, at + style.grid_width_mm / 2)
    tee, green = (str(e) for e in rng.choice(EDGES, 2, replace=False))
    par = int(rng.integers(3, 6))
    shaded = bool(rng.random() < 0.4)
    centre = {"k": "teegreen", "tee_edge": tee, "green_edge": green, "par": par}
    steps = {"N": (0, 1), "S": (2, 1), "W": (1, 0), "E": (1, 2)}
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    for r in range(3):
        for c in range(3):
            box = art.CellBox(c * CELL_MM, r * CELL_MM, CELL_MM)
            if (r, c) == (1, 1):
                with _digit_layer(art, rng) as digit:
                    art.draw_cell(ink, pen, hand, rng, box, centre, shaded=shaded, shade_pen=shade_pen)
                continue
            edge = next((e for e, rc in steps.items() if rc == (r, c) and e in (tee, green)), None)
            cell = _neighbour(rng, opposite[edge] if edge else None)
            art.draw_cell(ink, pen, hand, rng, box, cell, shaded=shaded and rng.random() < 0.5, shade_pen=shade_pen,
                          style=cell.get("style"))
    paper = np.empty((side, side, 3), np.uint8)
    paper[:] = style.paper
    image = ink.apply(paper)
    a, b = CELL_MM * PPM - 0.5, 2 * CELL_MM * PPM - 0.5
    quad = np.float32([[a, a], [b, a], [b, b], [a, b]])
    return image, quad, digit[0], par


def photograph(image: np.ndarray, quad: np.ndarray, mask: np.ndarray, rng: np.random.Generator):
    """The drawing as a camera sees it: a random size (30-170 px a square), tilt, blur, light, noise, JPEG."""
    cell = float(quad[1, 0] - quad[0, 0])
    scale = rng.uniform(30, 170) / cell
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    jitter = rng.normal(0, 0.04 * w, (4, 2)).astype(np.float32)
    dst = (src + jitter) * scale
    m = cv2.getPerspectiveTransform(src, dst)
    size = (int(dst[:, 0].max()) + 1, int(dst[:, 1].max()) + 1)
    blurred = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.6) / scale)
    out = cv2.warpPerspective(blurred, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3))
    light = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.05), size[0], dtype=np.float32)[None, :, None]
    out = out.astype(np.float32) * light + rng.normal(0, rng.uniform(1, 6), out.shape)
    ok, buf = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 96))])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    mask_out = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_NEAREST)
    quad_out = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), m).reshape(4, 2)
    return out, quad_out, mask_out


Sample = tuple[np.ndarray, int, int]  # a binary crop, the quarter turns it is read at, its label


def square_samples(rng: np.random.Generator) -> list[Sample]:
    """Every candidate of one drawn and photographed tee/green square, labelled."""
    from scanner.games.eighteen.parmarks import square_ink

    image, quad, mask, par = draw_square(rng)
    photo, quad, mask = photograph(image, quad, mask, rng)
    ink = square_ink(photo, quad)
    digit = square_ink(np.dstack([255 - 255 * mask] * 3).astype(np.uint8), quad) > 0.5
    levels = ink_levels(ink, rng.uniform(0.12, 0.3), levels=TRAIN_LEVELS)  # the scan cuts at each: train on one
    b = clean_square(ink, levels[int(rng.integers(len(levels)))])
    pad = int(round(PAD * CROP))
    visible = digit & cv2.dilate(b, np.ones((3, 3), np.uint8)).astype(bool)
    near = cv2.dilate(digit.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    out = []
    label = LABELS.index(str(par))
    for cand in pieces_to_candidates(b, CROP, pad):
        x, y = cand.origin
        region = np.zeros_like(b, bool)
        region[y:y + cand.patch.shape[0], x:x + cand.patch.shape[1]] = cand.patch > 0
        inked = int(region.sum())
        share = (region & near).sum() / max(inked, 1)  # of the candidate, how much is digit
        found = (cv2.dilate(region.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & visible).sum()
        recall = found / max(int(visible.sum()), 1)
        turn = int(rng.integers(4))  # the rotated readings a scan also makes
        if share >= DIGIT_SHARE and recall >= DIGIT_SHARE:
            out.append((cand.patch, 0, label))
            if turn:
                out.append((cand.patch, turn, len(LABELS) - 1))
        elif share < OTHER_SHARE or recall < PART:  # not the digit, or too little of it to tell
            out.append((cand.patch, turn, len(LABELS) - 1))
    return out


def square_training_set(squares: int, seed: int, jobs: int = 2) -> list[Sample]:
    """Candidates of ``squares`` drawn squares, made by ``jobs`` processes."""
    from multiprocessing import Pool

    seeds = [(seed, k) for k in range(jobs)]
    with Pool(jobs) as pool:
        parts = pool.starmap(_samples, [(s, -(-squares // jobs)) for s in seeds])
    return [sample for part in parts for sample in part]


def _samples(seed: tuple[int, int], squares: int) -> list[Sample]:
    rng = np.random.default_rng(seed)
    return [s for _ in range(squares) for s in square_samples(rng)]


def features(samples: list[Sample]) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows (each crop read at its turn, as a scan reads it) and labels."""
    from scanner.games.eighteen.digits import describe_all

    rows = [describe_all([patch], 4)[turn] for patch, turn, _ in samples]
    return np.stack(rows), np.array([label for _, _, label in samples])

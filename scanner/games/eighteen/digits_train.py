"""Training data for the par-digit reader (build step): whole tee/green squares drawn and photographed, cut
into candidates exactly as a scan does (``parmarks``: every ink level), each candidate labelled by the digit's
own ink.

A square is drawn by the fixtures' art module with one random hand and pen, in a 3 x 3 block of cells
so that the neighbours' strokes run over the border as on a plan. The par digit is drawn on a layer of its
own, so the ground truth says which pixels are the digit, and varied for hands unlike any of the art
module's: other shapes (``SHAPES``: a cusped or flat-topped 3, an open or crossed 4, a 5 whose bar floats
free), any slant and width, strokes set apart, a broader pen, an elastic warp or a typeface, moved towards
or over the lines, a ring round it (drawn on a layer of its own too). The block is then blurred (sometimes
heavily), shrunk to a random size, given noise and JPEG artefacts, and cut into candidates. A candidate
that is the digit (nearly all of the digit's visible ink, little else but a ring round it, its strokes not
run together) is labelled with it; one that holds little of the digit, or is a blot, is "other"; one with
only part of the digit is "other" too (a 5 without its bar must not pass for a 3); anything between is
left out. Digits turned by a quarter or half turn are "other" too: that is how the reader tells which way
is up. Now and then the square is a fairway, mostly shaded, with no digit: every piece of it is "other".

Needs the development dependencies (the fixtures package, scikit-learn).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from scanner.games.eighteen.digits import LABELS
from scanner.games.eighteen.parmarks import CROP, PAD, cut_levels, pieces_to_candidates, square_ink

CELL_MM = 18.0
PPM = 9.0  # drawing resolution, px per mm
EDGES = ("N", "E", "S", "W")
DIGIT_SHARE, OTHER_SHARE = 0.8, 0.3  # a candidate's share of digit ink (and the digit's share in it)
# share of the paper between a digit's strokes that a readable cut of it may ink (blur and a broad pen run the
# strokes together), and the share that makes it a blot no reader could tell
BLEED, BLOT = 0.2, 0.4
CHUNK = 6000  # squares drawn from one random stream
RINGED = 0.25  # share of digits with a ring drawn round them
OTHER_KEEP = 0.5  # share of the "other" candidates trained on (a square gives several times more than digits)
PART = 0.6  # a candidate holding less of the digit than this is "other" (a 5 without its bar is no 3)
FAIRWAYS = 0.15  # share of squares drawn as a fairway (shaded most often) with no digit: a scan also looks for a
# par in a fairway over a corner-to-corner line, and shading cut into pieces must not pass for one
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


# Digit shapes beyond the art module's hands (unit box, x right, y down; see ``fixtures.art.eighteen.pen``):
# other people's 3s, 4s and 5s - a cusp in the 3, a 4 whose strokes do not meet or cross far over, a 5 whose
# bar floats free or starts left of the stem.
SHAPES: dict[str, tuple] = {
    "3": (
        ((("C", ((0.1, 0.18), (0.5, 0.0), (0.86, 0.2), (0.48, 0.48))),
          ("C", ((0.48, 0.48), (0.92, 0.64), (0.82, 0.94), (0.42, 1.0), (0.04, 0.84)))),),
        ((("C", ((0.2, 0.1), (0.55, 0.0), (0.76, 0.2), (0.42, 0.42))),
          ("C", ((0.42, 0.42), (0.96, 0.6), (0.86, 0.96), (0.36, 1.0), (0.02, 0.78)))),),
        ((("L", ((0.04, 0.04), (0.92, 0.0), (0.5, 0.36))),
          ("C", ((0.5, 0.36), (0.95, 0.52), (0.98, 0.84), (0.5, 1.0), (0.02, 0.9)))),),
        ((("C", ((0.06, 0.12), (0.6, 0.0), (0.7, 0.3), (0.3, 0.5), (0.75, 0.62), (0.8, 0.92), (0.3, 1.0), (0.0, 0.9))),),),
    ),
    "4": (
        ((("L", ((0.45, 0.0), (0.04, 0.62), (0.96, 0.62))),), (("L", ((0.76, 0.0), (0.7, 1.0))),)),
        ((("L", ((0.22, 0.0), (0.06, 0.58), (0.98, 0.6))),), (("L", ((0.68, 0.0), (0.68, 1.0))),)),
        ((("L", ((0.55, 0.0), (0.0, 0.72), (1.0, 0.72))),), (("L", ((0.62, 0.12), (0.62, 1.0))),)),
        ((("C", ((0.3, 0.0), (0.12, 0.4), (0.1, 0.62))), ("L", ((0.1, 0.62), (0.98, 0.6)))),
         (("L", ((0.72, 0.2), (0.68, 1.0))),)),
        ((("L", ((0.78, 1.0), (0.78, 0.0), (0.0, 0.72), (0.94, 0.72))),),),
    ),
    "5": (
        ((("L", ((0.2, 0.08), (0.15, 0.46))),
          ("C", ((0.15, 0.46), (0.6, 0.36), (0.96, 0.62), (0.8, 0.92), (0.4, 1.0), (0.04, 0.84)))),
         (("L", ((0.34, 0.0), (0.96, 0.02))),)),
        ((("L", ((0.2, 0.02), (0.16, 0.44))),
          ("C", ((0.16, 0.44), (0.7, 0.34), (0.98, 0.7), (0.6, 1.0), (0.05, 0.9)))),
         (("L", ((0.0, 0.03), (0.92, 0.0))),)),
        ((("L", ((0.92, 0.0), (0.2, 0.02), (0.14, 0.48))),
          ("C", ((0.14, 0.48), (0.5, 0.4), (0.9, 0.5), (0.94, 0.8), (0.6, 1.0), (0.1, 0.92)))),),
        ((("L", ((0.16, 0.02), (0.12, 0.42), (0.6, 0.4))), ("C", ((0.6, 0.4), (0.95, 0.62), (0.82, 0.95), (0.08, 0.96)))),
         (("L", ((0.16, 0.02), (0.88, 0.04))),)),
    ),
}


def _glyph(art, hand, text: str, rng: np.random.Generator):
    """The glyph a varied hand writes for ``text``: the hand's own, another of the art module's, or a shape
    from ``SHAPES``."""
    pool = list(art.DIGIT_VARIANTS[text].values()) + list(SHAPES[text])
    return hand.variant(text) if rng.random() < 0.3 else pool[int(rng.integers(len(pool)))]


def _write_varied(art, own, pen, hand, rng: np.random.Generator, text: str, center, height: float) -> None:
    """A digit as a hand unlike the art module's might write it: any shape, aspect and slant, control points
    jittered more, and the strokes of a many-stroke digit set apart (a 5's bar, a 4's stem)."""
    h = height * rng.uniform(0.85, 1.15)
    w = h * rng.uniform(0.45, 0.9)
    slant = np.tan(np.radians(rng.uniform(-20, 30)))
    jitter = rng.uniform(0.02, 0.07)
    strokes = art.glyph_strokes(_glyph(art, hand, text, rng), rng, jitter)
    for st in strokes:
        if len(strokes) > 1 and rng.random() < 0.5:
            st = st + rng.normal(0, 0.06, 2)
        pts = np.c_[center[0] + (st[:, 0] - 0.5) * w + (0.5 - st[:, 1]) * h * slant, center[1] + (st[:, 1] - 0.5) * h]
        own.stroke(pen, pts, rng, wobble=0.4, overshoot=0.25)


def _ring(art, ink, pen, rng: np.random.Generator, cover: np.ndarray) -> np.ndarray:
    """A ring drawn round the digit whose coverage is ``cover``, loose or tight enough to touch it: its mask."""
    ys, xs = np.nonzero(cover > 0.1)
    if not len(xs):
        return np.zeros(cover.shape, np.uint8)
    own = art.Ink(*ink.shape, ink.ppm, rng)
    cx, cy = (xs.min() + xs.max()) / 2 / ink.ppm, (ys.min() + ys.max()) / 2 / ink.ppm
    r = rng.uniform(0.5, 0.8) * max(np.ptp(xs), np.ptp(ys)) / ink.ppm
    a = np.linspace(0, 2 * np.pi, 30) + rng.uniform(0, 2 * np.pi)
    squash = rng.uniform(0.85, 1.15)
    own.stroke(pen, np.c_[cx + r * np.cos(a), cy + squash * r * np.sin(a)], rng, wobble=0.4, closed=True)
    ring = own.coverage(pen)
    np.maximum(ink.coverage(pen), ring, out=ink.coverage(pen))
    return (ring > 0.35).astype(np.uint8)


@contextlib.contextmanager
def _digit_layer(art, rng: np.random.Generator) -> Iterator[list]:
    """While active, the art module writes digits on a layer of their own (returned in the list), varied:
    in other shapes and slants, with a broader pen, set in a typeface or warped, moved towards the lines,
    ringed."""
    original, captured = art.write, []

    def write(ink, pen, hand, rng_, text, center, height):
        own = art.Ink(*ink.shape, ink.ppm, rng_)
        # a broader pen, yet not so broad that the digit runs into a blot
        wide = min(pen.width_mm * rng.uniform(1.2, 2.2), max(pen.width_mm, height / 7))
        broad = dataclasses.replace(pen, width_mm=wide) if rng.random() < 0.25 else pen
        if rng.random() < 0.3:  # nearer the diagonal, a stub or the grid line, or over them
            center = (center[0] + rng.uniform(-0.12, 0.12) * CELL_MM, center[1] + rng.uniform(-0.12, 0.12) * CELL_MM)
        if rng.random() < 0.45:
            _write_varied(art, own, broad, hand, rng, text, center, height)
        else:
            original(own, broad, hand, rng_, text, center, height)
        cover = own.coverage(broad)
        roll = rng.random()
        if roll < 0.12:
            cover = _typeset(cover, text, rng)
        elif roll < 0.6:
            cover = _elastic(cover, rng, rng.uniform(0.04, 0.15))
        np.maximum(ink.coverage(pen), cover, out=ink.coverage(pen))
        digit = (cover > 0.35).astype(np.uint8)
        ring = _ring(art, ink, pen, rng, cover) if rng.random() < RINGED else np.zeros_like(digit)
        captured.append(np.where(digit > 0, 1, 2 * ring).astype(np.uint8))

    art.write = write
    try:
        yield captured
    finally:
        art.write = original


def draw_square(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """A tee/green square (or now and then a fairway, ``FAIRWAYS``) amid neighbours, as drawn: (RGB image,
    quad of the square, mask of the digit (1) and the ring round it (2), the square as a board cell)."""
    from fixtures.art.eighteen import pen as art
    from fixtures.art.eighteen.sheet import printer_pen, random_style

    style = random_style(rng)
    # rings are drawn with the digit (``_digit_layer``), so that the truth knows them
    pen, hand = art.random_pen(rng), dataclasses.replace(art.random_hand(rng), ring_par=0.0)
    shade_pen = pen if rng.random() < 0.6 else art.random_pen(rng, weights=art.SHADE_WEIGHTS)
    side = int(3 * CELL_MM * PPM)
    ink = art.Ink(side, side, PPM, rng)
    grid = printer_pen(style.grid)
    for k in range(4):
        at = k * CELL_MM
        ink.rect(grid, at - style.grid_width_mm / 2, 0, at + style.grid_width_mm / 2, 3 * CELL_MM)
        ink.rect(grid, 0, at - style.grid_width_mm / 2, 3 * CELL_MM, at + style.grid_width_mm / 2)
    tee, green = (str(e) for e in rng.choice(EDGES, 2, replace=False))
    if rng.random() < FAIRWAYS:
        par, shaded = None, bool(rng.random() < 0.8)
        centre = {"k": "fairway", "edges": sorted((tee, green), key=EDGES.index)}
    else:
        par, shaded = int(rng.integers(3, 6)), bool(rng.random() < 0.4)
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
    return image, quad, digit[0] if digit else np.zeros((side, side), np.uint8), centre


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
    blurred = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.6 if rng.random() < 0.7 else 2.4) / scale)
    out = cv2.warpPerspective(blurred, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3 if rng.random() < 0.7 else 1.9))
    light = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.05), size[0], dtype=np.float32)[None, :, None]
    out = out.astype(np.float32) * light + rng.normal(0, rng.uniform(1, 6), out.shape)
    ok, buf = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    mask_out = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_NEAREST)
    quad_out = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), m).reshape(4, 2)
    return out, quad_out, mask_out


Sample = tuple[np.ndarray, int, int]  # a binary crop, the quarter turns it is read at, its label


def measured_candidates(rng: np.random.Generator) -> tuple[list[tuple[np.ndarray, float, float, float]], int | None]:
    """Every candidate of one drawn and photographed tee/green square, cut at every ink level as a scan cuts
    it (the diagonal found at the lowest; a piece cut alike at two levels taken once), with how much of it
    is digit, how much of the digit it holds and how much of the paper between the digit's strokes it
    inks; and the par."""
    image, quad, mask, cell = draw_square(rng)
    par = cell.get("par")
    photo, quad, mask = photograph(image, quad, mask, rng)
    ink = square_ink(photo, quad)
    digit, ring = (square_ink(np.dstack([255 - 255 * (mask == v)] * 3).astype(np.uint8), quad) > 0.5 for v in (1, 2))
    pad = int(round(PAD * CROP))
    # a ring round the digit is part of it: the digit is as plain with it as without
    marked = (digit | ring).astype(np.uint8)
    near = cv2.dilate(marked, np.ones((5, 5), np.uint8)).astype(bool)
    off = ~cv2.dilate(marked, np.ones((3, 3), np.uint8)).astype(bool)  # the paper round its strokes
    out, seen = [], set()
    for cut in cut_levels(ink, rng.uniform(0.12, 0.3)):
        b = cut.ink
        visible = digit & cv2.dilate(b, np.ones((3, 3), np.uint8)).astype(bool)
        for cand in pieces_to_candidates(b, CROP, pad, cut.erased):
            x, y = cand.origin
            key = (x, y, cand.patch.shape, cand.patch.tobytes())
            if key in seen:
                continue
            seen.add(key)
            box = np.s_[y:y + cand.patch.shape[0], x:x + cand.patch.shape[1]]
            region = np.zeros_like(b, bool)
            region[box] = cand.patch > 0
            share = (region & near).sum() / max(int(region.sum()), 1)
            found = (cv2.dilate(region.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & visible).sum()
            recall = found / max(int(visible.sum()), 1)
            bleed = (region[box] & off[box]).sum() / max(int(off[box].sum()), 1)
            out.append((cand.patch, float(share), float(recall), float(bleed)))
    return out, par


def labelled(measured: list[tuple[np.ndarray, float, float, float]], par: int | None, rng: np.random.Generator
             ) -> list[Sample]:
    """Candidates labelled: the digit (nearly all of its ink, little else, its strokes apart) as its par,
    and read turned as "other"; little of the digit, too little of it or a blot as "other" (a share
    ``OTHER_KEEP`` of them: a square gives many); anything between left out."""
    out = []
    for patch, share, recall, bleed in measured:
        turn = int(rng.integers(4))  # the rotated readings a scan also makes
        if share >= DIGIT_SHARE and recall >= DIGIT_SHARE and bleed <= BLEED:
            out.append((patch, 0, LABELS.index(str(par))))
            if turn:
                out.append((patch, turn, len(LABELS) - 1))
        elif (share < OTHER_SHARE or recall < PART or bleed >= BLOT) and rng.random() < OTHER_KEEP:
            out.append((patch, turn, len(LABELS) - 1))
    return out


def varied(samples: list[Sample], rng: np.random.Generator) -> list[Sample]:
    """One more copy of each upright digit: a pixel of ink more or less round its strokes, or written more
    or less slanted (the same mark as another ink level, pen or hand gives it)."""
    from scanner.games.eighteen.digits import _slanted

    out = []
    k = np.ones((2, 2), np.uint8)
    for patch, turn, label in samples:
        if turn or label == len(LABELS) - 1:
            continue
        how = int(rng.integers(3))
        if how == 2:
            other = _slanted(patch, float(rng.uniform(-0.3, 0.3)))
        else:
            other = (cv2.dilate if how == 0 else cv2.erode)(patch, k)
        ys, xs = np.nonzero(other)
        if len(xs) >= 8:
            out.append((np.ascontiguousarray(other[ys.min():ys.max() + 1, xs.min():xs.max() + 1]), 0, label))
    return out


def square_training_set(squares: int, seed: int, jobs: int = 2) -> list[Sample]:
    """Candidates of ``squares`` drawn squares, made by up to ``jobs`` processes, ``CHUNK`` squares from each
    random stream (so the set does not depend on the number of processes)."""
    from multiprocessing import Pool

    streams = [((seed, k), min(CHUNK, squares - k * CHUNK)) for k in range(-(-squares // CHUNK))]
    with Pool(min(jobs, len(streams))) as pool:
        parts = pool.starmap(_samples, streams)
    return [sample for part in parts for sample in part]


def _samples(seed: tuple[int, int], squares: int) -> list[Sample]:
    rng = np.random.default_rng(seed)
    pick = np.random.default_rng((*seed, 1))  # turns and the "other" kept: the drawings stay as they are
    return [s for _ in range(squares) for s in labelled(*measured_candidates(rng), pick)]


def features(samples: list[Sample]) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows (each crop read at its turn, as a scan reads it) and labels."""
    from scanner.games.eighteen.digits import describe_all

    rows = [describe_all([patch], 4)[turn] for patch, turn, _ in samples]
    return np.stack(rows), np.array([label for _, _, label in samples])

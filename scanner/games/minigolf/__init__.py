"""Minigolf Designer scanner: a photo of a finished course -> a board file (tiles, entrance, number tokens).

Stages: white balance from the tiles' own printed colours and grass / path masks (``colour``); the tile
lattice from the course outline and the gaps between tiles (``lattice``); number tokens (``tokens``);
each cell against every catalogue tile in every rotation (``match``); the entrance quarter disc among
the cells without a tile. The board is written as seen from the entrance: turned so the entrance faces
SE (it sits top-left), so the same course gives the same board however the photo is turned.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import cv2
import numpy as np

from rules.minigolf.catalogue import UNKNOWN
from scanner.debug import Debug
from scanner.errors import ScanError
from scanner.games.minigolf.colour import (
    Masks,
    balance,
    classify,
    course_masks,
    green_table,
    largest_filled,
    near_grass,
    white_gains,
)
from scanner.games.minigolf.lattice import (
    Lattice,
    boundary_quad,
    cell_offsets,
    flatten,
    lattice_from_quad,
    tile_counts,
)
from scanner.games.minigolf.match import (
    DOUBT_MARGIN,
    SHIFT,
    UNKNOWN_BELOW,
    WIDE_SHIFT,
    TileRead,
    coarse_score,
    cut_cell,
    entrance_score,
    meaning,
    read_tile,
)
from scanner.games.minigolf.match import warm_up as warm_up_tiles
from scanner.games.minigolf.tokens import FACE, RADIUS, TokenRead, read_tokens
from scanner.games.minigolf.tokens import warm_up as warm_up_tokens
from scanner.locate import downscale
from scanner.memo import same_image
from scanner.types import Read, ScanResult

GAME = "minigolf-designer"
WORK_PIXELS = 3_000_000  # a 12 MP photo decodes at half size: about 100 pixels per tile or more, as read
LOOK_SIDE = 640  # first look for the course at this resolution (longer side)
TILE_PX = 100  # then read it at about this many pixels per tile
CROP_GROW = 3.0  # a course cut by the cut-out's edge (glare hid part of it at the first, coarse look): that side
CROP_GROWS = 2  # moves out by this many tiles, at most this many times
COURSE_TILES = 42  # tiles of a typical finished course (only sets the working resolution)
FACINGS = ("SE", "SW", "NW", "NE")  # clockwise: one quarter turn of the course moves a facing one step
TILE_MIN = 0.6  # a cell with little grass holds a tile when it matches one at least this well
BARE = 0.1  # a cell with less grass than this in its middle shows table (every tile's middle has more: 0.11
# and up, 110 phone photos) unless it matches a tile as well as ``FLAG_BELOW``: a red cloth seen through a gap
# matches a pathway weakly
WASHED_LOOK = 0.75  # a cell of the lattice whose colours show no tile is read all the same when it looks this much
# like one at a quick look: glare can wash a tile's green out of the grass mask (such a tile: 0.97; bare cells
# inside the lattice: 0.48 at most, 19 on 9 phone photos); it is then a tile only when it matches one as well as
# ``FLAG_BELOW``
ENTRANCE_MIN = 0.7  # correlation with the entrance disc that a cell needs to be the entrance (entrances:
# 0.88-0.99, gaps and the table beside the course 0.58 at most, on 68 phone photos)
TOKEN_DOUBT = 0.06  # token reading margin under this is flagged
MAX_CELLS = 900  # more cells than this: not a course of tiles
SAMPLE_CELLS = 8  # cells compared when choosing between likely tile counts
GOOD_LATTICE = 0.8  # sampled cells matching tiles this well on average: the lattice (right ones: 0.83-0.94, the
# runner-up count 0.60-0.87, on 32 phone photos)
CLIMB_GAIN = 0.08  # a lattice short of GOOD_LATTICE gives way to a count one off it only when that count's cells
# match tiles this much better (a count the likely ones missed: 0.69 -> 0.83; right lattices at 0.76-0.80 have
# neighbours up to 0.02 better by the chance of the sampled cells, 10 phone photos)
RECHECK, RECHECK_CELLS = 3, 32  # no count good at first: the three best are compared again over this many cells
# (a 8 x 6 course under shadow streaks: 0.78 against 0.80 for 11 x 6 over 8 cells, 0.90 against 0.74 over all)
# Courses' photos show this much green and red and more (0.11 and up); most other games' photos less,
# and they are spared the search for a lattice of tiles.
LATTICE_LOOK = 0.05
FLAG_BELOW = 0.85  # tile reading score under this is a weak look (about the 1st percentile of right reads)
LATTICE_DOUBT = 0.5  # grassy cells recognised as tiles under this share: the lattice is doubtful, the read is
# flagged; under half of that (or fewer than two) the green area is no course of tiles (another game's green art)
EVEN_BELOW = 0.92  # a doubtful read scoring this well is no faded tile (a near tie with a look-alike whose figures
# are small): no second look with the shading evened out (reads it made right: 0.86 and less)
GUESS_FROM = 0.5  # a cell surely holding a tile (mostly grass) whose best match scores under ``UNKNOWN_BELOW``
GUESS_MARGIN = 0.15  # yet this well and this far ahead of every other meaning is given as that tile, flagged
# (glare-washed plain grass tiles: 0.58-0.6, margins 0.19-0.28, all right, on 44 glare and shadow photos; grassy
# cells beside the course holding no tile: 0.45 at most)
CLEAR_MARGIN = 0.2  # a weak look still stands when no tile of another meaning comes this close: worn or
# shaded art lowers every score alike (right weak reads here: margins 0.28-0.53), a doubt between look-alikes
# leaves them close


@dataclass(frozen=True)
class Prepared:
    small: np.ndarray  # balanced working image (BGR): the course cut out at about TILE_PX per tile
    scale: float  # working pixels per photo pixel
    offset: tuple[float, float]  # photo pixel of the working image's origin
    masks: Masks
    region: np.ndarray  # the course: filled grass area


def _masks(balanced: np.ndarray, band: float | None) -> tuple[Masks, np.ndarray]:
    masks = course_masks(balanced, band)
    if masks.grass.mean() < 0.005:
        raise ScanError("no Minigolf Designer course found (no green tiles in the photo)")
    region = largest_filled(masks.grass, max(balanced.shape[:2]) // 40)
    path = masks.path & near_grass(masks.grass, region)
    if region.sum() < 0.01 * region.size or path.sum() < 0.02 * region.sum():
        raise ScanError("no Minigolf Designer course found (no red pathways on green tiles)")
    return Masks(masks.grass, path), region


def _reduced(image: np.ndarray, k: int) -> np.ndarray:
    """``image`` shrunk by the whole factor ``k`` (its size cut to a multiple of ``k``): OpenCV averages
    whole blocks of pixels several times faster than it resizes by any other factor.

    >>> _reduced(np.arange(30, dtype=np.uint8).reshape(5, 6), 2).tolist()
    [[4, 6, 8], [16, 18, 20]]
    """
    if k == 1:
        return image
    h, w = image.shape[0] // k * k, image.shape[1] // k * k
    return cv2.resize(image[:h, :w], (w // k, h // k), interpolation=cv2.INTER_AREA)


def prepare(image: np.ndarray) -> Prepared:
    """Find the course at a low resolution, then cut it out of the photo at about ``TILE_PX`` pixels per
    tile (never enlarged), white-balanced, with its masks; ScanError when there is no course."""
    if image is None or image.ndim != 3 or min(image.shape[:2]) < 64:
        raise ScanError("not a colour photo")
    k = max(1, round(max(image.shape[:2]) / LOOK_SIDE))
    small, scale = _reduced(image, k), 1.0 / k
    gains = white_gains(small)
    look = balance(small, gains)
    band = green_table(look)
    _, region = _masks(look, band)
    ys, xs = np.nonzero(region)
    tiles_across = np.sqrt(region.sum()) / np.sqrt(COURSE_TILES)  # tile side, looking pixels (rough)
    zoom = min(1.0 / scale, TILE_PX / max(tiles_across, 1.0))  # looking pixels -> working pixels
    pad = 1.5 * tiles_across
    box = np.array([xs.min() - pad, ys.min() - pad, xs.max() + pad, ys.max() + pad])
    limit = np.array([0.0, 0.0, small.shape[1] - 1.0, small.shape[0] - 1.0])
    for _ in range(CROP_GROWS + 1):
        box = np.clip(box, 0.0, limit[[2, 3, 2, 3]])
        cut = _cut_out(image, box / scale, zoom * scale, gains, band)
        cut_sides = _sides_reached(cut.region) & (np.abs(box - limit) > 0.5)
        if not cut_sides.any():
            break
        box = box + np.where(cut_sides, CROP_GROW * tiles_across, 0.0) * [-1, -1, 1, 1]
    return cut


def _cut_out(image: np.ndarray, box: np.ndarray, work_scale: float, gains: np.ndarray,
             band: float | None) -> Prepared:
    """The photo's ``box`` (x0, y0, x1, y1 in photo pixels) at ``work_scale``, white-balanced, with its masks."""
    ox, oy = int(box[0]), int(box[1])
    crop = image[oy:int(np.ceil(box[3])) + 1, ox:int(np.ceil(box[2])) + 1]
    k = max(1, int(1.0 / work_scale))
    work = cv2.resize(_reduced(crop, k), None, fx=work_scale * k, fy=work_scale * k, interpolation=cv2.INTER_AREA)
    balanced = balance(work, gains)
    masks, region = _masks(balanced, band)
    return Prepared(balanced, work_scale, (float(ox), float(oy)), masks, region)


def _sides_reached(region: np.ndarray) -> np.ndarray:
    """Which sides of the cut-out (left, top, right, bottom) the course region touches.

    >>> r = np.zeros((10, 10), bool); r[3:6, 6:] = True
    >>> _sides_reached(r).tolist()
    [False, False, True, False]
    """
    return np.array([region[:, :2].any(), region[:2].any(), region[:, -2:].any(), region[-2:].any()])


def warm_up() -> None:
    """Build the tile and token templates a scan reads against (a batch does this before its workers fork)."""
    warm_up_tiles()
    warm_up_tokens()


def likelihood(image: np.ndarray) -> float:
    """0..1: a green area with red paths running over it, covering a fair part of the photo; at least
    ``GOOD_LATTICE`` once the cells of a lattice laid over it match catalogue tiles that well (a course
    photographed small has little green, yet its tiles are plain: other games' photos have no such lattice)."""
    small, _ = downscale(image, LOOK_SIDE)  # as the scan first looks: a small course needs the pixels
    m = classify(balance(small))
    grass = float(m.grass.mean())
    if grass < 0.005:
        return 0.0
    region = largest_filled(m.grass, max(small.shape[:2]) // 40)
    path = float((m.path & region).sum()) / max(float(region.sum()), 1.0)
    coloured = float(min(1.0, grass / 0.15) * min(1.0, path / 0.08))
    if coloured < LATTICE_LOOK:
        return coloured
    try:
        tiles = course_lattice(image)[2]  # kept for the scan
    except ScanError:
        return coloured
    return max(coloured, tiles) if tiles >= GOOD_LATTICE else coloured


def _cover(p: Prepared, lattice: Lattice) -> tuple[np.ndarray, np.ndarray]:
    """Shares of grass and of tile art (grass or path) in the middle of every cell of the lattice padded by
    one cell all round."""
    def share(mask: np.ndarray) -> np.ndarray:
        flat = flatten(mask.astype(np.uint8) * 255, lattice, px=16, pad=1).astype(np.float32) / 255
        return flat.reshape(lattice.rows + 2, 16, lattice.cols + 2, 16)[:, 3:13, :, 3:13].mean(axis=(1, 3))

    return share(p.masks.grass), share(p.masks.art)


def _token_mask(img: np.ndarray, lattice: Lattice, tokens: list[TokenRead]) -> np.ndarray:
    """Where tokens lie on the working image (255), a little beyond their rims."""
    mask = np.zeros(img.shape[:2], np.uint8)
    ring = RADIUS * 1.15  # the whole token, a little beyond its rim
    t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    for tok in tokens:
        x, y = tok.centre
        circle = np.stack([x + ring * np.cos(t), y + ring * np.sin(t)], axis=1)
        cv2.fillPoly(mask, [np.round(lattice.to_photo(circle)).astype(np.int32)], 255)
    return mask


def _inpainted(img: np.ndarray, hide: np.ndarray) -> np.ndarray:
    """``img`` with the ``hide`` pixels painted over from around them (tokens cover a small part of the
    course: each covered spot is painted on its own, with a margin)."""
    out = img.copy()
    contours, _ = cv2.findContours(hide, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for x, y, w, h in map(cv2.boundingRect, contours):
        m = max(w, h) // 4
        y0, x0 = max(0, y - m), max(0, x - m)
        ys, xs = slice(y0, y + h + m), slice(x0, x + w + m)
        out[ys, xs] = cv2.inpaint(img[ys, xs], hide[ys, xs], 3, cv2.INPAINT_TELEA)
    return out


def _best_lattice(p: Prepared, quad: np.ndarray, options: list[tuple[int, int]]) -> tuple[Lattice, float]:
    """Of the likely tile counts, the lattice whose grassy cells look most like catalogue tiles (a count off
    by a factor cuts cells across tiles, and nothing matches them well), or the first that looks like tiles
    at ``GOOD_LATTICE``; with how well its cells match tiles. When none looks that good at a first look over a
    few cells, the ``RECHECK`` best are compared again over more cells (a few cells under a shadow can favour
    a wrong count), and then the counts one off the best are tried in turn while they do ``CLIMB_GAIN``
    better: the gaps of a steeply seen course's far side blur away, and its count may be missing from the
    likely ones."""
    options = [o for o in options if o[0] * o[1] <= MAX_CELLS]
    if not options:
        raise ScanError("no Minigolf Designer course found (the green area has no tile lattice)")
    scores: dict[tuple[tuple[int, int], int], tuple[Lattice, float]] = {}

    def tried(count: tuple[int, int], sample_cells: int = SAMPLE_CELLS) -> tuple[Lattice, float]:
        if (count, sample_cells) not in scores:
            lattice = lattice_from_quad(quad, *count)
            grass, _ = _cover(p, lattice)
            cells = [(r - 1, c - 1) for r, c in zip(*np.nonzero(grass >= 0.35), strict=True)]
            sample = cells[:: max(1, len(cells) // sample_cells)]
            scores[count, sample_cells] = lattice, float(np.mean([
                coarse_score(cut_cell(p.small, lattice.cell_quad(*rc))) for rc in sample])) if sample else -1.0
        return scores[count, sample_cells]

    best = tried(options[0])
    for o in options[1:]:
        if best[1] >= GOOD_LATTICE:  # the likeliest counts come first: cells this like tiles settle it
            break
        best = max(best, tried(o), key=lambda t: t[1])
    if best[1] >= GOOD_LATTICE:
        return best
    firsts = sorted(options, key=lambda o: -tried(o)[1])[:RECHECK]
    best = max((tried(o, RECHECK_CELLS) for o in firsts), key=lambda t: t[1])
    while best[1] < GOOD_LATTICE:
        rows, cols = best[0].rows, best[0].cols
        near = [(rows + dr, cols + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and rows + dr >= 1 and cols + dc >= 1 and (rows + dr) * (cols + dc) <= MAX_CELLS]
        step = max(near, key=lambda o: tried(o)[1])
        closer = tried(step, RECHECK_CELLS)
        if closer[1] < best[1] + CLIMB_GAIN:
            break
        best = closer
    return best


@same_image
def course_lattice(image: np.ndarray) -> tuple[Prepared, Lattice, float]:
    """The course prepared and its tile lattice, with how well its cells match tiles (``_best_lattice``):
    found once for the photo's likelihood and its scan."""
    p = prepare(image)
    quad = boundary_quad(p.region)
    return (p, *_best_lattice(p, quad, tile_counts(quad, p.masks.path, p.masks.art)))


def doubtful(rd: TileRead) -> bool:
    """Whether a tile read needs a person: not recognised, or a tile of another scoring meaning close behind
    (closer than ``CLEAR_MARGIN`` when the look is weak, than ``DOUBT_MARGIN`` otherwise, unless the photo
    plainly shows the read tile's own details where the two differ). Look-alikes that score the same never
    count (``TileRead.margin`` is over other meanings only).

    >>> doubtful(TileRead("gs07", 90, 0.83, 0.5, ()))   # worn, but nothing else comes near
    False
    >>> doubtful(TileRead("gr06", 0, 0.70, 0.02, ()))   # weak and a look-alike close behind
    True
    >>> doubtful(TileRead("st07", 0, 0.97, 0.01, (), confirmed=True))  # its figures plainly shown
    False
    """
    if rd.score < UNKNOWN_BELOW:
        return True
    if rd.score < FLAG_BELOW:
        return rd.margin < CLEAR_MARGIN
    return rd.margin < DOUBT_MARGIN and not rd.confirmed


def second_look(first: TileRead, evened: TileRead) -> TileRead:
    """Of a doubtful read and the second look at the cell with the shading evened out, the one that matches its
    reference better; the second, when it tells another scoring meaning, stays doubtful (two looks at the same
    print that disagree leave a person to judge, however clear the second alone).

    >>> faded, seen = TileRead("pn20", 180, 0.59, 0.25, ()), TileRead("pn20", 180, 0.71, 0.44, ())
    >>> second_look(faded, seen) == seen
    True
    >>> doubtful(second_look(TileRead("gr08", 270, 0.86, 0.0, ()), TileRead("gr01", 270, 0.93, 0.16, ())))
    True
    """
    if evened.score <= first.score:
        return first
    if meaning(evened.tile, evened.rotation) == meaning(first.tile, first.rotation):
        return evened
    return replace(evened, margin=0.0, confirmed=False)


def recognised_read(rd: TileRead) -> bool:
    """Whether a tile read goes on the board as its tile (rather than unknown): it matches its reference well
    enough, or it lies on a surely tiled cell and no other meaning comes near (``GUESS_FROM``, ``GUESS_MARGIN``;
    :func:`doubtful` still has a person check it).

    >>> recognised_read(TileRead("pn22", 90, 0.59, 0.19, ())), doubtful(TileRead("pn22", 90, 0.59, 0.19, ()))
    (True, True)
    >>> recognised_read(TileRead("gs01", 0, 0.59, 0.05, ())), recognised_read(TileRead("st14", 0, 0.45, 0.3, ()))
    (False, False)
    """
    return rd.score >= UNKNOWN_BELOW or (rd.score >= GUESS_FROM and rd.margin >= GUESS_MARGIN)


def _turn(rc: tuple[int, int], turns: int) -> tuple[int, int]:
    r, c = rc
    for _ in range(turns):
        r, c = c, -r
    return r, c


@dataclass
class _Cells:
    tiles: dict[tuple[int, int], TileRead]
    entrance: tuple[tuple[int, int], str, float] | None


def _read_cells(p: Prepared, lattice: Lattice, tokens: list[TokenRead]) -> _Cells:
    grass, art = _cover(p, lattice)
    hide = _token_mask(p.small, lattice, tokens)
    clean = _inpainted(p.small, hide)
    shift = cell_offsets(lattice, p.masks.art)

    def look(quad: np.ndarray, around: int = SHIFT, even: bool = False) -> TileRead:
        x0, y0 = np.maximum(quad.min(axis=0).astype(int) - around, 0)
        x1, y1 = quad.max(axis=0).astype(int) + around + 1
        covered = hide[y0:y1, x0:x1].any()  # most cells hold no token: no mask to cut
        return read_tile(cut_cell(clean, quad, around), cut_cell(hide, quad, around) > 127 if covered else None,
                         even)

    tiles: dict[tuple[int, int], TileRead] = {}
    entrance = None
    for r in range(-1, lattice.rows + 1):
        for c in range(-1, lattice.cols + 1):
            dx, dy = shift[r + 1, c + 1]
            quad = lattice.cell_quad(r + dy, c + dx)
            g, a = grass[r + 1, c + 1], art[r + 1, c + 1]
            inside = 0 <= r < lattice.rows and 0 <= c < lattice.cols
            seen = g >= BARE or a >= 0.5 or (inside and coarse_score(cut_cell(clean, quad)) >= WASHED_LOOK)
            read, around = (look(quad) if seen else None), SHIFT
            if read is not None and g >= 0.35 and read.score < FLAG_BELOW:  # a weak tile may lie further off
                wide = look(quad, WIDE_SHIFT)
                read, around = (wide, WIDE_SHIFT) if wide.score > read.score else (read, around)
            if read is not None and g >= 0.35:  # mostly grass: a tile, even when not recognised
                # in doubt, a second look with the shading evened out (glare, a hand's shadow)
                faded = doubtful(read) and read.score < EVEN_BELOW
                tiles[(r, c)] = second_look(read, look(quad, around, even=True)) if faded else read
                continue
            score, facing = entrance_score(cut_cell(p.small, quad))
            least = TILE_MIN if g >= BARE else FLAG_BELOW
            if read is not None and read.score >= max(score, least):  # more like a tile than the entrance
                tiles[(r, c)] = read
            elif score >= ENTRANCE_MIN and (entrance is None or score > entrance[2]):
                entrance = ((r, c), facing, score)
    return _Cells(tiles, entrance)


def entrance_doubt(cell: tuple[int, int], tiles: Collection[tuple[int, int]]) -> str:
    """Why an entrance read at ``cell`` is doubtful ("" when it is not): the entrance lies beside the course,
    so a quarter disc read in a gap walled in by tiles on three or four sides is suspect.

    >>> entrance_doubt((0, 0), {(0, 1), (1, 0)})
    ''
    >>> entrance_doubt((1, 1), {(0, 1), (1, 0), (1, 2)})
    'entrance read in a gap inside the course: check it'
    """
    return "entrance read in a gap inside the course: check it" if _beside(cell, tiles) >= 3 else ""


def _beside(cell: tuple[int, int], tiles: Collection[tuple[int, int]]) -> int:
    """How many of the cell's four neighbours hold tiles."""
    return sum((cell[0] + dr, cell[1] + dc) in tiles for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))


def strays(tiles: dict[tuple[int, int], TileRead]) -> set[tuple[int, int]]:
    """Grassy cells at the course's edge (one tile beside them at most) that match no tile even weakly (under
    ``GUESS_FROM``): green things beside the course (a pen, a box, a card) rather than tiles. A tile there would
    be unknown anyway; left off the board, they are still shown to a person.

    >>> sure, pen = TileRead("st01", 0, 0.95, 0.3, ()), TileRead("st14", 0, 0.45, 0.01, ())
    >>> sorted(strays({(0, 0): sure, (0, 1): sure, (1, 0): sure, (0, 2): pen, (1, 1): pen}))  # (1, 1): a notch
    [(0, 2)]
    """
    return {rc for rc, rd in tiles.items() if rd.score < GUESS_FROM and _beside(rc, tiles) <= 1}


def scan(image: np.ndarray, setup: dict[str, Any] | None = None, debug: Debug | None = None) -> ScanResult:
    """Read the course in ``image`` (BGR, displayed orientation) into a Minigolf Designer board file."""
    p, lattice, _ = course_lattice(image)
    rows, cols = lattice.rows, lattice.cols
    a = np.array([[1 / p.scale, 0, 0.5 / p.scale - 0.5 + p.offset[0]],
                  [0, 1 / p.scale, 0.5 / p.scale - 0.5 + p.offset[1]], [0, 0, 1]])
    shown = Lattice(a @ lattice.h, lattice.rows, lattice.cols)  # lattice -> photo pixels
    tokens = read_tokens(p.small, lattice, image, shown, p.masks.grass)
    cells = _read_cells(p, lattice, tokens)
    known = sum(rd.score >= UNKNOWN_BELOW for rd in cells.tiles.values())
    recognised = known / max(len(cells.tiles), 1)
    if known < 2 or recognised < LATTICE_DOUBT / 2:  # green art of another game is no course of tiles
        raise ScanError("no Minigolf Designer course found (the green area shows no catalogue tiles)")
    warnings: list[str] = []
    stray = strays(cells.tiles)
    tiles_read = {rc: rd for rc, rd in cells.tiles.items() if rc not in stray}
    if cells.entrance is None:
        corners = [(-1, -1), (-1, cols), (rows, cols), (rows, -1)]
        ent_cell, facing = next(((rc, f) for rc, f in zip(corners, FACINGS, strict=True) if rc not in tiles_read))
        ent_score = 0.0
        warnings.append("entrance quarter disc not found; the course is read as photographed")
    else:
        ent_cell, facing, ent_score = cells.entrance
    ent_doubt = "entrance not found" if cells.entrance is None else entrance_doubt(ent_cell, tiles_read)
    turns = (4 - FACINGS.index(facing)) % 4  # quarter turns clockwise that make the entrance face SE

    placed = {(_turn(rc, turns)): (rc, rd) for rc, rd in tiles_read.items()}
    er, ec = _turn(ent_cell, turns)
    tok_cells = [(_turn((int(np.floor(t.centre[1])), int(np.floor(t.centre[0]))), turns), t) for t in tokens]
    every = list(placed) + [(er, ec)] + [rc for rc, _ in tok_cells]
    r0 = min(r for r, _ in every) - 1
    c0 = min(c for _, c in every) - 1
    n_rows = max(r for r, _ in every) - r0 + 2
    n_cols = max(c for _, c in every) - c0 + 2

    reads: list[Read] = []
    tiles = []
    for i, (rc, (cell, rd)) in enumerate(sorted(placed.items())):
        unknown = not recognised_read(rd)
        rot = (rd.rotation + 90 * turns) % 360
        value = {"tile": UNKNOWN if unknown else rd.tile, "rotation": 0 if unknown else rot}
        tiles.append({"row": rc[0] - r0, "col": rc[1] - c0, **value})
        flagged = doubtful(rd)
        note = ("tile not recognised" if unknown else
                f"read {rd.tile} turned {rot}; next best {rd.alternatives[0][0]}" if flagged and rd.alternatives
                else "")
        reads.append(Read(f"tiles[{i}]", value, rd.score, flagged, shown.cell_quad(*cell),
                          tuple((f"{a}@{(b + 90 * turns) % 360}", s) for a, b, s in rd.alternatives), note))
    reads.append(Read("entrance", {"row": er - r0, "col": ec - c0, "facing": "SE"}, ent_score,
                      bool(ent_doubt), shown.cell_quad(*ent_cell), note=ent_doubt))
    reads.extend(Read("course", None, cells.tiles[rc].score, True, shown.cell_quad(*rc),
                      note="green beside the course matches no tile and is left out: check for a tile there")
                 for rc in sorted(stray))
    token_list = []
    for j, (rc, t) in enumerate(sorted(tok_cells, key=lambda x: x[1].number)):
        token_list.append({"number": t.number, "row": rc[0] - r0, "col": rc[1] - c0})
        flagged = t.margin < TOKEN_DOUBT
        ring = np.array([[t.centre[0] + FACE * np.cos(a), t.centre[1] + FACE * np.sin(a)]
                         for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)])
        reads.append(Read(f"tokens[{j}]", t.number, t.score, flagged, shown.to_photo(ring),
                          tuple((str(n), s) for n, s in t.alternatives),
                          f"number token read as {t.number}, maybe {t.alternatives[0][0]}" if flagged else ""))

    if recognised < LATTICE_DOUBT:  # the tiles read may still help a person: read, but have the whole checked
        outline = shown.to_photo([[0, 0], [cols, 0], [cols, rows], [0, rows]])
        reads.append(Read("grid", {"rows": n_rows, "cols": n_cols}, recognised, True, outline,
                          note="most cells match no catalogue tile: the tile lattice may be wrong; check the course"))

    board = {
        "format": "golfscan/minigolf-designer",
        "version": 1,
        "grid": {"rows": n_rows, "cols": n_cols},
        "entrance": {"row": er - r0, "col": ec - c0, "facing": "SE"},
        "tiles": tiles,
        "tokens": token_list,
        "setup": {"player": "player", **(setup or {}).get("setup", {})},  # setup file: {"setup": {...}}
        "source": {"reader": "golfscan minigolf-designer scanner", "lattice": {"rows": rows, "cols": cols}},
        "review": [r.review_entry() for r in reads if r.flagged],
    }
    result = ScanResult(GAME, board, reads, partial(draw_overlay, image, reads, shown), warnings)
    if debug is not None:
        vis = p.small.copy()
        vis[p.masks.grass] = (0, 160, 0)
        vis[p.masks.path] = (0, 0, 220)
        debug.add("masks", vis)
        debug.add("board", result.overlay)
    return result


def draw_overlay(image: np.ndarray, reads: list[Read], lattice: Lattice) -> np.ndarray:
    """The lattice, each tile's id and turn, the entrance and tokens; doubts in red."""
    out = image.copy()
    thick = max(2, image.shape[1] // 700)
    scale = max(0.5, lattice.cell_px() / 120)
    for r in range(lattice.rows + 1):
        cv2.polylines(out, [np.round(lattice.to_photo([[0, r], [lattice.cols, r]])).astype(np.int32)],
                      False, (255, 200, 0), thick)
    for c in range(lattice.cols + 1):
        cv2.polylines(out, [np.round(lattice.to_photo([[c, 0], [c, lattice.rows]])).astype(np.int32)],
                      False, (255, 200, 0), thick)
    for rd in reads:
        colour = (0, 0, 255) if rd.flagged else (0, 220, 255)
        poly = np.round(rd.polygon).astype(np.int32)
        tile = rd.where.startswith("tiles")
        if rd.flagged or not tile:  # every tile's outline is the lattice already
            cv2.polylines(out, [poly], True, colour, thick * 2)
        if tile:
            label = f"{rd.value['tile']} {rd.value['rotation']}"
        else:
            label = {"entrance": "entrance", "grid": "lattice doubtful", "course": "no tile?"}.get(rd.where,
                                                                                                 f"#{rd.value}")
        x, y = poly[0] + (40 * scale, -10 * scale) if rd.where == "grid" else poly.mean(axis=0)  # beside the tiles
        cv2.putText(out, label, (int(x - 40 * scale), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, (0, 0, 0),
                    thick * 3, cv2.LINE_AA)
        cv2.putText(out, label, (int(x - 40 * scale), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, colour,
                    thick, cv2.LINE_AA)
    return out


def canonical(board: dict[str, Any]) -> dict[str, Any]:
    """Tiles (meaning) and tokens keyed by cell relative to the entrance, the entrance facing SE."""
    ent = board["entrance"]
    turns = (4 - FACINGS.index(ent["facing"])) % 4
    origin = _turn((ent["row"], ent["col"]), turns)

    def rel(r: int, c: int) -> tuple[int, int]:
        a, b = _turn((r, c), turns)
        return a - origin[0], b - origin[1]

    tiles = {rel(t["row"], t["col"]): (meaning(t["tile"], (t["rotation"] + 90 * turns) % 360)
                                       if t["tile"] != UNKNOWN else UNKNOWN) for t in board["tiles"]}
    tokens = {(t["number"], rel(t["row"], t["col"])) for t in board.get("tokens", [])}
    return {"tiles": tiles, "tokens": tokens}


def compare(truth_board: dict[str, Any], read_board: dict[str, Any]) -> dict[str, Any]:
    """Tiles and tokens read wrong, cells taken relative to the entrance (the board may be turned).

    A tile is wrong when its scoring meaning differs (another tile, a turn that changes its pathways or
    arrow, a missing or extra tile); a token when its number or cell differs or it is missing (or extra).
    """
    truth, read = canonical(truth_board), canonical(read_board)
    cells = set(truth["tiles"]) | set(read["tiles"])
    tiles_wrong = sum(truth["tiles"].get(c) != read["tiles"].get(c) for c in cells)
    # a misread token is one missing and one extra: count the larger side
    tokens_wrong = max(len(truth["tokens"] - read["tokens"]), len(read["tokens"] - truth["tokens"]))
    return {"tiles": len(truth["tiles"]), "tiles_wrong": tiles_wrong, "tokens": len(truth["tokens"]),
            "tokens_wrong": tokens_wrong, "exact": tiles_wrong == 0 and tokens_wrong == 0}

"""Tile reading: each cell of the lattice, cut out upright, against every catalogue tile in every rotation.

References are the catalogue's tile art (``fixtures.art.minigolf``: the printed faces as drawn from the
catalogue; scans of real tiles would take its place) shrunk to ``SIDE`` pixels the way a photo cell is.
A cell is compared with each reference by normalised cross-correlation over small shifts (hand-laid tiles
sit a few millimetres off the lattice). Reads whose scores tie on different *scoring* meanings are doubts;
a best score below the level that correct reads reach is "unknown".
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import cache, lru_cache

import cv2
import numpy as np

from fixtures.art.minigolf.pieces import entrance_image
from fixtures.art.minigolf.tiles import tile_image
from rules.minigolf.catalogue import ROTATIONS, TILES, rotate_edge
from scanner.artcache import drawn
from scanner.games.minigolf.lattice import TILE_SHARE

SIDE = 48  # reference side in pixels (one tile)
SHIFT = 6  # search +- pixels around the lattice position
WIDE_SHIFT = 12  # and this far when a tile reads weakly (it may lie further off its cell)
QUICK = 4  # first look at a quarter of the resolution
SHORTLIST = 24  # references kept from the first look (the right meaning ranked 9th at worst in 262 reads)
MATCH_ONE_BY_ONE = 8  # up to this many templates are matched one by one
LOOK_AGAIN = 8  # of the shortlist, the first this many are looked at again at half resolution
SLIDE = 3  # pixels a template slides over the aligned patch
SLIDE_WITHIN = 0.05  # templates this close to the best after aligning are slid
DETAIL_DIFF = 40  # summed channel difference where two references differ
DETAIL_PIXELS = 20  # fewer differing pixels shown than this: no detail check
DETAIL_MIN = 0.8  # the best's correlation where it differs from a close rival: right reads 0.85 and more, plain
# straights read for tiles with figures 0.72 and less (41 photos)
DETAIL_NEARER = 0.5  # or the patch's squared distance to the best there at most this share of its distance to
# the rival
DETAIL_RIVALS = 3  # close rivals checked
DETAIL_SURE = 0.9  # details correlating this well confirm the best however close the rival's whole-tile score
# (small figures move it little): right reads of figures over a plain straight 0.93-0.95, plain straights read
# as tiles with figures 0.72 and less
DETAIL_GAP = 0.15  # or, having more print there, they correlate this much better than the rival's own do (right
# reads on phone photos: 0.16-0.39; on 360 blurred and noisy catalogue tiles no wrong read passed at 0.1)
LOOK_ALIKES = 6  # a tie left: the references with the best's pathways ranked this high at quarter or half
# resolution are aligned on their own (the right one ranked 5th at worst at one of them, 9 plain-straight ties)
HALF_CLOSE = 0.01  # other meanings this close to the likeliest at half resolution are aligned on their own
HALF_RIVALS = 2  # at most this many
RIVAL_CLOSE = 0.05  # a rival of another meaning this close is aligned on its own before the margin is taken
INNER = 2  # reference border left out (rounded corners, neighbours' shadows)
UNKNOWN_BELOW = 0.6  # best correlation under this: not a tile we know (right reads: 1st percentile 0.88;
# cells of bare table reach 0.53; 680 reads on 16 synthetic photos)
ENTRANCE_ALPHA = 250  # art alpha from which a pixel counts as on the entrance disc (its rim blends with the table)
DOUBT_MARGIN = 0.015  # best minus best of another meaning under this: flag (1st percentile of right reads)
EVEN_OUT = 8.0  # a second look at a doubtful cell sees it and the references with their shading over more than
# this many pixels (Gaussian sigma, a sixth of a tile) taken out: glare and a hand's shadow fade a tile unevenly,
# which lowers every correlation with a plain grass tile and can tip look-alikes (on 1940 cells of 44 glare and
# shadow photos: 7 doubtful or unknown reads made right, none made wrong)


@cache
def meaning(tile_id: str, rotation: int) -> tuple:
    """What scoring sees of a tile in a rotation: equal meanings score the same (e.g. any turn of grass)."""
    t = TILES[tile_id]
    paths = tuple((tuple(sorted(rotate_edge(e, rotation) for e in p.edges)), p.tee, p.green) for p in t.pathways)
    arrow = (t.arrow.pathway, rotate_edge(t.arrow.to, rotation)) if t.arrow else None
    return (t.kind == "grass", t.flag, paths, arrow, tuple(sorted(t.features.items())), t.obstacle)


def _shrink(rgb: np.ndarray, side: int) -> np.ndarray:
    bgr = cv2.cvtColor(rgb[..., :3], cv2.COLOR_RGB2BGR)
    return cv2.resize(bgr, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)


@dataclass(frozen=True)
class References:
    keys: list[tuple[str, int]]  # (tile id, rotation) per reference
    templates: np.ndarray  # (n, SIDE - 2 INNER, SIDE - 2 INNER, 3) float32
    entrance: np.ndarray  # (4, ...) the entrance cell facing SE, SW, NW, NE
    disc: np.ndarray  # (4, ...) float32 1 on the quarter disc, 0 off it (and on its blurred rim)


def evened(img: np.ndarray) -> np.ndarray:
    """``img`` (float32) with its shading over more than ``EVEN_OUT`` pixels taken out, about a mid grey: what
    is left is the print's own detail, however unevenly lit.

    >>> ramp = np.tile(np.linspace(50, 200, 48, dtype=np.float32)[None, :, None], (48, 1, 3))
    >>> float(np.abs(evened(ramp)[:, 16:32] - 128).max()) < 1.0   # a glare's slope is gone (away from the edges)
    True
    """
    return img - cv2.GaussianBlur(img, (0, 0), EVEN_OUT) + 128.0


def references(even: bool = False) -> References:
    """The catalogue's tile and entrance templates; with ``even``, the tiles :func:`evened`."""
    return _references(even)  # one cache entry however it is called


FACINGS = ("SE", "SW", "NW", "NE")


@cache
def _art() -> dict[str, np.ndarray]:
    """Every catalogue tile (by id) and the entrance (by facing) as drawn at 2 px/mm, kept between runs
    (``scanner.artcache``)."""
    return drawn("minigolf-tiles", lambda: {tile_id: tile_image(tile_id, 0, 2.0) for tile_id in TILES}
                 | {f"entrance-{facing}": entrance_image(2.0, facing=facing) for facing in FACINGS})


@lru_cache(maxsize=2)
def _references(even: bool) -> References:
    keys, temps = [], []
    art = _art()
    for tile_id in sorted(TILES):
        base = _shrink(art[tile_id], SIDE)
        if even:
            base = evened(base)
        for rot in ROTATIONS:
            keys.append((tile_id, rot))
            temps.append(np.rot90(base, k=-(rot // 90))[INNER:SIDE - INNER, INNER:SIDE - INNER])
    ent, disc = [], []
    for facing in FACINGS:
        entrance = art[f"entrance-{facing}"]
        ent.append(_shrink(entrance, SIDE)[INNER:SIDE - INNER, INNER:SIDE - INNER])
        alpha = cv2.resize(entrance[..., 3], (SIDE, SIDE), interpolation=cv2.INTER_AREA)[INNER:SIDE - INNER,
                                                                                         INNER:SIDE - INNER]
        disc.append((alpha >= ENTRANCE_ALPHA).astype(np.float32))
    return References(keys, np.ascontiguousarray(np.stack(temps)), np.stack(ent), np.stack(disc))


def cut_cell(image: np.ndarray, quad: np.ndarray, shift: int = SHIFT) -> np.ndarray:
    """The cell's tile (``TILE_SHARE`` of the cell, centred) plus ``shift`` pixels around it, upright."""
    centre = quad.mean(axis=0)
    k = TILE_SHARE * (SIDE + 2 * shift) / SIDE
    src = centre + (quad - centre) * k
    n = SIDE + 2 * shift
    m = cv2.getPerspectiveTransform(src.astype(np.float32), np.float32([[0, 0], [n, 0], [n, n], [0, n]]))
    return cv2.warpPerspective(image, m, (n, n), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


@dataclass(frozen=True)
class TileRead:
    tile: str
    rotation: int
    score: float
    margin: float  # over the best reference with another scoring meaning
    alternatives: tuple[tuple[str, int, float], ...]
    # the photo plainly shows the best's own details where that reference differs from it (``DETAIL_SURE``)
    confirmed: bool = False


def _unit_rows(x: np.ndarray) -> np.ndarray:
    """Rows of (n, h, w, 3) as zero-mean (per channel) unit vectors: correlation becomes a dot product."""
    x = x - x.mean(axis=(1, 2), keepdims=True)
    flat = x.reshape(len(x), -1)
    return flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-6)


def _shrunk(x: np.ndarray, k: int) -> np.ndarray:
    return cv2.resize(x, (x.shape[1] // k, x.shape[0] // k), interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=4)
def _coarse_templates(k: int, even: bool) -> np.ndarray:
    """Tile templates at 1/``k`` resolution, as zero-mean unit rows."""
    return _unit_rows(_small_templates(k, even)).astype(np.float32)


@lru_cache(maxsize=4)
def _small_templates(k: int, even: bool) -> np.ndarray:
    """Tile templates at 1/``k`` resolution, as images."""
    return np.stack([_shrunk(t, k) for t in references(even).templates])


def _scores(patch: np.ndarray, k: int = 2, only: np.ndarray | None = None,
            even: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Best correlation of each template (or of those in ``only``) over all shifts, at 1/``k`` resolution,
    and the shift (full-resolution pixels, template corner in the patch) where it peaks.

    Many templates: one product of all windows with all templates; a few: OpenCV's matching (the same
    correlation, per-channel means taken out) saves normalising every window."""
    small = _shrunk(patch.astype(np.float32), k)
    n = len(only) if only is not None else len(_small_templates(k, even))
    if n <= MATCH_ONE_BY_ONE:
        temps = _small_templates(k, even)
        maps = [cv2.matchTemplate(small, t, cv2.TM_CCOEFF_NORMED)
                for t in (temps if only is None else temps[only])]
        peaks = [cv2.minMaxLoc(m)[1::2] for m in maps]  # (best, where)
        return np.array([p[0] for p in peaks], np.float32), np.array([p[1] for p in peaks], np.float32) * k
    temps = _coarse_templates(k, even)
    if only is not None:
        temps = temps[only]
    side = (SIDE - 2 * INNER) // k
    windows = np.lib.stride_tricks.sliding_window_view(small, (side, side, 3))[:, :, 0]
    ny, nx = windows.shape[:2]
    corr = _unit_rows(windows.reshape(ny * nx, side, side, 3)) @ temps.T
    best = corr.argmax(axis=0)
    where = np.stack([best % nx, best // nx], axis=1).astype(np.float32) * k
    return corr.max(axis=0), where


def coarse_score(patch: np.ndarray) -> float:
    """How well a cell patch matches its best catalogue tile at a quick first look."""
    return float(_scores(patch, k=QUICK)[0].max())


def _align(patch: np.ndarray, template: np.ndarray, loc: np.ndarray, seen: np.ndarray | None) -> np.ndarray:
    """Rigid warp (ECC) taking template pixels onto the patch, from offset ``loc``: small features (a person,
    a flag) only line up once a tile's slight turn and the lattice error are undone. ``seen`` (uint8, patch
    pixels not hidden by a token) limits it to what the photo shows. Turn and shift only: a template without
    the features of the tile shown (a plain straight) can pull a freer warp askew."""
    warp = np.array([[1, 0, loc[0]], [0, 1, loc[1]]], np.float32)
    g_t = cv2.cvtColor(template, cv2.COLOR_BGR2GRAY)
    g_p = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    with contextlib.suppress(cv2.error):  # no convergence: keep the coarse offset
        _, warp = cv2.findTransformECC(g_t, g_p, warp, cv2.MOTION_EUCLIDEAN,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 10, 1e-3), seen, 3)
    return warp


@lru_cache(maxsize=2)
def _unit_templates(even: bool) -> np.ndarray:
    return _unit_rows(references(even).templates)


def _correlate(patch: np.ndarray, warp: np.ndarray, seen: np.ndarray | None, which: np.ndarray,
               slide: int = 0, even: bool = False) -> np.ndarray:
    """Correlation of the patch, warped onto the template frame, with the templates ``which`` (indices),
    over the pixels the photo shows; with ``slide``, the best over shifts of up to that many pixels (a
    plain template leaves the warp loose along its path; not where a token hides pixels)."""
    temps = references(even).templates
    h, w = temps.shape[1:3]
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    if slide and seen is None:
        around = warp.copy()
        around[:, 2] -= slide * (warp[:, 0] + warp[:, 1])  # the frame grown by ``slide`` pixels all round
        wide = cv2.warpAffine(patch, around, (w + 2 * slide, h + 2 * slide), flags=flags,
                              borderMode=cv2.BORDER_REPLICATE)
        return np.array([float(cv2.matchTemplate(wide, temps[i], cv2.TM_CCOEFF_NORMED).max()) for i in which])
    aligned = cv2.warpAffine(patch, warp, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    keep = None if seen is None else cv2.warpAffine(seen, warp, (w, h), flags=flags) > 0
    if keep is None or keep.all() or keep.sum() < 0.3 * keep.size:
        return _unit_templates(even)[which] @ _unit_rows(aligned[None]).ravel()
    b = temps[which][:, keep]
    return _unit_rows(b[:, :, None]).reshape(len(b), -1) @ _unit_rows(aligned[keep][None, :, None]).ravel()


@lru_cache(maxsize=1)
def _alike_groups() -> list[np.ndarray]:
    """For each reference, the references (indices) with its pathways (a straight's every tile in both turns
    that run the same way): they differ only in figures, trees, flags."""
    refs = references()
    shapes = [(m[0], m[2]) for m in (meaning(*key) for key in refs.keys)]
    groups: dict[tuple, list[int]] = {}
    for i, shape in enumerate(shapes):
        groups.setdefault(shape, []).append(i)
    arrays = {shape: np.array(members) for shape, members in groups.items()}
    return [arrays[shape] for shape in shapes]


def _look_alikes(ref: int) -> np.ndarray:
    return _alike_groups()[ref]


@dataclass
class _Look:
    """One cell's comparison in progress: references tried (indices), their best correlations, the offsets
    to align them from, and the alignments made for them on their own."""

    patch: np.ndarray
    seen: np.ndarray | None
    tried: list[int]
    fine: np.ndarray
    start: dict[int, np.ndarray]
    warps: dict[int, np.ndarray]
    even: bool  # patch and references :func:`evened`

    def own(self, pos: int) -> np.ndarray:
        ref = self.tried[pos]
        if ref not in self.warps:
            self.warps[ref] = _align(self.patch, references(self.even).templates[ref], self.start[ref], self.seen)
        return self.warps[ref]

    def rescore(self, pos: int) -> None:
        """The reference at ``pos`` scored under its own alignment (kept if better)."""
        own = float(_correlate(self.patch, self.own(pos), self.seen, np.array(self.tried[pos:pos + 1]), SLIDE,
                               self.even)[0])
        self.fine[pos] = max(self.fine[pos], own)


def read_tile(patch: np.ndarray, hidden: np.ndarray | None = None, even: bool = False) -> TileRead:
    """The catalogue tile and rotation a cell patch shows; ``hidden`` (bool) marks pixels under a token; with
    ``even``, the patch and the references are compared :func:`evened`.

    A quick look at quarter resolution shortlists ``SHORTLIST`` references, a look at half resolution finds
    the likeliest and its offset; the patch is aligned to it and correlated with the whole shortlist, those
    close to the best again with a little slide. The best and its closest rival of another meaning are each
    scored under their own alignment. A tie left between look-alikes, or a best whose figures the photo does
    not show: the likeliest with the best's pathways (``LOOK_ALIKES`` by each look) are aligned on their own
    (a plain straight aligns loosely along its path, and the figures of the tile shown then miss their places
    in every other template)."""
    refs = references(even)
    patch = evened(patch.astype(np.float32)) if even else patch.astype(np.float32)
    seen = None if hidden is None or not hidden.any() else (~hidden).astype(np.uint8) * 255
    short = np.argsort(-_scores(patch, k=QUICK, even=even)[0])[:SHORTLIST]
    coarse, where = _scores(patch, only=short[:LOOK_AGAIN], even=even)
    first = int(np.argmax(coarse))
    start = {int(r): where[i] if i < LOOK_AGAIN else where[first] for i, r in enumerate(short)}
    warp = _align(patch, refs.templates[short[first]], where[first], seen)
    fine = _correlate(patch, warp, seen, short, even=even)
    near = np.nonzero(fine >= fine.max() - SLIDE_WITHIN)[0]
    fine[near] = np.maximum(fine[near], _correlate(patch, warp, seen, short[near], SLIDE, even))
    look = _Look(patch, seen, [int(r) for r in short], fine, start, {int(short[first]): warp}, even)
    # look-alikes neck and neck at half resolution: each aligned on its own (figures only line up so)
    seen_meanings = {meaning(*refs.keys[short[first]])}
    for i in np.argsort(-coarse):
        m = meaning(*refs.keys[short[i]])
        if coarse[first] - coarse[i] < HALF_CLOSE and m not in seen_meanings and len(look.warps) <= HALF_RIVALS:
            seen_meanings.add(m)
            look.rescore(int(i))
    read, best, strict = _decide(look)
    if read.margin < DOUBT_MARGIN or not strict or not _features_shown(look, best):
        alike = _look_alikes(best)
        half, offsets = _scores(patch, only=alike, even=even)
        quick = _scores(patch, k=QUICK, only=alike, even=even)[0]  # each look misses a few that the other ranks high
        for j in dict.fromkeys([*np.argsort(-quick)[:LOOK_ALIKES], *np.argsort(-half)[:LOOK_ALIKES]]):
            ref = int(alike[j])
            if ref not in look.tried:
                look.tried.append(ref)
                look.fine = np.append(look.fine, -1.0)
                look.start[ref] = offsets[j]
            if ref not in look.warps:
                look.rescore(look.tried.index(ref))
        read = _decide(look)[0]
    return read


def _features_shown(look: _Look, best: int) -> bool:
    """Whether the photo shows what tells reference ``best`` from its likeliest look-alike of another meaning
    tried, when that one is not close (a tile misaligned by its look-alike's figures can win by far over
    rivals aligned no better)."""
    refs = references()
    alike = set(_look_alikes(best).tolist())
    own = meaning(*refs.keys[best])
    others = [i for i, r in enumerate(look.tried) if r in alike and meaning(*refs.keys[r]) != own]
    if not others:
        return True
    rival = max(others, key=lambda i: look.fine[i])
    if look.fine[look.tried.index(best)] - look.fine[rival] < RIVAL_CLOSE:
        return True  # a close rival: its details were compared already
    return _details(look.patch, best, look.own(look.tried.index(best)), look.tried[rival], look.seen,
                    look.even) >= DETAIL_MIN


def _decide(look: _Look) -> tuple[TileRead, int, bool]:
    """The best reference of ``look`` and its margin over the best of another meaning, the two each scored
    under their own alignment first; the best's index; and whether its details correlate with the photo's
    where each close rival differs (:func:`_details`; plain grass is only told by :func:`_nearer`, weak details
    by beating the rival's own)."""
    refs = references()
    mean = [meaning(*refs.keys[r]) for r in look.tried]
    fine = look.fine
    while True:
        order = [int(i) for i in np.argsort(-fine)]
        rival = next((i for i in order[1:] if mean[i] != mean[order[0]]), None)
        todo = [i for i in (order[0], rival) if i is not None and look.tried[i] not in look.warps]
        if not todo or (look.tried[order[0]] in look.warps and fine[order[0]] - fine[rival] >= RIVAL_CLOSE):
            break
        look.rescore(todo[0])
    rivals = [i for i in order[1:] if mean[i] != mean[order[0]] and fine[order[0]] - fine[i] < RIVAL_CLOSE]
    top_ref = look.tried[order[0]]
    close = rivals[:DETAIL_RIVALS]
    warp = look.own(order[0])
    mine = {i: _details(look.patch, top_ref, warp, look.tried[i], look.seen, look.even) for i in close}
    strict = all(mine[i] >= DETAIL_MIN for i in close)

    def beats(i: int) -> bool:
        """Whether the best shows more print than rival ``i`` where they differ and its details there correlate
        clearly better with the photo than the rival's own do (under its own alignment): figures blurred or
        shaded correlate weakly, yet far better than figures that are not there. Not the other way round:
        blur wipes figures out, so a plainer best proves nothing."""
        rival = look.tried[i]
        return _busier(top_ref, rival, look.even) and \
            mine[i] - _details(look.patch, rival, look.own(i), top_ref, look.seen, look.even) >= DETAIL_GAP

    # the photo shows the best's details where each close rival differs
    shown = strict or all(mine[i] >= DETAIL_MIN or _nearer(look.patch, top_ref, warp, look.tried[i], look.seen,
                                                           look.even) or beats(i) for i in close)
    best = refs.keys[top_ref]
    alts: list[tuple[str, int, float]] = []
    for i in order[1:]:
        key = refs.keys[look.tried[i]]
        if mean[i] != mean[order[0]] and all(a[:2] != key for a in alts):
            alts.append((key[0], key[1], float(fine[i])))
    top = float(fine[order[0]])
    other = alts[0][2] if alts else -1.0
    # the best's figures plainly shown where the runner-up has none: confirmed (never the other way round, as
    # for ``beats``: a plain best's grass correlates with faint figures too)
    confirmed = shown and bool(close) and _busier(top_ref, look.tried[close[0]], look.even) and \
        mine[close[0]] >= DETAIL_SURE
    # a close rival whose own details the photo matches no worse: as good as a tie
    return (TileRead(best[0], best[1], top, top - other if shown else 0.0, tuple(alts[:3]), confirmed), top_ref,
            strict)


def _where_differ(patch: np.ndarray, best: int, best_warp: np.ndarray, rival: int,
                  seen: np.ndarray | None, even: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """The patch under ``best_warp`` and where references ``best`` and ``rival`` differ (a figure, a tree, a
    flag: what tells look-alikes apart) in what the photo shows; None when too little differs."""
    temps = references(even).templates
    h, w = temps.shape[1:3]
    differ = (np.abs(temps[best] - temps[rival]).sum(axis=2) > DETAIL_DIFF).astype(np.uint8)
    differ = cv2.dilate(differ, np.ones((3, 3), np.uint8)) > 0
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    aligned = cv2.warpAffine(patch, best_warp, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    if seen is not None:
        differ &= cv2.warpAffine(seen, best_warp, (w, h), flags=flags) > 0
    return None if differ.sum() < DETAIL_PIXELS else (aligned, differ)


@lru_cache(maxsize=4096)
def _busier(best: int, rival: int, even: bool = False) -> bool:
    """Whether reference ``best`` varies more than ``rival`` where the two differ (it has the figures there)."""
    temps = references(even).templates
    differ = np.abs(temps[best] - temps[rival]).sum(axis=2) > DETAIL_DIFF
    return bool(differ.any()) and float(temps[best][differ].std(axis=0).sum()) > float(temps[rival][differ].std(axis=0).sum())


def _details(patch: np.ndarray, best: int, best_warp: np.ndarray, rival: int, seen: np.ndarray | None,
             even: bool = False) -> float:
    """Correlation of the patch, under ``best_warp``, with reference ``best`` where it differs from ``rival``
    (1 when too little differs)."""
    found = _where_differ(patch, best, best_warp, rival, seen, even)
    if found is None:
        return 1.0  # nothing to tell them apart by here
    aligned, differ = found
    best_there = references(even).templates[best][differ]
    return float((_unit_rows(aligned[differ][None, :, None]) @ _unit_rows(best_there[None, :, None]).T)[0, 0])


def _nearer(patch: np.ndarray, best: int, best_warp: np.ndarray, rival: int, seen: np.ndarray | None,
            even: bool = False) -> bool:
    """Whether the patch, under ``best_warp``, is far nearer to reference ``best`` than to ``rival`` where they
    differ (``DETAIL_NEARER``; each image standardised per channel over the whole tile): plain grass where
    the rival has a figure has no pattern to correlate with, yet it is plainly not the figure."""
    found = _where_differ(patch, best, best_warp, rival, seen, even)
    if found is None:
        return True
    aligned, differ = found

    def standard(img: np.ndarray) -> np.ndarray:
        return ((img - img.mean(axis=(0, 1))) / np.maximum(img.std(axis=(0, 1)), 1.0))[differ]

    temps = references(even).templates
    shown = standard(aligned)
    return float(((shown - standard(temps[best])) ** 2).sum()) < \
        DETAIL_NEARER * float(((shown - standard(temps[rival])) ** 2).sum())


@lru_cache(maxsize=1)
def _disc_templates() -> tuple[np.ndarray, np.ndarray]:
    """The entrance facing each way at half resolution: rows zero-mean (per channel) over its disc, zero off
    it, of unit length (n, h w 3); and the discs (n, h w)."""
    refs = references()
    discs = np.stack([_shrunk(d, 2) >= 1.0 for d in refs.disc]).astype(np.float32)  # wholly on the disc
    arts = np.stack([_shrunk(a, 2) for a in refs.entrance])
    on = discs[..., None]
    mean = (arts * on).sum(axis=(1, 2), keepdims=True) / on.sum(axis=(1, 2), keepdims=True)
    rows = ((arts - mean) * on).reshape(len(arts), -1)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True), discs.reshape(len(discs), -1)


def warm_up() -> None:
    """Build the tile references and the templates made from them that a scan reads against (a batch does this
    before its workers fork: they share them)."""
    for even in (False, True):
        _unit_templates(even)
        for k in (QUICK, 2):
            _coarse_templates(k, even)
    _disc_templates()
    _alike_groups()


def entrance_score(patch: np.ndarray) -> tuple[float, str]:
    """How well a cell shows the entrance quarter disc, and its facing: correlation over the disc alone (at
    half resolution, over all shifts). Off the disc lies the table, of any colour and often as light as the
    paving: counting it would make a bright table's entrance look unlike the art, and a gap between tiles
    (dark tile edges around a light table) look like it.

    Each window's correlation with a template that is zero-mean on its disc and zero off it is a plain dot
    product over the norm of the window's own deviation on the disc: all windows with all facings at once."""
    rows, discs = _disc_templates()
    side = int(round(np.sqrt(discs.shape[1])))
    small = _shrunk(patch.astype(np.float32), 2)
    windows = np.lib.stride_tricks.sliding_window_view(small, (side, side, 3))[:, :, 0].reshape(-1, side * side, 3)
    spread = np.zeros((len(windows), len(discs)), np.float32)
    for c in range(3):
        ch = windows[:, :, c]
        spread += (ch * ch) @ discs.T - (ch @ discs.T) ** 2 / discs.sum(axis=1)
    corr = (windows.reshape(len(windows), -1) @ rows.T) / np.sqrt(np.maximum(spread, 1.0))
    best = corr.max(axis=0)
    k = int(np.argmax(best))
    return float(best[k]), ("SE", "SW", "NW", "NE")[k]

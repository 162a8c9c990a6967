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
from functools import lru_cache

import cv2
import numpy as np

from fixtures.art.minigolf.pieces import entrance_image
from fixtures.art.minigolf.tiles import tile_image
from rules.minigolf.catalogue import ROTATIONS, TILES, rotate_edge

SIDE = 48  # reference side in pixels (one tile)
SHIFT = 6  # search +- pixels around the lattice position
FINE = 10  # best coarse candidates aligned finely (affine) and scored again
TILE_SHARE = 60.0 / 61.5  # a tile's side as a share of the lattice pitch (tiles lie with small gaps)
INNER = 2  # reference border left out (rounded corners, neighbours' shadows)
UNKNOWN_BELOW = 0.6  # best correlation under this: not a tile we know (right reads: 1st percentile 0.88;
# cells of bare table reach 0.53; 680 reads on 16 synthetic photos)
DOUBT_MARGIN = 0.015  # best minus best of another meaning under this: flag (1st percentile of right reads)


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


@lru_cache(maxsize=1)
def references() -> References:
    keys, temps = [], []
    for tile_id in sorted(TILES):
        base = _shrink(tile_image(tile_id, 0, 2.0), SIDE)
        for rot in ROTATIONS:
            keys.append((tile_id, rot))
            temps.append(np.rot90(base, k=-(rot // 90))[INNER:SIDE - INNER, INNER:SIDE - INNER])
    ent = []
    for facing in ("SE", "SW", "NW", "NE"):
        art = entrance_image(2.0, facing=facing)
        alpha = art[..., 3:4].astype(np.float32) / 255.0
        flat = art[..., :3] * alpha + 127.0 * (1 - alpha)  # off the disc: a neutral table
        ent.append(_shrink(flat.astype(np.uint8), SIDE)[INNER:SIDE - INNER, INNER:SIDE - INNER])
    return References(keys, np.ascontiguousarray(np.stack(temps)), np.stack(ent))


def cut_cell(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The cell's tile (``TILE_SHARE`` of the cell, centred) plus ``SHIFT`` pixels around it, upright."""
    centre = quad.mean(axis=0)
    k = TILE_SHARE * (SIDE + 2 * SHIFT) / SIDE
    src = centre + (quad - centre) * k
    n = SIDE + 2 * SHIFT
    m = cv2.getPerspectiveTransform(src.astype(np.float32), np.float32([[0, 0], [n, 0], [n, n], [0, n]]))
    return cv2.warpPerspective(image, m, (n, n), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


@dataclass(frozen=True)
class TileRead:
    tile: str
    rotation: int
    score: float
    margin: float  # over the best reference with another scoring meaning
    alternatives: tuple[tuple[str, int, float], ...]


def _unit_rows(x: np.ndarray) -> np.ndarray:
    """Rows of (n, h, w, 3) as zero-mean (per channel) unit vectors: correlation becomes a dot product."""
    x = x - x.mean(axis=(1, 2), keepdims=True)
    flat = x.reshape(len(x), -1)
    return flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-6)


def _half(x: np.ndarray) -> np.ndarray:
    return cv2.resize(x, (x.shape[1] // 2, x.shape[0] // 2), interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=4)
def _coarse_templates(which: str) -> np.ndarray:
    temps = references().templates if which == "tiles" else references().entrance
    return _unit_rows(np.stack([_half(t) for t in temps])).astype(np.float32)


def _scores(patch: np.ndarray, which: str = "tiles") -> tuple[np.ndarray, np.ndarray]:
    """Best correlation of each template over all shifts (at half resolution: a quick first look), and
    the shift (full-resolution pixels, template corner in the patch) where it peaks."""
    temps = _coarse_templates(which)
    small = _half(patch.astype(np.float32))
    side = (SIDE - 2 * INNER) // 2
    windows = np.lib.stride_tricks.sliding_window_view(small, (side, side, 3))[:, :, 0]
    ny, nx = windows.shape[:2]
    corr = _unit_rows(windows.reshape(ny * nx, side, side, 3)) @ temps.T
    best = corr.argmax(axis=0)
    where = np.stack([best % nx, best // nx], axis=1).astype(np.float32) * 2
    return corr.max(axis=0), where


def coarse_score(patch: np.ndarray) -> float:
    """How well a cell patch matches its best catalogue tile at first look."""
    return float(_scores(patch.astype(np.float32))[0].max())


def _fine(patch: np.ndarray, template: np.ndarray, loc: np.ndarray, seen: np.ndarray | None) -> float:
    """Correlation after aligning the patch to the template by an affine warp (ECC), from offset ``loc``:
    small features (a person, a flag) only line up once a tile's slight turn and the lattice error are undone.
    ``seen`` (uint8, patch pixels not hidden by a token) limits both steps to what the photo shows."""
    warp = np.array([[1, 0, loc[0]], [0, 1, loc[1]]], np.float32)
    g_t = cv2.cvtColor(template, cv2.COLOR_BGR2GRAY)
    g_p = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    with contextlib.suppress(cv2.error):  # no convergence: keep the coarse offset
        _, warp = cv2.findTransformECC(g_t, g_p, warp, cv2.MOTION_AFFINE,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4), seen, 3)
    h, w = template.shape[:2]
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    aligned = cv2.warpAffine(patch, warp, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    keep = np.ones((h, w), bool) if seen is None else cv2.warpAffine(seen, warp, (w, h), flags=flags) > 0
    if keep.sum() < 0.3 * keep.size:
        keep[:] = True
    a, b = aligned[keep], template[keep]
    a = a - a.mean(axis=0)
    b = b - b.mean(axis=0)
    return float((a * b).sum() / max(np.sqrt((a * a).sum() * (b * b).sum()), 1e-6))


def read_tile(patch: np.ndarray, hidden: np.ndarray | None = None) -> TileRead:
    """The catalogue tile and rotation a cell patch shows; ``hidden`` (bool) marks pixels under a token."""
    refs = references()
    patch = patch.astype(np.float32)
    seen = None if hidden is None or not hidden.any() else (~hidden).astype(np.uint8) * 255
    coarse, where = _scores(patch)
    top = np.argsort(-coarse)[:FINE]
    fine = {int(i): _fine(patch, refs.templates[i], where[i], seen) for i in top}
    order = sorted(fine, key=lambda i: -fine[i])
    best = refs.keys[order[0]]
    best_meaning = meaning(*best)
    alts: list[tuple[str, int, float]] = []
    for i in order[1:]:
        key = refs.keys[i]
        if meaning(*key) != best_meaning and all(a[:2] != key for a in alts):
            alts.append((key[0], key[1], fine[i]))
    other = alts[0][2] if alts else -1.0
    return TileRead(best[0], best[1], fine[order[0]], fine[order[0]] - other, tuple(alts[:3]))


def entrance_score(patch: np.ndarray) -> tuple[float, str]:
    """How well a cell shows the entrance quarter disc, and its facing."""
    scores, _ = _scores(patch, "entrance")
    k = int(np.argmax(scores))
    return float(scores[k]), ("SE", "SW", "NW", "NE")[k]

"""Gnoming A Round scanner: a photo of the players' 3 x 3 grids at the end of a round -> a round's board.

Stages: find every card by its framed panel (``scanner.cards``), rectify it, read its face by matching it
against the card art (upright and upside down: the better one also says which way the card faces), then
group the cards into grids (edge neighbours in the card's own axes) and number rows and columns as the
grid's owner sees them (the cards' common upright direction). A card whose best match is weak, or
hardly better than the runner-up, is read as ``unknown`` and flagged (thresholds from the score
statistics of correct reads, see READ_MIN / MARGIN_MIN). Template matching beat reading the printed
number with tesseract on synthetic photos (see :mod:`scanner.games.gnoming.ocr`).

The grids are named Player 1, 2, ... counter-clockwise around the table from the bottom of the photo.
Setup (optional) is a partial board laid over the read one, e.g. ``{"rounds": [{"went_out_first":
"Player 2"}]}``; read from it here: who went out first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import permutations
from typing import Any

import cv2
import numpy as np

from fixtures.art.gnoming import CARD_MM, DEFAULT_STYLE, FACES, render_face
from scanner.cards import CardSpec, FoundCard, Templates, find_cards, rectify_card
from scanner.debug import Debug
from scanner.errors import ScanError
from scanner.types import Read, ScanResult

GAME = "gnoming-a-round"
SPEC = CardSpec(CARD_MM, DEFAULT_STYLE.border_mm)
WORK_PIXELS = 3_000_000  # a 12 MP photo decodes at half size: a card is still 45-90 px wide
READ_PX_PER_MM = 2.0
# compare inside the panel (the frame width varies between printings), and the centre value on its own
REGIONS = {(5.0, 5.0, 58.0, 83.0): 1.0, (8.0, 20.0, 55.0, 56.0): 2.0}
# Rejection rule, from the statistics of correct reads on synthetic photos of all presets (568 cards,
# all read right): score 0.93 +- 0.06, lowest 0.66; margin over the runner-up at least 0.03. A read
# scoring below mean - 5 sd, or beating the runner-up by less than half the lowest margin seen, is
# "unknown" and flagged rather than guessed. Read at 2 px/mm from 12 MP photos decoded at half size the
# reads hold (phone: 864 cards, all right, score 0.96 +- 0.02, lowest 0.80, margin at least 0.045; hard:
# 195 cards, all right, lowest score 0.68, margin at least 0.047).
READ_MIN = 0.6
MARGIN_MIN = 0.015
NOT_A_CARD = 0.3  # a framed shape matching no face even this well is something else (a box lid, a pad)
GRID_CARDS = 9  # a player's grid, 3 x 3
MIN_GRID = 5  # fewer cards together are a discard pile or strays, not a grid
CARD_SIZED = (0.6, 1.6)  # panel area against its neighbours' in a grid: a card's, seen in perspective


@lru_cache(maxsize=1)
def templates() -> Templates:
    faces = {f: np.ascontiguousarray(render_face(f, DEFAULT_STYLE, READ_PX_PER_MM)[..., 2::-1]) for f in FACES}
    return Templates.build(faces, READ_PX_PER_MM, REGIONS)


def warm_up() -> None:
    """Build the card templates a scan reads against (a batch does this before its workers fork: they share them)."""
    templates()


def face_scores(tpl: Templates, card_image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per face (FACES order): its best match score (upright or turned) and whether it was turned."""
    scores, _ = tpl.scores(card_image)
    return scores.max(axis=1), scores.argmax(axis=1)


@dataclass(frozen=True)
class CardRead:
    card: FoundCard  # corners turned so that TL..TR is the card's top edge as printed
    face: str  # "unknown" when rejected
    score: float
    margin: float
    alternatives: tuple[tuple[str, float], ...]

    @property
    def trusted(self) -> bool:
        return self.face != "unknown"


def read_card(image: np.ndarray, card: FoundCard, tpl: Templates | None = None) -> CardRead:
    """Match one card against every face, both ways up; reject weak or ambiguous matches. A card read
    badly is read again with its other sides as the short ones (a steep view can make a card's short side
    look the longer one), and the better reading kept."""
    tpl = tpl or templates()
    read = _read_as_found(image, card, tpl)
    if read.trusted:
        return read
    other = _read_as_found(image, card.quarter_turned(SPEC), tpl)
    return other if other.score > read.score else read


def _read_as_found(image: np.ndarray, card: FoundCard, tpl: Templates) -> CardRead:
    best, turned = face_scores(tpl, rectify_card(image, card, SPEC, tpl.px_per_mm).image)
    order = np.argsort(-best)
    face = FACES[order[0]]
    margin = float(best[order[0]] - best[order[1]])
    oriented = card.turned() if turned[order[0]] else card
    alts = tuple((FACES[i], round(float(best[i]), 3)) for i in order[1:3])
    ok = best[order[0]] >= READ_MIN and margin >= MARGIN_MIN
    return CardRead(oriented, face if ok else "unknown", float(best[order[0]]), margin,
                    ((face, round(float(best[order[0]]), 3)),) + alts if not ok else alts)


def neighbour_matrix(reads: list[CardRead]) -> np.ndarray:
    """(n, n) bool: card j is an edge neighbour of card i in a grid (side by side or one above the other),
    in i's own axes. The displacement is solved in card widths and heights (the sides are not square in
    a photo taken at a slant, hence a solve, not projections)."""
    corners = np.array([r.card.corners for r in reads], np.float64)
    centres = corners.mean(axis=1)
    axes = np.stack([corners[:, 1] - corners[:, 0], corners[:, 3] - corners[:, 0]], axis=2)  # columns
    d = centres[None, :, :] - centres[:, None, :]
    dx, dy = np.abs(np.einsum("iab,ijb->ija", np.linalg.inv(axes), d)).transpose(2, 0, 1)
    return (dx < 1.2) & (dy < 0.3) | (dx < 0.3) & (dy < 1.15)


def group_cards(reads: list[CardRead]) -> list[list[CardRead]]:
    """Cards joined by chains of edge neighbours, largest group first. Only well-read cards join groups
    together: a card read as unknown joins the one group its neighbours belong to if it is the size of a card
    there, and stays alone between two (a face-down card between two players' grids must not merge them)
    or if larger or smaller (a cup's rim beside a grid is no card of it)."""
    parent = list(range(len(reads)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    near = neighbour_matrix(reads) if reads else np.zeros((0, 0), bool)
    near |= near.T
    trusted = np.array([r.trusted for r in reads], bool)
    for i, j in zip(*np.nonzero(near & trusted[:, None] & trusted[None, :]), strict=True):
        parent[root(int(i))] = root(int(j))
    area = np.array([r.card.area_px for r in reads])
    for i in np.nonzero(~trusted)[0]:
        mates = np.nonzero(near[i] & trusted)[0]
        groups = {root(int(j)) for j in mates}
        if len(groups) == 1 and CARD_SIZED[0] < area[i] / np.median(area[mates]) < CARD_SIZED[1]:
            parent[root(int(i))] = groups.pop()
    groups: dict[int, list[CardRead]] = {}
    for i, r in enumerate(reads):
        groups.setdefault(root(i), []).append(r)
    return sorted(groups.values(), key=len, reverse=True)


@dataclass(frozen=True)
class GridRead:
    cells: dict[tuple[int, int], CardRead]  # (row, col) -> card, as the owner sees the grid
    problems: tuple[str, ...]
    centre: np.ndarray


def _up(read: CardRead) -> np.ndarray:
    c = read.card.corners
    v = (c[0] + c[1]) / 2 - (c[2] + c[3]) / 2
    return v / np.linalg.norm(v)


def _window(index: np.ndarray, trusted: np.ndarray) -> np.ndarray:
    """Shift lattice indices so that the three rows (or columns) holding the most well-read cards are
    0..2: a stray shape beside a grid does not push the grid's own cards out of it."""
    best = max(range(max(1, index.max() - 1)), key=lambda o: (trusted & (index >= o) & (index <= o + 2)).sum())
    return index - best


def arrange(group: list[CardRead]) -> GridRead:
    """Rows and columns of a group: the cards' common upright direction decides which way is up."""
    weights = np.array([max(r.margin, 0.01) if r.trusted else 0.01 for r in group])
    up = (np.array([_up(r) for r in group]) * weights[:, None]).sum(axis=0)
    # every card's sides, turned to the grid's majority way up; their mean spans the grid's lattice
    sides = []
    for r in group:
        c = r.card.corners
        flip = 1.0 if (c[1] - c[0] + c[2] - c[3]) @ np.array([-up[1], up[0]]) > 0 else -1.0
        sides.append(flip * np.array([c[1] - c[0], c[3] - c[0]]))
    basis = np.mean(sides, axis=0).T  # columns: one card width across, one card height down
    centres = np.array([r.card.centre for r in group])
    u, v = np.linalg.solve(basis, (centres - centres.mean(axis=0)).T)
    trusted = np.array([r.trusted for r in group])
    cols = _window(np.round((u - u.min()) / 1.05).astype(int), trusted)  # a card and a gap of a few mm
    rows = _window(np.round((v - v.min()) / 1.04).astype(int), trusted)
    cells: dict[tuple[int, int], CardRead] = {}
    problems = []
    for r, c, read in zip(rows, cols, group, strict=True):
        if not (0 <= r <= 2 and 0 <= c <= 2):
            problems.append(f"a card{'' if read.trusted else '-like shape'} lies outside the 3 x 3 grid, "
                            f"read as {read.face}")
        elif (r, c) in cells:
            problems.append(f"two cards at row {r + 1} col {c + 1}")
        else:
            cells[(int(r), int(c))] = read
    return GridRead(cells, tuple(problems), centres.mean(axis=0))


def _seating(grids: list[GridRead]) -> list[GridRead]:
    """Counter-clockwise around the table as the photo shows it, starting from its bottom."""
    middle = np.mean([g.centre for g in grids], axis=0)

    def turn(g: GridRead) -> float:  # 0 at the bottom (image y grows downwards), then right, top, left
        dx, dy = g.centre - middle
        return (90.0 - np.degrees(np.arctan2(dy, dx))) % 360.0

    return sorted(grids, key=turn)


def scan(image: np.ndarray, setup: dict[str, Any] | None = None, debug: Debug | None = None) -> ScanResult:
    """Read one round: every grid in the photo."""
    setup = setup or {}
    found = photo_cards(image)
    if not found:
        raise ScanError("no cards found in the photo (Gnoming A Round cards: a white frame around a coloured panel)")
    tpl = templates()
    reads = [r for r in (read_card(image, card, tpl) for card in found) if r.score >= NOT_A_CARD]
    # Judged among the card-like things only: a checked tablecloth offers scores of card-sized squares.
    if sum(r.trusted for r in reads) < 0.5 * max(len(reads), 1):
        raise ScanError(f"{len(found)} cards found, but most do not look like Gnoming A Round cards: wrong game?")
    groups = group_cards(reads)
    grids = [arrange(g) for g in groups if len(g) >= MIN_GRID]
    strays = [r for g in groups if len(g) < MIN_GRID for r in g]
    if not grids:
        raise ScanError(f"{len(reads)} cards found but no 3 x 3 grid among them")
    grids = _seating(grids)
    names = [f"Player {k + 1}" for k in range(len(grids))]
    warnings = []
    faceless = sum(not r.trusted for r in strays)
    if faceless:
        warnings.append(f"{faceless} card-like shape(s) outside any grid ignored (face-down cards?)")
    board_grids: dict[str, list[list[str]]] = {}
    all_reads: list[Read] = []
    for name, grid in zip(names, grids, strict=True):
        faces = [["unknown"] * 3 for _ in range(3)]
        for r in range(3):
            for c in range(3):
                where = f"rounds[0].grids.{name}[{r}][{c}]"
                read = grid.cells.get((r, c))
                if read is None:
                    all_reads.append(Read(where, "unknown", 0.0, True, note="no card found here: missing or covered"))
                    continue
                faces[r][c] = read.face
                note = "" if read.trusted else "card not recognised: check it"
                all_reads.append(Read(where, read.face, read.score, not read.trusted, read.card.corners,
                                      read.alternatives, note))
        for problem in grid.problems:
            all_reads.append(Read(f"rounds[0].grids.{name}", None, 0.0, True, note=problem))
        board_grids[name] = faces
    for read in strays:  # a grid seen only in part (its other cards not found) must not pass unnoticed
        if read.trusted:
            all_reads.append(Read("rounds[0].grids", read.face, read.score, True, read.card.corners, (),
                                  "a card outside any grid (a discard pile, or a grid not found whole?): check"))
    rnd: dict[str, Any] = {"grids": board_grids}
    out_first = (setup.get("rounds") or [{}])[0].get("went_out_first")
    if out_first in board_grids:
        rnd["went_out_first"] = out_first
    elif out_first is not None:
        warnings.append(f"setup says {out_first!r} went out first, but the grids are {', '.join(board_grids)}")
    board = {"format": "golfscan/gnoming-a-round", "version": 1, "rounds": [rnd],
             "source": {"scanner": GAME, "cards_found": len(reads)},
             "review": [r.review_entry() for r in all_reads if r.flagged]}
    result = ScanResult(GAME, board, all_reads, partial(draw_overlay, image, all_reads, grids, names), warnings)
    if debug is not None:
        debug.add("cards", result.overlay)
    return result


def draw_overlay(image: np.ndarray, reads: list[Read], grids: list[GridRead], names: list[str]) -> np.ndarray:
    """Each card outlined (green read, red flagged) with its face; each grid named."""
    out = image.copy()
    t = max(2, image.shape[1] // 600)
    for read in reads:
        if read.polygon is None:
            continue
        colour = (0, 0, 255) if read.flagged else (0, 200, 0)
        cv2.polylines(out, [np.round(read.polygon).astype(np.int32)], True, colour, t, cv2.LINE_AA)
        cv2.putText(out, str(read.value), tuple(np.round(read.polygon.mean(axis=0)).astype(int)),
                    cv2.FONT_HERSHEY_SIMPLEX, t * 0.6, colour, t, cv2.LINE_AA)
    for name, grid in zip(names, grids, strict=True):
        cv2.putText(out, name, tuple(np.round(grid.centre).astype(int)), cv2.FONT_HERSHEY_SIMPLEX, t, (255, 0, 255),
                    t * 2, cv2.LINE_AA)
    return out


def photo_cards(image: np.ndarray) -> list[FoundCard]:
    """The cards found in a photo (the search, done once, is shared with the likelihood: ``scanner.cards``)."""
    return find_cards(image, SPEC, GRID_CARDS)  # fewer found: not even one grid, look harder


def likelihood(image: np.ndarray) -> float:
    """How much the photo looks like Gnoming grids: the share of card-like shapes that read as our faces,
    and enough of them for a grid. Cards that read as ours are looked for harder when too few were found
    (a dim table); another card game's photo is spared that second search."""
    try:
        found = find_cards(image, SPEC)
        if not found:
            return 0.0
        sample = found[:12]
        tpl = templates()
        share = sum(read_card(image, c, tpl).trusted for c in sample) / len(sample)
        if share and len(found) < GRID_CARDS:
            found = photo_cards(image)
    except ScanError:
        return 0.0
    return float(share * min(1.0, len(found) / GRID_CARDS))


def compare(truth_board: dict[str, Any], read_board: dict[str, Any]) -> dict[str, Any]:
    """Card-by-card comparison of a read round with the truth; grids are paired to agree best (the names
    of a read need not be the players')."""
    truth_grids = list(truth_board["rounds"][0]["grids"].values())
    read_grids = list(read_board["rounds"][0]["grids"].values())
    size = max(len(truth_grids), len(read_grids))
    blank = [["missing"] * 3 for _ in range(3)]
    truth_grids += [blank] * (size - len(truth_grids))
    read_grids += [blank] * (size - len(read_grids))

    def wrong(a: list[list[str]], b: list[list[str]]) -> int:
        return sum(a[r][c] != b[r][c] for r in range(3) for c in range(3))

    if size <= 7:
        best = min(permutations(range(size)), key=lambda p: sum(wrong(truth_grids[i], read_grids[j])
                                                                 for i, j in enumerate(p)))
    else:
        best = tuple(range(size))
    per_grid = [wrong(truth_grids[i], read_grids[j]) for i, j in enumerate(best)]
    real = len(truth_board["rounds"][0]["grids"])
    return {"cards": 9 * real, "cards_wrong": sum(per_grid[:real]) + 9 * sum(1 for g in per_grid[real:] if g),
            "grids": real, "grids_exact": sum(g == 0 for g in per_grid[:real]), "exact": sum(per_grid) == 0}


def bench_setup(truth: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """For ``golfscan bench``: a photo shows neither the players' names nor who went out first, so
    nothing is given and scores are compared without the going-out bonus, totals as a set."""
    board = truth["board"]
    rounds = [{k: v for k, v in r.items() if k != "went_out_first"} for r in board["rounds"]]
    return {}, {**board, "rounds": rounds}

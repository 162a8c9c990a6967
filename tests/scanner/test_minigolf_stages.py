"""Minigolf Designer scanner stages on small drawn images: a green table, tiles laid off their cells, a token
face run into a flag, look-alike tiles, the entrance on tables of any colour."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from fixtures.art.minigolf.pieces import entrance_image
from scanner.errors import ScanError
from scanner.games.minigolf import ENTRANCE_MIN, doubtful
from scanner.games.minigolf.colour import (
    GRASS_BGR,
    TABLE_BAND,
    balance,
    course_masks,
    green_table,
    white_gains,
)
from scanner.games.minigolf.lattice import TILE_SHARE, Lattice, boundary_lines, boundary_quad, cell_offsets
from scanner.games.minigolf.match import (
    DOUBT_MARGIN,
    INNER,
    SHIFT,
    SIDE,
    entrance_score,
    meaning,
    read_tile,
    references,
)
from scanner.games.minigolf.tokens import FACE, PX, find_faces

PATH_BGR = (52, 74, 181)  # printed pathway
DATA = Path(__file__).parent / "data"


def _course_on(table_bgr: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A grass rectangle crossed by pathways on a table of the given colour, and where the course is."""
    rng = np.random.default_rng(0)
    img = np.empty((300, 400, 3), np.float64)
    img[:] = table_bgr
    course = np.zeros(img.shape[:2], bool)
    course[90:210, 120:300] = True
    img[course] = GRASS_BGR
    img[140:160, 120:300] = PATH_BGR
    img[90:210, 200:215] = PATH_BGR
    img += rng.normal(0, 4, img.shape)
    return img.clip(0, 255).astype(np.uint8), course


def test_on_a_green_table_only_the_printed_grass_counts():
    img, course = _course_on((45, 100, 34))  # a green cloth as photographed (BGR)
    balanced = balance(img, white_gains(img))
    band = green_table(balanced)
    assert band is not None
    grass = course_masks(balanced, band).grass
    assert grass[course].mean() > 0.6 and grass[~course].mean() < 0.02
    assert course_masks(balanced, None).grass[~course].mean() > 0.9  # without it the cloth would be grass


def test_a_green_cloth_near_the_printed_hue_is_told_from_the_tiles():
    img, course = _course_on((56, 102, 40))  # the lit part of the cloth: within the usual band of tile grass
    shade = ~course & (np.arange(img.shape[1]) < 150)
    img[shade] = (60, 100, 34)  # its shaded part: a little further off
    balanced = balance(img, white_gains(img))
    band = green_table(balanced)
    assert band is not None and band < TABLE_BAND
    grass = course_masks(balanced, band).grass
    assert grass[course].mean() > 0.6 and grass[~course].mean() < 0.02


def test_the_course_outline_is_found_with_cloth_and_clutter_touching_it():
    region = np.zeros((500, 600), np.uint8)
    corners = np.array([[150, 80], [480, 140], [430, 420], [100, 360]], np.float64)  # a turned course
    cv2.fillPoly(region, [corners.astype(np.int32)], 1)
    for t in np.linspace(0.1, 0.9, 6):  # squares of a checked cloth against two sides
        for a, b in ((corners[1], corners[2]), (corners[3], corners[0])):
            x, y = (a + t * (b - a)).astype(int)
            region[y - 7:y + 7, x - 7:x + 7] = 1
    x, y = ((corners[2] + corners[3]) / 2).astype(int)
    region[y:y + 45, x - 8:x + 8] = 1  # a green figure standing against the course
    assert np.abs(boundary_quad(region.astype(bool)) - corners).max() < 2


def test_the_course_outline_is_found_with_a_side_frayed_by_glare():
    # a course's area from a phone photo: glare took the grass off the outer tiles of one side
    region = cv2.imread(str(DATA / "minigolf-region-glare-side.png"), cv2.IMREAD_GRAYSCALE) > 127
    with pytest.raises(ScanError):
        boundary_lines(region)  # no straight line along the frayed side
    quad = boundary_quad(region)
    inside = np.zeros(region.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 1)
    assert (region & (inside == 0)).sum() < 0.01 * region.sum()  # the lattice rectangle holds the course
    contours, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.contourArea(cv2.convexHull(max(contours, key=cv2.contourArea)))
    assert inside.sum() < 1.05 * hull  # and no more


def test_the_course_outline_is_found_on_a_steeply_seen_course():
    # seen steeply and turned, a course's far side is much shorter and its long sides converge by 29 degrees
    region = np.zeros((540, 640), np.uint8)
    corners = np.array([[220, 20], [410, 20], [540, 500], [100, 500]], np.float64)
    cv2.fillPoly(region, [corners.astype(np.int32)], 1)
    with pytest.raises(ScanError):
        boundary_lines(region.astype(bool))  # the lines of a nearly square view do not reach the other side
    assert np.abs(boundary_quad(region.astype(bool)) - corners).max() < 2


def test_a_brown_table_is_no_green_table():
    img, _ = _course_on((40, 70, 120))
    assert green_table(balance(img, white_gains(img))) is None


def test_the_white_balance_comes_from_the_course_on_a_large_check_cloth():
    rng = np.random.default_rng(2)
    img = np.full((600, 800, 3), (235, 240, 240), np.float64)  # white stripes between green checks
    for y in range(0, 600, 200):
        for x in range(0, 800, 200):
            if (y, x) != (200, 400):  # each check larger than the course; one left out for it
                img[y:y + 160, x:x + 160] = (45, 100, 34)
    img[240:320, 430:530] = GRASS_BGR  # the course as printed
    img[272:288, 430:530] = PATH_BGR
    img += rng.normal(0, 4, img.shape)
    gains = white_gains(img.clip(0, 255).astype(np.uint8))
    assert gains == pytest.approx(np.ones(3), abs=0.1)


def test_cell_offsets_find_a_tile_laid_off_its_cell():
    px = 100.0
    h = np.array([[px, 0, 50], [0, px, 50], [0, 0, 1]])  # lattice -> pixels: 100 per tile, 50 px margin
    lattice = Lattice(h, 3, 3)
    art = np.zeros((400, 400), bool)
    side = TILE_SHARE * px
    for r in range(3):
        for c in range(3):
            if (r, c) == (1, 2):
                continue  # no tile here: the middle one's right edge is the course border
            dx = 15 if (r, c) == (1, 1) else 0  # the middle tile lies 15 px (0.15 tile) to the right
            x0, y0 = 50 + c * px + (px - side) / 2 + dx, 50 + r * px + (px - side) / 2
            art[int(round(y0)):int(round(y0 + side)), int(round(x0)):int(round(x0 + side))] = True
    shift = cell_offsets(lattice, art)
    assert shift.shape == (5, 5, 2)
    assert shift[2, 2] == pytest.approx((0.15, 0.0), abs=0.03)
    laid = [(r, c) for r in range(3) for c in range(3) if (r, c) not in ((1, 1), (1, 2))]
    assert max(np.abs(shift[r + 1, c + 1]).max() for r, c in laid) < 0.03


def test_token_faces_are_found_under_tinted_light_and_run_into_a_flag():
    flat = np.full((4 * PX, 5 * PX, 3), (60, 140, 70), np.uint8)
    r = int(round(FACE * PX))
    faces = [(100, 100), (200, 150)]
    for (x, y), white in zip(faces, [(255, 255, 255), (210, 140, 195)], strict=True):  # white; lavender, dim
        cv2.circle(flat, (x, y), int(1.39 * r), (40, 40, 200), -1)  # the player-coloured rim
        cv2.circle(flat, (x, y), r, white, -1)
        cv2.putText(flat, "8", (x - 4, y + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (30, 30, 30), 2)  # the digit
    cv2.rectangle(flat, (100 + r - 2, 97), (100 + r + 20, 103), (255, 255, 255), -1)  # a white flag touching it
    cv2.rectangle(flat, (170, 40), (210, 50), (255, 255, 255), -1)  # a white sign
    flat[:, 4 * PX:] = 255  # a white table beside the course
    hole = (3 * PX + 32, PX + 32)  # a checked cloth seen through a hole in the course: a white square framed in red
    flat[PX:2 * PX, 3 * PX:4 * PX] = (40, 40, 200)
    flat[hole[1] - 7:hole[1] + 8, hole[0] - 7:hole[0] + 8] = 255
    grass = (flat == (60, 140, 70)).all(axis=2)
    found = find_faces(flat, (2, 3), grass)
    for x, y in faces:  # each face among the spots (reading its digit tells it from the flag and the sign)
        assert min(np.hypot(fx - x, fy - y) for fx, fy in found) < 3
    assert all(fx < 4 * PX for fx, _ in found)  # nothing on the table beyond the tiles
    assert min(np.hypot(fx - hole[0], fy - hole[1]) for fx, fy in find_faces(flat, (2, 3))) < 3  # face-like ...
    assert min(np.hypot(fx - hole[0], fy - hole[1]) for fx, fy in found) > PX / 4  # ... but off the tiles


def _cell(template: np.ndarray) -> np.ndarray:
    """A reference as a cell patch: the tile with its border and the search margin around it."""
    m = SHIFT + INNER
    return cv2.copyMakeBorder(template, m, m, m, m, cv2.BORDER_REPLICATE)


def test_a_look_alike_whose_details_hardly_show_is_a_doubt():
    refs = references()
    trees = refs.templates[refs.keys.index(("st04", 0))]  # a straight with two trees
    plain = refs.templates[refs.keys.index(("st01", 0))]  # the same straight without
    clear = read_tile(_cell(trees))
    assert (clear.tile, doubtful(clear)) == ("st04", False)
    faded = read_tile(_cell(_worn(0.5 * trees + 0.5 * plain, 0.5, 6)))  # trees half washed out, photo grain
    assert doubtful(faded)


def _worn(template: np.ndarray, blur: float, noise: float) -> np.ndarray:
    """A reference as a soft, noisy photo shows it."""
    grain = np.random.default_rng(0).normal(0, noise, template.shape)
    return (cv2.GaussianBlur(template, (0, 0), blur) + grain).astype(np.float32)


def test_soft_details_that_beat_the_look_alikes_own_are_no_doubt():
    refs = references()
    soft = read_tile(_cell(_worn(refs.templates[refs.keys.index(("co07", 90))], 1.5, 8)))
    assert (soft.tile, soft.rotation, doubtful(soft)) == ("co07", 90, False)
    # figures blurred away: read as the plain look-alike, and that stays a doubt
    blurred = read_tile(_cell(_worn(refs.templates[refs.keys.index(("st07", 90))], 1.5, 8)))
    assert blurred.tile != "st07" and doubtful(blurred)


def test_small_figures_plainly_shown_are_no_doubt_however_close_the_plain_look_alike():
    """A person and a dog on a straight move the whole-tile score little over the plain straight, yet a soft
    photo still shows them plainly: read right and not flagged; blurred further, they are gone and it is."""
    template = references().templates[references().keys.index(("st07", 0))]
    soft = read_tile(_cell(_worn(template, 1.0, 4)))
    assert (soft.tile, soft.rotation) == ("st07", 0) and soft.margin < DOUBT_MARGIN
    assert soft.confirmed and not doubtful(soft)
    washed = read_tile(_cell(_worn(template, 1.2, 8)))
    assert not washed.confirmed and doubtful(washed)


def _on_table(table_bgr: tuple[int, int, int], facing: str | None) -> np.ndarray:
    """A cell patch of table (with the entrance disc facing ``facing`` on it, or a gap between tiles)."""
    side = SIDE + 2 * SHIFT
    patch = np.empty((side, side, 3), np.float32)
    patch[:] = table_bgr
    if facing is None:  # a gap: the edges of the tiles on three sides show at the patch's border
        patch[:, :SHIFT + INNER] = GRASS_BGR
        patch[:, -SHIFT - INNER:] = GRASS_BGR
        patch[-SHIFT - INNER:] = GRASS_BGR
    else:
        art = entrance_image(SIDE / 60.0, facing=facing)  # 60 mm tiles at SIDE pixels
        rgb = cv2.cvtColor(art[..., :3], cv2.COLOR_RGB2BGR).astype(np.float32)
        alpha = art[..., 3:].astype(np.float32) / 255
        h = art.shape[0]
        patch[SHIFT:SHIFT + h, SHIFT:SHIFT + h] = rgb * alpha + patch[SHIFT:SHIFT + h, SHIFT:SHIFT + h] * (1 - alpha)
    noise = np.random.default_rng(1).normal(0, 3, patch.shape)
    return (patch + noise).clip(0, 255).astype(np.uint8)


@pytest.mark.parametrize("table", [(235, 240, 245), (120, 125, 130), (40, 70, 120)])
def test_the_entrance_is_known_on_any_table_and_a_gap_is_not(table):
    score, facing = entrance_score(_on_table(table, "NW"))
    assert (facing, score > ENTRANCE_MIN) == ("NW", True)
    assert entrance_score(_on_table(table, None))[0] < ENTRANCE_MIN


@pytest.mark.parametrize(("name", "tile", "rotation"), [("st06-90", "st06", 90), ("st13-0", "st13", 0),
                                                         ("st10-180", "st10", 180)])
def test_a_straight_with_figures_is_not_read_as_a_look_alike(name, tile, rotation):
    """Cells cut from synthetic phone photos where the straight lies off its cell along its path: aligned
    to a plain straight (or one with other figures), the figures shown missed every template's."""
    cell = cv2.imread(str(DATA / f"minigolf-cell-{name}.png"))
    read = read_tile(cell)
    assert meaning(read.tile, read.rotation) == meaning(tile, rotation)
    assert not doubtful(read)


def test_plain_grass_where_a_look_alike_has_a_figure_is_no_doubt():
    refs = references()
    slope = refs.templates[refs.keys.index(("st05", 0))]  # pn04 is this tile with a dog beside the path
    cell = cv2.GaussianBlur(_cell(slope), (0, 0), 1.2)  # a soft photo: grass shows no pattern to correlate
    cell = cell + np.random.default_rng(0).normal(0, 4, cell.shape)
    read = read_tile(cell.clip(0, 255).astype(np.float32))
    assert (read.tile, doubtful(read)) == ("st05", False)

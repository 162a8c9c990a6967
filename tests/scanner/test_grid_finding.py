"""Finding a printed grid: on busy backgrounds (floor boards, stripes, a checked cloth), with pale lines under
heavy pen strokes, with perspective left over, and the trust put in the lattice found; counts that make
square squares, and the shape of a sheet seen at a slant."""

from __future__ import annotations

import itertools
from functools import partial

import cv2
import numpy as np
import pytest
from paths import REPO

from scanner import grid
from scanner.errors import ScanError
from scanner.grid import PLAUSIBLE, _Axis, _choose_counts, _drawing_counts, find_lattice
from scanner.load import load_photo
from scanner.locate import _grid_web, _Web, enclosed_cells, find_grid_quad
from scanner.rectify import PHONE_HFOV, rectangle_aspect

GRID = (200, 150, 500, 450)  # left, top, right, bottom of a 10 x 10 grid on the test photos


def paper_with_grid(photo: np.ndarray, rows: int = 10, cols: int = 10, line: int = 90) -> np.ndarray:
    """A sheet of paper on ``photo`` with a printed grid of thin lines of grey level ``line``."""
    x0, y0, x1, y1 = GRID
    cv2.rectangle(photo, (x0 - 60, y0 - 60), (x1 + 60, y1 + 90), (232, 232, 232), -1)
    for k in range(rows + 1):
        y = round(y0 + k * (y1 - y0) / rows)
        cv2.line(photo, (x0, y), (x1, y), (line, line, line), 1)
    for k in range(cols + 1):
        x = round(x0 + k * (x1 - x0) / cols)
        cv2.line(photo, (x, y0), (x, y1), (line, line, line), 1)
    return photo


def stripes(shape: tuple[int, int], period: int, width: int) -> np.ndarray:
    """Dark diagonal stripes, stronger than the grid's lines, over the whole photo."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w]
    dark = ((xx + yy) % period) < width
    photo = np.full((h, w, 3), 200, np.uint8)
    photo[dark] = 20
    return photo


def checks(shape: tuple[int, int], period: int) -> np.ndarray:
    """A checked cloth: dark squares where both the row and column bands are dark, half tone where one is."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w]
    band = (((yy // period) % 2) + ((xx // period) % 2)).astype(np.uint8)
    photo = np.stack([250 - 90 * band] * 3, axis=2).astype(np.uint8)
    photo[..., 2] = 250  # yellow and white: the dark is in the blue and green channels
    return photo


def corners_close(found: np.ndarray, tolerance: float = 6.0) -> bool:
    x0, y0, x1, y1 = GRID
    return bool(np.abs(found - [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).max() < tolerance)


@pytest.mark.parametrize("background", ["boards", "stripes", "checks"])
def test_grid_is_found_on_a_busy_background(background):
    shape = (700, 800)
    photo = {"boards": lambda: stripes(shape, 60, 3), "stripes": lambda: stripes(shape, 12, 6),
             "checks": lambda: checks(shape, 9)}[background]()
    found = find_grid_quad(paper_with_grid(photo))
    assert corners_close(found.corners)


def test_a_grid_on_its_sheet_wins_over_a_patch_of_checked_cloth_with_more_cells():
    photo = np.full((700, 800, 3), (80, 95, 110), np.uint8)  # a wooden table
    photo[40:660, 20:330] = (235, 225, 215)  # a napkin with fine blue checks, lying apart from the sheet
    for k in range(30, 330, 12):
        cv2.line(photo, (k, 40), (k, 659), (140, 60, 20), 2)
    for k in range(40, 660, 12):
        cv2.line(photo, (20, k), (329, k), (140, 60, 20), 2)
    found = find_grid_quad(paper_with_grid(photo))
    assert corners_close(found.corners)


def test_parallel_lines_enclose_no_cells_and_a_lattice_encloses_its_squares():
    board = np.zeros((100, 100), np.uint8)
    for x in range(5, 100, 20):
        board[:, x] = 1
    assert enclosed_cells(board)[0] == 0
    lattice = np.zeros((101, 101), np.uint8)
    lattice[::20, :] = 1
    lattice[:, ::20] = 1
    cells, area = enclosed_cells(lattice)
    assert cells == 25 and area == pytest.approx(25 * 20 * 20, rel=0.1)  # traced along the lines


@pytest.mark.parametrize("seed", range(5))
def test_a_webs_rim_has_the_hull_of_all_its_pixels(seed):
    rng = np.random.default_rng(seed)
    mask = np.zeros((60, 80), np.uint8)
    for _ in range(6):  # strokes in all directions, with gaps and holes between them
        x0, y0, x1, y1 = (int(v) for v in rng.integers(0, 60, 4))
        cv2.line(mask, (x0 + 10, y0), (x1 + 10, y1), 1, int(rng.integers(1, 4)))
    web = _Web(mask, (7, 3), int(mask.sum()), 0, False, False, 0.0)
    ys, xs = np.nonzero(mask)
    every = np.stack([xs + 7, ys + 3], axis=1).astype(np.float32)
    assert len(web.rim()) < len(every)

    def hull(points):
        return sorted(map(tuple, cv2.convexHull(points).reshape(-1, 2).tolist()))

    assert hull(web.rim()) == hull(every)


def rectified_plan(rows: int, cols: int, pitch: float, line: int, pen: int, seed: int = 3,
                   taper: float = 1.0) -> np.ndarray:
    """A rectified grid (48 px margin) of pale lines, with heavy pen strokes across many of its squares;
    ``taper`` spreads the lines unevenly (the last gap that many times the first), as an outline found a
    little off leaves them."""
    h, w = round(rows * pitch) + 96, round(cols * pitch) + 96
    img = np.full((h, w, 3), 228, np.uint8)

    def spaced(n: int) -> np.ndarray:
        gaps = np.geomspace(1.0, taper, n)
        return 48 + np.concatenate([[0.0], np.cumsum(gaps)]) * (n * pitch / gaps.sum())

    ys, xs = spaced(rows), spaced(cols)
    for y in ys:
        cv2.line(img, (48, round(y)), (w - 48, round(y)), (line, line, line), 1)
    for x in xs:
        cv2.line(img, (round(x), 48), (round(x), h - 48), (line, line, line), 1)
    rng = np.random.default_rng(seed)
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.6:  # water: three heavy wavy strokes along the square
                for k in (0.3, 0.5, 0.7):
                    y = ys[r] + k * (ys[r + 1] - ys[r])
                    pts = np.array([[xs[c] + t * (xs[c + 1] - xs[c]), y + 3 * np.sin(t * 12)]
                                    for t in np.linspace(0.15, 0.85, 12)], np.int32)
                    cv2.polylines(img, [pts], False, (pen, pen, pen), 3)
    return img


@pytest.mark.parametrize(("rows", "cols"), [(10, 12), (8, 8), (11, 9)])
def test_pale_lines_under_heavy_pen_are_counted(rows, cols):
    pitch = 560 / max(rows, cols)
    img = rectified_plan(rows, cols, pitch, line=200, pen=30)
    lattice = find_lattice(img, (48, 48, 48 + cols * pitch, 48 + rows * pitch), rows / cols)
    assert (lattice.rows, lattice.cols) == (rows, cols)
    assert lattice.line_support > 0.8


def test_lines_spread_unevenly_by_perspective_are_counted():
    img = rectified_plan(10, 10, 64, line=120, pen=60, taper=1.08)
    lattice = find_lattice(img, (48, 48, 688, 688), 1.0)
    assert (lattice.rows, lattice.cols) == (10, 10)
    assert lattice.line_support > 0.9


def test_lines_left_slanted_by_an_outline_a_little_off_are_counted():
    # outline corners up to 2% of the grid's side off (a tilted sheet's curl, a thick table edge beside it):
    # the pen strokes' short straight runs beside the pale slanted lines must not be counted as lines
    counted = 0
    for (rows, cols), seed in itertools.product([(10, 10), (10, 12), (9, 11)], range(4)):
        pitch = 560 / max(rows, cols)
        img = rectified_plan(rows, cols, pitch, line=185, pen=30, seed=seed)
        right, bottom = 48 + cols * pitch, 48 + rows * pitch
        outline = np.float32([[48, 48], [right, 48], [right, bottom], [48, bottom]])
        off = outline + np.random.default_rng(seed).uniform(-12, 12, (4, 2)).astype(np.float32)
        slanted = cv2.warpPerspective(img, cv2.getPerspectiveTransform(outline, off), img.shape[1::-1],
                                      borderValue=(228, 228, 228))
        lattice = find_lattice(slanted, (48, 48, right, bottom), rows / cols)
        counted += (lattice.rows, lattice.cols) == (rows, cols)
    assert counted >= 11


def test_an_outline_off_the_grid_finds_little_line_support():
    img = rectified_plan(10, 10, 64, line=120, pen=60)
    right = find_lattice(img, (48, 48, 688, 688), 1.0)
    # an outline two and a half squares short on two sides, as a quadrilateral found wrongly leaves it
    skewed = cv2.warpPerspective(img, cv2.getPerspectiveTransform(
        np.float32([[48, 48], [688, 48], [688, 688], [48, 688]]),
        np.float32([[48, 48], [528, 48], [688, 688], [48, 528]])), img.shape[1::-1], borderValue=(228, 228, 228))
    wrong = find_lattice(skewed, (48, 48, 688, 688), 1.0)
    assert right.line_support > 0.9
    assert wrong.line_support < 0.7


def test_a_poorly_confirmed_grid_is_located_again_at_finer_detail(monkeypatch):
    from scanner.games import eighteen
    from scanner.locate import WORK_SIDE, GridQuad

    photo = paper_with_grid(np.full((700, 800, 3), 60, np.uint8), rows=10, cols=10, line=60)
    x0, y0, x1, y1 = GRID
    right = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    off = right + np.float32([[-75, -75], [0, 0], [0, 0], [0, 0]])  # a corner pulled out to other print
    sides = []

    def located(image, side=WORK_SIDE):
        sides.append(side)
        return GridQuad(off if side == WORK_SIDE else right, 1000, 0.2)

    monkeypatch.setattr(eighteen, "find_grid_quad", located)
    geo = eighteen.find_geometry(photo)
    assert sides == [WORK_SIDE, 2 * WORK_SIDE]
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert geo.lattice.line_support >= eighteen.GRID_SURE


def with_a_blacked_out_corner(photo: np.ndarray) -> np.ndarray:
    """A plan with squares blacked out in a staircase across its top-left corner, lines and all."""
    x0, y0, x1, y1 = GRID
    pitch = (x1 - x0) // 10
    for row, col in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)]:
        cv2.rectangle(photo, (x0 - 3 + pitch * col, y0 - 3 + pitch * row),
                      (x0 + pitch * (col + 1), y0 + pitch * (row + 1)), (20, 20, 20), -1)
    return photo


def test_a_corner_blacked_out_is_restored_from_the_sides_beside_it():
    found = find_grid_quad(with_a_blacked_out_corner(paper_with_grid(np.full((700, 800, 3), 60, np.uint8))))
    assert not corners_close(found.corners)  # the lines' outline cuts across the blacked-out corner
    assert found.cornered and corners_close(found.cornered[0])


def test_a_plan_with_a_blacked_out_corner_is_read_within_its_restored_outline(monkeypatch):
    from dataclasses import replace

    from scanner.games import eighteen

    photo = with_a_blacked_out_corner(paper_with_grid(np.full((700, 800, 3), 60, np.uint8)))
    geo = eighteen.find_geometry(photo)
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert corners_close(geo.rectified.to_photo(geo.lattice.corners()), 3.0)
    locate = eighteen.find_grid_quad
    monkeypatch.setattr(eighteen, "find_grid_quad", lambda image, *side: replace(locate(image, *side), cornered=()))
    assert eighteen.find_geometry(photo.copy()).lattice.rows != 10  # without the restored corner, neither detail finds it


def _axis(scores: dict[int, float]) -> _Axis:
    return _Axis(0.0, 640.0, scores)


# Comb scores measured on a plan of 11 x 10 squares whose rows' lines are pale under green shading: every
# few rows score better than all of them, while its columns are clear.
PALE_ROWS = {3: 0.177, 5: 0.092, 7: 0.17, 8: 0.155, 10: 0.091, 11: 0.095, 15: 0.119, 17: 0.141, 19: 0.146}
CLEAR_COLS = {2: 0.433, 6: 0.129, 8: 0.14, 10: 0.488, 12: 0.127}


def test_pale_rows_are_counted_so_that_the_squares_are_square():
    assert _choose_counts(_axis(PALE_ROWS), _axis(CLEAR_COLS), aspect=1.1) == (11, 10)


# Comb scores measured on a plan of 10 x 10 squares in pale pastel print: the middle row line, under a pen
# stroke along it, makes 2 rows score best, and 10 falls just short of plausible.
MIDDLE_HEAVY_ROWS = {2: 0.458, 8: 0.125, 10: 0.312, 12: 0.157, 13: 0.178, 16: 0.139}
PASTEL_COLS = {2: 0.495, 6: 0.137, 8: 0.231, 10: 0.55, 17: 0.122, 40: 0.18}


def test_a_multiple_of_a_plausible_count_that_finds_lines_wins():
    assert _choose_counts(_axis(MIDDLE_HEAVY_ROWS), _axis(PASTEL_COLS), aspect=1.0) == (10, 10)
    # a multiple whose comb misses half its lines does not
    missing = {**MIDDLE_HEAVY_ROWS, 10: 0.05}
    assert _choose_counts(_axis(missing), _axis(PASTEL_COLS), aspect=1.0) == (2, 2)


# Comb scores measured on a plan of 10 x 10 squares whose fairways' sides, a third of the way across their
# squares, make three times the count find lines too.
THIRDS_ROWS = {2: 0.437, 9: 0.25, 10: 0.439, 11: 0.228, 18: 0.247, 30: 0.281}
THIRDS_COLS = {2: 0.734, 6: 0.179, 10: 0.645, 16: 0.184, 18: 0.271, 30: 0.309}


def test_a_multiple_must_make_squares_with_a_plausible_count_of_the_other_axis():
    assert _choose_counts(_axis(THIRDS_ROWS), _axis(THIRDS_COLS), aspect=1.0) == (10, 10)


# Comb scores measured on a plan of 10 x 10 squares photographed with motion blur along its rows: their lines
# are all but gone, and the fairways' sides make 9 rows score best.
BLURRED_ROWS = {6: 0.113, 7: 0.091, 9: 0.224, 10: -0.034, 11: 0.017, 13: 0.092, 17: 0.104, 30: 0.107}
SHARP_COLS = {2: 0.729, 6: 0.219, 7: 0.101, 10: 0.73, 18: 0.113, 30: 0.229}


def test_an_axis_whose_lines_are_lost_takes_the_count_that_makes_squares():
    assert _choose_counts(_axis(BLURRED_ROWS), _axis(SHARP_COLS), aspect=1.0) == (10, 10)
    assert _choose_counts(_axis(SHARP_COLS), _axis(BLURRED_ROWS), aspect=1.0) == (10, 10)
    assert _choose_counts(_axis(BLURRED_ROWS), _axis(SHARP_COLS), aspect=1.2) == (12, 10)


# Comb scores measured on a plan of 10 x 10 squares whose column lines are all but washed out under a heavy
# drawing: no count of columns makes squares with the clear 10 rows, and of those that nearly do, 12 scores best.
CLEAR_ROWS = {2: 0.686, 6: 0.261, 8: 0.097, 9: 0.184, 10: 0.648, 13: 0.186, 14: 0.106, 17: 0.125, 18: 0.135,
              21: 0.097, 30: 0.269, 40: 0.098}
WASHED_COLS = {2: 0.092, 3: 0.117, 6: 0.252, 7: 0.311, 9: 0.124, 10: 0.094, 11: 0.14, 12: 0.132, 13: 0.11, 14: 0.159,
               15: 0.097, 17: 0.129, 18: 0.118, 19: 0.123, 21: 0.177, 30: 0.221}


def test_an_axis_whose_counts_make_squares_only_nearly_takes_the_count_that_makes_them():
    assert _choose_counts(_axis(CLEAR_ROWS), _axis(WASHED_COLS), aspect=0.99) == (10, 10)
    assert _choose_counts(_axis(WASHED_COLS), _axis(CLEAR_ROWS), aspect=1.01) == (10, 10)
    # a pair of counts the lines bear out that makes squares wins as before
    assert _choose_counts(_axis(CLEAR_ROWS), _axis(WASHED_COLS), aspect=0.83) == (10, 12)


def test_without_clear_lines_on_either_axis_the_plausible_counts_stand():
    faint_cols = {n: v / 5 for n, v in CLEAR_COLS.items()}  # cards or tiles that happen to line up
    rows, cols = _choose_counts(_axis(PALE_ROWS), _axis(faint_cols), aspect=1.1)
    assert PALE_ROWS[rows] >= PLAUSIBLE * max(PALE_ROWS.values())


def _seen(width: float, height: float, tilt_deg: float, turn_deg: float, image=(3000, 4000)) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of a width x height rectangle 3 units from a phone camera, tilted away by
    ``tilt_deg`` and turned in its plane by ``turn_deg``."""
    h, w = image
    f = (w / 2) / np.tan(np.deg2rad(PHONE_HFOV) / 2)
    t, a = np.deg2rad(tilt_deg), np.deg2rad(turn_deg)
    corners = []
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = x * width / 2, y * height / 2
        x, y = x * np.cos(a) - y * np.sin(a), x * np.sin(a) + y * np.cos(a)
        p = np.array([x, y * np.cos(t), 3.0 + y * np.sin(t)])
        corners.append([f * p[0] / p[2] + w / 2, f * p[1] / p[2] + h / 2])
    return np.float64(corners)


@pytest.mark.parametrize(("tilt", "turn"), [(0, 0), (35, 0), (35, 20), (25, -40)])
def test_a_slanted_sheet_shows_its_own_shape(tilt, turn):
    corners = _seen(1.0, 1.1, tilt, turn)
    assert rectangle_aspect(corners, (3000, 4000)) == pytest.approx(1.1, rel=0.01)
    # the same photo at half size: the same shape
    assert rectangle_aspect(corners / 2, (1500, 2000)) == pytest.approx(1.1, rel=0.01)


def test_the_sides_alone_mislead_on_a_slanted_sheet():
    corners = _seen(1.0, 1.1, 35, 0)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    assert (sides[1] + sides[3]) / (sides[0] + sides[2]) < 1.0  # looks wider than tall


def test_a_view_too_oblique_to_tell_the_shape_leaves_the_count_to_the_lines():
    # a 10 x 10 plan's outline in a 12 MP photo, seen 34 degrees off and far from the photo's centre: its sides
    # look 0.68 as tall as wide, the perspective makes it 1.05; beyond MOST_CORRECTION neither is taken
    quad = np.float64([[1314, 2522], [2282, 1950], [2510, 2602], [1734, 3066]])
    assert rectangle_aspect(quad, (4000, 3000)) is None
    # its combs (measured): every second row line comes out fainter than the rest
    rows = _axis({2: 0.217, 4: 0.062, 5: 0.457, 9: 0.071, 10: 0.61, 11: 0.033})
    cols = _axis({2: 0.828, 5: 0.049, 6: 0.257, 9: 0.251, 10: 0.821})
    assert _choose_counts(rows, cols, None) == (10, 10)
    assert _choose_counts(rows, cols, 0.68) == (5, 10)  # the sides' ratio would have halved the rows


def _web(cells: int, edge: bool, level: float) -> _Web:
    return _Web(np.ones((1, 1), np.uint8), (0, 0), 1, cells, False, edge, level)


def test_a_cloths_faint_checks_running_off_the_photo_yield_to_the_plan_inside_it():
    cloth, plan = _web(305, edge=True, level=21.75), _web(104, edge=False, level=43.5)  # measured on a gingham cloth
    assert _grid_web([cloth, plan]) is plan


def test_a_plan_cut_by_the_photo_edge_stays_chosen_over_its_score_boxes():
    cut_plan, score_boxes = _web(50, edge=True, level=87.0), _web(18, edge=False, level=87.0)
    assert _grid_web([cut_plan, score_boxes]) is cut_plan


def test_a_cloths_checks_across_the_photo_are_background_beside_a_fainter_plan():
    photo = np.full((700, 800, 3), 200, np.uint8)
    cloth = photo[:, :130]  # a band of cloth checked with thin dark lines, from the top edge to the bottom
    cloth[::9], cloth[:, ::9] = 60, 60
    found = find_grid_quad(paper_with_grid(photo, line=150))
    assert corners_close(found.corners)


def test_a_sheets_bold_score_boxes_do_not_outrank_a_faint_grid():
    photo = paper_with_grid(np.full((700, 800, 3), 200, np.uint8), rows=4, cols=4, line=150)
    for row in range(3):  # 2 x 20 boxes of 10 pixels below the grid: more cells, far too small to read
        cv2.line(photo, (210, 470 + 10 * row), (410, 470 + 10 * row), (40, 40, 40), 1)
    for col in range(21):
        cv2.line(photo, (210 + 10 * col, 470), (210 + 10 * col, 490), (40, 40, 40), 1)
    assert corners_close(find_grid_quad(photo).corners)


def test_a_small_sheet_on_a_dark_table_is_judged_by_its_own_lines():
    # a fine grid, a little blurred: at the faintest level its lines spread into the squares and enclose too
    # little paper; the dark table, most of the photo, holds no lines to set stronger levels by
    photo = np.full((700, 800, 3), 30, np.uint8)
    sheet = np.full((200, 180, 3), 232, np.uint8)
    for k in range(16):
        cv2.line(sheet, (30, 30 + 8 * k), (150, 30 + 8 * k), (60, 60, 60), 2)
        cv2.line(sheet, (30 + 8 * k, 30), (30 + 8 * k, 150), (60, 60, 60), 2)
    photo[400:600, 500:680] = cv2.GaussianBlur(sheet, (0, 0), 1.5)
    found = find_grid_quad(photo).corners
    assert np.abs(found - [[530, 430], [650, 430], [650, 550], [530, 550]]).max() < 3


@pytest.mark.parametrize(("rows", "cols"), [(10, 10), (9, 12), (11, 8), (7, 9)])
def test_squares_are_counted_from_the_drawing_when_the_printed_lines_are_lost(rows, cols):
    pitch = 560 / max(rows, cols)
    img = rectified_plan(rows, cols, pitch, line=228, pen=60)  # inner lines as light as the paper: washed out
    right, bottom = 48 + cols * pitch, 48 + rows * pitch
    cv2.rectangle(img, (48, 48), (round(right), round(bottom)), (40, 40, 40), 2)  # the outline still shows
    img = np.clip(img + np.random.default_rng(1).normal(0, 6, img.shape), 0, 255).astype(np.uint8)
    lattice = find_lattice(img, (48, 48, right, bottom), rows / cols)
    assert (lattice.rows, lattice.cols) == (rows, cols)
    assert lattice.line_support < 0.7  # counted, but no printed line bears the squares out


def fairways_along_rows(rows: int, cols: int, pitch: float) -> np.ndarray:
    """A rectified plan (48 px margin) whose inner lines are washed out, its outline still showing, and whose
    drawing runs along its rows: three heavy strokes across the whole width in the middle of every row (lakes
    drawn as waves all along it), and nothing that marks the columns."""
    right, bottom = 48 + cols * pitch, 48 + rows * pitch
    img = np.full((round(bottom) + 48, round(right) + 48, 3), 228, np.uint8)
    cv2.rectangle(img, (48, 48), (round(right), round(bottom)), (40, 40, 40), 2)
    for r in range(rows):
        for k in (0.35, 0.5, 0.65):
            xs = np.arange(56, right - 8, 2.0)
            ys = 48 + (r + k) * pitch + 3 * np.sin(xs / 5)
            cv2.polylines(img, [np.int32(np.column_stack([xs, ys]))], False, (60, 60, 60), 3)
    return np.clip(img + np.random.default_rng(2).normal(0, 6, img.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize(("rows", "cols"), [(10, 10), (8, 12)])
def test_lost_lines_are_counted_from_one_axis_of_the_drawing_and_the_squares_shape(rows, cols):
    pitch = 560 / max(rows, cols)
    img = fairways_along_rows(rows, cols, pitch)
    right, bottom = 48 + cols * pitch, 48 + rows * pitch
    lattice = find_lattice(img, (48, 48, right, bottom), rows / cols)
    assert (lattice.rows, lattice.cols) == (rows, cols)
    # the drawing turned a quarter (anticlockwise: x <- y, y <- width - x): its columns counted, its rows made square
    turned = np.ascontiguousarray(np.rot90(img))
    width = img.shape[1]
    lattice = find_lattice(turned, (48, width - right, bottom, width - 48), cols / rows)
    assert (lattice.rows, lattice.cols) == (cols, rows)


def test_one_axis_of_the_drawing_does_not_count_squares_of_unknown_shape():
    img = fairways_along_rows(10, 10, 56)
    inside = (slice(48, 608), slice(48, 608))
    outline = _Axis(48.0, 608.0, {})
    assert _drawing_counts(img, inside, outline, outline, None) is None
    assert _drawing_counts(img, inside, outline, outline, 1.0) == (10, 10)


def test_a_grid_running_off_the_photo_gives_way_to_a_well_confirmed_one_inside_it(monkeypatch):
    from scanner.games import eighteen
    from scanner.locate import WORK_SIDE, GridQuad

    photo = paper_with_grid(np.full((700, 800, 3), 60, np.uint8), rows=10, cols=10, line=60)
    x0, y0, x1, y1 = GRID
    right = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    off_edge = np.float32([[450, 300], [799, 300], [799, 699], [450, 699]])  # a checked cloth's larger web
    asked = []

    def located(image, side=WORK_SIDE, inside=False):
        asked.append(inside)
        return GridQuad(right if inside else off_edge, 1000, 0.2)

    monkeypatch.setattr(eighteen, "find_grid_quad", located)
    geo = eighteen.find_geometry(photo)
    assert asked == [False, True]
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert corners_close(geo.rectified.to_photo(geo.lattice.corners()), 3.0)
    # what the webs inside offer must be a well-confirmed grid on paper: here a patch of the table
    table = np.float32([[20, 20], [120, 20], [120, 120], [20, 120]])
    monkeypatch.setattr(eighteen, "find_grid_quad",
                        lambda image, side=WORK_SIDE, inside=False: GridQuad(table if inside else off_edge, 1000, 0.2))
    with pytest.raises(ScanError, match="edge of the photo"):
        eighteen.find_geometry(photo.copy())


def _nothing_near(image, corners):
    raise ScanError("no printed grid found (no large lattice of lines in the photo)")


def test_a_poorly_confirmed_outline_is_located_again_around_itself(monkeypatch):
    """An outline with a corner pulled off the grid is poorly confirmed, at the usual detail and at twice it:
    the grid is located again in the part of the photo around that outline, and its lattice kept."""
    from scanner.games import eighteen
    from scanner.locate import GridQuad

    photo = paper_with_grid(np.full((700, 800, 3), 60, np.uint8), rows=10, cols=10, line=60)
    x0, y0, x1, y1 = GRID
    right = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    pulled = right + np.float32([[0, 0], [0, 0], [0, 0], [40, -60]])  # the bottom-left corner drawn off
    monkeypatch.setattr(eighteen, "find_grid_quad", lambda image, *args, **kwargs: GridQuad(pulled, 1000, 0.2))
    near = []
    found = eighteen.find_grid_quad_near

    def located_near(image, corners):
        near.append(corners)
        return found(image, corners)

    monkeypatch.setattr(eighteen, "find_grid_quad_near", located_near)
    geo = eighteen.find_geometry(photo)
    assert len(near) == 1 and np.abs(near[0] - pulled).max() < 1e-3
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10) and geo.lattice.line_support >= eighteen.GRID_SURE
    assert corners_close(geo.rectified.to_photo(geo.lattice.corners()), 3.0)


def test_a_poorly_confirmed_outline_from_a_web_running_off_the_photo_gives_way_to_one_inside_it(monkeypatch):
    """A checked cloth's web runs off the photo with its outline just inside it, across the sheet: the webs
    clear of the photo's edge are looked at too, and the one the lines bear out wins."""
    from scanner.games import eighteen
    from scanner.locate import WORK_SIDE, GridQuad

    photo = paper_with_grid(np.full((700, 800, 3), 60, np.uint8), rows=10, cols=10, line=60)
    x0, y0, x1, y1 = GRID
    right = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    turn = np.radians(20)
    across = (right - right.mean(axis=0)) @ np.float32([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
    across = 0.8 * across + right.mean(axis=0)  # inside the photo, on the sheet, along none of its lines
    asked = []

    def located(image, side=WORK_SIDE, inside=False, edge=True):
        asked.append(inside)
        return GridQuad(right if inside else across, 1000, 0.2, edge=not inside and edge)

    monkeypatch.setattr(eighteen, "find_grid_quad", located)
    monkeypatch.setattr(eighteen, "find_grid_quad_near", _nothing_near)  # the webs inside are what is tested
    geo = eighteen.find_geometry(photo)
    assert asked[0] is False and asked[-1] is True
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert corners_close(geo.rectified.to_photo(geo.lattice.corners()), 3.0)
    # a web clear of the photo's edge is the best there is: nothing is looked for again among the same webs
    asked.clear()
    monkeypatch.setattr(eighteen, "find_grid_quad", partial(located, edge=False))
    assert eighteen.find_geometry(photo.copy()).lattice.line_support < eighteen.GRID_SURE
    assert True not in asked


def test_of_two_poorly_confirmed_counts_the_one_the_drawing_fits_is_kept(monkeypatch):
    """Lines too pale to place confirm a wrong count about as poorly as the right one; the drawing in the
    squares tells them apart. With nothing drawn, the lines' support decides."""
    from scanner.games import eighteen
    from scanner.grid import Lattice
    from scanner.rectify import Rectified

    def geometry(image, count, support):
        ticks = np.linspace(20, 620, count + 1)
        lattice = Lattice(np.stack(np.meshgrid(ticks, ticks), axis=-1), support)
        return eighteen.Geometry(Rectified(image, np.eye(3), 20, (600, 600)), lattice)

    drawn = np.full((640, 640, 3), 235, np.uint8)
    for r, c in itertools.product(range(10), repeat=2):
        if (r * 7 + c * 3) % 4:  # most squares drawn in, each in its middle
            cv2.circle(drawn, (50 + 60 * c, 50 + 60 * r), 15, (150, 60, 30), 3)
    blank = np.full_like(drawn, 235)
    for image in (drawn, blank):
        right, wrong = geometry(image, 10, 0.38), geometry(image, 6, 0.40)
        monkeypatch.setattr(eighteen, "_geometry", lambda image, quad, wrong=wrong: wrong)
        kept = eighteen._better_confirmed(right, lambda: None, image)
        assert kept is (right if image is drawn else wrong)


def test_webs_running_off_the_photo_can_be_left_out():
    photo = paper_with_grid(np.full((700, 800, 3), 60, np.uint8))[:, :420]  # the grid cut by the photo's edge
    assert find_grid_quad(photo).corners[:, 0].max() > 415
    with pytest.raises(ScanError):
        find_grid_quad(photo, inside=True)


def test_a_rule_of_the_sheets_print_joined_to_the_grid_is_left_out_of_its_restored_outline():
    photo = paper_with_grid(np.full((600, 700, 3), 120, np.uint8), line=40)
    x0, y0, x1, y1 = GRID
    cv2.line(photo, (x1, y0 + 10), (x1 + 50, y0 - 30), (40, 40, 40), 2)  # a pen stroke out to a title's rule
    cv2.line(photo, (x1 + 50, y0 - 55), (x1 + 50, y0 - 5), (40, 40, 40), 2)
    found = find_grid_quad(photo)
    grid = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    assert np.abs(found.corners - grid).max() > 30  # the web's outline runs out to the rule
    assert any(np.abs(quad - grid).max() < 3 for quad in found.cornered)


@pytest.mark.parametrize("corner", range(4))
def test_lines_that_drift_beyond_the_window_from_an_outline_corner_off_are_followed(corner):
    # one corner of the outline 0.4 of a square off: the lines near it lie further from their even positions
    # than a line is looked for, and were fitted where they should have been (0.2-0.36 of a square off)
    pitch = 56.0
    img = rectified_plan(10, 10, pitch, line=120, pen=60)
    side = 48 + 10 * pitch
    outline = np.float32([[48, 48], [side, 48], [side, side], [48, side]])
    off = outline.copy()
    off[corner] += np.float32([18, -14]) * (1 if corner % 2 else -1)
    drawn = cv2.getPerspectiveTransform(outline, off)
    photo = cv2.warpPerspective(img, drawn, img.shape[1::-1], borderValue=(228, 228, 228))
    lattice = find_lattice(photo, (48, 48, side, side), 1.0)
    even = 48 + pitch * np.arange(11)
    crossings = np.stack(np.meshgrid(even, even), axis=-1).reshape(-1, 1, 2).astype(np.float32)
    truth = cv2.perspectiveTransform(crossings, drawn).reshape(11, 11, 2)
    assert np.linalg.norm(lattice.points - truth, axis=2).max() < 0.05 * pitch


@pytest.mark.parametrize("corner", [(0, 0), (0, 9), (9, 9), (9, 0)])
def test_a_plan_with_one_corner_square_blacked_out_is_read_whole(corner):
    # the outline cuts across that square; its remaining lines once made a 3 x 3 lattice confirmed at 0.75 (top
    # left), or lines expected off the image (bottom right)
    from scanner.games import eighteen

    photo = paper_with_grid(np.full((700, 800, 3), 60, np.uint8))
    x0, y0, x1, y1 = GRID
    pitch = (x1 - x0) // 10
    row, col = corner  # filled over the grid's outer lines, up to the middle of its inner ones

    def span(k: int) -> tuple[int, int]:
        return pitch * k - (3 if k == 0 else 0), pitch * (k + 1) + (3 if k == 9 else 0)

    (left, right), (top, bottom) = span(col), span(row)
    cv2.rectangle(photo, (x0 + left, y0 + top), (x0 + right, y0 + bottom), (20, 20, 20), -1)
    geo = eighteen.find_geometry(photo)
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert corners_close(geo.rectified.to_photo(geo.lattice.corners()), 3.0)


def test_a_small_plan_shaded_heavily_is_found_at_twice_the_detail():
    # a phone photo (reduced to 1600 x 1200) of a plan a quarter of the photo wide, its fairways shaded in
    # pencil: at the usual scale the shading and the lines make one dark web that encloses too little paper
    from scanner.games import eighteen

    photo = load_photo(REPO / "tests" / "scanner" / "data" / "eighteen-small-shaded-plan.jpg").image
    with pytest.raises(ScanError):
        find_grid_quad(photo)
    geo = eighteen.find_geometry(photo)
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert geo.lattice.line_support >= eighteen.GRID_SURE
    truth = np.array([[449.4, 330.5], [777.3, 515.6], [583.5, 855.2], [262.0, 660.4]])  # clockwise from the found
    assert np.abs(geo.rectified.to_photo(geo.lattice.corners()) - truth).max() < 3


@pytest.mark.parametrize(("shrink", "support", "kept"), [(0.8, 0.90, 8), (0.8, 0.60, 6), (1.2, 0.90, 6)])
def test_an_outline_that_leaves_part_of_the_grid_out_is_tried_only_for_a_poorly_confirmed_lattice(
        monkeypatch, shrink, support, kept):
    # part of a plan can confirm its lines better than the whole (8 x 8 at 0.90, 8 x 6 of it at 0.95); an outline
    # that restores a cut corner, enclosing the one found, is tried whatever the first lattice's support
    from scanner.games import eighteen
    from scanner.grid import Lattice
    from scanner.locate import GridQuad
    from scanner.rectify import Rectified

    image = np.full((700, 700, 3), 235, np.uint8)  # paper
    found = np.float32([[100, 100], [600, 100], [600, 600], [100, 600]])
    other = (found - 350) * shrink + 350

    def geometry(image, quad):
        cols, share = (8, support) if np.array_equal(quad.corners, found) else (6, 0.95)
        points = np.stack(np.meshgrid(np.linspace(20, 620, cols + 1), np.linspace(20, 620, 9)), axis=-1)
        return eighteen.Geometry(Rectified(image, np.eye(3), 20, (600, 600)), Lattice(points, share))

    located = GridQuad(found, 1000, 0.5, cornered=(other,))
    monkeypatch.setattr(eighteen, "find_grid_quad", lambda image, *args, **kwargs: located)
    monkeypatch.setattr(eighteen, "_geometry", geometry)
    assert eighteen.find_geometry(image).lattice.cols == kept


@pytest.mark.parametrize("seen_on", [3, 8])
def test_a_line_seen_on_few_squares_only_stays_in_step_with_the_others(seen_on):
    # an inner row line lost from the print, a straight stroke (a fairway's edge) 0.14 of a square above it:
    # along three squares it must not pull the line to itself; a line found along most squares is followed
    pitch, lost = 64, 5
    img = np.full((10 * pitch + 96, 10 * pitch + 96, 3), 228, np.uint8)
    for k in range(11):
        at = 48 + k * pitch
        cv2.line(img, (at, 48), (at, 48 + 10 * pitch), (120, 120, 120), 1)
        if k != lost:
            cv2.line(img, (48, at), (48 + 10 * pitch, at), (120, 120, 120), 1)
    stroke = 48 + lost * pitch - 9
    cv2.line(img, (48 + 2 * pitch + 4, stroke), (48 + (2 + seen_on) * pitch - 4, stroke), (120, 120, 120), 1)
    lattice = find_lattice(img, (48, 48, 48 + 10 * pitch, 48 + 10 * pitch), 1.0)
    assert (lattice.rows, lattice.cols) == (10, 10)
    row = lattice.points[lost, :, 1]
    if seen_on == 3:
        assert np.abs(row - (48 + lost * pitch)).max() < 2
    else:
        assert np.abs(row[2:2 + seen_on] - stroke).max() < 2


@pytest.mark.parametrize(("share", "found"), [(0.018, True), (0.012, False)])
def test_a_grid_under_the_usual_least_share_of_the_photo_is_looked_for_when_no_larger_one_is_found(share, found):
    # a sheet seen from afar: its grid under 2% of the photo is read when no larger web is found and its lines
    # bear it out; a smaller one is still refused
    from scanner.games import eighteen

    photo = np.full((3000, 4000, 3), 70, np.uint8)  # 12 MP: its squares still over 40 pixels
    side = round(np.sqrt(share * photo.shape[0] * photo.shape[1]))
    x0, y0 = 1500, 1000
    cv2.rectangle(photo, (x0 - 100, y0 - 150), (x0 + side + 100, y0 + side + 200), (232, 232, 232), -1)
    for k in range(11):
        at = round(k * side / 10)
        cv2.line(photo, (x0, y0 + at), (x0 + side, y0 + at), (60, 60, 60), 4)
        cv2.line(photo, (x0 + at, y0), (x0 + at, y0 + side), (60, 60, 60), 4)
    photo = cv2.GaussianBlur(photo, (0, 0), 1.5)
    with pytest.raises(ScanError):
        find_grid_quad(photo)
    if not found:
        with pytest.raises(ScanError):
            eighteen.find_geometry(photo)
        return
    geo = eighteen.find_geometry(photo)
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert geo.lattice.line_support >= eighteen.GRID_SURE
    corners = np.float32([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]])
    assert np.abs(geo.rectified.to_photo(geo.lattice.corners()) - corners).max() < 4


def test_a_drawings_rhythm_that_makes_no_squares_leaves_the_count_to_the_lines():
    # blots in the middles of 8 rows x 4 columns of a square outline: cells twice as wide as tall, no count of
    # squares there (a plan seen turned, its pale lines counting 10 x 10, had its drawing's rhythm make 4 x 2)
    img = np.full((448, 448, 3), 235, np.uint8)
    for r, c in itertools.product(range(8), range(4)):
        cv2.circle(img, (24 + 100 * c + 50, 24 + 50 * r + 25), 12, (40, 40, 40), -1)
    rows, cols = _Axis(24.0, 424.0, {8: 0.1}), _Axis(24.0, 424.0, {4: 0.1})
    inside = (slice(24, 424), slice(24, 424))
    assert _drawing_counts(img, inside, rows, cols, 1.0) is None
    # an outline twice as tall as wide makes them squares
    assert _drawing_counts(img, inside, rows, cols, 2.0) == (8, 4)


def test_a_drawing_whose_rhythm_doubles_the_count_of_pale_lines_is_counted_by_the_lines():
    # a blurred phone photo's 10 x 10 plan, rectified (its outline at 48..688): its printed lines too pale to
    # count surely, its drawing's rings and shaded fairways' sides near a quarter and three quarters of each square
    img = cv2.imread(str(REPO / "tests" / "scanner" / "data" / "eighteen-doubled-rhythm-plan.jpg"))
    inside, outline = (slice(48, 688), slice(48, 688)), _Axis(48.0, 688.0, {})
    assert _drawing_counts(img, inside, outline, outline, 1.0) == (20, 20)
    lattice = find_lattice(img, (48, 48, 688, 688), 1.02)
    assert (lattice.rows, lattice.cols) == (10, 10)


def test_a_washed_out_plan_with_one_axis_clear_is_counted_from_its_drawing_where_the_lines_agree():
    # a phone photo's washed-out 11 x 8 plan, rectified (its outline at 48..688): heavy fairways along its rows
    # lift a comb of 3 rows above the faint printed lines, and 2 columns make the squares square; the drawing's
    # rhythm counts 11 x 8, and the lines find 8 columns plausible
    img = cv2.imread(str(REPO / "tests" / "scanner" / "data" / "eighteen-washed-out-plan.jpg"))
    lattice = find_lattice(img, (48, 48, 688, 688), 1.36)
    assert (lattice.rows, lattice.cols) == (11, 8)


def test_a_plan_whose_lines_are_lost_is_not_counted_by_its_fairways_long_strokes():
    # a phone photo's 10 x 9 plan (rows x columns), rectified (its outline at 48..688), printed so pale its inner
    # lines are lost: its fairways' long straight strokes made a comb of 2 x 2 lines that their own count's
    # squares bore out well, though those lines lie on the drawing; the drawing's rhythm counts 10 x 9. Lines
    # on what players do not draw on (cards' pictures keep to no squares' middles) keep their own count
    from scanner.games import eighteen

    img = cv2.imread(str(REPO / "tests" / "scanner" / "data" / "eighteen-lines-lost-plan.jpg"))
    outline = (48, 48, 688, 688)
    assert eighteen._on_paper(img, outline)
    lattice = find_lattice(img, outline, 1.10, drawn_on=lambda: True)
    assert (lattice.rows, lattice.cols) == (10, 9)
    assert lattice.line_support < 0.7  # counted, but no printed line bears the squares out
    lines = find_lattice(img, outline, 1.10, drawn_on=lambda: False)
    assert lines.rows * lines.cols < 10


def test_a_small_grid_twice_the_detail_breaks_apart_is_read_at_the_usual_detail(monkeypatch):
    """A grid just under the readable share of the photo: at twice the detail its pale lines make no web, at the
    usual detail they do, and its lattice is read; with no web at either, the first refusal stands."""
    from scanner.games import eighteen
    from scanner.locate import MIN_AREA_FRACTION, SMALL_AREA_FRACTION, WORK_SIDE, GridQuad

    photo = paper_with_grid(np.full((700, 800, 3), 60, np.uint8), rows=10, cols=10, line=60)
    x0, y0, x1, y1 = GRID
    right = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    asked = []

    def located(image, side=WORK_SIDE, inside=False, least_share=MIN_AREA_FRACTION):
        asked.append((side, least_share))
        if side == WORK_SIDE and least_share == SMALL_AREA_FRACTION:
            return GridQuad(right, 1000, 0.018)
        raise ScanError("no printed grid found (no lattice of lines large enough to read: photograph the plan from closer)")

    monkeypatch.setattr(eighteen, "find_grid_quad", located)
    geo = eighteen.find_geometry(photo)
    assert asked == [(WORK_SIDE, MIN_AREA_FRACTION), (2 * WORK_SIDE, SMALL_AREA_FRACTION), (WORK_SIDE, SMALL_AREA_FRACTION)]
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert corners_close(geo.rectified.to_photo(geo.lattice.corners()), 3.0)

    def nowhere(image, side=WORK_SIDE, inside=False, least_share=MIN_AREA_FRACTION):
        raise ScanError(f"no web at {side}")

    monkeypatch.setattr(eighteen, "find_grid_quad", nowhere)
    with pytest.raises(ScanError, match=f"no web at {WORK_SIDE}$"):
        eighteen.find_geometry(photo.copy())


@pytest.mark.parametrize("side", ["below", "above"])
def test_an_outline_pulled_out_over_the_title_box_is_cut_back_to_the_squares_whose_lines_are_there(monkeypatch, side):
    # a stroke reaching the sheet's title box pulled a plan's outline out over it, and the box's lines bore out a
    # 12 x 10 lattice for its 10 x 10 grid: below the grid, the box's edge on the outline's rim; above it, the
    # box's edge between the two rows it added, the rim line there only in part
    from scanner.games import eighteen
    from scanner.locate import GridQuad

    photo = paper_with_grid(np.full((700, 800, 3), 60, np.uint8))
    x0, y0, x1, y1 = GRID
    pitch = (y1 - y0) // 10
    if side == "below":
        cv2.rectangle(photo, (x0 + 5 * pitch, y1 + 8), (x1, y1 + 2 * pitch), (90, 90, 90), 1)  # the title box
        cv2.putText(photo, "Title", (x0 + 10, y1 + 45), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (90, 90, 90), 2)
        pulled = np.float32([[x0, y0], [x1, y0], [x1, y1 + 2 * pitch], [x0, y1 + 2 * pitch]])
    else:
        cv2.rectangle(photo, (x0 - 60, y0 - 4 * pitch), (x1 + 60, y0), (232, 232, 232), -1)  # more paper above
        cv2.line(photo, (x0 + 6 * pitch, y0 - 2 * pitch), (x1, y0 - 2 * pitch), (90, 90, 90), 1)
        cv2.line(photo, (x0, y0 - pitch), (x1, y0 - pitch), (90, 90, 90), 1)  # the box's edge, between the rows
        cv2.putText(photo, "Title", (x0 + 10, y0 - 2 * pitch + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (90, 90, 90), 2)
        pulled = np.float32([[x0, y0 - 2 * pitch], [x1, y0 - 2 * pitch], [x1, y1], [x0, y1]])
    monkeypatch.setattr(eighteen, "find_grid_quad", lambda image, *args, **kwargs: GridQuad(pulled, 1000, 0.2))
    found = eighteen._found_geometry(photo)
    assert (found.lattice.rows, found.lattice.cols) == (12, 10)  # the outline's own lattice, as the plan once read
    geo = eighteen.find_geometry(photo)
    assert (geo.lattice.rows, geo.lattice.cols) == (10, 10)
    assert corners_close(geo.rectified.to_photo(geo.lattice.corners()), 3.0)


def trimming(monkeypatch, supports: list[float]):
    """``eighteen._rim_trimmed`` of a 12 x 10 lattice confirmed at 0.8, each lattice found within its confirmed span
    one row shorter (cut from the top) and confirmed as ``supports`` say, in turn: the rows and support it keeps."""
    from scanner.games import eighteen
    from scanner.grid import Lattice
    from scanner.rectify import Rectified

    def geometry(rows: int, support: float) -> eighteen.Geometry:
        points = np.stack(np.meshgrid(np.arange(11.0), np.arange(rows + 1.0)), axis=-1) * 10
        return eighteen.Geometry(Rectified(np.zeros((8, 8, 3), np.uint8), np.eye(3), 0, (8, 8)), Lattice(points, support))

    found = iter(geometry(11 - k, support) for k, support in enumerate(supports))
    monkeypatch.setattr(eighteen, "confirmed_span", lambda image, lattice: (slice(1, lattice.rows), slice(0, lattice.cols)))
    monkeypatch.setattr(eighteen, "_better_confirmed", lambda geo, again, image: next(found, geo))
    kept = eighteen._rim_trimmed(np.zeros((8, 8, 3), np.uint8), geometry(12, 0.8))
    return kept.lattice.rows, kept.lattice.line_support


def test_an_outline_is_cut_again_while_the_cut_is_better_confirmed_and_kept_cut_only_if_all_but_fully_confirmed(
        monkeypatch):
    # an outline over the title box: cut a row, then another, to the plan's lines confirmed all but fully
    assert trimming(monkeypatch, [0.9, 0.97]) == (10, 0.97)
    # a plan printed too pale to see: its drawing's straight strokes confirm the rows with fairways only, and the
    # rows of hazards alone would be cut off
    assert trimming(monkeypatch, [0.86]) == (12, 0.8)


def test_an_outer_line_beside_a_stroke_as_strong_is_taken_at_either_end_of_the_grid():
    """A heavy stroke a third of a square inside the outer line, as strong as the blurred line, at the edge of the
    reach the outline gives: the outer line is taken, whichever end of the profile it is at."""
    profile = np.zeros(737)
    profile[46:51] = [0.4, 0.8, 1.0, 0.8, 0.4]  # the first outer line, sharp
    profile[685:692] = [0.4, 0.55, 0.62, 0.63, 0.62, 0.55, 0.4]  # the last, broadened
    profile[664:673] = [0.2, 0.4, 0.55, 0.62, 0.63, 0.62, 0.55, 0.4, 0.2]  # the stroke inside it, peaking at 668
    profile[np.arange(112, 680, 64)] = 0.9  # the inner lines
    assert grid._axis(profile, (48, 688)).last == 688
    assert grid._axis(profile[::-1].copy(), (48, 688)).first == 736 - 688

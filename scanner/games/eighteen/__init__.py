"""18 Holes: Course Architect - photo of a pen-drawn course plan -> board file.

Pipeline: locate the printed grid (``scanner.locate``), rectify it (``scanner.rectify``), find its rows and
columns (``scanner.grid``; where the photo bears its lines out poorly, the count checked by how surely the
squares read, ``_drawing_fitted``), cut out every square as an ink patch (``scanner.cells``) with shade lifted,
measure each square (``features``), tell its kind (``squares``, a small network) and read its edges
(``classify``), read the par digits (``parmarks``, ``digits``), find which way is up from the par digits and
trees, read each par and each tee/green's tee and green edges again from the whole square (``square_par``,
``square_edges``, which also settles a diagonal the strokes cannot tell) and settle tee/green sides and doubtful
fairways' edges (``plan``, then ``fairway_edges``: the square read whole with its neighbours' ends), then write
the board with a review entry for every doubtful read. The sheet's printed gorse is told from drawings by its
twin (``plan.printed_twins``) and by its colour (``printcolour``: a print of another colour than the pen's, bare
or with a drawing over it, read from the pen's strokes alone); squares inked as a scribble may be are asked of
the scribble readers (``scribbles``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Any

import cv2
import numpy as np
from scipy.ndimage import percentile_filter

from scanner.cells import BORDER, cut_cell, cut_cells, ink_map
from scanner.debug import Debug
from scanner.errors import ScanError
from scanner.games.eighteen import plan as planmod
from scanner.games.eighteen.classify import BARE, Guess, read_square, sure
from scanner.games.eighteen.fairway_edges import ASK, image_context, read_fairways, with_whole_reading
from scanner.games.eighteen.features import EDGES, CellFeatures, binarize, measure_all
from scanner.games.eighteen.features import MARGIN as LINE_MARGIN
from scanner.games.eighteen.parmarks import CROP, ink_candidates, square_ink
from scanner.games.eighteen.printcolour import (
    PRINT_SHARE,
    Layers,
    hue_layers,
    ink_colours,
    pen_hue,
    unlike_pen,
)
from scanner.games.eighteen.scribbles import HAND_DRAWN, scribbled_probability
from scanner.games.eighteen.scribbles import SIDE as SCRIBBLE_SIDE
from scanner.games.eighteen.square_edges import read_edges
from scanner.games.eighteen.square_par import read_squares
from scanner.games.eighteen.square_turn import plan_turn
from scanner.games.eighteen.squares import kind_probabilities, measured_probabilities
from scanner.grid import DRAWING_RHYTHM, Lattice, confirmed_span, drawing_rhythm, find_lattice
from scanner.histogram import uint8_percentile
from scanner.load import displayed_matrix, oriented
from scanner.locate import (
    PAPER_SATURATION,
    SMALL_AREA_FRACTION,
    WORK_SIDE,
    GridQuad,
    balanced_to_white,
    find_grid_quad,
    find_grid_quad_near,
)
from scanner.memo import same_image
from scanner.quantiles import median, percentile
from scanner.rectify import Rectified, rectangle_aspect, rectify
from scanner.types import Read, ScanResult

GAME = "18-holes"
EVALUATION = ("bench_setup", "compare")  # the plugin interface's measures (``evaluate``), used by `golfscan bench`
SCANNER = "golfscan-18-holes/1"
ANY_TURN = True  # reads a photo alike at any quarter turn (``scan``'s ``turned``): a turned one is read as stored
CELL = 64  # pixels per square in the cut-out patches
GRID_SIDE = 640  # first rectification: grid side in pixels
MARGIN = 48
PAPER_SPREADS = 16  # ink threshold: this many spreads of the paper's texture above its median
FLAG_BELOW = 0.8  # reads less sure than this are flagged for review
BLANK_DOUBT = FLAG_BELOW - 0.1  # confidence cap of a square that may or may not be blank (shade, faint strokes)
ORIENT_SURE = 0.9  # below this, the plan's orientation is reported as uncertain
GRID_SURE = 0.7  # least share of grid line segments the photo confirms for squares to be trusted (a right
# grid: 0.75-1, most above 0.9)
SMALL_GRID_SURE = 0.55  # ... and the least a grid found only as a small one (``_small_grid``) needs to be read at
# all, every read then flagged below GRID_SURE: a plan 1.7% of the photo, its pale lines blurred, bore out its own 12 x
# 8 at 0.62 and was refused; a Front Nine photo's cards made a 6 x 4 lattice at 0.43 at that detail, and a plan 1.8% of
# the photo a wrong one at 0.41
FIT_CHECK = 0.8  # a plan's lattice whose lines the photo bears out less than this has its count checked against the
# drawing (``_drawing_fitted``): the count whose squares the kind reader reads most surely
FIT_COUNTS = range(3, 21)  # rows and columns a count checked may have ...
FIT_SHAPE = 0.12  # ... whose squares are this near square (log of rows / cols against the outline's shape) ...
FIT_SHAPELESS = 0.45  # ... or, the shape unknown, whose rows and columns are this near in number
FIT_SAMPLE = 6  # rows and columns of squares (spread over the grid) a count is first judged on ...
FIT_SURE = -0.1  # ... the lattice's own standing when its sample reads this surely (mean log-confidence: of the right
# counts among the 155 plans below, three in four did; every count mended read below -0.15) ...
FIT_SHORTLIST = 2  # ... and the best counts so judged that are then read in full
FIT_GAIN = 0.02  # a count read in full replaces the lattice's when its squares' mean log-confidence is this higher
FIT_SHARE = 0.7  # ... and this share of the lattice's at most (a poor fit a little less poor is no better count)
TYPICAL_COUNT = 10  # squares a side of a usual plan: the paper's level is looked for over two of them
CUT_SURE = 0.95  # least line support of a lattice cut down from a larger one (``_rim_trimmed``) for the cut to stand
PAR_SURE = 0.92  # par digits less sure than this are flagged (a wrong par changes the score; see
# ``planmod.DIGIT_POWER``: on 800 phone plans no wrong par was given 0.92 or more)
EDGE_GAP = 0.003  # a grid outline closer than this share of the photo to its edge is cut off
LOOK_ALIKE = 0.85  # coarse correlation of two squares' ink worth the exact printed-twin test
PRINTED_SURE = 0.98  # a twin this close overrides even a confident reading (hand drawings never repeat so)
LIKENESS_PRINT_SHARE = 0.1  # least share of a square's ink pixels of another hue than the pen's for its print to
# be parted out (``printcolour.hue_layers``) when other squares are looked in for the print of a lone square in
# another colour: a shaded tee/green or fairway over the print shows a little of it (on 800 phone plans of seeds
# 18812-19102, two lone prints read as lakes read right now, one of them under a blue shading whose print pixels
# were 0.17 of its ink: one plan exact more; no other reading changed, nor any flag but theirs, reworded). A lone
# square whose own ink parts so is a drawing over the print, never the print bare (seed 19302, seen: 3 bunkers
# drawn over a print of another colour had been read as the bare print; 18812-19102: one lake more right)
HELD_ALIKE = 0.5  # least likeness (``planmod.printed_twins``' measure) of a square drawn over a print to the bare print
BARE_HELD = 0.999  # share of a lone off-colour square's ink another square must hold for it to be the bare print:
# of such squares on 200 plans of seed 18402 (five of six printings unlike our first), 33 bare prints and 3
# drawings over a print were held whole, 3 and 3 from 0.97; on 200 plans of 18302 (our first printing only),
# no bare print and 4 drawings over it (within the other printed square's shading) were held whole, 7 from 0.97
DRAWN_OVER = 0.4  # least confidence of a tree, bunker or lake read on a square whose printed twin reads as the bare
# symbol for the drawing to stand over the symbol (drawings over printed gorse: 0.41-0.73; 200 phone plans, where
# no bare printed square read as a drawing at all)
TWIN_DOUBT = 0.7  # most confidence of a twin that overrides another reading (printed twins in a steep photo
# match from 0.75, one hand's trees up to 0.97: the overriding twin is offered, flagged)
AGREED_DRAWING = BLANK_DOUBT  # least confidence of both twins read as the same drawn kind for that drawing to stand:
# a light pen's readings are capped at BLANK_DOUBT (200 phone plans: the one such pair was two light green trees)
SHADE = 0.35  # most paper darkening taken for shade: a square and its neighbourhood both darker are ink, not lifted at
# all (the middle of a block of mountains blacked out in a light pen, 0.5-0.6 in a photo of another hand's plan, was
# lifted by this much before and its leftover stipple read as a fairway)
PAPER_SHADE = 0.15  # a square whose faintest tenth is no darker than this is paper under shade, lifted by its own
# level (800 phone plans of seeds 16602-16902: 8 more read exactly right; the 465 blacked-out squares of 16802
# are 0.23 and up)
SHADE_SHARED = 2  # ... but not one dark evenly (``EVEN_DARK``) with fewer of its eight neighbours at least half as
# dark: a blackout in a light pen (0.12-0.14 on a plan of seed 21402), while a shadow falls on the neighbours too
EVEN_DARK = 0.6  # a square whose faintest tenth is this share of its middle level or more is dark evenly (one shaded
# in light strokes is not)
SHADE_RANK = 25  # percentile of the 3 x 3 squares' levels taken as the neighbourhood's paper: a shadow darkens
# most of them, while a range of blacked-out mountains, even along the grid's edge, leaves a quarter light
FAINT = 0.5  # a square blank at the ink threshold is looked at again down to this share of it ...
FAINT_INK = 0.1  # ... or down to this ink strength, if lower: a plan shaded heavily sets a threshold (0.30) that
# a thin line of its own pen, blurred on a small sheet, stays under by half (strokes at 0.14-0.18)
FAINT_SHARE = 0.01  # ... and is no sure blank when strokes that faint cover this share of its inside (blank
# squares: 0.0011 at most; drawings too light for the threshold: 0.056 and up; 40 phone plans. Above ink 0.1: 0 of
# the 285 and 1 of the 284 blank squares of seeds 15702 and 15602, all of their 105 and 50 light drawings)
STROKE_LEVEL = 0.5  # a square still blank at the faint level is looked at once more for strokes down to this
# share of it, on the paper around them (glare over a light pen: strokes at 0.035-0.065, threshold 0.15)
STROKE_WIDTH = 7  # pixels (of ``CELL``): strokes are what an opening this wide takes away
STROKE_SPAN = 0.3  # ... and is flagged when one such stroke spans this share of its inside (blank squares read
# blank: 0.21 at most over 870 of seeds 15352, 16302 and 16402 and the outside plans; 8 of the 10 light
# drawings read blank on those photos, all on one plan, 0.31-1.0)
SCRIBBLE_PIECE = 0.24  # least share of the square one piece of a tree, bunker or lake's ink covers for it to be
# doubted as a scribble (60 phone plans: the 16 scribbles read as a hazard 0.245-0.467; 42 of 1,959 hazards too);
# pieces that enclose paper count together (a scribble in two rows of loops)
SCRIBBLE_BLOT = 0.3  # ... or one piece of any shape covers (loops run together into a blot, enclosing nothing:
# 600 phone plans of seeds 16502-16702, 6 of the 123 scribbles read as a hazard 0.38-0.47, none of them asked before;
# 20002's plan 0170, a blot of 0.33 read surely as a bunker. From 0.35 to 0.3 and ``FAIRWAY_LOOSE`` from 0.3 to 0.2,
# 1,000 phone plans of seeds 19202-19402, 19902 and 20002 read 3 plans exactly right more, none less, with 5
# more flags)
PEAK = {"k": "mountain", "style": "peak"}  # a mountain drawn as a peak, as a board holds it
BLACKED = {"k": "mountain", "style": "black"}  # ... and one blacked out
PEAK_RUNNER_UP = 0.2  # least probability of a drawn peak, next to a fairway no neighbour joins, for the peak to be read
# (600 phone plans of seeds 16602-16902: the three such squares at 0.2 or more were peaks, from 0.15 a fairway too;
# on 16802 and 17502 one more peak and no fairway)
SCRIBBLED_SURE = 0.5  # ... and least chance the scribble reader (``scribbles``) gives it to be read as scribbled out
SCRIBBLED = "loops over most of the square: scribbled out, leaving it empty"  # the note of such a reading
SCRIBBLE_LOOSE = 0.18  # pieces enclosing paper that cover this share of a hazard together have it asked too, but
# read as scribbled out only when the reader is sure of it (``SCRIBBLED_SURELY``), else left as read: a light pen's
# thin loops enclose less (400 phone plans of seeds 18702 and 18812: 4 scribbles from 0.20, read surely as a
# bunker, each given 0.9998 or more; of the about 800 hazards asked so, none above 0.98); from ``SCRIBBLED_SURE``
# it is flagged as it is read (440 phone plans of seeds 19902, 20302 and 20002: of the 666 hazards asked so, 3
# were given 0.5 or more, all of them scribbles, one given 0.60 read as a lake; 20702's plan 0176, a scribble
# given 0.94, read as a bunker)
SCRIBBLED_SURELY = 0.99
FAIRWAY_LOOSE = 0.2  # a fairway whose looping pieces cover this share of it is asked of the fairway scribble reader
# whatever its neighbours, and read as scribbled out only at ``SCRIBBLED_SURELY``: a false start scribbled over
# beside a hole's stub (400 phone plans of seeds 18702 and 18812: about 11 such fairways a plan from 0.3, 2 of them
# scribbles, each given 1.0; shaded fairways 0.95 at most. 20002's plan 0111, loops over a fairway covering 0.23
# of it, given 1.0); so is one whose ink runs into a blot (``blotted``: 440 phone plans of seeds 19902, 20302 and
# 20002, 4,242 such fairways, one given 0.5 or more, a scribble; 20802's plan 0014, a scribble, given 0.9999). A
# fairway so asked that the reader doubts (``SCRIBBLED_SURE`` and up) is flagged
SHADE_DOUBT = 0.5  # a square left blank once this share of the ink level was lifted may be a light blackout
TREE_VOTE = 2.0  # log-evidence one upright tree adds to an orientation
TREE_CANOPY = 0.03  # least enclosed paper of a canopy, share of the square
TREE_OFFSET = 0.05  # least shift of the ink's centre from the canopy's centre (the trunk), share of the side


CORNER_SLACK = 0.01  # share of an outline's side by which a corner may lie outside it and still be enclosed
PAPER_PLAN = 0.5  # share of paper in the grid from which it is surely a plan (plans 0.64 and up, others 0.3)


def __getattr__(name: str) -> Any:
    """``EVALUATION``'s functions, imported when first asked for: imported with the package, ``evaluate`` would
    be loaded twice when run as a command (``python -m scanner.games.eighteen.evaluate``)."""
    if name in EVALUATION:
        from scanner.games.eighteen import evaluate

        return getattr(evaluate, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Geometry:
    rectified: Rectified
    lattice: Lattice


@same_image
def find_geometry(image: np.ndarray) -> Geometry:
    """Grid quadrilateral -> rectified grid -> lattice (``_found_geometry``), found once for a photo's likelihood
    and its scan; looked for again within its squares whose lines are there (``_rim_trimmed``); a lattice poorly
    borne out counted again from its drawing (``_drawing_fitted``)."""
    return _drawing_fitted(image, _rim_trimmed(image, _found_geometry(image)))


def _drawing_fitted(image: np.ndarray, geo: Geometry) -> Geometry:
    """``geo``, or, when its lines are borne out less than ``FIT_CHECK`` on paper, the geometry of the count whose
    squares the kind reader reads markedly more surely (``FIT_GAIN``, ``FIT_SHARE``). Every count near square in
    ``FIT_COUNTS`` is first judged on a sample of its squares evenly spaced in the outline, with the measurements'
    network alone (``_sampled_fit``), unless the lattice's own count so judged reads surely (``FIT_SURE``); the best
    ``FIT_SHORTLIST`` are placed on the photo's lines and read in full.
    A wrong count reads its squares across the drawing's strokes, and unsurely: a 10 x 10 plan whose heavy
    drawing hid its lines, read 2 x 2 at 0.75, scored -0.63 (the mean log-confidence of its squares) and 10 x 10
    -0.006; a 10 x 8 plan counted 11 x 8 at 0.56 (tilted 35 degrees, its row lines blurred away), -0.069 and 10 x 8
    -0.004. Of the 155 plans below 0.8 of seeds 22902-25302, the hard photos and the other hand's, 5 wrong counts
    came right and none went wrong (one would at ``FIT_SHARE`` 1: a hard photo's right 10 x 10 at -0.38 for a
    14 x 9 at -0.31)."""
    lattice = geo.lattice
    if lattice.line_support >= FIT_CHECK or paper_share(geo) < PAPER_PLAN:
        return geo
    rect = geo.rectified
    corners = lattice.corners()
    aspect = rectangle_aspect(rect.to_photo(corners), image.shape)
    side = float(np.linalg.norm(corners[1] - corners[0]))
    ink = ink_map(rect.image, paper_scale=int(2 * side / TYPICAL_COUNT))
    found = (lattice.rows, lattice.cols)
    judged = {found: _sampled_fit(ink, Lattice.even(corners, *found))}
    if judged[found] >= FIT_SURE:
        return geo
    judged |= {counts: _sampled_fit(ink, Lattice.even(corners, *counts)) for counts in _fit_counts(aspect) if counts != found}
    shortlist = sorted(judged, key=judged.get, reverse=True)[:FIT_SHORTLIST]
    if shortlist[0] == found:  # so judged best, it stands: on 140 of those 155 plans, reading others in full changed none
        return geo
    own = _kind_fit(geo)
    quad = GridQuad(rect.to_photo(corners).astype(np.float32), 0, 0.0)
    best, best_fit = geo, own
    for counts in (c for c in shortlist if c != found):
        try:
            other = _geometry(image, quad, counts)
        except ScanError:
            continue
        fit = _kind_fit(other)
        if fit > best_fit:
            best, best_fit = other, fit
    return best if best_fit >= own + FIT_GAIN and best_fit >= FIT_SHARE * own else geo


def _fit_counts(aspect: float | None) -> list[tuple[int, int]]:
    """The (rows, cols) a lattice's count is checked against: near square for ``aspect`` (rows / cols), if known.

    >>> (10, 10) in _fit_counts(1.0), (10, 8) in _fit_counts(1.0), (10, 8) in _fit_counts(1.25)
    (True, False, True)
    """
    shape, reach = (np.log(aspect), FIT_SHAPE) if aspect else (0.0, FIT_SHAPELESS)
    return [(r, c) for r in FIT_COUNTS for c in FIT_COUNTS if abs(np.log(r / c) - shape) <= reach]


def _sampled_fit(ink: np.ndarray, lattice: Lattice) -> float:
    """Mean log-confidence of the measurements' network over up to ``FIT_SAMPLE`` x ``FIT_SAMPLE`` of the lattice's
    squares, spread evenly over it: a quick judge of a count."""
    rows, cols = (np.unique(np.round(np.linspace(0, n - 1, min(n, FIT_SAMPLE))).astype(int))
                  for n in (lattice.rows, lattice.cols))
    patches = np.stack([cut_cell(ink, lattice.cell_quad(r, c), CELL) for r in rows for c in cols])
    threshold = _ink_threshold(patches[None])
    probs = measured_probabilities(patches, measure_all(patches, threshold), threshold)
    return float(np.mean(np.log(probs.max(axis=1))))


def _kind_fit(geo: Geometry) -> float:
    """Mean log-confidence of the kind reader over every square of ``geo``'s lattice."""
    cut = cut_geometry(geo)
    flat = cut.patches.reshape(-1, CELL, CELL)
    probs = kind_probabilities(flat, measure_all(flat, cut.threshold), cut.threshold)
    return float(np.mean(np.log(probs.max(axis=1))))


def _rim_trimmed(image: np.ndarray, geo: Geometry) -> Geometry:
    """``geo``, or the geometry looked for again within the outer line of its squares that show their lines
    (``confirmed_span``) when that cuts outer rows or columns off, again and again while each lattice is the
    better confirmed; a cut is kept only if the photo's lines bear out what is left all but fully (``CUT_SURE``).
    A stroke reaching the sheet's title box pulled a plan's outline out over it: the box's lines bore out a
    12 x 10 lattice at 0.85 for a 10 x 10 plan, cut to 11 x 10 at 0.90, then to 10 x 10 at 0.97. A plan printed
    with lines too pale to see is confirmed by its drawing's straight strokes only: a 10 x 10 plan at 0.75 whose top
    three rows hold hazards alone was cut to 7 x 10 at 0.86, and stands uncut. Only a well confirmed lattice
    (``GRID_SURE``) is cut: lines poorly confirmed all over say nothing of where the grid ends (plans at 0.25-0.35
    were cut down to 2 x 2). Of 3,479 plans (phone seeds 23602-25102, hard photos, another hand's), those two
    were the lattices cut; of 4,666 (phone seeds 22902-25602 and the same others), once a bare band's outermost line
    alone may show it bare (``grid.BARE_CROSSING``), one more: a plan read 12 x 10 at 0.88, cut to 10 x 10 at 0.99."""
    cut = geo
    while cut.lattice.line_support >= GRID_SURE:
        rows, cols = confirmed_span(cut.rectified.image, cut.lattice)
        if (rows.stop - rows.start, cols.stop - cols.start) == (cut.lattice.rows, cut.lattice.cols):
            break
        kept = Lattice(cut.lattice.points[rows.start:rows.stop + 1, cols.start:cols.stop + 1], cut.lattice.line_support)
        corners = np.float32(cut.rectified.to_photo(kept.corners()))
        # only the corners of a located grid are rectified (``_geometry``)
        again = _better_confirmed(cut, lambda corners=corners: GridQuad(corners, line_pixels=0, area_fraction=0.0), image)
        if again is cut:
            break
        cut = again
    return cut if cut.lattice.line_support >= CUT_SURE else geo


def _found_geometry(image: np.ndarray) -> Geometry:
    """Grid quadrilateral -> rectified grid -> lattice.
    A photo where no grid is found is looked at again at twice the detail (a small plan shaded heavily: its
    shading merged with the lines into one web enclosing 29 cells, with 0.39 of paper per pixel of ink; at twice
    the detail, 350 cells and 4.6), down to a smaller grid (``SMALL_AREA_FRACTION``: a sheet seen 35 degrees
    off, its grid 1.9% of the photo, read exactly; one of 1.8%, whose lines bear out a lattice at 0.41, is
    refused as before; one whose lines bear it out poorly is read, every square flagged, down to ``SMALL_GRID_SURE``).
    A grid that cannot be read (one running off the photo) is looked for again
    among the webs of lines clear of the photo's edge (a fine checked cloth joins up into a web larger than the
    plan's, running off the photo). Either is kept only if the photo's lines bear it out well on paper
    (``_well_confirmed``): at twice the detail, a Front Nine photo's cards made a 6 x 4 lattice at 0.43.
    A lattice on paper whose lines the photo bears out poorly is looked for again with the grid located at
    twice the detail (a small grid's outline merges with the sheet's other print at the usual scale), and then
    located in the part of the photo around it (``find_grid_quad_near``: a grid 2% of the photo, a corner
    of its outline pulled off by the drawing, 8 x 11 at 0.47, came out 10 x 10 at 1.0). A
    lattice on paper is looked for again within the outline with its cut corners restored, where that moves a
    corner (squares blacked out at a corner take the lines there away; a stroke joined to a title's rule pulls
    the outline out to it): always when the restored outline encloses the one found, only for a poorly
    confirmed lattice when it leaves part of it out. A lattice still poorly confirmed is looked for among the
    webs clear of the photo's edge, when the one found runs off it (a patch of a checked cloth, its lines
    stronger than the plan's, can hold an outline just inside the photo). Each time, the better confirmed lattice is kept
    (``_better_confirmed``)."""
    try:
        located = find_grid_quad(image)
    except ScanError as missed:
        return _small_grid(image, missed)
    try:
        geo = _geometry(image, located)
    except ScanError as refused:
        return _well_confirmed(image, lambda: find_grid_quad(image, inside=True), refused)
    # a well confirmed lattice is looked for again only within an outline that restores a cut corner (below): with
    # none to try, it stands, on paper or not (a lattice looked for again gives way only to a better confirmed one)
    if geo.lattice.line_support >= GRID_SURE and not any(encloses(cornered, located.corners, CORNER_SLACK)
                                                         for cornered in located.cornered):
        return geo
    # only for a grid on paper: other games' tiles and cards confirm grid lines poorly too
    if paper_share(geo) < PAPER_PLAN:
        return geo
    if geo.lattice.line_support < GRID_SURE:
        geo = _better_confirmed(geo, lambda: find_grid_quad(image, 2 * WORK_SIDE), image)
    if geo.lattice.line_support < GRID_SURE:
        geo = _better_confirmed(geo, lambda: find_grid_quad_near(image, located.corners), image)
    # an outline that restores a cut corner (enclosing the one found) is tried however well the lattice seems
    # confirmed: with one corner square blacked out, the outline's remaining lines made a 3 x 3 lattice at 0.75.
    # One that leaves part of the outline out is tried only for a poorly confirmed lattice: a part of a grid can
    # confirm its lines better than the whole (an 8 x 8 plan at 0.90, 8 x 6 of it at 0.95)
    for cornered in located.cornered:
        if geo.lattice.line_support < GRID_SURE or encloses(cornered, located.corners, CORNER_SLACK):
            geo = _better_confirmed(geo, lambda cornered=cornered: replace(located, corners=cornered), image)
    if located.edge and geo.lattice.line_support < GRID_SURE:
        geo = _better_confirmed(geo, lambda: find_grid_quad(image, inside=True), image)
    return geo


def _small_grid(image: np.ndarray, missed: ScanError) -> Geometry:
    """The geometry of a grid smaller than a readable one (down to ``SMALL_AREA_FRACTION`` of the photo), located
    at twice the detail, else at the usual detail (where twice the detail breaks a pale, blurred grid's lines
    apart: a plan 1.97% of the photo, seen at the usual detail 9 x 8 at 0.70, found no web at twice it), kept when
    its lines bear it out to ``SMALL_GRID_SURE`` on paper; else ``missed`` is raised again."""
    for side in (2 * WORK_SIDE, WORK_SIDE):
        try:
            return _well_confirmed(image, lambda side=side: find_grid_quad(image, side, least_share=SMALL_AREA_FRACTION),
                                   missed, SMALL_GRID_SURE)
        except ScanError:
            continue
    raise missed


def encloses(outer: np.ndarray, inner: np.ndarray, slack: float) -> bool:
    """Whether every corner of the quadrilateral ``inner`` lies inside ``outer`` or within ``slack`` of its mean
    side from it.

    >>> square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> encloses(square, square, 0.01), encloses(square * 1.2 - 1, square, 0.01), encloses(square, square + 1, 0.01)
    (True, True, False)
    """
    contour = np.float32(outer).reshape(-1, 1, 2)
    side = cv2.arcLength(contour, True) / 4
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -slack * side for x, y in inner)


def _well_confirmed(image: np.ndarray, locate_again: Callable[[], GridQuad], refused: ScanError,
                    least_support: float = GRID_SURE) -> Geometry:
    """The geometry of the grid located again, if the photo's lines bear it out on paper (``least_support`` of
    its line segments); else ``refused`` is raised again (a plan cut by the photo's edge, a photo of something
    else)."""
    try:
        geo = _geometry(image, locate_again())
    except ScanError:
        raise refused from None
    if geo.lattice.line_support < least_support or paper_share(geo) < PAPER_PLAN:
        raise refused
    return geo


def _better_confirmed(geo: Geometry, locate_again: Callable[[], GridQuad], image: np.ndarray) -> Geometry:
    """``geo`` or the geometry from the grid located again, whichever lattice the photo's lines bear out
    better; or, when neither is well confirmed and they count the squares differently, whichever the drawing
    fits better (``drawing_rhythm``) if it fits either well: lines too pale to place confirm a wrong count
    about as poorly as the right one (a small, blurred plan: 10 x 10 at 0.38, 6 x 6 at 0.40)."""
    try:
        other = _geometry(image, locate_again())
    except ScanError:
        return geo
    first, again = geo.lattice, other.lattice
    if (first.rows, first.cols) != (again.rows, again.cols) and max(first.line_support, again.line_support) < GRID_SURE:
        fits = drawing_rhythm(geo.rectified.image, first), drawing_rhythm(other.rectified.image, again)
        if max(fits) >= DRAWING_RHYTHM:
            return other if fits[1] > fits[0] else geo
    return other if again.line_support > first.line_support else geo


def _geometry(image: np.ndarray, quad: GridQuad, counts: tuple[int, int] | None = None) -> Geometry:
    """Rectified grid and lattice from its located quadrilateral (of ``counts`` rows and columns, when known);
    rectified again finer when the squares are small."""
    h, w = image.shape[:2]
    edge = EDGE_GAP * max(h, w)
    x, y = quad.corners[:, 0], quad.corners[:, 1]
    if x.min() < edge or y.min() < edge or x.max() > w - 1 - edge or y.max() > h - 1 - edge:
        raise ScanError("the plan's grid runs off the edge of the photo; photograph the whole sheet")
    rect = rectify(image, quad.corners, (GRID_SIDE, GRID_SIDE), MARGIN)
    outline = (MARGIN, MARGIN, MARGIN + GRID_SIDE, MARGIN + GRID_SIDE)
    # the grid's rows / cols, as its squares are square (None: a view too oblique to tell)
    aspect = rectangle_aspect(quad.corners, image.shape)
    lattice = find_lattice(rect.image, outline, aspect, partial(_on_paper, rect.image, outline), counts)
    span = max(lattice.rows, lattice.cols)
    if GRID_SIDE / span < 0.8 * CELL:
        side, margin = CELL * span, CELL
        corners = rect.to_photo(lattice.corners())
        rect = rectify(image, corners, (side, side), margin)
        finer = (margin, margin, margin + side, margin + side)
        lattice = find_lattice(rect.image, finer, aspect, partial(_on_paper, rect.image, finer), counts)
    return Geometry(rect, lattice)


def _on_paper(image: np.ndarray, outline: tuple[float, float, float, float]) -> bool:
    """Whether the part of the rectified ``image`` within ``outline`` (left, top, right, bottom) is paper
    (``PAPER_PLAN``), as a plan is."""
    left, top, right, bottom = outline
    return paper_within(image, np.float32([[left, top], [right, top], [right, bottom], [left, bottom]])) >= PAPER_PLAN


def _ink_threshold(patches: np.ndarray) -> float:
    """Binarisation level from the plan itself (pen, lighting and blur vary): well above the paper's own
    texture (median and spread of the ink measure, mostly paper), and no higher than a third of the
    strongest strokes, so a faint pencil still counts when a heavy felt-tip shading is on the same plan."""
    m = int(BORDER * CELL)
    inner = patches[:, :, m:-m, m:-m]
    middle = float(median(inner))
    spread = float(median(np.abs(inner - middle)))
    return float(np.clip(middle + PAPER_SPREADS * spread, 0.1, max(0.15, 0.35 * percentile(inner, 99))))


def lift_shade(ringed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grid's patches less the paper level of their neighbourhood, if no darker than ``SHADE``: under a sharp shadow
    edge the paper estimate of ``ink_map`` reaches into the lit part, and shaded paper would read as ink.
    ``ringed``: the patches of the grid with one more square all round (``Lattice.ringed``: the paper beyond it).
    A square's level is its faintest tenth; the neighbourhood's is the lower quartile (``SHADE_RANK``) of the
    3 x 3 squares around it, the paper beyond the grid among them, so a shadow, shared by its neighbours, is
    lifted, and blacked-out squares among light ones are not, nor a range of them along the grid's edge, where
    the paper beyond is light. A square whose faintest tenth is no darker than ``PAPER_SHADE`` is paper under
    shade whatever most of its neighbours, and lifted by its own level: a shadow along the grid's edge, with the
    lit margin beyond, left a row of trees inked all over at the plan's level, read as blacked out. Not so a
    square dark evenly that its neighbours do not share (``SHADE_SHARED``): a light blackout among light
    squares. Returns the lifted patches of the grid and the level taken from each square."""
    m = int(BORDER * CELL)
    own, middle = percentile(ringed[:, :, m:-m, m:-m].reshape(*ringed.shape[:2], -1), (10, 50), axis=-1)
    inner = np.s_[1:-1, 1:-1]
    around = percentile_filter(own, SHADE_RANK, size=3)
    rows, cols = own.shape
    shared = sum((own[1 + dr:rows - 1 + dr, 1 + dc:cols - 1 + dc] >= 0.5 * own[inner]).astype(int)
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    blackout = (shared < SHADE_SHARED) & (own[inner] >= EVEN_DARK * middle[inner])
    paper = (own[inner] <= PAPER_SHADE) & ~blackout
    level = np.where(paper, own[inner], np.minimum(own, around)[inner])
    base = np.where(level > SHADE, 0.0, level)  # darker than any shade: ink, the middle of a block of blackouts
    return np.clip(ringed[inner] - base[:, :, None, None], 0.0, 1.0).astype(np.float32), base


def _tree_votes(trees: dict[tuple[int, int], float], patches: np.ndarray) -> np.ndarray:
    """Log-evidence per quarter turn from trees (square -> the ink level it was read at): the trunk hangs
    below the canopy, off its centre."""
    votes = np.zeros(4)
    for (r, c), threshold in trees.items():
        b = binarize(patches[r, c], threshold)
        filled = b.copy()
        contours, _ = cv2.findContours(b, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(filled, contours, -1, 1, -1)
        canopy = filled & (1 - b)  # enclosed paper: inside the canopy
        if canopy.sum() < TREE_CANOPY * CELL * CELL:
            continue
        ys, xs = np.nonzero(b)
        cy, cx = np.nonzero(canopy)
        dx, dy = xs.mean() - cx.mean(), ys.mean() - cy.mean()
        if np.hypot(dx, dy) < TREE_OFFSET * CELL:  # round and symmetric: an oval, not a tree
            continue
        down = ("E" if dx > 0 else "W") if abs(dx) > abs(dy) else ("S" if dy > 0 else "N")
        turns = next(k for k in range(4) if planmod.rotate_edge(down, k) == "S")
        votes[turns] += TREE_VOTE
    return votes


def _doubt_shade(guess: Guess, lifted: float) -> Guess:
    """A blank reading of an evenly darkened square is unsure: shade, or a blackout in a light pen."""
    if guess.value["k"] != "empty" or lifted < SHADE_DOUBT:
        return guess
    return Guess(guess.value, min(guess.confidence, BLANK_DOUBT), ((BLACKED, 0.3),),
                 note="evenly dark square: shade, or blacked out in a light pen")


def walled_in_shade(squares: list[list[Guess]], lifted: np.ndarray) -> list[list[Guess]]:
    """Squares lifted as shade (by ``SHADE_DOUBT`` of the ink level or more, ``lifted`` is that share) that
    squares read as blacked out wall in on every side, read as blacked out too, flagged, with their reading
    offered: the middle of a block of light blackouts is as dark as its neighbours, as a shadow's squares are,
    and is lifted, while a shadow seldom falls on squares all blacked out around it. The lifted squares are taken
    together, each group that touches by its sides (two such middles side by side).

    >>> blank, black = Guess({"k": "empty"}, 0.7), Guess(BLACKED, 0.95)
    >>> plan = [[black, black, black, black], [black, blank, blank, black], [black, black, black, black]]
    >>> lifted = np.array([[0.0] * 4, [0.0, 0.8, 0.8, 0.0], [0.0] * 4])
    >>> [g.value["k"] for g in walled_in_shade(plan, lifted)[1]]
    ['mountain', 'mountain', 'mountain', 'mountain']
    >>> walled_in_shade(plan, lifted * 0.5)[1][1].value["k"]
    'empty'
    """
    rows, cols = len(squares), len(squares[0])
    shaded = (lifted >= SHADE_DOUBT) & np.array([[g.value != BLACKED for g in row] for row in squares])
    count, groups = cv2.connectedComponents(shaded.astype(np.uint8), connectivity=4)
    out = [list(row) for row in squares]
    for k in range(1, count):
        members = [tuple(int(v) for v in rc) for rc in np.argwhere(groups == k)]
        sides = {(r + dr, c + dc) for r, c in members for dr, dc in planmod.STEP.values()} - set(members)
        if all(0 <= r < rows and 0 <= c < cols and squares[r][c].value == BLACKED for r, c in sides):
            for r, c in members:
                g = squares[r][c]
                out[r][c] = Guess(BLACKED, BLANK_DOUBT, ((g.value, g.confidence),),
                                  note="lifted as shade, but blacked-out squares all round: maybe blacked out too")
    return out


def large_loop(measured: CellFeatures) -> bool:
    """Whether a square has one piece of ink over ``SCRIBBLE_PIECE`` of it or more that encloses paper."""
    return any(blob.area >= SCRIBBLE_PIECE and blob.holes for blob in measured.blobs)


def scribble_like(guess: Guess, measured: CellFeatures, piece: float = SCRIBBLE_PIECE) -> bool:
    """Whether a square read as a tree, bunker or lake is inked as a scribble may be: pieces enclosing paper
    that cover ``piece`` of it together (a ``large_loop`` does alone), or one piece of any shape over
    ``SCRIBBLE_BLOT`` of it. It may be loops scribbled over a feature drawn in the wrong square."""
    if guess.value["k"] not in HAND_DRAWN:
        return False
    return looping_share(measured) >= piece or blotted(measured)


def looping_share(measured: CellFeatures) -> float:
    """The share of a square that its pieces of ink enclosing paper cover together."""
    return sum(blob.area for blob in measured.blobs if blob.holes)


def blotted(measured: CellFeatures) -> bool:
    """Whether one piece of a square's ink, of any shape, covers ``SCRIBBLE_BLOT`` of it."""
    return any(blob.area >= SCRIBBLE_BLOT for blob in measured.blobs)


def stray_fairway(squares: list[list[Guess]], r: int, c: int, measured: CellFeatures) -> bool:
    """Whether a square read as a fairway, with a ``large_loop``, is joined by one neighbour at most: a fairway
    runs from square to square, and a false start scribbled over reads as the fairway under the loops (shaded
    fairways loop as much, but their neighbours join them: 200 phone plans of seed 15502, 3,130 of 3,143 such
    fairways joined on both edges, 11 of the 14 scribbles over a fairway on one at most). The scribble reader
    trained on fairways too (``scribbles``) says whether it is scribbled out."""
    return (squares[r][c].value["k"] == "fairway" and large_loop(measured)
            and sum(planmod.connects(squares, r, c, edge) >= 1.0 for edge in EDGES) <= 1)


def lone_peak(squares: list[list[Guess]], r: int, c: int) -> Guess:
    """A square read as a fairway that no neighbour joins on either of its edges, and that the square reader
    takes for a drawn peak too (``PEAK_RUNNER_UP``), read as that peak, flagged, the fairway offered: peaks
    drawn side by side make a zigzag whose strokes run to the square's edges, and a fairway drawn alone seldom
    reads as a peak at all.

    >>> peak = ({"k": "mountain", "style": "peak"}, 0.3)
    >>> lone, run_on = (Guess({"k": "fairway", "edges": edges}, 0.6, (peak,)) for edges in (["E", "S"], ["W", "E"]))
    >>> lone_peak([[lone]], 0, 0).value, lone_peak([[Guess({"k": "fairway", "edges": ["W", "E"]}, 0.9), run_on]], 0, 1).value
    ({'k': 'mountain', 'style': 'peak'}, {'k': 'fairway', 'edges': ['W', 'E']})
    """
    g = squares[r][c]
    if g.value["k"] != "fairway" or any(planmod.connects(squares, r, c, edge) >= 1.0 for edge in g.value["edges"]):
        return g
    peak = max((p for v, p in g.alternatives if v == PEAK), default=0.0)
    if peak < PEAK_RUNNER_UP:
        return g
    others = tuple(alt for alt in g.alternatives if alt[0] != PEAK)
    return Guess(PEAK, min(peak + g.confidence, BLANK_DOUBT), ((g.value, g.confidence), *others),
                 note="a fairway no neighbour joins, drawn like peaks")


def joined_mountain(squares: list[list[Guess]], r: int, c: int) -> Guess:
    """A square read as a mountain, drawn or blacked out, that neighbours join on exactly two of its edges, as a
    hole running through it does (a mountain ends a hole, never lies within one), flagged with the fairway of
    those edges offered: a straight fairway shaded in a zigzag between its sides reads as peaks (0.99, on a
    fresh plan), and one shaded solid in a broad pen as blacked out (0.98). The ``lone_peak`` the other way
    round.

    >>> fairway = lambda *edges: Guess({"k": "fairway", "edges": list(edges)}, 0.9)
    >>> column = [[fairway("S", "N")], [Guess(PEAK, 0.99)], [fairway("N", "S")]]
    >>> read = joined_mountain(column, 1, 0)
    >>> read.value == PEAK, read.confidence < FLAG_BELOW, read.alternatives[0][0]
    (True, True, {'k': 'fairway', 'edges': ['N', 'S']})
    >>> column[1][0] = Guess(BLACKED, 0.98)
    >>> joined_mountain(column, 1, 0).confidence < FLAG_BELOW
    True
    """
    g = squares[r][c]
    if g.value not in (PEAK, BLACKED):
        return g
    joined = [edge for edge in EDGES if planmod.connects(squares, r, c, edge) >= 1.0]
    if len(joined) != 2:
        return g
    through = {"k": "fairway", "edges": joined}
    note = "; ".join(n for n in (g.note, "neighbours join it on two edges, as a fairway through it") if n)
    doubted = min(g.confidence, BLANK_DOUBT)
    return replace(g, confidence=doubted, note=note,
                   alternatives=((through, 1.0 - doubted), *(alt for alt in g.alternatives if alt[0] != through)))


def scribbled(guess: Guess) -> Guess:
    """A square read as scribbled out: empty, flagged, with what was read under the loops offered."""
    return Guess({"k": "empty"}, BLANK_DOUBT, ((guess.value, guess.confidence),), note=SCRIBBLED)


def drawn_over_print(read: Guess) -> Guess:
    """A square read as ``scribbled`` whose loops are more likely a symbol printed on the sheet joined with a
    drawing over it, as its ink is not in the pen's colour (``printcolour``; a player scribbles in the pen): the
    drawing as read under the loops, with empty offered; any other reading as it was. A scribble that holds the
    whole of a square read as the bare print (``planmod.print_held``) is not taken for it: a dense scribble holds
    any small symbol, and on 1,400 phone plans of seeds 18602-19102 each of the 14 so taken was scribbled out.

    >>> drawn_over_print(scribbled(Guess({"k": "tree"}, 0.8))).value
    {'k': 'tree'}
    """
    if read.note != SCRIBBLED:
        return read
    (drawn, confidence), *others = read.alternatives
    return Guess(drawn, confidence, (*others, ({"k": "empty"}, read.confidence)))


def scribbled_out(guess: Guess, scribbled_chance: float) -> Guess:
    """The reading of a square inked as a scribble may be (``scribble_like``) that the scribble reader
    (``scribbles``) takes to be scribbled out with ``scribbled_chance``: from ``SCRIBBLED_SURE`` up, scribbled
    out, so empty; else the hazard as read. Either way flagged, with the other offered: a heavy pen's hazards
    can loop as much, and a scribble's loops run together in a broad pen.

    >>> read = scribbled_out(Guess({"k": "bunker"}, 0.9), 0.8)
    >>> read.value, read.confidence < FLAG_BELOW, read.alternatives
    ({'k': 'empty'}, True, (({'k': 'bunker'}, 0.9),))
    """
    return scribbled(guess) if scribbled_chance >= SCRIBBLED_SURE else maybe_scribbled(guess, scribbled_chance)


def scribble_verdict(guess: Guess, scribbled_chance: float, sure: float) -> Guess:
    """A square the scribble reader was asked about: scribbled out from ``sure`` up; else, from
    ``SCRIBBLED_SURE`` up (not sure enough to read it so, too sure to pass unflagged), kept as read but
    flagged (``maybe_scribbled``); else as read.

    >>> bunker = Guess({"k": "bunker"}, 0.9)
    >>> [scribble_verdict(bunker, p, SCRIBBLED_SURELY).value["k"] for p in (0.995, 0.6, 0.1)]
    ['empty', 'bunker', 'bunker']
    >>> doubted = scribble_verdict(bunker, 0.6, SCRIBBLED_SURELY)
    >>> doubted.confidence < FLAG_BELOW, doubted.alternatives[-1], scribble_verdict(bunker, 0.1, 0.99) is bunker
    (True, ({'k': 'empty'}, 0.6), True)
    """
    if scribbled_chance >= sure:
        return scribbled(guess)
    return maybe_scribbled(guess, scribbled_chance) if scribbled_chance >= SCRIBBLED_SURE else guess


def maybe_scribbled(guess: Guess, scribbled_chance: float) -> Guess:
    """A reading kept as it is but flagged, with empty offered at ``scribbled_chance``: the scribble reader
    doubts it is drawn at all.

    >>> read = maybe_scribbled(Guess({"k": "bunker"}, 0.9), 0.6)
    >>> read.value, read.confidence < FLAG_BELOW, read.alternatives[-1]
    ({'k': 'bunker'}, True, ({'k': 'empty'}, 0.6))
    """
    return Guess(guess.value, min(guess.confidence, BLANK_DOUBT),
                 guess.alternatives + (({"k": "empty"}, scribbled_chance),),
                 note="inked like a scribble: maybe scribbled out, leaving the square empty")


def faint_level(threshold: float) -> float:
    """The ink level a square blank at the plan's ``threshold`` is looked at again at: ``FAINT`` of it, and no
    higher than ``FAINT_INK``.

    >>> faint_level(0.16), faint_level(0.3)
    (0.08, 0.1)
    """
    return min(FAINT * threshold, FAINT_INK)


def faint_squares(patches: np.ndarray, measured: list[CellFeatures], threshold: float) -> list[int]:
    """Indices of the squares (patches flattened) blank at the ink threshold whose inside holds strokes down
    to ``faint_level`` over ``FAINT_SHARE`` or more: a light pen that the plan's heavier strokes outweighed."""
    m = int(round(LINE_MARGIN * patches.shape[-1]))
    inside = patches[:, m:-m, m:-m]
    return [i for i, f in enumerate(measured) if f.ink < BARE and not f.blobs
            and float((inside[i] > faint_level(threshold)).mean()) >= FAINT_SHARE]


def stroke_span(patch: np.ndarray, level: float, margin: int) -> float:
    """The longest side of the largest-spanning thin stroke (narrower than ``STROKE_WIDTH`` pixels) darker
    than ``level`` above the paper right around it, within ``margin`` of the square's border, as a share of
    that inside. Shade and paper texture span little at any level: it is the strokes' reach that tells a
    light drawing from a blank square.

    >>> patch = np.zeros((64, 64), np.float32)
    >>> patch[30:32, 10:50] = 0.05  # a faint line, 40 pixels long
    >>> round(stroke_span(patch, 0.03, 6), 2), stroke_span(patch, 0.06, 6)
    (0.77, 0.0)
    """
    background = cv2.morphologyEx(patch, cv2.MORPH_OPEN, np.ones((STROKE_WIDTH, STROKE_WIDTH), np.uint8))
    strokes = ((patch - background)[margin:-margin, margin:-margin] > level).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    return float(stats[1:, 2:4].max(initial=0)) / strokes.shape[0]


def too_faint(guess: Guess, patch: np.ndarray, threshold: float) -> Guess:
    """A square read blank, without a doubt of its own, flagged when strokes fainter than even the faint
    level span much of it (``stroke_span`` at ``STROKE_LEVEL`` of ``faint_level``): a drawing too light to
    read, glare over a light pen."""
    if guess.value["k"] != "empty" or guess.note:
        return guess
    margin = int(round(LINE_MARGIN * patch.shape[-1]))
    if stroke_span(patch, STROKE_LEVEL * faint_level(threshold), margin) < STROKE_SPAN:
        return guess
    return replace(guess, confidence=min(guess.confidence, BLANK_DOUBT),
                   note="strokes too faint to read: maybe a light drawing, not a blank square")


def _read_faint(patches: np.ndarray, which: list[int], threshold: float) -> list[Guess]:
    """The squares ``which`` read at the ``faint_level`` of the ink threshold, each flagged with blank as the
    other choice."""
    if not which:
        return []
    faint, level = patches[which], faint_level(threshold)
    measured = measure_all(faint, level)
    probs = kind_probabilities(faint, measured, level)
    out = []
    for f, p in zip(measured, probs, strict=True):
        g = read_square(f, p)
        blank = () if g.value["k"] == "empty" else (({"k": "empty"}, 0.5),)
        out.append(Guess(g.value, min(g.confidence, BLANK_DOUBT), blank + g.alternatives,
                         note="faint strokes, read below the plan's ink level", diagonal=g.diagonal,
                         halves=g.halves))
    return out


def twin_reading(own: Guess, twin: Guess, score: float, printed: bool = True, off_pen: bool = False,
                 own_ink: bool = False) -> Guess:
    """The reading of a square whose ink matches square ``twin``'s this closely (``planmod.printed_twins``):
    the sheet's printed gorse, unless the twin is a clear tree, bunker or lake that is no identical copy - one
    hand drew both alike - which is offered, flagged; so is a drawing both twins read as fairly surely
    (``AGREED_DRAWING``: a light pen's trees). A square read as a tree, bunker or lake (``DRAWN_OVER``)
    whose twin reads as the bare symbol has that drawing over its printed symbol: the drawing stands, flagged.
    Twins that are not the sheet's printed pair (``printed``, ``planmod.printed_pair``) are one hand's drawing:
    the clear twin's kind, or the own reading (``maybe_printed``). Twins both in a colour unlike the pen's
    (``off_pen``) are the print however clearly they read as a drawing. A tree, bunker or lake with ink its twin
    lacks (``own_ink``: both printed squares drawn over) is that drawing over the print, as over a bare twin.

    >>> tree, unsure, bare = Guess({"k": "tree"}, 0.95), Guess({"k": "bunker"}, 0.5), Guess({"k": "gorse"}, 0.9)
    >>> twin_reading(unsure, tree, 0.93).value, twin_reading(unsure, tree, 0.99).value
    ({'k': 'tree'}, {'k': 'gorse'})
    >>> twin_reading(unsure, tree, 0.99, printed=False).value
    {'k': 'tree'}
    >>> light = Guess({"k": "tree"}, AGREED_DRAWING)
    >>> twin_reading(light, light, 0.93).value, twin_reading(light, light, 0.99).value
    ({'k': 'tree'}, {'k': 'gorse'})
    >>> twin_reading(unsure, bare, 0.93).value, twin_reading(Guess({"k": "bunker"}, 0.3), bare, 0.93).value
    ({'k': 'bunker'}, {'k': 'gorse'})
    """
    confidence = sure(score, planmod.PRINTED_MATCH, 0.03)
    agreed = own.value == twin.value and min(own.confidence, twin.confidence) >= AGREED_DRAWING
    if (twin.value["k"] in HAND_DRAWN and (twin.confidence >= FLAG_BELOW or agreed)
            and ((score < PRINTED_SURE and not off_pen) or not printed)):
        return Guess(twin.value, min(confidence, TWIN_DOUBT), (({"k": "gorse"}, 0.3), (own.value, own.confidence)),
                     note="drawn like another square")
    if not printed:
        return maybe_printed(own)
    if own.value["k"] in HAND_DRAWN and own.confidence >= DRAWN_OVER and (twin.value["k"] == "gorse" or own_ink):
        others = tuple(alt for alt in own.alternatives if alt[0]["k"] != "gorse")
        return Guess(own.value, min(own.confidence, TWIN_DOUBT), (({"k": "gorse"}, confidence), *others),
                     note="drawn over a printed symbol")
    if own.value["k"] != "gorse":  # one hand's trees or bunkers can match nearly as closely as printed twins
        confidence = min(confidence, TWIN_DOUBT)
    return Guess({"k": "gorse"}, confidence, ((own.value, own.confidence),), note="printed symbol")


def maybe_printed(own: Guess, note: str = "ink repeats another square's: maybe a symbol printed on the sheet") -> Guess:
    """A confident reading of a square whose ink nearly repeats another's (``planmod.PRINTED_MATCH`` and
    up), or is not in the pen's colour (``printcolour``): a symbol printed on the sheet repeats like that, and
    another sheet's symbol can look like anything drawn. The reading stands, flagged (``note``), with gorse
    offered; a square read as gorse stays as it is.

    >>> maybe_printed(Guess({"k": "water"}, 0.9)).confidence, maybe_printed(Guess({"k": "gorse"}, 0.9)).confidence
    (0.7, 0.9)
    """
    if own.value["k"] == "gorse":
        return own
    return Guess(own.value, min(own.confidence, TWIN_DOUBT), own.alternatives + (({"k": "gorse"}, 0.3),), note=note)


def bare_print(own: Guess) -> Guess:
    """A square whose drawing is the sheet's printed symbol, bare: gorse, flagged, the drawing offered.

    >>> bare_print(Guess({"k": "water"}, 0.95)).value, bare_print(Guess({"k": "water"}, 0.95)).confidence
    ({'k': 'gorse'}, 0.7)
    """
    return Guess({"k": "gorse"}, TWIN_DOUBT, ((own.value, own.confidence),),
                 note="not in the pen's colour, and repeated within another square: the printed symbol")


def _held_elsewhere(patches: np.ndarray, square: tuple[int, int], threshold: float, share: float = BARE_HELD,
                    prints: np.ndarray | None = None) -> bool:
    """Whether another square's ink holds ``share`` of ``square``'s (``planmod.print_held``): the sheet's
    symbol, printed there too and drawn over. Only squares whose ink looks somewhat alike are tried; with
    ``prints`` (the squares' ink less strokes in the pen's colour where a print of another stands apart,
    ``printcolour.hue_layers``), squares whose print looks like it too: a drawing over the other print hides
    the likeness of its ink (where a broad stroke over a print takes part of the print with it, its ink still
    shows the likeness)."""
    own = planmod._small(patches[square])
    looks = [patches] if prints is None else [patches, prints]
    rows, cols = patches.shape[:2]
    return any(max(planmod._similarity(own, planmod._small(inks[r, c])) for inks in looks) >= HELD_ALIKE
               and planmod.print_held(patches[square], patches[r, c], threshold) >= share
               for r in range(rows) for c in range(cols) if (r, c) != square)


def _print_or_ink(layers: Layers | None, ink: np.ndarray) -> np.ndarray:
    return ink if layers is None else layers.print


def lone_gorse(own: Guess) -> Guess:
    """A square read as gorse whose printed twin no other square holds: maybe a drawing the network took for the
    print, flagged.

    >>> lone_gorse(Guess({"k": "gorse"}, 0.9, (({"k": "bunker"}, 0.1),))).confidence < FLAG_BELOW
    True
    """
    return Guess(own.value, min(own.confidence, BLANK_DOUBT), own.alternatives,
                 note="gorse, but no other square holds its print: maybe a drawing")


def _unlike_pen(colours: np.ndarray, readings: list[list[Guess]]) -> list[tuple[int, int]]:
    """Squares read as a tree, bunker or lake, or as scribbled out, whose ink stands out from the colour of the
    plan's pen (``printcolour``; ``colours``: ``ink_colours`` of every square): the colour its fairways,
    tee/greens and hazards share (the print is two of them at most; a scribble is in the pen, and a printed
    cross-hatch can pass for one)."""
    drawn = [(r, c) for r, row in enumerate(readings) for c, read in enumerate(row)
             if read.value["k"] in HAND_DRAWN or read.note == SCRIBBLED]
    return unlike_pen(colours, _pen_squares(readings), drawn)


def _pen_squares(readings: list[list[Guess]]) -> list[tuple[int, int]]:
    """The squares read as drawn in the pen: fairways, tee/greens, trees, bunkers and lakes."""
    return [(r, c) for r, row in enumerate(readings) for c, read in enumerate(row)
            if read.value["k"] in ("fairway", "teegreen", *HAND_DRAWN)]


def over_print(own: Guess, layer: Guess, first: Guess | None = None) -> Guess:
    """A square read as gorse, or unsurely as a tree, bunker or lake, whose ink holds strokes in the pen's colour
    beside a print of another (``printcolour.hue_layers``), read again from those strokes alone (``layer``): a
    tree, bunker or lake read from them (``DRAWN_OVER``, and more surely than the square was) is a drawing over
    the print, and stands, flagged, gorse offered; else a gorse reading stays, flagged, the strokes' reading
    offered, and any other reading as it was. How surely the square was read is the square reader's ``first``
    reading's confidence, when it is the reading still (the print's rules cap a drawing's at ``TWIN_DOUBT``).

    >>> over_print(Guess({"k": "gorse"}, 0.9), Guess({"k": "tree"}, 0.95)).value
    {'k': 'tree'}
    >>> kept = over_print(Guess({"k": "gorse"}, 0.9), Guess({"k": "empty"}, 1.0))
    >>> kept.value, kept.confidence < FLAG_BELOW
    ({'k': 'gorse'}, True)
    >>> over_print(Guess({"k": "bunker"}, 0.5), Guess({"k": "tree"}, 0.9)).value
    {'k': 'tree'}
    >>> over_print(Guess({"k": "bunker"}, 0.9), Guess({"k": "tree"}, 0.95)).value
    {'k': 'bunker'}
    >>> over_print(Guess({"k": "bunker"}, TWIN_DOUBT), Guess({"k": "tree"}, 0.95), Guess({"k": "bunker"}, 0.9)).value
    {'k': 'bunker'}
    """
    drawing = layer.value["k"] in HAND_DRAWN and layer.confidence >= DRAWN_OVER
    gorse = own.value["k"] == "gorse"
    sureness = first.confidence if first is not None and first.value == own.value else own.confidence
    if drawing and (gorse or sureness < min(FLAG_BELOW, layer.confidence)):
        return Guess(layer.value, min(layer.confidence, TWIN_DOUBT),
                     (({"k": "gorse"}, own.confidence),) if gorse else ((own.value, own.confidence), ({"k": "gorse"}, 0.3)),
                     note="drawn over a printed symbol of another colour")
    if not gorse:
        return own
    return Guess(own.value, min(own.confidence, BLANK_DOUBT), (*own.alternatives, (layer.value, layer.confidence)),
                 note="strokes in the pen's colour over the printed symbol: maybe a drawing")


def _look_alikes(patches: dict[tuple[int, int], np.ndarray]) -> list[tuple[int, int]]:
    """Inked squares whose coarse, blurred ink within the grid lines correlates closely with another's: worth
    the exact printed-twin test. (A neighbour's shading run over the line into one of two printed twins took
    their correlation from 0.99 to 0.60.)"""
    keys = [k for k, p in patches.items() if float(p.max()) > 0.2]
    if len(keys) < 2:
        return []
    m = int(round(LINE_MARGIN * next(iter(patches.values())).shape[-1]))
    small = np.stack([cv2.GaussianBlur(cv2.resize(patches[k][m:-m, m:-m], (16, 16), interpolation=cv2.INTER_AREA),
                                       (0, 0), 1.0).ravel() for k in keys])
    small -= small.mean(axis=1, keepdims=True)
    small /= np.linalg.norm(small, axis=1, keepdims=True) + 1e-6
    corr = small @ small.T
    np.fill_diagonal(corr, 0.0)
    return [k for k, best in zip(keys, corr.max(axis=1), strict=True) if best >= LOOK_ALIKE]


@dataclass(frozen=True)
class Squares:
    """Every square of a photo's grid cut out as an ink patch, and the plan's ink level."""

    geometry: Geometry
    patches: np.ndarray  # (rows, cols, CELL, CELL) ink, rectified frame
    threshold: float
    shade: np.ndarray  # (rows, cols) paper darkening lifted from each square (``lift_shade``)


def cut_squares(image: np.ndarray) -> Squares:
    """Find the grid and cut out every square's ink."""
    if image is None or image.ndim != 3 or min(image.shape[:2]) < 64:
        raise ScanError("not a colour photo large enough to read")
    return cut_geometry(find_geometry(image))


def cut_geometry(geo: Geometry) -> Squares:
    """Every square of ``geo``'s lattice cut out as ink, and the plan's ink level."""
    cell_px = float(np.mean(np.diff(geo.lattice.points[:, :, 0], axis=1)))
    ink = ink_map(geo.rectified.image, paper_scale=int(2 * cell_px))
    patches, shade = lift_shade(cut_cells(ink, geo.lattice.ringed(), CELL))
    return Squares(geo, patches, _ink_threshold(patches), shade)


def _label(value: dict) -> str:
    k = value["k"]
    if k == "fairway":
        return "".join(value["edges"])
    if k == "teegreen":
        return f"T{value['tee_edge']}{value['green_edge']}{value['par'] or '?'}"
    if k == "mountain":
        return "M" if value["style"] == "peak" else "X"
    return {"empty": ".", "gorse": "G", "water": "~", "tree": "tr", "bunker": "B", "unknown": "?"}[k]


@dataclass(frozen=True)
class PlanReading:
    """Everything read from a photo, in the rectified frame (``turns`` quarter turns from upright)."""

    geometry: Geometry
    squares: list[list[Guess]]  # final reading of every square, rectified frame
    digits: dict[tuple[int, int], planmod.DigitRead]  # par digit of each tee/green square
    orientation: planmod.Orientation
    threshold: float  # the plan's ink level: what its squares and par digits were cut at


def whole_readings(upright: dict[tuple[int, int], np.ndarray]) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """Each upright tee/green ink crop's par probabilities (``square_par``) and its (tee edge, green edge)
    probabilities (``square_edges``), read in one batch each."""
    if not upright:
        return {}
    inks = list(upright.values())
    return dict(zip(upright, zip(read_squares(inks), read_edges(inks), strict=True), strict=True))


def read_plan(image: np.ndarray, cut_every_square: bool = False) -> PlanReading:
    """Find the grid, read every square and par digit, and find which way is up. With ``cut_every_square``, every
    tee/green's par digit is looked for among its ink pieces, however sure the whole-square reader is of its par
    (``plan.WHOLE_SQUARE_SURE``): to study the digit readers on every square."""
    cut = cut_squares(image)
    geo, patches, threshold = cut.geometry, cut.patches, cut.threshold
    rect, lattice = geo.rectified, geo.lattice
    rows, cols = lattice.rows, lattice.cols

    def full_detail(r: int, c: int, side: int = CROP) -> np.ndarray:  # a square's ink crop cut again from the photo
        return square_ink(image, rect.to_photo(lattice.cell_quad(r, c)), side)

    # Every square read in the rectified frame: its kind from the network, its edges from the strokes.
    flat = patches.reshape(rows * cols, CELL, CELL)
    measured = measure_all(flat, threshold)
    probs_kind = kind_probabilities(flat, measured, threshold)
    guesses = [[_doubt_shade(read_square(measured[r * cols + c], probs_kind[r * cols + c]), cut.shade[r, c] / threshold)
                for c in range(cols)] for r in range(rows)]
    looping = [(r, c) for r in range(rows) for c in range(cols) if scribble_like(guesses[r][c], measured[r * cols + c])]
    loose = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in looping
             and scribble_like(guesses[r][c], measured[r * cols + c], SCRIBBLE_LOOSE)]
    chances = scribbled_probability([full_detail(r, c, SCRIBBLE_SIDE) for r, c in looping + loose])
    for (r, c), chance in zip(looping + loose, chances, strict=True):
        guesses[r][c] = (scribbled_out(guesses[r][c], float(chance)) if (r, c) in looping
                         else scribble_verdict(guesses[r][c], float(chance), SCRIBBLED_SURELY))
    faint = faint_squares(flat, measured, threshold)
    for i, guess in zip(faint, _read_faint(flat, faint, threshold), strict=True):
        guesses[i // cols][i % cols] = guess
    guesses = [[too_faint(guesses[r][c], patches[r, c], threshold) for c in range(cols)] for r in range(rows)]

    # Every tee/green square's ink cut again from the photo at full detail; their par digits settle which way is
    # up (with the trees' votes)
    # a tree drawn in a pen lighter than the plan's other strokes was read at the faint level, and is
    # measured at it
    levels = {i: faint_level(threshold) for i in faint}
    trees = {(r, c): levels.get(r * cols + c, threshold) for r in range(rows) for c in range(cols)
             if guesses[r][c].value["k"] == "tree"}
    inks = {(r, c): full_detail(r, c) for r in range(rows) for c in range(cols)
            if guesses[r][c].value["k"] == "teegreen"}  # read again whole below
    cands: dict[tuple[int, int], list] = {}

    def pieces(square: tuple[int, int]) -> list:  # a tee/green's digit candidates, cut when first wanted
        if square not in cands:
            cands[square] = ink_candidates(inks[square], threshold)
        return cands[square]

    # the whole squares' par digits settle which way is up when they agree surely (``square_turn``); when they do
    # not, the first squares' digit pieces, read at all four turns, which stand unless they name another way up less
    # surely (a plan's tiny, faint digits: whole, 3 turns at 0.72; their pieces, 2 turns at 0.39, every square then
    # read wrong). Where both name one way up, the pieces say how surely: the whole squares' surer word would leave
    # unflagged the reads of a hard photo that only its doubted way up had flagged (0.87 against 0.94)
    up_votes = _tree_votes(trees, patches)
    orient, probs = plan_turn(list(inks.values()), up_votes), {}
    if orient.confidence < planmod.EARLY_SURE:
        pieced, probs = planmod.orientation_and_digits(list(inks), pieces, up_votes)
        orient = orient if pieced.turns != orient.turns and orient.confidence > pieced.confidence else pieced
    turns = orient.turns
    # each tee/green read whole, turned upright: its par (``square_par``), its tee and green edges (``square_edges``)
    whole = whole_readings({sq: np.rot90(ink, turns) for sq, ink in inks.items()})

    def edge_read(r: int, c: int, edge_probs: np.ndarray) -> Guess:  # a tee/green's reading with its edges read
        split = planmod.with_reader_diagonal(guesses[r][c], measured[r * cols + c], edge_probs, turns)
        return planmod.with_edge_reading(split, edge_probs, turns)

    # a par the whole-square reader is sure of is not looked for among the square's pieces, but for a few
    # squares of each chain of holes, whose digits tell each hole's tee from its green
    edged = {(r, c): edge_read(r, c, edge_probs) for (r, c), (_, edge_probs) in whole.items()}
    linked = [[edged.get((r, c), g) for c, g in enumerate(row)] for r, row in enumerate(guesses)]
    unsure = {sq for sq, (par_probs, _) in whole.items()
              if cut_every_square or par_probs.max() < planmod.WHOLE_SQUARE_SURE}
    located = planmod.squares_to_locate(planmod.hole_links(linked, list(inks)), unsure | probs.keys())
    at_turn = [sq for sq in inks if sq in located and sq not in probs]
    probs |= dict(zip(at_turn, planmod.digits_at_turn([pieces(sq) for sq in at_turn], turns), strict=True))

    final = [list(row) for row in guesses]
    # Pre-printed symbols (gorse) come in identical twins; hand drawings never match that closely. A twin
    # overrides an unsure reading too (a printed bush can pass for run-together stipple).
    free = {(r, c): patches[r, c] for r in range(rows) for c in range(cols)
            if guesses[r][c].value["k"] not in ("fairway", "teegreen", "mountain")}
    unread = [(r, c) for (r, c) in free if guesses[r][c].confidence < FLAG_BELOW]
    twins = planmod.printed_twins(free, unread)
    # A sheet printed with another symbol is read confidently as something else: near-identical twins
    # override a confident reading too (a coarse look first keeps this cheap).
    drawn = {(r, c): p for (r, c), p in free.items() if guesses[r][c].value["k"] != "empty"}
    # squares in a colour unlike the pen's are looked at closely too: a fine print's coarse look can miss its twin
    painted, lined = cut_cells(rect.image, lattice, CELL), int(2 * BORDER * CELL)
    colours = ink_colours(painted, patches, threshold, lined)
    off_pen = set(_unlike_pen(colours, guesses))
    alike = sorted((set(_look_alikes(drawn)) | off_pen) - twins.keys())
    near = planmod.printed_twins(free, alike)
    # twins both in a colour unlike the pen's are print however closely one hand might draw two alike: a square
    # whose twin holds all its ink is the print, bare (a square drawn over has ink its twin lacks)
    held = {k: planmod.print_held(patches[k], patches[twin], threshold) >= planmod.HOLDS_PRINT
            for k, (_, twin) in (twins | near).items()}
    # ... and so are twins identical stroke for stroke, held in register, whatever their colour, but for trees
    # (one hand draws its trees to one pattern)
    def kind(square: tuple[int, int]) -> str:
        return guesses[square[0]][square[1]].value["k"]

    identical = {k for k, (_, twin) in (twins | near).items()
                 if held[k] and kind(k) not in ("gorse", "tree") and kind(twin) != "tree"
                 and planmod.registered_likeness(patches[k], patches[twin]) >= planmod.PRINT_IDENTICAL}
    in_print = {k for k, (_, twin) in near.items() if {k, twin} <= off_pen and held[k]} | identical
    twins |= {k: v for k, v in near.items() if v[0] >= PRINTED_SURE or k in in_print}
    # the sheet prints two squares: other twins are one hand's drawing
    printed = planmod.printed_pair(free, twins)
    for (r, c), (score, twin) in twins.items():
        final[r][c] = twin_reading(guesses[r][c], guesses[twin[0]][twin[1]], score, (r, c) in printed,
                                   (r, c) in in_print, not held[r, c])
    # a twin not quite close enough to override may still be another sheet's printed symbol (read as a lake,
    # say): the reading stands, for a person to check
    for r, c in near.keys() - twins.keys():
        final[r][c] = maybe_printed(final[r][c])
    hue = pen_hue(colours, _pen_squares(final))

    @cache
    def layer(r: int, c: int, print_share: float = PRINT_SHARE) -> Layers | None:  # a square's ink parted into
        # the pen's and a print's by hue
        return None if hue is None else hue_layers(painted[r, c], patches[r, c], hue, threshold, lined, print_share)

    # fewer gorse squares than the sheet prints: a drawing in a colour unlike the pen's may be the print; no
    # more of them than the print lacks, each with all its ink within another square's, are that print, bare
    # here and drawn over there
    missing = planmod.PRINTED_SQUARES - sum(g.value["k"] == "gorse" for row in final for g in row)
    if missing > 0:
        unlike = _unlike_pen(colours, final)
        # each square's print, its pen strokes parted out, is wanted only where a lone square may be the bare print
        prints = np.stack([[_print_or_ink(layer(r, c, LIKENESS_PRINT_SHARE), patches[r, c]) for c in range(cols)]
                           for r in range(rows)]) if unlike and len(unlike) <= missing else None
        for r, c in unlike:
            # ... unless its own ink parts into the pen's strokes and a print's: a drawing over the print
            if prints is not None and layer(r, c, LIKENESS_PRINT_SHARE) is None and _held_elsewhere(
                    patches, (r, c), threshold, prints=prints):
                final[r][c] = bare_print(final[r][c])
            else:
                final[r][c] = maybe_printed(drawn_over_print(final[r][c]),
                                            "not in the pen's colour: maybe a symbol printed on the sheet")
    # a square read as gorse or a hazard with strokes in the pen's colour beside a print of another: read again
    # from those strokes alone (the network takes a drawing over the print for the print, or for another hazard)
    layers = {(r, c): layer(r, c) for r in range(rows) for c in range(cols)
              if final[r][c].value["k"] in ("gorse", *HAND_DRAWN) and layer(r, c) is not None}
    if layers:
        alone = np.stack([parted.pen for parted in layers.values()])
        alone_measured = measure_all(alone, threshold)
        alone_probs = kind_probabilities(alone, alone_measured, threshold)
        for (r, c), measure, kinds in zip(layers, alone_measured, alone_probs, strict=True):
            final[r][c] = over_print(final[r][c], read_square(measure, kinds), guesses[r][c])
    # the sheet prints its gorse twice: one square read surely as gorse, its print held by no other square (the
    # other print, drawn over), may be a drawing the network took for the print
    gorse = [(r, c) for r in range(rows) for c in range(cols) if final[r][c].value["k"] == "gorse"]
    if len(gorse) == 1:
        (r, c), = gorse
        if final[r][c].confidence >= FLAG_BELOW and not _held_elsewhere(patches, (r, c), threshold, planmod.HOLDS_PRINT):
            final[r][c] = lone_gorse(final[r][c])
    pieced = planmod.read_pars({sq: (cands[sq], probs[sq]) for sq in inks if sq in located}, turns)
    digit_reads = {sq: pieced.get(sq, planmod.NOT_CUT) for sq in inks}
    # a fairway over a corner-to-corner line with a par digit in it is a tee/green whose split the network missed,
    # unless the whole square, read as a tee/green is, shows neither a par digit nor a tee/green surely
    for r, c in [(r, c) for r in range(rows) for c in range(cols) if planmod.may_be_teegreen(final[r][c])]:
        ink = full_detail(r, c)
        found = ink_candidates(ink, threshold)
        digit = planmod.read_par(found, planmod.digit_probabilities(found, turns), turns)
        teegreen = planmod.par_in_fairway(final[r][c], digit)
        if teegreen is None:
            continue
        read_whole = whole_readings({(r, c): np.rot90(ink, turns)})[r, c]
        if not planmod.unmarked(*read_whole):  # else the digit is some other stroke of the fairway
            guesses[r][c] = final[r][c] = teegreen
            digit_reads[r, c], inks[r, c], whole[r, c] = digit, ink, read_whole
    # every par read once more from its whole square (``square_par``), and the square's tee and green edges read
    # from it too (``square_edges``), which also says which diagonal splits it
    for r, c in digit_reads:
        par_probs, edge_probs = whole[r, c]
        digit_reads[r, c] = planmod.with_square_reading(digit_reads[r, c], par_probs)
        guesses[r][c] = edged[r, c] if (r, c) in edged else edge_read(r, c, edge_probs)
    sides = planmod.tee_sides(guesses, digit_reads)
    for (r, c), digit in digit_reads.items():
        final[r][c] = planmod.resolve_teegreen(guesses, r, c, digit, sides[r, c])
    stray = [(r, c) for r in range(rows) for c in range(cols) if stray_fairway(final, r, c, measured[r * cols + c])]
    # any other fairway that loops as much as a shaded one, or whose ink runs into a blot (loops run together by a
    # broad pen or blur enclose nothing), is asked too, and taken as scribbled out only surely, else flagged when
    # the reader doubts it
    loose = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in stray
             and final[r][c].value["k"] == "fairway" and (looping_share(measured[r * cols + c]) >= FAIRWAY_LOOSE
                                                           or blotted(measured[r * cols + c]))]
    chances = scribbled_probability([full_detail(r, c, SCRIBBLE_SIDE) for r, c in stray + loose], "fairway")
    for (r, c), chance in zip(stray + loose, chances, strict=True):
        sure = SCRIBBLED_SURE if (r, c) in stray else SCRIBBLED_SURELY
        final[r][c] = scribble_verdict(final[r][c], float(chance), sure)
    settled = [list(row) for row in final]  # each doubtful fairway judged by its neighbours as they were read
    final = [[planmod.fairway_from_neighbours(settled, r, c) for c in range(cols)] for r in range(rows)]
    # a fairway still in doubt is read whole, with the ends of its neighbours (``fairway_edges``)
    doubtful = [(r, c) for r in range(rows) for c in range(cols)
                if final[r][c].value["k"] == "fairway" and final[r][c].confidence < ASK]
    edge_pairs = read_fairways(image_context(image, [rect.to_photo(lattice.cell_quad(r, c)) for r, c in doubtful]))
    for (r, c), pair_probs in zip(doubtful, edge_pairs, strict=True):
        final[r][c] = with_whole_reading(final[r][c], pair_probs)
    final = [[lone_peak(final, r, c) for c in range(cols)] for r in range(rows)]
    final = [[joined_mountain(final, r, c) for c in range(cols)] for r in range(rows)]
    final = walled_in_shade(final, cut.shade / threshold)
    # a par read whole that the completed hole it tees off is not as long as is read from the square's pieces too,
    # as a par the two readers agree on stands against the hole's length
    doubted = planmod.read_whole_against_holes(final, digit_reads)
    doubted_probs = planmod.digits_at_turn([pieces(sq) for sq in doubted], turns)
    recut = planmod.read_pars({sq: (pieces(sq), read) for sq, read in zip(doubted, doubted_probs, strict=True)}, turns)
    for r, c in doubted:
        digit_reads[r, c] = planmod.with_square_reading(recut[r, c], whole[r, c][0])
        final[r][c] = planmod.resolve_teegreen(guesses, r, c, digit_reads[r, c], sides[r, c])
    # every par weighed again with the length of the completed hole it tees off
    final, digit_reads = planmod.fitted_to_holes(final, digit_reads, guesses, sides)
    return PlanReading(geo, final, digit_reads, orient, threshold)


def scan(image: np.ndarray, setup: dict | None = None, debug: Debug | None = None, turned: int = 1) -> ScanResult:
    """Read a photo of a course plan, shown turned by the EXIF orientation ``turned`` (a quarter turn: a plan is
    read alike at any turn, its top found from its drawing; the reads are placed on the photo as shown). Raises
    ScanError when no plan can be read."""
    plan = read_plan(image)
    lattice = plan.geometry.lattice
    rect = plan.geometry.rectified.seen_through(displayed_matrix(turned, (image.shape[1], image.shape[0])))
    rows, cols, turns, orient = lattice.rows, lattice.cols, plan.orientation.turns, plan.orientation
    final, digit_reads = plan.squares, plan.digits

    # Upright board.
    up_rows, up_cols = (cols, rows) if turns % 2 else (rows, cols)
    cells: list[list[Any]] = [[None] * up_cols for _ in range(up_rows)]
    reads: list[Read] = []
    warnings: list[str] = []
    # A lattice whose lines the photo does not bear out (an outline found wrongly, a count mistaken) puts
    # every square in doubt.
    grid_doubt = lattice.line_support < GRID_SURE
    if grid_doubt:
        warnings.append(f"the grid's lines are poorly confirmed (support {lattice.line_support:.2f}); check the "
                        "rows, columns and every square")
    for r in range(rows):
        for c in range(cols):
            ur, uc = planmod.upright_index(r, c, rows, cols, turns)
            g = final[r][c]
            value = planmod.rotate_value(g.value, turns)
            cells[ur][uc] = value
            poly = rect.to_photo(lattice.cell_quad(r, c))
            alts = tuple((planmod.rotate_value(v, turns), p) for v, p in g.alternatives)
            # With the plan's top in doubt, every square may sit elsewhere on the upright plan.
            turned_doubt = orient.confidence < ORIENT_SURE
            flagged = g.confidence < FLAG_BELOW or value["k"] == "unknown" or turned_doubt or grid_doubt
            note = g.note or ("grid lines poorly confirmed" if grid_doubt else
                              "plan orientation uncertain" if turned_doubt else
                              f"unsure reading: {value['k']}" if flagged else "")
            reads.append(Read(f"cells[{ur}][{uc}]", value, g.confidence, flagged, poly, alts, note))
            if (r, c) in digit_reads:
                d = digit_reads[r, c]
                doubtful = d.par is None or d.confidence < PAR_SURE or turned_doubt or grid_doubt
                doubt = ("par digit unreadable" if d.par is None else f"par digit read as {d.par}, unsure") \
                    if doubtful else ""
                reads.append(Read(f"cells[{ur}][{uc}].par", d.par, d.confidence, doubtful, poly, d.alternatives,
                                  doubt))
    if orient.confidence < ORIENT_SURE:
        warnings.append(f"orientation of the plan is uncertain (confidence {orient.confidence:.2f}); check that "
                        "row 0 is the top of the sheet")
    if all(v["k"] == "empty" for row in cells for v in row):
        warnings.append("the plan looks blank: nothing drawn in any square")
    board = {
        "format": f"golfscan/{GAME}",
        "version": 1,
        "player": (setup or {}).get("player", ""),
        "setup": {"prime_location": int((setup or {}).get("prime_location", 0)),
                  "committee_bonus": int((setup or {}).get("committee_bonus", 0))},
        "grid": {"rows": up_rows, "cols": up_cols},
        "cells": cells,
        "source": {"scanner": SCANNER, "turns": turns, "orientation_confidence": round(orient.confidence, 3),
                   "grid_corners": rect.to_photo(lattice.corners()).round(1).tolist()},
        "review": [r.review_entry() for r in reads if r.flagged],
    }
    result = ScanResult(GAME, board, reads, partial(draw_overlay, image, reads, rect, lattice, turned), warnings)
    if debug is not None:
        debug.add("grid", lattice.draw(rect.image))
        debug.add("reads", result.overlay)
    return result


def draw_overlay(image: np.ndarray, reads: list[Read], rect: Rectified, lattice: Lattice, turned: int = 1) -> np.ndarray:
    """The photo (shown turned by the EXIF orientation ``turned``) with the grid and each square's reading;
    doubtful reads in red."""
    image = oriented(image, turned)
    thick = max(1, image.shape[1] // 800)
    pts = rect.to_photo(lattice.points.reshape(-1, 2)).reshape(lattice.points.shape)
    drawn = Lattice(pts, lattice.line_support).draw(image, (0, 200, 0))  # a copy
    scale = max(0.4, float(np.linalg.norm(pts[0, 1] - pts[0, 0])) / 80)
    for read in reads:
        if read.where.endswith(".par") or read.polygon is None:
            continue
        centre = read.polygon.mean(axis=0)
        color = (0, 0, 255) if read.flagged else (200, 60, 0)
        if read.flagged:
            cv2.polylines(drawn, [read.polygon.astype(np.int32).reshape(-1, 1, 2)], True, color, 2 * thick)
        text = _label(read.value)
        size = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)[0]
        org = (int(centre[0] - size[0] / 2), int(centre[1] + size[1] / 2))
        cv2.putText(drawn, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, color, thick + 1, cv2.LINE_AA)
    return drawn


def likelihood(image: np.ndarray) -> float:
    """How much the photo looks like a course plan: a large, regular grid of squares on paper, its lines
    well confirmed or its squares plainly paper (thin lines of a sheet far from the camera confirm poorly,
    while tiles and cards that happen to line up are coloured)."""
    try:
        geo = find_geometry(image)
    except ScanError:
        return 0.0
    lat = geo.lattice
    squares = lat.rows * lat.cols
    paper = paper_share(geo)
    return float(min(1.0, squares / 50) * max(lat.line_support, paper) * min(1.0, paper / PAPER_PLAN))


def paper_share(geo: Geometry) -> float:
    """Share of the grid's area that is bright and colourless, as paper is, once the grid's brightest
    colours are balanced to white (warm or coloured light tints the paper): about 0.65-1 on course plans
    (ours and another printing), at most 0.3 on tiles and cards that a grid was found in."""
    return paper_within(geo.rectified.image, geo.lattice.corners())


def paper_within(image: np.ndarray, corners: np.ndarray) -> float:
    """``paper_share`` of the part of ``image`` within the quadrilateral ``corners``."""
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 1)
    # every other pixel each way: a share over some 100 000 pixels does not need all 400 000
    pixels = image[::2, ::2][inside[::2, ::2] > 0]
    hsv = cv2.cvtColor(balanced_to_white(pixels).reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    bright = hsv[:, 2] > 0.6 * uint8_percentile(hsv[:, 2], 95)
    return float(np.mean(bright & (hsv[:, 1] < PAPER_SATURATION)))

"""Par digits of 18 Holes tee/green squares: candidates cut from the photo, and their reading."""

from __future__ import annotations

import cv2
import numpy as np

from scanner.games.eighteen import PAR_SURE
from scanner.games.eighteen.classify import Guess
from scanner.games.eighteen.digits import LABELS, Candidate, read_digit, read_rotations, read_turned, steady
from scanner.games.eighteen.parmarks import (
    CROP,
    diagonal_band,
    diagonal_stroke,
    pieces_to_candidates,
    square_candidates,
    square_ink,
    with_erased,
    without_diagonal,
    without_lines,
)
from scanner.games.eighteen.plan import (
    EARLY,
    UNSTEADY,
    DigitRead,
    digit_probabilities,
    digits_at_turn,
    half_of,
    hole_lengths,
    orientation_and_digits,
    read_par,
    resolve_teegreen,
    side_evidence,
    with_hole_length,
    with_square_reading,
)
from scanner.games.eighteen.square_par import CLASSES, read_squares

QUAD = np.float32([[60, 60], [180, 60], [180, 180], [60, 180]])  # a 120-pixel square


def _sheet() -> np.ndarray:
    """A printed grid around QUAD (lines every 120 pixels) on cream paper."""
    img = np.full((240, 240, 3), (225, 238, 245), np.uint8)
    for at in (60, 180):
        cv2.line(img, (0, at), (239, at), (120, 120, 120), 2)
        cv2.line(img, (at, 0), (at, 239), (120, 120, 120), 2)
    return img


def _write(img: np.ndarray, text: str, at: tuple[int, int], scale: float = 1.3) -> None:
    cv2.putText(img, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (140, 40, 20), 3, cv2.LINE_AA)


def test_a_stroke_across_a_printed_line_is_kept_whole():
    b = np.zeros((100, 100), np.uint8)
    b[50:52, :] = 1  # a printed line
    b[36:64, 20:23] = 1  # a pen stroke across it
    cleaned = without_lines(b, 80)
    assert cleaned[50:52, 20:23].all()  # the crossing stays
    assert not cleaned[50:52, 40:90].any()  # the rest of the line goes
    count, _ = cv2.connectedComponents(cleaned)
    assert count == 2  # one piece (and the background)


def test_digit_found_beside_the_diagonal_and_read():
    img = _sheet()
    cv2.line(img, (60, 60), (180, 180), (140, 40, 20), 3)  # the diagonal, TL-BR
    cv2.line(img, (150, 60), (150, 100), (140, 40, 20), 3)  # a stub from the N edge
    _write(img, "5", (72, 165))  # in the lower left triangle
    cands = square_candidates(img, QUAD, 0.3)
    assert cands
    best = max(cands, key=lambda c: read_digit(c.patch)[LABELS.index("5")])
    assert LABELS[int(np.argmax(read_digit(best.patch)))] == "5"
    assert half_of(0, best.centre) == 1  # the S/W triangle: the tee is there
    assert best.patch.shape[0] > 0.2 * CROP  # read at full detail, not from a 64-pixel square


def test_digit_written_over_the_grid_line_is_one_candidate():
    img = _sheet()
    cv2.line(img, (60, 180), (180, 60), (140, 40, 20), 3)  # the diagonal, BL-TR
    _write(img, "3", (140, 190))  # its foot runs over the bottom grid line
    cands = square_candidates(img, QUAD, 0.3)
    assert cands and all(c.patch.shape[0] >= 0.2 * CROP for c in cands)  # whole: above and below the line
    assert all(LABELS[int(np.argmax(read_digit(c.patch)))] == "3" for c in cands)  # at every ink level


def test_a_broad_diagonal_is_erased_across_its_whole_breadth():
    """A broad pen's diagonal, a little off the corners: the coarse path keeps to one edge of the stroke,
    the erasing follows the stroke's middle."""
    pad = (126 - CROP) // 2
    b = np.zeros((126, 126), np.uint8)
    cv2.line(b, (pad + 4, pad), (pad + CROP, pad + CROP - 4), 1, 9)
    assert without_diagonal(b, diagonal_band(b.shape, *diagonal_stroke(b, CROP, pad), CROP)).sum() < 0.05 * b.sum()


def test_a_stroke_across_the_diagonal_is_kept_and_one_ending_on_it_is_not_extended():
    b = np.zeros((100, 100), np.uint8)
    cv2.line(b, (0, 0), (99, 99), 1, 3)  # the diagonal
    cv2.line(b, (25, 55), (55, 25), 1, 2)  # a pen stroke across it
    cv2.line(b, (70, 70), (70, 40), 1, 2)  # a stub drawn up to it from one side
    cleaned = without_diagonal(b, diagonal_band(b.shape, np.float32([[0, 0], [99, 99]]), 7, 96))
    count, labels = cv2.connectedComponents(cleaned)
    assert count == 3  # the crossing stroke in one piece, the stub (and the background)
    assert labels[30, 50] == labels[50, 30]  # the crossing stroke's two ends are one piece
    assert not cleaned[66:78, 66:78].any()  # the diagonal where the stub meets it is erased all the same


def test_digit_written_over_the_diagonal_is_read():
    """A bold 4 across a fine diagonal: the erasing is as broad as the diagonal (not the digit's strokes),
    and the digit's strokes across it stay."""
    img = _sheet()
    cv2.line(img, (60, 60), (180, 180), (140, 40, 20), 3)
    _write(img, "4", (106, 137))  # the diagonal runs through its bar and stem
    cands = square_candidates(img, QUAD, 0.3)
    assert any(LABELS[int(np.argmax(read_digit(c.patch)))] == "4" for c in cands)


def test_erased_strokes_touching_a_candidate_are_put_back_within_its_box():
    mask = np.zeros((30, 20), np.uint8)
    mask[5:25, 8:10] = 1  # what is left of the digit
    erased = np.zeros_like(mask)
    erased[:, 10:12] = 1  # a line along it, erased
    erased[2, 0:4] = 1  # a stroke that does not touch it
    whole = with_erased(mask, erased)
    assert whole[:, 10:12].all() and not whole[2, 0:4].any()
    assert with_erased(mask, np.zeros_like(mask)) is None


def test_a_4_whose_slanting_stroke_lies_on_the_diagonal_is_read():
    """Erasing the diagonal takes the 4's slanting stroke with it; put back, the 4 reads."""
    img = _sheet()
    ink = (140, 40, 20)
    cv2.line(img, (60, 180), (180, 60), ink, 3)  # the diagonal, BL-TR
    cv2.line(img, (95, 145), (138, 145), ink, 3)  # the 4's bar from the diagonal
    cv2.line(img, (125, 122), (125, 160), ink, 3)  # and its stem: the slanting stroke is the diagonal's own
    cands = square_candidates(img, QUAD, 0.3)
    assert any(LABELS[int(np.argmax(read_digit(c.patch)))] == "4" for c in cands)


def test_a_few_pixels_cut_off_a_digit_stay_with_it():
    """A line or the diagonal taken out of a digit's stroke can leave a sliver of it apart (here the end of
    a 5's bar, nine pixels): it is still grouped with the rest."""
    b = np.zeros((126, 126), np.uint8)
    cv2.putText(b, "5", (50, 75), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 1, 2)
    b[55:64, 58:60] = 0  # the bar cut through
    assert b[55:64, 60:].sum() == 9
    cands = pieces_to_candidates(b, CROP, (126 - CROP) // 2)
    assert max(int(c.patch.sum()) for c in cands) == int(b.sum())


def test_ring_round_a_digit_gives_the_digit_inside():
    img = _sheet()
    cv2.line(img, (60, 60), (180, 180), (140, 40, 20), 3)
    _write(img, "4", (140, 110), 1.0)
    cv2.circle(img, (152, 97), 18, (140, 40, 20), 2)  # the ring touches the digit
    cands = square_candidates(img, QUAD, 0.3)
    heights = sorted(c.patch.shape[0] for c in cands)
    assert len(heights) >= 2 and heights[0] < 0.75 * heights[-1]  # the digit alone, and digit with ring
    inside = min(cands, key=lambda c: c.patch.shape[0])
    assert LABELS[int(np.argmax(read_digit(inside.patch)))] == "4"


def test_digit_blurred_into_its_ring_is_read_at_the_strokes_dark_cores():
    img = _sheet()
    cv2.line(img, (60, 60), (180, 180), (140, 40, 20), 3)
    cv2.circle(img, (152, 99), 14, (170, 90, 60), 5)  # a ring drawn lighter, close round the digit
    cv2.putText(img, "3", (140, 112), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (120, 20, 10), 4, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 2.5)  # ring and digit run together at the lower ink levels
    cands = square_candidates(img, QUAD, 0.3)
    best = max((read_digit(c.patch) for c in cands), key=lambda p: p[:3].max())
    assert LABELS[int(np.argmax(best))] == "3"


def _digit(text: str) -> np.ndarray:
    """A clean binary crop of a written digit."""
    img = np.zeros((40, 32), np.uint8)
    cv2.putText(img, text, (4, 34), cv2.FONT_HERSHEY_SIMPLEX, 1.1, 1, 3)
    ys, xs = np.nonzero(img)
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _reading(*rows: tuple[float, float, float, float]) -> np.ndarray:
    """Probabilities (pieces, 4 turns, 4 classes) with the given upright row per piece, "other" turned."""
    probs = np.tile(np.array([0.0, 0.0, 0.0, 1.0]), (len(rows), 4, 1))
    probs[:, 0] = rows
    return probs


def test_one_clear_piece_gives_the_par():
    four = _digit("4")
    cands = [Candidate(four, (0.3, 0.7), (30, 80)), Candidate(np.ones((9, 9), np.uint8), (0.7, 0.2), (80, 20)),
             Candidate(np.pad(four, 1), (0.3, 0.7), (29, 79))]  # the same mark cut at another ink level
    read = read_par(cands, _reading((0.02, 0.95, 0.01, 0.02), (0.0, 0.02, 0.0, 0.98), (0.05, 0.9, 0.03, 0.02)), 0)
    assert read.par == 4 and read.confidence > 0.9 and read.centre == (0.3, 0.7)


def test_a_par_only_one_cut_of_the_mark_gives_is_flagged():
    four = _digit("4")
    cands = [Candidate(four, (0.3, 0.7), (30, 80)), Candidate(np.pad(four, 1), (0.3, 0.7), (29, 79))]
    read = read_par(cands, _reading((0.02, 0.95, 0.01, 0.02), (0.05, 0.1, 0.05, 0.8)), 0)
    assert read.par == 4 and read.confidence <= UNSTEADY  # the other level's cut is no digit: a guess


def test_a_par_read_only_with_erased_strokes_put_back_is_flagged():
    """A piece of line put back can pass for a digit's stroke: such a reading needs the mark as cut to agree."""
    five = _digit("5")
    restored = [Candidate(np.pad(five, k), (0.3, 0.7), (30 - k, 80 - k), restored=True) for k in (0, 1, 2)]
    cut = Candidate(five[:, 4:], (0.32, 0.7), (34, 80))  # the same mark as cut, its stem lost with a line
    fives = [(0.01, 0.01, 0.97, 0.01)] * 3
    alone = read_par([*restored, cut], _reading(*fives, (0.05, 0.05, 0.1, 0.8)), 0)
    assert alone.par == 5 and alone.confidence <= UNSTEADY
    agreed = read_par([*restored, cut], _reading(*fives, (0.02, 0.01, 0.93, 0.04)), 0)
    assert agreed.par == 5 and agreed.confidence > PAR_SURE


def test_two_pieces_read_as_different_pars_offer_the_clearer_flagged():
    cands = [Candidate(np.ones((20, 12), np.uint8), (0.3, 0.7), (30, 80)),
             Candidate(np.ones((18, 12), np.uint8), (0.7, 0.2), (80, 20))]
    read = read_par(cands, _reading((0.02, 0.95, 0.01, 0.02), (0.6, 0.05, 0.05, 0.3)), 0)
    assert read.par == 4 and read.confidence < PAR_SURE  # the clearer piece's reading, for review


def test_a_piece_that_is_no_clear_digit_leaves_the_par_unread():
    cands = [Candidate(np.ones((20, 12), np.uint8), (0.3, 0.7), (30, 80))]
    read = read_par(cands, _reading((0.1, 0.35, 0.05, 0.5)), 0)
    assert read.par is None
    assert read.alternatives[0][0] == 4  # offered first to the person reviewing


def _teegreen_square() -> list[list[Guess]]:
    """One tee/green square, diagonal TL-BR, stub lines clearly at N (upper triangle) and at W (lower)."""
    return [[Guess({"k": "teegreen"}, 0.95, diagonal=0, halves=((3.0, 0.0), (0.0, 3.0)))]]


def test_tee_is_the_triangle_holding_the_digit():
    four = Candidate(_digit("4"), (0.25, 0.7), (25, 80))  # cut alike at two ink levels: a steady reading
    cands = [four, four, Candidate(np.ones((9, 9), np.uint8), (0.7, 0.3), (80, 30))]
    digit = read_par(cands, _reading((0.02, 0.95, 0.01, 0.02), (0.02, 0.95, 0.01, 0.02), (0.0, 0.02, 0.0, 0.98)), 0)
    g = resolve_teegreen(_teegreen_square(), 0, 0, digit)
    assert (g.value["tee_edge"], g.value["green_edge"], g.value["par"]) == ("W", "N", 4)
    assert g.confidence > 0.8


def test_digit_like_pieces_in_both_triangles_leave_the_sides_in_doubt():
    cands = [Candidate(np.ones((20, 12), np.uint8), (0.25, 0.7), (25, 80)),
             Candidate(np.ones((20, 12), np.uint8), (0.7, 0.3), (80, 30))]
    digit = read_par(cands, _reading((0.02, 0.95, 0.01, 0.02), (0.05, 0.5, 0.05, 0.4)), 0)
    g = resolve_teegreen(_teegreen_square(), 0, 0, digit)
    assert g.confidence < 0.8  # flagged: tee and green may be the other way round


def test_a_reading_that_flips_with_a_pixel_of_ink_is_flagged():
    blob = np.ones((20, 14), np.uint8)  # no digit: whatever it reads as, it does not read so steadily
    read = read_par([Candidate(blob, (0.3, 0.7))], _reading((0.02, 0.95, 0.01, 0.02)), 0)
    assert read.par == 4 and read.confidence <= UNSTEADY  # still offered, but flagged


def test_a_clear_digit_reads_steadily_whichever_way_the_plan_lies():
    three = _digit("3")
    assert steady([three], 0) == [True]
    assert steady([np.ascontiguousarray(np.rot90(three, -1))], 1) == [True]  # the plan photographed turned a quarter


def test_crops_asked_together_are_judged_each_as_alone():
    """A stroke one pixel wide has no thinner variant: the crops after it must still line up with their readings."""
    three, smear, stroke = _digit("3"), np.ones((20, 14), np.uint8), np.zeros((20, 14), np.uint8)
    stroke[2:18, 6] = 1
    together = steady([three, stroke, smear, three], 0)
    assert together == [True, False, False, True]
    assert together == [steady([crop], 0)[0] for crop in (three, stroke, smear, three)]
    assert steady([], 0) == []


def test_a_dark_printed_border_does_not_hide_a_faint_digit():
    """The ink level of a digit crop follows the pen strokes inside the square, not the printed border
    (often far darker than a pencil)."""
    img = _sheet()
    for at in (60, 180):
        cv2.line(img, (0, at), (239, at), (25, 25, 25), 9)
        cv2.line(img, (at, 0), (at, 239), (25, 25, 25), 9)
    faint = (190, 205, 215)
    cv2.line(img, (60, 60), (180, 180), faint, 3)
    cv2.putText(img, "5", (72, 165), cv2.FONT_HERSHEY_SIMPLEX, 1.3, faint, 3, cv2.LINE_AA)
    cands = square_candidates(img, QUAD, 0.1)
    assert any(LABELS[int(np.argmax(read_digit(c.patch)))] == "5" for c in cands)


def test_a_light_pen_digit_is_cut_below_the_plans_own_ink_level(monkeypatch):
    """A plan's ink level is set by all its strokes (dark lines, shading elsewhere): a light pen's digit in a
    square may be fainter than that level, yet stands clear of the paper at half of it."""
    from scanner.games.eighteen import parmarks

    img = _sheet()
    light = (180, 190, 200)  # ink strength 0.2 on this paper
    cv2.line(img, (60, 60), (180, 180), light, 3)
    cv2.putText(img, "5", (72, 165), cv2.FONT_HERSHEY_SIMPLEX, 1.3, light, 3, cv2.LINE_AA)

    def reads_five() -> bool:
        return any(LABELS[int(np.argmax(read_digit(c.patch)))] == "5" for c in square_candidates(img, QUAD, 0.3))

    assert reads_five()
    monkeypatch.setattr(parmarks, "FAINTEST", 1.0)  # no level below the plan's: the digit is lost
    assert not reads_five()


def test_a_blurred_digit_in_a_ring_is_found_at_the_higher_ink_level():
    """Blur closes the gap between a digit and the ring round it: at the lower ink level they are one blot,
    the strokes' cores keep them apart. The square is cut at both, so the digit is found."""
    from scanner.games.eighteen.parmarks import LEVELS

    img = _sheet()
    cv2.line(img, (60, 60), (180, 180), (140, 40, 20), 3)
    cv2.putText(img, "5", (80, 162), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (140, 40, 20), 3, cv2.LINE_AA)
    cv2.circle(img, (92, 150), 15, (140, 40, 20), 3)
    img = cv2.GaussianBlur(img, (0, 0), 2.5)

    def reads_five(levels: tuple[float, ...]) -> bool:
        cands = square_candidates(img, QUAD, 0.3, levels=levels)
        return any(LABELS[int(np.argmax(read_digit(c.patch)))] == "5" for c in cands)

    assert not reads_five(LEVELS[:1])
    assert reads_five(LEVELS)



def test_many_pieces_read_at_once_read_as_each_alone():
    """A busy square gives dozens of pieces, read in one batch of four turns each."""
    from scanner.games.eighteen.digits import read_rotations

    patches = [_digit("345"[k % 3]) for k in range(40)]
    together = read_rotations(patches)
    assert together.shape == (40, 4, len(LABELS))
    assert np.allclose(together[7], read_rotations(patches[7:8])[0], atol=1e-5)


def _drawn(strokes: list[np.ndarray], width: int, shear: float) -> np.ndarray:
    """A digit drawn with a round pen along polylines (unit box, y down) onto a 48-pixel-tall crop, sheared."""
    img = np.zeros((64, 64), np.uint8)
    m = np.float32([[30, -30 * shear], [0, 44]])
    for pts in strokes:
        xy = (np.asarray(pts, np.float32) @ m.T + [12 + 15 * shear, 10]).round().astype(np.int32)
        cv2.polylines(img, [xy.reshape(-1, 1, 2)], False, 1, width, cv2.LINE_8)
    ys, xs = np.nonzero(img)
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _arc(cx: float, cy: float, rx: float, ry: float, start: float, stop: float) -> np.ndarray:
    a = np.radians(np.linspace(start, stop, 24))
    return np.c_[cx + rx * np.cos(a), cy + ry * np.sin(a)]


# Hands drawn here from lines and arcs, none of them the training's glyphs: a 3 of two bowls meeting in a
# point, a 3 with a flat top and a round belly, a 4 whose stem stands apart from its open arm, a 4 whose bar
# runs far past the stem, a 5 whose bar floats free of its stem, a 5 with a bar on a long flat neck.
UNSEEN = {
    "3": [[_arc(0.45, 0.25, 0.42, 0.25, 200, 450)[:-4], _arc(0.45, 0.72, 0.5, 0.28, 270, 520)],
          [[(0.05, 0.0), (0.85, 0.0), (0.45, 0.38)], _arc(0.45, 0.68, 0.5, 0.32, 270, 500)]],
    "4": [[[(0.4, 0.0), (0.0, 0.62), (1.0, 0.62)], [(0.8, 0.05), (0.76, 1.0)]],
          [[(0.6, 0.0), (0.1, 0.7), (1.0, 0.7)], [(0.58, 0.2), (0.58, 1.0)]]],
    "5": [[[(0.12, 0.06), (0.08, 0.45)], _arc(0.45, 0.7, 0.48, 0.3, 215, 500), [(0.32, 0.0), (0.95, 0.0)]],
          [[(0.95, 0.0), (0.1, 0.0), (0.08, 0.42), (0.45, 0.38)], _arc(0.45, 0.7, 0.5, 0.32, 270, 500)]],
}


def test_the_network_reads_hands_unlike_its_training_glyphs():
    """Digits of shapes the training never drew, each in a fine and a broad pen, upright and slanted."""
    misread = []
    for text, shapes in UNSEEN.items():
        for k, strokes in enumerate(shapes):
            for width, shear in ((2, 0.0), (4, 0.25), (3, -0.15)):
                probs = read_digit(_drawn(strokes, width, shear))
                if LABELS[int(np.argmax(probs))] != text or probs.max() < 0.6:
                    misread.append((text, k, width, shear, np.round(probs, 2).tolist()))
    assert not misread


def test_training_candidates_are_labelled_by_how_much_of_the_digit_they_hold():
    """The whole digit is its par (and "other" when read turned); a stray mark, a part of the digit or a blot
    is "other"; a piece between is left out."""
    from scanner.games.eighteen.digits_train import OTHER_KEEP, labelled

    patch = _digit("5")
    whole, stray, part, blot, between = ((patch, 0.95, 0.9, 0.05), (patch, 0.1, 0.05, 0.0), (patch, 0.95, 0.4, 0.0),
                                         (patch, 0.9, 0.9, 0.6), (patch, 0.6, 0.9, 0.1))
    rng = np.random.default_rng(0)
    assert all((turn == 0) == (label == LABELS.index("5")) for _ in range(20)
               for _, turn, label in labelled([whole], 5, rng))
    others = [label for _ in range(200) for _, _, label in labelled([stray, part, blot], 5, rng)]
    assert set(others) == {LABELS.index("other")}
    assert 0.8 * OTHER_KEEP < len(others) / 600 < 1.2 * OTHER_KEEP
    assert not labelled([between], 5, rng)


def test_each_upright_digit_is_trained_once_more_varied():
    from scanner.games.eighteen.digits_train import varied

    five, other = _digit("5"), np.ones((9, 9), np.uint8)
    extra = varied([(five, 0, 2), (five, 1, 3), (other, 0, 3)], np.random.default_rng(1))
    assert len(extra) == 1 and extra[0][1:] == (0, 2)
    assert extra[0][0].any() and not np.array_equal(extra[0][0], five)


def test_a_fairway_drawn_for_training_gives_only_other_candidates():
    """Now and then the training square is a fairway (mostly shaded): none of its pieces may pass for a par."""
    from scanner.games.eighteen.digits_train import labelled, measured_candidates

    rng, pick = np.random.default_rng(3), np.random.default_rng(4)
    pieces = 0
    while pieces < 10:  # a plain fairway's long lines give no digit-sized piece: go on to a shaded one
        measured, par = measured_candidates(rng)
        if par is None:
            pieces += len(measured)
            assert all(share == 0.0 for _, share, _, _ in measured)
            assert {label for _, _, label in labelled(measured, par, pick)} <= {LABELS.index("other")}


def test_a_crop_read_at_one_known_turn_reads_as_at_that_turn_of_all_four():
    crops = [_digit(text) for text in "3453"]
    every = read_rotations(crops)
    for turns in range(4):
        one = read_turned(crops, turns)
        assert np.allclose(one, every[:, turns], atol=1e-5)  # each turn of a crop is turned before it is scaled


def _square_of(text: str, turns: int) -> list[Candidate]:
    """One square's candidates: a written digit, photographed ``turns`` quarter turns clockwise (the grid is
    upright after as many anticlockwise)."""
    return [Candidate(np.ascontiguousarray(np.rot90(_digit(text), -turns)), (0.3, 0.3))]


def test_once_the_first_squares_settle_the_top_the_rest_are_neither_cut_nor_read():
    # these digits settle the top after seven squares (0.9899 after six), so the last three come after that
    cands = {(0, k): _square_of("345"[k % 3], 1) for k in range(max(EARLY, 7) + 3)}
    cut = []
    orient, probs = orientation_and_digits(list(cands), lambda sq: cut.append(sq) or cands[sq], np.zeros(4))
    assert orient.turns == 1 and orient.confidence > 0.99
    assert cut == list(probs) == list(cands)[:-3]  # the squares read, in order, each cut once
    for sq in probs:  # read at every turn
        assert np.allclose(probs[sq], digit_probabilities(cands[sq]), atol=1e-5)
    late = list(cands)[-3:]  # read later at the plan's turn, they read as they would at all four
    at_turn = digits_at_turn([cands[sq] for sq in late], orient.turns)
    for sq, read in zip(late, at_turn, strict=True):
        assert np.allclose(read[:, 1], digit_probabilities(cands[sq])[:, 1], atol=1e-5)
        assert np.allclose(read[:, [0, 2, 3], -1], 1.0)


def test_squares_that_do_not_settle_the_top_are_all_read_at_every_turn():
    # every square turned another way: no turn wins clearly, so every square is read at every turn
    cands = {(0, k): _square_of("345"[k % 3], k % 4) for k in range(EARLY + 2)}
    orient, probs = orientation_and_digits(list(cands), cands.get, np.zeros(4))
    assert orient.confidence < 0.99
    assert list(probs) == list(cands)
    for sq in cands:
        assert np.allclose(probs[sq], digit_probabilities(cands[sq]), atol=1e-5)


def _teegreen_sheet(text: str, at: tuple[int, int], scale: float) -> np.ndarray:
    img = _sheet()
    cv2.line(img, (60, 60), (180, 180), (140, 40, 20), 3)  # the diagonal
    cv2.line(img, (120, 60), (120, 90), (140, 40, 20), 3)  # a fairway stub on N
    _write(img, text, at, scale)
    return img


def test_the_whole_square_reader_reads_each_par_and_tells_a_fairway_apart():
    fairway = _sheet()
    cv2.line(fairway, (120, 60), (120, 180), (140, 40, 20), 3)
    pars = [3, 3, 4, 4, 5, 5]  # each written large in the lower triangle and smaller in the upper one
    sheets = [_teegreen_sheet(str(par), *[((75, 160), 1.3), ((130, 100), 1.0)][k % 2]) for k, par in enumerate(pars)]
    probs = read_squares([square_ink(img, QUAD) for img in (*sheets, fairway)])
    assert [CLASSES[int(np.argmax(p))] for p in probs] == [*pars, None]
    assert probs.max(axis=1).min() > 0.9


def _square_probs(par: int | None, p: float) -> np.ndarray:
    probs = np.full(4, (1 - p) / 3)
    probs[CLASSES.index(par)] = p
    return probs


def test_an_unread_par_takes_the_square_readers_par_flagged():
    read = with_square_reading(DigitRead(None, 0.0, None, ((4, 0.3),)), _square_probs(5, 0.98))
    assert read.par == 5 and read.confidence < PAR_SURE and read.alternatives[0][0] == 4


def test_readers_that_disagree_give_the_square_readers_par_flagged_with_the_digits_offered():
    # the whole-square reader is right more often (it errs on small digits, the digit reader on broken cuts)
    for digit in (DigitRead(4, 0.5, (0.3, 0.7)), DigitRead(4, 0.97, (0.3, 0.7))):
        read = with_square_reading(digit, _square_probs(5, 0.9))
        assert read.par == 5 and read.confidence < PAR_SURE and read.alternatives[0][0] == 4


def test_two_readers_agreeing_surely_make_the_par_sure():
    agreed = with_square_reading(DigitRead(3, 0.7, (0.3, 0.7)), _square_probs(3, 0.97))
    assert agreed.par == 3 and agreed.confidence >= PAR_SURE
    unsure = with_square_reading(DigitRead(3, 0.7, (0.3, 0.7)), _square_probs(3, 0.8))
    assert unsure.par == 3 and unsure.confidence < PAR_SURE
    alone = with_square_reading(DigitRead(None, 0.1, (0.3, 0.7)), _square_probs(3, 0.97))
    assert alone.par == 3 and alone.confidence < PAR_SURE  # one reader is never sure alone


def test_the_square_readers_par_does_not_move_where_the_digit_lies():
    # the whole-square reader says which par, not where it is written: a piece the digit reader was unsure of,
    # in the tee's triangle or not, keeps its own weight as evidence of the tee's side
    g = Guess({"k": "teegreen"}, 0.9, diagonal=0)
    for digit, square in [(DigitRead(3, 0.62, (0.8, 0.2), digit_like=0.95), _square_probs(3, 0.99)),  # agreeing
                          (DigitRead(4, 0.5, (0.8, 0.2), digit_like=0.95), _square_probs(5, 0.9))]:  # overruled
        read = with_square_reading(digit, square)
        assert read.confidence != digit.confidence
        assert side_evidence(g, read) == side_evidence(g, digit) > 0


def _guess(value: dict) -> Guess:
    return Guess(value, 0.9)


def test_hole_lengths_are_traced_as_the_rules_trace_them():
    tee = {"k": "teegreen", "tee_edge": "E", "green_edge": "S", "par": 4}
    green = {"k": "teegreen", "tee_edge": "S", "green_edge": "W", "par": 3}
    straight = {"k": "fairway", "edges": ["E", "W"]}
    empty = {"k": "empty"}
    squares = [[_guess(v) for v in row] for row in ([tee, straight, straight, green], [empty] * 4)]
    # r0c0 tees off east along two fairways into r0c3's green; r0c3 tees off south into an empty square
    assert hole_lengths(squares) == {(0, 0): 4, (0, 3): 0}


def test_a_doubtful_par_that_its_hole_bears_out_takes_the_holes_length_flagged():
    digit = DigitRead(3, 0.5, (0.2, 0.8), ((4, 0.3),))
    doubtful = with_square_reading(digit, _square_probs(3, 0.5))
    read = with_hole_length(doubtful, 4)
    assert read.par == 4 and read.confidence < PAR_SURE and read.alternatives[0][0] == 3
    # both readers clear: the par stands, though less sure; an incomplete hole or one of no par's length: as read
    both = with_square_reading(DigitRead(3, 0.95, (0.2, 0.8), ((4, 0.02),)), _square_probs(3, 0.97))
    assert both.confidence >= PAR_SURE and with_hole_length(both, 4).par == 3
    assert with_hole_length(doubtful, 0) == doubtful == with_hole_length(doubtful, 6)


def test_a_hole_as_long_as_the_par_makes_the_par_surer():
    read = with_square_reading(DigitRead(3, 0.7, (0.3, 0.7)), _square_probs(3, 0.8))
    assert read.confidence < PAR_SURE <= with_hole_length(read, 3).confidence


def test_a_par_the_square_reader_doubts_yields_to_its_holes_length_flagged():
    # the digit reader's 3 at 0.975 beside the square reader's 5 at 0.7: a 3, in doubt ...
    doubted = with_square_reading(DigitRead(3, 0.975, (0.2, 0.8)), np.array([0.2, 0.05, 0.7, 0.05]))
    assert doubted.par == 3 and doubted.confidence < PAR_SURE
    # ... and a completed hole five squares long makes 5 the likelier par, still flagged
    read = with_hole_length(doubted, 5)
    assert read.par == 5 and read.confidence < PAR_SURE


def test_an_unread_par_of_a_completed_hole_is_offered_as_its_length():
    unread = with_square_reading(DigitRead(None, 0.0, None), _square_probs(None, 0.9))
    read = with_hole_length(unread, 5)
    assert abs(unread.confidence - 1 / 3) < 1e-6 and read.par == 5 and unread.confidence < read.confidence < PAR_SURE


def test_a_par_only_the_square_reader_read_is_weighed_with_its_completed_holes_length_flagged():
    # the digit reader found no par digit; the square reader alone says 3 at 0.95, no surer than it is right
    unread = with_square_reading(DigitRead(None, 0.1, (0.3, 0.7)), _square_probs(3, 0.95))
    read = with_hole_length(unread, 5)
    assert unread.par == 3 and read.confidence < unread.confidence < PAR_SURE and read.alternatives[0][0] == 5
    # the same reading beside a digit the digit reader read as 3 too stands, surer
    read_too = with_square_reading(DigitRead(3, 0.7, (0.3, 0.7)), _square_probs(3, 0.95))
    assert with_hole_length(read_too, 5).par == 3 and read_too.confidence > unread.confidence


def test_photo_candidates_label_the_piece_a_par_is_read_from_by_the_true_par(tmp_path):
    import json
    from pathlib import Path

    from scanner.games.eighteen.digits_cnn import photo_candidates

    photo = Path("fixtures/sets/18-holes-phone/18-holes-phone-105-0000.jpg")
    pars = {cell["par"] for row in json.loads(photo.with_suffix(".json").read_text())["board"]["cells"]
            for cell in row if cell["k"] == "teegreen"}
    samples = photo_candidates(photo)
    upright = {label for _, turns, label in samples if label != len(LABELS) - 1}
    assert upright and {int(LABELS[label]) for label in upright} <= pars
    # each piece taken as a digit is also taken, turned another way, as no digit; and some pieces are no digit
    digits = [(id(patch), turns) for patch, turns, label in samples if label != len(LABELS) - 1]
    others = {id(patch): turns for patch, turns, label in samples if label == len(LABELS) - 1}
    assert all(key in others and others[key] != turns for key, turns in digits)
    assert len(others) > len(digits)
    (tmp_path / "blank.jpg").write_bytes(photo.read_bytes())  # no truth file beside it
    assert photo_candidates(tmp_path / "blank.jpg") is None

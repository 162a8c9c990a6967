"""18 Holes scanner: tee/green edges from the stub lines, tee sides along linked holes, shade lifting, the
square network's jittered training grids."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import cv2
import numpy as np
import pytest
from paths import REPO

from scanner.games import eighteen
from scanner.games.eighteen.classify import Guess, read_square
from scanner.games.eighteen.features import measure, stub_ink
from scanner.games.eighteen.plan import (
    JOIN_DOUBT,
    UNSTEADY,
    DigitRead,
    fairway_from_neighbours,
    fitted_to_holes,
    par_in_fairway,
    resolve_teegreen,
    tee_sides,
    with_edge_reading,
    with_reader_diagonal,
)
from scanner.games.eighteen.square_edges import CLASSES as EDGE_PAIRS
from scanner.games.eighteen.squares import JITTER, KINDS, jittered, kind_of, labelled_rows
from scanner.grid import Lattice


def _teegreen_ink() -> np.ndarray:
    """A TL-BR diagonal overshooting into the corners, a stub of two lines from N and one from W."""
    ink = np.zeros((64, 64), np.float32)
    cv2.line(ink, (2, 2), (61, 61), 1.0, 3)
    for x in (26, 38):
        cv2.line(ink, (x, 0), (x, x), 1.0, 2)  # from the N edge down to the diagonal
    for y in (26, 38):
        cv2.line(ink, (0, y), (y, y), 1.0, 2)  # from the W edge across to the diagonal
    return cv2.GaussianBlur(ink, (0, 0), 0.8)


def test_each_triangle_connects_through_the_edge_its_stub_lines_run_from():
    ink = _teegreen_ink()
    f = measure(ink, 0.3)
    stubs = stub_ink(f.strokes, 0)
    assert stubs["N"] > 3 * stubs["E"] and stubs["W"] > 3 * stubs["S"]
    guess = read_square(f, np.eye(len(KINDS))[KINDS.index("teegreen")])
    digit = DigitRead(4, 0.95, (0.2, 0.6), digit_like=0.95)  # the par beside the W stub: W is the tee
    alone = resolve_teegreen([[guess]], 0, 0, digit)
    assert (alone.value["tee_edge"], alone.value["green_edge"]) == ("W", "N")
    # fairways ending on its N and W edges confirm the stubs
    plan = [[Guess({"k": "empty"}, 1.0), Guess({"k": "fairway", "edges": ["N", "S"]}, 0.95)],
            [Guess({"k": "fairway", "edges": ["E", "W"]}, 0.95), guess]]
    joined = resolve_teegreen(plan, 1, 1, digit)
    assert joined.value == alone.value and joined.confidence > eighteen.FLAG_BELOW


def test_a_tee_green_whose_sides_are_a_toss_up_offers_them_swapped_at_even_odds():
    guess = read_square(measure(_teegreen_ink(), 0.3), np.eye(len(KINDS))[KINDS.index("teegreen")])
    read = resolve_teegreen([[guess]], 0, 0, DigitRead(4, 0.95, None))  # no piece placed: nothing tells the tee
    assert "tee and green may be swapped" in read.note and read.confidence < eighteen.FLAG_BELOW
    swapped, chance = read.alternatives[0]
    assert (swapped["tee_edge"], swapped["green_edge"]) == (read.value["green_edge"], read.value["tee_edge"])
    assert swapped["par"] == 4 and chance == 0.5
    placed = resolve_teegreen([[guess]], 0, 0, DigitRead(4, 0.99, (0.2, 0.6), digit_like=0.99))  # beside the W stub
    assert (placed.value["tee_edge"], placed.alternatives) == ("W", guess.alternatives)


def _crossed_teegreen_ink() -> np.ndarray:
    """Both diagonals inked alike (the other one shaded over, say), a stub of two lines from N and one from E."""
    ink = np.zeros((64, 64), np.float32)
    cv2.line(ink, (2, 2), (61, 61), 1.0, 3)
    cv2.line(ink, (2, 61), (61, 2), 1.0, 3)
    for x in (26, 38):
        cv2.line(ink, (x, 0), (x, 64 - x), 1.0, 2)  # from the N edge down to the BL-TR diagonal
    for y in (26, 38):
        cv2.line(ink, (63, y), (y, y), 1.0, 2)  # from the E edge across to it
    return cv2.GaussianBlur(ink, (0, 0), 0.8)


def test_a_tee_green_whose_edge_reader_surely_needs_the_other_diagonal_is_split_by_it_flagged():
    f = measure(_crossed_teegreen_ink(), 0.3)
    guess = read_square(f, np.eye(len(KINDS))[KINDS.index("teegreen")])
    assert guess.diagonal == 0  # a tie: the strokes cannot tell, and N and E share a triangle of it
    turned = with_reader_diagonal(guess, f, _edge_probs("N", "E", 0.95), 0)
    assert turned.diagonal == 1 and turned.confidence < eighteen.FLAG_BELOW
    digit = DigitRead(4, 0.95, (0.3, 0.2), digit_like=0.95)  # the par beside the N stub
    read = resolve_teegreen([[turned]], 0, 0, digit)
    assert (read.value["tee_edge"], read.value["green_edge"]) == ("N", "E")
    # read upright after a quarter turn, the reader's N and E are the photographed E and S: this diagonal splits them
    assert with_reader_diagonal(guess, f, _edge_probs("N", "E", 0.95), 1) is guess
    # a pair either diagonal splits, or a reader not sure enough, leaves the strokes' diagonal
    assert with_reader_diagonal(guess, f, _edge_probs("N", "S", 0.95), 0) is guess
    assert with_reader_diagonal(guess, f, _edge_probs("N", "E", 0.6), 0) is guess


def test_a_fairway_over_a_corner_to_corner_line_with_a_sure_par_in_it_is_a_tee_green_to_check():
    # the network took the square for a fairway (its stubs shaded over, say): its strokes still show the line
    fairway = read_square(measure(_teegreen_ink(), 0.3), np.eye(len(KINDS))[KINDS.index("fairway")])
    assert fairway.value == {"k": "fairway", "edges": ["N", "W"]} and fairway.diagonal == 0
    digit = DigitRead(4, 0.95, (0.2, 0.6), digit_like=0.95)  # beside the W stub
    teegreen = par_in_fairway(fairway, digit)
    assert teegreen.value["k"] == "teegreen" and teegreen.confidence < eighteen.FLAG_BELOW
    assert teegreen.alternatives[0][0] == fairway.value
    resolved = resolve_teegreen([[teegreen]], 0, 0, digit)
    assert (resolved.value["tee_edge"], resolved.value["green_edge"], resolved.value["par"]) == ("W", "N", 4)
    assert "par digit beside" in resolved.note and resolved.confidence < eighteen.FLAG_BELOW
    assert fairway.value in [value for value, _ in resolved.alternatives]  # still offered


def test_a_fairway_stays_without_a_par_or_with_both_edges_on_one_side_of_the_line():
    fairway = read_square(measure(_teegreen_ink(), 0.3), np.eye(len(KINDS))[KINDS.index("fairway")])
    assert par_in_fairway(fairway, DigitRead(None, 0.3, (0.2, 0.6))) is None
    unsure = par_in_fairway(fairway, DigitRead(4, UNSTEADY, (0.2, 0.6), digit_like=0.9))
    assert unsure.value["k"] == "teegreen" and unsure.confidence <= UNSTEADY
    sure = DigitRead(4, 0.95, (0.2, 0.6), digit_like=0.95)
    # N and E lie in one triangle of the TL-BR line: shading along a corner fairway, no tee/green
    one_side = Guess({"k": "fairway", "edges": ["N", "E"]}, 0.9, diagonal=0, halves=fairway.halves)
    assert par_in_fairway(one_side, sure) is None
    no_line = Guess({"k": "fairway", "edges": ["N", "W"]}, 0.9)
    assert par_in_fairway(no_line, sure) is None


def test_shading_over_both_diagonals_is_no_corner_to_corner_line():
    ink = _teegreen_ink()
    for k in range(-60, 64, 8):  # hatching across the whole square inks the other diagonal too
        cv2.line(ink, (k, 63), (k + 63, 0), 1.0, 1)
    f = measure(ink, 0.3)
    assert min(f.diagonal) > 0.9
    assert read_square(f, np.eye(len(KINDS))[KINDS.index("fairway")]).diagonal == -1


def _hole_between_two_squares() -> list[list[Guess]]:
    """Tee/green (BL-TR diagonal, stub at E) - fairway W-E - tee/green (TL-BR diagonal, stub at W)."""
    left = Guess({"k": "teegreen"}, 0.95, diagonal=1, halves=((3.0, 0.0), (0.0, 3.0)))  # N in (N, W), E in (S, E)
    right = Guess({"k": "teegreen"}, 0.95, diagonal=0, halves=((3.0, 0.0), (0.0, 3.0)))  # N in (N, E), W in (S, W)
    return [[left, Guess({"k": "fairway", "edges": ["E", "W"]}, 0.95), right]]


def test_an_unreadable_par_takes_its_side_from_the_other_end_of_the_hole():
    guesses = _hole_between_two_squares()
    digits = {(0, 0): DigitRead(4, 0.95, (0.75, 0.75), digit_like=0.95),  # beside the E stub: E is a tee
              (0, 2): DigitRead(None, 0.0, None)}
    sides = tee_sides(guesses, digits)
    right = resolve_teegreen(guesses, 0, 2, digits[0, 2], sides[0, 2])
    assert (right.value["green_edge"], right.value["tee_edge"]) == ("W", "N")  # the hole from the left ends here
    assert sides[0, 2][1] == pytest.approx(sides[0, 0][1]) and sides[0, 2][1] > 0.8
    alone = resolve_teegreen(guesses, 0, 2, digits[0, 2])
    assert alone.confidence < eighteen.FLAG_BELOW  # without the hole, nothing tells its sides


def test_a_tee_green_read_as_blacked_out_at_the_last_has_no_par_and_the_others_keep_theirs():
    # a tee/green walled in by blacked-out squares is read as blacked out after its par was read (seed 22702
    # plan 0012: the pars were then weighed with hole lengths that square has none of, and the scan failed)
    guesses = _hole_between_two_squares()
    digits = {(0, 0): DigitRead(4, 0.6, (0.75, 0.75), digit_like=0.95, evidence=(0.5, 0.4, 0.1)),  # E is a tee
              (0, 2): DigitRead(None, 0.0, None)}
    sides = tee_sides(guesses, digits)
    squares = [[resolve_teegreen(guesses, 0, c, digits[0, c], sides[0, c]) if c != 1 else guesses[0][1]
                for c in range(3)]]
    fitted, pars = fitted_to_holes(squares, digits, guesses, sides)
    assert pars[0, 0].par == 3 and fitted[0][0].value["par"] == 3  # its hole, completed, is 3 squares long
    squares[0][2] = Guess(eighteen.BLACKED, 0.7)
    fitted, pars = fitted_to_holes(squares, digits, guesses, sides)
    assert set(pars) == {(0, 0)} and fitted[0][2].value == eighteen.BLACKED
    assert pars[0, 0].par == 4 and fitted[0][0].value["par"] == 4  # its hole now runs into a mountain


def test_pars_at_both_ends_claiming_the_same_role_leave_the_hole_in_doubt():
    guesses = _hole_between_two_squares()
    digits = {(0, 0): DigitRead(4, 0.95, (0.75, 0.75), digit_like=0.9),  # E is a tee
              (0, 2): DigitRead(3, 0.95, (0.25, 0.75), digit_like=0.9)}  # and W is a tee too
    sides = tee_sides(guesses, digits)
    assert sides[0, 0][1] < 0.5 and sides[0, 2][1] < 0.5


def test_pieces_that_look_like_digits_but_read_as_guesses_leave_the_sides_in_doubt():
    """A tiny or blurred plan: a flag or a stub looks like a digit (digit-like 0.99) yet its par is a guess.
    Where a guess lies is a guess too, so the hole's sides are not taken as sure from it."""
    guesses = _hole_between_two_squares()
    guessed = {(0, 0): DigitRead(4, UNSTEADY, (0.75, 0.75), digit_like=0.99),
               (0, 2): DigitRead(5, UNSTEADY, (0.75, 0.25), digit_like=0.99)}
    sides = tee_sides(guesses, guessed)
    assert sides[0, 0][1] < eighteen.FLAG_BELOW and sides[0, 2][1] < eighteen.FLAG_BELOW
    clear = {sq: DigitRead(d.par, 0.95, d.centre, digit_like=0.99) for sq, d in guessed.items()}
    assert tee_sides(guesses, clear)[0, 0][1] > eighteen.FLAG_BELOW


def _edge_probs(tee: str, green: str, p: float = 0.9) -> np.ndarray:
    probs = np.full(len(EDGE_PAIRS), (1 - p) / (len(EDGE_PAIRS) - 1))
    probs[EDGE_PAIRS.index((tee, green))] = p
    return probs


def test_the_edge_readers_pair_read_upright_is_turned_back_to_the_grid_as_photographed():
    g = Guess({"k": "teegreen"}, 0.95, diagonal=0)  # triangles (N, E) and (S, W) as photographed
    # the grid is upright after a quarter turn anticlockwise: its E edge is the upright N, its S the upright E
    read = with_edge_reading(g, _edge_probs("N", "E"), 1)  # upright tee N, green E: E and S as photographed
    used = dict(zip("NESW", read.ends[:4], strict=True))
    assert used["E"] > 1 and used["S"] > 1 and used["N"] < -1 and used["W"] < -1
    assert read.ends[4] > 1  # the tee (E) lies in the first triangle
    assert with_edge_reading(g, _edge_probs("N", "E"), 3).ends[4] < -1  # turned the other way: tee W, green N


def test_a_square_whose_digit_and_edge_reader_agree_keeps_its_tee_against_an_unsure_chain():
    """A stray fairway or tee/green can link two tees: the chain's pooled evidence is then torn, and a square
    whose own digit and whole-square reading agree keeps its own tee (flagged), unless the chain is sure."""
    guesses = _hole_between_two_squares()
    guesses[0][0] = with_edge_reading(guesses[0][0], _edge_probs("E", "N", 0.5), 0)  # E is a tee, faintly
    guesses[0][2] = with_edge_reading(guesses[0][2], _edge_probs("W", "N"), 0)  # W is a tee too
    right = DigitRead(3, 0.95, (0.25, 0.75), digit_like=0.9)  # beside the W stub
    for left_like, left_tee in ((0.95, "E"), (0.3, "N")):  # a faint digit: the chain is sure (0.82)
        digits = {(0, 0): DigitRead(4, 0.95, (0.75, 0.75), digit_like=left_like), (0, 2): right}
        sides = tee_sides(guesses, digits)
        left = resolve_teegreen(guesses, 0, 0, digits[0, 0], sides[0, 0])
        assert left.value["tee_edge"] == left_tee
        assert resolve_teegreen(guesses, 0, 2, right, sides[0, 2]).value["tee_edge"] == "W"
        if left_tee == "E":  # its own tee against its chain: flagged
            assert left.confidence < eighteen.FLAG_BELOW


def test_a_square_whose_digit_and_edge_reader_both_clearly_disagree_outvote_even_a_sure_chain():
    """A misread link can chain a square to the wrong roles however sure the chain: the square's own two
    readers, both clearly against it, keep its tee (flagged); one of them alone does not."""
    guesses = _hole_between_two_squares()
    guesses[0][2] = with_edge_reading(guesses[0][2], _edge_probs("W", "N", 0.99), 0)  # W is a tee, clearly
    right = DigitRead(3, 0.99, (0.25, 0.75), digit_like=0.99)  # beside the W stub
    left_digit = DigitRead(4, 0.7, (0.75, 0.75), digit_like=0.7)  # beside the E stub: E is a tee too
    for edge_p, left_tee in ((0.9, "E"), (0.2, "N")):
        guesses[0][0] = with_edge_reading(_hole_between_two_squares()[0][0], _edge_probs("E", "N", edge_p), 0)
        digits = {(0, 0): left_digit, (0, 2): right}
        sides = tee_sides(guesses, digits)
        assert sides[0, 2][1] >= 0.8  # the chain is sure: the hole runs from the left square's green
        left = resolve_teegreen(guesses, 0, 0, digits[0, 0], sides[0, 0])
        assert left.value["tee_edge"] == left_tee and left.confidence < eighteen.FLAG_BELOW


def test_a_square_whose_digit_tells_nothing_takes_its_sides_from_the_edge_reader():
    guesses = _hole_between_two_squares()
    guesses[0][2] = with_edge_reading(guesses[0][2], _edge_probs("N", "W"), 0)  # N is the tee, W the green
    digits = {(0, 0): DigitRead(None, 0.0, None), (0, 2): DigitRead(None, 0.0, None)}
    sides = tee_sides(guesses, digits)
    right = resolve_teegreen(guesses, 0, 2, digits[0, 2], sides[0, 2])
    assert (right.value["tee_edge"], right.value["green_edge"]) == ("N", "W")
    left = resolve_teegreen(guesses, 0, 0, digits[0, 0], sides[0, 0])  # the hole from it ends at W: E is a tee
    assert left.value["tee_edge"] == "E"
    assert sides[0, 2][1] > 0.5


def test_a_clear_digit_outweighs_the_edge_reader_but_their_disagreement_is_flagged():
    g = Guess({"k": "teegreen"}, 0.95, diagonal=0, halves=((3.0, 0.0), (3.0, 0.0)))  # stubs on N and S
    read = with_edge_reading(g, _edge_probs("S", "N", 0.98), 0)  # the reader: S is the tee
    digit = DigitRead(4, 0.99, (0.8, 0.2), digit_like=0.99)  # the digit, in the (N, E) triangle: N is the tee
    side = tee_sides([[read]], {(0, 0): digit})[0, 0]
    resolved = resolve_teegreen([[read]], 0, 0, digit, side)
    assert (resolved.value["tee_edge"], resolved.value["green_edge"]) == ("N", "S")
    assert resolved.confidence < eighteen.FLAG_BELOW and "swapped" in resolved.note
    agreed = with_edge_reading(g, _edge_probs("N", "S", 0.98), 0)
    assert tee_sides([[agreed]], {(0, 0): digit})[0, 0][1] > eighteen.FLAG_BELOW


def test_the_edge_reader_outweighs_a_faint_stub_but_not_a_fairway_ending_on_the_edge():
    faint = Guess({"k": "teegreen"}, 0.95, diagonal=0, halves=((0.3, 0.0), (0.3, 0.0)))  # leans N and S, faintly
    read = with_edge_reading(faint, _edge_probs("E", "W", 0.98), 0)
    digit = DigitRead(4, 0.95, (0.8, 0.3), digit_like=0.95)  # in the (N, E) triangle: the tee
    alone = resolve_teegreen([[read]], 0, 0, digit)
    assert (alone.value["tee_edge"], alone.value["green_edge"]) == ("E", "W")
    # a fairway ending on the N edge from above, and one ending on S from below, confirm the faint stubs
    plan = [[Guess({"k": "fairway", "edges": ["N", "S"]}, 0.95)], [read], [Guess({"k": "fairway", "edges": ["N", "S"]}, 0.95)]]
    joined = resolve_teegreen(plan, 1, 0, digit)
    assert (joined.value["tee_edge"], joined.value["green_edge"]) == ("N", "S")


@pytest.mark.parametrize("range_", [
    ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1)),  # down the left edge
    ((3, 4), (4, 4), (5, 4), (3, 5), (4, 5), (5, 5)),  # two squares deep along the right edge
], ids=["one deep", "two deep"])
def test_a_range_of_light_blackouts_along_the_grid_edge_is_not_lifted_as_shade(range_):
    ringed = np.zeros((8, 8, eighteen.CELL, eighteen.CELL), np.float32)  # a 6 x 6 grid and the light paper round it
    for r, c in range_:  # blacked out in a light pen
        ringed[r + 1, c + 1] = 0.3
    lifted, _ = eighteen.lift_shade(ringed)
    assert min(float(lifted[r, c].min()) for r, c in range_) > 0.29


def test_a_light_blackout_alone_among_light_squares_is_not_lifted_as_shade():
    ringed = np.zeros((8, 8, eighteen.CELL, eighteen.CELL), np.float32)  # a 6 x 6 grid and the light paper round it
    ringed[3, 3] = 0.13  # blacked out evenly in a light pen, below PAPER_SHADE
    ringed[5, 5] = 0.02
    ringed[5, 5, ::4] = 0.3  # shaded in light strokes: its faintest tenth well below its middle, lifted as before
    ringed[1:7, 6] = 0.12  # a faint shadow down the grid's last column, shared along it
    lifted, shade = eighteen.lift_shade(ringed)
    assert float(lifted[2, 2].min()) > 0.12 and shade[2, 2] < 0.02
    assert shade[4, 4] == pytest.approx(0.02)
    assert float(lifted[1:5, 5].max()) < 0.01


def test_the_middle_of_a_block_of_light_blackouts_is_not_lifted_as_shade():
    ringed = np.zeros((9, 9, eighteen.CELL, eighteen.CELL), np.float32)  # a 7 x 7 grid and the light paper round it
    ringed[3:6, 3:6] = 0.55  # a 3 x 3 block of mountains blacked out in a light pen: most of the middle's neighbours
    lifted, shade = eighteen.lift_shade(ringed)
    assert float(lifted[2:5, 2:5].min()) > 0.54 and shade[3, 3] == 0.0
    ringed[3:6, 3:6] = 0.3  # as dark as a shadow: lifted as one
    lifted, shade = eighteen.lift_shade(ringed)
    assert float(lifted[3, 3].max()) < 0.01 and shade[3, 3] == pytest.approx(0.3)


def test_a_shadow_over_the_grid_edge_and_the_paper_beyond_is_lifted():
    ringed = np.zeros((8, 8, eighteen.CELL, eighteen.CELL), np.float32)
    ringed[2:7, 4:] = 0.3  # a shadow two squares deep along the right edge, over the paper beyond too
    lifted, shade = eighteen.lift_shade(ringed)
    assert float(lifted[2:5, 4:].max()) < 0.01 and shade[3, 5] == pytest.approx(0.3)


def test_a_jittered_grid_moves_whole_lines_a_little_and_keeps_the_squares():
    lattice = Lattice(np.stack(np.meshgrid(np.arange(11) * 50.0, np.arange(11) * 50.0), axis=-1), 1.0)  # (x, y)
    moved = jittered(lattice, np.random.default_rng(0))
    shift = moved.points - lattice.points
    assert 0 < np.abs(shift).max() < 2 * JITTER * 50
    assert np.all(np.diff(moved.points[:, :, 0], axis=1) > 40) and np.all(np.diff(moved.points[:, :, 1], axis=0) > 40)


def test_training_leaves_out_the_squares_scribbled_out_whole(tmp_path):
    # a committed plan photo, its truth saying one square was scribbled out (an empty square under a heap of ink)
    source = REPO / "fixtures" / "sets" / "18-holes-phone" / "18-holes-phone-105-0000"
    truth = json.loads(source.with_suffix(".json").read_text())
    rows, cols = truth["board"]["grid"]["rows"], truth["board"]["grid"]["cols"]
    photo = tmp_path / "plan.jpg"
    shutil.copy(source.with_suffix(".jpg"), photo)
    photo.with_suffix(".json").write_text(json.dumps(truth))
    x, labels = labelled_rows(photo, shifts=0)
    assert len(x) == len(labels) == rows * cols
    truth["scribbled_out"] = [[0, 0]]
    photo.with_suffix(".json").write_text(json.dumps(truth))
    x_left, labels_left = labelled_rows(photo, shifts=0)
    assert len(x_left) == len(labels_left) == rows * cols - 1
    # the square left out is the one scribbled out: every other is still learnt, with its own label
    gone = Counter(labels.tolist()) - Counter(labels_left.tolist())
    assert gone == Counter([KINDS.index(kind_of(truth["board"]["cells"][0][0]))])


def _fairway(*edges: str, confidence: float = 0.95) -> Guess:
    return Guess({"k": "fairway", "edges": list(edges)}, confidence)


def test_a_doubtful_fairway_takes_the_edges_its_neighbours_join_it_by():
    # a bend from the west into the south: the middle square's hatching made its strokes reach north
    tee = Guess({"k": "teegreen", "tee_edge": "E", "green_edge": "S", "par": 4}, 0.9)
    empty = Guess({"k": "empty"}, 1.0)
    doubtful = _fairway("N", "E", confidence=JOIN_DOUBT - 0.1)
    squares = [[empty, empty, empty], [tee, doubtful, empty], [empty, _fairway("N", "S"), empty]]
    turned = fairway_from_neighbours(squares, 1, 1)
    assert turned.value == {"k": "fairway", "edges": ["S", "W"]}
    assert turned.confidence == doubtful.confidence  # still flagged ...
    assert turned.alternatives[0] == (doubtful.value, doubtful.confidence)  # ... with the strokes' edges offered
    # read surely, the strokes stand: players draw stray fairways that join nothing
    sure = _fairway("N", "E", confidence=JOIN_DOUBT + 0.1)
    squares[1][1] = sure
    assert fairway_from_neighbours(squares, 1, 1) is sure
    # three neighbours joining it leave the choice open: the strokes stand
    squares[1][1], squares[0][1] = doubtful, _fairway("E", "S")
    assert fairway_from_neighbours(squares, 1, 1) is doubtful


@pytest.mark.parametrize("name", ["hazard", "fairway"])
def test_a_scribble_readers_material_is_the_squares_scribbled_out_and_the_most_inked_drawings(tmp_path, name):
    from scanner.games.eighteen.scribbles import HAND_DRAWN, INKED, OTHERS, READERS, photo_squares

    reader = READERS[name]
    source = REPO / "fixtures" / "sets" / "18-holes-phone" / "18-holes-phone-105-0000"
    truth = json.loads(source.with_suffix(".json").read_text())
    cells = truth["board"]["cells"]
    empty = next((r, c) for r, row in enumerate(cells) for c, cell in enumerate(row) if cell["k"] == "empty")
    truth["scribbled_out"] = [list(empty)]
    photo = tmp_path / "plan.jpg"
    shutil.copy(source.with_suffix(".jpg"), photo)
    photo.with_suffix(".json").write_text(json.dumps(truth))
    x, labels = photo_squares(photo, reader)
    groups = [HAND_DRAWN, ("fairway",)]
    counts = [sum(cell["k"] in kinds and cell["k"] in reader.kinds for row in cells for cell in row) for kinds in groups]
    heavy = sum(min(reader.heavy, n) for n in counts)
    assert labels.tolist() == [1] + [0] * min(heavy + OTHERS, sum(counts))
    # the first drawings taken of each group are its most inked, the most first
    inked = (x[1:].astype(np.float32) > INKED).mean(axis=(1, 2, 3))
    group_heavy = [inked[sum(min(reader.heavy, n) for n in counts[:g]):][:min(reader.heavy, counts[g])]
                   for g in range(len(groups))]
    for chosen in group_heavy:
        assert list(chosen) == sorted(chosen, reverse=True)
    assert name == "hazard" or len(group_heavy[1]) == reader.heavy  # the fairway reader learns shaded fairways


def test_a_fairway_whose_strokes_reach_three_edges_alike_offers_the_other_two_pairs_alike():
    ink = np.zeros((64, 64), np.float32)
    cv2.line(ink, (0, 32), (63, 32), 1.0, 3)  # W to E
    cv2.line(ink, (32, 0), (32, 32), 1.0, 3)  # and N down to it: a T, hatching run on to a third edge, say
    read = read_square(measure(cv2.GaussianBlur(ink, (0, 0), 0.8), 0.3), np.eye(len(KINDS))[KINDS.index("fairway")])
    assert read.confidence < eighteen.FLAG_BELOW
    offered = {tuple(value["edges"]): chance for value, chance in read.alternatives}
    pairs = {("N", "E"), ("E", "W"), ("N", "W")}
    assert set(offered) | {tuple(read.value["edges"])} == pairs and len(offered) == 2
    first, second = offered.values()
    assert abs(first - second) < 0.05 and first + second + read.confidence == pytest.approx(1.0)

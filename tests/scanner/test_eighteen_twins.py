"""18 Holes: a square whose ink nearly matches another's is the sheet's printed gorse, unless the other is a
clear hand drawing that it merely resembles (one hand draws its trees alike)."""

from __future__ import annotations

import cv2
import numpy as np

from scanner.games import eighteen
from scanner.games.eighteen import plan
from scanner.games.eighteen.classify import Guess

UNSURE_TREE = Guess({"k": "tree"}, 0.55)
CLEAR_TREE = Guess({"k": "tree"}, 0.95)
GORSE = Guess({"k": "gorse"}, 0.9)


def test_the_close_twin_of_a_clear_tree_is_a_tree_flagged():
    read = eighteen.twin_reading(UNSURE_TREE, CLEAR_TREE, 0.93)
    assert read.value == {"k": "tree"}
    assert read.confidence < eighteen.FLAG_BELOW
    assert ({"k": "gorse"}, 0.3) in read.alternatives


def test_an_identical_copy_is_printed_even_when_its_twin_was_read_as_a_drawing():
    """The two printed squares of another sheet design can both be misread as a lake: identical copies."""
    read = eighteen.twin_reading(Guess({"k": "water"}, 0.86), Guess({"k": "water"}, 0.82), 0.99)
    assert read.value == {"k": "gorse"}


def test_the_twin_of_gorse_or_of_an_unsure_reading_is_gorse():
    faint_tree = Guess({"k": "tree"}, eighteen.DRAWN_OVER - 0.1)
    assert eighteen.twin_reading(faint_tree, GORSE, 0.93).value == {"k": "gorse"}
    assert eighteen.twin_reading(UNSURE_TREE, Guess({"k": "tree"}, 0.6), 0.93).value == {"k": "gorse"}


def test_twins_both_read_fairly_surely_as_one_drawn_kind_are_that_drawing_flagged():
    """Two trees in a light pen, read at the faint level (capped at BLANK_DOUBT), drawn alike by one hand."""
    light_tree = Guess({"k": "tree"}, eighteen.BLANK_DOUBT)
    read = eighteen.twin_reading(light_tree, light_tree, 0.9)
    assert read.value == {"k": "tree"}
    assert read.confidence < eighteen.FLAG_BELOW
    assert ({"k": "gorse"}, 0.3) in read.alternatives
    # an identical copy is still the print, and so are twins read as different kinds
    assert eighteen.twin_reading(light_tree, light_tree, 0.99).value == {"k": "gorse"}
    assert eighteen.twin_reading(light_tree, Guess({"k": "bunker"}, 0.7), 0.9).value == {"k": "gorse"}


def test_a_drawing_over_one_printed_square_stands_flagged_when_the_other_is_bare():
    """A tree drawn over a printed symbol still matches the bare one closely; read as a tree, it stays one."""
    read = eighteen.twin_reading(UNSURE_TREE, GORSE, 0.93)
    assert read.value == {"k": "tree"}
    assert read.confidence < eighteen.FLAG_BELOW
    assert read.alternatives[0][0] == {"k": "gorse"}
    assert [alt for alt, _ in read.alternatives].count({"k": "gorse"}) == 1
    # the bare square itself stays gorse
    assert eighteen.twin_reading(GORSE, UNSURE_TREE, 0.93).value == {"k": "gorse"}


def test_a_confident_reading_whose_ink_nearly_repeats_is_flagged_with_gorse_offered():
    """Another sheet's printed symbol (a tuft of grass) can be read confidently as a lake: its twin is not quite
    an identical copy in a blurred photo, so the reading stands but goes to a person."""
    read = eighteen.maybe_printed(Guess({"k": "water"}, 0.9, (({"k": "bunker"}, 0.05),)))
    assert read.value == {"k": "water"}
    assert read.confidence < eighteen.FLAG_BELOW
    assert [alt for alt, _ in read.alternatives] == [{"k": "bunker"}, {"k": "gorse"}]


def test_a_square_read_as_gorse_keeps_its_confidence_when_its_ink_repeats():
    assert eighteen.maybe_printed(GORSE) == GORSE


def _shapes() -> dict[str, np.ndarray]:
    """Three distinct ink shapes on 64-pixel squares."""
    ring, cross, bars = (np.zeros((64, 64), np.float32) for _ in range(3))
    cv2.circle(ring, (32, 32), 20, 1.0, 3)
    cv2.line(cross, (10, 10), (54, 54), 1.0, 3)
    cv2.line(cross, (54, 10), (10, 54), 1.0, 3)
    for y in (16, 32, 48):
        cv2.line(bars, (12, y), (52, y), 1.0, 3)
    return {"ring": ring, "cross": cross, "bars": bars}


def test_only_the_closest_pair_of_twins_is_the_sheets_printed_symbol():
    """The sheet prints two squares: a plan where one hand drew two lakes and two trees alike has three pairs."""
    shapes = _shapes()
    patches = {(0, 0): shapes["ring"], (0, 5): shapes["ring"], (3, 3): shapes["cross"], (7, 1): shapes["cross"],
               (9, 9): shapes["bars"], (2, 8): shapes["bars"]}
    twins = {(0, 0): (0.93, (0, 5)), (3, 3): (0.99, (7, 1)), (7, 1): (0.99, (3, 3)), (9, 9): (0.95, (2, 8))}
    assert set(plan.printed_pair(patches, twins)) == {(3, 3), (7, 1)}
    # one hand's drawing on a third square is no printed symbol, however close
    patches[(5, 5)] = shapes["cross"]
    assert set(plan.printed_pair(patches, twins)) == {(9, 9)}


def test_a_twin_that_is_not_printed_keeps_its_reading_flagged_or_takes_its_clear_twins_kind():
    kept = eighteen.twin_reading(Guess({"k": "water"}, 0.9), Guess({"k": "water"}, 0.6), 0.99, printed=False)
    assert kept.value == {"k": "water"} and kept.confidence < eighteen.FLAG_BELOW
    assert eighteen.twin_reading(UNSURE_TREE, CLEAR_TREE, 0.99, printed=False).value == {"k": "tree"}


def _arcs(offsets: list[tuple[int, int]], jitter: np.random.Generator | None = None) -> np.ndarray:
    """Rows of small arcs, as a sheet may print its gorse (or a hand draw a lake): ink on a 64-pixel square."""
    ink = np.zeros((64, 64), np.float32)
    for x, y in offsets:
        dx, dy = (0, 0) if jitter is None else jitter.integers(-1, 2, 2)
        cv2.ellipse(ink, (int(x + dx), int(y + dy)), (5, 3), 0, 180, 360, 1.0, 2)
    return ink


def test_a_print_repeats_in_register_and_a_hand_copy_does_not():
    """Two printed squares hold one symbol stroke for stroke where the sheet put it, in register however the
    grid was found; the same arcs drawn again, each up to a pixel off, fall short."""
    places = [(x, y) for y in (20, 32, 44) for x in (20, 32, 44)]
    printed = _arcs(places)
    shifted_print = np.roll(printed, 1, axis=1)  # the grid found a pixel off in the other square
    drawn_again = _arcs(places, np.random.default_rng(3))
    assert plan.registered_likeness(printed, shifted_print) >= plan.PRINT_IDENTICAL
    assert plan.registered_likeness(printed, drawn_again) < plan.PRINT_IDENTICAL


def test_the_likeness_of_many_pairs_at_once_is_each_pairs_likeness():
    rng = np.random.default_rng(4)
    drawn = [cv2.GaussianBlur((rng.random((plan.TWIN_SIDE, plan.TWIN_SIDE)) < 0.15).astype(np.float32), (3, 3), 0.8)
             for _ in range(6)]
    shifted = np.roll(drawn[0], (2, -1), axis=(0, 1))
    flat = [np.zeros_like(drawn[0]), np.full_like(drawn[0], 1.0)]  # blank paper; a square blacked out to full ink
    patches = np.stack([*drawn, shifted, *flat])
    likeness = plan.similarities(patches, patches)
    each = np.array([[plan._similarity(a, b) for b in patches] for a in patches])
    assert np.abs(likeness - each).max() < 1e-5
    assert likeness[0, 6] > 0.99 > likeness[0, 1]  # a moved copy matches; another drawing does not
    assert (likeness[-2:] == 1.0).all() and (likeness[:-2, -2:] == 0.0).all()  # OpenCV's rule for flat ink

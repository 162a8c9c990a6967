"""18 Holes: a square whose ink nearly matches another's is the sheet's printed gorse, unless the other is a
clear hand drawing that it merely resembles (one hand draws its trees alike)."""

from __future__ import annotations

from scanner.games import eighteen
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
    assert eighteen.twin_reading(UNSURE_TREE, GORSE, 0.93).value == {"k": "gorse"}
    assert eighteen.twin_reading(UNSURE_TREE, Guess({"k": "tree"}, 0.6), 0.93).value == {"k": "gorse"}


def test_a_confident_reading_whose_ink_nearly_repeats_is_flagged_with_gorse_offered():
    """Another sheet's printed symbol (a tuft of grass) can be read confidently as a lake: its twin is not quite
    an identical copy in a blurred photo, so the reading stands but goes to a person."""
    read = eighteen.maybe_printed(Guess({"k": "water"}, 0.9, (({"k": "bunker"}, 0.05),)))
    assert read.value == {"k": "water"}
    assert read.confidence < eighteen.FLAG_BELOW
    assert [alt for alt, _ in read.alternatives] == [{"k": "bunker"}, {"k": "gorse"}]


def test_a_square_read_as_gorse_keeps_its_confidence_when_its_ink_repeats():
    assert eighteen.maybe_printed(GORSE) == GORSE

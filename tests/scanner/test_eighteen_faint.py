"""18 Holes: a square drawn too lightly for the plan's ink level is not read as a sure blank; it is read again
at a lower level and flagged, or, lighter still, flagged as it is."""

from __future__ import annotations

import cv2
import numpy as np

from scanner.games import eighteen
from scanner.games.eighteen.features import measure_all
from scanner.games.eighteen.squares import kind_probabilities

THRESHOLD = 0.3


def _waves(strength: float) -> np.ndarray:
    """A water square: three wavy strokes of ink ``strength``, on paper with a little texture."""
    rng = np.random.default_rng(3)
    ink = rng.uniform(0.0, 0.04, (64, 64)).astype(np.float32)
    xs = np.arange(14, 50)
    for y0 in (20, 32, 44):
        pts = np.stack([xs, y0 + 3 * np.sin(xs / 3.0)], axis=1).astype(np.int32)
        cv2.polylines(ink, [pts], False, strength, 2)
    return cv2.GaussianBlur(ink, (0, 0), 0.7)


def _patches() -> np.ndarray:
    blank = np.random.default_rng(4).uniform(0.0, 0.04, (64, 64)).astype(np.float32)
    return np.stack([_waves(0.9), _waves(0.22), blank])  # inked, too light for the threshold, blank


def test_only_the_light_drawing_is_looked_at_again():
    patches = _patches()
    assert eighteen.faint_squares(patches, measure_all(patches, THRESHOLD), THRESHOLD) == [1]


def test_a_light_drawing_reads_as_its_inked_twin_flagged_with_blank_offered():
    patches = _patches()
    measured = measure_all(patches[:1], THRESHOLD)
    inked = eighteen.read_square(measured[0], kind_probabilities(patches[:1], measured, THRESHOLD)[0])
    light = eighteen._read_faint(patches, [1], THRESHOLD)[0]
    assert inked.value["k"] != "empty" and light.value == inked.value
    assert light.confidence < eighteen.FLAG_BELOW
    assert ({"k": "empty"}, 0.5) in light.alternatives


def test_under_a_high_threshold_a_thin_line_below_half_of_it_is_still_looked_at_and_read():
    # a heavily shaded plan sets a high threshold; its own pen's thin lines, blurred, reach well under half of it
    patches = np.stack([_waves(0.9), _waves(0.14), np.random.default_rng(4).uniform(0.0, 0.06, (64, 64)).astype(np.float32)])
    assert eighteen.faint_level(THRESHOLD) < 0.14 < eighteen.FAINT * THRESHOLD
    assert eighteen.faint_squares(patches, measure_all(patches, THRESHOLD), THRESHOLD) == [1]
    light = eighteen._read_faint(patches, [1], THRESHOLD)[0]
    assert light.value["k"] != "empty" and light.confidence < eighteen.FLAG_BELOW


def test_strokes_below_even_the_faint_level_flag_a_blank_reading_but_shade_and_texture_do_not():
    # glare over a light pen: waves between the faint level and half of it, on textured paper
    level = eighteen.faint_level(THRESHOLD)
    waves = _waves(0.75 * level)
    shade = np.random.default_rng(4).uniform(0.0, 0.02, (64, 64)).astype(np.float32)
    shade[:, :32] += 0.75 * level  # half the square darkened as much: a shadow's edge
    blank = eighteen.Guess({"k": "empty"}, 1.0)
    flagged = eighteen.too_faint(blank, waves, THRESHOLD)
    assert flagged.value == {"k": "empty"} and flagged.confidence < eighteen.FLAG_BELOW
    assert "too faint" in flagged.note
    assert eighteen.too_faint(blank, shade, THRESHOLD) == blank
    assert eighteen.too_faint(blank, _patches()[2], THRESHOLD) == blank
    # a reading with a doubt of its own, or of a drawing, is left as it is
    scribbled = eighteen.Guess({"k": "empty"}, 0.7, note=eighteen.SCRIBBLED)
    assert eighteen.too_faint(scribbled, waves, THRESHOLD) == scribbled

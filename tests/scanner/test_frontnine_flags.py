"""The Front Nine scanner's review flags: a distance at the last scoring ball is flagged; a face-down card
beside the course is set aside with a warning, not flagged and not read as a card; a framed thing showing
no card face but not of a card's size is flagged (it may be a card whose outline was found wrong)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from flatphoto import flat_photo

from fixtures.clutter import make_item
from fixtures.games import frontnine
from fixtures.scene import Component, Scene, scene_bounds_mm
from rules.frontnine.scoring import MAX_BALLS
from scanner.games import frontnine as scanner

PPM = 3.0


@pytest.fixture(scope="module")
def course():
    board = frontnine.random_board(np.random.default_rng(7))
    scene = frontnine.compose(board, np.random.default_rng(7))
    return board, scene, flat_photo(scene, PPM)


def _distance(result):
    return next(r for r in result.reads if r.where.endswith("distance_balls"))


@pytest.mark.parametrize("balls, flagged", [(MAX_BALLS + 0.1, True), (MAX_BALLS - 0.15, True),
                                             (MAX_BALLS - 0.6, False)])
def test_a_distance_at_the_last_scoring_ball_is_flagged(course, monkeypatch, balls, flagged):
    _, _, photo = course
    real = scanner.values()
    gap_mm = _distance(scanner.scan(photo.image)).value * float(real["ball_mm"])
    monkeypatch.setattr(scanner, "values", lambda: {**real, "ball_mm": gap_mm / balls})  # a ball of that size
    read = _distance(scanner.scan(photo.image))
    assert abs(read.value - balls) < 0.02
    assert read.flagged == flagged and ("limit" in read.note) == flagged


def test_a_face_down_card_beside_the_course_is_set_aside(course):
    board, scene, photo = course
    lo, _ = scene_bounds_mm(scene)
    card = make_item(np.random.default_rng(1), "card").part
    card = replace(card, center_mm=(float(lo[0]) - 50.0, float(lo[1]) + 60.0), angle_deg=20.0)
    alone = scanner.scan(photo.image)
    result = scanner.scan(flat_photo(Scene(scene.components + [card]), PPM).image)
    assert result.board["players"][0]["course"] == alone.board["players"][0]["course"]
    assert sorted(result.board["players"][0]["specials"]) == sorted(alone.board["players"][0]["specials"])
    assert not result.flagged
    assert any("no card face" in w for w in result.warnings) and not any("no card face" in w for w in alone.warnings)


def test_a_faceless_thing_at_the_end_of_the_chain_is_beside_it():
    from scanner.games.frontnine import JOIN_MAX_MM, _beside

    card = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], float)
    exit_point = [np.array([30.0, 0.0])]
    assert _beside(card, exit_point)
    assert _beside(card + [0, JOIN_MAX_MM - 1], exit_point)
    assert not _beside(card + [0, JOIN_MAX_MM + 1], exit_point)


def test_a_faceless_thing_not_of_a_cards_size_is_flagged(course):
    board, scene, photo = course
    lo, _ = scene_bounds_mm(scene)
    img = np.zeros((126 * 4, 90 * 4, 4), np.uint8)  # card-like, but 1.4 times a card's size
    img[...] = (240, 240, 240, 255)
    img[16:-16, 16:-16, :3] = (30, 30, 36)
    thing = Component(img, 4.0, (float(lo[0]) - 80.0, float(lo[1]) + 80.0), 10.0)
    alone = scanner.scan(photo.image)
    result = scanner.scan(flat_photo(Scene(scene.components + [thing]), PPM).image)
    assert result.board["players"][0]["course"] == alone.board["players"][0]["course"]
    assert sorted(result.board["players"][0]["specials"]) == sorted(alone.board["players"][0]["specials"])
    flags = [r for r in result.reads if r.flagged and "no card face" in r.note]
    assert len(flags) == 1 and not any(r.flagged and "no card face" in r.note for r in alone.reads)

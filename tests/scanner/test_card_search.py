"""Finding framed cards: a card whose panel is partly covered by paper (a score pad's corner) is not taken
for a card, but its panel is reported as a loose region, so that a scanner can flag a card as missing; so
is a card-shaped patch of paper (a panel as pale as paper). A picture touching the frame does not tilt a
side, and a dark table around a card alone does not pass for its frame."""

from __future__ import annotations

import cv2
import numpy as np

from scanner.cards import CardSpec, card_around, search_cards

SPEC = CardSpec((63.0, 88.0), 4.0)
WHITE = (245, 245, 245)


def _two_cards() -> np.ndarray:
    img = np.full((600, 800, 3), (40, 60, 90), np.uint8)
    for x0 in (100, 400):
        cv2.rectangle(img, (x0, 100), (x0 + 125, 275), WHITE, -1)
        cv2.rectangle(img, (x0 + 8, 108), (x0 + 117, 267), (60, 140, 50), -1)
    return img


def test_two_whole_cards_are_found_and_nothing_is_loose():
    search = search_cards(_two_cards(), SPEC)
    assert len(search.found) == 2 and search.loose == []


def test_a_card_partly_covered_by_paper_is_a_loose_region():
    img = _two_cards()
    cv2.rectangle(img, (400, 100), (470, 190), WHITE, -1)  # paper over the second card's top-left
    search = search_cards(img, SPEC)
    (card,) = search.found
    assert np.abs(card.centre - [162.5, 187.5]).max() < 1.0  # the first card, whole
    (loose,) = search.loose
    x, y, w, h = cv2.boundingRect(loose.astype(np.float32))
    assert 405 <= x <= 410 and 105 <= y <= 110 and x + w > 500 and y + h > 250  # the covered card's panel


def test_a_picture_touching_the_frame_does_not_tilt_the_side_it_touches():
    img = _two_cards()[:, :350].copy()
    cv2.rectangle(img, (209, 190), (217, 267), WHITE, -1)  # a picture touching the frame, along half of it
    (card,) = search_cards(img, SPEC).found
    corners = card.corners if card.corners[0, 1] < 200 else card.turned().corners
    assert np.abs(corners - [[100, 100], [226, 100], [226, 276], [100, 276]]).max() < 1.0


def test_a_card_alone_on_a_dark_table_is_found_by_its_own_frame():
    # far from the cards the dark grey table is the brightest thing around and passes for paper, leaving
    # a card-shaped hole in the paper around a card lying alone: its outline has table on both sides
    img = np.full((1200, 1600, 3), (56, 60, 67), np.uint8)
    for x0, y0 in ((100, 100), (226, 100), (352, 100), (1100, 700)):
        cv2.rectangle(img, (x0, y0), (x0 + 125, y0 + 175), WHITE, -1)
        cv2.rectangle(img, (x0 + 8, y0 + 8), (x0 + 117, y0 + 167), (150, 60, 140), -1)
    alone = [c for c in search_cards(img, SPEC).found if c.centre[0] > 800]
    assert len(alone) == 1
    corners = alone[0].corners if alone[0].corners[0, 1] < 800 else alone[0].turned().corners
    assert np.abs(corners - [[1100, 700], [1226, 700], [1226, 876], [1100, 876]]).max() < 1.0


def test_a_card_with_a_panel_as_pale_as_paper_is_a_loose_region():
    img = _two_cards()
    cv2.rectangle(img, (600, 300), (725, 475), WHITE, -1)
    cv2.rectangle(img, (608, 308), (717, 467), (225, 225, 228), -1)  # pale grey: paper to the mask
    search = search_cards(img, SPEC)
    assert len(search.found) == 2
    (loose,) = search.loose
    x, y, w, h = cv2.boundingRect(loose.astype(np.float32))
    assert abs(x - 600) <= 5 and abs(y - 300) <= 5 and abs(x + w - 726) <= 5 and abs(y + h - 476) <= 5


def test_a_card_around_a_loose_panel_outline():
    outline = np.array([[108, 108], [217, 108], [217, 267], [108, 267]], np.float64)
    card = card_around(outline, SPEC)
    corners = card.corners if card.corners[0, 1] < 200 else card.turned().corners
    assert np.abs(corners - [[100, 100], [226, 100], [226, 276], [100, 276]]).max() < 2.0


def test_a_card_around_a_loose_card_outline():
    outline = np.array([[100, 100], [226, 100], [226, 276], [100, 276]], np.float64)
    card = card_around(outline, SPEC, whole=True)
    corners = card.corners if card.corners[0, 1] < 200 else card.turned().corners
    assert np.abs(corners - outline).max() < 0.01
    panel = card.panel if card.panel[0, 1] < 200 else np.roll(card.panel, 2, axis=0)
    assert np.abs(panel - [[108, 108], [218, 108], [218, 268], [108, 268]]).max() < 0.5


def _dim_noisy_table_with_a_pad(rng: np.random.Generator) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Three cards with bluish frames on a dark grainy table, a pale yellow score pad the brightest thing
    in the photo; and the cards' top-left corners."""
    img = np.clip(rng.normal(45, 9, (900, 1200, 3)), 0, 255).astype(np.uint8)
    img[40:260, 920:1160] = (174, 250, 254)
    corners = [(200, 400), (330, 400), (460, 400)]
    for x0, y0 in corners:
        cv2.rectangle(img, (x0, y0), (x0 + 125, y0 + 175), (216, 213, 199), -1)
        cv2.rectangle(img, (x0 + 8, y0 + 8), (x0 + 117, y0 + 167), (40, 90, 39), -1)
    grain = rng.normal(0, 12, img.shape)  # the table's grain over everything, as a phone shows it
    return np.clip(img + grain, 0, 255).astype(np.uint8), corners


def test_cards_the_paper_white_misjudges_are_found_by_a_local_white():
    # white balanced on the pad, the frames look too blue for paper: the first search finds no card
    img, corners = _dim_noisy_table_with_a_pad(np.random.default_rng(3))
    assert search_cards(img, SPEC, enough=0).found == []
    found = search_cards(img, SPEC).found
    assert len(found) == 3
    for card, (x0, y0) in zip(sorted(found, key=lambda c: c.centre[0]), corners, strict=True):
        quad = card.corners if card.corners[0, 1] < y0 + 50 else card.turned().corners
        assert np.abs(quad - [[x0, y0], [x0 + 126, y0], [x0 + 126, y0 + 176], [x0, y0 + 176]]).max() < 2.0


def test_the_second_search_only_adds_cards():
    # the first search finds the two cards; asked for more, the second finds them again: nothing is doubled
    assert len(search_cards(_two_cards(), SPEC, enough=5).found) == 2


def test_cards_in_an_underexposed_photo_are_found_against_the_table():
    # frames darker than any paper the first search accepts, yet twice as bright as the table around them
    img = np.full((600, 800, 3), (22, 24, 25), np.uint8)
    for x0 in (100, 400):
        cv2.rectangle(img, (x0, 100), (x0 + 125, 275), (52, 52, 50), -1)
        cv2.rectangle(img, (x0 + 8, 108), (x0 + 117, 267), (14, 40, 16), -1)
    assert search_cards(img, SPEC, enough=0).found == []
    found = sorted(search_cards(img, SPEC).found, key=lambda c: c.centre[0])
    assert len(found) == 2 and np.abs(np.array([c.centre for c in found]) - [[163, 188], [463, 188]]).max() < 1.0

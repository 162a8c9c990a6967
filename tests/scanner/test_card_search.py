"""Finding framed cards: a card whose panel is partly covered by paper (a score pad's corner) is not taken
for a card, but its panel is reported as a loose region, so that a scanner can flag a card as missing."""

from __future__ import annotations

import cv2
import numpy as np

from scanner.cards import CardSpec, search_cards

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

"""Gnoming A Round: how read cards join into grids. A card read as unknown between two grids (a face-down
card) must not merge them; one beside a single grid joins it, unless it is far larger than a card (a cup)."""

from __future__ import annotations

import numpy as np

from scanner.cards import FoundCard
from scanner.games.gnoming import CardRead, group_cards

W, H = 63.0, 88.0


def _card(col: float, row: float, face: str = "5") -> CardRead:
    x, y = col * (W + 2), row * (H + 2)
    corners = np.float32([[x, y], [x + W, y], [x + W, y + H], [x, y + H]])
    return CardRead(FoundCard(corners, corners, W * H), face, 0.9 if face != "unknown" else 0.4, 0.1, ())


def _grid(col0: float) -> list[CardRead]:
    return [_card(col0 + c, r) for r in range(3) for c in range(3)]


def test_an_unknown_card_between_two_grids_stays_alone():
    bridge = _card(3, 1, "unknown")
    groups = group_cards(_grid(0) + [bridge] + _grid(4))
    assert [len(g) for g in groups] == [9, 9, 1] and groups[2][0] is bridge


def test_an_unknown_card_beside_one_grid_joins_it():
    beside = _card(3, 1, "unknown")
    groups = group_cards(_grid(0) + [beside])
    assert [len(g) for g in groups] == [10] and any(r is beside for r in groups[0])


def test_well_read_cards_still_join_across_a_card_width():
    groups = group_cards(_grid(0) + [_card(3, 1)] + _grid(4))
    assert [len(g) for g in groups] == [19]


def test_an_unknown_thing_far_larger_than_a_card_beside_a_grid_stays_alone():
    x, y = 3 * (W + 2), 0.0
    corners = np.float32([[x, y], [x + 2 * W, y], [x + 2 * W, y + 1.5 * H], [x, y + 1.5 * H]])
    cup = CardRead(FoundCard(corners, corners, 3 * W * H), "unknown", 0.35, 0.1, ())
    groups = group_cards(_grid(0) + [cup])
    assert [len(g) for g in groups] == [9, 1] and groups[1][0] is cup

"""Client cards in family scoring, stand-in overrides, and the expert ranking among players."""

from __future__ import annotations

import json

import pytest
from minigolf_kit import course, perfect, play, points

from rules import standins

FAR = (11, 11, "NW")
SHORT = [(1, 1), (1, 2), (1, 3)]  # 3 tiles
LONG = [(3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6)]  # 6 tiles


@pytest.fixture
def overrides(tmp_path):
    """Write stand-in overrides to a file and load them; cleared afterwards."""
    def load(values):
        path = tmp_path / "standins.json"
        path.write_text(json.dumps({"minigolf-designer": values}))
        standins.set_overrides(path)
    yield load
    standins.set_overrides(None)


def test_mr_long_counts_holes_of_six_tiles_or_more():
    five = [(5, 1), (5, 2), (5, 3), (5, 4), (5, 5)]
    result = play(course(SHORT, LONG, five, clients=["mr-long"], entrance=FAR))
    assert points(result, "client: Mr Long") == 2


def test_mr_short_stand_in_counts_holes_of_at_most_three_tiles():
    result = play(course(SHORT, LONG, [(5, 1), (5, 2)], clients=["mr-short"], entrance=FAR))
    assert points(result, "client: Mr Short") == 4


def test_mr_short_threshold_is_overridable(overrides):
    overrides({"mr_short_max_tiles": 2, "mr_short_points": 5})
    result = play(course(SHORT, LONG, [(5, 1), (5, 2)], clients=["mr-short"], entrance=FAR))
    assert points(result, "client: Mr Short") == 5


def test_unknown_stand_in_key_is_refused(overrides):
    overrides({"mr_tall": 1})
    with pytest.raises(ValueError, match="mr_tall"):
        play(course(SHORT))


def test_clients_ignore_uncompleted_holes():
    board = course(LONG, clients=["mr-long", "mr-short"], entrance=FAR)
    board["tiles"] = [t for t in board["tiles"] if t["col"] != 6]  # remove the green
    board["tokens"] = []
    result = play(board)
    assert points(result, "client: Mr Long") == 0
    assert points(result, "client: Mr Short") == 0


def test_mr_straightforward_next_tile_straight_ahead():
    # green 1 entered moving east at (1,3); tee 2 at (1,4) leaves east: in line
    inline = course(SHORT, [(1, 4), (1, 5), (1, 6)], clients=["mr-straightforward"], entrance=FAR)
    assert points(play(inline), "client: Mr Straightforward") == 2
    # tee 2 below the green leaving east: adjacent (circuit scores) but not in line
    beside = course(SHORT, [(2, 3), (2, 4), (2, 5)], clients=["mr-straightforward"], entrance=FAR)
    result = play(beside)
    assert points(result, "client: Mr Straightforward") == 0
    assert points(result, "circuit: green 1 -> tee 2") == 2


def test_mr_whim_is_not_scored_and_says_so():
    result = play(course(SHORT, clients=["mr-whim"]))
    assert not any(line.item.startswith("client") for line in result.scores[0].lines)
    assert any("Mr Whim" in w for w in result.warnings)


def test_expert_best_gets_full_points_worst_minus():
    ada = perfect(clients=["mr-perfect"])
    ben = course(SHORT, clients=["mr-perfect"])
    ben["setup"]["player"] = "Ben"
    family = play(ada, ben)
    assert [points(family, "client: Mr Perfect", i) for i in (0, 1)] == [18, 0]
    expert = play(ada, ben, expert=True)
    assert [points(expert, "client: Mr Perfect", i) for i in (0, 1)] == [18, -18]
    assert [s.player for s in expert.standings] == ["Ada", "Ben"]


def test_expert_middle_player_and_ties():
    boards = []
    for name, grass in (("A", 3), ("B", 2), ("C", 2), ("D", 1)):
        b = course(extra=[(1, c, "gs01", 0) for c in range(grass)], clients=["mrs-camper"], entrance=FAR)
        b["setup"]["player"] = name
        boards.append(b)
    result = play(*boards, expert=True)
    assert [points(result, "client: Mrs Camper", i) for i in range(4)] == [6, 0, 0, -6]


def test_expert_from_board_option_and_single_board_warning():
    board = course(SHORT, clients=["mr-short"], options={"expert": True})
    result = play(board)
    assert points(result, "client: Mr Short") == 2  # family points: nobody to rank against
    assert any("two or more boards" in w for w in result.warnings)


def test_boards_naming_different_orders_are_flagged():
    a, b = course(orders=["dog-3", "par4-2"]), course(orders=["tree-2", "par4-2"])
    assert any("different orders" in w for w in play(a, b).warnings)

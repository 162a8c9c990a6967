"""Every scoring rule of the base game, on small boards, plus the playability penalties."""

from __future__ import annotations

import pytest
from minigolf_kit import PERFECT_HOLES, course, perfect, play, points

FAR = (11, 11, "NW")


def test_visitors_one_point_per_person():
    # te01 1 person, st02 1, gr06 3, grass gs07 3
    board = course([(1, 1, "te01"), (1, 2, "st02"), (1, 3, "gr06")], extra=[(3, 3, "gs07", 0)], entrance=FAR)
    assert points(play(board), "visitors") == 8


def test_unknown_tile_counts_nothing_and_is_flagged():
    board = course([(1, 1, "te01"), (1, 2, "st02"), (1, 3, "gr06")], extra=[(3, 3, "unknown", 0)], entrance=FAR)
    result = play(board)
    assert points(result, "visitors") == 5
    assert any("unreadable tile at (3,3)" in w for w in result.scores[0].warnings)


def test_unknown_tile_breaks_a_hole_without_mismatch():
    board = course([(1, 1), (1, 2), (1, 3)], entrance=FAR)
    board["tiles"][1]["tile"] = "unknown"
    result = play(board)
    assert points(result, "playability: mismatches") == 0
    assert result.scores[0].details["completed_holes"] == 0


def test_bonus_tiles_three_points_each():
    assert points(play(course(bonus_tiles=2)), "bonus tiles") == 6


def test_order_points_per_feature():
    # "3 points per dog": te05 has a dog, grass gs10 two
    board = course([(1, 1, "te05"), (1, 2)], extra=[(4, 4, "gs10", 0)], orders=["dog-3"], entrance=FAR)
    assert points(play(board), "order dog-3") == 9


def test_order_points_per_par_hole():
    # "2 points per par-4 hole": two par-4 holes, one par-3 hole
    par4 = [(1, 1, "te01"), (1, 2, "st02"), (1, 3, "st02"), (1, 4, "gr02")]  # 1+1+1+1
    par4b = [(3, 1, "te01"), (3, 2, "st01"), (3, 3, "gr03")]  # 1+0+3
    par3 = [(5, 1, "te01"), (5, 2, "st01"), (5, 3, "gr01")]  # 1+0+2
    board = course(par4, par4b, par3, orders=["par4-2", "par3-2"], entrance=FAR)
    result = play(board)
    assert points(result, "order par4-2") == 4
    assert points(result, "order par3-2") == 2


def test_land_value_minus_missing_and_extra_tiles():
    # Meadow (value 8): a 6x7 drawing, entrance at a corner -> 41 plot cells
    board = course([(1, 1), (1, 2)], extra=[(7, 7, "gs01", 0)], land="meadow")
    result = play(board)
    assert points(result, "land card") == 8
    assert points(result, "land: missing tiles") == -39
    assert points(result, "land: beyond the plot") == -3


def test_plot_beyond_the_grid_is_flagged():
    result = play(course(extra=[(1, 1, "gs01", 0)], land="meadow", entrance=(0, 0, "NW")))
    assert any("beyond the grid" in w for w in result.scores[0].warnings)
    assert not any("beyond the grid" in w for w in play(course(land="meadow")).scores[0].warnings)


def test_land_streams_are_not_to_fill_and_cost_three_when_built_on():
    # Brook: 6x8 drawing, 4 stream cells -> 43 plot cells; (2,3) is a stream
    board = course(extra=[(1, 1, "gs01", 0), (2, 3, "gs02", 0)], land="brook")
    result = play(board)
    assert points(result, "land: missing tiles") == -42
    assert points(result, "land: on streams") == -3
    assert points(result, "land: beyond the plot") == 0


@pytest.mark.parametrize("facing, inside, outside", [
    ("SE", (1, 1), (-1, 1)), ("SW", (1, -1), (1, 1)), ("NW", (-1, -1), (1, -1)), ("NE", (-1, 1), (-1, -1))])
def test_land_plot_follows_the_entrance_facing(facing, inside, outside):
    er, ec = 6, 6
    tiles = [(er + inside[0], ec + inside[1], "gs01", 0), (er + outside[0], ec + outside[1], "gs02", 0)]
    result = play(course(extra=tiles, land="meadow", entrance=(er, ec, facing), grid=(13, 13)))
    assert points(result, "land: beyond the plot") == -3
    assert points(result, "land: missing tiles") == -40


def test_circuit_two_points_per_transition_perfect_twenty():
    assert points(play(perfect()), "circuit") == 20


def test_circuit_entrance_to_first_tee_must_touch_the_entrance():
    board = course([(1, 1), (1, 2), (1, 3)])  # entrance (0,0): tee (1,1) only touches it diagonally
    assert points(play(board), "circuit: entrance -> tee 1") == 0
    board = course([(0, 1), (0, 2), (0, 3)])
    assert points(play(board), "circuit: entrance -> tee 1") == 2


def test_circuit_gap_between_green_and_next_tee_scores_nothing():
    # a grass tile between green 1 and tee 2 (rulebook: a meadow tile in between)
    board = course([(1, 1), (1, 2), (1, 3)], [(1, 5), (1, 6), (1, 7)], extra=[(1, 4, "gs01", 0)])
    assert points(play(board), "circuit: green 1 -> tee 2") == 0


def test_par_two_points_per_hole_in_the_green_area_and_cubes():
    # holes of par 2 (default tiles), 4 and 6: one in the green area; total 12 -> 24 cubes left over
    par2 = [(1, 1), (1, 2), (1, 3)]
    par4 = [(3, 1, "te01"), (3, 2, "st02"), (3, 3, "st02"), (3, 4, "gr02")]
    par6 = [(5, 1, "te04"), (5, 2, "st08"), (5, 3, "gr08")]
    result = play(course(par2, par4, par6, entrance=FAR))
    assert points(result, "par: green area") == 2
    assert points(result, "par: cubes") == -24


def test_par_black_cubes_beyond_thirty_six():
    board = perfect()
    for t in board["tiles"]:
        if t["tile"] == "gr02":  # holes 1 and 9: green flag 1 -> 3, total 40
            t["tile"] = "gr03"
    result = play(board)
    assert points(result, "par: cubes") == -4
    assert points(result, "par: green area") == 14  # holes 1 and 9 now par 6


@pytest.mark.parametrize("holes, expected", [(8, -10), (9, 0)])
def test_not_exactly_nine_holes_minus_ten(holes, expected):
    board = course(*PERFECT_HOLES[:holes], grid=(6, 7))
    assert points(play(board), "playability: 9 holes") == expected


def test_ten_holes_minus_ten():
    board = course(*PERFECT_HOLES, [(8, 1), (8, 2)], grid=(10, 10))
    board["tokens"].pop()  # tokens go up to 9
    result = play(board)
    assert points(result, "playability: 9 holes") == -10
    assert any("beyond 9" in w for w in result.scores[0].warnings)


def test_two_greens_is_badly_built():
    board = course(entrance=FAR, extra=[(1, 1, "gr08", 90), (1, 2, "st01", 90), (1, 3, "gr08", 270)])
    assert points(play(board), "playability: badly built") == -3


def test_two_tees_is_badly_built():
    board = course(entrance=FAR, extra=[(1, 1, "te03", 270), (1, 2, "te03", 90)])
    assert points(play(board), "playability: badly built") == -3


def test_loop_is_badly_built():
    square = [(1, 1, "co01", 0), (1, 2, "co01", 90), (2, 2, "co01", 180), (2, 1, "co01", 270)]
    result = play(course(entrance=FAR, extra=square))
    assert points(result, "playability: badly built") == -3
    assert "loop" in next(line.why for line in result.scores[0].lines if line.item == "playability: badly built")


def test_mismatch_pathway_against_grass():
    # the straight's east end meets a grass tile: -3; its west end runs off into an empty cell: no penalty
    board = course(entrance=FAR, extra=[(1, 1, "st01", 90), (1, 2, "gs01", 0)])
    assert points(play(board), "playability: mismatches") == -3


def test_mismatch_counted_per_shared_edge():
    # a corner (S-E) under a N-S straight meets its south end with grass; the corner's east end meets
    # the grass side of another N-S straight -> 2 mismatched edges; ends into empty cells cost nothing
    tiles = [(1, 1, "st01", 0), (2, 1, "co01", 0), (2, 2, "st01", 0)]
    assert points(play(course(entrance=FAR, extra=tiles)), "playability: mismatches") == -6


def test_wrong_arrow_minus_one_only_on_completed_holes():
    done = course([(1, 1), (1, 2, "st05", 90), (1, 3)], entrance=FAR)  # arrow turned towards the tee
    assert points(play(done), "playability: arrows") == -1
    unfinished = course(entrance=FAR, extra=[(1, 1, "te03", 270), (1, 2, "st05", 90)])
    assert points(play(unfinished), "playability: arrows") == 0


def test_crossover_carries_two_holes_and_adds_its_flag_to_both():
    across = [(2, 0, "te01"), (2, 1, "cr01"), (2, 2, "gr02")]  # 1 + 2 + 1
    down = [(1, 1, "te01"), (2, 1, "cr01"), (3, 1, "gr02")]
    result = play(course(across, down, entrance=FAR))
    assert [h["par"] for h in result.scores[0].details["holes"]] == [4, 4]
    assert points(result, "playability: mismatches") == 0

"""The worked examples of the Putt of No Return rulebook, each rebuilt as a board and scored."""

from __future__ import annotations

import copy

from minigolf_kit import course, perfect, play, points

FAR = (11, 11, "NW")  # an entrance out of the way of the example holes


def test_noreturn_one_arrow_correctly_oriented():
    # "For this hole, Mrs Noreturn will give you 3 points for the center tile"
    board = course([(1, 1), (1, 2, "pn01"), (1, 3)], clients=["mrs-noreturn"], entrance=FAR)
    assert points(play(board), "client: Mrs Noreturn") == 3


def test_noreturn_corner_in_the_wrong_direction():
    # two arrows; the corner points back toward the tee: only the straight scores (3, not 6)
    wrong = course([(2, 3), (1, 3, "pn02", 90), (1, 2, "pn01"), (1, 1)], clients=["mrs-noreturn"], entrance=FAR)
    result = play(wrong)
    assert points(result, "client: Mrs Noreturn") == 3
    assert points(result, "playability: arrows") == -1
    # the same tiles played the other way round: both arrows agree, 6 points
    right = course([(1, 1), (1, 2, "pn01"), (1, 3, "pn02"), (2, 3)], clients=["mrs-noreturn"], entrance=FAR)
    assert points(play(right), "client: Mrs Noreturn") == 6


def test_intheway_many_obstacles_one_hole_two_points():
    # obstacles on the tee (te04) and the green (gr03): 2 points per hole, not per obstacle or tile
    board = course([(1, 1, "te04"), (1, 2), (1, 3, "gr03")], clients=["mr-intheway"], entrance=FAR)
    assert points(play(board), "client: Mr Intheway") == 2


def test_intheway_bifurcation_is_not_an_obstacle():
    board = course([(1, 1), (1, 2, "bf01"), (1, 3)], clients=["mr-intheway"], entrance=FAR)
    assert points(play(board), "client: Mr Intheway") == 0


def test_intheway_ignores_uncompleted_hole():
    # an obstacle on the tee, but the hole has no green
    board = course([(1, 1), (1, 2)], clients=["mr-intheway"], entrance=FAR)
    board["tiles"] = [{"row": 1, "col": 1, "tile": "te04", "rotation": 270},
                      {"row": 1, "col": 2, "tile": "st01", "rotation": 90}]
    board["tokens"] = []
    result = play(board)
    assert points(result, "client: Mr Intheway") == 0
    assert any("uncompleted hole" in w for w in result.scores[0].warnings)


def test_camper_six_grass_tiles_inside_or_outside_the_plot():
    grass = [(1, 1, "gs01", 0), (1, 2, "gs08", 90), (2, 1, "pn22", 0), (3, 3, "gs05", 0),
             (8, 8, "gs02", 180), (9, 2, "pn19", 0)]  # the last two lie beyond the Meadow plot
    board = course(extra=grass, land="meadow", clients=["mrs-camper"])
    result = play(board)
    assert points(result, "client: Mrs Camper") == 12
    assert points(result, "land: beyond the plot") == -6


def test_perfect_all_four_constraints():
    assert points(play(perfect(clients=["mr-perfect"])), "client: Mr Perfect") == 3 + 4 + 5 + 6


def test_perfect_playable_despite_uncompleted_hole():
    # an uncompleted hole beyond the plot costs the land part only, not the playable part
    board = perfect(clients=["mr-perfect"])
    board["tiles"].append({"row": 8, "col": 8, "tile": "te01", "rotation": 0})
    board["grid"] = {"rows": 10, "cols": 10}
    result = play(board)
    assert points(result, "playability") == 0
    assert points(result, "client: Mr Perfect") == 3 + 5 + 6


def test_perfect_land_lost_with_one_missing_tile():
    board = perfect(clients=["mr-perfect"])
    board["tiles"] = [t for t in board["tiles"] if t["tile"] != "gs01"]
    result = play(board)
    assert points(result, "land: missing tiles") == -1
    assert points(result, "client: Mr Perfect") == 3 + 5 + 6


def test_perfect_circuit_needs_all_ten_transitions():
    board = perfect(clients=["mr-perfect"])
    swap = {4: 5, 5: 4}  # holes 4 and 5 swap numbers: green 3 -> tee 4 and two more break
    for token in board["tokens"]:
        token["number"] = swap.get(token["number"], token["number"])
    result = play(board)
    assert points(result, "circuit") < 20
    assert points(result, "client: Mr Perfect") == 3 + 4 + 6


def test_perfect_par_needs_eighteen_par_points():
    board = perfect(clients=["mr-perfect"])
    for t in board["tiles"]:
        if t["tile"] == "gr12":  # hole 7: par 4 -> 5, total 37
            t["tile"] = "gr03"
    result = play(board)
    assert points(result, "par") == 17
    assert points(result, "client: Mr Perfect") == 3 + 4 + 5


def test_tricky_tile_used_twice_by_one_hole_counts_twice_for_mr_long():
    # pn14: tee and a corner on one tile; the hole leaves the tee, loops round and crosses the corner
    hole = [(2, 1, "pn14"), (3, 1, "co02"), (3, 2, "co05"), (2, 2, "co04"), (2, 1, "pn14"), (1, 1, "gr08")]
    result = play(course(hole, clients=["mr-long"], entrance=FAR))
    (info,) = result.scores[0].details["holes"]
    assert (info["length"], info["par"], len(info["tiles"])) == (6, 5, 5)
    assert points(result, "client: Mr Long") == 2
    assert points(result, "playability: badly built") == 0


def test_tricky_tiles_shared_by_two_holes():
    # hole 1: pn15's tee (flag 3), a straight (1), pn16's green (1) -> 3 tiles, par 5
    # hole 2: tee (1), pn16's straight (1), straight (1), green (1) -> 4 tiles, par 4
    hole1 = [(1, 2, "pn15"), (1, 1, "st02"), (1, 0, "pn16")]
    hole2 = [(0, 0, "te01"), (1, 0, "pn16"), (2, 0, "st02"), (3, 0, "gr02")]
    result = play(course(hole1, hole2, entrance=FAR))
    holes = {h["number"]: (h["length"], h["par"]) for h in result.scores[0].details["holes"]}
    assert holes == {1: (3, 5), 2: (4, 4)}
    assert points(result, "playability: mismatches") == 0


def test_circuit_green_adjacent_to_next_tee():
    result = play(course([(1, 1), (1, 2), (1, 3)], [(2, 3), (3, 3)], entrance=FAR))
    assert points(result, "circuit: green 1 -> tee 2") == 2


def test_circuit_green_and_next_tee_on_one_tile_in_line():
    # pn10 carries the green of hole 1 (entered from the west) and the tee of hole 2 (leaving east)
    board = course([(1, 1), (1, 2), (1, 3, "pn10")], [(1, 3, "pn10"), (1, 4), (1, 5)],
                   clients=["mr-straightforward"], entrance=FAR)
    result = play(board)
    assert points(result, "circuit: green 1 -> tee 2") == 2
    assert points(result, "client: Mr Straightforward") == 2


def test_circuit_of_four_holes_with_same_tile_and_far_looking_transitions():
    hole1 = [(0, 0), (0, 1), (0, 2)]
    hole2 = [(1, 2), (1, 3), (1, 4, "pn11")]  # pn11: green from the west, tee leaving south
    hole3 = [(1, 4, "pn11"), (2, 4), (3, 4, "pn16")]  # green of pn16 at its north edge
    hole4 = [(4, 4), (4, 3), (4, 2)]  # tee just south of pn16: far from its green, but adjacent tiles
    result = play(course(hole1, hole2, hole3, hole4, clients=["mr-straightforward"], entrance=FAR))
    circuit = [points(result, f"circuit: green {k} -> tee {k + 1}") for k in (1, 2, 3)]
    assert circuit == [2, 2, 2]
    assert points(result, "client: Mr Straightforward") == 0  # green 2 and tee 3 are not in line
    assert points(result, "playability: mismatches") == 0


def test_tile_reservation_left_costs_three():
    board = course([(1, 1), (1, 2)], entrance=FAR, reserved_tile_left=True)
    assert points(play(board), "tile reservation") == -3
    kept = copy.deepcopy(board)
    kept["setup"]["reserved_tile_left"] = False
    assert not any(line.item == "tile reservation" for line in play(kept).scores[0].lines)

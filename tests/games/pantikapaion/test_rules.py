"""Pantikapaion rules, one or more tests per rule of docs/rules/spec/pantikapaion.md sections 5, 6 and 8.

Each test names its spec section and rulebook line (Lnnn of the Russian rulebook text (pantikapaion.ru.txt)). Positions come from
from_json (helpers.position). Costs and board cells are read from the data files, never restated here.
"""
import pytest

from engine.registry import load_game
from games.pantikapaion.helpers import COLOURS, board, bj, finish_turn, markers, position, setup

D = load_game("pantikapaion", players=2).data
# P0's standard city: a 4x3 block of level-1 cells
#   row 5: e5 o*  f5 g*  g5 D   h5 D
#   row 6: e6 .   f6 .   g6 .   h6 w*
#   row 7: e7 .   f7 .   g7 b*  h7 p*
CITY = [("T14", 0, "e5"), ("T01", 0, "e7"), ("T25", 0, "g5")]


def legal(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def cost(k):
    """Printed cost of the k-th piece taken from a column (data/buildings.json)."""
    return D["costs"][k - 1]


# ------------------------------------------------------------------ §5.1 exploration: the ring (L189, L460)

def test_s5_1_L189_three_tiles_after_trireme_and_trireme_takes_the_slot():
    s = setup(2)
    assert s.phase == "pick"
    assert legal(s) == ["take T52", "take T53", "take T54"]
    s.apply("take T53")                                     # first tile: placed at once, starts the city (L193)
    assert s.to_json()["trireme"] == 1 and s.to_json()["ring"][1] is None
    if s.phase == "workers":
        s.apply("done")
    s.apply("take coins")
    finish_turn(s)
    assert s.current_player() == 1
    assert legal(s) == ["take T54", "take T55", "take T56"]  # the 3 after the trireme's new place


def test_s5_1_L189_gaps_are_skipped_and_the_ring_wraps():
    ring = ["T52", None, None, "T55", "T56", None, None, "T59"]
    s = position(ring=ring, phase="pick", trireme=5, boards={0: board(tiles=CITY)})
    assert legal(s) == ["take T52", "take T55", "take T59"]          # slots 7, 0 (wrapping), 3: gaps skipped
    s = position(ring=ring, phase="pick", trireme=2, boards={0: board(tiles=CITY)})
    assert legal(s) == ["take T55", "take T56", "take T59"]


def test_s5_1_G15_fewer_than_three_left_choose_among_them():
    s = position(ring=["T52", None, None, None, None, None, None, None], phase="pick", boards={0: board(tiles=CITY)})
    assert legal(s) == ["take T52"]


# ------------------------------------------------------------------ §5.2 placing the tile (L193-L209)

def test_s5_2_L193_first_tile_starts_the_city_at_the_centre():
    s = setup(2)
    s.apply("take T52")
    tiles = bj(s)["tiles"]
    assert tiles == [["T52", 0, "g7"]]
    assert s.phase in ("workers", "development")


def test_s5_2_L193_any_rotation_is_offered():
    s = position(phase="rotation", hand="T44", boards={0: board(tiles=CITY)})
    assert legal(s) == ["rot 0", "rot 90", "rot 180", "rot 270"]   # an L-tetromino has 4 distinct rotations
    s2 = position(phase="rotation", hand="T15", boards={0: board(tiles=CITY)})
    assert len(legal(s2)) == 4                              # O shape: rotations differ by their cell contents


def test_s5_2_L203_expansion_must_touch_by_a_side_not_a_corner():
    s = position(phase="anchor", hand="T16", boards={0: board(tiles=CITY)})
    moves = legal(s)
    assert "at i5 l1" in moves                              # touches h5/h6 by a side
    assert "at i8 l1" not in moves                          # touches h7 only by a corner
    assert "at e9 l1" not in moves                          # touches nothing


def test_s5_2_L209_stacking_needs_full_support_no_overhang():
    s = position(phase="anchor", hand="T16", boards={0: board(tiles=CITY)})
    moves = legal(s)
    assert "at e5 l2" in moves                              # on four level-1 cells
    assert not any(m.startswith("at h5") for m in moves)    # h5, h6 on tiles, i5, i6 on the table: overhang
    assert s._fits(0, 15, 0, 4 * 16 + 7) == 0


def test_s5_2_L209_stacking_needs_one_level_below():
    city = CITY + [("T17", 0, "e5")]                        # e5 f5 e6 f6 now level 2
    s = position(phase="anchor", hand="T16", boards={0: board(tiles=city)})
    moves = legal(s)
    assert "at e5 l3" in moves
    assert "at e6" not in [m.rsplit(" ", 1)[0] for m in moves]    # e6 f6 level 2, e7 f7 level 1


def test_s5_2_L209_never_on_a_building():
    s = position(phase="anchor", hand="T16", boards={0: board(tiles=CITY, buildings=[["house", "f6"]])})
    moves = [m.rsplit(" ", 1)[0] for m in legal(s)]
    for anchor in ("e5", "f5", "e6", "f6"):                 # every 2x2 over f6
        assert f"at {anchor}" not in moves
    assert "at g6" in moves                                 # g6 h6 g7 h7: no building


def test_s5_2_L209_covered_cubes_are_collected_and_covered_workers_return():
    s = position(phase="anchor", hand="T16", boards={0: board(tiles=CITY, workers=["e6"], workers_board=0)})
    s.apply("at e5 l2")                                     # T16 = w. / .o over e5 f5 e6 f6
    b = bj(s)
    assert b["storage"]["orange"] == 1 and b["storage"]["green"] == 1    # cubes of e5 (o) and f5 (g)
    assert b["workers"] == [] and b["workers_board"] == 1                # back on the board, usable again
    assert "e5" in b["cubes"] and "f6" in b["cubes"]        # the new tile's resource cells are seeded (L195)
    assert s.phase == "workers" and "worker f6" in legal(s)


def test_s5_2_L195_L221_new_resource_cells_get_cubes_of_their_colour():
    s = position(phase="anchor", hand="T16", boards={0: board(tiles=CITY)})
    s.apply("at i5 l1")                                     # i5 w, j6 o
    b = bj(s)
    assert "i5" in b["cubes"] and "j6" in b["cubes"] and "i6" not in b["cubes"]
    s.apply("worker i5")
    assert bj(s)["storage"]["white"] == 1


# ------------------------------------------------------------------ §5.3 workers (L299-L301, L346)

def test_s5_3_L301_worker_collects_the_cube_under_it():
    s = position(phase="workers", boards={0: board(tiles=CITY)})
    assert legal(s) == ["worker e5", "worker f5", "worker h6", "worker g7", "worker h7", "done"]
    s.apply("worker g7")
    b = bj(s)
    assert b["storage"]["brown"] == 1 and b["workers"] == ["g7"] and "g7" not in b["cubes"]
    assert s.phase == "development"                         # no worker left: the window closes


def test_s5_3_L301_one_worker_a_cell_never_on_a_building():
    s = position(phase="workers", boards={0: board(tiles=CITY, workers_board=2, workers=["e5"],
                                                   buildings=[["house", "f5"]])})
    moves = legal(s)
    assert "worker e5" not in moves and "worker f5" not in moves and "worker h6" in moves


def test_s5_3_L301_round5_any_free_cell_rounds1to4_only_cubes():
    s = position(phase="workers", round=5, boards={0: board(tiles=CITY)})
    assert "worker g5" in legal(s) and "worker e6" in legal(s)     # drought and empty cells
    s4 = position(phase="workers", round=4, boards={0: board(tiles=CITY)})
    assert "worker g5" not in legal(s4)


def test_s5_3_canonical_order_in_a_window():
    s = position(phase="workers", boards={0: board(tiles=CITY, workers_board=2)})
    s.apply("worker h6")
    assert "worker e5" not in legal(s) and "worker g7" in legal(s)  # a set of cells, placed in cell order


# ------------------------------------------------------------------ §5.4 one development action (L229)

def test_s5_4_L229_exactly_one_action_then_the_turn_ends():
    s = position(boards={0: board(tiles=CITY, workers_board=0)})
    s.apply("take coins")
    assert s.current_player() == 1 and s.phase == "pick"


# ------------------------------------------------------------------ §5.4.1 build (L237-L274)

def test_s5_4_1_L243_L249_pay_the_column_cost_in_the_building_colour_and_take_the_bottom_piece():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 3, "brown": 2})})
    assert "build aqueduct" in legal(s) and "build temple" not in legal(s)
    s.apply("build aqueduct")
    assert bj(s)["storage"]["orange"] == 3 - cost(1)
    assert s.to_json()["stock"]["aqueduct"] == D["pieces_2p"] - 1
    assert s.phase == "building_placement"


def test_s5_4_1_L249_costs_rise_as_the_column_empties():
    others = board(tiles=[("T15", 0, "e5")], buildings=[["house", "e5"], ["house", "f5"]])
    s = position(boards={0: board(tiles=CITY, storage={"brown": 9}), 1: others})
    assert s._build_due(0, 0) == cost(3)
    s.apply("build house")
    assert bj(s)["storage"]["brown"] == 9 - cost(3)
    assert s._build_due(0, 0) == cost(4)


def test_s5_4_1_L380_substitution_forbidden_when_the_colour_suffices():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 2, "purple": 1}, markers={"orange": 3})})
    assert bj(s)["substitution_tokens"] == 1
    s.apply("build aqueduct")
    assert s.phase == "building_placement"
    assert bj(s)["storage"] == {"brown": 0, "purple": 1, "white": 0, "orange": 0, "green": 0}


def test_s5_4_1_L378_substitution_covers_the_shortfall_one_cube_a_token():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 1, "purple": 1, "green": 1},
                                  markers={"orange": 3})})
    s.apply("build aqueduct")
    assert s.phase == "substitution" and legal(s) == ["substitute purple", "substitute green"]
    s.apply("substitute green")
    assert bj(s)["storage"] == {"brown": 0, "purple": 1, "white": 0, "orange": 0, "green": 0}
    # with no orange at all, one token is not enough for a cost of 2
    s2 = position(boards={0: board(tiles=CITY, storage={"purple": 3}, markers={"orange": 3})})
    assert "build aqueduct" not in legal(s2)
    s3 = position(boards={0: board(tiles=CITY, storage={"purple": 3}, markers={"orange": 3, "purple": 6})})
    assert bj(s3)["substitution_tokens"] == 2 and "build aqueduct" in legal(s3)


def test_s5_4_1_L384_resource_discount_pays_one_less():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 1}, markers={"white": 6})})
    assert bj(s)["resource_discount"] and "build aqueduct" in legal(s)
    s.apply("build aqueduct")
    assert bj(s)["storage"]["orange"] == 1 - (cost(1) - 1)


def test_s5_4_1_L261_building_collects_cubes_and_returns_workers():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 2}, workers=["e6"], workers_board=0)})
    s.apply("build aqueduct")
    s.apply("place e5-e6")
    b = bj(s)
    assert b["buildings"] == [["aqueduct", "e5", "e6"]]
    assert b["storage"]["orange"] == 1 and b["workers_board"] == 1 and b["workers"] == []


def test_s5_4_1_L264_two_cell_building_orthogonal_never_diagonal():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 2})})
    s.apply("build aqueduct")
    moves = legal(s)
    assert "place e5-f5" in moves and "place e5-e6" in moves
    for m in moves:
        a, b = m.split()[1].split("-")
        assert a[0] == b[0] or a[1:] == b[1:]               # same column or same row
        assert abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:])) == 1


def test_s5_4_1_L262_two_cell_building_on_one_level():
    city = CITY + [("T17", 0, "e5")]                        # e5 f5 e6 f6 on level 2
    s = position(boards={0: board(tiles=city, storage={"orange": 2})})
    s.apply("build aqueduct")
    moves = legal(s)
    assert "place f5-g5" not in moves and "place e6-e7" not in moves   # level 2 next to level 1
    assert "place e5-f5" in moves and "place g5-h5" in moves


def test_s5_4_1_L261_no_building_on_a_building():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2}, buildings=[["temple", "e5"]])})
    s.apply("build house")
    assert "place e5" not in legal(s) and "place f5" in legal(s)


def test_s5_4_1_L274_advance_one_cell_and_resolve_it():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2})})
    s.apply("build house")
    s.apply("place e6")
    b = bj(s)
    assert b["markers"]["brown"] == 1
    assert D["dev"][0][0][0] == 1                           # brown cell 1 is a '+worker' cell in the data
    assert b["workers_board"] == 2 and b["workers_supply"] == 3


def test_s5_4_1_L274_paid_steps_cost_1_2_3_at_most_3():
    s = position(boards={0: board(tiles=CITY, storage={"green": 2}, coins=10)})
    s.apply("build temple")
    s.apply("place e6")
    for k, price in enumerate(D["paid_costs"], 1):
        while s.phase != "paid_step":                       # the cell effects may ask first; decline them
            s.apply("skip")
        coins = bj(s)["coins"]
        s.apply("pay step")
        assert bj(s)["coins"] == coins - price
        assert bj(s)["markers"]["green"] == 1 + k
    while s.phase in ("advance_select",):
        s.apply("skip")
    assert s.phase != "paid_step"                           # no 4th paid step
    assert bj(s)["coins"] == 10 - sum(D["paid_costs"])


def test_s5_4_1_L274_paid_steps_need_the_coins():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2}, coins=0)})
    s.apply("build house")
    s.apply("place e6")
    assert s.phase != "paid_step"


def test_s6_2_L388_coin_discount_once_a_turn_and_at_once_when_gained():
    # brown marker 3 -> main step to 4, paid step 1 (1 coin) to 5 = coin-discount cell, paid step 2 costs 2 - 1
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2}, coins=10, markers={"brown": 3})})
    s.apply("build house")
    s.apply("place e6")
    s.apply("pay step")
    assert bj(s)["coin_discount"] and bj(s)["coins"] == 9
    s.apply("pay step")
    assert bj(s)["coins"] == 9 - (D["paid_costs"][1] - 1)
    s.apply("pay step")
    assert bj(s)["coins"] == 9 - (D["paid_costs"][1] - 1) - D["paid_costs"][2]   # once a turn only


def test_s5_4_1_L368_row_end_building_allowed_marker_stays_no_paid_step():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2}, coins=10, markers={"brown": 9})})
    s.apply("build house")
    s.apply("place e6")
    assert bj(s)["markers"]["brown"] == 9 and s.phase != "paid_step"


def test_s5_4_1_L263_one_building_a_turn():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 4, "green": 4})})
    s.apply("build house")
    s.apply("place e6")
    seen = []
    while s.current_player() == 0:                          # place the workers, decline the rest
        seen += [m for m in legal(s) if m.startswith("build")]
        s.apply(legal(s)[0] if s.phase == "workers" else "skip")
    assert seen == [] and s.current_player() == 1           # no second build: the turn is over


# ------------------------------------------------------------------ §5.4.2 sell (L277-L283)

def test_s5_4_2_L278_three_to_five_different_colours_never_two_alike():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2, "white": 1})})
    assert not any(m.startswith("sell") for m in legal(s))  # only 2 colours
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2, "white": 1, "green": 1})})
    assert [m for m in legal(s) if m.startswith("sell")] == ["sell brown+white+green"]
    s = position(boards={0: board(tiles=CITY, storage={c: 1 for c in COLOURS})})
    assert len([m for m in legal(s) if m.startswith("sell")]) == 10 + 5 + 1


def test_s5_4_2_L279_L280_one_coin_each_and_one_step_in_each_row():
    s = position(boards={0: board(tiles=CITY, storage={"purple": 1, "white": 1, "orange": 2})})
    s.apply("sell purple+white+orange")
    finish_turn(s)
    b = bj(s)
    assert b["coins"] == 3 and b["storage"]["orange"] >= 1
    assert [b["markers"][c] for c in COLOURS] == [0, 1, 1, 1, 0]


def test_s5_4_2_L282_no_paid_steps_after_a_sale():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 1, "white": 1, "green": 1}, coins=10)})
    s.apply("sell brown+white+green")
    seen = set()
    while s.current_player() == 0:
        seen.add(s.phase)
        s.apply("skip" if "skip" in legal(s) else legal(s)[-1])
    assert "paid_step" not in seen


def test_s5_4_2_L280_L297_rows_resolved_from_the_top_down():
    # purple 2 -> MOVE (3) is asked before white 2 -> FREE (3): the upper row first
    s = position(boards={0: board(tiles=CITY, storage={"purple": 1, "white": 1, "green": 1},
                                  markers={"purple": 2, "white": 2}, buildings=[["house", "e6"]])})
    s.apply("sell purple+white+green")
    assert s.phase == "move_select"
    s.apply("skip")
    assert s.phase == "free_select"


def test_s5_4_2_G21_finished_row_still_sells_for_a_coin():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 1, "white": 1, "green": 1}, markers={"brown": 9})})
    s.apply("sell brown+white+green")
    finish_turn(s)
    assert bj(s)["coins"] == 3 and bj(s)["markers"]["brown"] == 9


# ------------------------------------------------------------------ §5.4.3 take (L235, L295)

def test_s5_4_3_L295_take_two_coins_or_one_cube_of_any_colour():
    s = position(boards={0: board(tiles=CITY)})
    assert {"take coins", "take brown", "take purple", "take white", "take orange", "take green"} <= set(legal(s))
    s.apply("take purple")
    assert bj(s)["storage"]["purple"] == 1
    s = position(boards={0: board(tiles=CITY)})
    s.apply("take coins")
    assert bj(s)["coins"] == D["take_coins"]


# ------------------------------------------------------------------ §5.5 / §6.3 development-board cells

def test_s5_5_L334_resource_token_gives_cubes_and_stays():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2}, markers={"brown": 2}),
                         1: board(markers={"brown": 3})})
    token = s.to_json()["resource_tokens"][D["dev"][0][2][1] + D["n_res1"]]
    s.apply("build house")
    s.apply("place e6")
    b = bj(s)
    for letter in token.split("+"):
        colour = next(c for c in COLOURS if c[0] == letter)
        assert b["storage"][colour] >= 1
    assert s.to_json()["resource_tokens"][D["dev"][0][2][1] + D["n_res1"]] == token


def test_s6_2_L372_upgrade_token_taken_from_the_stack():
    s = position(boards={0: board(tiles=CITY, storage={"white": 2}, markers={"white": 5})})
    before = s.to_json()["upgrade_stacks"]
    s.apply("build fortress")
    s.apply("place e6")
    assert bj(s)["resource_discount"]
    after = s.to_json()["upgrade_stacks"]
    assert sum(before) - sum(after) == 1


def test_s5_6_L350_move_a_building():
    s = position(boards={0: board(tiles=CITY, storage={"purple": 2}, markers={"purple": 2},
                                  buildings=[["house", "e6"]])})
    s.apply("build winery")
    s.apply("place f6")
    assert s.phase == "move_select" and legal(s) == ["move house@e6", "move winery@f6", "skip"]
    s.apply("move house@e6")
    assert "place f6" not in legal(s) and "place e6" not in legal(s)   # no swap onto a building, no non-move
    s.apply("place g7")                                     # onto the brown cube: collected
    b = bj(s)
    assert ["house", "g7"] in b["buildings"] and ["house", "e6"] not in b["buildings"]
    assert b["storage"]["brown"] >= 1


def test_s5_6_L354_free_build_any_but_fortress_no_advance():
    s = position(boards={0: board(tiles=CITY, storage={"white": 2}, markers={"white": 2})})
    s.apply("build fortress")
    s.apply("place e6")
    assert s.phase == "free_select"
    assert "free fortress" not in legal(s) and "free temple" in legal(s)
    stock = s.to_json()["stock"]["temple"]
    s.apply("free temple")
    s.apply("place f6")
    b = bj(s)
    assert b["markers"]["green"] == 0 and ["temple", "f6"] in b["buildings"]
    assert s.to_json()["stock"]["temple"] == stock - 1


def test_s5_6_L358_aqueduct_tile_placed_with_a_cube_of_choice():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 2}, markers={"orange": 1})})
    s.apply("build aqueduct")
    s.apply("place e6-f6")
    assert s.phase == "option"
    left = s.to_json()["aqueduct_tiles"]["AQ-A"]
    s.apply("use")
    assert s.phase == "rotation"
    s.apply(legal(s)[0])
    s.apply(legal(s)[0])
    assert s.phase == "aqueduct_cube"
    s.apply("cube green")
    b = bj(s)
    assert b["tiles"][-1][0] == "AQ-A" and b["tiles"][-1][3] == "green"
    assert s.to_json()["aqueduct_tiles"]["AQ-A"] == left - 1


def test_s5_6_L362_random_tile_drawn_from_the_bag_by_chance():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 2}, markers={"orange": 3})})
    s.apply("build aqueduct")
    s.apply("place e6-f6")
    assert s.phase == "option"
    bag = sum(s.to_json()["bag"].values())
    s.apply("use")
    assert s.is_chance_node() and len(s.chance_outcomes()) == bag
    s.apply("draw T40")
    assert s.phase == "rotation"
    s.apply(legal(s)[0])
    s.apply(legal(s)[0])
    assert bj(s)["tiles"][-1][0] == "T40"


def test_s5_6_L366_temple_advance_in_another_row_then_paid_steps_in_green():
    s = position(boards={0: board(tiles=CITY, storage={"green": 2}, coins=5, markers={"green": 1})})
    s.apply("build temple")
    s.apply("place e6")
    assert s.phase == "advance_select" and "advance green" not in legal(s)
    s.apply("advance brown")
    assert bj(s)["markers"]["brown"] == 1
    assert s.phase == "paid_step"
    s.apply("pay step")
    assert bj(s)["markers"]["green"] == 3


def test_s6_3_L342_properties_are_optional():
    s = position(boards={0: board(tiles=CITY, storage={"white": 2}, markers={"white": 2})})
    s.apply("build fortress")
    s.apply("place e6")
    assert "skip" in legal(s)
    s.apply("skip")
    assert len(bj(s)["buildings"]) == 1


# ------------------------------------------------------------------ §5.7 end of round (L392-L400)

def _last_turn(players=2, **kw):
    return position(players=players, turns_taken=3 * players - 1, current=1, **kw)


def test_s5_7_L396_L398_leftovers_discarded_income_workers_return():
    s = _last_turn(boards={0: board(tiles=CITY, markers={"brown": 4}, workers=["e5"], workers_board=0),
                           1: board(tiles=[("T15", 0, "e5")])})
    ring_left = [t for t in s.to_json()["ring"] if t]
    s.apply("take coins")                                   # P1 ends round 1
    finish_turn(s)
    j = s.to_json()
    assert sorted(j["discard"]) == sorted(ring_left)
    assert j["boards"][0]["coins"] == 2                     # brown cells 1 and 4 are '+worker' cells
    assert j["boards"][0]["workers"] == [] and j["boards"][0]["workers_board"] == 1
    assert j["round"] == 2 and j["first_player"] == 1 and s.is_chance_node()   # token passes clockwise (L408)


def test_s5_7_L400_discard_down_to_five_player_chooses():
    s = _last_turn(boards={0: board(tiles=CITY, storage={"brown": 4, "white": 3}),
                           1: board(tiles=[("T15", 0, "e5")])})
    s.apply("take coins")
    finish_turn(s)
    assert s.phase == "discard" and s.current_player() == 0
    assert legal(s) == ["discard brown", "discard white"]
    s.apply("discard white")
    assert legal(s) == ["discard white"]                    # a multiset: colours in order
    s.apply("discard white")
    assert s.is_chance_node() and bj(s)["storage"] == {"brown": 4, "purple": 0, "white": 1, "orange": 0, "green": 0}


def test_s5_7_L315_no_limit_during_the_round():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 9})})
    s.apply("take brown")
    assert bj(s)["storage"]["brown"] == 10


def test_s5_8_L408_L412_new_ring_from_the_bag_then_the_discards():
    s = _last_turn(boards={0: board(tiles=CITY), 1: board(tiles=[("T15", 0, "e5")])})
    s.apply("take coins")
    finish_turn(s)
    assert s.is_chance_node() and s.to_json()["ring_filled"] == 0
    # empty the bag but for two tiles: the ring takes them, then the discards are shuffled back in (L412)
    j = s.to_json()
    discarded = sum(j["discard"].values())
    keep = list(j["bag"])[:2]
    moved = {t: 1 for t in list(j["bag"])[2:]}
    j["discard"].update(moved)
    j["bag"] = {t: 1 for t in keep}
    s = s.game.state_from_json(j)
    s.apply(f"draw {keep[0]}")
    s.apply(f"draw {keep[1]}")
    j = s.to_json()
    assert j["discard"] == {} and sum(j["bag"].values()) == len(moved) + discarded
    assert s.is_chance_node()


# ------------------------------------------------------------------ §8 end of game and scoring (L418-L456)

def test_s8_1_L422_round5_workers_stay_final_placement_income_discard():
    s = _last_turn(round=5, boards={0: board(tiles=CITY, workers=["e6"], workers_board=1, storage={"brown": 7},
                                             markers={"brown": 1}),
                                    1: board(tiles=[("T15", 0, "e5")], workers_board=0)})
    s.apply("take coins")
    assert s.phase == "workers" and s.current_player() == 0    # final placement of free workers
    assert "worker g5" in legal(s)                          # e.g. cover a drought cell
    s.apply("worker g5")
    assert bj(s)["workers"] == ["g5", "e6"] or sorted(bj(s)["workers"]) == ["e6", "g5"]
    assert s.phase == "discard"
    s.apply("discard brown")
    s.apply("discard brown")
    assert s.is_terminal()
    b = bj(s)
    assert b["coins"] == 1 and sum(b["storage"].values()) == 5


def _score(boards, players=2, **kw):
    s = position(players=players, boards=boards, **kw)
    return s.score_breakdown(0)


def test_s8_2_L432_houses_rate_times_adjacent_workers():
    # brown VP cell at 2 (rate 1), at 7 (rate 2): the furthest reached counts (G9)
    b = board(tiles=CITY, buildings=[["house", "f6"]], workers=["e5", "g7", "h7"], workers_board=0,
              markers={"brown": 2})
    assert _score({0: b})["houses"] == 2                    # e5 and g7 touch f6 (diagonal counts, L428)
    b["markers"] = markers(brown=7)
    assert _score({0: b})["houses"] == 4
    b["markers"] = markers(brown=1)
    assert _score({0: b})["houses"] == 0


def test_s8_2_L436_wineries_one_vp_per_k_cells_without_building():
    b = board(tiles=CITY, buildings=[["winery", "f6"], ["house", "e5"]], markers={"purple": 1})
    assert _score({0: b})["wineries"] == 7 // 3             # 8 neighbours, 1 with a building
    b["markers"] = markers(purple=4)
    assert _score({0: b})["wineries"] == 7 // 2
    b["markers"] = markers(purple=9)
    assert _score({0: b})["wineries"] == 7
    b["buildings"] = [["winery", "e5"]]
    assert _score({0: b})["wineries"] == 3                  # corner: 3 neighbours with tiles


def test_s8_2_L440_fortress_rate_times_level():
    city = CITY + [("T17", 0, "e5")]
    b = board(tiles=city, buildings=[["fortress", "e5"], ["fortress", "h7"]], markers={"white": 5})
    assert _score({0: b})["fortresses"] == 2 * 2 + 2 * 1


def test_s8_2_L444_aqueducts_visible_adjacent_drought():
    b = board(tiles=CITY, buildings=[["aqueduct", "g6", "h6"]], markers={"orange": 1})
    assert _score({0: b})["aqueducts"] == 2                 # g5, h5
    b["workers"] = ["g5"]
    b["workers_board"] = 0
    assert _score({0: b})["aqueducts"] == 1                 # a covered drought cell scores nothing


def test_s8_2_L448_temples_adjacent_buildings_of_another_type():
    b = board(tiles=CITY, buildings=[["temple", "f6"], ["temple", "e5"], ["house", "g7"], ["aqueduct", "g5", "h5"]],
              markers={"green": 1})
    # around f6: temple e5 (not counted), house g7, aqueduct g5-h5 (counted once)
    assert _score({0: b})["temples"] == 2 + 0               # the e5 temple touches no other-type building


def test_s8_2_L450_L451_coins_and_resources():
    sc = _score({0: board(tiles=CITY, coins=7, storage={"brown": 2, "green": 1})})
    assert sc["coins"] == 3 and sc["resources"] == 3


def test_s8_2_L452_drought_penalty_and_protection():
    b = board(tiles=CITY)
    assert _score({0: b})["drought"] == -2                  # g5, h5 visible
    b = board(tiles=CITY, buildings=[["aqueduct", "g6", "h6"]])
    assert _score({0: b})["drought"] == -2                  # aqueduct but no orange advance
    b["markers"] = markers(orange=1)
    assert _score({0: b})["drought"] == 0
    b = board(tiles=CITY, buildings=[["house", "g5"]], workers=["h5"], workers_board=0)
    assert _score({0: b})["drought"] == 0                   # covered by a building or a worker (L225)


def test_s8_3_L456_tie_breaks_buildings_then_coins_then_shared():
    def final(b0, b1):
        return position(phase="over", round=5, turns_taken=6, boards={0: b0, 1: b1})
    # equal VP (the house scores nothing at rate 0): the one who built more wins
    s = final(board(tiles=[("T15", 0, "e5")], coins=2),
              board(tiles=[("T16", 0, "e5")], coins=2, buildings=[["house", "f6"]]))
    assert s.scores()[0] == s.scores()[1]
    assert s.returns() == [0.0, 1.0]
    # equal VP and buildings: more coins wins (3 coins and 2 coins both give 1 VP)
    s = final(board(tiles=[("T15", 0, "e5")], coins=3), board(tiles=[("T16", 0, "e5")], coins=2))
    assert s.scores()[0] == s.scores()[1]
    assert s.returns() == [1.0, 0.0]
    # still tied: shared victory
    s = final(board(tiles=[("T15", 0, "e5")], coins=2), board(tiles=[("T16", 0, "e5")], coins=2))
    assert s.returns() == [0.5, 0.5]


# ------------------------------------------------------------------ §3 setup (L119-L155), per player count

@pytest.mark.parametrize("players", [2, 3, 4])
def test_s3_L119_L155_setup_by_chance_for_each_player_count(players):
    g = load_game("pantikapaion", players=players)
    s = g.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == players           # first player at random (L155)
    s.apply("first p1")
    singles = s.chance_outcomes()
    assert len(singles) == 5                                                    # single tokens to R1 cells (L122)
    while s.phase == "resource_token":
        s.apply(s.chance_outcomes()[-1][0])
    draws = 0
    while s.is_chance_node():                                                   # the ring, one tile a draw (L143)
        assert s.phase == "ring" and len(s.chance_outcomes()) == 65 - draws
        s.apply(s.chance_outcomes()[0][0])
        draws += 1
    j = s.to_json()
    assert draws == D["ring_size"][players] == {2: 8, 3: 11, 4: 14}[players]
    assert j["current"] == 1 and j["round"] == 1 and s.phase == "pick"
    assert j["upgrade_stacks"] == [players] * len(D["upgrade_cells"])           # L128
    for b in j["boards"]:
        assert b["workers_board"] == 1 and b["workers_supply"] == 4             # L119
        assert set(b["markers"].values()) == {0} and b["coins"] == 0            # ASSUMED start (§9.8)
    assert set(j["stock"].values()) == {6 if players == 2 else 7}              # L153


def test_s5_4_1_empty_column_cannot_be_built():
    others = board(tiles=[("T15", 0, "e5"), ("T16", 0, "g5"), ("T17", 0, "e7")],
                   buildings=[["house", c] for c in ("e5", "f5", "e6", "f6", "g5", "h5")])
    s = position(boards={0: board(tiles=CITY, storage={"brown": 9}), 1: others})
    assert s.to_json()["stock"]["house"] == 0 and "build house" not in legal(s)


def test_s5_5_L346_worker_cell_with_an_empty_supply_gives_nothing():
    s = position(boards={0: board(tiles=CITY, storage={"brown": 2}, workers_board=5)})
    s.apply("build house")
    s.apply("place e6")
    assert bj(s)["workers_board"] == 5 and bj(s)["workers_supply"] == 0


# ------------------------------------------------------------------ switchable readings (spec §10.8: G9, G10, G11)

def _variant(state, **readings):
    from engine.games.pantikapaion.state import PantikapaionGame
    data = dict(D, **readings)
    return PantikapaionGame({"players": 2}, data).state_from_json(state.to_json())


def test_G11_temple_reading_buildings_or_types():
    b = board(tiles=CITY, buildings=[["temple", "f6"], ["house", "e5"], ["house", "g7"], ["winery", "e7"]],
              markers={"green": 1})
    s = position(boards={0: b})
    assert s.score_breakdown(0)["temples"] == 3                             # each building (default reading)
    assert _variant(s, temple_counts_types=True).score_breakdown(0)["temples"] == 2     # house, winery


def test_G10_adjacency_reading_height_ignored_or_same_level():
    city = CITY + [("T17", 0, "e5")]                                        # e5 f5 e6 f6 on level 2
    b = board(tiles=city, buildings=[["house", "f6"]], workers=["g6", "e5"], workers_board=0,
              markers={"brown": 2})
    s = position(boards={0: b})
    assert s.score_breakdown(0)["houses"] == 2
    assert _variant(s, adjacency_same_level_only=True).score_breakdown(0)["houses"] == 1   # g6 is on level 1


def test_G9_vp_cells_reading_furthest_or_added():
    b = board(tiles=CITY, buildings=[["fortress", "f6"]], markers={"white": 5})
    s = position(boards={0: b})
    assert s.score_breakdown(0)["fortresses"] == 2                          # the rate of white cell 5
    assert _variant(s, vp_cells_add_up=True).score_breakdown(0)["fortresses"] == 1 + 2

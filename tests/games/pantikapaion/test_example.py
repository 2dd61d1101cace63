"""The rulebook's worked example (rulebook L458-L490, spec §10.9), replayed move by move.

Dima is P0. The pictures of the example were lost, so the positions are the smallest ones the text fits
(spec §10.9): a city with an orange cube next to drought cells, 1 orange cube in storage and 3 coins for the first
turn; for the sale, markers brown 3, white 2, green 1, purple 1 (the §9.1 layout) and duplicates in storage.
"""
from engine.registry import load_game
from games.pantikapaion.helpers import board, bj, finish_turn, position

D = load_game("pantikapaion", players=2).data
CITY = [("T05", 0, "e5"), ("T25", 0, "e6")]     # e5 . f5 D g5 o* h5 g* / e6 D f6 D e7 . f7 w*


def legal(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def test_example_L460_L478_first_turn_explore_build_aqueduct_paid_steps():
    ring = ["T52", "T14", "T53", "T54", "T55", "T56", "T57", "T58"]
    s = position(ring=ring, phase="pick", boards={0: board(tiles=CITY, storage={"orange": 1}, coins=3)})
    # L460: one of the 3 tiles after the trireme; the trireme takes its place
    assert legal(s) == ["take T52", "take T14", "take T53"]
    s.apply("take T14")
    assert s.to_json()["trireme"] == 1
    s.apply("rot 0")
    s.apply("at i5 l1")                         # i5 o, j5 g, i6 ., j6 .
    # L465: cubes from the supply on the tile's 2 resource cells
    assert {"i5", "j5"} <= set(bj(s)["cubes"])
    # L468: the aqueduct costs 2 orange; he has 1 and takes the second from the city with a worker
    assert s._build_due(0, 3) == 2 == D["costs"][0]
    assert s.phase == "workers" and "worker g5" in legal(s)     # worker placement at any moment (L301)
    s.apply("worker g5")
    assert bj(s)["storage"]["orange"] == 2 and s.phase == "development"
    # L474: pays 2, takes the bottom aqueduct (the next cost shows), places it by the drought, worker comes back
    s.apply("build aqueduct")
    assert bj(s)["storage"]["orange"] == 0
    assert s.to_json()["stock"]["aqueduct"] == D["pieces_2p"] - 1
    assert s._build_due(0, 3) == D["costs"][1]
    s.apply("place g5-h5")
    b = bj(s)
    assert ["aqueduct", "g5", "h5"] in b["buildings"] and b["workers"] == [] and b["workers_board"] == 1
    # L478: marker to orange cell 1 (now each drought cell around an aqueduct is worth 1 VP)
    assert b["markers"]["orange"] == 1 and s.score_breakdown(0)["aqueducts"] == 2     # f5, f6
    assert s.phase == "paid_step"
    s.apply("pay step")                         # 1 coin: orange cell 2, an aqueduct tile
    assert bj(s)["coins"] == 2 and s.phase == "option"
    s.apply("use")
    s.apply("rot 0")
    s.apply("at e4")                            # e4 = its resource cell, f4 empty
    assert s.phase == "aqueduct_cube"
    s.apply("cube orange")                      # a cube of his choice on its resource cell
    assert bj(s)["tiles"][-1] == ["AQ-A", 0, "e4", "orange"] and "e4" in bj(s)["cubes"]
    s.apply("pay step")                         # 2 more coins: orange cell 3, a substitution token
    b = bj(s)
    assert b["coins"] == 0 and b["markers"]["orange"] == 3 and b["substitution_tokens"] == 1
    # no coins left: no third paid step (it would cost 3); the turn ends (after an optional worker placement)
    assert s.phase != "paid_step"
    finish_turn(s)
    assert s.current_player() == 1
    assert legal(s)[:3] == ["take T53", "take T54", "take T55"]     # the next player's 3 tiles


def test_example_L482_L490_sale_with_three_effects_then_round_end():
    city = CITY + [("T14", 0, "i5"), ("AQ-A", 0, "e4", "orange")]
    dima = board(tiles=city, storage={"brown": 2, "white": 1, "green": 1, "orange": 2, "purple": 1},
                 markers={"brown": 3, "white": 2, "green": 1, "purple": 1, "orange": 3},
                 buildings=[["aqueduct", "g5", "h5"]], workers=["j5"], workers_board=1)
    s = position(turns_taken=4, boards={0: dima, 1: board(tiles=[("T15", 0, "e5")], workers_board=0)})
    # L484: two alike cannot be sold; he sells brown, white and green for 3 coins
    assert "sell brown+white+green" in legal(s)
    s.apply("sell brown+white+green")
    # L488: brown first (top row): a worker
    assert bj(s)["workers_board"] == 2 and bj(s)["markers"]["brown"] == 4
    # white: build any building but a fortress, for free
    assert s.phase == "free_select" and "free fortress" not in legal(s)
    s.apply("free winery")
    s.apply("place e7")
    assert bj(s)["markers"]["purple"] == 1      # the free build gives no advance in its row
    # green: advance in another row; purple lands on a double-resource cell
    assert s.phase == "advance_select"
    token = s.to_json()["resource_tokens"][D["n_res1"] + D["dev"][1][1][1]]
    s.apply("advance purple")
    b = bj(s)
    assert b["coins"] == 3 and [b["markers"][c] for c in ("brown", "purple", "white", "green")] == [4, 2, 3, 2]
    assert ["winery", "e7"] in b["buildings"]
    gained = {c: 0 for c in b["storage"]}
    for letter in token.split("+"):
        gained[next(c for c in gained if c[0] == letter)] += 1
    assert sum(b["storage"].values()) == 6 == 3 + sum(gained.values()) + 1
    assert s.phase != "paid_step"               # no paid steps after a sale (L282)
    finish_turn(s)                              # Dima's turn ends; P1 plays the round's last turn
    while s.current_player() == 1:
        moves = legal(s)
        s.apply("take coins" if "take coins" in moves else moves[0])
    # L490: 6 cubes: discard 1 to keep 5; 2 '+worker' cells passed: 2 coins; the placed workers come home
    assert s.phase == "discard" and s.current_player() == 0
    s.apply("discard orange")
    b = bj(s)
    assert sum(b["storage"].values()) == 5
    assert b["coins"] == 3 + 2
    assert b["workers"] == [] and b["workers_board"] == 3

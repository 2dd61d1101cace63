"""Mare Nostrum rules: set-up (spec 3), round structure (spec 4), collection (5.1) and trade (5.2).

Each test names its rule: spec section and rulebook line (the Russian rulebook text (mare_nostrum.ru.txt)).
"""
import pytest

from games.mare_nostrum.helpers import Pos, game, opening, play, res_of, seat, empty_hands

# --- spec 3: set-up --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,empires", [(3, ["Rome", "Greece", "Carthage"]),
                                             (4, ["Rome", "Greece", "Egypt", "Carthage"]),
                                             (5, ["Rome", "Greece", "Babylon", "Egypt", "Carthage"])])
def test_spec3_2_L54_61_empires_in_play_by_player_count(players, empires):
    s = opening(players)
    assert [e["empire"] for e in s.to_json()["empires"]] == empires


def test_spec2_9_L85_93_starting_tracks_and_titles():
    s = opening(5)
    assert s.track_values() == [[7, 1, 3], [4, 4, 3], [5, 3, 2], [4, 4, 2], [7, 1, 2]]
    titles = {e["empire"]: e["titles"] for e in s.to_json()["empires"]}
    assert titles == {"Rome": ["military"], "Greece": [], "Babylon": [], "Egypt": ["culture"],
                      "Carthage": ["trade"]}


def test_spec3_2_G8_three_players_greece_holds_culture():
    s = opening(3)
    assert {e["empire"]: e["titles"] for e in s.to_json()["empires"]}["Greece"] == ["culture"]


def test_spec3_1_L44_nine_starting_resources_are_round_one_income():
    s = opening(5)
    for e in s.to_json()["empires"]:
        assert sum(e["resources"].values()) == 9
    assert s.to_json()["round"] == 1 and s.step_name() == "exchange"     # round 1 skips collection (G3)


def test_spec3_1_L69_73_five_random_cards_face_up_and_starting_heroes_owned():
    s = game(5).new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 17
    assert all(p == pytest.approx(1 / 17) for _, p in s.chance_outcomes())
    play(s, "reveal:Hercules", "reveal:Circe", "reveal:Perseus", "reveal:Antigone", "reveal:Spartacus")
    row = s.to_json()["machine"]["row"]
    assert bin(row).count("1") == 5
    assert s.to_json()["empires"][0]["cards"] == ["Caesar"]


def test_spec4_L147_192_phases_follow_in_order_every_round():
    """Trade -> build -> movement -> leadership -> collection of the next round, in a random game."""
    from engine.rng import RNG
    from engine.chance import sample_outcome
    order = {"exchange": 2, "antigone": 2, "offer": 2, "take": 2, "gift": 2, "choose-builder": 3, "perseus": 3,
             "build": 3, "pay": 3, "castor-target": 3, "keep": 3, "refill": 3, "zeus": 4, "choose-mover": 4,
             "move-triremes": 4, "sea-battle": 4, "move-legions": 4, "land-battle": 4, "hits-attacker": 4,
             "hits-defender": 4, "casualty-attacker": 4, "casualty-defender": 4, "capture": 4, "occupy": 4,
             "loot": 4, "circe": 4, "title": 5, "legendary-choice": 1, "rare-draw": 1, "colossus": 1}
    s = opening(5)
    rng = RNG(3)
    last, rnd, seen = 0, 1, set()
    while not s.is_terminal():
        st = s.step_name()
        r = s.to_json()["round"]
        if st == "rare-draw" and last == 4 and r == rnd:
            ph = 4                                     # loot draws happen in the movement phase
        else:
            ph = order[st]
        if r != rnd:
            rnd, last = r, 0
        assert ph >= last, (st, last)
        last = ph
        seen.add(ph)
        a = sample_outcome(s.chance_outcomes(), rng) if s.is_chance_node() else rng.choice(s.legal_actions())
        s.apply(a)
    assert {2, 3, 4}.issubset(seen)


# --- 5.1 collection --------------------------------------------------------------------------------------------


def collect(p):
    s = p.state()
    s._enter("collect")
    return s


def test_spec5_1_L153_L228_caravans_doubled_by_market_and_cities_by_temple():
    p = empty_hands(Pos(opening(5)))
    s = collect(p)
    # Rome: Italia Wine+Oil with market (x2), Gallia Sheep + market, Dalmatia Stone + market; capital 1 coin
    assert res_of(s, "Rome") == {"Wine": 2, "Oil": 2, "Sheep": 2, "Stone": 2, "Coin": 1}
    # Greece: Achaea wine (no market) 1; capital + temple = 2 coins; Macedonia city 1, Thracia city 1
    assert res_of(s, "Greece") == {"Wine": 1, "Sheep": 2, "Wood": 2, "Coin": 4}


def test_spec5_1_L507_L513_occupier_collects_occupied_caravan_and_market_owner_keeps_city():
    """Rulebook example L513: Rome occupies an Egyptian caravan and market, gets 2 Papyrus; Egypt keeps the
    unoccupied city's coin; leadership moves +2 / -2 (L545-547)."""
    p = empty_hands(Pos(opening(5)))
    p.space("Cyrenaica", "caravan:Papyrus", occupier="Rome").space("Cyrenaica", "market", occupier="Rome")
    p.units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Cyrenaica": 2}).units("Egypt", legions={},
                                                                                  fortresses=[])
    s = collect(p)
    base = collect(empty_hands(Pos(opening(5))))
    assert res_of(s, "Rome")["Papyrus"] == 2
    assert res_of(base, "Egypt")["Papyrus"] == 2 and "Papyrus" not in res_of(s, "Egypt")
    assert res_of(s, "Egypt")["Coin"] == res_of(base, "Egypt")["Coin"] == 5
    assert s.track_values()[seat(s, "Rome")][0] == 9 and s.track_values()[seat(s, "Egypt")][0] == 2


def test_spec5_1_L664_uncontrolled_province_produces_for_nobody():
    p = empty_hands(Pos(opening(5))).control("Gallia", None)
    s = collect(p)
    assert "Sheep" not in res_of(s, "Rome")


def test_spec5_1_L232_legendary_city_gives_coin_and_rare_draw_and_temple_choice():
    p = empty_hands(Pos(opening(5))).control("Sicilia", "Greece")
    p.space("Sicilia", "legendary:Syracuse").space("Sicilia", "temple")
    s = collect(p)
    assert s.step_name() == "legendary-choice" and s.current_player() == seat(s, "Greece")
    assert s.legal_actions() == [s.str_to_action("coin"), s.str_to_action("rare")]
    s.apply("rare")
    assert s.step_name() == "rare-draw" and s.is_chance_node()
    assert len(s.chance_outcomes()) == 13
    s.apply("draw:Gold")
    s.apply("draw:Wine")
    g = s.to_json()["empires"][seat(s, "Greece")]
    assert g["rare"] == ["Gold", "Wine"] and g["rare_shown"] == []
    assert g["resources"]["Coin"] == 5                 # 4 + Syracuse's coin


def test_spec5_1_L244_rare_discard_reshuffled_when_stack_empty():
    p = empty_hands(Pos(opening(5))).control("Sicilia", "Greece").space("Sicilia", "legendary:Syracuse")
    p.machine(stack=0, discard=(1 << 13) - 1)
    s = collect(p)
    assert s.step_name() == "rare-draw" and len(s.chance_outcomes()) == 13
    assert s.to_json()["machine"]["discard"] == 0


def test_spec5_1_L250_L251_artemis_coin_and_colossus_pick():
    p = empty_hands(Pos(opening(5))).cards("Greece", ["Pericles", "Temple of Artemis", "Colossus of Rhodes"])
    s = collect(p)
    assert s.step_name() == "colossus" and s.current_player() == seat(s, "Greece")
    assert len(s.legal_actions()) == 14                # 13 goods or a coin, never a rare good (G11)
    s.apply("colossus:Gems")
    r = res_of(s, "Greece")
    assert r["Gems"] == 1 and r["Coin"] == 5
    assert s.step_name() == "exchange"


def test_spec5_1_G10_shortage_shared_one_at_a_time_in_trade_order():
    """Gems: 5 tokens, Rome holds 2, so 3 in the reserve for Babylon's 2 and Carthage's 2 (ASSUMED G10, L652)."""
    p = empty_hands(Pos(opening(5))).res("Rome", Gems=2)
    p.control("Arabia", "Carthage").space("Arabia", "caravan:Gems").space("Arabia", "market")
    s = collect(p)
    assert s.track_values()[seat(s, "Carthage")][0] > s.track_values()[seat(s, "Babylon")][0]
    assert res_of(s, "Carthage")["Gems"] == 2 and res_of(s, "Babylon")["Gems"] == 1
    assert s.to_json()["machine"]["supply"][1] == 0


# --- 5.2 trade ----------------------------------------------------------------------------------------------


def test_spec5_2_1_L255_263_exchange_tokens_cycle():
    s = opening(5)
    assert s.current_player() == seat(s, "Carthage")
    names = sorted(s.action_to_str(a) for a in s.legal_actions())
    assert names == ["exchange:0", "exchange:1", "exchange:2", "exchange:3", "exchange:4", "exchange:5"]
    p = Pos(s).machine(tokens=0b110)           # 5/0 used this cycle
    s2 = p.state()
    assert sorted(s2.action_to_str(a) for a in s2.legal_actions()) == ["exchange:1", "exchange:2", "exchange:3",
                                                                       "exchange:4"]


def test_spec5_2_1_L257_new_trade_leader_gets_all_tokens():
    p = Pos(opening(5)).machine(tokens=0b001, tok_owner=0)     # Rome used two tokens; Carthage now leads
    s = p.state()
    s._enter("trade")
    assert len(s.legal_actions()) == 6


def test_spec5_2_L261_N0_means_no_trade():
    s = opening(5)
    s.apply("exchange:0")
    assert s.step_name() == "choose-builder"


def test_spec5_2_2_L259_L265_offers_secret_until_all_committed():
    s = opening(5)
    s.apply("exchange:1")
    assert s.step_name() == "offer" and s.current_player() == 0
    before = [s.info_key(q) for q in range(5)]
    obs = [s.observation(q) for q in range(1, 5)]
    a = s.str_to_action("offer:Wine")
    assert all(s.action_observation(a, q) < 0 for q in range(1, 5))
    assert s.action_observation(a, 0) == a
    t = s.clone()
    s.apply("offer:Wine")
    t.apply("offer:Oil")
    for q in range(1, 5):
        assert s.info_key(q) == t.info_key(q)           # others cannot tell Wine from Oil
        assert s.observation(q)["machine"]["offer"] == t.observation(q)["machine"]["offer"]
    assert s.info_key(0) != t.info_key(0)
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    assert s.step_name() == "take"                      # revealed: all offers public now
    assert s.observation(1)["machine"]["offer"][0][s.game.names()["items"].index("Wine")] == 1


def test_spec12_3_offer_items_in_ascending_order_and_always_completable():
    """An offer is a set: its items are entered in ascending order (one path per offer), and an item is offered
    only if enough items at or above it remain to finish the offer."""
    s = Pos(opening(3)).res("Rome", Wine=2, Oil=1, Coin=1).state()
    s.apply("exchange:3")
    names = [s.action_to_str(a) for a in s.legal_actions()]
    assert names == ["offer:Oil", "offer:Wine"]          # starting with Coin would leave nothing above it
    s.apply("offer:Wine")
    assert [s.action_to_str(a) for a in s.legal_actions()] == ["offer:Wine"]


def test_spec5_2_2_L293_too_few_resources_no_part_in_trade():
    p = Pos(opening(5)).res("Greece", Coin=2)
    s = p.state()
    s.apply("exchange:5")
    offered_by = set()
    while s.step_name() == "offer":
        offered_by.add(s.current_player())
        s.apply(s.legal_actions()[0])
    assert seat(s, "Greece") not in offered_by and len(offered_by) == 4


def test_spec5_2_3_L267_277_take_chain_and_no_taking_straight_back_twice():
    p = Pos(opening(3))
    s = p.state()
    s.apply("exchange:2")
    # Rome offers Wine Wine, Greece Sheep Sheep, Carthage Grain Grain
    play(s, "offer:Wine", "offer:Wine", "offer:Sheep", "offer:Sheep", "offer:Grain", "offer:Grain")
    assert s.step_name() == "take" and s.current_player() == seat(s, "Carthage")   # trade leader opens
    play(s, "take:Rome:Wine")              # Carthage takes from Rome
    assert s.current_player() == seat(s, "Rome")   # the victim takes next
    play(s, "take:Carthage:Grain")         # Rome takes straight back (allowed once)
    legal = [s.action_to_str(a) for a in s.legal_actions()]
    assert legal == ["take:Greece:Sheep"]  # Carthage may not take from Rome again (L275-277)


def test_spec5_2_4_L283_289_even_chain_needs_no_gift():
    """Each player received as many as he gave (G12): no compensation is due."""
    s = Pos(opening(3)).state()
    s.apply("exchange:1")
    play(s, "offer:Wine", "offer:Sheep", "offer:Grain")
    play(s, "take:Greece:Sheep")           # Carthage +1, Greece -1 ... Greece takes next
    play(s, "take:Rome:Wine")              # Greece even, Rome -1, Rome to take
    play(s, "take:Carthage:Grain")         # Rome even, Carthage even -> nobody out of balance
    assert s.step_name() == "choose-builder"
    assert res_of(s, "Carthage")["Sheep"] == 1 and res_of(s, "Greece")["Wine"] == 2


def test_spec5_2_4_L287_rulebook_example_leader_gives_the_player_left_without():
    """L287: the leader plays "1"; he takes E's resource, E takes his, he takes D's. He holds 2, D none: he gives
    D one resource of his choice."""
    s = Pos(opening(3)).state()               # Carthage (leader) = G, Rome = E, Greece = D
    s.apply("exchange:1")
    play(s, "offer:Wine", "offer:Sheep", "offer:Grain")
    play(s, "take:Rome:Wine", "take:Carthage:Grain")
    assert [s.action_to_str(a) for a in s.legal_actions()] == ["take:Greece:Sheep"]   # not Rome again
    s.apply("take:Greece:Sheep")
    assert s.step_name() == "gift" and s.current_player() == seat(s, "Carthage")
    greek_wine = res_of(s, "Greece").get("Wine", 0)
    s.apply("gift:Wine")
    assert res_of(s, "Greece").get("Wine", 0) == greek_wine + 1
    assert s.step_name() == "choose-builder"


def test_spec5_2_3_L273_chain_passes_to_each_victim_in_turn():
    s = Pos(opening(5)).state()
    s.apply("exchange:1")
    play(s, "offer:Wine", "offer:Sheep", "offer:Grain", "offer:Papyrus", "offer:Oil")
    play(s, "take:Greece:Sheep")
    assert s.current_player() == seat(s, "Greece")
    play(s, "take:Egypt:Papyrus")
    assert s.current_player() == seat(s, "Egypt")
    play(s, "take:Rome:Wine")
    assert s.current_player() == seat(s, "Rome")


def test_spec5_2_3_G13_L843_851_leader_offering_nothing_highest_trade_participant_opens():
    s = Pos(opening(3)).res("Greece", Coin=0).state()
    s.apply("exchange:1")
    play(s, "offer:Wine", "offer:Grain")
    s.apply("take:Rome:Wine")
    # Rome may take Carthage's Grain (first take back is allowed)
    s.apply("take:Carthage:Grain")
    assert s.step_name() == "choose-builder"
    # with Rome unable to take back (Carthage did not take part... use Antigone with 0): gift happens
    p = Pos(opening(3)).cards("Carthage", ["Hannibal", "Antigone"])
    s = p.state()
    s.apply("exchange:1")
    assert s.step_name() == "antigone" and s.current_player() == seat(s, "Carthage")
    s.apply("antigone:0")                      # Carthage offers nothing (Antigone, L843-851)
    play(s, "offer:Wine", "offer:Sheep")       # Rome, Greece offer
    # Carthage does not take part: the first taker is the highest trade value among those who do: Rome (G13)
    assert s.current_player() == seat(s, "Rome")
    s.apply("take:Greece:Sheep")
    s.apply("take:Rome:Wine")
    assert s.step_name() == "choose-builder"


def test_spec5_2_4_gift_step_moves_one_resource_openly():
    """L283-289, G12, G16: the opener ends +1, the last victim -1 (he cannot take back twice): a public gift."""
    p = Pos(opening(3)).cards("Rome", ["Caesar", "Antigone"])
    s = p.state()
    s.apply("exchange:2")
    s.apply("antigone:1")                        # Rome offers only 1
    play(s, "offer:Wine", "offer:Sheep", "offer:Sheep", "offer:Grain", "offer:Grain")
    play(s, "take:Rome:Wine")                    # Carthage +1, Rome -1
    play(s, "take:Greece:Sheep")                 # Rome 0, Greece -1
    play(s, "take:Carthage:Grain")               # Greece 0, Carthage 0
    play(s, "take:Greece:Sheep")                 # Carthage +1, Greece -1; Greece may not take back again
    assert s.step_name() == "gift" and s.current_player() == seat(s, "Carthage")
    before = res_of(s, "Greece").get("Wine", 0)
    s.apply("gift:Wine")
    assert res_of(s, "Greece").get("Wine", 0) == before + 1
    assert s.step_name() == "choose-builder"


def test_spec3_1_L75_77_variant_all_heroes_open():
    s = game(5, all_heroes_open=True).new_initial_state()
    assert s.step_name() == "exchange"
    assert s.to_json()["machine"]["row"] == (1 << 17) - 1 and s.to_json()["machine"]["facedown"] == 0


def test_spec10_L638_no_action_gives_away_units_buildings_or_cards():
    """Diplomacy (L632-638): the only transfers are the trade phase's; units leave the map only in battle or
    by Sheba's sacrifice; nobody destroys his own units (Q&A L648-650)."""
    from engine.rng import RNG
    from engine.chance import sample_outcome
    s = opening(5)
    rng = RNG(11)
    for _ in range(3000):
        if s.is_terminal():
            break
        before = s.to_json()
        step = s.step_name()
        a = sample_outcome(s.chance_outcomes(), rng) if s.is_chance_node() else rng.choice(s.legal_actions())
        s.apply(a)
        after = s.to_json()
        for p, (e0, e1) in enumerate(zip(before["empires"], after["empires"])):
            assert set(e0["cards"]) <= set(e1["cards"])           # cards are never lost or given
            units0 = sum(e0["legions"].values()) + sum(e0["triremes"].values()) + len(e0["fortresses"])
            units1 = sum(e1["legions"].values()) + sum(e1["triremes"].values()) + len(e1["fortresses"])
            if units1 < units0:
                assert step in ("hits-defender", "casualty-attacker", "casualty-defender", "capture"), step


def test_spec5_2_1_L263_leader_who_keeps_the_title_reuses_tokens_after_all_three():
    p = Pos(opening(5)).machine(tokens=0, tok_owner=4)       # Carthage used all three in the last rounds
    p.obj["step"], p.obj["current"] = "refill", -1           # any valid step: the trade phase is entered below
    s = p.state()
    s._enter("trade")
    assert len(s.legal_actions()) == 6
    s.apply("exchange:4")
    assert s.to_json()["machine"]["tokens"] == 0b011        # the 4/3 token (bit 2) is spent for this cycle


def test_spec5_2_3_L279_281_two_players_chain_ends_when_only_the_forbidden_victim_is_left():
    s = Pos(opening(3)).res("Greece", Coin=0).state()
    s.apply("exchange:2")
    play(s, "offer:Oil", "offer:Wine", "offer:Grain", "offer:Oil")
    play(s, "take:Rome:Wine", "take:Carthage:Grain")         # Carthage -> Rome, Rome -> Carthage
    # Carthage may not take from Rome again, and nobody else offers: the phase ends (L279-281)
    assert s.step_name() == "choose-builder"
    assert res_of(s, "Rome")["Oil"] == 2 and res_of(s, "Carthage")["Oil"] == 2

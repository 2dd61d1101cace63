"""Mare Nostrum rules: the build phase (spec 5.3) and the build-phase heroes and wonders (spec 9).

Each test names its rule: spec section and rulebook line.
"""
import pytest

from games.mare_nostrum.helpers import Pos, empty_hands, opening, pass_on, play, res_of, seat, to_build


def names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def rome_hand(**res):
    return empty_hands(Pos(opening(5))).res("Rome", **res)


def test_spec5_3_1_L165_169_culture_leader_names_each_builder_himself_included():
    s = opening(5)
    s.apply("exchange:0")
    assert s.step_name() == "choose-builder" and s.current_player() == seat(s, "Egypt")
    assert names(s) == ["builder:Rome", "builder:Greece", "builder:Babylon", "builder:Egypt", "builder:Carthage"]
    s.apply("builder:Egypt")
    assert s.current_player() == seat(s, "Egypt") and s.step_name() == "build"
    s.apply("pass")
    assert s.step_name() == "choose-builder" and "builder:Egypt" not in names(s)


def test_spec5_3_2_L325_331_worked_example_three_sets_of_three_no_set_of_six():
    """9 resources = 3 Coins, 2 Grain, Wood, Sheep, Gold, Gladiator: three 3-cost items, no 6-cost item."""
    s = to_build(rome_hand(Coin=3, Grain=2, Wood=1, Sheep=1, Gold=1, Gladiator=1), "Rome")
    legal = names(s)
    assert "build:Gallia:temple" not in legal and "build:Italia:temple" not in legal    # 6 different goods: no
    assert "legion:Italia" in legal
    play(s, "legion:Italia", "pay:Coin", "pay:Coin", "pay:Coin")
    play(s, "build:Gallia:city")
    assert s.step_name() == "pay"
    assert "pay:Coin" not in names(s)                      # coins are spent
    play(s, "pay:Wood", "pay:Grain")
    assert names(s) == ["pay:Sheep", "pay:Gladiator"]      # ascending kinds, no duplicates, Gold passed over
    play(s, "pay:Sheep")
    play(s, "legion:Gallia", "pay:Gold", "pay:Grain", "pay:Gladiator")
    assert names(s) == ["pass"]
    assert s.to_json()["empires"][0]["legions"] == {"Italia": 2, "Dalmatia": 1, "Gallia": 1}


def test_spec5_3_2_L331_coins_and_goods_never_mixed_without_cleopatra():
    s = to_build(rome_hand(Coin=2, Wine=1), "Rome")
    assert "legion:Italia" not in names(s)


def test_spec5_3_2_L337_339_cleopatra_one_coin_in_a_goods_set_or_one_good_in_a_coin_set():
    p = empty_hands(Pos(opening(5))).res("Egypt", Coin=2, Grain=1)
    s = to_build(p, "Egypt")
    play(s, "legion:Aegyptus", "pay:Coin", "pay:Coin")
    assert names(s) == ["pay:Grain"]
    s.apply("pay:Grain")
    assert s.to_json()["empires"][seat(s, "Egypt")]["legions"]["Aegyptus"] == 1
    p = empty_hands(Pos(opening(5))).res("Egypt", Coin=1, Grain=1, Gold=1)
    s = to_build(p, "Egypt")
    play(s, "legion:Aegyptus", "pay:Gold", "pay:Grain")
    assert names(s) == ["pay:Coin"]


def test_spec5_3_2_L340_342_hannibal_one_kind_twice_rulebook_example():
    """2 Grain + Sheep + Gladiator + Gold + Wood make a 6-goods set for Hannibal (L342)."""
    hand = dict(Grain=2, Sheep=1, Gladiator=1, Gold=1, Wood=1, Coin=3)
    p = empty_hands(Pos(opening(5))).res("Carthage", **hand)
    s = to_build(p, "Carthage")
    assert "build:Hispania:market" in names(s)
    play(s, "build:Hispania:market", "pay:Wood", "pay:Gold", "pay:Grain", "pay:Grain", "pay:Sheep",
         "pay:Gladiator")
    play(s, "legion:Africa", "pay:Coin", "pay:Coin", "pay:Coin")
    assert names(s) == ["pass"]
    s2 = to_build(empty_hands(Pos(opening(5))).res("Rome", **hand), "Rome")
    assert "build:Gallia:temple" not in names(s2)          # without Hannibal: only 5 kinds


def test_spec5_3_3a_L352_370_control_marker_adjacent_or_connected_uncontrolled_no_enemy():
    p = empty_hands(Pos(opening(5))).res("Greece", Coin=9)
    s = to_build(p, "Greece")
    legal = names(s)
    assert "marker:Dacia" in legal                          # adjacent to Macedonia and Thracia
    assert "marker:Dalmatia" not in legal                   # controlled by Rome
    assert "marker:Asia" not in legal                       # not adjacent, no trireme chain
    # a trireme built earlier in the same turn connects Asia (L356, L393)
    play(s, "trireme:Aegean Sea", "pay:Coin", "pay:Coin", "pay:Coin")
    assert "marker:Asia" in names(s)
    play(s, "marker:Asia", "pay:Coin", "pay:Coin", "pay:Coin")
    assert s.to_json()["provinces"]["Asia"]["control"] == "Greece"
    # a province gained this round is no base: Cilicia (adjacent to Asia only) stays out of reach (L354)
    assert "marker:Cilicia" not in names(s)
    p = empty_hands(Pos(opening(5))).res("Greece", Coin=9).units("Rome", legions={"Italia": 1, "Dacia": 1})
    assert "marker:Dacia" not in names(to_build(p, "Greece"))   # enemy units there (L360)


def test_spec5_3_3a_capital_provinces_take_no_marker_and_markers_run_out():
    p = empty_hands(Pos(opening(5))).res("Rome", Coin=9)
    s = to_build(p, "Rome")
    assert "marker:Achaea" not in names(s) and "marker:Germania" in names(s)
    p.machine(start_ctrl=[0] * 5)
    for prov in ("Germania", "Sardinia", "Libya", "Mauretania", "Creta"):
        p.control(prov, "Rome")
    s = to_build(p, "Rome")                                   # 7 loose markers all on the map (L125)
    assert not any(a.startswith("marker:") for a in names(s))


def test_spec5_3_3b_L372_380_units_where_controlled_and_no_enemy_units_with_piece_limits():
    p = empty_hands(Pos(opening(5))).res("Rome", Coin=3).units("Greece", legions={"Achaea": 1, "Gallia": 1})
    s = to_build(p, "Rome")
    legal = names(s)
    assert "legion:Dalmatia" in legal and "legion:Gallia" not in legal     # Greek legion in Gallia (L360)
    assert "fortress:Italia" not in legal and "fortress:Dalmatia" in legal  # one fortress a province (L378)
    assert "trireme:Adriatic Sea" in legal and "trireme:Iberian Sea" not in legal   # base Gallia has enemies
    assert "trireme:Tyrrhenian Sea" in legal                               # ... but Italia is a clean base
    p = empty_hands(Pos(opening(5))).res("Rome", Coin=3).units("Rome", legions={"Italia": 5, "Dalmatia": 3})
    assert not any(a.startswith("legion:") for a in names(to_build(p, "Rome")))   # 8 legions (L650)


def test_spec5_3_4_L553_capital_exception_units_not_buildings_by_default():
    base = empty_hands(Pos(opening(5))).res("Rome", Coin=9)
    base.units("Greece", legions={"Achaea": 1, "Macedonia": 1, "Italia": 1})
    s = to_build(base, "Rome")
    legal = names(s)
    assert "legion:Italia" in legal and "trireme:Ionian Sea" in legal
    assert "build:Italia:temple" not in legal                              # G19 default: units only
    p = Pos(opening(5, capital_exception_buildings=True))
    empty_hands(p).res("Rome", Coin=9).units("Greece", legions={"Achaea": 1, "Macedonia": 1, "Italia": 1})
    assert "build:Italia:temple" in names(to_build(p, "Rome"))             # flag on: buildings too


def test_spec5_3_3c_L389_393_buildings_only_on_empty_spaces_of_their_icon():
    s = to_build(empty_hands(Pos(opening(5))).res("Greece", Coin=3), "Greece")
    assert sorted(a for a in names(s) if a.startswith("build:")) == [
        "build:Achaea:caravan:Pottery", "build:Thracia:caravan:Gladiator"]          # markets, temples cost 6
    s = to_build(empty_hands(Pos(opening(5))).res("Greece", Coin=6), "Greece")
    assert sorted(a for a in names(s) if a.startswith("build:")) == [
        "build:Achaea:caravan:Pottery", "build:Achaea:market", "build:Macedonia:temple",
        "build:Thracia:caravan:Gladiator", "build:Thracia:market", "build:Thracia:temple"]


def test_spec5_3_3d_L397_399_hero_costs_seven_for_the_second_card_and_refill_by_chance():
    p = rome_hand(Pottery=1, Gems=1, Papyrus=1, Metal=1, Spices=1, Stone=1, Wood=1)
    s = to_build(p, "Rome")
    assert "buy:Hercules" in names(s) and "buy:Pyramids" not in names(s)
    play(s, "buy:Hercules", "pay:Pottery", "pay:Gems", "pay:Papyrus", "pay:Metal", "pay:Spices", "pay:Stone",
         "pay:Wood")
    assert s.to_json()["empires"][0]["cards"] == ["Caesar", "Hercules"]
    assert s.track_values()[0] == [9, 3, 5]                # Hercules +2/+2/+2 at once (L407)
    s.apply("pass")
    while s.step_name() in ("choose-builder", "build"):
        s.apply(s.legal_actions()[0] if s.step_name() == "choose-builder" else "pass")
    assert s.step_name() == "refill" and s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 12 and all(p == pytest.approx(1 / 12) for _, p in outcomes)
    p6 = rome_hand(Pottery=1, Gems=1, Papyrus=1, Metal=1, Spices=1, Stone=1)
    assert "buy:Hercules" not in names(to_build(p6, "Rome"))


def test_spec5_3_3d_L399_card_cost_rises_with_cards_owned():
    p = rome_hand(Pottery=1, Gems=1, Papyrus=1, Metal=1, Spices=1, Stone=1, Wood=1, Gold=1)
    p.cards("Rome", ["Caesar", "Colossus of Rhodes"])
    s = to_build(p, "Rome")
    s.apply("buy:Hercules")
    for _ in range(8):
        s.apply(s.legal_actions()[0])
    assert s.step_name() == "build"                        # the 3rd card cost 8
    assert "Hercules" in s.to_json()["empires"][0]["cards"]


def test_spec8_L597_599_pyramids_win_at_once():
    goods = ["Pottery", "Gems", "Papyrus", "Metal", "Spices", "Stone", "Wood", "Gold", "Grain", "Oil", "Sheep",
             "Wine"]
    s = to_build(rome_hand(**{g: 1 for g in goods}), "Rome")
    s.apply("buy:Pyramids")
    for g in goods:
        s.apply(f"pay:{g}")
    assert s.is_terminal() and s.returns()[0] == 1.0 and s.to_json()["reason"] == "pyramids"


def test_spec5_3_5_L176_L333_end_of_build_keeps_two_coins_goods_and_rare_discarded():
    p = rome_hand(Coin=5, Wine=2).rare("Rome", ["Gold"])
    s = to_build(p, "Rome")
    s.apply("pass")
    r = s.to_json()
    assert r["empires"][0]["resources"]["Coin"] == 2 and r["empires"][0]["resources"]["Wine"] == 0
    assert r["empires"][0]["rare"] == [] and r["machine"]["discard"] & (1 << 7)


def test_spec5_3_5_L344_346_L875_885_hanging_gardens_keep_two_different_kinds_shown():
    p = rome_hand(Coin=5, Wine=2).rare("Rome", ["Gold"]).cards("Rome", ["Caesar", "Hanging Gardens"])
    s = to_build(p, "Rome")
    s.apply("pass")
    assert s.step_name() == "keep"
    play(s, "keep:Wine")
    assert "keep:Wine" not in names(s)                     # different kinds
    play(s, "keep:rare Gold")
    e = s.to_json()["empires"][0]
    assert e["resources"]["Wine"] == 1 and e["resources"]["Coin"] == 2
    assert e["rare"] == ["Gold"] and e["rare_shown"] == ["Gold"]


def test_spec9_L855_859_spartacus_once_a_round_for_one_gladiator_or_coin():
    p = rome_hand(Gladiator=2, Coin=1).cards("Rome", ["Caesar", "Spartacus"])
    s = to_build(p, "Rome")
    assert "spartacus:Italia" in names(s)
    play(s, "spartacus:Italia")
    assert names(s) == ["pay:Gladiator", "pay:Coin"]
    play(s, "pay:Gladiator")
    assert not any(a.startswith("spartacus:") for a in names(s))
    assert s.to_json()["empires"][0]["legions"]["Italia"] == 2


def test_spec9_L746_750_L889_893_gilgamesh_fortress_and_pharos_trireme_for_one():
    p = rome_hand(Stone=1, Wood=1).cards("Rome", ["Caesar", "Gilgamesh", "Lighthouse of Pharos"])
    s = to_build(p, "Rome")
    play(s, "gilgamesh:Dalmatia", "pay:Stone", "pharos:Adriatic Sea", "pay:Wood")
    e = s.to_json()["empires"][0]
    assert "Dalmatia" in e["fortresses"] and e["triremes"] == {"Adriatic Sea": 1}


def test_spec9_L754_762_penthesilea_free_legions_for_provinces_with_enemy_legions():
    p = rome_hand().cards("Rome", ["Caesar", "Penthesilea"]).units("Greece", legions={"Achaea": 1, "Gallia": 1,
                                                                                        "Dalmatia": 1})
    s = to_build(p, "Rome")
    assert "penthesilea" in names(s)
    s.apply("penthesilea")
    assert s.to_json()["empires"][0]["legions"]["Italia"] == 3
    assert "penthesilea" not in names(s)


def test_spec9_L736_742_hammurabi_free_marker_each_round():
    p = empty_hands(Pos(opening(5)))
    s = to_build(p, "Babylon")
    assert "hammurabi:Arabia" in names(s) and "marker:Arabia" not in names(s)
    s.apply("hammurabi:Arabia")
    assert s.to_json()["provinces"]["Arabia"]["control"] == "Babylon"
    assert not any(a.startswith("hammurabi:") for a in names(s))


def test_spec5_3_1_qa_L644_646_perseus_jumps_the_order_to_build_the_pyramids():
    goods = ["Pottery", "Gems", "Papyrus", "Metal", "Spices", "Stone", "Wood", "Gold", "Grain", "Oil", "Sheep",
             "Wine"]
    p = empty_hands(Pos(opening(5))).res("Greece", **{g: 1 for g in goods}).cards("Greece", ["Pericles", "Perseus"])
    s = p.state()
    s._enter("build")
    s.apply("builder:Rome")                                # the culture leader names Rome first
    assert s.step_name() == "perseus" and s.current_player() == seat(s, "Greece")
    s.apply("perseus:jump")
    assert names(s) == ["buy:Pyramids"]
    s.apply("buy:Pyramids")
    for g in goods:
        s.apply(f"pay:{g}")
    assert s.is_terminal() and s.to_json()["winners"] == ["Greece"]


def test_spec9_L681_687_castor_and_pollux_copy_an_opponents_hero_ability_not_influence():
    p = rome_hand(Pottery=1, Gems=1, Papyrus=1, Metal=1, Spices=1, Stone=1, Wood=1, Gladiator=1)
    p.cards("Greece", ["Pericles", "Spartacus"])
    s = to_build(p, "Rome")
    s.game.names()
    p2 = Pos(s)
    p2.obj["machine"]["row"] |= 1 << 0                     # Castor & Pollux face up
    p2.obj["machine"]["facedown"] &= ~1
    s = p2.state()
    play(s, "buy:Castor & Pollux", "pay:Pottery", "pay:Gems", "pay:Papyrus", "pay:Metal", "pay:Spices",
         "pay:Stone", "pay:Wood")
    assert s.step_name() == "castor-target" and names(s) == ["copy:Spartacus"]
    s.apply("copy:Spartacus")
    assert "spartacus:Italia" in names(s)
    assert s.track_values()[0] == [7, 1, 3]


def test_spec8_L603_glory_five_cards_checked_at_end_of_build_phase_culture_leader_breaks_tie():
    hand = dict(Pottery=1, Gems=1, Papyrus=1, Metal=1, Spices=1, Stone=1, Wood=1, Gold=1, Grain=1, Oil=1)
    p = empty_hands(Pos(opening(5))).res("Rome", **hand).res("Egypt", **hand)
    p.cards("Rome", ["Caesar", "Hercules", "Circe", "Antigone"])
    p.cards("Egypt", ["Cleopatra", "Colossus of Rhodes", "Hanging Gardens", "Statue of Zeus"])
    p.face_up("Spartacus", "Ramses II")
    s = p.state()
    s._enter("build")
    s.apply("builder:Rome")
    s.apply("buy:Spartacus")
    for _ in range(10):
        s.apply(s.legal_actions()[0])
    assert not s.is_terminal()                             # not before the end of the phase
    s.apply("pass")
    s.apply("builder:Egypt")
    s.apply("buy:Ramses II")
    for _ in range(10):
        s.apply(s.legal_actions()[0])
    s.apply("pass")
    pass_on(s)
    assert s.to_json()["winners"] == ["Egypt"] and s.to_json()["reason"] == "glory"    # Egypt: culture leader


def test_spec8_L603_glory_shared_when_no_qualifier_is_culture_leader():
    hand = dict(Pottery=1, Gems=1, Papyrus=1, Metal=1, Spices=1, Stone=1, Wood=1, Gold=1, Grain=1, Oil=1)
    p = empty_hands(Pos(opening(5))).res("Rome", **hand).res("Greece", **hand)
    p.cards("Rome", ["Caesar", "Hercules", "Circe", "Antigone"])
    p.cards("Greece", ["Pericles", "Colossus of Rhodes", "Hanging Gardens", "Statue of Zeus"])
    p.face_up("Spartacus", "Ramses II")
    s = p.state()
    s._enter("build")
    for who, card in (("Rome", "Spartacus"), ("Greece", "Ramses II")):
        s.apply(f"builder:{who}")
        s.apply(f"buy:{card}")
        for _ in range(10):
            s.apply(s.legal_actions()[0])
        s.apply("pass")
    pass_on(s)
    assert s.to_json()["winners"] == ["Rome", "Greece"]
    r = s.returns()                    # a shared victory is a tie for first place (rank returns)
    assert r[0] == r[1] > r[2] == r[3] == r[4]


def test_spec8_L611_L800_perseus_fifth_card_wins_at_once():
    hand = dict(Pottery=1, Gems=1, Papyrus=1, Metal=1, Spices=1, Stone=1, Wood=1, Gold=1, Grain=1, Oil=1)
    p = empty_hands(Pos(opening(5))).res("Rome", **hand)
    p.cards("Rome", ["Caesar", "Perseus", "Circe", "Antigone"])
    p.face_up("Spartacus")
    s = to_build(p, "Rome")
    s.apply("buy:Spartacus")
    for _ in range(10):
        s.apply(s.legal_actions()[0])
    assert s.is_terminal() and s.to_json()["winners"] == ["Rome"] and s.to_json()["reason"] == "perseus"


def test_spec12_3_decisions_stay_small():
    """Search-friendly split: no decision of a random 5-player game offers more than a few hundred actions."""
    from engine.rng import RNG
    from engine.chance import sample_outcome
    s = opening(5)
    rng = RNG(8)
    most = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(sample_outcome(s.chance_outcomes(), rng))
        else:
            legal = s.legal_actions()
            most = max(most, len(legal))
            s.apply(rng.choice(legal))
    assert most <= 400


def _valid_sets(hand, cost, hannibal, cleopatra, kinds):
    """Brute force: every multiset of `cost` hand items that is a legal set (L171-174, L337-342)."""
    import itertools
    from collections import Counter
    items = [t for t, n in hand.items() for _ in range(n)]
    out = set()
    for combo in itertools.combinations(sorted(items), cost):
        coins = sum(1 for t in combo if t == "Coin")
        goods = [t.replace("rare ", "") for t in combo if t != "Coin"]
        per_kind = Counter(goods)
        doubles = sum(1 for v in per_kind.values() if v == 2)
        worse = any(v > 2 for v in per_kind.values())
        ok = False
        if not goods:
            ok = True
        elif coins == 0 or (cleopatra and coins == 1):
            ok = not worse and (doubles == 0 or (hannibal and doubles == 1))
        if cleopatra and len(goods) == 1 and coins == cost - 1:
            ok = True
        if ok:
            out.add(tuple(sorted(Counter(combo).items())))
    return out


@pytest.mark.parametrize("cost", [3, 6])
@pytest.mark.parametrize("empire,hero", [("Rome", None), ("Egypt", "Cleopatra"), ("Carthage", "Hannibal")])
def test_spec5_3_2_payment_steps_reach_exactly_the_legal_sets(empire, hero, cost):
    """Paying one resource at a time never dead-ends and reaches exactly the sets the rules allow."""
    import random
    from collections import Counter
    rnd = random.Random(5)
    kinds = ["Pottery", "Gems", "Papyrus", "Metal", "Spices", "Wood", "Gold", "Grain", "Coin"]
    build = {"Rome": "legion:Italia", "Egypt": "legion:Aegyptus", "Carthage": "legion:Africa"}[empire]
    if cost == 6:
        build = {"Rome": "build:Gallia:temple", "Egypt": "build:Cyrenaica:temple",
                 "Carthage": "build:Hispania:temple"}[empire]
    ran = 0
    for trial in range(20):
        hand = Counter(rnd.choice(kinds) for _ in range(rnd.randint(cost, cost + 5)))
        rare = rnd.sample(["Gold", "Wood", "Metal"], rnd.randint(0, 2))
        p = empty_hands(Pos(opening(5))).res(empire, **hand).rare(empire, rare)
        s = to_build(p, empire)
        if build not in names(s):
            continue
        s.apply(build)
        ran += 1
        reached = set()

        def dfs(st, paid):
            if st.step_name() != "pay":
                reached.add(tuple(sorted(Counter(paid).items())))
                return
            legal = st.legal_actions()
            assert legal, f"dead end after paying {paid}"
            for a in legal:
                t = st.clone()
                name = t.action_to_str(a)[4:]
                t.apply(a)
                dfs(t, paid + [name])
        dfs(s, [])
        full = dict(hand)
        for g in rare:
            full["rare " + g] = 1
        want = _valid_sets(full, cost, hero == "Hannibal", hero == "Cleopatra", kinds)
        assert reached == want, (hand, rare)
    assert ran >= 3


def test_spec5_3_3a_L366_370_L393_rulebook_placement_example_then_a_city_in_asia():
    """L366-370: Greece (holding Dacia at the start of the round) may place in Germania (adjacent) and in Asia
    (connected by a Greek trireme), not in Dalmatia (a Roman legion) nor Macedonia (Roman). L393: the new marker
    in Asia then allows a city there in the same turn."""
    p = empty_hands(Pos(opening(5))).res("Greece", Coin=6, Pottery=1, Gems=1, Papyrus=1)
    p.control("Dacia", "Greece").control("Macedonia", "Rome").control("Dalmatia", None)
    p.units("Greece", legions={"Achaea": 1}, triremes={"Aegean Sea": 1})
    p.units("Rome", legions={"Italia": 1, "Dalmatia": 1})
    s = to_build(p, "Greece")
    legal = names(s)
    assert "marker:Germania" in legal and "marker:Asia" in legal
    assert "marker:Dalmatia" not in legal and "marker:Macedonia" not in legal
    play(s, "marker:Asia", "pay:Coin", "pay:Coin", "pay:Coin")
    assert "build:Asia:legendary:Troy" in names(s)
    play(s, "build:Asia:legendary:Troy", "pay:Pottery", "pay:Gems", "pay:Papyrus")
    assert s.to_json()["provinces"]["Asia"]["spaces"][0] == ["legendary:Troy", True, None, None]

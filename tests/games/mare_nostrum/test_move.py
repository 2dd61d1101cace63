"""Mare Nostrum rules: movement, battles and capture (spec 5.4, 6), their heroes (spec 9), the Q&A (spec 10).

Each test names its rule: spec section and rulebook line.
"""
import itertools

import pytest

from games.mare_nostrum.helpers import Pos, empty_hands, opening, pass_on, play, res_of, seat, to_move


def names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def until(s, step):
    """Pass through the mover's optional steps until `step`."""
    while s.step_name() != step:
        assert "pass" in names(s), (s.step_name(), names(s))
        s.apply("pass")
    return s


def base():
    return empty_hands(Pos(opening(5)))


def brute_hits(n_bonus_dice, extra_dice, bonus, flat, pen):
    dist = {}
    for faces in itertools.product(range(1, 7), repeat=n_bonus_dice + extra_dice):
        h = max(0, (sum(faces) + bonus * n_bonus_dice + flat) // 5 - pen)
        dist[h] = dist.get(h, 0) + 1 / 6 ** (n_bonus_dice + extra_dice)
    return dist


def test_spec5_4_example1_L427_431_transport_through_trireme_chain_enemy_trireme_does_not_block():
    p = base().units("Rome", legions={"Italia": 2, "Creta": 1}, triremes={"Ionian Sea": 2})
    p.units("Egypt", triremes={"African Sea": 1})
    s = to_move(p, "Rome")
    assert s.step_name() == "move-triremes"
    s.apply("sail:Ionian Sea>African Sea")
    assert not any(a.startswith("sail:African Sea>") for a in names(s))     # each trireme moves once
    s.apply("pass")
    assert s.step_name() == "sea-battle"
    assert names(s) == ["pass", "seabattle:African Sea:Egypt"]              # optional (L421)
    s.apply("pass")
    assert "march:Italia>Cyrenaica" in names(s) and "march:Creta>Cyrenaica" in names(s)
    play(s, "march:Italia>Cyrenaica", "march:Italia>Cyrenaica", "march:Creta>Cyrenaica")
    assert s.to_json()["empires"][0]["legions"]["Cyrenaica"] == 3


def test_spec5_4_4_legions_move_once_to_adjacent_or_connected_province_only():
    p = base().units("Rome", legions={"Italia": 1, "Dalmatia": 2})
    s = to_move(p, "Rome")
    legal = names(s)
    assert "march:Dalmatia>Macedonia" in legal and "march:Italia>Gallia" in legal
    assert "march:Italia>Cyrenaica" not in legal                            # no trireme chain
    s.apply("march:Dalmatia>Macedonia")
    assert not any(a.startswith("march:Macedonia>") for a in names(s))      # moved already
    # moves are entered in ascending (from, to) order, so a set of moves has one path (spec 12.3):
    # Italia comes before Dalmatia in the map, so Italia's legion had to move first
    assert "march:Italia>Gallia" not in names(s) and names(s) == ["pass"] + [
        a for a in names(s) if a.startswith("march:Dalmatia>")]


def test_spec5_4_example2_L433_437_battles_are_mandatory_everywhere_the_mover_meets_an_enemy():
    p = base().units("Babylon", legions={"Cilicia": 2}, fortresses=["Cilicia"])
    p.units("Egypt", legions={"Cilicia": 2}, fortresses=["Judaea"])
    s = to_move(p, "Babylon")
    play(s, "march:Cilicia>Judaea", "march:Cilicia>Judaea")     # no legion left to move: battles follow
    assert s.step_name() == "land-battle"
    assert names(s) == ["battle:Cilicia:Egypt", "battle:Judaea:Egypt"]      # no pass: battles are compulsory
    s.apply("battle:Cilicia:Egypt")
    # the fortress fights alone: no dice, +5 -> exactly one hit (spec 6 step 3)
    assert s.hit_distribution(0) == [(1, pytest.approx(1.0))]


def test_spec6_L453_455_worked_battle_example_caesar_three_legions_against_legion_and_fortress():
    p = base().units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Cyrenaica": 3})
    s = to_move(p, "Rome")
    s = until(s, "land-battle")
    s.apply("battle:Cyrenaica:Egypt")
    att = dict(s.hit_distribution(0))
    want = brute_hits(3, 0, 1, 0, 1)           # +1 a die (Caesar, active), -1 hit for Egypt's fortress
    assert att.keys() == want.keys() and all(att[h] == pytest.approx(want[h]) for h in want)
    # rolls V, IV, III: 12 + 3 = 15 -> 3 hits, the fortress cancels one -> 2
    assert (12 + 3) // 5 - 1 == 2 and att[2] > 0
    s.apply("hits:2")
    dfd = dict(s.hit_distribution(1))
    want = brute_hits(1, 0, 0, 5, 0)           # Egypt: III + 5 for the fortress = 8 -> 1 hit
    assert all(dfd[h] == pytest.approx(want[h]) for h in want)
    s.apply("hits:1")
    j = s.to_json()
    assert j["empires"][0]["legions"]["Cyrenaica"] == 2                     # Rome loses 1 legion
    eg = j["empires"][seat(s, "Egypt")]
    assert "Cyrenaica" not in eg["legions"] and "Cyrenaica" not in eg["fortresses"]   # both Egyptian units


def test_spec6_L445_L449_owner_chooses_whether_the_fortress_takes_a_hit():
    p = base().units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Cyrenaica": 3})
    p.units("Egypt", legions={"Cyrenaica": 2}, fortresses=["Cyrenaica"])
    s = until(to_move(p, "Rome"), "land-battle")
    play(s, "battle:Cyrenaica:Egypt", "hits:1", "hits:1")
    assert s.step_name() == "casualty-defender" and s.current_player() == seat(s, "Egypt")
    assert names(s) == ["casualty:legions", "casualty:fortress"]
    s.apply("casualty:fortress")
    eg = s.to_json()["empires"][seat(s, "Egypt")]
    assert eg["legions"]["Cyrenaica"] == 2 and "Cyrenaica" not in eg["fortresses"]


@pytest.mark.parametrize("hero,kwargs", [("Ramses II", dict(n=2, extra=1, bonus=0, flat=0)),
                                         ("Nebuchadnezzar", dict(n=2, extra=0, bonus=0, flat=5))])
def test_spec6_L839_L732_ramses_extra_die_nebuchadnezzar_plus_five_at_home(hero, kwargs):
    p = base().units("Greece", legions={"Achaea": 1, "Macedonia": 2}).cards("Greece", ["Pericles", hero])
    p.units("Rome", legions={"Italia": 1, "Macedonia": 2}, fortresses=["Italia"])
    s = until(to_move(p, "Greece"), "land-battle")
    s.apply("battle:Macedonia:Rome")
    got = dict(s.hit_distribution(0))
    want = brute_hits(kwargs["n"], kwargs["extra"], kwargs["bonus"], kwargs["flat"], 0)
    assert got.keys() == want.keys() and all(got[h] == pytest.approx(want[h]) for h in want)


def test_spec6_L815_pericles_plus_two_a_die_when_defending_only():
    p = base().units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Macedonia": 2})
    p.units("Greece", legions={"Macedonia": 2})
    s = until(to_move(p, "Rome"), "land-battle")
    s.apply("battle:Macedonia:Greece")
    att = dict(s.hit_distribution(0))
    want = brute_hits(2, 0, 1, 0, 0)                  # Caesar: +1 as the active player
    assert all(att[h] == pytest.approx(want[h]) for h in want)
    s.apply("hits:0")
    dfd = dict(s.hit_distribution(1))
    want = brute_hits(2, 0, 2, 0, 0)                  # Pericles: +2 while not active
    assert all(dfd[h] == pytest.approx(want[h]) for h in want)


def test_spec10_qa_L658_660_several_opponents_one_battle_per_province():
    p = base().units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Germania": 2})
    p.units("Greece", legions={"Achaea": 1, "Germania": 1}).units("Carthage", legions={"Germania": 1})
    s = until(to_move(p, "Rome"), "land-battle")
    assert names(s) == ["battle:Germania:Greece", "battle:Germania:Carthage"]
    play(s, "battle:Germania:Greece", "hits:0", "hits:0")
    assert s.step_name() != "land-battle"              # Germania stays at war with Carthage (L464)


def test_spec5_4_3_sea_battle_triremes_only():
    p = base().units("Rome", triremes={"Ionian Sea": 2}).units("Greece", triremes={"Ionian Sea": 1})
    s = to_move(p, "Rome")
    play(s, "pass", "seabattle:Ionian Sea:Greece")
    got = dict(s.hit_distribution(0))
    want = brute_hits(2, 0, 0, 0, 0)                   # no Caesar bonus at sea (G29)
    assert all(got[h] == pytest.approx(want[h]) for h in want)
    play(s, "hits:1", "hits:1")
    j = s.to_json()
    assert j["empires"][0]["triremes"] == {"Ionian Sea": 1} and j["empires"][1]["triremes"] == {}


def invader(p=None, **cards):
    p = p or base()
    p.units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Cyrenaica": 3}).units("Egypt", legions={},
                                                                                  fortresses=[])
    return p


def test_spec5_4_6_L470_474_invader_chooses_destroy_occupy_capture_or_nothing():
    s = until(to_move(invader(), "Rome"), "capture")
    legal = names(s)
    assert legal == ["pass", "destroy:Cyrenaica:caravan:Papyrus", "destroy:Cyrenaica:market",
                     "destroy:Cyrenaica:city", "occupy:Cyrenaica:caravan:Papyrus", "occupy:Cyrenaica:market",
                     "occupy:Cyrenaica:city"]                # no capture: not adjacent / connected (L517)


def test_spec5_4_6i_L480_489_destroy_a_city_for_one_coin_hamilcar_doubles():
    s = until(to_move(invader(), "Rome"), "capture")
    s.apply("destroy:Cyrenaica:city")
    assert res_of(s, "Rome") == {"Coin": 1}
    assert s.to_json()["provinces"]["Cyrenaica"]["spaces"][2][1] is False
    p = invader().cards("Rome", ["Caesar", "Hamilcar"])
    s = until(to_move(p, "Rome"), "capture")
    s.apply("destroy:Cyrenaica:caravan:Papyrus")
    assert res_of(s, "Rome") == {"Papyrus": 2}


def test_spec5_4_6i_L487_legendary_city_loot_coin_or_rare_good():
    p = base().units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Sicilia": 1}).control("Sicilia", "Greece")
    p.space("Sicilia", "legendary:Syracuse")
    s = until(to_move(p, "Rome"), "capture")
    s.apply("destroy:Sicilia:legendary:Syracuse")
    assert s.step_name() == "loot" and names(s) == ["coin", "rare"]
    s.apply("rare")
    assert s.step_name() == "rare-draw"
    assert s.action_observation(s.str_to_action("draw:Gold"), 1) < 0        # only Rome sees the tile
    s.apply("draw:Gold")
    assert s.to_json()["empires"][0]["rare"] == ["Gold"]


def test_spec5_4_6ii_L499_513_occupy_buildings_one_legion_each():
    s = until(to_move(invader(), "Rome"), "capture")
    s.apply("occupy:Cyrenaica:caravan:Papyrus")
    assert s.step_name() == "occupy"
    play(s, "occupy:Cyrenaica:market", "occupy:Cyrenaica:city")
    sp = s.to_json()["provinces"]["Cyrenaica"]["spaces"]
    assert [e[2] for e in sp[:3]] == ["Rome", "Rome", "Rome"] and sp[3][:2] == ["temple", False]
    assert s.track_values()[0][0] == 9                                      # +2 trade at once (L545)


def test_spec5_4_6_L476_occupation_ends_when_province_is_at_war():
    p = invader()
    p.space("Cyrenaica", "caravan:Papyrus", occupier="Rome")
    p.units("Carthage", legions={"Hispania": 1, "Libya": 1})
    s = until(to_move(p, "Carthage"), "move-legions")
    play(s, "march:Libya>Cyrenaica")
    s = until(s, "land-battle")
    play(s, "battle:Cyrenaica:Rome", "hits:0", "hits:0")
    assert s.to_json()["provinces"]["Cyrenaica"]["spaces"][0][2] is None


def test_spec5_4_6iii_L515_523_capture_marker_then_swap_at_end_of_next_turn():
    p = invader().units("Rome", triremes={"Ionian Sea": 1, "African Sea": 1})
    s = to_move(p, "Rome")
    s = until(s, "capture")
    assert "capture:Cyrenaica" in names(s)
    s.apply("capture:Cyrenaica")
    assert s.to_json()["provinces"]["Cyrenaica"]["capture"] == {"by": "Rome", "round": 1}
    assert s.to_json()["provinces"]["Cyrenaica"]["control"] == "Egypt"     # Egypt still controls (L525)
    p2 = Pos(s)
    p2.obj["round"] = 2
    p2.obj["step"] = "exchange"
    p2.obj["current"] = p2.seat("Carthage")
    s2 = until(to_move(p2, "Rome"), "capture")
    s2.apply("pass")
    until(s2, "circe") if s2.step_name() != "choose-mover" else None
    assert s2.to_json()["provinces"]["Cyrenaica"]["control"] == "Rome"


def test_spec10_qa_L662_664_failed_swap_leaves_province_uncontrolled():
    p = invader()
    p.obj["provinces"]["Cyrenaica"]["capture"] = {"by": "Rome", "round": 1}
    p.obj["round"] = 2
    s = until(to_move(p, "Rome"), "capture")
    s.apply("pass")
    assert s.to_json()["provinces"]["Cyrenaica"]["control"] is None


def test_spec5_4_6_L519_L553_capital_province_never_captured_but_buildings_can_be_destroyed():
    p = base().units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Achaea": 2}).units(
        "Greece", legions={"Macedonia": 1}, fortresses=[])
    s = until(to_move(p, "Rome"), "capture")
    legal = names(s)
    assert "capture:Achaea" not in legal and "destroy:Achaea:capital" in legal


def test_spec9_L819_829_queen_of_sheba_swaps_the_marker_at_once():
    p = invader().units("Rome", triremes={"Ionian Sea": 1, "African Sea": 1}).cards("Rome", ["Caesar",
                                                                                          "Queen of Sheba"])
    s = until(to_move(p, "Rome"), "capture")
    s.apply("sheba:Cyrenaica")
    j = s.to_json()
    assert j["provinces"]["Cyrenaica"]["control"] == "Rome" and j["empires"][0]["legions"]["Cyrenaica"] == 2


def test_spec9_L714_722_circe_legion_on_empty_caravan_space_produces():
    p = base().units("Rome", legions={"Italia": 1, "Dalmatia": 1, "Germania": 1}).cards("Rome", ["Caesar",
                                                                                                "Circe"])
    s = until(to_move(p, "Rome"), "circe")
    assert "circe:Germania:caravan:Wood" in names(s)
    s.apply("circe:Germania:caravan:Wood")
    p2 = Pos(s)
    s2 = p2.state()
    s2._enter("collect")
    assert res_of(s2, "Rome").get("Wood") == 1
    assert s2.track_values()[0][0] == 7 + 1             # Circe's influence only, not a caravan (L718)


def test_spec9_L897_907_statue_of_zeus_sends_legions_home_and_forbids_war():
    p = base().cards("Rome", ["Caesar", "Statue of Zeus"]).units("Greece", legions={"Achaea": 1, "Gallia": 1})
    s = p.state()
    s._enter("move")
    assert s.step_name() == "zeus" and s.current_player() == 0
    s.apply("peace:Greece")
    g = s.to_json()["empires"][1]["legions"]
    assert g == {"Achaea": 2}
    s.apply("mover:Rome")
    assert "march:Dalmatia>Macedonia" not in names(s)
    assert s.to_json()["machine"]["zeus_last"][0] == 1


def test_spec8_L607_conquest_four_capitals_or_legendary_cities_at_end_of_movement():
    p = base()
    for prov, space in (("Sicilia", "legendary:Syracuse"), ("Judaea", "legendary:Jerusalem"),
                        ("Asia", "legendary:Troy")):
        p.control(prov, "Rome").space(prov, space)
    s = p.state()
    s._enter("move")
    pass_on(s, stop_at="exchange")
    assert s.is_terminal() and s.to_json()["winners"] == ["Rome"] and s.to_json()["reason"] == "conquest"


def test_spec5_4_3_L421_L660_one_sea_battle_per_sea_per_turn_and_all_before_legions_move():
    p = base().units("Rome", triremes={"Ionian Sea": 3}).units("Greece", triremes={"Ionian Sea": 2})
    s = to_move(p, "Rome")
    play(s, "pass", "seabattle:Ionian Sea:Greece", "hits:0", "hits:0")
    assert s.step_name() == "move-legions"              # no second battle in the Ionian Sea this turn
    assert not any(a.startswith("seabattle") for a in names(s))


def test_spec5_4_1_L413_L464_military_leader_names_each_mover_once():
    s = base().state()
    s._enter("move")
    assert s.step_name() == "choose-mover" and s.current_player() == seat(s, "Rome")
    assert names(s) == ["mover:Rome", "mover:Greece", "mover:Babylon", "mover:Egypt", "mover:Carthage"]
    s.apply("mover:Egypt")
    assert s.current_player() == seat(s, "Egypt")
    while s.step_name() != "choose-mover":
        s.apply("pass" if "pass" in names(s) else s.legal_actions()[0])
    assert s.current_player() == seat(s, "Rome") and "mover:Egypt" not in names(s)

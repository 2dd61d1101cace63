"""Mare Nostrum rules: leadership (spec 5.5), Primacy (spec 8), hidden information (spec 7) and bad input.

Each test names its rule: spec section and rulebook line.
"""
import copy
import json

import pytest

from engine.errors import BadMoveError, BadStateError, IllegalActionError
from engine.rng import RNG
from games.mare_nostrum.helpers import Pos, empty_hands, opening, play, seat


def names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def trade_example():
    """Spec 5.5 example (L583-585): trade values Rome V, Greece IV, Babylon IV, Egypt III, Carthage III."""
    p = empty_hands(Pos(opening(5)))
    for prov, space in (("Gallia", "caravan:Sheep"), ("Gallia", "market"), ("Armenia", "market"),
                        ("Cyrenaica", "market"), ("Numidia", "caravan:Gladiator"), ("Numidia", "market"),
                        ("Hispania", "caravan:Metal"), ("Hispania", "caravan:Gold")):
        p.space(prov, space, built=False)
    return p


def test_spec5_5_L583_585_highest_trade_value_takes_the_title():
    s = trade_example().state()
    assert [v[0] for v in s.track_values()] == [5, 4, 4, 3, 3]
    s._enter("leadership")
    # culture: Greece IV and Egypt IV tie -> Egypt, last holder, decides (L575)
    assert s.step_name() == "title" and s.current_player() == seat(s, "Egypt")
    assert names(s) == ["title:Greece", "title:Egypt"]
    s.apply("title:Greece")
    titles = {e["empire"]: e["titles"] for e in s.to_json()["empires"]}
    assert titles["Rome"] == ["trade", "military"] and titles["Greece"] == ["culture"]


def test_spec5_5_L575_previous_holder_breaks_tie_even_when_not_tied_himself():
    p = empty_hands(Pos(opening(5))).titles("Carthage", "Babylon", "Rome")
    s = p.state()
    s._enter("leadership")
    assert s.step_name() == "title" and s.current_player() == seat(s, "Carthage")   # Rome 7 = Carthage 7
    s.apply("title:Rome")
    assert s.current_player() == seat(s, "Babylon") and names(s) == ["title:Greece", "title:Egypt"]


def test_spec5_5_L591_values_go_past_fifteen():
    p = empty_hands(Pos(opening(5))).units("Rome", legions={"Italia": 8}, triremes={"Ionian Sea": 5},
                                          fortresses=["Italia", "Gallia", "Dalmatia", "Germania", "Dacia"])
    assert p.state().track_values()[0][2] == 18          # shown as +XV / III on the board


def test_spec4_titles_change_only_in_phase_5():
    p = empty_hands(Pos(opening(5))).res("Greece", Coin=9)
    s = p.state()
    s._enter("build")
    s.apply("builder:Greece")
    play(s, "legion:Achaea", "pay:Coin", "pay:Coin", "pay:Coin", "legion:Achaea", "pay:Coin", "pay:Coin",
         "pay:Coin")
    assert s.track_values()[1][2] == 5 > s.track_values()[0][2]
    assert s.to_json()["empires"][0]["titles"] == ["military"]    # Rome keeps it until phase 5


def test_spec8_L615_primacy_all_three_titles_at_end_of_leadership():
    p = trade_example()
    p.units("Rome", legions={"Italia": 4}).space("Gallia", "city").space("Gallia", "temple")
    p.control("Sicilia", "Rome").space("Sicilia", "legendary:Syracuse").space("Sicilia", "temple")
    s = p.state()
    s._enter("leadership")
    assert s.is_terminal() and s.to_json()["winners"] == ["Rome"] and s.to_json()["reason"] == "primacy"


# --- spec 7: hidden information ----------------------------------------------------------------------------


def hidden_position():
    """Greece holds two unrevealed rare goods and one shown; Rome is making its secret offer."""
    p = Pos(opening(5)).rare("Greece", ["Gold", "Wine", "Gems"], shown=["Gems"])
    s = p.state()
    s.apply("exchange:2")
    s.apply("offer:Wine")                  # Rome has offered one of two
    return s


def test_spec7_2_H2_others_see_only_the_count_of_unrevealed_rare_goods():
    s = hidden_position()
    me = s.observation(1)["empires"][1]
    other = s.observation(0)["empires"][1]
    assert me["rare"] == ["Gems", "Gold", "Wine"]
    assert other["rare"] == ["Gems"] and other["rare_hidden"] == 2


def test_spec7_determinize_varies_others_rare_goods_and_offers_and_nothing_else():
    s = hidden_position()
    truth = s.to_json()
    rng = RNG(4)
    greek_rares, rome_offers = set(), set()
    for _ in range(60):
        d = s.determinize(2, rng)                       # Babylon observes
        j = d.to_json()
        assert d.info_key(2) == s.info_key(2) and d.observation(2) == s.observation(2)
        g = j["empires"][1]
        assert "Gems" in g["rare"] and len(g["rare"]) == 3 and g["rare_shown"] == ["Gems"]
        greek_rares.add(tuple(g["rare"]))
        rome_offers.add(tuple(j["machine"]["offer"][0]))
        assert sum(j["machine"]["offer"][0]) == 1
        # nothing else changes: blank the hidden fields and compare
        a, b = copy.deepcopy(truth), copy.deepcopy(j)
        for x in (a, b):
            x["empires"][1]["rare"] = None
            x["machine"]["offer"] = None
            x["machine"]["stack"] = None
        assert a == b
    assert len(greek_rares) > 3 and len(rome_offers) > 2
    own = s.determinize(1, rng).to_json()
    assert own["empires"][1]["rare"] == ["Gems", "Gold", "Wine"]      # the observer's own tiles stay


def test_spec7_3_offer_observation_hidden_until_reveal():
    s = hidden_position()
    assert s.action_observation(s.str_to_action("offer:Coin"), 3) < 0
    assert s.action_observation(s.str_to_action("offer:Coin"), 0) == s.str_to_action("offer:Coin")


# --- bad input ------------------------------------------------------------------------------------------------


def test_bad_input_illegal_action_refused_and_nothing_changes():
    s = opening(5)
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply(s.str_to_action("exchange:5") + 1000)
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply(s.game.names()["kinds"].index("Wine"))          # an offer at the exchange step
    assert json.dumps(s.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("text", ["", "march:Italia>Atlantis", "exchange:7", "take", "buy:Pyramids"])
def test_bad_input_move_string_refused(text):
    s = opening(5)
    with pytest.raises(BadMoveError, match="no legal move|is no move"):
        s.str_to_action(text)


def bad(edit, match):
    p = Pos(opening(5))
    edit(p)
    with pytest.raises(BadStateError, match=match):
        p.state()


def test_bad_state_unit_in_a_sea_and_a_province():
    bad(lambda p: p.units("Rome", legions={"Italia": 1, "Ionian Sea": 1}), "legion placed in 'Ionian Sea'.*sea")
    bad(lambda p: p.units("Rome", triremes={"Italia": 1}), "trireme placed in 'Italia'.*province")
    bad(lambda p: p.units("Rome", fortresses=["Italia", "Ionian Sea"]), "fortress placed in 'Ionian Sea'")


def test_bad_state_resources_below_zero():
    def edit(p):
        p.emp("Rome")["resources"]["Wine"] = -1
    bad(edit, "below zero: Wine = -1")


def test_bad_state_title_held_by_two_players():
    def edit(p):
        p.emp("Greece")["titles"] = ["trade"]
    bad(edit, "trade title is held by two players: Greece, Carthage")


def test_bad_state_other_rule_breaks():
    bad(lambda p: p.units("Greece", fortresses=["Italia"]), "two fortresses")
    bad(lambda p: p.control("Italia", "Greece"), "capital province of Rome")
    bad(lambda p: p.units("Rome", legions={"Italia": 9}), "9 legions; the set holds 8")
    bad(lambda p: p.rare("Rome", ["Gold"]).rare("Greece", ["Gold"]), "held by both")

    def supply(p):
        p.emp("Rome")["resources"]["Wine"] = 5
    bad(supply, "Wine: reserve")

    def missing(p):
        del p.obj["machine"]["stack"]
    bad(missing, "missing 'stack'")


def test_bad_state_machine_numbers_out_of_range_are_refused_not_crashing():
    from games.mare_nostrum.helpers import to_move
    s = to_move(Pos(opening(5)), "Rome")
    assert s.step_name() == "move-legions"
    for field, value, match in (("mover", 7, "machine.mover = 7"), ("b_loc", 99, "machine.b_loc"),
                                ("c_p", 40, "machine.c_p"), ("offer", [[-1] * 27] * 5, "machine.offer"),
                                ("row", 1 << 20, "machine.row"), ("legmv", [0] * 31, "out of shape")):
        obj = s.to_json()
        obj["machine"][field] = value
        with pytest.raises(BadStateError, match=match):
            s.game.state_from_json(obj)


def test_spec5_2_2_L259_L265_rewind_takes_back_the_offers_not_yet_revealed():
    """Offers are made secretly and revealed together (L259, L265): when Greece is to offer, Rome's committed offer
    is still face down for Greece, so rewind_pending(Greece) (ISMCTS's root, search/uct.pyx) takes its two items
    back and Rome offers again; any offer Rome makes leads back to Greece's information set. Greece's own part of
    its offer, hidden from Rome, stays."""
    s = hidden_position()
    s.apply("offer:Wine")                              # Rome's offer is complete (2 items); Greece offers
    view = s.determinize(1, RNG(3))
    rewound, k = view.rewind_pending(1)
    m = rewound.to_json()["machine"]
    assert k == 2 and rewound.current_player() == 0 and m["odone"][0] == 0 and not any(m["offer"][0])
    for _ in range(2):
        rewound.apply(rewound.legal_actions()[-1])     # an offer other than the one Rome made
    assert rewound.current_player() == 1 and rewound.info_key(1) == s.info_key(1)
    greece = names(s)[0]
    s.apply(greece)                                    # Greece is half way through its own offer
    view = s.determinize(1, RNG(3))
    rewound, k = view.rewind_pending(1)
    assert k == 2 and rewound.current_player() == 0
    assert rewound.to_json()["machine"]["offer"][1] == view.to_json()["machine"]["offer"][1]   # its own part stays

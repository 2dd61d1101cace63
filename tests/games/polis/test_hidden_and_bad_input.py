"""Spec section 7 (chance and hidden information) and bad input: illegal actions, bad move strings,
rule-breaking state files."""
import copy

import pytest

from engine.errors import BadMoveError, BadStateError, IllegalActionError
from engine.rng import RNG
from .helpers import G, battle, edit, fresh, names, play


def _battle():
    return battle("Boeotia", 4, 4, {"sparta": ["A2", "C1", "D0", "D0"], "athens": ["M0", "B1", "A1", "C0"]}, "sparta")


def test_7_2_determinize_resamples_only_the_opponents_hand_H1():
    """Spec 7.2 H1: the opponent's hand is re-dealt from the cards the observer has not seen (deck + that hand);
    the observer's own hand, the board, the cards already played and the info key stay fixed."""
    s = _battle()
    play(s, "attack:A2+C1", "defend:M0,B1", "stay", "stay", "deal:A1", "deal:B1", "deal:B1")
    truth = s.to_json()
    rng = RNG(7)
    seen = set()
    for _ in range(40):
        v = s.determinize(1, rng)                                    # Sparta's view
        j = v.to_json()
        assert j["battle"]["hands"]["sparta"] == truth["battle"]["hands"]["sparta"]
        assert j["battle"]["discard"] == truth["battle"]["discard"]
        assert len(j["battle"]["hands"]["athens"]) == len(truth["battle"]["hands"]["athens"])
        assert {k: v for k, v in j.items() if k not in ("battle", "events")} == \
            {k: v for k, v in truth.items() if k not in ("battle", "events")}
        assert v.info_key(1) == s.info_key(1) and v.observation(1) == s.observation(1)
        seen.add(tuple(j["battle"]["hands"]["athens"]))
        pool = sorted(j["battle"]["hands"]["athens"] + j["battle"]["deck"])
        assert pool == sorted(truth["battle"]["hands"]["athens"] + truth["battle"]["deck"])
    assert len(seen) > 5


def test_7_2_info_key_ignores_opponent_hand_but_not_own_H1():
    """Spec 7.2 H1: states differing only in the opponent's hand share the info key; not so for one's own."""
    a = _battle()
    b = battle("Boeotia", 4, 4, {"sparta": ["A2", "C1", "D0", "D0"], "athens": ["A1", "A1", "A1", "A1"]}, "sparta")
    assert a.info_key(1) == b.info_key(1) and a.info_key(0) != b.info_key(0)
    assert a.observation(1) == b.observation(1)
    assert a.observation(1)["battle"]["hands"]["athens"] == 4


def test_7_2_dealt_cards_hidden_from_the_opponent_H1():
    """Spec 7.2 H1: a card dealt to one player is seen by that player only (action_observation)."""
    s = _battle()
    play(s, "attack:A2+C1", "defend:M0,B1", "stay", "stay")
    a = s.chance_outcomes()[0][0]                                    # the next card goes to Athens
    assert s.action_observation(a, 0) == a and s.action_observation(a, 1) < 0
    assert len({s.action_observation(x, 1) for x, _ in s.chance_outcomes()}) == 1


def test_7_1_siege_d4_and_market_dice_are_chance_R5_R7():
    """Spec 7.1 R5-R7: the siege d4 is uniform; a silver payment rolls a d4 per listed good."""
    def fn(j):
        j["active"] = "athens"
        j["players"]["athens"]["silver"] = 3
    s = play(edit(fresh(), fn), "trade", "cell:Persia-3", "pay:silver")
    assert [p for _, p in s.chance_outcomes()] == [0.25] * 4
    s.apply("d4:1")
    assert s.is_chance_node()                                       # a second d4: wine is listed too
    s.apply("d4:1")
    assert not s.is_chance_node()


def test_bad_input_illegal_action_leaves_state_untouched():
    s = fresh()
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply(150)                                                  # an attack outside a battle
    with pytest.raises(BadMoveError, match="no legal move"):
        s.apply("civil-war")
    assert s.to_json() == before


def test_bad_input_malformed_move_string():
    s = fresh()
    for text in ("", "train at:Pylos", "move-hoplites:Attica", "attack:Z9+A1"):
        with pytest.raises(BadMoveError):
            s.str_to_action(text)


def _broken(fn):
    j = copy.deepcopy(fresh().to_json())
    fn(j)
    return j


def test_bad_state_units_over_stacking_limit_L259():
    j = _broken(lambda j: j["regions"]["Laconia"].update(sparta=4) or j["players"]["sparta"].update(cubes=25))
    with pytest.raises(BadStateError, match="stacking limit"):
        G.state_from_json(j)


def test_bad_state_hand_larger_than_units_L579():
    j = copy.deepcopy(_battle().to_json())
    j["battle"]["hands"]["athens"].append(j["battle"]["deck"].pop())
    with pytest.raises(BadStateError, match="the rules deal exactly 4"):
        G.state_from_json(j)


@pytest.mark.parametrize("cards_back", [1, 4])
def test_bad_state_hand_smaller_than_units_L579(cards_back):
    """A hand is exactly one card a unit (L579): smaller hands, down to an attacker to move with no card at all,
    would leave a searcher at a decision without a legal move."""
    j = copy.deepcopy(_battle().to_json())
    attacker = j["battle"]["attacker"]
    for _ in range(cards_back):
        j["battle"]["deck"].append(j["battle"]["hands"][attacker].pop())
    with pytest.raises(BadStateError, match="the rules deal exactly"):
        G.state_from_json(j)


def test_bad_state_battle_turn_order_and_table_L585_L587():
    j = copy.deepcopy(_battle().to_json())
    j["active"] = "athens" if j["battle"]["attacker"] == "sparta" else "sparta"
    with pytest.raises(BadStateError, match="attacker plays first"):
        G.state_from_json(j)
    j = copy.deepcopy(_battle().to_json())
    j["phase"] = "defend"
    with pytest.raises(BadStateError, match="on the table exactly while the defender answers"):
        G.state_from_json(j)


def test_bad_state_card_in_two_places():
    j = copy.deepcopy(_battle().to_json())
    j["battle"]["discard"].append(j["battle"]["hands"]["athens"][0])
    with pytest.raises(BadStateError, match="two places"):
        G.state_from_json(j)
    j = _broken(lambda j: j["projects"]["removed"].append(j["projects"]["display"][0]))
    with pytest.raises(BadStateError, match="two places"):
        G.state_from_json(j)


def test_bad_state_piece_accounting_L189():
    j = _broken(lambda j: j["players"]["athens"].update(cubes=30))
    with pytest.raises(BadStateError, match="cubes do not add up"):
        G.state_from_json(j)
    j = _broken(lambda j: j["players"]["sparta"].update(proxenos="Athens") or j["players"]["athens"].update(proxenos="Athens"))
    with pytest.raises(BadStateError, match="same polis"):
        G.state_from_json(j)


def test_bad_state_unknown_names_and_types():
    for fn, msg in ((lambda j: j.update(round="delta"), "round"),
                    (lambda j: j["poleis"]["Athens"].update(pop="five"), "population of Athens"),
                    (lambda j: j["players"]["athens"].update(prestige=-1), "prestige"),
                    (lambda j: j["poleis"]["Athens"].update(owner="sparta"), "capital")):
        with pytest.raises(BadStateError, match=msg):
            G.state_from_json(_broken(fn))


def test_render_shows_own_hand_only():
    s = _battle()
    text = s.render(1)
    assert "athens: 4" in text and "A2 C1 D0 D0" in text and "M0" not in text

"""Hellas rules: withdrawing into a city (spec 5.4) and field battles (spec 6.1-6.6).

Each test names its rule: spec section and rulebook line (Lnn of the Russian text) where there is one. The
positions start from Spring of 431 with Sparta to act first (one action), Boeotia's S11 (C2, 4 steps) and S12 (A2
cavalry) next to Plataea (LA11, value 1), held by Athens' A11 (C2, 1 step).
"""
import pytest

from games.hellas.helpers import spring

ATH, SPA = 0, 1


def _sparta_moves(*moves, withdraw="pass"):
    """Sparta moves `moves` from Boeotia into Plataea; Athens answers the first entry with `withdraw`."""
    s = spring()
    s.apply("actions:5")                                                # Sparta: 1 coin, first
    s.apply("actions:25")
    if s.step_name() == "favour":
        s.apply("pass")
    s.apply("move:LA12")
    for unit in moves:
        s.apply(f"unit:{unit}")
        s.apply("to:LA11")
        if s.step_name() == "withdraw":
            s.apply(withdraw)
    return s


def _names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def test_spec5_4_the_defender_decides_at_once_who_goes_inside():
    s = spring()
    s.apply("actions:5")
    s.apply("actions:25")
    s.apply("pass") if s.step_name() == "favour" else None
    s.apply("move:LA12")
    s.apply("unit:S11")
    s.apply("to:LA11")
    assert s.step_name() == "withdraw" and s.current_player() == ATH    # out of turn, at once
    s.apply("yes")                                                      # A11 goes inside (capacity 2)
    assert s.to_json()["blocks"]["A11"]["inside"] and s.current_player() == SPA
    s.apply("pass")                                                     # Sparta ends the group ...
    if s.step_name() == "favour":
        s.apply("pass")
    c = s.to_json()["control"]["LA11"]
    assert c["besieged"] and c["area"] == "Sparta" and c["city"] == "Athens"   # L132: both hold part


def _battle():
    """S11 entered Plataea, A11 stayed in the field; Sparta's Battle phase begins with the one battle."""
    s = _sparta_moves("S11")                                            # A11 stays in the field
    s.apply("pass")                                                     # the group ends; no actions left
    assert s.step_name() == "fire" and s.to_json()["machine"]["b_area"] == 11 - 1
    return s


def test_spec6_3_defender_fires_first_on_equal_letters_with_hits_and_routs_by_power():
    s = _battle()
    assert s.to_json()["machine"]["b_firer"] == 10                      # A11 (C2, defender) before S11 (C2)
    assert all(s.to_json()["blocks"][b]["revealed"] for b in ("A11", "S11"))   # revealed in combat
    outcomes = {s.action_to_str(a): p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({"fire:0h0r": 1 / 3, "fire:1h0r": 1 / 3, "fire:0h1r": 1 / 3})   # 1 die, P=2


def test_spec6_4_hits_go_to_the_largest_and_a_win_earns_prestige():
    s = _battle()
    s.apply("fire:1h0r")                                                # A11 hits S11: 4 -> 3 steps
    assert s.to_json()["blocks"]["S11"]["steps"] == 3
    assert len(s.chance_outcomes()) == 10                               # S11 now rolls 3 dice
    s.apply("fire:1h0r")                                                # A11 eliminated
    obj = s.to_json()
    assert obj["blocks"]["A11"]["area"] == "pool" and obj["prestige"] == 1   # +1 to the winner (spec 6.4 5)


def test_spec6_6_a_routed_unit_retreats_and_the_rest_decide_the_winner():
    s = _battle()
    s.apply("fire:0h1r")                                                # S11 routed: Sparta has no unit left
    assert s.step_name() == "retreat" and s.current_player() == SPA
    assert _names(s) == ["to:LA12"]                                     # Attica holds enemies
    s.apply("to:LA12")
    obj = s.to_json()
    assert obj["prestige"] == -1 and obj["blocks"]["S11"]["area"] == "LA12"


def test_spec6_4_breaking_off_after_a_round():
    s = _battle()
    s.apply("fire:0h0r")
    s.apply("fire:0h0r")                                                # S11 rolls 4 dice: all miss
    assert s.step_name() == "continue" and s.current_player() == SPA
    s.apply("pass")                                                     # the attacker breaks off
    assert s.step_name() == "retreat" and _names(s) == ["to:LA12"]
    s.apply("to:LA12")
    assert s.to_json()["prestige"] == 0                                 # nobody lost anything: no prestige


def test_spec6_3_letters_fire_in_order_cavalry_first():
    s = _sparta_moves("S11", "S12")                                     # Athens is asked once only
    assert s.step_name() == "fire"
    assert s.to_json()["machine"]["b_firer"] == 31                      # S12 (A2) fires before the C units

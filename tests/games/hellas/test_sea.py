"""Hellas rules: fleets at sea, landing, transport and storms (spec 5.2), naval battles (6.7).

Each test names its rule: spec section and rulebook line (Lnn of the Russian text) where there is one. The
positions start from Spring of 431 with Athens to act first; Athens' elite fleet A6 (E2, 3 steps, speed 4) stands
in Attica (LA10) with the hoplites A1 (4 steps) and A2 (3 steps), the cavalry A4 and the archers A5.
"""
import pytest

from games.hellas.helpers import edit, spring

ATH, SPA = 0, 1


def _athens_to_move(data="431"):
    s = spring(ny=("event:38", "event:36"), data=data)                 # Persian Aid and Athens Raises Taxes
    s.apply("actions:22")
    s.apply("actions:7")                                                # Athens 1 coin: first
    assert s.step_name() == "action" and s.current_player() == ATH
    return s


def _names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def test_spec5_2_fleet_reach_counts_seas_and_lands_on_coasts():
    s = _athens_to_move()
    s.apply("move:LA10")
    s.apply("unit:A6")
    names = _names(s)
    for dest in ("to:SAR", "to:MYR", "to:AEG", "to:IKA", "to:LA28", "to:LA24", "to:LA36"):
        assert dest in names, dest                                      # 4 seas away at most
    assert "to:HEL" in names and "to:LA21" in names                     # EUB, AEG, THR, HEL: 4 seas
    assert "to:GOC" not in names and "to:LA31" not in names             # the Gulf of Corinth is a 5th sea
    assert "to:LA06" not in names                                       # Argolis is neutral (L109)
    assert "to:LA11" not in names                                       # no coast


def test_spec5_2_L223_L225_transport_one_greek_unit_no_bigger_than_the_fleet():
    s = _athens_to_move()
    s.apply("move:LA10")
    s.apply("unit:A6")
    s.apply("to:LA28")
    assert s.step_name() == "cargo"
    names = _names(s)
    assert names[0] == "pass" and "unit:A2" in names and "unit:A4" in names
    assert "unit:A1" not in names                                       # 4 steps > the fleet's 3 (C-09: le)
    s.apply("unit:A2")
    obj = s.to_json()
    assert obj["blocks"]["A6"]["area"] == "LA28" and obj["blocks"]["A2"]["area"] == "LA28"
    assert obj["blocks"]["A2"]["moved"]                                 # no overland move after the voyage


def test_spec10_6_2_designer_cargo_must_have_fewer_steps():
    s = _athens_to_move("431_designer")
    s.apply("move:LA10")
    s.apply("unit:A15")                                                 # E2 fleet, 3 steps
    s.apply("to:LA28")
    names = _names(s)
    assert "unit:A2" not in names and "unit:A12" in names               # CARGO_STEP_RULE = lt: 3 < 3 fails


def test_spec5_2_storm_on_a_hazard_border():
    s = _athens_to_move()
    s.apply("move:LA10")
    s.apply("unit:A6")
    s.apply("to:LA24")                                                  # Ionia: via the AEG-IKA hazard border
    s.apply("pass")                                                     # no cargo
    assert s.step_name() == "storm"
    outcomes = {s.action_to_str(a): p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({"hits:0": 5 / 6, "hits:1": 1 / 6})   # STORM_LOSS_ON: a 1 loses a step
    s.apply("hits:1")
    assert s.to_json()["blocks"]["A6"]["steps"] == 2


def test_spec6_7_naval_battle_by_naval_ratings():
    s = _athens_to_move()

    def change(o):
        o["blocks"]["S9"]["area"] = "SAR"                               # the Corinthian fleet (F2) at sea
    t = edit(s, change)
    t.apply("move:LA10")
    t.apply("unit:A6")
    names = _names(t)
    assert "to:SAR" in names and "to:LA09" not in names                 # it must stop in SAR: no landing beyond
    t.apply("to:SAR")
    t.apply("pass")                                                     # the group ends; Athens has actions left
    while t.step_name() == "action":
        t.apply("pass")
    assert t.step_name() == "fire"
    assert t.to_json()["machine"]["b_firer"] == 5                       # A6 (E2) before the defender's F2
    outcomes = dict(t.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0) and len(outcomes) == 10   # 3 dice, power 2


def test_spec5_3_L229_forced_rowing_one_more_sea_then_the_storm():
    s = _athens_to_move()
    s.apply("move:LA10")
    s.apply("unit:A6")
    s.apply("to:ION")                                                   # SAR, MYR, LAC, ION: its full speed 4
    assert s.step_name() == "forced" and _names(s) == ["pass", "to:GOC", "to:AMB", "to:LAC"]
    s.apply("to:GOC")
    s.apply("march:succeeds")
    assert s.to_json()["blocks"]["A6"]["area"] == "GOC"
    assert s.step_name() == "storm"                                     # Cape Malea (MYR-LAC) was crossed

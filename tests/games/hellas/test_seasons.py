"""Hellas rules with no position test before: the yearly loss of Persian Aid at NY1 (spec 4.2, L314), Winter siege
attrition on 1-3 (4.5 W4, 6.10), the port blockade (6.9.3), garrison recruiting (5.5 d), Famine (L298), Omen
(L302) and Plague Returns (L292).

Each test names its rule: spec section and rulebook line (Lnn of the Russian text).
"""
import pytest

from games.hellas.helpers import edit, spring
from games.hellas.test_year import _step_quietly, _winter

ATH, SPA = 0, 1


def _names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def _until(s, step, player):
    while not (s.step_name() == step and s.current_player() == player):
        s.apply("pass" if "pass" in _names(s) else s.legal_actions()[0])
    return s


def _siege_of_ambracia(o, steps=1):
    """Athens' A13 has besieged Ambracia (S16 inside, with its garrison) since before this turn."""
    o["blocks"]["A13"].update(area="LA33", steps=steps)
    o["blocks"]["S16"]["inside"] = True
    o["control"]["LA33"].update(area="Athens", city="Sparta", besieged=True, fresh=False)


def _next_new_year(s):
    while not (s.to_json()["year"] == 430 and s.step_name() in ("deal", "truce")):
        _step_quietly(s)
    return s


def test_spec4_2_L314_persian_aid_costs_sparta_one_prestige_at_the_tribute():
    aid = _next_new_year(spring(ny=("event:38", "sacrifice:36")))      # Persian Aid in play all year
    plain = _next_new_year(spring())
    assert 38 in aid.to_json()["cards"]["in_play"]
    assert aid.to_json()["prestige"] == plain.to_json()["prestige"] - 1   # Sparta lost PERSIAN_AID_YEARLY


def test_spec4_5_W4_winter_attrition_hits_on_one_to_three():
    s = edit(_winter(431), lambda o: _siege_of_ambracia(o, steps=2))     # A13 keeps a step through the Winter
    s = _until(s, "siege", ATH)
    assert s.to_json()["season"] == "Winter"
    s.apply("attrition:LA33")
    outcomes = {s.action_to_str(a): p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({"hits:0": 0.25, "hits:1": 0.5, "hits:2": 0.25})   # 2 dice, 1-3 hits


def test_spec6_9_3_a_port_must_be_blockaded_for_attrition():
    def change(o, fleet):
        o["blocks"]["A13"]["area"] = "LA34"                             # Leucas (port, offshore AMB) besieged
        o["blocks"]["S15"]["inside"] = True
        o["control"]["LA34"].update(area="Athens", city="Sparta", besieged=True, fresh=False)
        if fleet:
            o["blocks"]["A9"]["area"] = "AMB"                           # an Athenian fleet blockades it
    for fleet in (False, True):
        s = spring(ny=("event:38", "event:36"))
        s.apply("actions:22")
        s.apply("actions:7")
        s = edit(s, lambda o: change(o, fleet))
        s.apply("pass")
        assert s.step_name() == "siege"
        assert ("attrition:LA34" in _names(s)) == fleet and "assault:LA34" in _names(s)


def test_spec5_5_L242_a_garrison_in_an_occupied_enemy_city():
    def change(o):
        o["blocks"]["A13"]["area"] = "LA33"
        o["blocks"]["S16"]["area"] = "LA34"
        o["cities"]["LA33"]["held_by"] = "Athens"                       # Athens took Ambracia
        o["control"]["LA33"].update(area="Athens", city="Athens", besieged=False)
    s = spring(ny=("event:38", "event:36"))
    s.apply("actions:22")
    s.apply("actions:7")
    s = edit(s, change)
    assert "garrison:LA33" in _names(s)
    s.apply("garrison:LA33")
    assert s.to_json()["cities"]["LA33"]["garrison"] == "Athens"
    assert "garrison:LA33" not in _names(s)                            # GARRISON_MAX_PER_CITY = 1


def test_spec9_4_L298_famine_attrition_hits_on_one_or_two():
    s = spring(athens=(3, 7, 16, 19, 22, 36), sparta=(5, 9, 25, 28, 34, 38))
    s = edit(s, _siege_of_ambracia)
    s.apply("actions:5")
    s.apply("event:22")                                                 # Famine: Athens goes first (0)
    assert s.step_name() == "event-target" and _names(s) == ["target:LA33"]
    s.apply("target:LA33")
    assert s.step_name() == "siege" and "assault:LA33" not in _names(s)   # an event turn: attrition only (L263)
    s.apply("attrition:LA33")
    outcomes = {s.action_to_str(a): p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({"hits:0": 4 / 9, "hits:1": 4 / 9, "hits:2": 1 / 9})   # 2 dice, 1-2 hits


def test_spec9_4_L302_omen_stops_the_enemy_engaging():
    s = spring(athens=(3, 7, 16, 19, 28, 36), sparta=(5, 9, 22, 25, 34, 38))
    s.apply("actions:5")
    s.apply("event:28")                                                 # Omen, Athens first
    s = _until(s, "action", SPA)
    s.apply("move:LA12")
    s.apply("unit:S11")
    assert "to:LA11" not in _names(s) and "to:LA14" in _names(s)        # Plataea holds A11: no engaging


def test_spec9_4_L292_plague_returns_strikes_any_city_but_spares_cadres():
    s = spring(athens=(3, 7, 8, 16, 19, 36), sparta=(5, 9, 22, 25, 34, 38))
    s = edit(s, lambda o: o["machine"].update(plague_struck=1))        # Plague Strikes came earlier
    s.apply("actions:5")
    s.apply("event:8")
    assert "target:LA01" in _names(s)
    before = {b: s.to_json()["blocks"][b]["steps"] for b in ("S1", "S2", "S3", "S5")}
    s.apply("target:LA01")                                              # Sparta itself
    after = s.to_json()["blocks"]
    assert {b: after[b]["steps"] for b in before} == {b: n - 1 for b, n in before.items()}

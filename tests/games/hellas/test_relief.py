"""Hellas rules: narrow straits (spec 6.7), relief battles with the sally before round 1 (6.12), the combat order
with sieges ranked among the battles (4.4, 6.1) and Winter refuge moves with transport (5.8).

Each test names its rule: spec section and rulebook line (Lnn of the Russian text). The positions start from
Spring of 431 with Athens to act first (Athens Raises Taxes and Pericles: three actions); Athens' elite fleet A9
(E2, 2 steps, sea speed 4) and Sparta's Leucadian fleet S15 (F1, 1 step) are placed where each test needs them.
"""
from games.hellas.helpers import edit, spring

ATH, SPA = 0, 1


def _athens_to_move(change):
    s = spring(ny=("event:38", "event:36"))                             # Persian Aid and Athens Raises Taxes
    s.apply("actions:22")
    s.apply("actions:7")                                                # Athens 1 coin: first
    s = edit(s, change)
    assert s.step_name() == "action" and s.current_player() == ATH
    return s


def _names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def _to_battle(s):
    while s.step_name() in ("action", "move-unit", "cargo", "withdraw", "forced"):
        s.apply("pass")
    assert s.step_name() == "fire"
    return s


def _firers(s, n):
    """The first n units to fire, each rolling no hit (fire:0h0r)."""
    out = []
    ids = list(s.to_json()["blocks"])
    for _ in range(n):
        out.append(ids[s.to_json()["machine"]["b_firer"]])
        s.apply("fire:0h0r")
    return out


def _fleet_attack(start, sea):
    """A9 sails from `start` into `sea`, where S15 waits; the naval battle begins."""
    def change(o):
        o["blocks"]["A9"]["area"] = start
        o["blocks"]["S15"]["area"] = sea
    s = _athens_to_move(change)
    s.apply(f"move:{start}")
    s.apply("unit:A9")
    s.apply(f"to:{sea}")
    return _to_battle(s)


def test_spec6_7_L97_strait_defender_fires_first_in_round_one_at_sea():
    s = _fleet_attack("LA31", "ION")                                    # from the Gulf of Corinth across Rhium
    assert s.to_json()["blocks"]["A9"]["strait"]
    assert _firers(s, 2) == ["S15", "A9"]                               # F1 before E2: the strait (L97)
    s.apply("yes")                                                      # round 2: both fight on
    s.apply("yes")
    assert _firers(s, 2) == ["A9", "S15"]                               # letters again: E before F


def test_spec6_7_L97_no_strait_crossed_the_letters_decide():
    s = _fleet_attack("LA35", "ION")                                    # from Corcyra: straight out into ION
    assert not s.to_json()["blocks"]["A9"]["strait"]
    assert _firers(s, 2) == ["A9", "S15"]


def _landing(dest, cargo=True):
    """A9 sails from Corcyra with the Corcyraean hoplites A13 (C2) and lands in `dest`, where S15 (D1 on land)
    stands; S15 fires as D1, A13 as C2, A9 as D1."""
    def change(o):
        o["blocks"]["A9"]["area"] = "LA35"
        o["blocks"]["S15"]["area"] = dest
        o["blocks"]["S16"]["area"] = "LA34"
        o["blocks"]["A14"]["area"] = "LA31"                             # Acarnania's own unit stays out of it
    s = _athens_to_move(change)
    s.apply("move:LA35")
    s.apply("unit:A9")
    s.apply(f"to:{dest}")
    assert s.step_name() == "cargo"
    s.apply("unit:A13" if cargo else "pass")
    return _to_battle(s)


def test_spec6_7_L97_landing_across_a_strait_defender_first():
    s = _landing("LA33")                                                # Ambracia: its coast is AMB, behind Actium
    assert s.to_json()["blocks"]["A13"]["strait"]                       # the cargo landed with its fleet
    assert _firers(s, 3) == ["S15", "A13", "A9"]


def test_spec6_7_L97_landing_from_an_open_sea_letters_decide():
    s = _landing("LA32")                                                # Acarnania also coasts on ION
    assert not s.to_json()["blocks"]["A13"]["strait"]
    assert _firers(s, 3) == ["A13", "S15", "A9"]                        # C before D; the defender first on D


def _relief(sally):
    """Sparta's S11 (C2, 4 steps) besieges Plataea, where Athens' A11 (C2) is shut inside; Athens' cavalry A4 (A1)
    rides from Attica to relieve it. Before round 1 Athens decides whether A11 sallies (spec 6.12)."""
    def change(o):
        o["blocks"]["A11"]["inside"] = True
        o["blocks"]["S11"]["area"] = "LA11"
        o["control"]["LA11"].update(area="Sparta", city="Athens", besieged=True)
    s = _athens_to_move(change)
    s.apply("move:LA10")
    s.apply("unit:A4")
    s.apply("to:LA11")
    while s.step_name() in ("action", "move-unit"):
        s.apply("pass")
    assert s.step_name() == "sally" and s.current_player() == ATH
    assert _names(s) == ["pass", "sally:LA11"]
    s.apply("sally:LA11" if sally else "pass")
    return s


def test_spec6_12_L76_relief_battle_the_besieged_sally_before_round_one():
    s = _relief(sally=True)
    assert _firers(s, 2) == ["A4", "S11"]                               # A before C; S11 the defender on C
    assert s.to_json()["machine"]["b_firer"] == list(s.to_json()["blocks"]).index("A11")   # A11 fires as C2
    s.apply("fire:1h0r")
    assert s.to_json()["blocks"]["S11"]["steps"] == 3                   # a sally unit's hit counts like any


def test_spec6_12_L76_a_routed_sally_unit_goes_back_inside():
    s = _relief(sally=True)
    s.apply("fire:0h0r")                                                # A4 misses
    s.apply("fire:0h1r")                                                # S11 routs one of the two: Athens picks
    assert s.step_name() == "rout" and _names(s) == ["unit:A4", "unit:A11"]
    s.apply("unit:A11")
    assert s.step_name() == "continue" and s.current_player() == ATH    # A11 (routed) does not fire
    s.apply("pass")                                                     # Athens breaks off: A4 retreats
    assert s.step_name() == "retreat" and s.to_json()["machine"]["r_unit"] == list(s.to_json()["blocks"]).index("A4")
    s.apply("to:LA10")
    obj = s.to_json()
    assert obj["blocks"]["A11"]["area"] == "LA11" and obj["blocks"]["A11"]["inside"]   # back inside, not away
    assert obj["control"]["LA11"]["besieged"]                           # the siege goes on


def test_spec6_12_L76_relief_battle_without_the_sally():
    s = _relief(sally=False)
    assert _firers(s, 2) == ["A4", "S11"]
    assert s.step_name() == "continue"                                  # A11 stayed inside: it does not fire
    assert s.to_json()["blocks"]["A11"]["inside"]


def _siege_and_battle(*movers):
    """Athens' A13 (1 step) has besieged Ambracia (S16 inside, with its garrison: 3 blocks in all) since before
    this turn; now `movers` march from Attica into Boeotia, held by S11 and S12 in the field."""
    def change(o):
        o["blocks"]["A13"]["area"] = "LA33"
        o["blocks"]["S16"]["inside"] = True
        o["control"]["LA33"].update(area="Athens", city="Sparta", besieged=True, fresh=False)
    s = _athens_to_move(change)
    s.apply("move:LA10")
    for unit in movers:
        s.apply(f"unit:{unit}")
        s.apply("to:LA12")
        while s.step_name() == "withdraw":                              # Sparta keeps S11 and S12 in the field
            s.apply("pass")
    while s.step_name() in ("action", "move-unit", "withdraw"):
        s.apply("pass")
    return s


def test_spec4_4_L64_a_smaller_siege_comes_before_a_bigger_battle():
    s = _siege_and_battle("A1", "A2", "A4")                             # the battle: 5 blocks; the siege: 3
    assert s.step_name() == "siege" and _names(s) == ["pass", "attrition:LA33", "assault:LA33"]
    s.apply("attrition:LA33")
    s.apply("hits:0")
    assert s.step_name() == "fire" and s.to_json()["machine"]["b_area"] == 11   # then the battle in Boeotia


def test_spec4_4_L64_a_passed_siege_leaves_the_battle_to_fight():
    s = _siege_and_battle("A1", "A2", "A4")
    s.apply("pass")                                                     # siege combat is optional
    assert s.step_name() == "fire" and s.to_json()["machine"]["b_area"] == 11


def test_spec4_4_L64_the_attacker_orders_a_siege_and_a_battle_of_the_same_size():
    s = _siege_and_battle("A4")                                         # 3 blocks each
    assert s.step_name() == "battle"
    assert _names(s) == ["pass", "attrition:LA33", "battle:LA12", "assault:LA33"]
    s.apply("battle:LA12")
    assert s.step_name() == "fire"


def test_spec5_8_L58_L80_winter_refuge_by_sea_with_transport():
    from games.hellas.test_year import _winter

    def change(o):
        o["blocks"]["A9"]["area"] = "LA07"                              # Achaea: no city, on the Gulf of Corinth
        o["blocks"]["A13"]["area"] = "LA07"
    s = edit(_winter(431), change)
    while not (s.step_name() == "action" and s.current_player() == ATH):
        assert s.to_json()["season"] == "Winter"
        s.apply("pass" if "pass" in _names(s) else s.legal_actions()[0])
    assert "move:LA07" in _names(s)
    s.apply("move:LA07")
    assert _names(s) == ["unit:A9"]                                     # A13 has no friendly city in reach by land
    s.apply("unit:A9")
    assert "to:LA31" in _names(s) and "to:GOC" not in _names(s)         # refuge: a friendly port, not the sea
    s.apply("to:LA31")
    assert s.step_name() == "cargo" and _names(s) == ["pass", "unit:A13"]
    s.apply("unit:A13")
    blocks = s.to_json()["blocks"]
    assert blocks["A9"]["area"] == blocks["A13"]["area"] == "LA31"      # both in Naupactus, no action spent
    assert "supply:LA07" not in _names(s)                               # nothing left to supply there


def test_spec6_10_the_owner_picks_which_tied_besieged_unit_takes_an_attrition_hit():
    def change(o):
        o["blocks"]["A13"]["area"] = "LA33"                             # Athens has besieged Ambracia ...
        o["blocks"]["S16"].update(inside=True, steps=2, revealed=True)  # ... where S16 and S5 (2 steps each,
        o["blocks"]["S5"].update(area="LA33", inside=True, steps=2, revealed=True)   # seen in an earlier battle)
        o["control"]["LA33"].update(area="Athens", city="Sparta", besieged=True, fresh=False)   # are shut in
    s = _athens_to_move(change)
    s.apply("pass")
    assert s.step_name() == "siege"
    s.apply("attrition:LA33")
    s.apply("hits:2")
    assert s.step_name() == "hit" and s.current_player() == SPA and _names(s) == ["unit:S5", "unit:S16"]
    hit = s.str_to_action("unit:S16")
    assert s.action_observation(hit, ATH) != hit                        # Athens sees a hit inside, not on which
    s.apply(hit)                                                        # Sparta's pick among the largest
    assert s.to_json()["blocks"]["S16"]["steps"] == 1
    assert s.step_name() != "hit" and s.to_json()["blocks"]["S5"]["steps"] == 1   # the second hit: S5, the largest
    assert not s.to_json()["blocks"]["S16"]["revealed"]                 # H4: Athens knows a step went, not whose
    assert not s.to_json()["blocks"]["S5"]["revealed"]


def test_spec6_4_the_owner_picks_which_tied_block_takes_a_battle_hit():
    def change(o):
        o["blocks"]["S11"]["steps"] = 2                                 # Boeotia: S11 (C2) and S12 (A2), 2 steps each
    s = _athens_to_move(change)
    s.apply("move:LA10")
    s.apply("unit:A4")
    s.apply("to:LA12")
    s = _to_battle(s)
    assert _firers(s, 1) == ["S12"]                                     # A2 defender first; misses
    s.apply("fire:1h0r")                                                # A4 hits
    assert s.step_name() == "hit" and s.current_player() == SPA and _names(s) == ["unit:S11", "unit:S12"]
    s.apply("unit:S12")
    assert s.to_json()["blocks"]["S12"]["steps"] == 1 and s.step_name() == "fire"


def test_spec6_12_a_state_file_with_a_relief_sally_elsewhere_is_refused():
    import pytest

    from engine.errors import BadStateError
    s = _relief(sally=False)
    obj = s.to_json()
    obj.update(step="sally", current=ATH)
    obj["machine"]["b_area"] = 9                                        # Attica: nobody of Athens inside, no enemy
    with pytest.raises(BadStateError, match="a relief sally at LA10 needs"):
        s.game.state_from_json(obj)


def test_spec6_11_the_owner_picks_which_tied_besieged_unit_loses_a_step_in_an_assault():
    def change(o):
        o["blocks"]["A13"]["area"] = "LA33"                             # Athens has besieged Ambracia with A13
        o["blocks"]["A1"]["area"] = "LA33"                              # and A1 (C2, 4 steps)
        o["blocks"]["S16"].update(inside=True, steps=2)
        o["blocks"]["S5"].update(area="LA33", inside=True, steps=2)
        o["control"]["LA33"].update(area="Athens", city="Sparta", besieged=True, fresh=False)
    s = _athens_to_move(change)
    s.apply("pass")
    s.apply("assault:LA33")
    assert _firers(s, 2) == ["S5", "S16"]                               # the besieged fire as A2, first
    assert s.step_name() == "fire" and s.to_json()["machine"]["b_firer"] == -2   # the garrison fires last of A
    s.apply("fire:0h0r")
    assert list(s.to_json()["blocks"])[s.to_json()["machine"]["b_firer"]] == "A1"
    s.apply("fire:2h0r")                                                # 2 hits: one step through double defence
    assert s.step_name() == "hit" and s.current_player() == SPA and _names(s) == ["unit:S5", "unit:S16"]
    s.apply("unit:S5")
    assert s.to_json()["blocks"]["S5"]["steps"] == 1 and s.to_json()["blocks"]["S16"]["steps"] == 2

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


# --- siege assault (spec 6.11) ------------------------------------------------------------------------------------

ATHENS = (3, 7, 18, 19, 27, 36)                                         # holds neither Treachery #16 nor #25

def _besieging(sparta, civil_war=False):
    """Spring, before the card choice: Sparta's S1 (B2, 4 steps) has besieged empty Amphipolis (LA18, garrison only)
    since before this turn."""
    from games.hellas.helpers import edit
    s = spring(athens=ATHENS, sparta=sparta, ny=("event:38", "event:36"))

    def change(o):
        o["blocks"]["S1"]["area"] = "LA18"
        o["control"]["LA18"] = {"area": "Sparta", "city": "Athens", "besieged": True, "fresh": False}
        o["cities"]["LA18"]["civil_war"] = civil_war
    return edit(s, change)


def _to_sparta_sieges(s):
    while s.step_name() == "event-target":
        s.apply("target:LA18")
    while not (s.step_name() == "siege" and s.current_player() == SPA):
        s.apply("pass")
    return s


def _assault_position(civil_war=False, treachery=False):
    """Sparta's Battle phase after its actions (or, with treachery, after playing Treachery #16 on LA18)."""
    s = _besieging((5, 9, 16, 28, 34, 38), civil_war)
    s.apply("event:16" if treachery else "actions:28")
    s.apply("actions:7")
    return _to_sparta_sieges(s)


def test_spec6_11_assault_the_garrison_fires_as_a2_and_hits_are_halved():
    s = _assault_position()
    assert "assault:LA18" in _names(s) and "attrition:LA18" in _names(s)
    s.apply("assault:LA18")
    assert s.to_json()["machine"]["b_firer"] == -2                      # the garrison fires first (A2, defender)
    assert {s.action_to_str(a): p for a, p in s.chance_outcomes()} == pytest.approx(
        {"fire:0h0r": 2 / 3, "fire:1h0r": 1 / 3})                      # 1 die, hits on 1-2, no routs
    s.apply("fire:0h0r")
    s.apply("fire:1h0r")                                                # S1: one hit, banked (double defence)
    assert s.step_name() == "continue" and s.to_json()["cities"]["LA18"]["held_by"] is None
    s.apply("yes")                                                      # round 2
    s.apply("fire:0h0r")
    s.apply("fire:1h0r")                                                # the second hit takes the garrison
    obj = s.to_json()
    assert obj["cities"]["LA18"]["held_by"] == "Sparta" and obj["prestige"] == 2       # CAPTURE_PRESTIGE


def test_spec6_11_L312_civil_war_loses_double_defence():
    s = _assault_position(civil_war=True)
    s.apply("assault:LA18")
    s.apply("fire:0h0r")
    s.apply("fire:1h0r")                                                # one hit is one step: the city falls
    assert s.to_json()["cities"]["LA18"]["held_by"] == "Sparta"


def test_spec6_11_L294_treachery_one_round_then_retreat():
    s = _assault_position(treachery=True)
    assert _names(s) == ["pass", "attrition:LA18", "assault:LA18"]
    s.apply("assault:LA18")
    s.apply("fire:0h0r")
    s.apply("fire:0h0r")                                                # no hit in the one round: it failed
    assert s.step_name() == "retreat" and s.current_player() == SPA     # the assaulters must retreat
    s.apply(s.legal_actions()[0])
    assert s.to_json()["blocks"]["S1"]["area"] != "LA18"


def test_spec4_4_L263_no_assault_after_an_ordinary_event():
    s = _besieging((5, 9, 22, 28, 25, 38))
    s.apply("event:25")                                                 # Earthquake: an event turn
    s.apply("actions:7")
    s = _to_sparta_sieges(s)
    assert _names(s) == ["pass", "attrition:LA18"]


def test_spec6_12_W3_sally_from_a_besieged_city_and_back_inside():
    from games.hellas.helpers import edit
    from games.hellas.test_year import _winter
    s = _winter(431)

    def change(o):
        o["blocks"]["A11"]["inside"] = True                             # Plataea's hoplites shut in ...
        o["blocks"]["S11"]["area"] = "LA11"                             # ... by Boeotia's
        o["control"]["LA11"] = {"area": "Sparta", "city": "Athens", "besieged": True, "fresh": False}
    s = edit(s, change)
    while not (s.step_name() == "sally" and s.current_player() == ATH):
        assert s.to_json()["season"] == "Winter"
        s.apply("pass" if "pass" in _names(s) else s.legal_actions()[0])
    assert _names(s) == ["pass", "sally:LA11"]
    s.apply("sally:LA11")
    assert s.step_name() == "fire" and s.to_json()["machine"]["b_firer"] == 30   # S11 defends: fires first
    s.apply("fire:0h1r")                                                # A11 routed ...
    obj = s.to_json()
    assert obj["blocks"]["A11"]["inside"] and obj["blocks"]["A11"]["area"] == "LA11"   # ... back inside
    assert obj["prestige"] == 1                                         # Sparta won the sally


def _attriting():
    """Sparta attrites Athens' Megara (LA18, its garrison alone inside): the chance node of the attrition dice."""
    s = _assault_position()
    s.apply("attrition:LA18")
    assert s.step_name() == "attrition" and s.to_json()["machine"]["att_area"] == 17
    return s


def _machine(field, value):
    return lambda o: o["machine"].update({field: value})


def _assaulting():
    """Sparta assaults Megara (LA18): the garrison's dice (spec 6.11)."""
    s = _assault_position()
    s.apply("assault:LA18")
    assert s.step_name() == "fire" and s.to_json()["machine"]["b_kind"] == 1
    return s


@pytest.mark.parametrize("position, change, message", [
    ("siege", _machine("att_area", 17), "machine.att_area = 17 at step siege: it is set only at attrition, hit"),
    ("siege", _machine("wd_area", 17), "machine.wd_area = 17 at step siege: it is set only at withdraw"),
    ("siege", _machine("march_to", 17), "machine.march_to = 17 at step siege: it is set only at march"),
    ("attrition", _machine("att_area", -1), "machine.att_area = -1 at step attrition, which needs it set"),
    ("attrition", _machine("att_area", 9), "machine.att_area: LA10 is no siege of the active player's"),
    ("attrition", _machine("att_dice", 0), "machine.att_dice = 0: the siege of LA18 rolls or takes 1 to"),
    ("attrition", _machine("sieged", 0), "machine.sieged: the siege of LA18 under attrition is not marked"),
    ("siege", lambda o: o["control"]["LA10"].update(besieged=True), "control.LA10.besieged: a besieged city is held"),
    ("siege", lambda o: o["control"]["LA10"].update(fresh=True), "control.LA10.fresh: only a besieged city"),
    ("siege", lambda o: o["blocks"]["S1"].update(routed=True), "blocks.S1.routed: a block is routed only in the battle"),
    ("assault", _machine("b_att", -1), "machine.b_att = -1 at step fire, which needs it set"),
    ("assault", _machine("b_area", 9), "machine.b_kind = 1 .an assault. needs machine.b_area to be a besieged"),
    ("siege", _machine("b_kind", 2), "machine.b_kind = 2 at step siege: it is set only at fire"),
])
def test_spec6_10_a_state_file_with_turn_machinery_outside_its_step_is_refused(position, change, message):
    """Spec 6.10 siege attrition (and the steps of 5.4 withdrawal, 5.3 forced march, 6.1-6.6 battle): the
    machine's fields of one step are set at that step only, att_area names a siege its active player attrites and
    an assault (6.11) a besieged city; spec 6.9.1: a city is besieged by the side controlling its area. Found by
    the state fuzz: an att_area left at another step later attrited a city nobody besieged, which fell to the
    enemy with its own blocks inside; a city marked besieged by its own side was attrited by its holder; a block
    left routed after its battle, or an assault on a sea, broke later states."""
    from engine.errors import BadStateError
    s = {"siege": _assault_position, "attrition": _attriting, "assault": _assaulting}[position]()
    obj = s.to_json()
    change(obj)
    with pytest.raises(BadStateError, match=message):
        s.game.state_from_json(obj)


def _treachery_retreat():
    """A failed Treachery assault on Megara (L294): Sparta's assaulters routed, to retreat."""
    s = _assault_position(treachery=True)
    s.apply("assault:LA18")
    s.apply("fire:0h0r")
    s.apply("fire:0h0r")
    assert s.step_name() == "retreat"
    return s


def _treachery_fire():
    s = _assault_position(treachery=True)
    s.apply("assault:LA18")
    assert s.step_name() == "fire" and s.to_json()["machine"]["b_kind"] == 2
    return s


@pytest.mark.parametrize("position", [_assaulting, _treachery_fire])
def test_spec6_11_a_block_routed_in_an_assault_is_refused(position):
    """Spec 6.11: an assault ignores routs (ASSAULT_ROUTS), so no block in one is routed while it is fought; found by
    the state fuzz at 1,500 mutants (seed 13): a routed flag set in an assault outlived it, and the next battle's
    state was refused."""
    from engine.errors import BadStateError
    s = position()
    obj = s.to_json()
    obj["blocks"]["S1"]["routed"] = True
    with pytest.raises(BadStateError, match="blocks.S1.routed: no block can be routed there in this combat"):
        s.game.state_from_json(obj)


def test_spec6_11_L294_the_routed_assaulters_of_a_failed_treachery_are_a_real_state():
    """L294: after a failed Treachery assault the attacker's field blocks are routed and retreat; that state loads."""
    s = _treachery_retreat()
    obj = s.to_json()
    assert obj["blocks"]["S1"]["routed"] and not obj["blocks"]["S1"]["inside"]
    assert s.game.state_from_json(obj).to_json() == obj


def test_spec4_4_a_state_file_with_no_active_player_in_a_player_turn_is_refused():
    """Spec 4.4: from the first action to the last battle a player turn has its player (machine.active); found by
    the state fuzz: a turn without one was accepted and later reached a chance node with no outcome."""
    from engine.errors import BadStateError
    s = spring()
    s.apply("actions:5")
    s.apply("actions:25")
    if s.step_name() == "favour":
        s.apply("pass")
    assert s.step_name() == "action" and s.current_player() == SPA
    obj = s.to_json()
    obj["machine"]["active"] = -1
    with pytest.raises(BadStateError, match="machine.active = -1 at step action, which needs it set"):
        s.game.state_from_json(obj)

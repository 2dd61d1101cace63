"""Spec section 4 (round and turn structure) and section 3 (set-up)."""
import json
import shutil

import pytest

from engine.registry import load_game
from .helpers import G, edit, fresh, names, play, player, set_round, clear_units


def test_3_setup_pieces_and_tracks_L79_L106():
    """Spec 3 (L79-L106, L201): start poleis, units, tracks 4/3, supplies 26/23 cubes and 22 discs."""
    j = fresh().to_json()
    assert j["poleis"]["Sparta"] == {"owner": "sparta", "pop": 4, "siege": {"athens": 0, "sparta": 0}}
    assert j["poleis"]["Athens"]["pop"] == 5 and j["poleis"]["Chios"]["pop"] == 2
    assert j["regions"]["Laconia"]["sparta"] == 3 and j["regions"]["Ionia"]["athens"] == 2
    assert j["seas"]["Myrtoan"]["sparta"] == 2 and j["seas"]["Cyclades"]["athens"] == 2
    a, s = j["players"]["athens"], j["players"]["sparta"]
    assert (a["prestige"], a["silver"], a["wheat"], s["silver"], s["wheat"]) == (3, 0, 4, 4, 0)
    assert (s["cubes"], a["cubes"], s["discs"], a["discs"]) == (26, 23, 22, 22)
    assert (a["merchants"], a["merchants_on_port"]) == (7, 1)


def test_3_setup_display_is_three_chance_draws_L128():
    """Spec 3.4C (L128): 3 of the 14 tiles drawn at random face up; each draw is a uniform chance node."""
    s = G.new_initial_state()
    outs = s.chance_outcomes()
    assert len(outs) == 14 and abs(sum(p for _, p in outs) - 1) < 1e-12
    play(s, "draw:Zeus", "draw:Skene")
    assert len(s.chance_outcomes()) == 12
    s.apply("draw:Socrates")
    assert s.to_json()["phase"] == "event-stack" and sorted(s.to_json()["projects"]["display"]) == ["Skene", "Socrates", "Zeus"]


def test_4_1_event_stack_dealt_face_down_one_per_pile_L129():
    """Spec 3.4D / 4.1 (L129, L165): one card of each letter is dealt face down (a chance node hidden from both);
    the alpha card is revealed at the start of round 1, the others stay hidden."""
    s = play(G.new_initial_state(), "draw:Zeus", "draw:Skene", "draw:Socrates")
    outs = [s.action_to_str(a) for a, _ in s.chance_outcomes()]
    assert len(outs) == 8 and all(o.startswith("event:alpha-") for o in outs)
    assert s.action_observation(s.chance_outcomes()[0][0], 0) < 0        # nobody sees the deal
    play(s, "event:alpha-2", "event:sigma-5")
    assert all(s.action_to_str(a).startswith("event:omega-") for a, _ in s.chance_outcomes())
    s.apply("event:omega-3")
    obs = s.observation(1)
    assert obs["events"]["stack"] == ["alpha-2", "face-down", "face-down"]
    assert s.to_json()["events"]["stack"] == ["alpha-2", "sigma-5", "omega-3"]
    other = s.determinize(0, 3)
    assert other.info_key(0) == s.info_key(0) and other.observation(0) == s.observation(0)


def test_4_1_first_player_round_one_is_sparta_L167():
    """Spec 4.1 (L167): in round 1 Sparta takes the first turn."""
    assert fresh().current_player() == 1


def _events_dir(tmp_path, effects):
    """A data directory holding only events.json: its files replace the built-in ones (spec 10, data option)."""
    from engine.games.polis.data import DATA_DIR
    shutil.copy(DATA_DIR / "events.json", tmp_path / "events.json")
    ev = json.loads((tmp_path / "events.json").read_text())
    ev["piles"]["alpha"][0]["effects"] = effects
    (tmp_path / "events.json").write_text(json.dumps(ev))
    return load_game("polis", data=str(tmp_path))


def test_4_1_event_effects_are_data_driven_L165_L237(tmp_path):
    """Spec 4.1 / 9.2 (L165, L237): a card text added as data: per-side and shared effects, first player."""
    game = _events_dir(tmp_path, [
        {"side": "athens", "op": "resource", "resource": "silver", "amount": 2},
        {"side": "sparta", "op": "prestige", "amount": 2},
        {"side": "both", "op": "resource", "resource": "wheat", "amount": 1},
        {"side": "athens", "op": "first_player"},
        {"side": "sparta", "op": "block_action", "action": 9},
        {"side": "athens", "op": "units", "area": "Boeotia", "amount": 2},
        {"side": "sparta", "op": "population", "polis": "Pylos", "amount": 1},
    ])
    s = fresh(game=game)
    j = s.to_json()
    a, sp = j["players"]["athens"], j["players"]["sparta"]
    assert (a["silver"], a["wheat"], sp["prestige"], sp["wheat"]) == (2, 5, 5, 1)
    assert s.current_player() == 0                       # first_player overrides L167
    assert j["blocked"]["sparta"] == ["trade"]
    assert j["regions"]["Boeotia"]["athens"] == 2 and a["cubes"] == 21
    assert j["poleis"]["Pylos"]["pop"] == 3


def test_4_1_event_negative_prestige_loses_L207(tmp_path):
    """Spec 8.1 (L207) through an event: prestige below 0 loses at once."""
    game = _events_dir(tmp_path, [{"side": "sparta", "op": "prestige", "amount": -4}])
    s = fresh(game=game)
    assert s.is_terminal() and s.returns() == [1.0, 0.0]


def test_4_2_second_action_must_differ_L169():
    """Spec 4.2 (L169): the second action of a turn is of a different type; passing is still possible."""
    s = play(fresh(), "tribute", "tribute:Laconia", "alloc:iron=3,silver=0")
    opts = names(s)
    assert "tribute" not in opts and "pass" in opts and "train" in opts
    assert s.current_player() == 1


def test_4_2_turn_of_two_actions_passes_to_opponent_L169():
    """Spec 4.2: after 2 actions the turn passes to the opponent."""
    s = play(fresh(), "tribute", "tribute:Laconia", "alloc:iron=3,silver=0", "proxenos", "proxenos-to:Gytheion")
    assert s.current_player() == 0 and s.to_json()["flow"]["acts"] == 0


def test_4_3_pass_after_first_action_then_solo_surcharge_L175():
    """Spec 4.3 (L175-177): pass after action 1; the other player then acts alone, paying 1 resource per action,
    and may repeat an action type."""
    s = play(fresh(), "tribute", "tribute:Laconia", "alloc:iron=3,silver=0", "pass")
    j = s.to_json()
    assert j["passed"] == [False, True] and j["flow"]["first_passer"] == 1 and s.current_player() == 0
    play(s, "tribute")
    assert s.to_json()["phase"] == "surcharge"
    assert names(s) == ["surcharge:iron", "surcharge:wood", "surcharge:wine", "surcharge:wheat"]   # no silver
    before = player(s, "athens")["wine"]
    play(s, "surcharge:wine", "tribute:Attica", "alloc:wine=3")
    assert player(s, "athens")["wine"] == before - 1 + 6      # Attica wine column, 3 hoplites (data) -> 6
    s.apply("tribute")                                         # the same action again (L175)
    assert s.to_json()["phase"] == "surcharge"


def test_4_3_surcharge_not_payable_with_prestige_L175():
    """Spec 4.3: the surcharge is a resource, never prestige: with no resources no action is open."""
    s = play(fresh(), "pass")

    def broke(j):
        for r in ("iron", "wood", "wine", "silver", "wheat"):
            j["players"]["athens"][r] = 0
    s = edit(s, broke)
    assert names(s) == ["pass"]


def test_4_3_round_ends_when_both_pass_L179():
    """Spec 4.3 (L179): when both have passed, the end of round runs (food etc.) and round 2 begins."""
    s = play(fresh(), "pass", "pass")
    j = s.to_json()
    # Sparta (0 wheat, 7 population) must decide how to cover food (L636)
    assert j["phase"] == "food" and j["active"] == "sparta"


def _sigma_battle_setup(j):
    set_round(j, "sigma")
    j["regions"]["Boeotia"]["athens"] = 4
    j["regions"]["Boeotia"]["sparta"] = 3
    j["regions"]["Megaris"]["sparta"] = 1
    j["players"]["sparta"]["prestige"] = 5


def test_4_2_battle_check_at_end_of_turn_L171():
    """Spec 4.2 / 6.1 (L171): at the end of a turn an area with 8+ cubes has a battle; Sparta attacks on land."""
    s = edit(fresh(), _sigma_battle_setup)
    play(s, "move-hoplites", "to:Boeotia", "from:Megaris")
    assert s.to_json()["battle"] is None                  # not mid-turn
    s.apply("pass")                                        # the passer's turn still ends with a check (L175)
    j = s.to_json()
    assert j["phase"] == "retreat" and j["battle"]["area"] == "Boeotia" and j["battle"]["attacker"] == "sparta"


def test_4_3_no_battle_checks_in_solo_phase_then_all_fire_L575():
    """Spec 4.3 / 6.1 (L175, L575): no checks while one player acts alone; all battles fire after the 2nd pass."""
    s = edit(fresh(), _sigma_battle_setup)
    s.apply("pass")                                        # Sparta passes first
    s = edit(s, lambda j: j["regions"]["Boeotia"].update(sparta=4) or j["regions"]["Megaris"].update(sparta=0))
    assert s.current_player() == 0
    play(s, "tribute", "surcharge:iron", "tribute:Attica", "alloc:wine=3")  # a solo action: no battle check
    assert s.to_json()["battle"] is None and s.to_json()["phase"] == "action"
    s.apply("pass")
    assert s.to_json()["battle"]["area"] == "Boeotia"


def test_4_2_active_player_orders_battles_L573():
    """Spec 6.1 (L573): with several battles the player whose turn it is chooses the order."""
    def fn(j):
        _sigma_battle_setup(j)
        j["seas"]["Cyclades"]["athens"] = 4
        j["seas"]["Cyclades"]["sparta"] = 4
        j["seas"]["Sporades"]["athens"] = 0
    s = edit(fresh(), fn)
    play(s, "move-hoplites", "to:Boeotia", "from:Megaris", "pass")
    assert s.to_json()["phase"] == "battle-order" and s.current_player() == 1
    assert names(s) == ["battle:Boeotia", "battle:Cyclades"]
    s.apply("battle:Cyclades")
    assert s.to_json()["battle"]["attacker"] == "athens"       # Athens attacks first at sea (L583)
    assert s.to_json()["pending_battles"] == ["Boeotia"]


def test_11_3_engine_safety_cap_forces_pass():
    """Engine-only cap (spec 11.3, not a rule): after 60 turns in a round only passing is offered."""
    s = edit(fresh(), lambda j: j["turns"].__setitem__(1, 61))
    assert names(s) == ["pass"]


def test_data_files_are_checked_and_replaceable(tmp_path):
    """Spec 10 (every ASSUMED value in data): a broken replacement file is refused with its name and entry."""
    from engine.errors import BadOptionError
    with pytest.raises(BadOptionError, match="events.json.*bad effect"):
        _events_dir(tmp_path, [{"side": "athens", "op": "plague"}])


def test_evaluate_is_a_probability_favouring_the_leader():
    """evaluate(): a heuristic on the returns scale (two values in [0, 1] summing to 1), higher for the leader."""
    s = fresh()
    ev = s.evaluate()
    assert abs(sum(ev) - 1) < 1e-9 and all(0 <= v <= 1 for v in ev)
    rich = edit(s, lambda j: j["players"]["athens"].update(prestige=20))
    assert rich.evaluate()[0] > ev[0] > 0


def test_4_2_no_different_second_action_means_pass_A17():
    """Spec 4.2 (ASSUMED A17): after action 1, if no action of another type is possible, only passing is left."""
    def fn(j):
        for r in ("iron", "wood", "wine", "silver", "wheat"):
            j["players"]["sparta"][r] = 0
        j["players"]["sparta"].update(prestige=0, proxenos="captured")
    s = play(edit(fresh(), fn), "tribute", "tribute:Laconia", "alloc:iron=3,silver=0")
    s = edit(s, lambda j: [j["players"]["sparta"].update({r: 0}) for r in ("iron", "wheat")])
    assert s.to_json()["flow"]["acts"] == 1 and names(s) == ["pass"]

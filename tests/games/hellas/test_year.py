"""Hellas rules: the year (spec 4), card play and initiative (4.2-4.4, 9), actions (5.1, 5.5, 5.6), sieges by
attrition (6.9, 6.10, 6.13), Winter (4.5, 5.7), victory (8.3) and hidden information (7.2, 7.3).

Each test names its rule: spec section and rulebook line (Lnn of the Russian text) where there is one. Positions
are dealt on purpose (helpers.dealt) and edited through to_json / from_json.
"""
import pytest

from engine.errors import BadMoveError, BadStateError, IllegalActionError
from engine.rng import RNG

from games.hellas.helpers import dealt, edit, game, play_random, spring

ATH, SPA = 0, 1


def test_spec3_1_L268_start_leaders_in_play_and_the_deal_is_chance():
    s = game().new_initial_state()
    obj = s.to_json()
    assert obj["leaders"] == {"Athens": 1, "Sparta": 2}                 # EXT-9: Pericles, Archidamos
    assert obj["prestige"] == 0 and obj["year"] == 431 and obj["season"] == "New Year"
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 42 and all(p == pytest.approx(1 / 42) for _, p in outcomes)   # 44 less 2 leaders


def test_spec4_2_L30_six_cards_each_sparta_commits_first_face_down():
    s = dealt()
    obj = s.to_json()
    assert obj["cards"]["Athens"] == [3, 7, 16, 19, 25, 36] and len(obj["cards"]["deck"]) == 30
    a = s.str_to_action("sacrifice:38")
    assert s.action_observation(a, ATH) < 0 and s.action_observation(a, SPA) == a     # L40, L258: face down
    before = s.info_key(ATH)
    other = s.clone()
    s.apply("sacrifice:38")
    other.apply("sacrifice:5")
    assert s.info_key(ATH) == other.info_key(ATH)          # Athens cannot tell Sparta's choices apart
    assert s.info_key(SPA) != other.info_key(SPA)
    assert s.observation(ATH)["commit"]["Sparta"] == "face down" and before != s.info_key(ATH)


def test_spec4_2_L288_starred_events_not_at_new_year_but_in_a_season():
    s = dealt()
    names = [s.action_to_str(a) for a in s.legal_actions()]
    assert "sacrifice:9" in names and "event:9" not in names            # Revolt* (L288)
    assert "event:22" not in names                                      # Famine needs an own siege
    t = spring()
    names = [t.action_to_str(a) for a in t.legal_actions()]
    assert "event:9" in names and "actions:9" in names


def test_spec9_1_L261_colour_limits_who_may_play_the_event():
    s = dealt()
    s.apply("sacrifice:38")
    names = [s.action_to_str(a) for a in s.legal_actions()]            # Athens
    assert "event:36" in names                                          # blue: Athens Raises Taxes
    t = spring(athens=(9, 7, 16, 19, 25, 36), sparta=(5, 3, 22, 28, 34, 38))
    t.apply("actions:5")
    names = [t.action_to_str(a) for a in t.legal_actions()]
    assert "event:9" not in names and "actions:9" in names             # red Revolt: Sparta only


def test_spec4_6_sacrifice_gives_a_favour_for_one_more_action():
    s = spring()
    assert s.to_json()["favours"] == {"Athens": 1, "Sparta": 1}
    s.apply("actions:22")                                               # Sparta: 2 coins, Archidamos [0]
    s.apply("actions:16")                                               # Athens: 1 coin -> goes first
    assert s.step_name() == "favour" and s.current_player() == ATH
    s.apply("yes")
    assert s.to_json()["machine"]["actions"] == 1 + 1 + 1              # coin + Pericles + favour
    assert s.to_json()["favours"]["Athens"] == 0


def test_spec4_3_L42_lower_value_first_event_counts_zero_ties_to_sparta():
    s = spring()
    s.apply("actions:34")                                               # 2 coins
    s.apply("actions:7")                                                # 1 coin
    assert s.to_json()["machine"]["first"] == ATH
    s = spring()
    s.apply("actions:22")                                               # 2 coins
    s.apply("actions:25")                                               # 3 coins
    assert s.to_json()["machine"]["first"] == SPA
    s = spring()
    s.apply("actions:34")                                               # 2 coins
    s.apply("actions:19")                                               # 2 coins: tie
    assert s.to_json()["machine"]["first"] == SPA
    s = spring()
    s.apply("actions:5")                                                # 1 coin
    s.apply("event:25")                                                 # an event counts 0
    assert s.to_json()["machine"]["first"] == ATH


def test_spec4_4_L269_worked_example_two_coins_and_pericles_make_three_actions():
    s = spring(ny=("sacrifice:38", "event:36"))                        # Athens puts Athens Raises Taxes in play
    assert s._actions_for(ATH, 18) == 2 + 1 + 1                         # card 19 (2 coins) + Pericles + ATR (L312)
    t = spring()
    assert t._actions_for(ATH, 18) == 3                                 # L269: 2 coins + Pericles [+1]
    assert t._actions_for(SPA, 21) == 2                                 # Archidamos [0]


def test_spec4_4_L54_an_event_turn_has_no_actions():
    s = spring()
    s.apply("actions:34")
    s.apply("event:25")                                                 # Earthquake: Athens first, no actions
    obj = s.to_json()
    assert obj["machine"]["active"] == SPA and obj["step"] in ("action", "favour")


def test_spec9_4_L300_earthquake_stops_enemy_moves():
    s = spring()
    s.apply("actions:34")
    s.apply("event:25")
    if s.step_name() == "favour":
        s.apply("pass")
    names = [s.action_to_str(a) for a in s.legal_actions()]
    assert not any(n.startswith("move:") or n.startswith("pillage:") for n in names)
    assert "pass" in names


def test_spec9_4_L304_atrocity_costs_the_enemy_two():
    s = spring(athens=(3, 7, 16, 19, 25, 34), sparta=(5, 9, 22, 28, 33, 38), ny=("sacrifice:38", "sacrifice:3"))
    s.apply("actions:22")
    s.apply("event:34")
    assert s.to_json()["prestige"] == -2                                # Sparta lost 2: Athens leads by 2


def test_spec9_2_L270_leader_card_wasted_while_the_side_has_one():
    s = dealt(athens=(3, 7, 16, 19, 25, 36))
    s.apply("sacrifice:38")
    s.apply("event:3")                                                  # Athenian general while Pericles leads
    obj = s.to_json()
    assert obj["leaders"]["Athens"] == 1 and 3 not in obj["cards"]["in_play"]


def test_spec9_4_L296_ostracism_then_a_new_leader():
    s = dealt(athens=(3, 7, 16, 19, 25, 36), sparta=(5, 19 + 1, 22, 28, 34, 38))
    s.apply("event:20")                                                 # Sparta ostracizes...
    s.apply("sacrifice:36")
    assert s.step_name() == "event-target"
    s.apply("ostracize:Athens")                                         # ...Pericles
    assert s.to_json()["leaders"] == {"Athens": None, "Sparta": 2}
    assert s._actions_for(ATH, 18) == 2


def _place(obj, block, area, steps=None, inside=False):
    b = obj["blocks"][block]
    b["area"] = area
    b["inside"] = inside
    if steps is not None:
        b["steps"] = steps


def _athens_to_move():
    """Spring, Athens to spend its actions (both played 2 coins and passed the favour)."""
    s = spring(ny=("event:38", "event:36"))                             # no favours; Persian Aid and ATR in play
    s.apply("actions:22")
    s.apply("actions:7")                                                # Athens 1 coin: first
    assert s.step_name() == "action" and s.current_player() == ATH
    return s


def test_spec5_1_land_moves_stop_on_enemies_and_never_enter_neutral_areas():
    s = spring(ny=("event:38", "event:36"))
    s.apply("actions:5")                                                # Sparta 1 coin: first
    s.apply("actions:25")
    assert s.current_player() == SPA and s.step_name() == "action"
    ids = [a.id for a in s.game.data.areas]
    s1 = next(u.index for u in s.game.data.units if u.id == "S1")
    reach = [ids[a] for a in s._reach(s1)]                              # S1, speed 2, from Laconia
    assert "LA06" not in reach                                          # Argos is neutral (L109)
    assert "LA05" in reach and "LA08" in reach and "LA02" in reach
    s.apply("move:LA01")
    assert s.step_name() == "move-unit"
    assert "pass" not in [s.action_to_str(a) for a in s.legal_actions()]   # an empty group is no move
    s.apply("unit:S1")
    s.apply("to:LA08")
    assert s.step_name() == "forced"                                    # S1 is elite and used its full speed
    s.apply("pass")
    names = [s.action_to_str(a) for a in s.legal_actions()]
    assert "pass" in names and "unit:S1" not in names and "unit:S2" in names   # ascending, each once


def test_spec5_3_L203_forced_march_one_more_area_on_one_to_three():
    s = spring(ny=("event:38", "event:36"))
    s.apply("actions:5")
    s.apply("actions:25")
    s.apply("move:LA01")
    s.apply("unit:S1")
    s.apply("to:LA05")                                                  # only 1 of its 2 areas: no forced march
    assert s.step_name() == "move-unit"
    s.apply("unit:S2")
    s.apply("to:LA08")                                                  # 2 areas: its full speed
    names = [s.action_to_str(a) for a in s.legal_actions()]
    assert names == ["pass", "to:LA05", "to:LA07", "to:LA09"]           # Argolis is neutral
    s.apply("to:LA09")
    assert {s.action_to_str(a): p for a, p in s.chance_outcomes()} == pytest.approx(
        {"march:fails": 0.5, "march:succeeds": 0.5})                    # FORCED_MARCH_SUCCESS 1-3
    s.apply("march:succeeds")
    assert s.to_json()["blocks"]["S2"]["area"] == "LA09"
    s.apply("unit:S5")                                                  # Perioikoi: not elite
    s.apply("to:LA08")
    assert s.step_name() != "forced"



def test_spec5_1_a_unit_moves_once_per_turn():
    s = _athens_to_move()
    s.apply("move:LA10")
    s.apply("unit:A1")
    s.apply("to:LA11")
    s.apply("pass")
    assert s.step_name() == "action"
    s.apply("move:LA11") if "move:LA11" in [s.action_to_str(a) for a in s.legal_actions()] else None
    if s.step_name() == "move-unit":
        assert "unit:A1" not in [s.action_to_str(a) for a in s.legal_actions()]


def test_spec5_6_pillage_gains_the_city_value_once_a_year():
    s = _athens_to_move()
    t = edit(s, lambda o: _place(o, "A4", "LA12"))                       # cavalry in Boeotia (Thebes, value 3) ...
    assert "pillage:LA12" not in [t.action_to_str(a) for a in t.legal_actions()]   # ... held by S11, S12
    t = edit(s, lambda o: _place(o, "A4", "LA14"))                       # in Locris (Opus, value 1), empty
    names = [t.action_to_str(a) for a in t.legal_actions()]
    assert "pillage:LA14" in names
    t.apply("pillage:LA14")
    obj = t.to_json()
    assert obj["prestige"] == -1 and obj["cities"]["LA14"]["pillaged"]
    assert "pillage:LA14" not in [t.action_to_str(a) for a in t.legal_actions()]


def test_spec5_6_no_pillage_with_enemy_field_units_there():
    s = _athens_to_move()
    t = edit(s, lambda o: _place(o, "A4", "LA05"))                       # Arcadia holds S6
    assert "pillage:LA05" not in [t.action_to_str(a) for a in t.legal_actions()]


def test_spec5_5_L169_new_unit_at_one_step_in_a_home_city_and_replacements_at_home():
    s = _athens_to_move()
    names = [s.action_to_str(a) for a in s.legal_actions()]
    assert "recruit:A3" in names                                         # blue hoplites: Athens or Plataea
    assert "recruit:A18" in names                                        # light blue: any subject city
    assert "recruit:A20" not in names                                    # Odrysians: Pericles is in play (L235)
    assert "step:A2" in names and "step:A1" not in names                 # A1 is at full strength
    s.apply("recruit:A3")
    assert s.step_name() == "place"
    s.apply("place:LA11")
    assert s.to_json()["blocks"]["A3"] == {"area": "LA11", "steps": 1, "inside": False, "moved": False,
                                           "raised": False, "revealed": False, "routed": False, "came": None,
                                           "strait": False,     # Sparta can tell only A3 may be raised there
                                           "known": {"could_be": ["A3"], "steps": [1, 1], "steps_from": "absolute"}}


def _sparta_first(ny):
    """Spring: Sparta (1 coin) moves first and has passed its favour."""
    s = spring(ny=ny)
    s.apply("actions:5")
    s.apply("actions:25")
    if s.step_name() == "favour":
        s.apply("pass")
    assert s.step_name() == "action" and s.current_player() == SPA
    return s


def test_spec5_5_L314_persian_units_need_persian_aid():
    s = _sparta_first(("sacrifice:38", "sacrifice:36"))
    names = [s.action_to_str(a) for a in s.legal_actions()]
    assert "recruit:S20" not in names and "recruit:S22" not in names and "recruit:S19" in names
    t = _sparta_first(("event:38", "sacrifice:36"))
    names = [t.action_to_str(a) for a in t.legal_actions()]
    assert "recruit:S20" in names and "recruit:S22" in names


def test_spec5_5_L170_barbarian_full_strength_with_a_free_move():
    s = _sparta_first(("sacrifice:38", "sacrifice:36"))
    s.apply("recruit:S19")
    obj = s.to_json()
    assert obj["blocks"]["S19"]["area"] == "LA16" and obj["blocks"]["S19"]["steps"] == 3
    assert s.step_name() == "move-dest"
    names = [s.action_to_str(a) for a in s.legal_actions()]
    assert "pass" in names and "to:LA15" in names
    s.apply("to:LA15")                                                  # the free move: Sparta's 1 action is spent
    assert s.to_json()["blocks"]["S19"]["area"] == "LA15" and s.current_player() == ATH


def _siege_position():
    """Sparta's S1 besieges empty Amphipolis (LA18, value 2), established before this turn."""
    s = _athens_to_move()

    def change(o):
        _place(o, "S1", "LA18")
        o["control"]["LA18"] = {"area": "Sparta", "city": "Athens", "besieged": True, "fresh": False}
    return edit(s, change)


def test_spec6_9_2_entering_an_empty_enemy_city_lays_siege():
    s = _athens_to_move()
    t = edit(s, lambda o: _place(o, "S1", "LA18"))
    t._recompute()
    c = t.to_json()["control"]["LA18"]
    assert c == {"area": "Sparta", "city": "Athens", "besieged": True, "fresh": True}


def test_spec6_10_attrition_hits_on_one_and_capture_gains_the_value():
    s = _siege_position()
    s.apply("pass")                                                     # Athens passes its actions
    assert s.current_player() == SPA
    s.apply("pass") if s.step_name() == "action" else None
    assert s.step_name() == "siege"
    s.apply("attrition:LA18")
    assert s.chance_outcomes() == [(s.str_to_action("hits:0"), pytest.approx(5 / 6)),
                                   (s.str_to_action("hits:1"), pytest.approx(1 / 6))]   # 1 die (the garrison)
    s.apply("hits:1")
    obj = s.to_json()
    assert obj["cities"]["LA18"]["held_by"] == "Sparta" and obj["prestige"] == 2      # CAPTURE_PRESTIGE


def test_spec6_13_L128_a_captured_city_left_empty_reverts():
    s = _siege_position()

    def change(o):
        o["cities"]["LA18"]["held_by"] = "Sparta"
        o["control"]["LA18"] = {"area": "Sparta", "city": "Sparta", "besieged": False, "fresh": False}
        _place(o, "S1", "LA19")
    t = edit(s, change)
    t._recompute()
    assert t.to_json()["cities"]["LA18"]["held_by"] is None
    assert t.to_json()["control"]["LA18"]["city"] == "Athens"


def _winter(year):
    """The Winter card choice of `year` (BC), reached by passing everything."""
    s = game().new_initial_state()
    while s.to_json()["year"] > year or s.step_name() != "card" or s.to_json()["season"] != "Winter":
        _step_quietly(s)
    return s


def test_spec4_2_L28_tribute_for_enemy_cities_held_then_the_truce_offer():
    s = _winter(431)

    def change(o):
        o["cities"]["LA18"]["held_by"] = "Sparta"                       # Amphipolis, value 2, held by Sparta
        o["control"]["LA18"] = {"area": "Sparta", "city": "Sparta", "besieged": False, "fresh": False}
        _place(o, "S1", "LA18")
        o["prestige"] = 8
    t = edit(s, change)
    while t.step_name() not in ("truce", "deal"):
        _step_quietly(t)
    obj = t.to_json()
    assert obj["year"] == 430 and obj["prestige"] == 10                # NY1: +2 tribute
    assert t.step_name() == "truce" and t.current_player() == SPA      # a lead of 10 may offer a truce
    t.apply("yes")
    assert t.to_json()["prestige"] == 8                                 # it costs 2 (L318)
    outcomes = dict(t.chance_outcomes())
    win = sum(p for a, p in outcomes.items() if int(t.action_to_str(a).split(":")[1]) < 8)
    assert win == pytest.approx(21 / 36)                                # 2d6 below the lead after paying
    t.apply("dice:7")
    assert t.is_terminal() and t.to_json()["winner"] == "Sparta" and t.to_json()["level"] == "truce"


def test_spec8_3_automatic_victory_at_the_victory_check():
    s = _winter(431)
    t = edit(s, lambda o: o.update(prestige=-15))
    while not t.is_terminal() and t.step_name() != "deal":
        _step_quietly(t)
    assert t.is_terminal() and (t.to_json()["winner"], t.to_json()["level"]) == ("Athens", "automatic")


def test_spec8_3_final_accounting_levels():
    for lead, winner, level in ((3, "draw", "draw"), (6, "Sparta", "minor"), (-11, "Athens", "major")):
        s = _final(lead)
        obj = s.to_json()
        assert (obj["winner"], obj["level"]) == (winner, level)
        assert s.returns() == ([0.5, 0.5] if winner == "draw" else [0.0, 1.0] if winner == "Sparta" else [1.0, 0.0])


def _final(lead):
    """Play the last Winter to its end from a position with the given lead and no cities held."""
    t = edit(_winter(422), lambda o: o.update(prestige=lead))
    while not t.is_terminal():
        _step_quietly(t)
    return t


def _step_quietly(s):
    """Advance without changing prestige: first chance outcome, else pass or the first legal action."""
    if s.is_chance_node():
        s.apply(s.chance_outcomes()[0][0])
        return
    legal = s.legal_actions()
    names = [s.action_to_str(a) for a in legal]
    for prefer in ("pass",):
        if prefer in names:
            s.apply(prefer)
            return
    playable = [a for a, n in zip(legal, names) if n.startswith(("actions:", "sacrifice:"))]
    s.apply(playable[0] if playable else legal[0])


def test_spec7_3_determinize_resamples_the_enemy_hand_and_face_down_card():
    s = dealt()
    s.apply("sacrifice:38")
    rng = RNG(3)
    hands = set()
    for _ in range(20):
        d = s.determinize(ATH, rng)
        obj = d.to_json()
        assert obj["cards"]["Athens"] == [3, 7, 16, 19, 25, 36]
        assert len(obj["cards"]["Sparta"]) == 6
        assert obj["commit"]["Sparta"].split(":")[1] in map(str, obj["cards"]["Sparta"])
        assert d.info_key(ATH) == s.info_key(ATH)
        hands.add(tuple(obj["cards"]["Sparta"]))
    assert len(hands) > 10


def test_spec7_2_enemy_blocks_are_counts_until_revealed():
    s = spring()
    obs = s.observation(ATH)
    assert not any(b.startswith("S") for b in obs["blocks"])
    assert obs["unseen_blocks"]["LA01"] == {"field": 5, "inside": 0}
    assert obs["cards"]["Sparta"] == {"count": 5}
    assert "S1 B2 4/4" in s.render(SPA) and "S1 B2" not in s.render(ATH) and "? x5 field" in s.render(ATH)


def test_random_games_end_with_a_result_on_both_data_sets():
    for data in ("431", "431_designer"):
        for seed in range(4):
            s = game(data).new_initial_state()
            play_random(s, seed)
            obj = s.to_json()
            assert obj["winner"] in ("Athens", "Sparta", "draw") and obj["level"] != "none"
            assert sum(s.returns()) == pytest.approx(1.0)


def test_bad_input_names_the_problem():
    s = spring()
    with pytest.raises(BadMoveError, match="'move:LA99' is not a legal move here"):
        s.str_to_action("move:LA99")
    with pytest.raises(IllegalActionError):
        s.apply(9999)
    for change, message in (
            (lambda o: _place(o, "A1", "SAR"), "a land unit cannot stand at sea"),
            (lambda o: _place(o, "A1", "LA06"), "LA06 is neutral"),
            (lambda o: _place(o, "A1", "LA10", steps=5), "steps = 5 is out of range 1..4"),
            (lambda o: o["cards"]["deck"].append(3), "card 3 is in two places"),
            (lambda o: o["blocks"].pop("S5"), "block S5 is missing"),
            (lambda o: _place(o, "S2", "LA10", inside=True), "inside LA10, a city its side does not hold"),
            (lambda o: o.update(season="Midsummer"), "season 'Midsummer' is not one of"),
            (lambda o: o["cities"]["LA11"].update(garrison="Athens"), "keeps its inherent garrison"),
    ):
        with pytest.raises(BadStateError, match=message):
            edit(s, change)

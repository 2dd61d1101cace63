"""Hellas data: the rule keys (spec 10.5), the placeholder map, roster and deck (spec 10.6), the designer's order
of battle (end of 10.6.2), and the loader's checks (spec 10.5.1) with errors that name file, field and problem.

Each test names its rule: spec section and rulebook line (Lnn of the Russian text) where there is one.
"""
import re
import shutil
from collections import deque

import pytest

from engine.errors import BadDataError
from engine.games.hellas import loader

SPEC_KEYS = """HAND_SIZE SEASONS SKIP_FIRST_YEAR_NY1_3 INITIATIVE_VALUE INITIATIVE_TIE NY_EVENT_ORDER EVENTS_IN_WINTER
SACRIFICE_EFFECT FAVOUR_EXTRA_ACTION FAVOUR_REROLL FAVOUR_EXPIRES LEADER_BONUS ATR_ACTION_BONUS
PERSIAN_AID_ACTION_BONUS ACTION_CAP UNUSED_ACTIONS LEADER_WHEN_OCCUPIED GROUP_MOVE MOVE_ONCE_PER_TURN STOP_ON_ENEMY
FLEET_STOPS_ON_LANDING CARGO_PER_FLEET CARGO_STEP_RULE STORM_LOSS_ON FORCED_MARCH_SUCCESS WITHDRAW_INTO_CITY
CITY_CAPACITY RECRUIT_COST NEW_GREEK_UNIT_STEPS BARBARIAN_ARRIVAL BARBARIAN_ONCE_PER_YEAR GARRISON_MAX_PER_CITY
PILLAGE_PRESTIGE PILLAGE_ONCE_PER_CITY_PER_YEAR STACKING_LIMIT SEA_CONTROL BATTLE_ORDER BATTLE_ROUNDS FIRING_ORDER
HIT_RULE ROUT_RULE HIT_TARGET ROUT_TARGET ATTACKER_RETREATS_AFTER_LAST_ROUND NO_RETREAT_ELIMINATES
CAVALRY_RETREAT_INTO_ENEMY_AREA STRAIT_DEFENDER_FIRST_ROUND1 REVEAL_IN_COMBAT BATTLE_WIN_PRESTIGE ELIMINATED_TO_POOL
SIEGE_COMBAT_NEEDS_PRIOR_SIEGE SIEGE_COMBAT_COST FORTIFIED_RATING DOUBLE_DEFENCE_HITS_PER_STEP ASSAULT_ROUNDS
ASSAULT_ROUTS ATTRITION_DICE ATTRITION_HIT_MAX ATTRITION_TARGET PORT_NEEDS_BLOCKADE_FOR_ATTRITION CAPTURE_PRESTIGE
RECAPTURE_PRESTIGE CAPITULATION WINTER_ACTIONS WINTER_REFUGE WINTER_SUPPLY_COST UNSUPPLIED_LOSS BARBARIANS_DISBAND
WINTER_SALLY PRESTIGE_TRACK STARTING_PRESTIGE TRIBUTE PERSIAN_AID_YEARLY NO_QUARTER_YEARLY ATROCITY_LOSS
AUTO_VICTORY_LEAD AUTO_VICTORY_TIMING TRUCE_ENABLED TRUCE_THRESHOLD TRUCE_COST TRUCE_ROLL TRUCE_COMPARE_AFTER_COST
TRUCE_TIMING VICTORY_LEVELS FINAL_ACCOUNTING CAPITAL_CAPTURE_WINS CAPITAL_WIN_REQUIRES_UNITS OPEN_BLOCKS
SIDE_SELECTION""".split()


@pytest.fixture(scope="module")
def data():
    return loader.load("431")


@pytest.fixture(scope="module")
def designer():
    return loader.load("431_designer")


# --- rule keys ----------------------------------------------------------------------------------------------------

def test_spec10_5_every_rule_key_is_in_the_rules_file_with_its_tag(data):
    assert sorted(data.rules) == sorted(SPEC_KEYS) and len(SPEC_KEYS) == 89
    for key in SPEC_KEYS:
        tag, basis, spec = data.rule_tags[key]
        assert re.match(r"^(SRC|EXT-\d+|ASSUMED)$", tag), (key, tag)
        assert re.match(r"^\d+(\.\d+)*", spec), (key, spec)


@pytest.mark.parametrize("key, value, tag", [
    ("HAND_SIZE", 6, "SRC"),                                     # L22, L30
    ("INITIATIVE_TIE", "Sparta", "SRC"),                         # L42
    ("SACRIFICE_EFFECT", "favour", "ASSUMED"),                   # spec 4.6
    ("CARGO_STEP_RULE", "le", "ASSUMED"),                        # C-09
    ("BATTLE_ORDER", "size", "SRC"),                             # L64
    ("ROUT_TARGET", "owner_choice", "ASSUMED"),
    ("ATTRITION_HIT_MAX", {"normal": 1, "famine": 2, "winter": 3}, "EXT-7"),
    ("AUTO_VICTORY_LEAD", 15, "EXT-13"),
    ("TRUCE_THRESHOLD", {"normal": 10, "peace_faction": 5}, "SRC"),   # L316, L318
    ("VICTORY_LEVELS", {"minor": 5, "major": 10}, "EXT-13"),
    ("OPEN_BLOCKS", False, "ASSUMED"),
])
def test_spec10_5_defaults_as_the_spec_gives_them(data, key, value, tag):
    assert data.rules[key] == value
    assert data.rule_tags[key][0] == tag


def test_spec10_6_2_designer_data_set_plays_the_notes_rule_keys(data, designer):
    """End of spec 10.6.2: a carried block must have fewer steps than its fleet; routs go to the smallest block."""
    assert designer.rules["CARGO_STEP_RULE"] == "lt" and designer.rules["ROUT_TARGET"] == "smallest"
    assert data.rules["CARGO_STEP_RULE"] == "le"
    assert {k: v for k, v in designer.rules.items() if data.rules[k] != v} == {
        "CARGO_STEP_RULE": "lt", "ROUT_TARGET": "smallest"}


# --- map ----------------------------------------------------------------------------------------------------------

def test_spec10_6_1_placeholder_map_36_land_12_sea_and_city_values(data):
    land = [a for a in data.areas if not a.sea]
    seas = [a for a in data.areas if a.sea]
    assert len(land) == 36 and len(seas) == 12
    cities = [a for a in land if a.is_city]
    athens = [a.value for a in cities if a.loyalty == "Athens"]
    sparta = [a.value for a in cities if a.loyalty == "Sparta"]
    assert (len(athens), sum(athens)) == (16, 29)
    assert (len(sparta), sum(sparta)) == (13, 22)
    argos = data.area("LA06")
    assert argos.neutral and argos.value == 3
    assert all(a.capacity == 2 * a.value for a in cities)          # L100
    assert data.area("LA34").offshore_sea == "AMB"                  # L144: Leucas' offshore sea


def _land_distance(data, src, dst):
    seen, queue = {src: 0}, deque([src])
    while queue:
        a = queue.popleft()
        for b in data.area(a).neighbours:
            if b not in seen and not data.area(b).neutral:
                seen[b] = seen[a] + 1
                queue.append(b)
    return seen.get(dst)


def test_spec10_6_1_checks_built_into_the_map(data):
    """Sparta to Attica overland is 4 areas (Argos blocks the short way); islands are reached only by sea; an
    elite Athenian fleet from Attica reaches the Icarian Sea across one hazard border."""
    assert _land_distance(data, "LA01", "LA10") == 4
    for island in ("LA25", "LA26", "LA27", "LA28", "LA29", "LA30", "LA34", "LA35", "LA36"):
        assert data.area(island).neighbours == []
    path = ["SAR", "MYR", "AEG", "IKA"]
    assert path[0] in data.area("LA10").coasts
    kinds = [data.area(a).borders[b] for a, b in zip(path, path[1:])]
    assert kinds == ["normal", "normal", "hazard"]


# --- roster and deck ----------------------------------------------------------------------------------------------

def test_spec10_6_2_placeholder_roster_start_forces(data):
    for side, units, steps in (("Athens", 15, 31), ("Sparta", 16, 33)):
        on_map = [u for u in data.units if u.side == side and u.start_area != "pool"]
        assert (len(on_map), sum(u.start_steps for u in on_map)) == (units, steps)
    spartiates = [u for u in data.units if u.id in ("S1", "S2", "S3", "S4")]
    assert [u.max_steps for u in spartiates] == [4, 3, 2, 2]            # EXT-4
    assert all(u.land_rating == "B2" and u.elite for u in spartiates)
    odrysian = next(u for u in data.units if u.special == "odrysian")
    assert odrysian.barbarian and odrysian.home_settlement == "LA19"    # L235, L237


def test_spec10_6_2_designer_order_of_battle(designer):
    """EXT-15: Athens' hoplites C2 4,3,3,2,2,2; infantry B1 4,3,2,2,2; archers A1 2; cavalry A1 2; fleets E2
    4,4,3,3,2,2,2,2; levy fleets F2 4,3,2,2. EXT-16: three Arcadian C2 hoplites 3,2,2."""
    ath = [u for u in designer.units if u.side == "Athens" and not u.barbarian]

    def steps(pred):
        return sorted((u.max_steps for u in ath if pred(u)), reverse=True)
    assert steps(lambda u: u.type == "hoplite" and u.land_rating == "C2") == [4, 3, 3, 2, 2, 2]
    assert steps(lambda u: u.type == "infantry" and u.land_rating == "B1") == [4, 3, 2, 2, 2]
    assert steps(lambda u: u.type == "archers" and u.land_rating == "A1") == [2]
    assert steps(lambda u: u.type == "cavalry" and u.land_rating == "A1") == [2]
    assert steps(lambda u: u.naval_rating == "E2") == [4, 4, 3, 3, 2, 2, 2, 2]
    assert steps(lambda u: u.naval_rating == "F2") == [4, 3, 2, 2]
    arcadians = [u for u in designer.units if u.name.startswith("Arcadian")]
    assert sorted(u.max_steps for u in arcadians) == [2, 2, 3] and all(u.land_rating == "C2" for u in arcadians)


def test_spec10_6_3_placeholder_deck(data):
    assert [c.id for c in data.cards] == list(range(1, 45))            # L255: 431 uses cards 1-44
    values = [c.actions for c in data.cards]
    assert (values.count(1), values.count(2), values.count(3)) == (12, 19, 13)
    assert data.cards[29].event == "civil_war"                          # EXT-9: card #30
    assert data.cards[0].params == {"name": "Pericles", "side": "Athens", "rating": 1}
    assert data.cards[1].params == {"name": "Archidamos", "side": "Sparta", "rating": 0}
    starred = {c.id for c in data.cards if c.ny_forbidden}
    assert starred == {9, 10, 11, 12, 13, 14, 15, 44}                   # L288: revolts and Helot Uprising
    assert data.scenario["leaders"] == {"Athens": 1, "Sparta": 2}


# --- bad data -----------------------------------------------------------------------------------------------------

@pytest.fixture
def copy(tmp_path):
    for f in loader.DATA_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def _edit(path, old, new, count=1):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


@pytest.mark.parametrize("file, old, new, message", [
    ("hellas_rules.toml", "[A.HAND_SIZE]", "[A.HAND_SIZES]", r"hellas_rules.toml: \[A.HAND_SIZES\]: unknown rule "
                                                             r"key \(did you mean HAND_SIZE\?\)"),
    ("hellas_rules.toml", "[C.BATTLE_ROUNDS]", "[B.BATTLE_ROUNDS]", "key BATTLE_ROUNDS belongs to group C, not B"),
    ("hellas_rules.toml", 'value = "le"', 'value = "maybe"', r"\[B.CARGO_STEP_RULE\] value: 'maybe' is not one of "
                                                             "le, lt, max_le"),
    ("hellas_rules.toml", "value = 15", "value = 150", r"\[F.AUTO_VICTORY_LEAD\] value: 150 is out of range 1..99"),
    ("hellas_rules.toml", 'tag = "EXT-13"', 'tag = "GUESS"', "tag: 'GUESS' is not SRC, EXT-n or ASSUMED"),
    ("hellas_rules.toml", "minor = 5, major = 10", "minor = 5", "VICTORY_LEVELS.*must have exactly the fields"),
    ("scenario_431.toml", "[rules]", '[rules]\nROUT_TARGET = "largest"',
     r"scenario_431.toml: \[rules\] ROUT_TARGET: 'largest' is not one of owner_choice, smallest"),
    ("map_land.csv", "LA02;LA05;LA06,ASSUMED", "LA02;LA05;LA06;LA99,ASSUMED",
     r"map_land.csv: row 2 \(LA01\): land_neighbours: 'LA99' is not a land area of map_land.csv"),
    ("map_land.csv", "LA02;LA05;LA06,ASSUMED", "LA02;LA05,ASSUMED",
     "land_neighbours: LA06 lists LA01 but LA01 does not list LA06"),
    ("map_land.csv", "Sparta,4,8", "Sparta,12,24", r"row 2 \(LA01\): value: city value 12 is out of range 1..9"),
    ("map_land.csv", "Sparta,4,8", "Sparta,4,7", r"capacity: 7 is not CITY_CAPACITY x value = 2 x 4"),
    ("map_land.csv", "ION,ION,LA02", "ION,GOC,LA02", r"row 4 \(LA03\): offshore_sea: 'GOC' is not among its coasts"),
    ("map_sea.csv", "ION:normal;MYR:hazard", "ION:normal;MYR:normal", "the LAC-MYR border is normal one way and "
                                                                     "hazard the other"),
    ("map_sea.csv", "LA03;LA04;LA32", "LA03;LA32", "LA04 coasts on ION but ION's coastal_land does not list LA04"),
    ("units_431.csv", "S2,Sparta", "S1,Sparta", r"units_431.csv: block S1 listed two places \(rows 22 and 23\)"),
    ("units_431.csv", "A1,Athens,Athenian hoplites I,blue", "A1,Athens,Athenian hoplites I,cyan",
     r"row 2 \(A1\): nationality: 'cyan' matches no city of the map"),
    ("units_431.csv", "LA10,4,ASSUMED", "LA06,4,ASSUMED", "start_area: LA06 is neutral"),
    ("units_431.csv", "LA10,4,ASSUMED", "LA10,5,ASSUMED", r"start_steps: start steps 5 is out of range 1..4"),
    ("units_431.csv", "A5,Athens,Athenian archers,blue,archers,A1", "A5,Athens,Athenian archers,blue,archers,A4",
     "land_rating: 'A4' is not a rating A1..D3"),
    ("cards_431.csv", "44,helot_uprising", "45,helot_uprising", "id: 45 is outside the scenario's card ids 1..44"),
    ("cards_431.csv", "region=Euboea", "region=Atlantis", "region 'Atlantis' is no subject region of the map"),
    ("cards_431.csv", "7,plague_strikes", "7,plague_strike", "event: 'plague_strike' is not an event kind"),
    ("scenario_431.toml", "Athens = 1, Sparta = 2", "Athens = 2, Sparta = 1",
     "leaders: Athens: card 2 is a leader of Sparta"),
    ("events.toml", "[omen]", "[omens]", r"events.toml: \[omens\]: unknown event kind"),
])
def test_spec10_5_1_bad_data_names_file_field_and_problem(copy, file, old, new, message):
    _edit(copy / file, old, new)
    with pytest.raises(BadDataError, match=message):
        loader.load("431", copy)


def test_spec10_5_1_missing_key_missing_file_and_unknown_data_set(copy):
    text = (copy / "hellas_rules.toml").read_text()
    start = text.index("[G.OPEN_BLOCKS]")
    end = text.index("[G.SIDE_SELECTION]")
    (copy / "hellas_rules.toml").write_text(text[:start] + text[end:])
    with pytest.raises(BadDataError, match="hellas_rules.toml: rule key OPEN_BLOCKS .group G. is missing"):
        loader.load("431", copy)
    (copy / "map_sea.csv").unlink()
    (copy / "hellas_rules.toml").write_text(text)
    with pytest.raises(BadDataError, match="map_sea.csv: file not found"):
        loader.load("431", copy)
    with pytest.raises(BadDataError, match="no data set 'sicily'.*data sets: 431, 431_designer"):
        loader.load("sicily", copy)


def test_spec10_5_1_bad_header_and_bad_toml(copy):
    _edit(copy / "units_431.csv", "id,side,name", "id,sides,name")
    with pytest.raises(BadDataError, match="units_431.csv: header: missing column 'side'"):
        loader.load("431", copy)
    (copy / "events.toml").write_text("[omen\n")
    _edit(copy / "units_431.csv", "id,sides,name", "id,side,name")
    with pytest.raises(BadDataError, match="events.toml: not valid TOML"):
        loader.load("431", copy)

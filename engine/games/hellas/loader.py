"""Read and check one Hellas data set: the rule keys, the map, the roster, the deck, the events and the scenario.

A data set is a scenario file (``data/scenario_<name>.toml``) naming its other files. Everything is checked
before anything is used, and every problem raises ``BadDataError`` naming the file, the row or key, the field and
what is wrong. The rule-key schema below says which values each key may take; the values themselves (defaults
included) live only in the data files. ``load(name)`` returns a plain ``HellasData``; state.pyx turns it into C
tables.
"""
from __future__ import annotations

import csv
import io
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import BadDataError, BadOptionError
from engine.weights import load_weights

DATA_DIR = Path(__file__).resolve().parent / "data"
# data/evaluate.json's weights (search heuristics, not rules; a data set's folder may carry its own)
EVALUATE_WEIGHTS = ("step", "scale")


def evaluate_weights(path=DATA_DIR / "evaluate.json") -> dict:
    """The checked evaluate() weights of ``path``; BadDataError names the weight."""
    try:
        return load_weights(path, EVALUATE_WEIGHTS)
    except ValueError as e:
        raise BadDataError(f"hellas data: {e}") from None

# capacity limits of the C state (bit masks of 64); the loader refuses data that would not fit
MAX_AREAS = 64            # land + sea areas
MAX_UNITS_PER_SIDE = 60    # at most 64: the block tracker keeps a side's blocks as bits of one word (tracker.pxi)
MAX_CARDS = 64
MAX_CITY_VALUE = 9
MAX_STEPS = 4
SIDES = ("Athens", "Sparta")
TAG = re.compile(r"^(SRC|EXT-\d+|ASSUMED)\b")

# --- rule-key schema: key -> (group, kind, allowed) ------------------------------------------------------------
# kind: "int" (allowed = (lo, hi)), "bool", "enum" (allowed = the values), "list" (allowed = the exact value:
# the engine implements that one), "table" (allowed = {field: (lo, hi) or tuple of values})
R = {}


def _key(group, name, kind, allowed=None):
    R[name] = (group, kind, allowed)


for _n, _k, _a in (
        ("HAND_SIZE", "int", (2, 12)), ("SEASONS", "names", None), ("SKIP_FIRST_YEAR_NY1_3", "bool", None),
        ("INITIATIVE_VALUE", "enum", ("printed_coins", "coins_plus_bonuses")), ("INITIATIVE_TIE", "enum", SIDES),
        ("NY_EVENT_ORDER", "enum", ("Sparta_first", "Athens_first")), ("EVENTS_IN_WINTER", "bool", None),
        ("SACRIFICE_EFFECT", "enum", ("favour", "none")), ("FAVOUR_EXTRA_ACTION", "int", (0, 3)),
        ("FAVOUR_REROLL", "bool", None), ("FAVOUR_EXPIRES", "enum", ("year_end",)),
        ("LEADER_BONUS", "table", {"rated_plus1": (0, 3), "rated_0": (0, 3)}),
        ("ATR_ACTION_BONUS", "enum", ("per_card", "one_in_all")), ("PERSIAN_AID_ACTION_BONUS", "int", (0, 3)),
        ("ACTION_CAP", "int", (0, 20)), ("UNUSED_ACTIONS", "enum", ("lost",)),
        ("LEADER_WHEN_OCCUPIED", "enum", ("wasted",))):
    _key("A", _n, _k, _a)
for _n, _k, _a in (
        ("GROUP_MOVE", "enum", ("one_area",)), ("MOVE_ONCE_PER_TURN", "bool", None),
        ("STOP_ON_ENEMY", "enum", ("units_not_garrison",)), ("FLEET_STOPS_ON_LANDING", "bool", None),
        ("CARGO_PER_FLEET", "int", (0, 1)), ("CARGO_STEP_RULE", "enum", ("le", "lt", "max_le")),
        ("STORM_LOSS_ON", "int", (0, 6)), ("FORCED_MARCH_SUCCESS", "int", (0, 6)),
        ("WITHDRAW_INTO_CITY", "bool", None), ("CITY_CAPACITY", "int", (1, 4)), ("RECRUIT_COST", "int", (1, 3)),
        ("NEW_GREEK_UNIT_STEPS", "int", (1, MAX_STEPS)),
        ("BARBARIAN_ARRIVAL", "enum", ("full_strength_free_move",)), ("BARBARIAN_ONCE_PER_YEAR", "bool", None),
        ("GARRISON_MAX_PER_CITY", "int", (1, 1)), ("PILLAGE_PRESTIGE", "enum", ("city_value", "one")),
        ("PILLAGE_ONCE_PER_CITY_PER_YEAR", "bool", None), ("STACKING_LIMIT", "int", (0, 0)),
        ("SEA_CONTROL", "enum", ("sole_fleets",))):
    _key("B", _n, _k, _a)
for _n, _k, _a in (
        ("BATTLE_ORDER", "enum", ("size", "free")), ("BATTLE_ROUNDS", "int", (1, 6)),
        ("FIRING_ORDER", "enum", ("letters_defender_first",)), ("HIT_RULE", "enum", ("die_le_power",)),
        ("ROUT_RULE", "enum", ("die_ge_7_minus_power",)), ("HIT_TARGET", "enum", ("most_steps",)),
        ("ROUT_TARGET", "enum", ("owner_choice", "smallest")),
        ("ATTACKER_RETREATS_AFTER_LAST_ROUND", "bool", None), ("NO_RETREAT_ELIMINATES", "bool", None),
        ("CAVALRY_RETREAT_INTO_ENEMY_AREA", "bool", None), ("STRAIT_DEFENDER_FIRST_ROUND1", "bool", None),
        ("REVEAL_IN_COMBAT", "enum", ("field_naval_assault",)), ("BATTLE_WIN_PRESTIGE", "int", (0, 5)),
        ("ELIMINATED_TO_POOL", "bool", None)):
    _key("C", _n, _k, _a)
for _n, _k, _a in (
        ("SIEGE_COMBAT_NEEDS_PRIOR_SIEGE", "bool", None), ("SIEGE_COMBAT_COST", "int", (0, 0)),
        ("FORTIFIED_RATING", "enum", ("A1", "A2", "A3", "B1", "B2", "B3")),
        ("DOUBLE_DEFENCE_HITS_PER_STEP", "table", {"normal": (1, 3), "civil_war_or_treachery": (1, 3)}),
        ("ASSAULT_ROUNDS", "table", {"normal": (1, 6), "treachery": (1, 6)}),
        ("ASSAULT_ROUTS", "enum", ("ignored",)), ("ATTRITION_DICE", "enum", ("per_besieged_block",)),
        ("ATTRITION_HIT_MAX", "table", {"normal": (0, 6), "famine": (0, 6), "winter": (0, 6)}),
        ("ATTRITION_TARGET", "enum", ("most_steps_garrison_last",)),
        ("PORT_NEEDS_BLOCKADE_FOR_ATTRITION", "bool", None), ("CAPTURE_PRESTIGE", "enum", ("city_value",)),
        ("RECAPTURE_PRESTIGE", "enum", ("city_value", "zero")), ("CAPITULATION", "enum", ("not_modelled",))):
    _key("D", _n, _k, _a)
for _n, _k, _a in (
        ("WINTER_ACTIONS", "subset", ("supply", "recruit")), ("WINTER_REFUGE", "enum", ("free_to_friendly_city",)),
        ("WINTER_SUPPLY_COST", "int", (1, 3)), ("UNSUPPLIED_LOSS", "enum", ("one_step", "eliminate")),
        ("BARBARIANS_DISBAND", "enum", ("year_end_to_pool",)), ("WINTER_SALLY", "bool", None)):
    _key("E", _n, _k, _a)
for _n, _k, _a in (
        ("PRESTIGE_TRACK", "enum", ("net", "two_totals")), ("STARTING_PRESTIGE", "int", (-14, 14)),
        ("TRIBUTE", "enum", ("enemy_loyal_controlled_value",)), ("PERSIAN_AID_YEARLY", "int", (0, 5)),
        ("NO_QUARTER_YEARLY", "int", (0, 5)),
        ("ATROCITY_LOSS", "table", {"amount": (0, 10), "reading": ("a", "b", "c", "d")}),
        ("AUTO_VICTORY_LEAD", "int", (1, 99)), ("AUTO_VICTORY_TIMING", "enum", ("victory_check", "immediate")),
        ("TRUCE_ENABLED", "bool", None),
        ("TRUCE_THRESHOLD", "table", {"normal": (1, 99), "peace_faction": (1, 99)}),
        ("TRUCE_COST", "table", {"normal": (0, 10), "peace_faction": (0, 10)}),
        ("TRUCE_ROLL", "enum", ("sum_2d6_below_lead",)), ("TRUCE_COMPARE_AFTER_COST", "bool", None),
        ("TRUCE_TIMING", "enum", ("victory_check_once_leader",)),
        ("VICTORY_LEVELS", "table", {"minor": (1, 99), "major": (1, 99)}),
        ("FINAL_ACCOUNTING", "enum", ("tribute_auto_test_levels",)), ("CAPITAL_CAPTURE_WINS", "bool", None),
        ("CAPITAL_WIN_REQUIRES_UNITS", "bool", None)):
    _key("F", _n, _k, _a)
for _n, _k, _a in (("OPEN_BLOCKS", "bool", None), ("SIDE_SELECTION", "enum", ("assigned", "random", "bid"))):
    _key("G", _n, _k, _a)

RULE_FIELDS = ("value", "alternatives", "tag", "basis", "spec", "note")
LAND_COLUMNS = ("id", "name", "nationality", "loyalty", "site_type", "site_name", "value", "capacity",
                "subject_region", "capital", "neutral", "coasts", "offshore_sea", "land_neighbours", "tag")
SEA_COLUMNS = ("id", "name", "adjacent_seas", "coastal_land", "tag")
UNIT_COLUMNS = ("id", "side", "name", "nationality", "type", "land_rating", "naval_rating", "max_steps",
                "land_speed", "sea_speed", "elite", "barbarian", "home_settlement", "special", "start_area",
                "start_steps", "tag")
CARD_COLUMNS = ("id", "event", "colour", "continuing", "ny_forbidden", "condition", "params", "actions", "tag")
UNIT_TYPES = ("hoplite", "archers", "cavalry", "infantry", "fleet")
SPECIALS = ("", "odrysian", "persian_aid", "e2_fleet")
SITE_TYPES = ("city", "port", "settlement", "none")
LOYALTIES = ("Athens", "Sparta", "neutral", "none")
BORDERS = ("normal", "hazard", "strait")
COLOURS = ("red", "blue", "green")
CONDITIONS = ("", "besieged_city_exists", "plague_struck", "own_prior_siege", "leader_in_play", "own_siege")
# the event kinds the engine resolves (spec 9.4, 9.5), with the parameters a card of that kind carries
EVENT_KINDS = {
    "leader": ("name", "side", "rating"), "leader_ostracized": (), "plague_strikes": (), "plague_returns": (),
    "revolt": ("region", "spread"), "helot_uprising": (), "treachery": (), "famine": (), "earthquake": (),
    "omen": (), "atrocity": (), "civil_war": (), "athens_raises_taxes": (), "persian_aid": (),
    "peace_faction": (), "war_faction": (), "no_quarter": (),
}
# the numbers and lists an event kind must give in the events file (the engine has no defaults of its own)
EVENT_REQUIRED = {"plague_strikes": ("step_loss", "min_steps"), "plague_returns": ("step_loss", "min_steps"),
                  "revolt": ("garrisons", "extra_per_taxes_card", "subject_nationalities"),
                  "helot_uprising": ("cities",), "atrocity": ("leader_extra",)}
EVENT_FIELDS = ("target", "season", "removal", "tag", "basis", "step_loss", "min_steps", "garrisons",
                "extra_per_taxes_card", "subject_nationalities", "cities", "assault_rounds_key",
                "attrition_hit_max_key", "amount_key", "leader_extra")
SCENARIO_FIELDS = ("name", "tag", "basis", "rules_file", "map_land", "map_sea", "units", "cards", "events",
                   "first_year", "last_year", "card_ids", "unit_ids", "leaders", "neutral", "starting_prestige",
                   "rules")


@dataclass
class Area:
    index: int
    id: str
    name: str
    sea: bool
    nationality: str = ""
    loyalty: str = "none"
    site_type: str = "none"
    site_name: str = ""
    value: int = 0
    capacity: int = 0
    subject_region: str = ""
    capital: bool = False
    neutral: bool = False
    coasts: list = field(default_factory=list)          # land: adjacent sea ids; sea: coastal land ids
    offshore_sea: str = ""
    neighbours: list = field(default_factory=list)      # land: land ids; sea: sea ids
    borders: dict = field(default_factory=dict)         # sea: neighbour id -> normal / hazard / strait
    tag: str = ""

    @property
    def is_city(self):
        return self.site_type in ("city", "port")


@dataclass
class Unit:
    index: int
    id: str
    side: str
    name: str
    nationality: str
    type: str
    land_rating: str
    naval_rating: str
    max_steps: int
    land_speed: int
    sea_speed: int
    elite: bool
    barbarian: bool
    home_settlement: str
    special: str
    start_area: str                 # an area id or "pool"
    start_steps: int
    tag: str


@dataclass
class Card:
    id: int
    event: str
    colour: str
    continuing: bool
    ny_forbidden: bool
    condition: str
    params: dict
    actions: int
    tag: str


@dataclass
class HellasData:
    name: str                       # the data set (scenario file) name
    title: str
    rules: dict                     # key -> value in force (the scenario's overrides applied)
    rule_tags: dict                 # key -> (tag, basis, spec)
    areas: list                     # land areas first, then seas
    units: list
    cards: list
    events: dict
    scenario: dict
    files: dict = field(default_factory=dict)
    evaluate: dict = field(default_factory=evaluate_weights)   # data/evaluate.json

    def area(self, id_):
        return next(a for a in self.areas if a.id == id_)


def data_sets(directory=DATA_DIR):
    """The data set names a directory offers (scenario_<name>.toml)."""
    return sorted(p.stem[len("scenario_"):] for p in Path(directory).glob("scenario_*.toml"))


def parse_rules_option(text):
    """The game option ``rules``: rule keys set for one game over its data set, as ``KEY=VALUE;KEY=VALUE`` with
    each VALUE written as in the rules file (TOML: true, 3, "bid", {amount = 2, reading = "b"}). Returns the
    dict; raises BadOptionError naming the part at fault. The values are checked by ``load``."""
    out = {}
    if not isinstance(text, str):
        raise BadOptionError(f"hellas: option rules must be a string of KEY=VALUE;KEY=VALUE, not {text!r}")
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise BadOptionError(f"hellas: option rules: {part!r} is not KEY=VALUE")
        if key not in R:
            raise BadOptionError(f"hellas: option rules: {key}: unknown rule key{_close(key)}")
        if key in out:
            raise BadOptionError(f"hellas: option rules: {key} is set twice")
        try:
            out[key] = tomllib.loads(f"v = {value.strip()}")["v"]
        except tomllib.TOMLDecodeError as e:
            hint = f'; a word goes in quotes: {key}="{value.strip()}"' if value.strip().isidentifier() else ""
            raise BadOptionError(f"hellas: option rules: {key}: {value.strip()!r} is no TOML value ({e}){hint}") \
                from None
    return out


# the game option data's names for the shipped scenarios: words, as OpenSpiel reads a value like 431 as a number
SHIPPED = {"placeholder": "431", "designer": "431_designer"}


def option_source(value: str) -> tuple[str, Path]:
    """(scenario name, folder) of what the game option ``data`` names: a shipped roster (``placeholder``,
    ``designer``), a scenario of the shipped folder by its own name (``431``), a scenario file
    (``.../scenario_<name>.toml``, its files read from its folder) or a folder holding exactly one scenario."""
    if value in SHIPPED:
        return SHIPPED[value], DATA_DIR
    if "/" not in value and "\\" not in value and not value.endswith(".toml"):
        return value, DATA_DIR
    path = Path(value)
    if path.is_file() and path.name.startswith("scenario_") and path.suffix == ".toml":
        return path.stem[len("scenario_"):], path.parent
    if path.is_dir():
        names = data_sets(path)
        if len(names) == 1:
            return names[0], path
        raise BadDataError(f"hellas data: {value} holds {len(names)} scenarios ({', '.join(names) or 'none'}); "
                           f"name one scenario_<name>.toml file")
    raise BadDataError(f"hellas data: {value!r} is no data set name, scenario_<name>.toml file or folder")


def load(name="431", directory=DATA_DIR, rules_option=None) -> HellasData:
    """Read and check the data set ``name`` of ``directory``, with the rule keys ``rules_option`` (a dict, from the game
    option) set over it; raises BadDataError naming the first problem."""
    directory = Path(directory)
    path = directory / f"scenario_{name}.toml"
    if not path.is_file():
        raise BadDataError(f"hellas data: no data set {name!r} ({path.name} not found in {directory}); "
                           f"data sets: {', '.join(data_sets(directory)) or 'none'}")
    scenario = _toml(path)
    _check_scenario_fields(path.name, scenario)
    files = {k: directory / _str(path.name, scenario, k) for k in
             ("rules_file", "map_land", "map_sea", "units", "cards", "events")}
    rules, tags = load_rules(files["rules_file"])
    overrides = scenario.get("rules", {})
    if not isinstance(overrides, dict):
        raise BadDataError(f"{path.name}: [rules] must be a table of rule keys")
    for key, value in overrides.items():
        if key not in R:
            raise BadDataError(f"{path.name}: [rules] {key}: unknown rule key{_close(key)}")
        rules[key] = _check_value(path.name, f"[rules] {key}", key, value)
    for key, value in (rules_option or {}).items():
        if key not in R:
            raise BadDataError(f"option rules: {key}: unknown rule key{_close(key)}")
        rules[key] = _check_value("option rules", key, key, value)
    areas = load_map(files["map_land"], files["map_sea"], rules)
    for nid in scenario.get("neutral", []):
        a = next((a for a in areas if a.id == nid and not a.sea), None)
        if a is None:
            raise BadDataError(f"{path.name}: neutral: {nid!r} is not a land area of {files['map_land'].name}")
        if not a.is_city:
            raise BadDataError(f"{path.name}: neutral: {nid} has no city-state to make neutral")
        a.neutral = True
    events = load_events(files["events"])
    cards = load_cards(files["cards"], areas, events, scenario["card_ids"], path.name)
    units = load_units(files["units"], areas, scenario["unit_ids"], path.name)
    leaders = scenario["leaders"]
    if not isinstance(leaders, dict) or sorted(leaders) != sorted(SIDES):
        raise BadDataError(f"{path.name}: leaders: must name exactly one leader card for each of Athens and Sparta")
    for side, cid in leaders.items():
        card = next((c for c in cards if c.id == cid), None)
        if card is None or card.event != "leader":
            raise BadDataError(f"{path.name}: leaders: {side}: card {cid!r} is not a leader card of the deck")
        if card.params["side"] != side:
            raise BadDataError(f"{path.name}: leaders: {side}: card {cid} is a leader of {card.params['side']}")
    if rules["CAPITAL_CAPTURE_WINS"]:
        for side in SIDES:
            if sum(1 for a in areas if a.capital and a.loyalty == side) != 1:
                raise BadDataError(f"{files['map_land'].name}: CAPITAL_CAPTURE_WINS needs exactly one capital "
                                   f"loyal to {side}")
    lo = rules["VICTORY_LEVELS"]
    if lo["minor"] > lo["major"]:
        raise BadDataError(f"{files['rules_file'].name}: VICTORY_LEVELS: minor {lo['minor']} above major {lo['major']}")
    # a data set's folder may carry its own weights (a variant tried without a rebuild), else the engine's
    weights = directory / "evaluate.json"
    evaluate = evaluate_weights(weights if weights.is_file() else DATA_DIR / "evaluate.json")
    return HellasData(name=name, title=scenario["name"], rules=rules, rule_tags=tags, areas=areas, units=units,
                      cards=cards, events=events, scenario=scenario, files={k: v.name for k, v in files.items()},
                      evaluate=evaluate)


# --- rules ------------------------------------------------------------------------------------------------------

def load_rules(path):
    """(values, tags) of a rules file: every key of the schema exactly once, each value allowed."""
    path = Path(path)
    doc = _toml(path)
    values, tags = {}, {}
    for group, entries in doc.items():
        if group not in "ABCDEFG" or len(group) != 1:
            raise BadDataError(f"{path.name}: unknown group [{group}] (groups are A to G)")
        if not isinstance(entries, dict):
            raise BadDataError(f"{path.name}: [{group}] must hold one table per rule key")
        for key, entry in entries.items():
            where = f"{path.name}: [{group}.{key}]"
            if key not in R:
                raise BadDataError(f"{where}: unknown rule key{_close(key)}")
            if R[key][0] != group:
                raise BadDataError(f"{where}: key {key} belongs to group {R[key][0]}, not {group}")
            _check_entry(where, entry, RULE_FIELDS, ("value", "alternatives", "tag", "basis", "spec"))
            values[key] = _check_value(path.name, f"[{group}.{key}] value", key, entry["value"])
            if not isinstance(entry["alternatives"], list):
                raise BadDataError(f"{where}: alternatives: must be a list")
            for alt in entry["alternatives"]:
                _check_value(path.name, f"[{group}.{key}] alternatives", key, alt)
            tags[key] = (entry["tag"], entry["basis"], entry["spec"])
    missing = [k for k in R if k not in values]
    if missing:
        raise BadDataError(f"{path.name}: rule key {missing[0]} (group {R[missing[0]][0]}) is missing"
                           + (f", and {len(missing) - 1} more" if len(missing) > 1 else ""))
    return values, tags


def _check_entry(where, entry, fields, required):
    """A table of a TOML file: only known fields, the required ones present, a valid origin tag."""
    if not isinstance(entry, dict):
        raise BadDataError(f"{where}: must be a table with {', '.join(required)}")
    extra = sorted(set(entry) - set(fields))
    if extra:
        raise BadDataError(f"{where}: unknown field {extra[0]!r} (fields: {', '.join(fields)})")
    for f in required:
        if f not in entry:
            raise BadDataError(f"{where}: field {f!r} is missing")
    if not isinstance(entry["tag"], str) or not TAG.match(entry["tag"]):
        raise BadDataError(f"{where}: tag: {entry['tag']!r} is not SRC, EXT-n or ASSUMED")


def _check_value(fname, where, key, value):
    group, kind, allowed = R[key]
    bad = f"{fname}: {where}: {value!r}"
    if kind == "bool":
        if not isinstance(value, bool):
            raise BadDataError(f"{bad} is not true or false")
    elif kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadDataError(f"{bad} is not an integer")
        if not allowed[0] <= value <= allowed[1]:
            raise BadDataError(f"{bad} is out of range {allowed[0]}..{allowed[1]}")
    elif kind == "enum":
        if value not in allowed:
            raise BadDataError(f"{bad} is not one of {', '.join(map(str, allowed))}")
    elif kind == "names":
        if (not isinstance(value, list) or len(value) < 2 or len(value) > 8
                or not all(isinstance(v, str) and v for v in value) or len(set(value)) != len(value)):
            raise BadDataError(f"{bad} must be 2 to 8 distinct season names, Winter last")
    elif kind == "subset":
        if not isinstance(value, list) or not all(v in allowed for v in value) or len(set(value)) != len(value):
            raise BadDataError(f"{bad} must be a list of distinct values among {', '.join(allowed)}")
    elif kind == "table":
        if not isinstance(value, dict):
            raise BadDataError(f"{bad} must be a table with {', '.join(allowed)}")
        if sorted(value) != sorted(allowed):
            raise BadDataError(f"{bad} must have exactly the fields {', '.join(allowed)}")
        for f, rng in allowed.items():
            v = value[f]
            if isinstance(rng, tuple) and len(rng) == 2 and all(isinstance(x, int) for x in rng):
                if isinstance(v, bool) or not isinstance(v, int) or not rng[0] <= v <= rng[1]:
                    raise BadDataError(f"{fname}: {where}: {f} = {v!r} is not an integer in {rng[0]}..{rng[1]}")
            elif v not in rng:
                raise BadDataError(f"{fname}: {where}: {f} = {v!r} is not one of {', '.join(rng)}")
    return value


# --- map --------------------------------------------------------------------------------------------------------

def load_map(land_path, sea_path, rules):
    land_path, sea_path = Path(land_path), Path(sea_path)
    lname, sname = land_path.name, sea_path.name
    land_rows = _csv(land_path, LAND_COLUMNS)
    sea_rows = _csv(sea_path, SEA_COLUMNS)
    if len(land_rows) + len(sea_rows) > MAX_AREAS:
        raise BadDataError(f"{lname}, {sname}: {len(land_rows) + len(sea_rows)} areas; at most {MAX_AREAS}")
    land_ids = _unique_ids(lname, land_rows)
    sea_ids = _unique_ids(sname, sea_rows)
    both = set(land_ids) & set(sea_ids)
    if both:
        raise BadDataError(f"{lname}, {sname}: id {sorted(both)[0]!r} names both a land and a sea area")
    areas = []
    for n, row in land_rows:
        at = f"{lname}: row {n} ({row['id']})"
        a = Area(index=len(areas), id=row["id"], name=_nonempty(at, row, "name"), sea=False, tag=_tag(at, row))
        a.nationality = row["nationality"]
        a.loyalty = _choice(at, row, "loyalty", LOYALTIES)
        a.site_type = _choice(at, row, "site_type", SITE_TYPES)
        a.site_name = row["site_name"]
        a.capital = _flag(at, row, "capital")
        a.neutral = _flag(at, row, "neutral")
        if a.is_city:
            a.value = _int(at, row, "value", 1, MAX_CITY_VALUE, "city value")
            a.capacity = _int(at, row, "capacity", 0, 99)
            if a.capacity != rules["CITY_CAPACITY"] * a.value:
                raise BadDataError(f"{at}: capacity: {a.capacity} is not CITY_CAPACITY x value = "
                                   f"{rules['CITY_CAPACITY']} x {a.value}")
            if not a.site_name:
                raise BadDataError(f"{at}: site_name: a {a.site_type} needs a name")
            if not a.nationality:
                raise BadDataError(f"{at}: nationality: a city needs a nationality")
            if a.loyalty == "none":
                raise BadDataError(f"{at}: loyalty: a city is loyal to Athens, Sparta or neutral")
        else:
            for f in ("value", "capacity"):
                if row[f]:
                    raise BadDataError(f"{at}: {f}: only a city or port has a {f} (site_type is {a.site_type})")
            if a.loyalty in SIDES:
                raise BadDataError(f"{at}: loyalty: an area without a city is loyal to nobody (none)")
            if a.capital:
                raise BadDataError(f"{at}: capital: only a city can be a capital")
            if a.site_type == "settlement" and not a.nationality:
                raise BadDataError(f"{at}: nationality: a settlement names its barbarian nation")
        if a.neutral != (a.loyalty == "neutral"):
            raise BadDataError(f"{at}: neutral: the flag must be 1 exactly when loyalty is neutral")
        a.subject_region = row["subject_region"]
        if a.subject_region and a.loyalty != "Athens":
            raise BadDataError(f"{at}: subject_region: only cities loyal to Athens form subject regions")
        a.coasts = _list(row["coasts"])
        for s in a.coasts:
            if s not in sea_ids:
                raise BadDataError(f"{at}: coasts: {s!r} is not a sea area of {sname}")
        a.offshore_sea = row["offshore_sea"]
        if a.offshore_sea and a.site_type != "port":
            raise BadDataError(f"{at}: offshore_sea: only a port has an offshore sea")
        if a.site_type == "port":
            if not a.offshore_sea:
                raise BadDataError(f"{at}: offshore_sea: a port needs its offshore sea")
            if a.offshore_sea not in a.coasts:
                raise BadDataError(f"{at}: offshore_sea: {a.offshore_sea!r} is not among its coasts "
                                   f"({', '.join(a.coasts) or 'none'})")
        a.neighbours = _list(row["land_neighbours"])
        for b in a.neighbours:
            if b not in land_ids:
                raise BadDataError(f"{at}: land_neighbours: {b!r} is not a land area of {lname}")
            if b == a.id:
                raise BadDataError(f"{at}: land_neighbours: an area cannot border itself")
        areas.append(a)
    for a in areas:
        for b in a.neighbours:
            if a.id not in areas[land_ids.index(b)].neighbours:
                raise BadDataError(f"{lname}: land_neighbours: {a.id} lists {b} but {b} does not list {a.id} "
                                   "(adjacency must be symmetric)")
    for n, row in sea_rows:
        at = f"{sname}: row {n} ({row['id']})"
        s = Area(index=len(areas), id=row["id"], name=_nonempty(at, row, "name"), sea=True, tag=_tag(at, row))
        for item in _list(row["adjacent_seas"]):
            if ":" not in item:
                raise BadDataError(f"{at}: adjacent_seas: {item!r} must be SEA:normal, SEA:hazard or SEA:strait")
            other, kind = item.split(":", 1)
            if other not in sea_ids:
                raise BadDataError(f"{at}: adjacent_seas: {other!r} is not a sea area of {sname}")
            if kind not in BORDERS:
                raise BadDataError(f"{at}: adjacent_seas: border kind {kind!r} of {other} is not one of "
                                   f"{', '.join(BORDERS)}")
            if other == s.id or other in s.borders:
                raise BadDataError(f"{at}: adjacent_seas: {other} listed twice or is the sea itself")
            s.borders[other] = kind
            s.neighbours.append(other)
        s.coasts = _list(row["coastal_land"])
        for c in s.coasts:
            if c not in land_ids:
                raise BadDataError(f"{at}: coastal_land: {c!r} is not a land area of {lname}")
        areas.append(s)
    seas = {a.id: a for a in areas if a.sea}
    for s in seas.values():
        for other, kind in s.borders.items():
            back = seas[other].borders.get(s.id)
            if back is None:
                raise BadDataError(f"{sname}: adjacent_seas: {s.id} lists {other} but {other} does not list "
                                   f"{s.id} (adjacency must be symmetric)")
            if back != kind:
                raise BadDataError(f"{sname}: adjacent_seas: the {s.id}-{other} border is {kind} one way and "
                                   f"{back} the other")
    for a in areas:
        if a.sea:
            continue
        for s in a.coasts:
            if a.id not in seas[s].coasts:
                raise BadDataError(f"{lname}, {sname}: {a.id} coasts on {s} but {s}'s coastal_land does not "
                                   f"list {a.id}")
    for s in seas.values():
        for c in s.coasts:
            if s.id not in areas[land_ids.index(c)].coasts:
                raise BadDataError(f"{sname}, {lname}: {s.id} lists {c} as coastal land but {c}'s coasts do "
                                   f"not include {s.id}")
    return areas


# --- roster -----------------------------------------------------------------------------------------------------

def load_units(path, areas, id_range, scen_name):
    path = Path(path)
    fname = path.name
    rows = _csv(path, UNIT_COLUMNS)
    _unique_ids(fname, rows, what="block")
    land = {a.id: a for a in areas if not a.sea}
    seas = {a.id for a in areas if a.sea}
    city_nats = {a.nationality: a.loyalty for a in areas if a.is_city and a.loyalty in SIDES}
    units = []
    count = {s: 0 for s in SIDES}
    for n, row in rows:
        at = f"{fname}: row {n} ({row['id']})"
        side = _choice(at, row, "side", SIDES)
        m = re.fullmatch(r"([AS])(\d+)", row["id"])
        if not m or m.group(1) != side[0]:
            raise BadDataError(f"{at}: id: {row['id']!r} must be {side[0]}<number> for a {side} block (G-33)")
        if not id_range[0] <= int(m.group(2)) <= id_range[1]:
            raise BadDataError(f"{at}: id: number {m.group(2)} is outside the scenario's unit ids "
                               f"{id_range[0]}..{id_range[1]} ({scen_name})")
        count[side] += 1
        typ = _choice(at, row, "type", UNIT_TYPES)
        fleet = typ == "fleet"
        barbarian = _flag(at, row, "barbarian")
        u = Unit(index=len(units), id=row["id"], side=side, name=_nonempty(at, row, "name"),
                 nationality=_nonempty(at, row, "nationality"), type=typ,
                 land_rating=_rating(at, row, "land_rating", "ABCD"), naval_rating="",
                 max_steps=_int(at, row, "max_steps", 1, MAX_STEPS), land_speed=0, sea_speed=0,
                 elite=_flag(at, row, "elite"), barbarian=barbarian, home_settlement=row["home_settlement"],
                 special=_choice(at, row, "special", SPECIALS), start_area=row["start_area"], start_steps=0,
                 tag=_tag(at, row))
        if fleet:
            u.naval_rating = _rating(at, row, "naval_rating", "EF")
            u.sea_speed = _int(at, row, "sea_speed", 1, 8)
            if row["land_speed"]:
                raise BadDataError(f"{at}: land_speed: a fleet has only a sea speed")
            if barbarian:
                raise BadDataError(f"{at}: barbarian: a fleet cannot be barbarian")
        else:
            if row["naval_rating"] or row["sea_speed"]:
                raise BadDataError(f"{at}: naval_rating/sea_speed: only fleets have them")
            u.land_speed = _int(at, row, "land_speed", 1, 6)
        if barbarian:
            home = land.get(u.home_settlement)
            if home is None or home.site_type != "settlement":
                raise BadDataError(f"{at}: home_settlement: {u.home_settlement!r} is not a settlement area")
            if home.nationality != u.nationality:
                raise BadDataError(f"{at}: nationality: {u.nationality!r} does not match its settlement "
                                   f"{home.id} ({home.nationality})")
        else:
            if u.home_settlement:
                raise BadDataError(f"{at}: home_settlement: only barbarians have one")
            if u.nationality not in city_nats:
                raise BadDataError(f"{at}: nationality: {u.nationality!r} matches no city of the map")
            if city_nats[u.nationality] != side:
                raise BadDataError(f"{at}: nationality: {u.nationality} cities are loyal to "
                                   f"{city_nats[u.nationality]}, not {side}")
        if u.start_area == "pool":
            if row["start_steps"]:
                raise BadDataError(f"{at}: start_steps: a block in the pool has no steps on the map")
        else:
            if barbarian:
                raise BadDataError(f"{at}: start_area: barbarians start in the pool")
            if u.start_area in seas:
                if not fleet:
                    raise BadDataError(f"{at}: start_area: a land unit cannot start at sea")
            elif u.start_area not in land:
                raise BadDataError(f"{at}: start_area: {u.start_area!r} is no area of the map (nor 'pool')")
            else:
                a = land[u.start_area]
                if a.neutral:
                    raise BadDataError(f"{at}: start_area: {a.id} is neutral; no block may enter it")
                if fleet and not a.coasts:
                    raise BadDataError(f"{at}: start_area: a fleet cannot stand in {a.id}, which has no coast")
            u.start_steps = _int(at, row, "start_steps", 1, u.max_steps, "start steps")
        units.append(u)
    for side in SIDES:
        if count[side] > MAX_UNITS_PER_SIDE:
            raise BadDataError(f"{fname}: {count[side]} {side} blocks; at most {MAX_UNITS_PER_SIDE}")
        if count[side] == 0:
            raise BadDataError(f"{fname}: no {side} blocks")
    return units


# --- deck and events --------------------------------------------------------------------------------------------

def load_events(path):
    path = Path(path)
    doc = _toml(path)
    for kind, entry in doc.items():
        where = f"{path.name}: [{kind}]"
        if kind not in EVENT_KINDS:
            raise BadDataError(f"{where}: unknown event kind (known: {', '.join(EVENT_KINDS)})")
        _check_entry(where, entry, EVENT_FIELDS, ("target", "season", "tag", "basis") + EVENT_REQUIRED.get(kind, ()))
        for f in ("subject_nationalities", "cities"):
            if f in entry and (not isinstance(entry[f], list) or not all(isinstance(x, str) for x in entry[f])):
                raise BadDataError(f"{where}: {f}: must be a list of names")
        for f in ("step_loss", "min_steps", "garrisons", "extra_per_taxes_card", "leader_extra"):
            if f in entry and (isinstance(entry[f], bool) or not isinstance(entry[f], int)
                               or not 0 <= entry[f] <= MAX_STEPS):
                raise BadDataError(f"{where}: {f}: {entry[f]!r} is not an integer in 0..{MAX_STEPS}")
    missing = [k for k in EVENT_KINDS if k not in doc]
    if missing:
        raise BadDataError(f"{path.name}: event kind [{missing[0]}] is missing")
    return doc


def load_cards(path, areas, events, id_range, scen_name):
    path = Path(path)
    fname = path.name
    rows = _csv(path, CARD_COLUMNS)
    regions = {a.subject_region for a in areas if a.subject_region}
    cards, seen = [], {}
    for n, row in rows:
        at = f"{fname}: row {n} (card {row['id']})"
        cid = _int(at, row, "id", 1, 999)
        if cid in seen:
            raise BadDataError(f"{fname}: card {cid} listed twice (rows {seen[cid]} and {n})")
        seen[cid] = n
        if not id_range[0] <= cid <= id_range[1]:
            raise BadDataError(f"{at}: id: {cid} is outside the scenario's card ids {id_range[0]}..{id_range[1]} "
                               f"({scen_name})")
        kind = row["event"]
        if kind not in EVENT_KINDS:
            raise BadDataError(f"{at}: event: {kind!r} is not an event kind of {', '.join(EVENT_KINDS)}")
        params = {}
        for item in _list(row["params"]):
            if "=" not in item:
                raise BadDataError(f"{at}: params: {item!r} is not name=value")
            k, v = item.split("=", 1)
            params[k.strip()] = v.strip()
        if sorted(params) != sorted(EVENT_KINDS[kind]):
            raise BadDataError(f"{at}: params: a {kind} card takes exactly "
                               f"{', '.join(EVENT_KINDS[kind]) or 'no parameters'}")
        if kind == "leader":
            if params["side"] not in SIDES:
                raise BadDataError(f"{at}: params: side {params['side']!r} is not Athens or Sparta")
            if params["rating"] not in ("0", "1"):
                raise BadDataError(f"{at}: params: leader rating {params['rating']!r} is not 0 or 1 (G-41)")
            params["rating"] = int(params["rating"])
        if kind == "revolt":
            if params["region"] not in regions:
                raise BadDataError(f"{at}: params: region {params['region']!r} is no subject region of the map")
            if params["spread"] not in ("0", "1"):
                raise BadDataError(f"{at}: params: spread must be 0 or 1")
            params["spread"] = int(params["spread"])
        card = Card(id=cid, event=kind, colour=_choice(at, row, "colour", COLOURS),
                    continuing=_flag(at, row, "continuing"), ny_forbidden=_flag(at, row, "ny_forbidden"),
                    condition=_choice(at, row, "condition", CONDITIONS), params=params,
                    actions=_int(at, row, "actions", 1, 3, "action value"), tag=_tag(at, row))
        cards.append(card)
    if len(cards) > MAX_CARDS:
        raise BadDataError(f"{fname}: {len(cards)} cards; at most {MAX_CARDS}")
    if len(cards) < 13:
        raise BadDataError(f"{fname}: {len(cards)} cards cannot deal two hands")
    return cards


# --- small readers ----------------------------------------------------------------------------------------------

def _toml(path):
    path = Path(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadDataError(f"{path.name}: file not found in {path.parent}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BadDataError(f"{path.name}: not valid TOML: {e}") from None


def _csv(path, columns):
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadDataError(f"{path.name}: file not found in {path.parent}") from None
    except UnicodeDecodeError as e:
        raise BadDataError(f"{path.name}: not UTF-8 text: {e}") from None
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise BadDataError(f"{path.name}: empty file (expected the header {','.join(columns)})") from None
    header = [h.strip() for h in header]
    if tuple(header) != columns:
        missing = [c for c in columns if c not in header]
        extra = [c for c in header if c not in columns]
        detail = (f"missing column {missing[0]!r}" if missing else
                  f"unknown column {extra[0]!r}" if extra else "columns out of order")
        raise BadDataError(f"{path.name}: header: {detail}; expected {','.join(columns)}")
    rows = []
    for n, rec in enumerate(reader, start=2):
        if not rec or all(not x.strip() for x in rec):
            continue
        if len(rec) != len(columns):
            raise BadDataError(f"{path.name}: row {n}: {len(rec)} fields, expected {len(columns)}")
        rows.append((n, {c: v.strip() for c, v in zip(columns, rec)}))
    return rows


def _unique_ids(fname, rows, what="area"):
    ids, seen = [], {}
    for n, row in rows:
        i = row["id"]
        if not i:
            raise BadDataError(f"{fname}: row {n}: id is empty")
        if i in seen:
            where = "two places" if what == "block" else "twice"
            raise BadDataError(f"{fname}: {what} {i} listed {where} (rows {seen[i]} and {n})")
        seen[i] = n
        ids.append(i)
    return ids


def _list(text):
    return [x.strip() for x in text.split(";") if x.strip()] if text else []


def _nonempty(at, row, f):
    if not row[f]:
        raise BadDataError(f"{at}: {f}: empty")
    return row[f]


def _choice(at, row, f, allowed):
    if row[f] not in allowed:
        shown = ", ".join(repr(a) if a == "" else a for a in allowed)
        raise BadDataError(f"{at}: {f}: {row[f]!r} is not one of {shown}")
    return row[f]


def _flag(at, row, f):
    if row[f] not in ("0", "1"):
        raise BadDataError(f"{at}: {f}: {row[f]!r} is not 0 or 1")
    return row[f] == "1"


def _int(at, row, f, lo, hi, what=None):
    try:
        v = int(row[f])
    except ValueError:
        raise BadDataError(f"{at}: {f}: {row[f]!r} is not an integer") from None
    if not lo <= v <= hi:
        raise BadDataError(f"{at}: {f}: {what or f} {v} is out of range {lo}..{hi}")
    return v


def _rating(at, row, f, letters):
    r = row[f]
    if len(r) != 2 or r[0] not in letters or r[1] not in "123":
        raise BadDataError(f"{at}: {f}: {r!r} is not a rating {letters[0]}1..{letters[-1]}3")
    return r


def _tag(at, row):
    if not TAG.match(row["tag"]):
        raise BadDataError(f"{at}: tag: {row['tag']!r} does not start with SRC, EXT-n or ASSUMED")
    return row["tag"]


def _check_scenario_fields(fname, sc):
    for f in ("name", "tag", "basis", "rules_file", "map_land", "map_sea", "units", "cards", "events", "first_year",
              "last_year", "card_ids", "unit_ids", "leaders", "starting_prestige"):
        if f not in sc:
            raise BadDataError(f"{fname}: field {f!r} is missing")
    extra = sorted(set(sc) - set(SCENARIO_FIELDS))
    if extra:
        raise BadDataError(f"{fname}: unknown field {extra[0]!r}")
    if not TAG.match(str(sc["tag"])):
        raise BadDataError(f"{fname}: tag: {sc['tag']!r} is not SRC, EXT-n or ASSUMED")
    for f in ("first_year", "last_year", "starting_prestige"):
        if isinstance(sc[f], bool) or not isinstance(sc[f], int):
            raise BadDataError(f"{fname}: {f}: {sc[f]!r} is not an integer")
    years = sc["first_year"] - sc["last_year"] + 1      # years BC count down
    if not 1 <= years <= 30:
        raise BadDataError(f"{fname}: first_year {sc['first_year']} to last_year {sc['last_year']}: "
                           "1 to 30 years, counting down (BC)")
    for f in ("card_ids", "unit_ids"):
        v = sc[f]
        if (not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                                               for x in v) or v[0] > v[1]):
            raise BadDataError(f"{fname}: {f}: {v!r} must be [first, last]")
    if not isinstance(sc.get("neutral", []), list):
        raise BadDataError(f"{fname}: neutral: must be a list of land area ids")


def _str(fname, sc, f):
    v = sc[f]
    if not isinstance(v, str) or not v or "/" in v or "\\" in v or v.startswith("."):
        raise BadDataError(f"{fname}: {f}: {v!r} must be a file name in the data directory")
    return v


def _close(key):
    import difflib
    near = difflib.get_close_matches(key, list(R), n=1)
    return f" (did you mean {near[0]}?)" if near else ""

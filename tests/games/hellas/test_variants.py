"""Hellas rules: the non-default alternatives of the rule keys (spec 10.5), set per game by the option `rules`.

Each test names the key, its spec section and the rulebook line behind it. The option sets rule keys over the data
set (KEY=VALUE;KEY=VALUE, each VALUE in the rules file's TOML), checked like the rules file itself.
"""
import subprocess
import sys

import pytest

from engine.errors import BadDataError, BadOptionError
from engine.games.hellas.state import HellasGame
from games.hellas.helpers import edit, spring

ATH, SPA = 0, 1


def _names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


@pytest.mark.parametrize("rules, error, message", [
    ("FAVOUR_REROL=true", BadOptionError, "unknown rule key.*FAVOUR_REROLL"),
    ("FAVOUR_REROLL", BadOptionError, "is not KEY=VALUE"),
    ("FAVOUR_REROLL=yes", BadOptionError, "no TOML value"),
    ("SIDE_SELECTION=bid", BadOptionError, 'no TOML value .*; a word goes in quotes: SIDE_SELECTION="bid"'),
    ("FAVOUR_REROLL=true;FAVOUR_REROLL=false", BadOptionError, "set twice"),
    ("FAVOUR_REROLL=3", BadDataError, "option rules: FAVOUR_REROLL: 3 is not true or false"),
    ('ATROCITY_LOSS={amount = 2, reading = "e"}', BadDataError, "reading = 'e' is not one of a, b, c, d"),
])
def test_spec10_5_the_rules_option_is_checked_like_the_rules_file(rules, error, message):
    with pytest.raises(error, match=message):
        HellasGame({"data": "431", "rules": rules})


def test_a_process_holds_32_data_sets_and_variants_and_refuses_the_next_by_name():
    # each variant fills a table slot for the life of the process: a fresh one, so the suite's own slots stay free
    code = """
from engine.errors import BadOptionError
from engine.games.hellas.state import HellasGame
made = 1
HellasGame({})
for lead in range(1, 99):
    try:
        HellasGame({"data": "431", "rules": f"AUTO_VICTORY_LEAD={lead}"})
    except BadOptionError as e:
        print(made, e)
        break
    made += 1
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "32 hellas: at most 32 data sets and rule variants in one process"


# --- FAVOUR_REROLL (spec 4.6 use b) -------------------------------------------------------------------------------

def _battle_with_reroll():
    """Both sacrificed at the New Year (one favour each); Sparta's S11 enters Plataea against Athens' A11 (C2,
    1 step), keeping its favour; A11, the defender, rolls first."""
    s = spring(rules="FAVOUR_REROLL=true")
    s.apply("actions:5")
    s.apply("actions:25")
    assert s.step_name() == "favour"
    s.apply("pass")                                                     # Sparta keeps its favour
    s.apply("move:LA12")
    s.apply("unit:S11")
    s.apply("to:LA11")
    s.apply("pass")                                                     # A11 stays in the field
    s.apply("pass")
    assert s.step_name() == "fire" and list(s.to_json()["blocks"])[s.to_json()["machine"]["b_firer"]] == "A11"
    return s


def test_spec4_6_favour_reroll_the_roller_may_roll_again_once():
    s = _battle_with_reroll()
    s.apply("fire:0h0r")                                                # A11 misses ...
    assert s.step_name() == "reroll" and s.current_player() == ATH and _names(s) == ["pass", "yes"]
    s.apply("yes")                                                      # ... Athens spends its favour
    assert s.step_name() == "fire" and s.to_json()["favours"] == {"Athens": 0, "Sparta": 1}
    s.apply("fire:1h0r")                                                # the second result stands
    assert s.to_json()["blocks"]["S11"]["steps"] == 3 and s.step_name() == "fire"   # no second reroll
    s.apply("fire:0h0r")                                                # S11's roll: Sparta may reroll its own
    assert s.step_name() == "reroll" and s.current_player() == SPA


def test_spec4_6_favour_reroll_kept_the_first_result_stands():
    s = _battle_with_reroll()
    s.apply("fire:1h0r")
    s.apply("pass")                                                     # Athens keeps the roll and its favour
    assert s.to_json()["blocks"]["S11"]["steps"] == 3 and s.to_json()["favours"]["Athens"] == 1


def test_spec4_6_no_reroll_by_default():
    s = spring()
    s.apply("actions:5")
    s.apply("actions:25")
    s.apply("pass")
    s.apply("move:LA12")
    s.apply("unit:S11")
    s.apply("to:LA11")
    s.apply("pass")
    s.apply("pass")
    s.apply("fire:1h0r")
    assert s.step_name() == "fire"                                      # straight on to S11's roll


# --- ATROCITY_LOSS (spec 9.4, L304, C-18) -------------------------------------------------------------------------

def _atrocity(reading, by):
    """Atrocity (card 34) played as an event in Spring by `by`; Athens has Pericles (+1), Sparta Archidamos (0)."""
    rules = f'ATROCITY_LOSS={{amount = 2, reading = "{reading}"}}' if reading != "a" else ""
    if by == ATH:
        s = spring(athens=(3, 7, 16, 19, 25, 34), sparta=(5, 9, 22, 28, 33, 38), ny=("sacrifice:38", "sacrifice:3"),
                   rules=rules)
        s.apply("actions:22")
    else:
        s = spring(sparta=(5, 9, 22, 28, 34, 38), rules=rules)
    return s


def test_spec9_4_L304_atrocity_reading_b_only_against_a_plus_one_leader():
    s = _atrocity("b", ATH)
    assert "event:34" not in _names(s) and "actions:34" in _names(s)     # Archidamos is rated 0
    s = _atrocity("b", SPA)
    s.apply("event:34")                                                 # Pericles is rated +1
    s.apply("actions:7")
    assert s.to_json()["prestige"] == 2                                 # Athens lost 2


def test_spec9_4_L304_atrocity_reading_c_one_more_with_a_leader():
    s = _atrocity("c", ATH)
    s.apply("event:34")
    assert s.to_json()["prestige"] == -3                                # 2, +1 as Sparta has a leader


def test_spec9_4_L304_atrocity_reading_d_the_plus_one_leader_goes():
    s = _atrocity("d", SPA)
    s.apply("event:34")
    s.apply("actions:7")
    obj = s.to_json()
    assert obj["prestige"] == 2 and obj["leaders"]["Athens"] is None and 1 not in obj["cards"]["in_play"]
    t = _atrocity("d", ATH)
    t.apply("event:34")
    assert t.to_json()["prestige"] == -2 and t.to_json()["leaders"]["Sparta"] == 2   # Archidamos (0) stays


# --- CAPITAL_CAPTURE_WINS (spec 8.3 item 4, C-30) -----------------------------------------------------------------

def _athens_in_sparta(rules):
    """Athens holds Sparta's capital (Laconia) with its cavalry A4; the Spartiates are away; Athens to act."""
    s = spring(ny=("event:38", "event:36"), rules=rules)
    s.apply("actions:22")
    s.apply("actions:7")

    def change(o):
        for b in ("S1", "S2", "S3", "S4", "S5"):
            o["blocks"][b]["area"] = "LA05"
        o["blocks"]["A4"]["area"] = "LA01"
        o["cities"]["LA01"]["held_by"] = "Athens"
        o["control"]["LA01"].update(area="Athens", city="Athens", besieged=False)
    return edit(s, change)


def test_spec8_3_capital_capture_wins_at_the_next_control_check():
    s = _athens_in_sparta("CAPITAL_CAPTURE_WINS=true")
    s.apply("pass")                                                     # the end of Athens' Action phase
    assert s.is_terminal() and s.to_json()["winner"] == "Athens" and s.to_json()["level"] == "automatic"


def test_spec8_3_capital_capture_does_not_win_by_default():
    s = _athens_in_sparta("")
    s.apply("pass")
    assert not s.is_terminal()


@pytest.mark.parametrize("rules", [
    'FAVOUR_REROLL=true;CAPITAL_CAPTURE_WINS=true;ATROCITY_LOSS={amount = 2, reading = "d"}',
    'ATROCITY_LOSS={amount = 2, reading = "b"};BATTLE_ORDER="free"',
])
def test_random_games_end_under_the_alternatives(rules):
    from games.hellas.helpers import game, play_random
    for seed in range(3):
        s = game("431", rules).new_initial_state()
        play_random(s, seed)
        assert s.is_terminal() and s.to_json()["level"] != "none"
        t = s.game.state_from_json(s.to_json())                         # a variant's state reads back
        assert t.to_json() == s.to_json()

"""Engines configured as cutechess and fastchess users write them (bots/spec.py, bots/timecontrol.py): name=,
cmd=/bot=, option.X=, tc=[moves/]seconds[+inc], st=, iterations=; per-seat clocks in the referee; -j 1 with timed
bots. Every bad value is refused with a message naming it."""
import sys
import time

import pytest

from arena.referee import Policies, Referee, play_game
from arena.tournament import TournamentConfig, TournamentError, choose_workers, unique_labels
from bots import make_bot
from bots.base import BadBotSpecError, Bot
from bots.spec import bot_label, is_config, is_external, is_timed, parse_config
from bots.timecontrol import Clock, TimeControl


def test_the_key_value_form_and_the_old_specs_side_by_side():
    c = parse_config("name=A bot=ismcts:c=0.7 option.depth=60 iterations=300 tc=40/60+0.6")
    assert (c.name, c.spec, c.external) == ("A", "ismcts:c=0.7,depth=60,iterations=300", False)
    assert c.control == TimeControl(60.0, 0.6, 40, None)
    e = parse_config("name=B cmd='python my engine.py --fast' option.Hash=64 st=0.5")
    assert (e.spec, e.engine_options, e.control.movetime) == ("cmd:python my engine.py --fast", {"Hash": "64"}, 0.5)
    for old in ("random", "ismcts:time=1,c=0.7", "cmd:python x.py --level=3"):
        assert not is_config(old) and bot_label(old) == old
    assert unique_labels(["name=A bot=random", "greedy", "name=A bot=greedy"]) == ["A", "greedy", "A#2"]
    assert is_external("name=B cmd=./engine") and is_external("cmd:./engine") and not is_external("name=A bot=mcts")
    assert is_timed("ismcts:time=0.5") and is_timed("name=A bot=random st=1") and not is_timed("ismcts:iterations=9")
    assert not is_timed("name=A bot=random tc=inf")


@pytest.mark.parametrize("text, message", [
    ("name=A", "needs exactly one of cmd="),
    ("name=A bot=random cmd=./x", "needs exactly one of cmd="),
    ("name=A bot=random colour=red", "unknown key 'colour'"),
    ("name=A bot=random name=B", "name= given twice"),
    ("name=A bot=random option.c=1 option.c=2", "option.c given twice"),
    ("name=A bot=random option=1", "write option.NAME=VALUE"),
    ("name=A bot=random tc=", "tc= is empty"),
    ("name=A bot=random tc=fast", "tc='fast' is not a time control"),
    ("name=A bot=random tc=0", "base time must be positive"),
    ("name=A bot=random tc=0/60", "moves a period must be at least 1"),
    ("name=A bot=random tc=60+x", "not a time control"),
    ("name=A bot=random st=-1", "st='-1': a fixed time a move must be positive"),
    ("name=A bot=random st=soon", "st='soon' is not a number"),
    ("name=A bot=random st=inf", "must be positive seconds"),
    ("name=A bot=mcts iterations=0", "iterations=0 must be at least 1"),
    ("name=A bot=mcts iterations=many", "not a whole number"),
    ("name=A cmd=./x iterations=5", "give an engine its own option"),
    ("name=A bot=mcts:iterations=5 iterations=6", "iterations is set twice"),
    ("name=A bot=cmd:./x", "write an engine as cmd="),
    ("name=A bot=random 'unclosed", "cannot split"),
])
def test_bad_configurations_are_refused(text, message):
    with pytest.raises(BadBotSpecError, match=message):
        parse_config(text)


def test_a_bad_value_of_a_built_in_bot_fails_before_any_game(tmp_path):
    with pytest.raises(BadBotSpecError, match="unknown option"):
        make_bot("name=A bot=greedy option.speed=3")
    cfg = TournamentConfig("goofspiel", {"players": 2, "cards": 3}, ["name=A bot=mcts option.c=fast", "random"])
    from arena.tournament import run_tournament
    with pytest.raises(BadBotSpecError, match="c="):
        run_tournament(cfg, tmp_path / "t.jsonl", progress=False, workers=1)


def test_time_controls_parse_like_cutechess():
    assert TimeControl.parse("60") == TimeControl(60.0, 0.0, None, None)
    assert TimeControl.parse("60+0.5") == TimeControl(60.0, 0.5, None, None)
    assert TimeControl.parse("1:30+1") == TimeControl(90.0, 1.0, None, None)
    assert TimeControl.parse("inf").timed is False and TimeControl.parse("inf", 2.0).timed
    assert str(TimeControl.parse("40/60+0.6", 2.0)) == "tc=40/60+0.6 st=2"


def test_the_clock_adds_increments_and_a_new_period_every_n_moves():
    clock = Clock(TimeControl(10.0, 1.0, 2, None))
    clock.charge(3.0)
    clock.moved()
    assert clock.time_left() == 8.0                   # 10 - 3 + 1
    clock.charge(4.0)
    clock.moved()
    assert clock.time_left() == 15.0                  # 8 - 4 + 1, then the next period's 10
    clock.charge(15.5)
    assert clock.over(15.5, grace=0.25) and not clock.over(15.5, grace=1.0)
    assert clock.used == 22.5
    st = Clock(TimeControl(None, 0.0, None, 0.1))
    st.charge(0.2)
    assert st.time_left() is None and st.over(0.2, 0.05) and not st.over(0.2, 0.25)


class Sleepy(Bot):
    name = "sleepy"

    def act(self, view, turn):
        time.sleep(0.06)
        return turn.legal[0]


def test_each_seat_plays_on_its_own_clock():
    slow, fast = Sleepy(), Sleepy()
    slow.time_control = TimeControl(None, 0.0, None, 0.02)           # st=0.02: it takes 0.06, and loses
    record = Referee("goofspiel", {"players": 2, "cards": 3}, [fast, slow], 1, Policies(grace=0.0)).play()
    assert record.result["reason"] == "timeout:1" and "st=0.02" in record.meta["error"]
    a, b = Sleepy(), Sleepy()
    # 0.2 s + 0.05 a move: four moves of 0.06 s fit only with the increments (0.24 > 0.2)
    a.time_control = TimeControl(0.2, 0.05, None, None)
    record = Referee("goofspiel", {"players": 2, "cards": 4}, [a, b], 1, Policies(grace=0.0)).play()
    assert record.result["reason"] == "normal" and record.meta["clock"][0] >= 0.24


def test_the_bot_sees_its_own_clock_in_its_turn():
    seen = []

    class Watcher(Bot):
        def act(self, view, turn):
            seen.append((turn.movetime, turn.time_left))
            return turn.legal[0]

    w = Watcher()
    w.time_control = TimeControl.parse("2/5+1", movetime=3.0)
    Referee("goofspiel", {"players": 2, "cards": 3}, [w, make_bot("random")], 1).play()
    assert seen[0] == (3.0, 5.0)
    assert 5.5 < seen[1][1] <= 6.0 and 11.5 < seen[2][1] <= 12.0      # +1 a move, +5 after the 2nd move


def test_records_keep_the_configuration_and_labels_use_the_name():
    record = play_game("goofspiel", {"players": 2, "cards": 3}, ["name=Searcher bot=mcts iterations=20 st=5",
                                                                   "random"], 2, labels=["Searcher", "random"])
    assert record.bots[0] == "name=Searcher bot=mcts iterations=20 st=5" and record.seats[0] == "Searcher"
    assert record.evals[record.players.index(0)]["iterations"] in (0, 20)


def test_engine_options_are_sent_with_setoption(child_env):
    engine = f"cmd='{sys.executable} -m arena.cli engine --bot mcts'"
    good = play_game("goofspiel", {"players": 2, "cards": 3}, [f"name=E {engine} option.iterations=25", "random"], 3)
    assert good.result["reason"] == "normal"
    bad = play_game("goofspiel", {"players": 2, "cards": 3}, [f"name=E {engine} option.colour=red", "random"], 3)
    assert bad.result["reason"] == "crash:0" and "refused option.colour=red" in bad.meta["error"]


def test_jobs_default_to_one_when_a_bot_is_timed():
    untimed = TournamentConfig("goofspiel", {"players": 2}, ["greedy", "random"])
    timed = TournamentConfig("goofspiel", {"players": 2}, ["name=A bot=greedy tc=60+1", "random"])
    clocked = TournamentConfig("goofspiel", {"players": 2}, ["greedy", "random"], policies=Policies(movetime=1.0))
    warnings = []
    assert choose_workers(None, untimed, warnings.append) == 0 and choose_workers(3, untimed, warnings.append) == 3
    assert warnings == []
    assert choose_workers(None, timed, warnings.append) == 1 and choose_workers(None, clocked, warnings.append) == 1
    assert choose_workers(4, timed, warnings.append) == 4 and "warning: -j 4 with timed bots" in warnings[0]
    with pytest.raises(TournamentError, match="-j must be 0"):
        choose_workers(-2, untimed)


def test_command_line_takes_the_form(kleos):
    out = kleos("tournament", "goofspiel", "-o", "cards=3", "--bot", "name=Deep bot=mcts iterations=30",
                "--bot", "name=Rand bot=random", "-n", "2", "--out", "t.jsonl", "-q")
    assert "Deep" in out.stdout and "Rand" in out.stdout and "mcts:iterations" not in out.stdout
    bad = kleos("tournament", "goofspiel", "--bot", "name=A bot=random tc=soon", "--bot", "random", check=False)
    assert bad.returncode == 1 and "tc='soon' is not a time control" in bad.stderr and "Traceback" not in bad.stderr
    warned = kleos("tournament", "goofspiel", "-o", "cards=3", "--bot", "name=A bot=random st=1", "--bot", "random",
                   "-n", "2", "-j", "2", "--out", "w.jsonl", "-q")
    assert "warning: -j 2 with timed bots" in warned.stderr

"""scripts/polis_evaluate_ab.py (docs/strength.md, "Polis's evaluate(): a side still to act, and omega's
tie-break"): each seat's bot searches its own copy of the game, which differs from the referee's in evaluate.json
alone; its records report again the same figures."""
import importlib.util
from pathlib import Path

import pytest

from .helpers import fresh

_PATH = Path(__file__).resolve().parents[3] / "scripts" / "polis_evaluate_ab.py"
_spec = importlib.util.spec_from_file_location("polis_evaluate_ab", _PATH)
ab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ab)


@pytest.mark.parametrize("data", ["ed1", "assumed"])
def test_a_variant_changes_the_weights_and_nothing_else(data):
    from engine.registry import load_game
    rules = load_game("polis", data=data)
    own = ab.game_with(data, ab.weights_with({"food_open": 1.0, "resources.iron": 0.9}, data))
    assert own.tables["eval"]["food_open"] == 1.0 and own.tables["eval"]["resources"][0] == 0.9
    assert own.tables["eval"] != rules.tables["eval"]
    assert {k: v for k, v in own.tables.items() if k != "eval"} == {k: v for k, v in rules.tables.items() if k != "eval"}


def test_an_unknown_weight_is_refused_by_name():
    with pytest.raises(SystemExit, match="no weight 'nope'"):
        ab.weights_with({"nope": 1.0}, "ed1")


def test_the_bot_decides_on_its_own_game():
    own = ab.game_with("ed1", ab.weights_with({"death": 0.0}, "ed1"))

    class Seen:
        def act(self, view, turn):
            self.weights = view.static()["eval"]
            return 0
    bot = ab.searching_own_game(Seen(), own)
    bot.act(fresh(), None)
    assert bot.weights["death"] == 0.0 != fresh().static()["eval"]["death"]


def test_kept_records_report_the_same_figures(tmp_path, capsys):
    out = tmp_path / "ab.jsonl.gz"
    ab.main(["--bot", "greedy", "--games", "1", "--b", '{"death": 0.0}', "--out", str(out)])
    played = capsys.readouterr().out
    assert "A's score" in played and "1 deals, 2 games" in played
    ab.main(["--records", str(out)])
    assert capsys.readouterr().out == played


@pytest.mark.parametrize("script, option, message", [
    (ab, "data=nowhere", "neither a data set"),
    (ab, "data", "is not of the form name=value"),
])
def test_a_bad_game_option_is_one_line_naming_it(script, option, message, capsys):
    with pytest.raises(SystemExit):
        script.main(["--option", option, "--games", "1"])
    assert message in capsys.readouterr().err


def test_variant_b_may_play_another_bot(tmp_path, capsys):
    """--bot-b: a variant's weights against another searcher's with the file's (the kleos cells' screen)."""
    from engine.records import read_whole_runs
    out = tmp_path / "ab.jsonl.gz"
    ab.main(["--bot", "greedy", "--bot-b", "random", "--games", "1", "--out", str(out)])
    assert "A greedy, B random" in capsys.readouterr().out
    for record in read_whole_runs([str(out)]):
        a = record.meta["a_seat"]
        assert (record.bots[a], record.bots[1 - a]) == ("greedy", "random")


@pytest.mark.parametrize("flag", ["--bot", "--bot-b"])
def test_a_bad_bot_spec_is_one_line_before_any_game(flag, capsys):
    with pytest.raises(SystemExit):
        ab.main([flag, "ismcts:banana=1", "--games", "1"])
    err = capsys.readouterr().err
    assert f"{flag} ismcts:banana=1" in err and "banana" in err and "Traceback" not in err

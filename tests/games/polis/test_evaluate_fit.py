"""scripts/polis_evaluate_fit.py (docs/strength.md, "Polis's evaluate() fitted to kept games' results"):
positions sampled from kept games, labelled by their results; the weights move only while the training loss
falls, and the fitted file is one Polis loads."""
import importlib.util
import json
import re
from pathlib import Path

import pytest

from arena.referee import play_game
from engine.records import append_record

_PATH = Path(__file__).resolve().parents[3] / "scripts" / "polis_evaluate_fit.py"
_spec = importlib.util.spec_from_file_location("polis_evaluate_fit", _PATH)
fit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fit)


@pytest.fixture(scope="module")
def kept_games(tmp_path_factory):
    path = tmp_path_factory.mktemp("fit") / "games.jsonl.gz"
    for seed in range(1, 11):
        append_record(str(path), play_game("polis", {"players": 2}, ["greedy", "random"], seed))
    return path


def test_the_fit_lowers_the_training_loss_and_writes_a_file_polis_loads(kept_games, tmp_path, capsys):
    from engine.games.polis.data import read_data
    from engine.registry import load_game
    out, changes = tmp_path / "evaluate.json", tmp_path / "changes.json"
    fit.main([str(kept_games), "--every", "4", "--passes", "2", "--out", str(out), "--changes", str(changes)])
    log = capsys.readouterr().out
    assert re.search(r"10 games: \d+ training positions, \d+ held out", log)
    losses = [float(x) for x in re.findall(r"training loss ([0-9.]+)", log)]
    assert len(losses) >= 2 and losses == sorted(losses, reverse=True) and losses[-1] < losses[0]
    fitted, moved = json.loads(out.read_text()), json.loads(changes.read_text())
    start = read_data(None, "evaluate.json")
    assert moved and all(fit.get(fitted, n) == v != fit.get(start, n) for n, v in moved.items())
    assert all(fit.get(fitted, n) == fit.get(start, n) for n in fit.weight_names(start) if n not in moved)
    # the fitted file is a weights file Polis reads (a data folder holding it), and says it was fitted
    game = load_game("polis", data=str(tmp_path))
    assert game.tables["eval"]["scale"] == fitted["scale"]["value"]
    some = next(iter(moved))
    entry = fitted["resources"] if some.startswith("resources.") else fitted[some]
    assert "fitted" in entry["status"]


def test_held_out_games_are_fixed_by_file_and_seed(kept_games):
    from engine.records import read_whole_runs
    records = read_whole_runs([str(kept_games)])
    held = [fit.held_out(r, str(kept_games)) for r in records]
    assert held == [fit.held_out(r, "elsewhere/" + kept_games.name) for r in records]   # the name, not the folder
    assert 0 < sum(held) < len(held)


def test_records_without_polis_games_are_a_clear_error(tmp_path, capsys):
    path = tmp_path / "goofspiel.jsonl.gz"
    append_record(str(path), play_game("goofspiel", {"players": 2, "cards": 4}, ["random", "random"], 1))
    with pytest.raises(SystemExit):
        fit.main([str(path), "--out", str(tmp_path / "x.json")])
    assert "hold no Polis positions" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        fit.main([str(tmp_path / "missing.jsonl.gz"), "--out", str(tmp_path / "x.json")])
    assert "no such record file" in capsys.readouterr().err


def test_search_labels_are_a_search_value_for_athens_and_fit_as_results_do(kept_games, tmp_path, capsys):
    """--label SPEC: each position is worth what that search finds it worth for Athens (the mover's value, turned
    round when Sparta moves); positions with one legal move are dropped (nothing is searched there)."""
    from engine.registry import load_game
    train, _ = fit.sample_positions([str(kept_games)], 6, 1, lambda text: None)
    labelled = fit.search_labels(train[:30], "mcts:iterations=40,seed=3", lambda text: None)
    assert 0 < len(labelled) <= 30 and all(0.0 <= v <= 1.0 for _, v in labelled)
    game = load_game("polis")
    from search import from_spec
    obj, value = labelled[0]
    state = game.state_from_json(obj)
    with from_spec("mcts:iterations=40,seed=3") as searcher:
        mine = searcher.search(state).stats["value"]
    assert value == pytest.approx(mine if state.current_player() == 0 else 1 - mine)
    out = tmp_path / "evaluate.json"
    fit.main([str(kept_games), "--every", "6", "--passes", "1", "--label", "mcts:iterations=20,seed=1",
              "--out", str(out)])
    log = capsys.readouterr().out
    losses = [float(x) for x in re.findall(r"training loss ([0-9.]+)", log)]
    assert losses[-1] <= losses[0]
    assert "the values mcts:iterations=20,seed=1 found" in json.loads(out.read_text())["_doc"]


def test_a_bad_label_spec_is_one_line_before_any_sampling(kept_games, tmp_path, capsys):
    with pytest.raises(SystemExit):
        fit.main([str(kept_games), "--label", "mcts:banana=1", "--out", str(tmp_path / "x.json")])
    err = capsys.readouterr().err
    assert "--label mcts:banana=1" in err and "unknown option 'banana'" in err

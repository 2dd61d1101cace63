"""scripts/pantikapaion_evaluate_fit.py and scripts/pantikapaion_evaluate_ab.py (docs/strength.md, "Pantikapaion's
evaluate() fitted to kept games"): the fit is the maximum-likelihood logistic model of the pairs' final order with
the file's range kept, and writes a file Pantikapaion loads; the A/B gives each seat's search its own weights."""
import importlib.util
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from arena.referee import play_game
from engine.games.pantikapaion import data as data_mod
from engine.records import append_record, read_whole_runs

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"


def script(name):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module              # a -j run's workers find its functions by the module's name
    spec.loader.exec_module(module)
    return module


fit = script("pantikapaion_evaluate_fit")
ab = script("pantikapaion_evaluate_ab")


@pytest.fixture(scope="module")
def kept_games(tmp_path_factory):
    path = tmp_path_factory.mktemp("fit") / "games.jsonl.gz"
    for seed in range(1, 13):
        append_record(str(path), play_game("pantikapaion", {"players": 2}, ["random", "random"], seed))
    return path


def test_the_fit_beats_the_shipped_weights_on_its_training_pairs_and_writes_a_loadable_file(kept_games, tmp_path,
                                                                                           capsys):
    out, changes = tmp_path / "evaluate.json", tmp_path / "changes.json"
    fit.main([str(kept_games), "--every", "3", "--out", str(out), "--changes", str(changes)])
    log = capsys.readouterr().out
    ce = {label: float(value) for label, value in
          [(line.split(":")[0], line.split("cross-entropy ")[1].split(" ")[0]) for line in log.splitlines()
           if "cross-entropy" in line]}
    assert ce["fitted"] <= ce["shipped"]            # the maximum of the likelihood, the shipped weights in its range
    doc = json.loads(out.read_text())
    weights = data_mod.evaluate_weights(doc)        # a file Pantikapaion's loader accepts
    moved = json.loads(changes.read_text())
    assert moved and all(weights[name] == value for name, value in moved.items())
    assert all("fitted" in doc[name]["status"] for name in moved)


def test_a_fit_on_one_player_count_reads_only_its_games(kept_games, tmp_path, capsys):
    fit.main([str(kept_games), "--every", "3", "--players", "2", "--out", str(tmp_path / "two.json")])
    log = capsys.readouterr().out
    assert log.startswith("12 games:") and "held out, 2 players:" in log
    assert "of 2-player games" in json.loads((tmp_path / "two.json").read_text())["_doc"]
    with pytest.raises(SystemExit):                 # the kept games are all 2-player ones
        fit.main([str(kept_games), "--players", "4", "--out", str(tmp_path / "four.json")])
    assert "too few Pantikapaion games" in capsys.readouterr().err


def test_a_part_that_would_weigh_negative_is_held_at_zero():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(4000, 5))
    truth = np.array([0.5, 0.3, -0.4, 0.2, 0.1])      # the third column pulls the wrong way
    y = (rng.random(4000) < 1 / (1 + np.exp(-(X @ truth)))).astype(float)
    coef = fit.fit(X, y)
    assert coef[2] == 0.0 and (coef[[0, 1, 3, 4]] > 0).all()
    assert coef[0] == pytest.approx(0.5, abs=0.1)


def test_records_without_pantikapaion_games_are_a_clear_error(tmp_path, capsys):
    path = tmp_path / "goofspiel.jsonl.gz"
    append_record(str(path), play_game("goofspiel", {"players": 2, "cards": 4}, ["random", "random"], 1))
    with pytest.raises(SystemExit):
        fit.main([str(path), "--out", str(tmp_path / "x.json")])
    assert "too few Pantikapaion games" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        fit.main([str(tmp_path / "missing.jsonl.gz"), "--out", str(tmp_path / "x.json")])
    assert "no such record file" in capsys.readouterr().err


def test_each_seat_searches_its_own_weights():
    shipped, other = ab.game_with(2, {}), ab.game_with(2, {"scale": 1.0, "building": 9.0})
    seen = []

    class Probe:
        def act(self, view, turn):
            seen.append(view.game.data["evaluate"])
            return view.legal_actions()[0]

    state = shipped.new_initial_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    ab.searching_own_game(Probe(), other).act(state, 0)
    assert seen[0]["scale"] == 1.0 and seen[0]["building"] == 9.0
    assert shipped.data["evaluate"] == data_mod.load()["evaluate"]          # the shipped game is untouched


def test_a_run_reports_a_score_and_its_records_report_the_same(tmp_path, capsys):
    out = tmp_path / "ab.jsonl"
    ab.main(["--a", '{"scale": 12.0}', "--bot", "kleos:iterations=30", "--games", "1", "--players", "2",
             "--first", "3", "--out", str(out)])
    played = capsys.readouterr().out
    assert "A's score" in played and "1 deals, 2 games" in played
    ab.main(["--records", str(out)])
    assert capsys.readouterr().out == played


def test_games_played_at_once_are_the_games_played_one_after_the_other(tmp_path, capsys):
    # -j only changes where a game runs: each game's seed and budget fix it, so the records and the report agree
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"ab-{jobs}.jsonl"
        ab.main(["--a", '{"scale": 12.0}', "--bot", "kleos:iterations=30", "--games", "2", "--first", "7",
                 "-j", jobs, "--out", str(out)])
        runs[jobs] = (capsys.readouterr().out, read_whole_runs([str(out)]))
    (report1, records1), (report2, records2) = runs["1"], runs["2"]
    assert report2 == report1 and "2 deals, 4 games" in report1
    key = lambda r: (r.seed, r.meta["a_seat"])                              # noqa: E731
    assert [(key(r), r.actions, r.result) for r in sorted(records2, key=key)] == \
        [(key(r), r.actions, r.result) for r in records1]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_stops_a_run_keeping_the_games_that_ended(tmp_path, jobs):
    # with -j 1 the signal lands inside a game: it must stop the run, not be charged to the bot thinking then
    out = tmp_path / "ab.jsonl.gz"
    run = subprocess.Popen([sys.executable, str(SCRIPTS / "pantikapaion_evaluate_ab.py"), "--bot",
                            "kleos:iterations=1000", "--games", "200", "-j", jobs, "--out", str(out)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in run.stderr:                         # once a game has ended, stop the run inside the next one
        if line.startswith("game "):
            time.sleep(1.0)
            run.send_signal(signal.SIGTERM)
            break
    rest, tail = run.communicate(timeout=60)
    assert run.returncode == 0 and "stopped after" in tail and "of 400 games" in tail
    kept = read_whole_runs([str(out)])
    assert 1 <= len(kept) < 400 and all(r.result["reason"] == "normal" for r in kept)
    assert "A's score" in rest or "no deal was played with A in every seat" in rest


def test_the_report_counts_whole_deals_only(tmp_path, capsys):
    out = tmp_path / "ab.jsonl"
    ab.main(["--bot", "kleos:iterations=30", "--games", "2", "--first", "3", "--out", str(out)])
    whole = capsys.readouterr().out
    records = read_whole_runs([str(out)])
    kept, left = ab.whole_deals(records[:3])                        # the second deal lost its second seat
    assert [r.seed for r in kept] == [3, 3] and left == 1
    assert ab.report(records[:3]).splitlines()[1] != whole.splitlines()[1]
    assert "1 deals, 2 games" in ab.report(records[:3]) and "1 game(s) of unfinished deals left out" in \
        ab.report(records[:3])
    assert "no deal was played with A in every seat" in ab.report(records[:1])


@pytest.mark.parametrize("argv, words", [
    (["--a", '{"bonus": 1}'], "no weight bonus"),
    (["--a", '{"scale": -2}'], "scale must be"),
    (["--a", "[1]"], "must be a JSON object"),
    (["--a", "{"], "--a/--b"),
    (["--bot", "nosuchbot"], "--bot nosuchbot"),
    (["-j", "0"], "-j must be at least 1"),
])
def test_bad_arguments_are_one_line_before_any_game(argv, words, capsys):
    with pytest.raises(SystemExit):
        ab.main(argv + ["--games", "1"])
    assert words in capsys.readouterr().err

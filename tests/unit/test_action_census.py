"""scripts/action_census.py: the per-game census behind the Polis battle-frequency figure in docs/strength.md."""
import importlib.util
import pathlib

_PATH = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "action_census.py"
_spec = importlib.util.spec_from_file_location("action_census", _PATH)
census = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(census)


def test_counts_every_decision_by_prefix_and_is_reproducible():
    # goofspiel, 2 players, 5 cards: each seat bids once a round, 5 rounds, so 10 decisions, all "bid:..."
    a = census.census_game("goofspiel", {"players": 2, "cards": 5}, ["random", "greedy"], 3, ["bid:", "bid:5", "x"])
    b = census.census_game("goofspiel", {"players": 2, "cards": 5}, ["random", "greedy"], 3, ["bid:", "bid:5", "x"])
    assert a == b
    assert a["decisions"] == 10 and a["counts"]["bid:"] == 10 and a["counts"]["x"] == 0
    assert a["counts"]["bid:5"] == 2                  # each seat bids its 5 exactly once
    assert sorted(a["returns"]) in ([0.0, 1.0], [0.5, 0.5])


def test_main_prints_the_census(capsys):
    census.main(["goofspiel", "random", "random", "--option", "cards=4", "--games", "3", "--count", "bid:4"])
    out = capsys.readouterr().out
    assert "3 games" in out and "decisions a game: median 8" in out
    assert "moves 'bid:4...': in 3 of 3 games, 6 decisions in all" in out

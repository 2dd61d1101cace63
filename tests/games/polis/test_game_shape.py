"""scripts/polis_game_shape.py (docs/rules/polis.md, "How a game goes"): its figures are read from a refereed game's
record and are reproducible: the same seed and bots give the same figures, and they agree with the record."""
import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[3] / "scripts" / "polis_game_shape.py"
_spec = importlib.util.spec_from_file_location("polis_game_shape", _PATH)
shape = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shape)


def test_game_shape_is_reproducible_and_consistent():
    options = {"players": 2}
    a = shape.shape_of_game(options, ["greedy", "greedy"], 3)
    b = shape.shape_of_game(options, ["greedy", "greedy"], 3)
    assert a == b
    total = sum(a["decisions"][r][p] for r in shape.ROUNDS for p in (0, 1))
    assert 0 < total <= a["moves"]
    assert a["round"] in shape.ROUNDS and a["winner"] in (0, 1, None)
    for r in shape.ROUNDS:
        for p in (0, 1):
            assert a["actions"][r][p] <= a["decisions"][r][p]
    for p in (0, 1):                               # every tribute action takes one region's tribute (L450-L460)
        assert sum(a["regions"][p].values()) == a["counts"]["tribute"][p]
        assert a["tribute_income"][p] >= 0
        assert sum(a["sieged"][p].values()) == a["counts"]["siege"][p] >= a["retaken"][p]
    assert sum(a["counts"]["tribute"]) > 0 and sum(a["tribute_income"]) > 0
    text = shape.report([a, b], "t")
    assert "games with a battle: " in text and "Sparta's score" in text
    assert "tribute income: mean resources a game Athens/Sparta " in text and "Sparta's tribute regions: " in text
    assert "Athens's sieges: " in text and "of poleis it had released at a food step: " in text
    assert "Sparta's poleis released at a food step (games): " in text


def test_game_shape_on_the_assumed_board():
    g = shape.shape_of_game({"players": 2, "data": "assumed"}, ["random", "random"], 1)
    assert g["moves"] > 0 and g["winner"] in (0, 1, None)


def test_wilson_interval():
    lo, hi = shape.wilson(5, 10)
    assert 0.2 < lo < 0.5 < hi < 0.8
    assert shape.wilson(0, 0) == (0.0, 1.0)


def test_kept_records_give_the_same_figures(tmp_path, capsys):
    out = tmp_path / "shape.jsonl.gz"
    shape.main(["greedy", "greedy", "--games", "2", "--out", str(out)])
    played = capsys.readouterr().out
    shape.main(["--records", str(out)])
    reread = capsys.readouterr().out
    # the figures (every line after the title) are the same whether played or read back from the records
    assert played.splitlines()[1:] == reread.splitlines()[1:]
    assert "2 games" in reread.splitlines()[0] and str(out) in reread.splitlines()[0]


def test_score_ties_are_reported_apart_from_the_tie_break():
    """L711: equal scores go to the larger stock of resources; the report shows the seat balance both ways."""
    g = shape.shape_of_game({"players": 2}, ["greedy", "greedy"], 3)
    athens_win = dict(g, winner=0, tied=False)
    sparta_tie_break = dict(g, winner=1, tied=True)
    text = shape.report([athens_win, sparta_tie_break], "t")
    assert "Sparta's score 0.50" in text
    assert "tied on score (the larger stock of resources wins, L711): 1, won by Athens/Sparta 0/1" in text
    assert "Sparta's score with those as draws 0.25" in text


def test_a_bad_game_option_is_one_line_naming_it(capsys):
    with pytest.raises(SystemExit):
        shape.main(["greedy", "greedy", "--option", "data=nowhere"])
    assert "neither a data set" in capsys.readouterr().err


def test_retakes_read_from_the_kept_records():
    """docs/rules/polis.md, "How a game goes": the kept 1 s ed1 games (after the evaluate() fix) give the release
    (L640) and retake figures the docs quote. A side's siege of a polis it released at the food step (L640) is laid at an action
    decision where such a siege was legal (L393-L397), so retakes never exceed those decisions; Sparta's come
    while it holds neither of its trade poleis (Pylos, Gytheion: L209, L289), Athens's never (Athens trades from
    its capital)."""
    records = Path(__file__).resolve().parents[3] / "docs" / "records" / "polis-shape-kleos-20000-ed1-eval2.jsonl.gz"
    games = [shape.shape_of_record(r) for r in shape.read_whole_runs([str(records)])]
    retaken = [sum(g["retaken"][p] for g in games) for p in (0, 1)]
    chances = [sum(g["retake_chances"][p] for g in games) for p in (0, 1)]
    for_trade = [sum(g["retaken_for_trade"][p] for g in games) for p in (0, 1)]
    for g in games:
        for p in (0, 1):
            assert g["retaken_for_trade"][p] <= g["retaken"][p] <= g["retake_chances"][p]
    assert (retaken, chances, for_trade) == ([17, 50], [281, 177], [0, 37])
    released = [sum(g["released"][p].get(polis, 0) for g in games) for p, polis in ((0, "Chalcis"), (1, "Pylos"),
                                                                                 (1, "Gytheion"))]
    assert released == [30, 36, 34]

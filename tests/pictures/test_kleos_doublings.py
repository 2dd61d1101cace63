"""scripts/kleos_doublings.py: the picture of what a doubling of time buys Kleos's bot (docs/strength.md) is drawn
from the kept records, each row the bot against itself at half the budget, its Elo the one `kleos ratings` prints."""
import importlib.util
import json
import pathlib

import pytest

from arena.charts import doubling_chain
from arena.stats import Pairwise, elo_of
from arena.strength import run_pairings
from engine.records import read_records

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("kleos_doublings", ROOT / "scripts" / "kleos_doublings.py")
doublings = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(doublings)
MANIFEST = ROOT / "docs" / "records" / "doublings.json"


def series(files, budget="iterations", one=20, label="s"):
    return {"panel": "Goofspiel", "label": label, "current": True, "budget": budget, "one": one, "files": files}


def test_every_documented_series_rebuilds_from_its_records():
    """Every file of the manifest is kept and holds doublings only; a row's Elo is the pairwise Elo of its games,
    counted here from the records' returns (two players: A's return above B's is a win)."""
    manifest = doublings.load_manifest(MANIFEST)
    tables = [(s, doublings.series_rows(s, MANIFEST.parent)) for s in manifest]
    assert {s["panel"] for s, _ in tables} >= {"Polis", "Hellas", "Pantikapaion, 4 players", "Mare Nostrum, 3 players"}
    hellas = next(rows for s, rows in tables if s["panel"] == "Hellas" and s["current"])
    two = next(r for r in hellas if r["multiple"] == 2.0)
    records, _ = read_records(MANIFEST.parent / "hellas-dbl-2x.jsonl.gz")
    wins = draws = losses = 0
    for r in records:
        a = r.seats.index(two["a"])
        mine, theirs = r.result["returns"][a], r.result["returns"][1 - a]
        wins, draws, losses = wins + (mine > theirs), draws + (mine == theirs), losses + (mine < theirs)
    assert (two["a"], two["b"]) == ("kleos:time=0.6", "kleos:time=0.3")
    assert two["elo"] == pytest.approx(Pairwise(wins, draws, losses).elo) and two["games"] == len(records)
    # its interval: the Elo of the ends of the deal interval `kleos ratings --pairs` prints
    assert (two["low"], two["high"]) == (elo_of(two["score"] - two["ci95"]), elo_of(two["score"] + two["ci95"]))
    # where every deal scored alike (5-player Mare Nostrum's earlier bot, 4x: each deal 0.5) the deal interval is
    # zero wide, so the row reads Wilson's over its pairs instead of claiming an exact Elo
    flat = next(r for s, rows in tables if s["panel"] == "Mare Nostrum, 5 players" and not s["current"]
                for r in rows if r["multiple"] == 4.0)
    assert flat["ci95"] == 0 and flat["low"] < 0 < flat["high"]
    # every series doubles one step after another from its first budget (the chart chains them)
    for s, rows in tables:
        doubling_chain(rows)


def test_a_pairing_that_is_not_a_doubling_is_named(tmp_path):
    run_pairings("goofspiel", {"players": 2, "cards": 4},
                 [("ismcts:iterations=20", "ismcts:iterations=10"), ("ismcts:iterations=40", "ismcts:iterations=20")],
                 tmp_path / "ok.jsonl", games=2, progress=False)
    rows = doublings.series_rows(series(["ok.jsonl"]), tmp_path)
    assert [r["multiple"] for r in rows] == [1.0, 2.0] and all(r["pairs"] == 2 for r in rows)
    for pair, words in ((("ismcts:iterations=30", "ismcts:iterations=10"), "is not a doubling of iterations"),
                        (("ismcts:iterations=20,c=1", "ismcts:iterations=10"), "is not a doubling of iterations"),
                        (("pimc:iterations=20", "ismcts:iterations=10"), "is not a doubling of iterations"),
                        (("greedy", "ismcts:iterations=10"), "'greedy' names no iterations= budget")):
        path = tmp_path / f"bad{abs(hash(pair))}.jsonl"
        run_pairings("goofspiel", {"players": 2, "cards": 4}, [pair], path, games=2, progress=False)
        with pytest.raises(doublings.ManifestError, match=words):
            doublings.series_rows(series([path.name]), tmp_path)
    # a series with a gap cannot be chained from its smallest budget: named, not drawn wrong
    run_pairings("goofspiel", {"players": 2, "cards": 4}, [("ismcts:iterations=160", "ismcts:iterations=80")],
                 tmp_path / "far.jsonl", games=2, progress=False)
    with pytest.raises(doublings.ManifestError, match="skip from 2x to 8x"):
        doublings.series_rows(series(["ok.jsonl", "far.jsonl"]), tmp_path)
    with pytest.raises(doublings.ManifestError, match="no record file"):
        doublings.series_rows(series(["missing.jsonl"]), tmp_path)


def test_the_chain_adds_each_gain_and_bars_each_step_alone():
    rows = [{"multiple": 0.5, "elo": 100.0, "low": 40.0, "high": 160.0},
            {"multiple": 1.0, "elo": -20.0, "low": -90.0, "high": 50.0}]
    xs, ys, bars = doubling_chain(rows)
    assert xs == [0.25, 0.5, 1.0] and ys == [0.0, 100.0, 80.0]
    assert bars == [(0.0, 0.0), (40.0, 160.0), (10.0, 150.0)]
    with pytest.raises(ValueError, match="skip from 0.5x to 2x"):
        doubling_chain([rows[0], {**rows[1], "multiple": 2.0}])


def test_budgets_read_as_multiples_and_means_count_the_rows_above_1x():
    assert [doublings.multiple_words(x) for x in (0.125, 0.5, 1.0, 8.0)] == ["1/8x", "1/2x", "1x", "8x"]
    rows = [{"multiple": m, "elo": e} for m, e in ((0.5, 200.0), (1.0, 100.0), (2.0, 60.0), (4.0, 0.0),
                                                   (8.0, float("inf")))]
    assert doublings.mean_gain(rows) == (90.0, 4)              # an unbounded Elo (a perfect score) is not averaged
    assert doublings.mean_gain(rows, from_multiple=1.0) == (30.0, 2)
    assert doublings.mean_gain(rows[:2], from_multiple=1.0) is None


@pytest.mark.parametrize("text, words", [
    ("{", "Expecting"), ("[]", "expected a list of series"), ('[{"panel": "g"}]', "'label' must be"),
    ('[{"panel": "g", "label": "x"}]', "'current' must be"),
    ('[{"panel": "g", "label": "x", "current": true, "budget": "calls"}]', "'budget' must be one of"),
    ('[{"panel": "g", "label": "x", "current": true, "budget": "time", "one": 0}]', "'one'"),
    ('[{"panel": "g", "label": "x", "current": true, "budget": "time", "one": 1, "files": "a"}]', "'files' must be")])
def test_a_bad_manifest_is_named_not_a_traceback(tmp_path, capsys, text, words):
    path = tmp_path / "m.json"
    path.write_text(text)
    with pytest.raises(doublings.ManifestError, match=words):
        doublings.load_manifest(path)
    assert doublings.main(["--manifest", str(path), "--out", str(tmp_path / "d.svg")]) == 2
    assert "error:" in capsys.readouterr().err and not (tmp_path / "d.svg").exists()


def test_the_script_prints_its_rows_and_draws_them(tmp_path, capsys):
    run_pairings("goofspiel", {"players": 2, "cards": 4},
                 [("ismcts:iterations=20", "ismcts:iterations=10"), ("ismcts:iterations=40", "ismcts:iterations=20")],
                 tmp_path / "g.jsonl", games=4, progress=False)
    (tmp_path / "m.json").write_text(json.dumps([series(["g.jsonl"], label="ismcts"),
                                                 series([], label="later bot")]))
    assert doublings.main(["--manifest", str(tmp_path / "m.json"), "--out", str(tmp_path / "d.svg")]) == 0
    printed = capsys.readouterr().out
    assert "| Goofspiel | ismcts (now) | 1x: " in printed and "; 2x: " in printed
    assert "| Goofspiel | later bot (now) | not measured | — | — |" in printed
    picture = (tmp_path / "d.svg").read_text()
    assert "ismcts (now)" in picture and "later bot (now): not measured" in picture


def test_the_docs_table_is_the_pictures_rows_now():
    """docs/strength.md shows the picture's rows in words: its table is what the script writes from the manifest
    today (a series or file added without `--doc docs/strength.md` fails here)."""
    tables = [(s, doublings.series_rows(s, MANIFEST.parent)) for s in doublings.load_manifest(MANIFEST)]
    text = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
    shown = text.split(doublings.BEGIN)[1].split(doublings.END)[0].strip()
    assert shown == doublings.doublings_table(tables)
    assert "| Hellas |" in shown and "(now)" in shown

"""Charts of ratings, SPRT tests and strength tables: the numbers drawn are the arena's own (crosstable, rate, SPRT,
the strength rows), and the commands write the pictures."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np
from click.testing import CliRunner

import pytest

from arena.charts import (history_points, llr_path, save_ratings_chart, save_sprt_chart, save_strength_chart,
                          score_matrix, strength_verdict)
from arena.cli import main
from arena.ratings import crosstable, results_from_records
from arena.sprt import SPRT
from arena.strength import pair_rows, run_pairings
from engine.records import GameRecord


def game(seats, returns, block, seed=0):
    ranks = [1 + sum(1 for o in returns if o > r) for r in returns]
    return GameRecord("goofspiel", {"players": len(seats)}, seed, list(seats), result={
        "returns": list(returns), "scores": list(returns), "ranks": ranks, "reason": "normal"},
        meta={"block": block, "tournament": "t", "table": 0})


def three_bot_records():
    records = []
    for i in range(30):
        records.append(game(["a", "b"], [1.0, 0.0] if i % 3 else [0.0, 1.0], i, i))          # a beats b 2:1
        records.append(game(["b", "c"], [1.0, 0.0] if i % 4 else [0.5, 0.5], 100 + i, i))    # b beats c, draws
        records.append(game(["c", "a"], [0.0, 1.0], 200 + i, i))                             # a beats c always
    return records


def test_the_heat_map_shows_the_crosstable_scores():
    results = results_from_records(three_bot_records())
    order = ["a", "b", "c"]
    score, meetings = score_matrix(results, order)
    table = crosstable(results)
    assert meetings[0, 1] == sum(table[("a", "b")]) == 30
    assert math.isclose(score[0, 1], 20 / 30) and math.isclose(score[1, 0], 10 / 30)
    assert math.isclose(score[1, 2], (22 + 8 / 2) / 30)
    assert math.isclose(score[0, 2], 1.0)
    assert np.isnan(score[0, 0]) and meetings[0, 0] == 0
    met = meetings > 0
    assert np.allclose((score + score.T)[met], 1.0)


def test_rating_history_refits_on_growing_prefixes():
    assert history_points(list(range(90)), 12)[-1] == 90
    points = history_points(list(range(90)), 12)
    assert points == sorted(set(points)) and len(points) == 12 and points[0] >= 2
    assert history_points(list(range(3)), 12) == [2, 3]
    assert history_points([], 12) == []


def test_the_llr_path_is_the_tests_own_llr_block_by_block():
    records = []
    outcomes = [1.0, 1.0, 0.5, 1.0, 0.0, 1.0, 1.0, 0.5]
    for block, first in enumerate(outcomes):
        records.append(game(["A", "B"], [first, 1 - first], block, block))
        records.append(game(["B", "A"], [1 - first, first], block, block))
    path = llr_path(records, "A", 2, SPRT(0, 50))
    manual = SPRT(0, 50)
    expected = []
    for first in outcomes:
        manual.add(first)
        expected.append(manual.llr())
    assert path == expected
    # a block still open (one game of two) is not counted yet
    assert llr_path(records[:-1], "A", 2, SPRT(0, 50)) == expected[:-1]


def test_the_charts_are_written(tmp_path):
    records = three_bot_records()
    svg = tmp_path / "ratings.svg"
    save_ratings_chart(records, svg, bootstrap=20)
    text = svg.read_text()
    ET.fromstring(text)
    for needle in ("rating over games", "crosstable", "ratings from 90 games"):
        assert needle in text
    png = tmp_path / "sprt.png"
    sprt_records = [g for b in range(6)
                    for g in (game(["A", "B"], [1.0, 0.0], b, b), game(["B", "A"], [0.0, 1.0], b, b))]
    values = save_sprt_chart(sprt_records, "A", "B", 2, SPRT(0, 100), png)
    assert len(values) == 6 and values == sorted(values)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_chart_commands(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["sprt", "goofspiel", "--bot", "greedy", "--bot", "random", "-o", "cards=4",
                                  "--elo1", "300", "--max-games", "8", "--out", "s.jsonl", "--chart", "sprt.svg",
                                  "-q", "-j", "1"])
    assert result.exit_code in (0, 1, 2), result.output
    assert "chart saved to sprt.svg" in result.output
    assert "log-likelihood ratio" in (tmp_path / "sprt.svg").read_text()
    result = runner.invoke(main, ["ratings", "s.jsonl", "--chart", "ratings.png", "--bootstrap", "10"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"


def row(a, score, ci95, games=40):
    return {"a": a, "b": "B", "score": score, "ci95": ci95, "games": games}


def test_a_strength_row_is_judged_by_its_whole_interval():
    assert strength_verdict(row("A", 0.678, 0.063), 0.6) == "above"          # 0.615 > 0.6
    assert strength_verdict(row("A", 0.650, 0.119), 0.6) == "point"          # the score is above, 0.531 is not
    assert strength_verdict(row("A", 0.571, 0.090), 0.6) == "below"
    assert strength_verdict(row("A", 0.571, 0.060), None) == "above"         # without a target: parity
    assert strength_verdict(row("A", 0.500, 0.000), None) == "below"         # level is not above
    # two deals that scored alike give +-0: an interval over so few deals is not read as one
    assert strength_verdict({**row("A", 0.750, 0.000, 10), "deals": 2}, 0.6) == "point"
    assert strength_verdict({**row("A", 0.750, 0.050, 30), "deals": 5}, 0.6) == "above"


def test_the_strength_chart_draws_every_row_under_its_game(tmp_path):
    svg = tmp_path / "strength.svg"
    tables = [("polis (players=2)", [row("kleos:iterations=3000", 0.680, 0.044, 400),
                                     row("kleos:iterations=20000", 0.571, 0.090, 120)]),
              ("hellas (players=2)", [row("kleos:time=3", 0.625, 0.160, 16)])]
    verdicts = save_strength_chart(tables, svg, target=0.6, title="where kleos stands")
    assert verdicts == ["above", "below", "point"]
    text = svg.read_text()
    ET.fromstring(text)
    for needle in ("polis (players=2)", "hellas (players=2)", "kleos:iterations=20000", "0.571 ± 0.090",
                   "(400 games)", "target (0.6)", "parity (0.5)", "where kleos stands"):
        assert needle in text, needle
    with pytest.raises(ValueError, match="no strength rows"):
        save_strength_chart([("polis", [])], tmp_path / "empty.svg")


def test_ratings_pairs_chart_command(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rows = run_pairings("goofspiel", {"players": 2, "cards": 4}, [("greedy", "random")], "s.jsonl", games=4,
                        progress=False)
    runner = CliRunner()
    result = runner.invoke(main, ["ratings", "--pairs", "s.jsonl", "--chart", "s.svg", "--target", "0.6"])
    assert result.exit_code == 0, result.output
    assert "chart saved to s.svg" in result.output
    text = (tmp_path / "s.svg").read_text()
    assert f"{rows[0]['score']:.3f} ± {rows[0]['ci95']:.3f}" in text and "target (0.6)" in text
    # --target means nothing without the strength chart: a usage error that names it, no traceback
    for args in (["ratings", "s.jsonl", "--target", "0.6"], ["ratings", "--pairs", "s.jsonl", "--target", "0.6"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 2 and "--target" in result.output and "Traceback" not in result.output
    result = runner.invoke(main, ["ratings", "--pairs", "s.jsonl", "--chart", "t.svg", "--target", "1.5"])
    assert result.exit_code == 2 and "must be below 1" in result.output


def test_strength_draws_its_rows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["strength", "goofspiel", "-o", "cards=4", "--games", "4", "--pair", "greedy",
                                       "random", "--out", "s.jsonl", "--chart", "s.svg", "-q"])
    assert result.exit_code == 0, result.output
    assert "greedy  vs  random" in (tmp_path / "s.svg").read_text()
    result = CliRunner().invoke(main, ["strength", "goofspiel", "--pair", "greedy", "random", "--chart", "s.txt"])
    assert result.exit_code == 2 and "--chart" in result.output and not (tmp_path / "s.txt").exists()

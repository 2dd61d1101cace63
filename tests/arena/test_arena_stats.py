"""arena/stats.py and the statistics in the reports, against values worked out by hand from the published
formulas (cutechess's LOS and Elo, Wilson's interval, fishtest's pentanomial GSPRT); and a resumed tournament
reports exactly what an uninterrupted one does."""
import math

import numpy as np
import pytest

from arena.ratings import GameResult, format_report, rate
from arena.sprt import SPRT, elo_to_score, llr
from arena.stats import (Pairwise, elo_interval, elo_of, irv_order, instant_runoff, los, pentanomial_counts,
                         wilson)
from arena.tournament import TournamentConfig, run_tournament
from engine.records import read_records


def test_wilson_los_and_elo_by_hand():
    # p = 0.5, n = 100, z = 1.96: centre 0.5, half = 1.96 * sqrt(0.0025 + 0.000096) / 1.038416 = 0.096170
    low, high = wilson(0.5, 100)
    assert abs(low - 0.403830) < 1e-5 and abs(high - 0.596170) < 1e-5
    # LOS of 60 wins, 40 losses: (1 + erf(20 / sqrt(200))) / 2 = (1 + erf(1.414214)) / 2 = 0.977250
    assert abs(los(60, 40) - 0.977250) < 1e-6 and los(5, 5) == 0.5
    assert abs(elo_of(0.75) - 190.848501) < 1e-5 and elo_of(1.0) == math.inf and elo_of(0.0) == -math.inf
    # an interval's end a rounding error inside 0 or 1 is unbounded, not thousands of Elo
    assert elo_of(1 - 1e-12) == math.inf and elo_of(1e-12) == -math.inf and math.isfinite(elo_of(0.9997))
    pair = Pairwise(60, 20, 20)                      # score 0.7: -400 log10(1/0.7 - 1) = 400 * 0.367977 = 147.19
    assert abs(pair.elo - 147.1907) < 1e-3
    assert "60-20-20" in pair.describe() and "LOS 100.0%" in pair.describe()
    assert "LOS  97.7%" in Pairwise(60, 0, 40).describe()


def test_a_perfect_score_has_an_honest_interval():
    # 10 wins of 10: Wilson's lower bound is 1 / (1 + 1.96^2 / 10) = 0.722467, 166.5 Elo; no upper bound
    pair = Pairwise(10, 0, 0)
    low, high = pair.interval()
    assert abs(low - elo_of(1 / (1 + 1.959963984540054 ** 2 / 10))) < 1e-9 and high == math.inf
    assert "+inf" in pair.describe()
    results = [GameResult(["A", "B"] if i % 2 else ["B", "A"], [1.0, 0.0] if i % 2 else [0.0, 1.0],
                          [1, 2] if i % 2 else [2, 1], f"b{i // 2}") for i in range(20)]
    a = [r for r in rate(results, bootstrap=50) if r.label == "A"][0]
    assert a.high == math.inf and a.low < a.elo and a.high > a.low         # never [559, 559]
    b = [r for r in rate(results, bootstrap=50) if r.label == "B"][0]
    assert b.low == -math.inf


def _fishtest_mle(values, probs, s):
    """The maximum-likelihood distribution on `values` with mean s (fishtest's LLRcalc.MLE: solve the secular
    equation sum p_i (a_i - s) / (1 + x (a_i - s)) = 0 for x), by plain bisection: independent of arena.sprt."""
    d = [a - s for a in values]
    lo, hi = -1 / max(d) + 1e-12, -1 / min(d) - 1e-12
    for _ in range(200):
        mid = (lo + hi) / 2
        if sum(p * di / (1 + mid * di) for p, di in zip(probs, d)) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return [p / (1 + x * di) for p, di in zip(probs, d)]


@pytest.mark.parametrize("penta, elo0, elo1", [
    ([461, 5134, 10950, 5346, 509], 0.0, 2.0),
    ([30, 220, 500, 260, 40], -1.0, 4.0),
    ([5, 20, 40, 25, 10], 0.0, 20.0),
])
def test_pentanomial_llr_matches_fishtest_formulas(penta, elo0, elo1):
    counts = dict(zip((0.0, 0.25, 0.5, 0.75, 1.0), penta))
    n = sum(penta)
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    probs = [c / n for c in penta]
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    p0, p1 = _fishtest_mle(values, probs, s0), _fishtest_mle(values, probs, s1)
    exact = sum(c * math.log(a / b) for c, a, b in zip(penta, p1, p0))
    assert abs(llr(counts, elo0, elo1) - exact) < 1e-6 * max(1.0, abs(exact))
    # Van den Bergh's normal approximation, the formula fishtest documents:
    # LLR ~ N (s1 - s0) (2 mean - s0 - s1) / (2 var), var the per-pair variance
    mean = sum(v * p for v, p in zip(values, probs))
    var = sum(p * (v - mean) ** 2 for v, p in zip(values, probs))
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert abs(exact - approx) < 0.02 * abs(approx) + 0.01


def test_pentanomial_elo_and_interval_by_hand():
    counts = {0.0: 10, 0.25: 20, 0.5: 40, 0.75: 20, 1.0: 10}      # symmetric: mean 0.5, Elo 0
    elo, low, high = elo_interval(counts)
    # var = (2 * 10 * 0.25 + 2 * 20 * 0.0625) / 100 = 0.075; half-width 1.96 * sqrt(0.075 / 100) = 0.053677
    assert abs(elo) < 1e-9 and abs(low - elo_of(0.5 - 0.0536767)) < 1e-3 and abs(high + low) < 1e-9
    assert pentanomial_counts(counts) == [10, 20, 40, 20, 10]
    elo, low, high = elo_interval({1.0: 12})                        # every pair won: one-sided, not zero-width
    assert elo == math.inf and high == math.inf and math.isfinite(low)


def test_sprt_summary_and_progress():
    test = SPRT(0, 10, 0.05, 0.05)
    test.pairs = True
    for score, times in ((0.0, 3), (0.25, 10), (0.5, 30), (0.75, 12), (1.0, 5)):
        for _ in range(times):
            test.add(score)
    for outcome, times in ((0, 50), (1, 40), (2, 30)):
        for _ in range(times):
            test.add_game(outcome)
    text = test.summary()
    assert "Games: 120, W: 50 L: 30 D: 40" in text and "Ptnml(0-2): 3, 10, 30, 12, 5" in text
    assert f"LLR: {test.llr():.2f} (-2.94, 2.94) [0, 10]" in text and "Elo: " in text and "(95%)" in text
    value = test.llr()
    assert test.progress() == pytest.approx(max(value / test.upper, value / test.lower, 0.0))


def test_instant_runoff_differs_from_total_score_where_it_should():
    # A scores 14/20 (it beats the weak C 10-0, loses to B 4-6); B 10/20; C 6/20. By total A is first; the run-off
    # drops C first, then B beats A head to head.
    score = np.array([[0, 4, 10], [6, 0, 4], [0, 6, 0]], dtype=float)
    meet = np.full((3, 3), 10.0) - 10 * np.eye(3)
    assert irv_order(score, meet) == [1, 0, 2]
    results = [GameResult(["A", "B", "C"], [1.0, 0.5, 0.0], [1, 2, 3], f"b{i}") for i in range(6)]
    rows = instant_runoff(results, bootstrap=30)
    assert [(r.label, r.place, r.low, r.high) for r in rows] == [("A", 1, 1, 1), ("B", 2, 2, 2), ("C", 3, 3, 3)]


def test_reports_show_pairwise_and_runoff(tmp_path):
    cfg = TournamentConfig("goofspiel", {"players": 3, "cards": 3}, ["greedy", "random", "mcts:iterations=20"],
                           games=6)
    result = run_tournament(cfg, tmp_path / "t.jsonl", progress=False, workers=1)
    text = format_report(result.records, bootstrap=20)
    assert "Pairwise" in text and "LOS" in text and "Robust ranking (instant run-off" in text


def test_a_resumed_tournament_reports_what_an_uninterrupted_one_does(tmp_path):
    cfg = TournamentConfig("goofspiel", {"players": 2, "cards": 4}, ["mcts:iterations=30", "random", "greedy"],
                           games=4, seed=3)
    whole = run_tournament(cfg, tmp_path / "whole.jsonl", progress=False, workers=1)
    run_tournament(cfg, tmp_path / "cut.jsonl", progress=False, workers=1, limit=5)
    assert len(read_records(tmp_path / "cut.jsonl")[0]) == 5
    resumed = run_tournament(cfg, tmp_path / "cut.jsonl", progress=False, workers=1, resume=True)
    assert resumed.resumed == 5 and resumed.played == len(whole.records) - 5
    assert format_report(resumed.records, bootstrap=40) == format_report(whole.records, bootstrap=40)
    key = lambda r: r.meta["job"]                                    # noqa: E731
    for a, b in zip(sorted(whole.records, key=key), sorted(resumed.records, key=key)):
        assert (a.actions, a.result, a.seats) == (b.actions, b.result, b.seats)

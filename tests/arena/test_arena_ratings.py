"""Ratings (Bradley-Terry / Plackett-Luce with block-bootstrap intervals) and the SPRT, on synthetic data with
a known truth."""
import itertools
import math

import numpy as np
import pytest

from arena.ratings import (ELO_PER_NAT, GameResult, build_events, crosstable, fit_strengths, rate, seat_scores)
from arena.stats import block_meetings, prior_held_share, ratings_exist
from arena.sprt import SPRT, elo_to_score, llr, score_to_elo


def _returns_from_ranks(ranks):
    n = len(ranks)
    return [1.0 - (sum(r2 < r for r2 in ranks) + (sum(r2 == r for r2 in ranks) - 1) * 0.5) / (n - 1)
            for r in ranks]


def synthetic_pl(true_elo, players, blocks, rng, draw=0.0):
    """Tournament-shaped synthetic results: each block is one table of bots in every seat rotation; finishing
    orders drawn from Plackett-Luce with the true strengths (two players: a draw with probability `draw`)."""
    labels = list(true_elo)
    strength = {k: math.exp(v / ELO_PER_NAT) for k, v in true_elo.items()}
    results = []
    for b in range(blocks):
        table = list(rng.choice(labels, size=players, replace=False))
        for r in range(players):
            seats = table[r:] + table[:r]
            if players == 2 and rng.random() < draw:
                ranks = [1, 1]
            else:
                left, order = list(range(players)), []
                while left:
                    w = np.array([strength[seats[s]] for s in left])
                    pick = left[rng.choice(len(left), p=w / w.sum())]
                    order.append(pick)
                    left.remove(pick)
                ranks = [order.index(s) + 1 for s in range(players)]
            results.append(GameResult(seats, _returns_from_ranks(ranks), ranks, f"b{b}"))
    return results


def centred(truth):
    mean = sum(truth.values()) / len(truth)
    return {k: v - mean for k, v in truth.items()}


@pytest.mark.parametrize("players,truth", [
    (2, {"a": -200.0, "b": 0.0, "c": 100.0, "d": 250.0}),
    (4, {"a": -150.0, "b": 0.0, "c": 50.0, "d": 100.0, "e": 200.0}),
])
def test_intervals_cover_the_true_ratings(players, truth):
    """Over repeated synthetic tournaments the 95% intervals hold the true (mean-centred) Elo in nearly all
    cases (measured: 95% over 50 repetitions of each case; the bound below leaves room for the sampling noise
    of 8 repetitions), and the point estimates order the bots as the truth does."""
    rng = np.random.default_rng(7)
    truth = centred(truth)
    covered = total = 0
    for rep in range(8):
        results = synthetic_pl(truth, players, 300 if players == 2 else 120, rng)
        rows = rate(results, bootstrap=100, seed=rep)
        for row in rows:
            total += 1
            covered += row.low <= truth[row.label] <= row.high
            assert row.low <= row.elo <= row.high
            assert abs(row.elo - truth[row.label]) < 120
        assert [r.label for r in rows] == sorted(truth, key=lambda k: -truth[k])
    assert covered / total >= 0.78, f"intervals covered the truth only {covered}/{total} times"


def test_draws_count_half_and_equal_bots_rate_equal():
    results = [GameResult(["x", "y"], [0.5, 0.5], [1, 1], f"b{i}") for i in range(10)]
    rows = rate(results, bootstrap=20)
    assert all(abs(r.elo) < 1e-6 for r in rows)
    # one win each way and a draw: still equal
    results = [GameResult(["x", "y"], [1, 0], [1, 2], "b0"), GameResult(["y", "x"], [1, 0], [1, 2], "b0"),
               GameResult(["x", "y"], [0.5, 0.5], [1, 1], "b1")]
    assert all(abs(r.elo) < 1e-6 for r in rate(results, bootstrap=0))


def test_a_perfect_record_gives_a_finite_rating_with_an_open_interval():
    """The estimate stays finite (the weak prior), but the interval is honest: no upper end (docs/ratings.md)."""
    results = [GameResult(["x", "y"], [1.0, 0.0], [1, 2], f"b{i}") for i in range(20)]
    rows = rate(results, bootstrap=20)
    assert rows[0].label == "x" and 200 < rows[0].elo < 5000 and rows[0].high == math.inf
    assert math.isfinite(rows[0].low) and rows[0].low < rows[0].elo


def test_two_player_fit_matches_the_logistic_elo_formula():
    """75% against one opponent is 2 * 191 Elo apart (400 log10 3), give or take the weak prior."""
    results = [GameResult(["x", "y"], [1.0, 0.0], [1, 2], "b") for _ in range(300)]
    results += [GameResult(["x", "y"], [0.0, 1.0], [2, 1], "b") for _ in range(100)]
    ev, _ = build_events(results, ["x", "y"])
    theta = fit_strengths(ev, 2)
    assert abs(ELO_PER_NAT * (theta[0] - theta[1]) - 400 * math.log10(3)) < 2


def test_crosstable_and_seat_scores():
    results = [GameResult(["a", "b", "c"], [1.0, 0.25, 0.25], [1, 2, 2], "b0"),
               GameResult(["b", "c", "a"], [1.0, 0.5, 0.0], [1, 2, 3], "b0")]
    table = crosstable(results)
    assert table[("a", "b")] == [1, 0, 1]
    assert table[("b", "c")] == [1, 1, 0]
    assert table[("c", "b")] == [0, 1, 1]
    seats = seat_scores(results)
    assert seats["a"] == [1.0, None, 0.0]


def _game(seats, ranks, block):
    return GameResult(list(seats), _returns_from_ranks(ranks), list(ranks), block)


def test_ratings_exist_only_when_every_split_of_the_bots_was_crossed_both_ways():
    """Ford's condition (docs/ratings.md): a beat b, b beat c, c never beat anyone is no finite fit; once c beats
    a the "beat or drew" graph is strongly connected; draws count both ways; a bot that never played fails."""
    chain = [_game("ab", [1, 2], "b0"), _game("bc", [1, 2], "b1")]
    _, _, score, meet = block_meetings(chain)
    assert not ratings_exist(score.sum(0), meet.sum(0))
    _, _, score, meet = block_meetings(chain + [_game("ca", [1, 2], "b2")])
    assert ratings_exist(score.sum(0), meet.sum(0))
    _, _, score, meet = block_meetings(chain + [_game("ca", [1, 1], "b2")])
    assert ratings_exist(score.sum(0), meet.sum(0))
    _, _, score, meet = block_meetings(chain + [_game("ca", [1, 2], "b2")])
    assert not ratings_exist(score[:1].sum(0), meet[:1].sum(0))      # only block b0: c never played


def test_a_few_blocks_with_an_unbeaten_bot_are_reported_as_prior_held():
    """The Mare Nostrum ladder of docs/play.md before issue 24: a 3-player round robin of four bots, one block
    (three seat rotations) per table, the strongest winning every game. Its ratings rest on the prior in every
    resample, and the report says so; a large round robin where everyone loses sometimes does not warn."""
    labels = ["best", "mid", "low", "least"]
    small = []
    for t, table in enumerate(itertools.combinations(labels, 3)):
        order = sorted(table, key=labels.index)
        for r in range(3):
            seats = list(table[r:] + table[:r])
            small.append(_game(seats, [order.index(s) + 1 for s in seats], f"t{t}"))
    assert prior_held_share(small, bootstrap=50) == 1.0
    big = synthetic_pl(centred({"a": -100.0, "b": 0.0, "c": 100.0}), 2, 200, np.random.default_rng(3))
    assert prior_held_share(big, bootstrap=50) == 0.0


# --- SPRT ---------------------------------------------------------------------------------------------------------
def test_elo_score_conversions():
    assert elo_to_score(0) == 0.5
    assert abs(score_to_elo(elo_to_score(123.0)) - 123.0) < 1e-6


def test_llr_sign():
    strong = {1.0: 30, 0.75: 20, 0.5: 30, 0.25: 10, 0.0: 10}
    even = {1.0: 10, 0.75: 20, 0.5: 40, 0.25: 20, 0.0: 10}
    assert llr(strong, 0, 50) > 0
    assert llr(even, 0, 50) < 0


def _simulate(test_args, true_elo, rng, max_pairs=3000, draw=0.3):
    """One SPRT on simulated game pairs: each game a win, draw or loss with the true expected score."""
    s = elo_to_score(true_elo)
    win = s - draw / 2
    p = [win, draw, 1 - win - draw]
    test = SPRT(*test_args)
    games = rng.choice([1.0, 0.5, 0.0], p=p, size=(max_pairs, 2))
    for a, b in games:
        test.add((a + b) / 2)
        status = test.status()
        if status:
            return status
    return None


def test_sprt_error_rates_in_simulation():
    """With alpha = beta = 0.1: H1 (+100 Elo) is accepted for a bot 100 Elo stronger, and H0 for two equal bots,
    each wrongly at most a little more often than the 10% it was set for."""
    rng = np.random.default_rng(3)
    args = (0.0, 100.0, 0.1, 0.1)
    runs = 60
    h1_true = [_simulate(args, 100.0, rng) for _ in range(runs)]
    h0_true = [_simulate(args, 0.0, rng) for _ in range(runs)]
    assert None not in h1_true and None not in h0_true
    assert h1_true.count("H0") / runs <= 0.2
    assert h0_true.count("H1") / runs <= 0.2
    assert _simulate(args, 300.0, rng) == "H1" and _simulate(args, -200.0, rng) == "H0"


def test_sprt_rejects_bad_bounds():
    with pytest.raises(ValueError):
        SPRT(10, 0)
    with pytest.raises(ValueError):
        SPRT(0, 10, alpha=0.7)
    with pytest.raises(ValueError):
        SPRT().add(1.5)

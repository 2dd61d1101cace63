"""The sequential probability ratio test: "is A stronger than B by elo1 rather than elo0?".

Samples are blocks, not games: in two-player games a pair of games with one seed and the seats swapped
(the pentanomial model of fishtest: a pair scores 0, 1/4, 1/2, 3/4 or 1); for 3 to 5 players a block is one seed
played in every seat rotation with A in one seat and B in the others, and it scores the fraction of opponents A beat.
The log-likelihood ratio is the generalized SPRT of Michel Van den Bergh (as in fishtest): for each hypothesis
the maximum-likelihood distribution over the observed block scores whose mean is that hypothesis' expected score,
LLR = sum over blocks of log(p1(x) / p0(x)). It stops at the Wald bounds log(beta/(1-alpha)) and
log((1-beta)/alpha).
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
from scipy.optimize import brentq


def elo_to_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / score - 1.0)


def _mle_under_mean(values: np.ndarray, probs: np.ndarray, mean: float) -> np.ndarray:
    """The distribution on ``values`` closest (in likelihood) to ``probs`` with the given mean."""
    d = values - mean
    lo = -1.0 / d.max() if d.max() > 0 else -1e6
    hi = -1.0 / d.min() if d.min() < 0 else 1e6
    eps = 1e-12 * (hi - lo)

    def f(lam):
        return float(np.sum(probs * d / (1.0 + lam * d)))

    lam = brentq(f, lo + eps, hi - eps, xtol=1e-14, maxiter=200)
    p = probs / (1.0 + lam * d)
    return p / p.sum()


def llr(counts: dict, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for block-score counts {score: n}."""
    if not counts:
        return 0.0
    values = np.array(sorted(counts), dtype=float)
    n = np.array([counts[v] for v in sorted(counts)], dtype=float)
    # a small pseudo-count on the extremes keeps every hypothesis mean reachable (fishtest regularizes alike)
    for extreme in (0.0, 1.0):
        if extreme not in counts:
            values = np.append(values, extreme)
            n = np.append(n, 1e-3)
    order = np.argsort(values)
    values, n = values[order], n[order]
    probs = n / n.sum()
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    p0 = _mle_under_mean(values, probs, s0)
    p1 = _mle_under_mean(values, probs, s1)
    return float(np.sum(n * (np.log(p1) - np.log(p0))))


class SPRT:
    """Feed block scores with ``add``; ``status()`` is 'H1' (A is stronger by elo1), 'H0', or None (go on)."""

    def __init__(self, elo0: float = 0.0, elo1: float = 10.0, alpha: float = 0.05, beta: float = 0.05):
        if not elo1 > elo0:
            raise ValueError(f"elo1 must be above elo0, got elo0={elo0} elo1={elo1}")
        if not (0 < alpha < 0.5 and 0 < beta < 0.5):
            raise ValueError(f"alpha and beta must be in (0, 0.5), got {alpha}, {beta}")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self.counts: Counter = Counter()
        self.blocks = 0
        self.wdl = [0, 0, 0]          # A's games: won, drawn, lost (against the mean of B's seats)
        self.pairs = False            # two players: each block is a game pair (pentanomial)

    def add(self, score: float) -> None:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a block score is in [0, 1], got {score}")
        self.counts[round(score, 9)] += 1
        self.blocks += 1

    def llr(self) -> float:
        return llr(self.counts, self.elo0, self.elo1)

    def status(self) -> str | None:
        value = self.llr()
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None

    def add_game(self, outcome: int) -> None:
        """One of A's games: 0 won, 1 drawn, 2 lost."""
        self.wdl[outcome] += 1

    def mean(self) -> float:
        return sum(v * c for v, c in self.counts.items()) / self.blocks if self.blocks else 0.5

    def progress(self) -> float:
        """How far the LLR has gone towards the nearer bound it is heading for, 0 to 1 (the progress bar)."""
        value = self.llr()
        return min(1.0, max(value / self.upper, value / self.lower, 0.0))

    def summary(self) -> str:
        from arena.stats import elo_interval, fmt_elo, pentanomial_counts
        elo, low, high = elo_interval(self.counts) if self.blocks else (0.0, -math.inf, math.inf)
        w, d, l_ = self.wdl
        lines = [f"Games: {w + d + l_}, W: {w} L: {l_} D: {d} (A's games, scored against B's seats)"]
        if self.pairs:
            lines.append("Ptnml(0-2): " + ", ".join(map(str, pentanomial_counts(self.counts)))
                         + " (game pairs scoring 0, 1/2, 1, 3/2, 2 points of 2)")
        else:
            lines.append(f"Blocks: {self.blocks} (a seed in every seat rotation)")
        lines.append(f"Elo: {fmt_elo(elo, 0)} [{fmt_elo(low, 0)}, {fmt_elo(high, 0)}] (95%), score "
                     f"{100 * self.mean():.1f}%")
        lines.append(f"LLR: {self.llr():.2f} ({self.lower:.2f}, {self.upper:.2f}) [{self.elo0:g}, {self.elo1:g}], "
                     f"alpha {self.alpha:g}, beta {self.beta:g}")
        return "\n".join(lines)


def block_score(records, challenger: str) -> float:
    """A's score in one block: its mean return (fraction of opponents beaten) over the block's games."""
    values = [r for rec in records for label, r in zip(rec.seats, rec.result["returns"]) if label == challenger]
    if not values:
        raise ValueError(f"{challenger} played no game of this block")
    return sum(values) / len(values)


def game_outcome(record, challenger: str) -> int:
    """0 when A's seats scored more than B's on average in this game, 1 when equal, 2 when less."""
    rets = record.result["returns"]
    mine = [r for label, r in zip(record.seats, rets) if label == challenger]
    theirs = [r for label, r in zip(record.seats, rets) if label != challenger]
    a, b = sum(mine) / len(mine), sum(theirs) / len(theirs)
    return 0 if a > b else 1 if a == b else 2


def run_sprt(cfg, test: SPRT, out, **kwargs):
    """Play blocks of ``cfg`` (mode 'sprt': A against copies of B) until ``test`` decides or the games run out.

    Returns (decision 'H1' / 'H0' / None, the TournamentResult). Keyword arguments go to run_tournament.
    """
    from arena.tournament import run_tournament
    challenger, n = cfg.labels[0], cfg.players
    open_blocks: dict = {}

    def stop(record):
        block = record.meta.get("block")
        open_blocks.setdefault(block, []).append(record)
        test.add_game(game_outcome(record, challenger))
        if len(open_blocks[block]) < n:
            return False
        test.add(block_score(open_blocks.pop(block), challenger))
        return test.status() is not None

    def postfix():
        w, d, l_ = test.wdl
        return f"LLR {test.llr():+.2f} [{test.lower:.2f}, {test.upper:.2f}], W-D-L {w}-{d}-{l_}"

    test.pairs = n == 2
    result = run_tournament(cfg, out, stop=stop, postfix=postfix, meter=lambda: round(1000 * test.progress()),
                            **kwargs)
    return test.status(), result

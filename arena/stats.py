"""The small statistics a ladder reports beside its ratings (the method is in docs/ratings.md).

* ``pairwise``: one bot against another from wins, draws and losses: the score, the Elo difference with a 95%
  interval and the likelihood of superiority (LOS), as cutechess-cli and fastchess print them. The interval is
  Wilson's score interval (draws count half), so a perfect score has an honest one-sided interval (``+inf`` above,
  a finite bound below) instead of a zero-width one.
* ``pentanomial``: SPRT samples of two-player game pairs counted by pair score (0, 1/4, 1/2, 3/4, 1), with the
  Elo and its 95% interval from the pairs' mean and variance, as fishtest reports them.
* ``instant_runoff``: a ranking robust to a bot that exploits one weak opponent (the instant run-off of the
  Annual Computer Poker Competition): drop the bot with the worst score against those left, again and again;
  the order of elimination is the ranking. With a block bootstrap, each bot's range of places.
* ``block_resamples`` (the bootstrap both use) and ``prior_held_share``: how often a resample leaves the ratings
  to the prior (a bot that never lost, or never won, against the rest: no finite maximum-likelihood rating).
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


def elo_of(score: float) -> float:
    """Logistic Elo difference of an expected score (+-inf at 1 and 0, and within rounding of them: an interval's
    end computed as score + half can land a hair inside, which is no evidence of a finite Elo)."""
    if score >= 1.0 - 1e-9:
        return math.inf
    if score <= 1e-9:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def wilson(score: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``score`` observed over ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # at a perfect (or zero) score the open end is exactly 1 (or 0), not 1 less a rounding error
    return (0.0 if score <= 0 else max(0.0, centre - half)), (1.0 if score >= 1 else min(1.0, centre + half))


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: the chance that the better result is not luck (draws carry no information)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


@dataclass
class Pairwise:
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def interval(self) -> tuple[float, float]:
        """95% interval of the Elo difference (Wilson on the score; unbounded on the side of a perfect score)."""
        low, high = wilson(self.score, self.games)
        return elo_of(low), elo_of(high)

    @property
    def elo(self) -> float:
        return elo_of(self.score)

    @property
    def los(self) -> float:
        return los(self.wins, self.losses)

    def describe(self) -> str:
        low, high = self.interval()
        return (f"{self.wins}-{self.draws}-{self.losses}  score {100 * self.score:5.1f}%  Elo {fmt_elo(self.elo)} "
                f"[{fmt_elo(low)}, {fmt_elo(high)}]  LOS {100 * self.los:5.1f}%")


def fmt_elo(value: float, width: int = 6) -> str:
    if math.isinf(value):
        return f"{'+inf' if value > 0 else '-inf':>{width}s}"
    return f"{0.0 if abs(value) < 0.5 else value:+{width}.0f}"


# --- pentanomial ------------------------------------------------------------------------------------------------
PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def pentanomial_counts(counts: dict) -> list[int]:
    """[n(0), n(1/4), n(1/2), n(3/4), n(1)] from {pair score: count}."""
    return [int(counts.get(s, 0)) for s in PENTA_SCORES]


def mean_and_interval(counts: dict) -> tuple[float, float, float]:
    """The mean block score and its 95% normal interval (the sample variance of block scores over N blocks)."""
    n = sum(counts.values())
    if n == 0:
        return 0.5, 0.0, 1.0
    mean = sum(s * c for s, c in counts.items()) / n
    var = sum(c * (s - mean) ** 2 for s, c in counts.items()) / n
    half = Z95 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def elo_interval(counts: dict) -> tuple[float, float, float]:
    """Elo from block scores (pairs in two-player games) with a 95% interval; a one-sided bound when every block
    was won or lost (the sample variance is then zero, so Wilson's interval on the mean is used instead)."""
    n = sum(counts.values())
    mean, low, high = mean_and_interval(counts)
    if n and (mean in (0.0, 1.0) or low == high):
        low, high = wilson(mean, n)
    return elo_of(mean), elo_of(low), elo_of(high)


# --- the block bootstrap ----------------------------------------------------------------------------------------
def block_resamples(blocks: int, bootstrap: int, seed: int):
    """The bootstrap's resamples, each as how often every block is drawn (whole blocks, with replacement): one
    sequence per seed, so the ratings and the run-off see the same resamples."""
    rng = np.random.default_rng(seed)
    for _ in range(bootstrap if blocks > 1 else 0):
        yield np.bincount(rng.integers(0, blocks, blocks), minlength=blocks).astype(float)


def ratings_exist(score: np.ndarray, meet: np.ndarray) -> bool:
    """Whether the ratings have a finite maximum-likelihood fit (Ford's condition for Bradley-Terry, Hunter's
    for Plackett-Luce): every bot played, and however the bots are split in two, someone in each part beat or
    drew someone in the other; that is, the graph "i beat or drew j" is strongly connected. Where it fails the
    fit is held by the prior alone (a bot with a perfect or a zero score), and its numbers say little."""
    k = score.shape[0]
    if k < 2:
        return True
    if not np.all(meet.sum(1) > 0):
        return False
    reach = (score > 0) | np.eye(k, dtype=bool)
    for _ in range(int(np.ceil(np.log2(k))) + 1):     # transitive closure by squaring
        reach = (reach.astype(int) @ reach.astype(int)) > 0
    return bool(reach.all())


def prior_held_share(results, bootstrap: int = 200, seed: int = 0) -> float:
    """The fraction of the bootstrap's resamples whose ratings have no finite maximum-likelihood fit (see
    ratings_exist). Above 2.5%, an end of a 95% percentile interval can be such a prior-held rating."""
    _, blocks, score, meet = block_meetings(results)
    held = total = 0
    for w in block_resamples(len(blocks), bootstrap, seed):
        total += 1
        held += not ratings_exist(np.tensordot(w, score, 1), np.tensordot(w, meet, 1))
    return held / total if total else 0.0


# --- instant run-off --------------------------------------------------------------------------------------------
def block_meetings(results) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """Per block, each ordered pair's score (win 1, draw 1/2) and meetings: (labels, blocks, S[b,i,j], M[b,i,j])."""
    labels = sorted({label for g in results for label in g.labels})
    index = {label: i for i, label in enumerate(labels)}
    blocks = sorted({g.block for g in results})
    bindex = {b: i for i, b in enumerate(blocks)}
    k = len(labels)
    score = np.zeros((len(blocks), k, k))
    meet = np.zeros((len(blocks), k, k))
    for g in results:
        b = bindex[g.block]
        for s in range(len(g.labels)):
            for t in range(len(g.labels)):
                i, j = index[g.labels[s]], index[g.labels[t]]
                if s == t or i == j:
                    continue
                meet[b, i, j] += 1
                score[b, i, j] += 1.0 if g.ranks[s] < g.ranks[t] else 0.5 if g.ranks[s] == g.ranks[t] else 0.0
    return labels, blocks, score, meet


def irv_order(score: np.ndarray, meet: np.ndarray) -> list[int]:
    """Bot indices from first to last place: eliminate, one at a time, the bot with the lowest score against the
    bots still in (ties: the fewer points in total, then the index, so it is deterministic)."""
    left = list(range(score.shape[0]))
    out: list[int] = []
    while len(left) > 1:
        def key(i):
            m = sum(meet[i, j] for j in left if j != i)
            s = sum(score[i, j] for j in left if j != i)
            return (s / m if m else 0.5, s, -i)
        worst = min(left, key=key)
        out.append(worst)
        left.remove(worst)
    return left + out[::-1]


@dataclass
class RunoffPlace:
    label: str
    place: int
    low: int            # 95% range of places over the bootstrap
    high: int


def instant_runoff(results, bootstrap: int = 200, seed: int = 0) -> list[RunoffPlace]:
    """The instant run-off ranking with each bot's 95% range of places (block bootstrap)."""
    labels, blocks, score, meet = block_meetings(results)
    if not labels:
        return []
    order = irv_order(score.sum(0), meet.sum(0))
    places = defaultdict(list)
    for w in block_resamples(len(blocks), bootstrap, seed):
        o = irv_order(np.tensordot(w, score, 1), np.tensordot(w, meet, 1))
        for place, i in enumerate(o, 1):
            places[i].append(place)
    rows = []
    for place, i in enumerate(order, 1):
        got = places.get(i) or [place]
        low, high = np.percentile(got, [2.5, 97.5])
        rows.append(RunoffPlace(labels[i], place, int(math.floor(low)), int(math.ceil(high))))
    return rows

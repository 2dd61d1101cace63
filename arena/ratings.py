"""Ratings and statistics from game records (the method is written up in docs/ratings.md).

* Strength: Bradley-Terry for two players (a draw is half a win each, as in Elo) and Plackett-Luce over finishing
  orders for 3 to 5 players (a group of m tied players is one choice shared equally among them). One model, fitted
  by Newton's method with a very weak Gaussian prior (so a bot that won every game still gets a finite rating);
  reported on the Elo scale (400 / ln 10 per natural unit) relative to the field's mean.
* 95% intervals: percentile bootstrap over whole blocks (a seed played in every seat rotation), since the games of
  a block share their luck and are not independent. The report says when too many resamples have no finite fit
  (a bot that never lost or never won there): the interval ends are then the prior's, not the games'.
* The crosstable: pairwise wins, draws and losses (in an n-player game every pair of seats is one meeting, decided
  by their ranks), each bot's score (mean return: the fraction of opponents beaten) overall and by seat.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from arena.stats import block_resamples, prior_held_share

ELO_PER_NAT = 400.0 / math.log(10.0)
PRIOR_PRECISION = 0.01         # Gaussian prior on log-strength, sd 10 (about 1700 Elo): only keeps fits finite


@dataclass
class GameResult:
    labels: list[str]        # bot per seat
    returns: list[float]
    ranks: list[int]         # 1 = first; ties share
    block: str               # bootstrap unit: games that share a seed and its seat rotations


def results_from_records(records) -> list[GameResult]:
    out = []
    for r in records:
        if not r.result:
            continue
        meta = r.meta or {}
        if "block" in meta:
            block = f"{meta.get('tournament', '')}:{meta.get('table', '')}:{meta['block']}"
        else:
            block = f"seed:{r.seed}:{','.join(sorted(r.seats))}"
        out.append(GameResult(list(r.seats), list(r.result["returns"]), list(r.result["ranks"]), block))
    return out


# --- the model ---------------------------------------------------------------------------------------------
@dataclass
class Events:
    """Choice events of the Plackett-Luce likelihood: who was chosen from which multiset of remaining bots."""

    chosen: np.ndarray       # (E,) bot index
    members: np.ndarray      # (E, K) how many seats of each bot were still unplaced
    weight: np.ndarray       # (E,) 1/m for a tie group of m
    block: np.ndarray        # (E,) block index


def build_events(results: list[GameResult], labels: list[str]) -> tuple[Events, list[str]]:
    index = {label: i for i, label in enumerate(labels)}
    # blocks numbered in sorted order, so the bootstrap does not depend on the order the games finished in
    blocks = {key: i for i, key in enumerate(sorted({g.block for g in results}))}
    chosen, members, weight, block = [], [], [], []
    for g in results:
        b = blocks[g.block]
        remaining = list(range(len(g.labels)))
        for rank in sorted(set(g.ranks)):
            if len(remaining) < 2:
                break
            group = [s for s in remaining if g.ranks[s] == rank]
            row = np.zeros(len(labels))
            for s in remaining:
                row[index[g.labels[s]]] += 1
            for s in group:
                chosen.append(index[g.labels[s]])
                members.append(row)
                weight.append(1.0 / len(group))
                block.append(b)
            remaining = [s for s in remaining if g.ranks[s] != rank]
    k = len(labels)
    ev = Events(np.array(chosen, dtype=int), np.array(members).reshape(-1, k), np.array(weight), np.array(block))
    return ev, list(blocks)


def fit_strengths(ev: Events, k: int, weights: np.ndarray | None = None, start: np.ndarray | None = None
                  ) -> np.ndarray:
    """Maximum a posteriori log-strengths (mean zero) by Newton's method with step halving."""
    w = ev.weight if weights is None else ev.weight * weights
    theta = np.zeros(k) if start is None else start.copy()
    onehot = np.zeros((len(ev.chosen), k))
    onehot[np.arange(len(ev.chosen)), ev.chosen] = 1.0

    def objective(t):
        d = ev.members @ np.exp(t)
        return float(w @ (t[ev.chosen] - np.log(d)) - 0.5 * PRIOR_PRECISION * t @ t)

    value = objective(theta)
    for _ in range(100):
        e = np.exp(theta)
        p = ev.members * e / (ev.members @ e)[:, None]          # (E, K) choice probabilities
        grad = w @ (onehot - p) - PRIOR_PRECISION * theta
        hess = -(np.diag(w @ p) - (p * w[:, None]).T @ p) - PRIOR_PRECISION * np.eye(k)
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        while True:
            candidate = theta - scale * step
            new = objective(candidate)
            if new >= value - 1e-12 or scale < 1e-6:
                break
            scale *= 0.5
        theta, old, value = candidate, value, new
        if abs(new - old) < 1e-10 and np.max(np.abs(scale * step)) < 1e-8:
            break
    return theta - theta.mean()


@dataclass
class Rating:
    label: str
    elo: float
    low: float               # 95% interval
    high: float
    games: int
    score: float             # mean return (fraction of opponents beaten)


def rate(results: list[GameResult], bootstrap: int = 200, seed: int = 0) -> list[Rating]:
    """Elo-scale ratings with 95% block-bootstrap intervals, strongest first."""
    labels = sorted({label for g in results for label in g.labels})
    if not results or len(labels) < 2:
        return [Rating(label, 0.0, 0.0, 0.0, len(results), _score(results, label)) for label in labels]
    ev, blocks = build_events(results, labels)
    k = len(labels)
    theta = fit_strengths(ev, k)
    samples = [fit_strengths(ev, k, counts[ev.block], start=theta)
               for counts in block_resamples(len(blocks), bootstrap, seed)]
    if samples:
        low, high = np.percentile(np.array(samples), [2.5, 97.5], axis=0)
    else:
        low = high = theta
    games = {label: sum(1 for g in results if label in g.labels) for label in labels}
    rows = [Rating(label, ELO_PER_NAT * theta[i], ELO_PER_NAT * low[i], ELO_PER_NAT * high[i], games[label],
                   _score(results, label)) for i, label in enumerate(labels)]
    _open_perfect_scores(rows, crosstable(results))
    return sorted(rows, key=lambda r: -r.elo)


def _open_perfect_scores(rows: list[Rating], cross: dict) -> None:
    """A bot that won (or lost) every meeting has no finite rating: the fit is held only by the prior, and every
    bootstrap sample is the same perfect score, so the interval would have zero width. Its interval is made honest:
    unbounded on that side, and on the other the Wilson bound of its score against the mean of its opponents."""
    from arena.stats import elo_of, wilson
    by_label = {r.label: r for r in rows}
    for r in rows:
        cells = [(b, cell) for (a, b), cell in cross.items() if a == r.label and sum(cell)]
        w = sum(c[0] for _, c in cells)
        d = sum(c[1] for _, c in cells)
        l_ = sum(c[2] for _, c in cells)
        n = w + d + l_
        if not n or (w != n and l_ != n):
            continue
        weights = [sum(c) for _, c in cells]
        opponents = sum(by_label[b].elo * m for (b, _), m in zip(cells, weights)) / sum(weights)
        low, high = wilson(1.0 if w == n else 0.0, n)
        if w == n:
            r.low, r.high = min(r.low, opponents + elo_of(low)), math.inf
        else:
            r.low, r.high = -math.inf, max(r.high, opponents + elo_of(high))


def _score(results, label) -> float:
    values = [r for g in results for lab, r in zip(g.labels, g.returns) if lab == label]
    return sum(values) / len(values) if values else 0.0


# --- tables --------------------------------------------------------------------------------------------------
def crosstable(results: list[GameResult]) -> dict:
    """{(a, b): [wins, draws, losses] of a against b}, over every pair of seats of every game."""
    table: dict = defaultdict(lambda: [0, 0, 0])
    for g in results:
        n = len(g.labels)
        for i in range(n):
            for j in range(n):
                a, b = g.labels[i], g.labels[j]
                if i == j or a == b:
                    continue
                cell = table[(a, b)]
                cell[0 if g.ranks[i] < g.ranks[j] else 1 if g.ranks[i] == g.ranks[j] else 2] += 1
    return dict(table)


def seat_scores(results: list[GameResult]) -> dict:
    """{label: [mean return in seat 0, seat 1, ...]} (None where the bot never sat there)."""
    n = max((len(g.labels) for g in results), default=0)
    sums: dict = defaultdict(lambda: [[0.0, 0] for _ in range(n)])
    for g in results:
        for seat, (label, r) in enumerate(zip(g.labels, g.returns)):
            sums[label][seat][0] += r
            sums[label][seat][1] += 1
    return {label: [s / c if c else None for s, c in seats] for label, seats in sums.items()}


def reasons(results_records) -> dict:
    out: dict = defaultdict(int)
    for r in results_records:
        if r.result:
            out[r.result.get("reason", "normal").split(":")[0]] += 1
    return dict(out)


def format_report(records, bootstrap: int = 200, seed: int = 0, ladder=None) -> str:
    """The crosstable, the seat table and the rating table as text."""
    results = results_from_records(records)
    if not results:
        return "no finished games"
    ratings = rate(results, bootstrap, seed)
    labels = [r.label for r in ratings]
    n_players = max(len(g.labels) for g in results)
    cross = crosstable(results)
    width = max(len(label) for label in labels)
    lines = [f"{len(results)} games, {n_players} players each; ends: "
             + ", ".join(f"{k} {v}" for k, v in sorted(reasons(records).items()))]
    lines.append("")
    lines.append("Crosstable (row against column: wins-draws-losses; in games of 3+ every pair of seats counts)")
    header = " " * (width + 4) + "".join(f"{'#' + str(j + 1):>12s}" for j in range(len(labels))) + "     score"
    lines.append(header)
    for i, a in enumerate(labels):
        cells = []
        for b in labels:
            if a == b:
                cells.append(f"{'-':>12s}")
            else:
                w, d, l_ = cross.get((a, b), [0, 0, 0])
                cells.append(f"{f'{w}-{d}-{l_}':>12s}")
        lines.append(f"#{i + 1:<2d} {a:<{width}s}" + "".join(cells) + f"  {100 * ratings[i].score:6.1f}%")
    lines.append("")
    seats = seat_scores(results)
    lines.append("Score by seat (mean fraction of opponents beaten)")
    lines.append(" " * (width + 4) + "".join(f"{'seat ' + str(s):>9s}" for s in range(n_players)))
    for i, a in enumerate(labels):
        cells = "".join(f"{'-':>9s}" if v is None else f"{100 * v:8.1f}%" for v in seats.get(a, []))
        lines.append(f"#{i + 1:<2d} {a:<{width}s}" + cells)
    lines.append("")
    model = "Bradley-Terry" if n_players == 2 else "Plackett-Luce"
    lines.append(f"Ratings ({model}, Elo scale, mean 0; 95% interval by bootstrap over seat-rotation blocks)")
    blocks = len({g.block for g in results})
    if blocks < 10:
        lines.append(f"(only {blocks} blocks: too few for the bootstrap, the intervals are rough; play more games)")
    held = prior_held_share(results, bootstrap, seed)
    if held > 0.025:
        lines.append(f"({100 * held:.0f}% of the resamples have a bot that never lost, or never won, against the "
                     "rest: its rating there is set by the prior alone, so the interval ends can be arbitrary; "
                     "play more games)")
    live = {row[0]: row for row in ladder.table()} if ladder is not None else {}
    extra = "   openskill mu±2σ" if live else ""
    lines.append(f"{'':4s}{'bot':<{width}s} {'Elo':>7s} {'95% interval':>17s} {'games':>6s} {'score':>7s}{extra}")
    for i, r in enumerate(ratings):
        row = (f"#{i + 1:<2d} {r.label:<{width}s} {r.elo:7.0f} [{r.low:6.0f}, {r.high:6.0f}] {r.games:6d} "
               f"{100 * r.score:6.1f}%")
        if r.label in live:
            _, mu, sigma, _ = live[r.label]
            row += f"   {mu:6.2f}±{2 * sigma:.2f}"
        lines.append(row)
    lines += pairwise_lines(ratings, cross, width)
    if n_players >= 3:
        lines += runoff_lines(results, bootstrap, seed, width)
    return "\n".join(lines)


def pairwise_lines(ratings: list[Rating], cross: dict, width: int) -> list[str]:
    """Each pair that met, stronger first: its games, the Elo difference with a 95% interval and the LOS."""
    from arena.stats import Pairwise
    lines = ["", "Pairwise (row against the other: W-D-L, score, Elo difference [95% Wilson interval], likelihood "
                 "of superiority)"]
    for i, a in enumerate(ratings):
        for b in ratings[i + 1:]:
            cell = cross.get((a.label, b.label))
            if cell and sum(cell):
                lines.append(f"{a.label:<{width}s} vs {b.label:<{width}s}  {Pairwise(*cell).describe()}")
    return lines


def runoff_lines(results, bootstrap: int, seed: int, width: int) -> list[str]:
    """The instant run-off ranking with each bot's 95% range of places (block bootstrap)."""
    from arena.stats import instant_runoff
    lines = ["", "Robust ranking (instant run-off: the bot with the worst score against those left goes out, "
                 "again and again; 95% range of places by bootstrap over blocks)"]
    for row in instant_runoff(results, bootstrap, seed):
        span = f"{row.low}" if row.low == row.high else f"{row.low}-{row.high}"
        lines.append(f"#{row.place:<2d} {row.label:<{width}s}  places {span}")
    return lines


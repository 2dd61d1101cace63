"""Fit Pantikapaion's evaluate() weights (data/evaluate.json) to the results of recorded games.

Positions are sampled from kept Pantikapaion games (docs/records by default: every game that replays, any player
count). evaluate() scores a player by the mean, over opponents, of the logistic of his projection's lead over the
scale (engine/games/pantikapaion/evaluation.py), so for each position and each ordered pair of players the chance
that the first finishes ahead of the second is modelled as logistic(a * (score lead) + left * sum_k b_k * (lead in
part k)): a logistic regression (Newton's method on the cross-entropy, a tie counting a half) whose coefficients
give the file's scale = 1 / a and weights b_k / a. The file holds weights in [0, 100]; a weight the fit would make
negative is held at 0 and the others fitted again. A fifth of the games (by file and seed) is held out and the
cross-entropy of the shipped and the fitted weights on it is reported, so a fit that only learns its training games
shows. The fitted file keeps every entry's status text and says it was fitted.

    python scripts/pantikapaion_evaluate_fit.py --out /tmp/fitted/evaluate.json --changes /tmp/fitted/changes.json

Then screen the fit, the same bot in every seat: scripts/pantikapaion_evaluate_ab.py --a "$(cat /tmp/fitted/changes.json)".
"""
from __future__ import annotations

import argparse
import copy
import glob
import json
import os
import random
import sys
import zlib

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engine.errors import KleosError  # noqa: E402
from engine.games.pantikapaion import data as data_mod  # noqa: E402
from engine.games.pantikapaion.evaluation import PARTS, projection_parts  # noqa: E402
from engine.records import iter_records, replay  # noqa: E402


def held_out(record, path: str) -> bool:
    """A fifth of the games, fixed by file name and seed (a deal's rotations together), is kept for validation."""
    return zlib.crc32(f"{os.path.basename(path)}:{record.seed}".encode()) % 5 == 0


def sample_pairs(paths: list[str], every: int, seed: int, echo, players: int | None = None):
    """(X, y, held, counts): one row per position and ordered pair of players, X = [score lead, left * part
    leads...], y the pair's final order (1 ahead, 0.5 tied, 0 behind), held whether its game is held out, counts its
    game's players; ``players`` keeps games of that many players only."""
    rng = random.Random(seed)
    rows, ys, held, counts, games, positions = [], [], [], [], 0, 0
    for path in paths:
        for record in iter_records(path):
            if record.game != "pantikapaion" or record.result_only or not record.result:
                continue
            if players is not None and len(record.result["returns"]) != players:
                continue
            returns = record.result["returns"]
            out = held_out(record, path)
            offset = rng.randrange(every)
            mine = []
            try:
                for i, state in enumerate(replay(record)):
                    if i % every == offset and not state.is_terminal() and not state.is_chance_node():
                        mine.append(projection_parts(state))
            except KleosError:
                continue                  # a record that no longer replays is skipped, not fitted
            games += 1
            positions += len(mine)
            for left, seats in mine:
                for p, (now_p, parts_p) in enumerate(seats):
                    for q, (now_q, parts_q) in enumerate(seats):
                        if p != q:
                            rows.append([now_p - now_q] + [left * (x - y) for x, y in zip(parts_p, parts_q)])
                            ys.append(1.0 if returns[p] > returns[q] else 0.5 if returns[p] == returns[q] else 0.0)
                            held.append(out)
                            counts.append(len(seats))
    echo(f"{games} games: {positions} positions, {len(ys)} ordered pairs of players, "
         f"{sum(held)} of them from held-out games")
    return (np.array(rows, dtype=float).reshape(-1, 1 + len(PARTS)), np.array(ys), np.array(held, dtype=bool),
            np.array(counts, dtype=int))


def cross_entropy(coef, X, y) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-(X @ coef))), 1e-12, 1.0 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)))


def logistic_fit(X, y, free) -> np.ndarray:
    """Newton's method on the columns ``free`` (the others held at 0)."""
    coef = np.zeros(X.shape[1])
    cols = np.flatnonzero(free)
    Xf = X[:, cols]
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(Xf @ coef[cols])))
        grad = Xf.T @ (p - y) / len(y)
        hess = (Xf * (p * (1.0 - p))[:, None]).T @ Xf / len(y) + 1e-9 * np.eye(len(cols))
        step = np.linalg.solve(hess, grad)
        coef[cols] -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return coef


def fit(X, y) -> np.ndarray:
    """The coefficients, with any part whose weight would come out negative held at 0 (the file's range)."""
    free = np.ones(X.shape[1], dtype=bool)
    while True:
        coef = logistic_fit(X, y, free)
        if coef[0] <= 0:
            raise SystemExit("pantikapaion_evaluate_fit: the score lead does not predict the result in these games "
                             "(a scale cannot be fitted)")
        negative = [k for k in range(1, len(coef)) if free[k] and coef[k] < 0]
        if not negative:
            return coef
        free[min(negative, key=lambda k: coef[k])] = False


def coefficients(weights: dict) -> np.ndarray:
    return np.array([1.0 / weights["scale"]] + [weights[name] / weights["scale"] for name in PARTS])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/pantikapaion_evaluate_fit.py", description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*", help="record files (default: every docs/records/*.jsonl.gz)")
    parser.add_argument("--every", type=int, default=6, help="one position in this many actions (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seeds which positions are sampled")
    parser.add_argument("--out", required=True, help="write the fitted evaluate.json here")
    parser.add_argument("--players", type=int, choices=(2, 3, 4),
                        help="fit on games of this many players only (default: every game, pooled)")
    parser.add_argument("--changes", help="also write the changed weights here, as JSON for pantikapaion_evaluate_ab.py")
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error("--every must be at least 1")
    paths = args.records or sorted(glob.glob(os.path.join(ROOT, "docs", "records", "*.jsonl.gz")))
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        parser.error(f"no such record file: {missing[0]}")
    echo = lambda text: print(text, flush=True)         # noqa: E731
    X, y, held, counts = sample_pairs(paths, args.every, args.seed, echo, args.players)
    if not (~held).any() or not held.any():
        parser.error("the records hold too few Pantikapaion games to fit and to hold some out")
    shipped = data_mod.load()["evaluate"]
    coef = fit(X[~held], y[~held])
    fitted = {"scale": round(1.0 / coef[0], 2), **{name: round(coef[k + 1] / coef[0], 2) for k, name in enumerate(PARTS)}}
    data_mod.evaluate_weights({k: {"value": v} for k, v in fitted.items()})     # a file Pantikapaion loads
    for label, weights in (("shipped", shipped), ("fitted", fitted)):
        c = coefficients(weights)
        echo(f"{label}: cross-entropy {cross_entropy(c, X[~held], y[~held]):.4f} on training pairs, "
             f"{cross_entropy(c, X[held], y[held]):.4f} held out; " + json.dumps(weights))
        for n in sorted(set(counts[held].tolist())):
            mask = held & (counts == n)
            echo(f"  held out, {n} players: {cross_entropy(c, X[mask], y[mask]):.4f} ({int(mask.sum())} pairs)")
    with open(os.path.join(data_mod.DATA, "evaluate.json"), encoding="utf-8") as f:
        doc = json.load(f)
    out = copy.deepcopy(doc)
    changes = {name: value for name, value in fitted.items() if value != shipped[name]}
    for name, value in changes.items():
        out[name]["value"] = value
        out[name]["status"] = out[name]["status"].replace(
            "ASSUMED:", "ASSUMED (fitted, scripts/pantikapaion_evaluate_fit.py):", 1)
    which = f" of {args.players}-player games" if args.players else ""
    out["_doc"] = (f"Fitted by scripts/pantikapaion_evaluate_fit.py to the results of {int((~held).sum())} ordered "
                   f"pairs of players in positions{which} of kept games (the file's weights before: " + json.dumps(shipped)
                   + "). " + doc.get("_doc", ""))
    for path in filter(None, (args.out, args.changes)):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
    if args.changes:
        with open(args.changes, "w", encoding="utf-8") as f:
            json.dump(changes, f)
    echo("changed: " + json.dumps(changes))


if __name__ == "__main__":
    main()

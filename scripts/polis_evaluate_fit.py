"""Fit Polis's evaluate() weights (data/evaluate.json) to the results of recorded games (Texel's method).

Positions are sampled from kept Polis games (docs/records by default: every game of the default data set that
replays); each is labelled with Athens's final return, or with ``--label SPEC`` with what that search finds the
position worth for Athens (a fit to a deeper look, as TD-leaf's, rather than to results). The loss is the mean
squared difference between that label and evaluate()'s value for Athens, which is already squashed to [0, 1] by
the file's ``scale``. Weights move one at a time by a step up or down while the loss on the training games falls;
a pass that moves none halves the steps. A fifth of the games (by seed and file) is held out and its loss is
reported, so a fit that only learns the training games shows. The fitted file keeps every entry's status text
and says it was fitted.

    python scripts/polis_evaluate_fit.py --out /tmp/fitted/evaluate.json --changes /tmp/fitted/changes.json

Then screen the fit with the same bot on both sides: scripts/polis_evaluate_ab.py --a "$(cat /tmp/fitted/changes.json)".
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

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SCRIPTS)
sys.path[:0] = [ROOT, SCRIPTS]          # Kleos, and polis_evaluate_ab beside this script

from engine.errors import KleosError  # noqa: E402
from engine.games.polis.data import DEFAULT_DATA_SET, read_data  # noqa: E402
from engine.records import iter_records, replay  # noqa: E402
from engine.registry import load_game  # noqa: E402
from polis_evaluate_ab import game_with, weight_slot  # noqa: E402  (Polis with given weights; a weight's place)

CHANCE, TERMINAL = -1, -2       # engine/core.pxd: current_player() at a chance node and at the end


def weight_names(weights: dict) -> list[str]:
    """Every fitted number of evaluate.json: each top-level weight, and resources.NAME for each resource."""
    names = []
    for name, entry in weights.items():
        if name.startswith("_"):
            continue
        if name == "resources":
            names += [f"resources.{k}" for k in entry["value"]]
        else:
            names.append(name)
    return names


def get(weights: dict, name: str) -> float:
    table, key = weight_slot(weights, name)
    return table[key]


def put(weights: dict, name: str, value: float) -> None:
    table, key = weight_slot(weights, name)
    table[key] = value


def held_out(record, path: str) -> bool:
    """A fifth of the games, fixed by file and seed, is kept for validation."""
    return zlib.crc32(f"{os.path.basename(path)}:{record.seed}".encode()) % 5 == 0


def sample_positions(paths: list[str], every: int, seed: int, echo) -> tuple[list, list]:
    """(train, validation): lists of (state JSON, Athens's result) from the games in ``paths``."""
    rng = random.Random(seed)
    train, valid = [], []
    games = 0
    for path in paths:
        for record in iter_records(path):
            if record.game != "polis" or record.options.get("data", DEFAULT_DATA_SET) != DEFAULT_DATA_SET \
                    or record.result_only or not record.result:
                continue
            target = valid if held_out(record, path) else train
            result = float(record.result["returns"][0])
            offset = rng.randrange(every)
            try:
                for i, state in enumerate(replay(record)):
                    if i % every == offset and state.current_player() not in (CHANCE, TERMINAL):
                        target.append((state.to_json(), result))
            except KleosError:
                continue                  # a record that no longer replays is skipped, not fitted
            games += 1
    echo(f"{games} games: {len(train)} training positions, {len(valid)} held out")
    return train, valid


def search_labels(positions: list, spec: str, echo) -> list:
    """The positions relabelled with what a search finds them worth for Athens (its chosen move's mean value, from
    the mover's side): a fit to a deeper look at each position rather than to the game's result."""
    from search import from_spec
    game = load_game("polis")
    out = []
    with from_spec(spec) as searcher:
        for i, (obj, _) in enumerate(positions):
            state = game.state_from_json(obj)
            value = searcher.search(state).stats["value"]
            if value is None:                 # one legal move: nothing searched, so no label (and no choice)
                continue
            out.append((obj, value if state.current_player() == 0 else 1.0 - value))
            if (i + 1) % 2000 == 0:
                echo(f"  {i + 1} of {len(positions)} positions searched")
    return out


def loss(game, positions) -> float:
    total = 0.0
    for obj, result in positions:
        total += (result - game.state_from_json(obj).evaluate()[0]) ** 2
    return total / len(positions)


def fit(weights: dict, train, valid, passes: int, echo) -> dict:
    names = weight_names(weights)
    steps = {n: max(0.05, 0.25 * abs(get(weights, n))) for n in names}

    def measure(w, positions=train):
        return loss(game_with(DEFAULT_DATA_SET, w), positions)
    best = measure(weights)
    echo(f"start: training loss {best:.5f}, held out {measure(weights, valid):.5f}")
    for p in range(passes):
        moved = 0
        for name in names:
            for sign in (1, -1):
                value = get(weights, name) + sign * steps[name]
                if value < 0 or value > 100 or (name == "scale" and value <= 0):
                    continue
                trial = copy.deepcopy(weights)
                put(trial, name, round(value, 4))
                score = measure(trial)
                if score < best - 1e-7:
                    weights, best, moved = trial, score, moved + 1
                    break
        held = measure(weights, valid)
        echo(f"pass {p + 1}: training loss {best:.5f}, held out {held:.5f}, {moved} weights moved")
        if not moved:
            steps = {n: s / 2 for n, s in steps.items()}
            if max(steps.values()) < 0.01:
                break
    return weights


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/polis_evaluate_fit.py", description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*", help="record files (default: every docs/records/*.jsonl.gz)")
    parser.add_argument("--every", type=int, default=12, help="one position in this many actions (default %(default)s)")
    parser.add_argument("--passes", type=int, default=12, help="at most this many passes over the weights")
    parser.add_argument("--seed", type=int, default=1, help="seeds which positions are sampled")
    parser.add_argument("--label", default="result", metavar="result|SPEC",
                        help="what a position is worth: its game's result (default), or a searcher spec with a budget "
                             "(such as mcts:iterations=3000,depth=24,rollout=heuristic,seed=1) whose value of it is")
    parser.add_argument("--out", required=True, help="write the fitted evaluate.json here")
    parser.add_argument("--changes", help="also write the changed weights here, as JSON for polis_evaluate_ab.py")
    args = parser.parse_args(argv)
    if args.every < 1 or args.passes < 1:
        parser.error("--every and --passes must be at least 1")
    paths = args.records or sorted(glob.glob(os.path.join(ROOT, "docs", "records", "*.jsonl.gz")))
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        parser.error(f"no such record file: {missing[0]}")
    if args.label != "result":
        from search import from_spec
        try:
            from_spec(args.label).close()             # a bad spec fails here, in one line, before any sampling
        except ValueError as e:
            parser.error(f"--label {args.label}: {e}")
    echo = lambda text: print(text, flush=True)         # noqa: E731
    train, valid = sample_positions(paths, args.every, args.seed, echo)
    if not train or not valid:
        parser.error("the records hold no Polis positions to fit")
    if args.label != "result":
        train, valid = search_labels(train, args.label, echo), search_labels(valid, args.label, echo)
    start = read_data(DEFAULT_DATA_SET, "evaluate.json")
    fitted = fit(copy.deepcopy(start), train, valid, args.passes, echo)
    fitted["_doc"] = ("evaluate()'s weights (engine/games/polis/evaluate.pxi) fitted by scripts/polis_evaluate_fit.py "
                      f"(Texel's method) to {len(train)} positions of kept games, labelled by "
                      f"{'their results' if args.label == 'result' else 'the values ' + args.label + ' found'}, from "
                      "data/evaluate.json's (a folder holding it as evaluate.json is a Polis data=FOLDER). Search "
                      "heuristics, not rules. " + start.get("_doc", ""))
    changes = {n: get(fitted, n) for n in weight_names(start) if get(fitted, n) != get(start, n)}
    for name in changes:
        entry = fitted[name.split(".", 1)[0]]              # resources.NAME: the resources entry
        entry["status"] = entry["status"].replace("ASSUMED:", "ASSUMED (fitted, scripts/polis_evaluate_fit.py):", 1)
    for path in filter(None, (args.out, args.changes)):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(fitted, f, indent=1)
    if args.changes:
        with open(args.changes, "w", encoding="utf-8") as f:
            json.dump(changes, f)
    echo("changed: " + json.dumps(changes))


if __name__ == "__main__":
    main()

"""Fuzz ``state_from_json``: mutate real states and check that every mutant is either refused with a
BadStateError or, once accepted, survives everything a searcher or the referee does with a state.

Run it as a program (tests/robustness/test_state_fuzz.py does, in a child process, so that a segfault fails the
test instead of killing pytest):

    python tests/robustness/statefuzz.py --game polis --mutants 2000 --seed 1 --dump /tmp/fuzz

Real states come from seeded random playouts of the game (decision, chance and terminal nodes alike). A mutant
gets one to three mutations of its JSON: numbers nudged or replaced (by neighbours, 0, -1, huge values), strings
swapped for other names the game uses, values of another type, list elements dropped, doubled or added, dict keys
dropped or added. An accepted mutant is put through legal actions, chance outcomes, information keys,
determinization and observation from every seat, to_json round trip, evaluate, render, three short searches
(MCTS, ISMCTS single and multi observer), 40 random moves each of whose states from_json must accept again (the
checks are closed under the rules), and a random playout to the end.

Exit status: 0 when no mutant broke anything; 1 when one raised an error other than BadStateError (the mutant and
the traceback are printed and written to --dump); a crash (a signal) leaves the mutant being tried in
<dump>/current.json. The last line on stdout is a JSON summary: mutants, refused, accepted, failures.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from engine.errors import BadStateError  # noqa: E402
from engine.playout import playout  # noqa: E402
from engine.registry import load_game  # noqa: E402
from search import make_searcher  # noqa: E402

BIG = (2 ** 31, 2 ** 32 + 1, 2 ** 63, -(2 ** 63) - 1, 10 ** 30)
OTHER_TYPES = (None, 0, -1, 1.5, float("inf"), "", "x", [], {}, True, False, [0], {"x": 0})


def random_step(state, rng: random.Random) -> None:
    """One random move: a chance outcome by its probability, else a uniform legal action."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    else:
        state.apply(rng.choice(state.legal_actions()))


def sample_states(game, seed: int, count: int, starts: list[dict] = ()) -> list[dict]:
    """``count`` JSON states from seeded random playouts (from the start, and from each corpus position), taken
    at random points (the end included) and spread evenly over the phases they are in, so that rare phases
    (battles, say) are mutated as often as common ones."""
    rng = random.Random(seed)
    pool = []
    origins = [None] + [game.state_from_json(obj) for obj in starts]
    i = 0
    while len(pool) < 4 * count:
        origin = origins[i % len(origins)]
        i += 1
        state = game.new_initial_state() if origin is None else origin.clone()
        keep = rng.random() * 0.2 + 0.02               # a share of the positions of this game
        while True:
            if rng.random() < keep:
                pool.append(state.to_json())
            if state.is_terminal():
                pool.append(state.to_json())
                break
            random_step(state, rng)
    by_phase = {}
    for obj in pool:
        by_phase.setdefault(str(obj.get("phase", obj.get("step"))), []).append(obj)
    groups = [by_phase[k] for k in sorted(by_phase)]
    out = []
    while len(out) < count:
        for g in groups:
            if g and len(out) < count:
                out.append(g.pop(rng.randrange(len(g))))
    return out


def load_corpus(game_name: str) -> list[dict]:
    """Hand-made real positions (corpus/<game>.json) that random play seldom reaches, such as Polis battles."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", f"{game_name}.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)


def vocabulary(states: list[dict]) -> list[str]:
    """Every string and dict key in the states: the names a plausible mutant swaps in."""
    words = set()

    def walk(x):
        if isinstance(x, str):
            words.add(x)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, dict):
            for k, v in x.items():
                words.add(k)
                walk(v)
    for s in states:
        walk(s)
    return sorted(words)


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


def _new_value(value, rng: random.Random, vocab: list[str]):
    """A replacement for one leaf or container: mostly plausible (a neighbour, another name), sometimes absurd."""
    r = rng.random()
    if r < 0.15:
        return copy.deepcopy(rng.choice(OTHER_TYPES))
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        if r < 0.7:
            return value + rng.choice((-2, -1, 1, 1, 2, 3))
        if r < 0.85:
            return rng.choice((0, -1, 1, value * 2, -value, rng.randint(0, 20)))
        return rng.choice(BIG)
    if isinstance(value, str):
        return rng.choice(vocab) if r < 0.9 else value + "x"
    if value is None:
        return rng.choice((0, 1, rng.choice(vocab), []))
    if isinstance(value, list):
        v = list(value)
        op = rng.randrange(6)
        if op == 0 and v:
            v.pop(rng.randrange(len(v)))
        elif op == 1 and v:
            v.insert(rng.randrange(len(v) + 1), copy.deepcopy(rng.choice(v)))
        elif op == 2:
            v.append(rng.choice((0, 1, rng.choice(vocab), None, [])))
        elif op == 3:
            rng.shuffle(v)
        elif op == 4:
            v = []
        else:
            v = copy.deepcopy(v * 2)
        return v
    if isinstance(value, dict):
        v = dict(value)
        keys = list(v)
        op = rng.randrange(3)
        if op == 0 and keys:
            del v[rng.choice(keys)]
        elif op == 1 and keys:
            v[rng.choice(vocab)] = copy.deepcopy(v[rng.choice(keys)])
        elif len(keys) >= 2:
            a, b = rng.sample(keys, 2)
            v[a], v[b] = v[b], v[a]
        return v
    return copy.deepcopy(rng.choice(OTHER_TYPES))


def mutate(obj: dict, rng: random.Random, vocab: list[str], changes: list | None = None) -> dict:
    """A deep copy of ``obj`` with one to three mutations (leaves are picked more often than containers); each
    is described in ``changes`` (path, old value, new value)."""
    out = copy.deepcopy(obj)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        paths = list(_paths(out))
        leaves = [p for p in paths if not isinstance(_get(out, p), (dict, list))]
        pool = leaves if leaves and rng.random() < 0.75 else paths
        path = rng.choice(pool)
        if not path:
            out = _new_value(out, rng, vocab)
            if changes is not None:
                changes.append(("/", "the state", out))
            if not isinstance(out, dict):
                return out
            continue
        parent = _get(out, path[:-1])
        old = parent[path[-1]]
        parent[path[-1]] = _new_value(old, rng, vocab)
        if changes is not None:
            changes.append(("/".join(map(str, path)), old, parent[path[-1]]))
    return out


def exercise(game, state, seed: int) -> None:
    """Everything searchers, bots and the referee do with a state; any exception is a failure."""
    n = game.num_players
    player = state.current_player()
    legal = state.legal_actions()
    outcomes = state.chance_outcomes()
    if player >= 0 and not legal:
        raise AssertionError("a decision node without a legal action was accepted")
    again = game.state_from_json(state.to_json())
    if again.to_json() != state.to_json():
        raise AssertionError("to_json does not round-trip")
    state.evaluate()
    state.render()
    for p in range(n):
        state.info_key(p)
        state.observation(p)
        state.render(p)
        view = state.determinize(p, seed + p)
        view.legal_actions()
        view.info_key(p)
    for a in legal[:4]:
        state.action_to_str(a)
        child = state.clone()
        child.apply(a)
    for a, _ in outcomes[:4]:
        state.action_to_str(a)
        child = state.clone()
        child.apply(a)
    if player >= 0:
        for spec in ({"name": "mcts"}, {"name": "ismcts"}, {"name": "ismcts", "keys": "observer"},
                     {"name": "ismcts", "keys": "path", "observers": "multi"}):
            opts = dict(spec)
            name = opts.pop("name")
            result = make_searcher(name, iterations=24, depth=40, seed=seed, **opts).search(state)
            if result.action not in legal:
                raise AssertionError(f"{name} chose {result.action}, not a legal action")
    # what an accepted state leads to is accepted too (the checks are closed under the rules)
    walk, rng = state.clone(), random.Random(seed)
    for _ in range(40):
        if walk.is_terminal():
            break
        random_step(walk, rng)
        game.state_from_json(walk.to_json())
    end = state.clone()
    playout(end, seed, max_moves=100_000)
    if end.is_terminal():
        end.returns()


def run(game_name: str, mutants: int, seed: int, seconds: float, dump: str | None, sources: int) -> dict:
    game = load_game(game_name)
    rng = random.Random(seed)
    states = sample_states(game, seed, sources, load_corpus(game_name))
    vocab = vocabulary(states)
    summary = {"game": game_name, "seed": seed, "sources": len(states), "mutants": 0, "refused": 0,
               "accepted": 0, "failures": 0}
    for obj in states:                                  # every real state must be accepted as it is
        try:
            if game.state_from_json(obj).to_json() != obj:
                raise AssertionError("to_json does not round-trip")
        except Exception:
            _report(summary, obj, [("/", "a real state", "unchanged")], "real state", dump)
    current = os.path.join(dump, "current.json") if dump else None
    if dump:
        os.makedirs(dump, exist_ok=True)
    t0 = time.monotonic()
    while summary["mutants"] < mutants or time.monotonic() - t0 < seconds:
        changes = []
        obj = mutate(rng.choice(states), rng, vocab, changes)
        summary["mutants"] += 1
        if current:
            with open(current, "w") as f:
                json.dump(obj, f)
        stage = "state_from_json"
        try:
            state = game.state_from_json(obj)
            summary["accepted"] += 1
            stage = "exercise"
            exercise(game, state, rng.randrange(2 ** 32))
        except BadStateError:
            if stage == "state_from_json":
                summary["refused"] += 1
                continue
            _report(summary, obj, changes, stage, dump)
        except Exception:
            _report(summary, obj, changes, stage, dump)
        if summary["failures"] >= 5:
            break
    summary["seconds"] = round(time.monotonic() - t0, 2)
    return summary


def _report(summary: dict, obj, changes: list, stage: str, dump: str | None) -> None:
    summary["failures"] += 1
    shown = "; ".join(f"{path}: {str(old)[:200]} -> {str(new)[:200]}" for path, old, new in changes)
    text = (f"FAILURE in {stage} ({summary['game']}):\n{traceback.format_exc()}mutations: {shown}\n"
            f"mutant: {json.dumps(obj)[:2000]}\n")
    print(text, flush=True)
    if dump:
        with open(os.path.join(dump, f"failure-{summary['failures']}.json"), "w") as f:
            json.dump(obj, f)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--mutants", type=int, default=1000, help="how many mutants (0: as many as --seconds allows)")
    ap.add_argument("--seconds", type=float, default=0.0, help="run at least this long (0: just --mutants)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sources", type=int, default=60, help="real states to mutate")
    ap.add_argument("--dump", default=None, help="folder for the mutant being tried and the failing ones")
    args = ap.parse_args(argv)
    summary = run(args.game, args.mutants, args.seed, args.seconds, args.dump, args.sources)
    print(json.dumps(summary), flush=True)
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())

"""The three searchers: MCTS (one state; the oracle when given the true state), PIMC (determinized UCT) and
ISMCTS (single-observer information-set MCTS). Their inner loops are the C engine of search/uct.pyx; this module
holds what happens once a decision: options, budgets, root parallelism, the final choice and the statistics.

>>> from search import make_searcher
>>> searcher = make_searcher("ismcts", iterations=500, seed=1)
>>> result = searcher.search(view)          # view: the bot's determinized view of the game
>>> result.action, result.stats["iterations"]
"""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.core import State
from engine.rng import RNG
from search.belief import MODELS, ParticleFilter
from search.options import (BELIEF_OPTIONS, COMMON_OPTIONS, SearchOptionError, SearchStateError, check_options,
                            parse_spec)
from search.rollout import ROLLOUT_HEURISTIC, ROLLOUT_MAST, ROLLOUT_RANDOM
from search.uct import KEYS_MOVER, KEYS_OBSERVER, KEYS_PATH, UCT

_CHANCE, _TERMINAL = -1, -2
_ROLLOUTS = {"random": ROLLOUT_RANDOM, "heuristic": ROLLOUT_HEURISTIC, "mast": ROLLOUT_MAST}
_KEYS = {"mover": KEYS_MOVER, "observer": KEYS_OBSERVER, "path": KEYS_PATH}


@dataclass
class SearchResult:
    action: int                       # always legal in the state searched
    stats: dict = field(default_factory=dict)


def _empty_stats() -> dict:
    return {"edges": {}, "iterations": 0, "calls": 0, "tree_size": 0, "max_depth": 0,
            "rollout_seconds": 0.0, "search_seconds": 0.0, "reused_visits": 0, "cutoff_in_tree": 0,
            "cutoff": -1, "stopped": False}


def _add_run(stats: dict, engine: UCT) -> None:
    """Fold the last run of `engine` into `stats` (root edges: visits and value sums add up)."""
    for action, (visits, value) in engine.root_edges().items():
        v = stats["edges"].setdefault(action, [0, 0.0])
        v[0] += visits
        v[1] += value
    stats["iterations"] += engine.iterations
    stats["calls"] += engine.calls
    stats["tree_size"] += engine.total_size()
    stats["max_depth"] = max(stats["max_depth"], engine.max_depth)
    stats["rollout_seconds"] += engine.rollout_seconds
    stats["search_seconds"] += engine.seconds
    stats["reused_visits"] += engine.reused_visits
    stats["cutoff_in_tree"] += engine.cutoff_in_tree
    stats["cutoff"] = max(stats["cutoff"], engine.depth_limit)
    stats["stopped"] = stats["stopped"] or engine.stopped_early


def _merge(parts: list[dict]) -> dict:
    out = _empty_stats()
    for s in parts:
        for action, (visits, value) in s["edges"].items():
            v = out["edges"].setdefault(action, [0, 0.0])
            v[0] += visits
            v[1] += value
        for k in ("iterations", "calls", "tree_size", "rollout_seconds", "search_seconds", "reused_visits",
                  "cutoff_in_tree"):
            out[k] += s[k]
        out["max_depth"] = max(out["max_depth"], s["max_depth"])
        out["cutoff"] = max(out["cutoff"], s["cutoff"])
    return out


def _split(total, parts: int) -> list:
    """An integer budget shared exactly between parts (None stays None)."""
    if total is None:
        return [None] * parts
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


class Searcher:
    """Common machinery; subclasses define NAME, OPTIONS and _run()."""

    NAME = "searcher"
    OPTIONS = dict(COMMON_OPTIONS)
    _active_belief = None             # the filter aligned with the state being searched (belief=particles)

    def __init__(self, **options):
        self.options = check_options(self.NAME, self.OPTIONS, options)
        self._rng = RNG(self.options["seed"])
        self._pool = None
        self.engine = None            # the UCT engine of the last local run (its tree, for inspection)
        self.watch = None             # search/analysis.py's Watch: search in slices, looking between them
        self.belief = None            # belief=particles: the particle filter (a bot keeps it over the game)
        self._belief_seconds = 0.0    # the filter's update time already reported
        if "belief" in self.OPTIONS:
            self._check_belief_options()
        if self.options["stop"] == "decided":
            self._check_stop_options()

    def _check_stop_options(self) -> None:
        """stop=decided ends a search when the most visited root move of its one tree is decided: the final choice
        must be that move, from that tree."""
        o = self.options
        if o["final"] != "visits":
            raise SearchOptionError(f"{self.NAME}: option stop=decided ends a search once its most visited move "
                                    f"cannot change: final={o['final']} does not choose by visits (use final=visits)")
        if o["workers"] > 1:
            raise SearchOptionError(f"{self.NAME}: option stop=decided watches one tree's root: workers="
                                    f"{o['workers']} (trees whose votes are summed) is not supported (leave workers "
                                    "at 1)")

    def _check_belief_options(self) -> None:
        o = self.options
        if o["belief"] == "none":
            odd = [k for k in BELIEF_OPTIONS if k != "belief" and o[k] != BELIEF_OPTIONS[k][1]]
            if odd:
                raise SearchOptionError(f"{self.NAME}: option {odd[0]} applies to belief=particles only (give "
                                        f"belief=particles,{odd[0]}=...)")
        elif o["workers"] > 1:
            raise SearchOptionError(f"{self.NAME}: belief=particles searches in this process: workers="
                                    f"{o['workers']} is not supported (leave workers at 1)")
        elif o["model"] != "greedy" and o["temp"] != BELIEF_OPTIONS["temp"][1]:
            raise SearchOptionError(f"{self.NAME}: option temp applies to model=greedy only")

    # --- belief from the opponents' moves ----------------------------------------------------------------------
    def new_belief(self, initial, seat: int, seed: int):
        """With belief=particles: a particle filter from this searcher's options for `seat`, every particle at
        `initial` (where every history of the game starts); kept as ``self.belief`` for the searches to draw
        worlds from. The caller feeds it what the seat sees (``belief.observe(mover, seen)``). None otherwise."""
        o = self.options
        if o.get("belief", "none") == "none":
            self.belief = None
            return None
        self.belief = ParticleFilter(initial, seat, o["particles"], MODELS[o["model"]], o["temp"], seed)
        self._belief_seconds = 0.0
        return self.belief

    def _align_belief(self, state, seed: int):
        """The filter aligned with `state` (the seat's view): particles outside its information set dropped,
        refilled from determinizations of it when none is left, or when there is no filter for this seat yet
        (a search without a bot: the uniform prior)."""
        if self.options.get("belief", "none") == "none":
            return None
        player = state.current_player()
        if self.belief is None or self.belief.seat != player:
            self.new_belief(state, player, seed).refill(state)
        self.belief.align(state)
        return self.belief

    def _belief_stats(self) -> dict:
        stats = self.belief.stats()
        stats["belief_seconds"], self._belief_seconds = stats["belief_seconds"] - self._belief_seconds, \
            stats["belief_seconds"]
        return stats

    # --- the API -----------------------------------------------------------------------------------------------
    def search(self, state) -> SearchResult:
        """Choose a move for ``state.current_player()`` in ``state`` (for PIMC and ISMCTS: any determinization
        of that player's information set; they resample it themselves). Raises SearchStateError on a terminal
        state, a chance node or a non-State."""
        if not isinstance(state, State):
            raise SearchStateError(f"{self.NAME}: search() needs an engine State, got {type(state).__name__}")
        player = state.current_player()
        if player == _TERMINAL:
            raise SearchStateError(f"{self.NAME}: the state is terminal (the game is over); there is no move to "
                                   "search")
        if player == _CHANCE:
            raise SearchStateError(f"{self.NAME}: the state is a chance node; chance outcomes are sampled by the "
                                   "referee, never chosen by a searcher")
        legal = state.legal_actions()
        seed = self._rng.next_u64()
        t0 = time.perf_counter()
        if len(legal) == 1:
            stats = _empty_stats()
            stats["edges"] = {legal[0]: [0, 0.0]}
            return self._result(legal, stats, time.perf_counter() - t0, forced=True)
        o = self.options
        workers = o["workers"]
        if o["iterations"] is not None:
            workers = min(workers, o["iterations"])
        if o["calls"] is not None:
            workers = min(workers, o["calls"])
        belief = None
        if workers == 1:
            belief = self._active_belief = self._align_belief(state, seed)
            try:
                stats = self._run(state, o["iterations"], o["time"], o["calls"], seed)
            finally:
                self._active_belief = None
        else:
            seeds = RNG(seed)
            jobs = zip(_split(o["iterations"], workers), _split(o["calls"], workers))
            pool = self._get_pool(workers)
            futures = [pool.submit(_remote, type(self).__name__, self._worker_options(), state, it, o["time"], ca,
                                   seeds.next_u64()) for it, ca in jobs]
            stats = _merge([f.result() for f in futures])
        result = self._result(legal, stats, time.perf_counter() - t0, workers=workers)
        if belief is not None:
            result.stats.update(self._belief_stats())
        return result

    def close(self):
        """Stop the worker processes of root parallelism (if any were started)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
        except Exception:
            pass

    def __repr__(self):
        hidden = set(BELIEF_OPTIONS) if self.options.get("belief") == "none" else set()
        opts = ",".join(f"{k}={v}" for k, v in self.options.items() if v is not None and k not in hidden)
        return f"{self.NAME}:{opts}"

    # --- internals ---------------------------------------------------------------------------------------------
    def _run(self, state, iterations, seconds, calls, seed) -> dict:
        raise NotImplementedError

    def _drive(self, engine: UCT, state, iterations, seconds, calls, seed, done: dict | None = None) -> None:
        """One engine run; under analysis, in slices that resume the same tree (the same search; `done`: the
        statistics of this decision's earlier trees, PIMC's)."""
        if self.watch is None:
            engine.run(state, iterations or 0, seconds or 0.0, calls or 0, seed)
        else:
            self.watch.drive(engine, state, iterations, seconds, calls, seed, done or _empty_stats())

    def _make_engine(self, info_sets: bool, multi: bool = False, keys: int = KEYS_PATH,
                     rewind: bool = False, reuse: bool = False) -> UCT:
        o = self.options
        if (self.engine is None or self.engine.info_sets != info_sets or self.engine.multi != multi
                or self.engine.keys != keys or self.engine.rewind != (rewind and keys == KEYS_MOVER)
                or self.engine.reuse != reuse):
            self.engine = UCT(info_sets, o["c"], _ROLLOUTS[o["rollout"]], -1 if o["depth"] is None else o["depth"],
                              multi, keys, rewind, o["chance_leaf"] == "sample", o["epsilon"],
                              o["history"], o["carry"], reuse, o["implicit"], o["lookahead"],
                              -1 if o["playout"] is None else o["playout"], o["leaf_mix"], o["mix_at"] == "tree",
                              o["deepen"], o["deepen_from"], o["depth_unit"] == "turns",
                              o["opponents"] == "policy", o["mix_policy"] == "rollout", o["stop"] == "decided",
                              o["oma"], o["widen"], o["widen_power"])
        return self.engine

    def _worker_options(self) -> dict:
        return {**{k: v for k, v in self.options.items() if v is not None}, "workers": 1}

    def _get_pool(self, workers: int) -> ProcessPoolExecutor:
        if self._pool is None or self._pool._max_workers != workers:
            self.close()
            self._pool = ProcessPoolExecutor(max_workers=workers)
        return self._pool

    def _choose(self, legal: list, edges: dict) -> int:
        allowed = [a for a in legal if a in edges and edges[a][0] > 0]
        if not allowed:                     # cannot happen with >= 1 iteration; be safe, stay legal
            return legal[0]

        def mean(a):
            return edges[a][1] / edges[a][0]
        if self.options["final"] == "value":
            return max(allowed, key=lambda a: (mean(a), edges[a][0], -a))
        if self.options["final"] == "mixed":
            # a mixed strategy: a move drawn in proportion to its visits (the searcher's seeded stream)
            pick = self._rng.next_u64() % sum(edges[a][0] for a in allowed)
            for a in allowed:
                pick -= edges[a][0]
                if pick < 0:
                    return a
        return max(allowed, key=lambda a: (edges[a][0], mean(a), -a))

    def _result(self, legal, stats, seconds, forced=False, workers=1) -> SearchResult:
        edges = stats["edges"]
        action = legal[0] if forced else self._choose(legal, edges)
        visits, value = edges.get(action, (0, 0.0))
        search_s = stats["search_seconds"]
        return SearchResult(action, {
            "iterations": stats["iterations"],
            "seconds": seconds,
            "iterations_per_s": stats["iterations"] / seconds if seconds > 0 else 0.0,
            "tree_size": stats["tree_size"],
            "max_depth": stats["max_depth"],
            "value": value / visits if visits else None,
            "visits": {a: v[0] for a, v in sorted(edges.items())},
            "calls": stats["calls"],
            "rollout_share": stats["rollout_seconds"] / search_s if search_s > 0 else 0.0,
            "workers": workers,
            "forced": forced,
            "reused_visits": stats["reused_visits"],       # reuse=yes: the root's visits kept from earlier searches
            # the share of iterations that met the depth cut-off inside the tree (expanding nothing): near 1, the
            # tree has filled the cut-off's horizon and more iterations score the same leaves again
            "cutoff_in_tree_share": stats["cutoff_in_tree"] / stats["iterations"] if stats["iterations"] else 0.0,
            # the depth cut-off the search ended at (deepen moves it; the deepest of PIMC's trees); None: none
            "cutoff": stats["cutoff"] if stats["cutoff"] >= 0 else None,
            # stop=decided: the search ended before its budget, its most visited move decided
            "stopped": stats.get("stopped", False),
        })


class MCTS(Searcher):
    """UCT on the given state as if it were the whole truth (perfect information; with the true state, the
    oracle). Chance outcomes are sampled by probability; n-player max^n backup."""

    NAME = "mcts"

    def _run(self, state, iterations, seconds, calls, seed):
        engine = self._make_engine(False)
        self._drive(engine, state, iterations, seconds, calls, seed)
        stats = _empty_stats()
        _add_run(stats, engine)
        return stats


class ISMCTS(Searcher):
    """Information-set MCTS with availability counts; a fresh determinization from the mover's seat every
    iteration (search/uct.pyx). ``keys=mover`` (the default): every decision's node is the information set of
    the player to move, so each player (opponents included) decides on exactly what it knows, and whatever it
    learns (a reveal) separates its nodes; with ``pending=rewind`` (the default) the others' secret choices made
    before the root and not yet revealed are made again at their own nodes in every iteration, not drawn
    uniformly. ``keys=observer``: single-observer ISMCTS keyed by the searching
    player's information sets. ``keys=path``: the earlier engine, edges keyed by what the searching player saw
    of each move when it was made (``observers=multi``: one such tree a player)."""

    NAME = "ismcts"
    OPTIONS = {**COMMON_OPTIONS, **BELIEF_OPTIONS,
               "keys": (str, "mover", "mover: a node is the information set of the player to move (its info_key); "
                                      "observer: the searching player's information set; "
                                      "path: edges keyed by what the searching player saw of each move (earlier "
                                      "engine)"),
               "pending": (str, "rewind", "keys=mover only. rewind: the others' secret choices made before the "
                                          "root and not yet revealed (an earlier bid in the round) are taken back "
                                          "and made again from their own nodes; sample: they stay as each "
                                          "determinization drew them (uniformly)"),
               "observers": (str, "single", "keys=path only. single: one tree, opponents' hidden moves merged and "
                                            "drawn uniformly; multi: one tree a player, each keyed by what its "
                                            "owner sees"),
               "reuse": (str, "no", "keys=mover or observer. yes: a search starts from the node its root's "
                                    "information set already has in the tree of this searcher's earlier searches "
                                    "in the game (their statistics kept, as engines keep the subtree of the move "
                                    "played); no: a fresh tree every search")}

    def __init__(self, **options):
        super().__init__(**options)
        if self.options["observers"] == "multi" and self.options["keys"] != "path":
            raise SearchOptionError(
                f"{self.NAME}: option observers applies to keys=path only (keys={self.options['keys']} keys every "
                "player's nodes by its own information already); give keys=path,observers=... for the path trees")
        if self.options["observers"] == "multi" and self.options["opponents"] == "policy":
            raise SearchOptionError(
                f"{self.NAME}: option opponents=policy keeps one tree of the searching player's decisions: "
                "observers=multi (one tree a player) is not supported (leave observers at single)")
        for one_tree in ("implicit", "oma"):        # each keeps values beside trees[0]'s nodes
            if self.options["observers"] == "multi" and self.options[one_tree] > 0:
                raise SearchOptionError(
                    f"{self.NAME}: option {one_tree} needs one tree: observers=multi (one tree a player) is not "
                    "supported (leave observers at single)")
        if self.options["reuse"] == "yes" and self.options["keys"] == "path":
            raise SearchOptionError(
                f"{self.NAME}: option reuse=yes needs keys=mover or keys=observer (a path-keyed tree has no node to "
                "find the next root by)")
        if self.options["reuse"] == "yes" and self.options["workers"] > 1:
            raise SearchOptionError(
                f"{self.NAME}: option reuse=yes keeps the tree in this process: workers={self.options['workers']} "
                "is not supported (leave workers at 1)")
        if self.options["pending"] != "rewind" and self.options["keys"] != "mover":
            raise SearchOptionError(
                f"{self.NAME}: option pending applies to keys=mover only (keys={self.options['keys']} has no node of "
                "the others' own to make their pending choices at)")

    def _run(self, state, iterations, seconds, calls, seed):
        keys = _KEYS[self.options["keys"]]
        engine = self._make_engine(True, keys == KEYS_PATH and self.options["observers"] == "multi", keys,
                                   self.options["pending"] == "rewind", self.options["reuse"] == "yes")
        engine.set_belief(self._active_belief, self.options["belief_mix"])
        self._drive(engine, state, iterations, seconds, calls, seed)
        stats = _empty_stats()
        _add_run(stats, engine)
        return stats


class PIMC(Searcher):
    """Perfect-information Monte Carlo: `determinizations` samples of the mover's information set, one UCT tree
    each with an equal share of the budget; the root visit counts are summed (a visit-weighted vote)."""

    NAME = "pimc"
    OPTIONS = {**COMMON_OPTIONS, **BELIEF_OPTIONS,
               "determinizations": (int, 8, "information-set samples, one UCT tree each, votes summed")}

    def _check_stop_options(self) -> None:
        raise SearchOptionError(f"{self.NAME}: option stop=decided watches one tree's root: PIMC sums the votes "
                                "of several trees (leave stop at budget, or use ismcts)")

    def _run(self, state, iterations, seconds, calls, seed):
        count = self.options["determinizations"]
        if iterations is not None:
            count = min(count, iterations)
        if calls is not None:
            count = min(count, calls)
        rng = RNG(seed)
        me = state.current_player()
        engine = self._make_engine(False)
        stats = _empty_stats()
        start = time.perf_counter()
        belief, mix = self._active_belief, self.options["belief_mix"]
        for i, (it, ca) in enumerate(zip(_split(iterations, count), _split(calls, count))):
            if belief is not None and rng.random() >= mix:
                world = belief.sample(rng)          # a particle by weight (belief=particles)
            else:
                world = state.determinize(me, rng)
            sec = 0.0
            if seconds is not None:         # each tree until its slice of the deadline
                sec = max(start + seconds * (i + 1) / count - time.perf_counter(), 1e-9)
            self._drive(engine, world, it, sec, ca, rng.next_u64(), stats)
            _add_run(stats, engine)
        return stats


SEARCHERS = {"mcts": MCTS, "pimc": PIMC, "ismcts": ISMCTS}


def make_searcher(name: str, **options) -> Searcher:
    """A searcher by name with validated options: ``make_searcher("ismcts", time=1.0, c=0.7)``."""
    if name not in SEARCHERS:
        raise SearchOptionError(f"unknown searcher {name!r}; known searchers: {', '.join(SEARCHERS)}")
    return SEARCHERS[name](**options)


def from_spec(spec: str) -> Searcher:
    """A searcher from a spec string: ``from_spec("ismcts:time=1.0,c=0.7,rollout=heuristic,depth=40")``."""
    name, options = parse_spec(spec)
    return make_searcher(name, **options)


# --- root parallelism: the worker side --------------------------------------------------------------------------
_WORKER_SEARCHERS: dict = {}


def _remote(class_name, options, state, iterations, seconds, calls, seed) -> dict:
    """Run one share of a search in a worker process; returns the root statistics to merge."""
    key = (class_name, tuple(sorted(options.items())))
    searcher = _WORKER_SEARCHERS.get(key)
    if searcher is None:
        cls = {c.__name__: c for c in SEARCHERS.values()}[class_name]
        searcher = _WORKER_SEARCHERS[key] = cls(**options)
    return searcher._run(state, iterations, seconds, calls, seed)

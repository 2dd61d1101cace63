"""Analysis of one search: the candidate moves with visits, mean values and intervals, the principal line and the
tree's statistics, read between slices of the search while it runs (``kleos analyse``; printing in arena/analyse.py).

The search is the searcher's own (``Searcher.search``): a ``Watch`` on the searcher makes each engine run go in
slices of about ``every`` seconds that resume the same tree, random stream and counters (``UCT.run(resume=True)``),
so with an iteration or call budget the analysed search is exactly the one a bot runs, and picks the same move.

Intervals: rewards lie in [0, 1], so a move's rewards have a variance of at most m(1 - m) around their mean m
(Bhatia-Davis; equality for win/loss outcomes). The tree keeps no sums of squares (the hot loop stays as it is), so
the 95% interval is the Wilson score interval for that largest variance: right for win/loss, too wide (never too
narrow) for graded rewards. Iterations are treated as independent samples, which tree search makes only roughly so.
"""
from __future__ import annotations

import math
import time

from search.uct import KEYS_PATH

Z95 = 1.959964
LINE_MIN_VISITS = 2        # a node visited once is only its expansion's playout: the line stops above it
LINE_CHANCE_STATES = 5000  # states the line looks at to follow a chance step (through dice pairs and the like)


def interval(mean: float, visits: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a mean of `visits` rewards in [0, 1] (see the module's doc)."""
    if visits <= 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (mean + z2 / (2 * visits)) / (1 + z2 / visits)
    half = Z95 * math.sqrt(max(mean * (1 - mean), 0.0) / visits + z2 / (4 * visits * visits)) / (1 + z2 / visits)
    return max(0.0, centre - half), min(1.0, centre + half)


def candidates(state, edges: dict) -> list[dict]:
    """The mover's moves in `state` with their root statistics ({action: [visits, value sum]}), most visited first;
    legal moves the search never tried are listed with 0 visits."""
    out = []
    for action in state.legal_actions():
        visits, total = edges.get(action, (0, 0.0))
        mean = total / visits if visits else None
        low, high = interval(mean, visits) if visits else (None, None)
        out.append({"action": int(action), "move": state.action_to_str(action), "visits": int(visits),
                    "value": mean, "low": low, "high": high})
    out.sort(key=lambda c: (-c["visits"], -(c["value"] or 0.0), c["action"]))
    total = sum(c["visits"] for c in out)
    for c in out:
        c["share"] = c["visits"] / total if total else 0.0
    return out


def principal_line(engine, world) -> dict:
    """The most-visited path down `engine`'s tree (the searching seat's tree), replayed on `world`, the state the
    tree was searched from, while it stays meaningful: it stops at a node visited fewer than LINE_MIN_VISITS times,
    at a move the searching seat cannot see (a path- or observer-keyed edge is what the seat saw of it, not a move)
    or one that is not legal in `world` (an opponent's public move needing cards this sample does not give him).

    With information-set nodes (ISMCTS keys=mover or keys=observer) a decision's node is not a child of the move
    before it: it is found in the search's index by the information set of the player to move in the replayed
    state (``UCT.node_of``). A chance outcome there has no node of its own; the line follows the outcome whose next
    decision the search visited most (listed as a chance step with that decision's visits). Below the root the
    line is one world: `world`'s sample of what the seat cannot see, with the opponents' hidden choices as the
    search modelled them. Under opponents=policy the tree holds the seat's own decisions only, and the line stops
    at the first decision of another player."""
    state = world.clone()
    line, node, stop = [], engine.root_node, "leaf"
    me = world.current_player()
    by_index = engine.info_sets and engine.keys != KEYS_PATH
    def opponent_to_move():             # opponents=policy: another player's decision has no node
        return engine.self_only and 0 <= state.current_player() != me

    others = "an opponent's decision: opponents=policy plays it by the rollout policy, with no node"
    while True:
        if opponent_to_move():
            stop = others
            break
        kids = engine.children(node)
        if not kids:
            break
        best = max(kids, key=lambda k: (k["visits"], -k["key"]))
        if best["visits"] < LINE_MIN_VISITS:
            stop = "few visits"
            break
        mover, key = best["mover"], best["key"]
        if key < 0:
            stop = f"a move seat {mover} keeps hidden" if mover >= 0 else "a chance outcome the seat cannot see"
            break
        if state.current_player() != mover or (mover >= 0 and key not in state.legal_actions()) or \
                (mover < 0 and key not in [a for a, _ in state.chance_outcomes()]):
            stop = "a move this sample of the hidden state does not allow"
            break
        seat = mover if mover >= 0 else me
        line.append({"seat": mover, "action": int(key), "move": state.action_to_str(key), "visits": best["visits"],
                     "value": best["value"][seat]})
        state.apply(key)
        if state.is_terminal():
            stop = "end of the game"
            break
        if not by_index:
            node = best["index"]
            continue
        while state.is_chance_node():
            outcome, visits = _likeliest_outcome(engine, state)
            if outcome is None:
                break
            line.append({"seat": -1, "action": int(outcome), "move": state.action_to_str(outcome),
                         "visits": visits, "value": None})
            state.apply(outcome)
        if state.is_terminal():
            stop = "end of the game"
            break
        if opponent_to_move():
            stop = others
            break
        node = engine.node_of(state) if not state.is_chance_node() else -1
        if node < 0:
            stop = "a decision the search never reached"
            break
    return {"moves": line, "stop": stop}


def _decision_visits(engine, state, budget: list) -> int:
    """Visits of the node of the first decision after `state`, through chance: the most visited over outcomes
    (at most budget[0] states looked at, so long chains of many outcomes stay cheap)."""
    budget[0] -= 1
    if state.is_terminal():
        return 0
    if not state.is_chance_node():
        node = engine.node_of(state)
        return engine.node(node)["visits"] if node >= 0 else 0
    most = 0
    for action, _p in state.chance_outcomes():
        if budget[0] <= 0:
            break
        most = max(most, _decision_visits(engine, _after(state, action), budget))
    return most


def _likeliest_outcome(engine, state):
    """The chance outcome whose next decision the search visited most, and those visits (None: none visited)."""
    best, most = None, 0
    outcomes = state.chance_outcomes()
    for action, _p in outcomes:
        visits = _decision_visits(engine, _after(state, action), [max(1, LINE_CHANCE_STATES // len(outcomes))])
        if visits > most:
            best, most = action, visits
    return best, most


def _after(state, action):
    s = state.clone()
    s.apply(action)
    return s


class Watch:
    """Attached to a searcher (``searcher.watch``), it runs each engine search in slices of about `every` seconds
    and calls ``on_slice(snapshot)`` between them; it also keeps each finished tree's principal line."""

    def __init__(self, every: float = 0.25, on_slice=None):
        self.every = every
        self.on_slice = on_slice
        self.lines: list[dict] = []          # one a finished tree (PIMC: one a determinization)
        self.memory = 0                      # the most bytes the trees held at once
        self.trees = 0
        self.last = None                     # the latest snapshot: at the end, the whole decision's root

    def drive(self, engine, state, iterations, seconds, calls, seed, done: dict) -> None:
        start = time.perf_counter()
        resume = False
        while True:
            it = iterations - engine.iterations if iterations and resume else (iterations or 0)
            ca = calls - engine.calls if calls and resume else (calls or 0)
            left = seconds - (time.perf_counter() - start) if seconds else None
            if resume and ((iterations and it <= 0) or (calls and ca <= 0) or (left is not None and left <= 0)):
                break
            # stop=decided is judged inside the slice too, against the whole search's budget (not the slice's
            # seconds), so a slice that holds the whole search stops where one run would
            engine.run(state, it, self.every if left is None else max(min(self.every, left), 1e-9), ca, seed,
                       resume, 0.0 if left is None else left)
            resume = True
            self.memory = max(self.memory, engine.memory())
            self.last = snapshot(state, engine, done)
            if self.on_slice is not None:
                self.on_slice(self.last)
            if engine.stop_decided and engine.decided(iterations or 0, seconds or 0.0, calls or 0,
                                                      time.perf_counter() - start):
                engine.stopped_early = True      # stop=decided, judged on the whole search's budget
                break
        self.trees += 1
        line = principal_line(engine, state)
        line["tree"] = self.trees - 1
        line["first_visits"] = line["moves"][0]["visits"] if line["moves"] else 0
        self.lines.append(line)


def snapshot(state, engine, done: dict) -> dict:
    """The root statistics so far: this decision's finished trees (`done`) plus the engine's current one."""
    edges = {a: list(v) for a, v in done["edges"].items()}
    for action, (visits, value) in engine.root_edges().items():
        e = edges.setdefault(action, [0, 0.0])
        e[0] += visits
        e[1] += value
    seconds = done["search_seconds"] + engine.seconds
    iterations = done["iterations"] + engine.iterations
    return {"edges": edges, "candidates": candidates(state, edges), "iterations": iterations, "seconds": seconds,
            "iterations_per_s": iterations / seconds if seconds > 0 else 0.0,
            "nodes": done["tree_size"] + engine.total_size(), "max_depth": max(done["max_depth"], engine.max_depth)}


def analyse(searcher, view, every: float = 0.25, on_slice=None) -> dict:
    """Search `view` (a determinization of the mover's information set, or the state itself for perfect
    information) with `searcher` as a bot would, looking at the root every `every` seconds; the full analysis."""
    if searcher.options.get("workers", 1) != 1:
        from search.options import SearchOptionError
        raise SearchOptionError(f"{searcher.NAME}: analysis searches in this process: workers="
                                f"{searcher.options['workers']} is not supported (leave workers at 1)")
    watch = Watch(every, on_slice)
    searcher.watch = watch
    try:
        result = searcher.search(view)
    finally:
        searcher.watch = None
    stats = result.stats
    edges = watch.last["edges"] if watch.last else {a: [v, 0.0] for a, v in stats["visits"].items()}
    name = searcher.NAME
    if name == "pimc":
        # the tree whose vote for the chosen move was largest gives the line below the root
        lines = [ln for ln in watch.lines if ln["moves"] and ln["moves"][0]["action"] == result.action]
        line = max(lines, key=lambda ln: ln["first_visits"]) if lines else (watch.lines or [None])[0]
        determinizations = watch.trees
        note = (f"root statistics summed over {watch.trees} trees, one a determinization; the line below the root "
                f"is that of tree {line['tree'] if line else 0}, in its own sample of the hidden state")
    else:
        line = watch.lines[-1] if watch.lines else None
        determinizations = stats["iterations"] if name == "ismcts" else (1 if watch.trees else 0)
        if name == "ismcts" and searcher.engine is not None and "belief_ess" in stats:
            determinizations -= searcher.engine.belief_draws      # the other worlds were particles
        note = ("one tree over information sets; a fresh determinization every iteration" if name == "ismcts"
                else "one tree over one determinization from the seat's view (the state as if it were the truth)")
    moves = candidates(view, edges)
    if searcher.options.get("implicit", 0.0) > 0 and name != "pimc" and searcher.engine is not None and \
            not stats.get("forced"):
        # implicit minimax backups: each root move's implicit value for the seat (one tree; PIMC's differ by tree)
        seat = view.current_player()
        values = {c["key"]: c["implicit"][seat] for c in searcher.engine.children(-1)
                  if c["mover"] == seat and "implicit" in c}
        for c in moves:
            c["implicit"] = values.get(c["action"])
    return {
        "searcher": repr(searcher),
        "seat": view.current_player(),
        "choice": {"action": int(result.action), "move": view.action_to_str(result.action)},
        "forced": bool(stats.get("forced")),
        "candidates": moves,
        "root_visits": int(stats["iterations"]),
        "principal_line": line["moves"] if line else [],
        "line_stop": line["stop"] if line else "forced move: no search",
        "note": note,
        "tree": {"nodes": int(stats["tree_size"]), "max_depth": int(stats["max_depth"]),
                 "memory_bytes": int(watch.memory), "iterations": int(stats["iterations"]),
                 "calls": int(stats["calls"]), "seconds": stats["seconds"],
                 "iterations_per_s": stats["iterations_per_s"], "rollout_share": stats["rollout_share"],
                 "cutoff_in_tree_share": stats["cutoff_in_tree_share"], "cutoff": stats.get("cutoff"),
                 "depth_unit": searcher.options.get("depth_unit", "actions"),
                 "opponents": searcher.options.get("opponents", "tree"),
                 "stop": searcher.options.get("stop", "budget"), "stopped": bool(stats.get("stopped")),
                 "determinizations": int(determinizations), "trees": watch.trees},
        "belief": {k[len("belief_"):]: stats[k] for k in ("belief_particles", "belief_ess", "belief_refills")}
        if "belief_ess" in stats else None,
    }


"""Searcher options: their table, parsing (from spec strings or typed values) and validation.

Each option is ``name: (type, default, help)``; ``check_options`` turns user input into typed, validated values
and raises ``SearchOptionError`` (a ValueError) naming the searcher, the option and the problem.
"""
from __future__ import annotations

from engine.errors import KleosError


class SearchOptionError(KleosError, ValueError):
    """An unknown searcher or option, or a bad value (a budget of zero or less, an unknown rollout...)."""


class SearchStateError(KleosError, ValueError):
    """search() was given a state it cannot decide in: terminal, a chance node, or not a State."""


# Choices of the string options.
CHOICES = {"rollout": ("random", "heuristic", "mast"), "chance_leaf": ("evaluate", "sample"),
           "final": ("visits", "value", "mixed"), "observers": ("single", "multi"), "keys": ("mover", "observer", "path"),
           "pending": ("rewind", "sample"), "belief": ("none", "particles"), "model": ("uniform", "greedy"),
           "reuse": ("no", "yes"), "mix_at": ("cutoff", "tree"),
           "mix_policy": ("uniform", "rollout"), "depth_unit": ("actions", "turns"),
           "opponents": ("tree", "policy"), "stop": ("budget", "decided")}
# Lower bounds: budgets must be positive, the others sensible.
MINIMUM = {"iterations": 1, "time": 0.0, "calls": 1, "c": 0.0, "depth": 1, "workers": 1, "determinizations": 1,
           "particles": 1, "temp": 0.0, "belief_mix": 0.0, "epsilon": 0.0,
           "history": 0.0, "carry": 0.0, "implicit": 0.0, "lookahead": 0, "playout": 0,
           "leaf_mix": 0.0, "deepen": 0, "deepen_from": 1, "oma": 0.0, "widen": 0.0, "widen_power": 0.0}
MAXIMUM = {"belief_mix": 1.0, "particles": 100000, "epsilon": 1.0, "carry": 1.0, "implicit": 1.0, "lookahead": 1000,
           "leaf_mix": 1.0, "deepen": 1000, "widen_power": 1.0}
STRICT = {"time", "temp"}             # minimum excluded: time and temp must be > 0
BUDGETS = ("iterations", "time", "calls")
DEFAULT_ITERATIONS = 1000             # the budget when none is given

COMMON_OPTIONS = {
    "iterations": (int, None, "iterations (simulations) a decision; exact"),
    "time": (float, None, "wall-clock seconds a decision"),
    "calls": (int, None, "forward-model calls (actions applied) a decision; no iteration starts past it"),
    "c": (float, 0.7, "UCB exploration constant (rewards are in [0, 1])"),
    "rollout": (str, "random", "rollout policy: random | heuristic (best of `lookahead` sampled moves by "
                               "evaluate()) | mast (the move with the best average return for its player so far in "
                               "this search)"),
    "lookahead": (int, 3, "rollout=heuristic: legal moves a rollout step scores by evaluate() of their successor, "
                          "drawn with replacement, the best for the mover played (0: every legal move, a greedy step)"),
    "epsilon": (float, 0.1, "rollout=mast: the share of rollout moves drawn uniformly instead"),
    "history": (float, 0.0, "progressive history's weight W: UCB adds W x (the move's average return for its player "
                            "in this search) / (visits + 1), and a node expands its untried move with the best "
                            "average first (0: off; keeps the move averages with any rollout)"),
    "carry": (float, 0.0, "the share of the move averages (rollout=mast, history) a search keeps from the searcher's "
                          "last search instead of starting from none (each kept sum and count scaled by it; a bot's "
                          "searcher lives for one game)"),
    "implicit": (float, 0.0, "implicit minimax backups' weight alpha (Lanctot, Winands, Pepels and Sturtevant): every "
                             "new node keeps evaluate() of its state, backed up the tree by max^n (chance and unseen "
                             "moves averaged), and UCB's value term is (1 - alpha) x the mean return + alpha x that "
                             "value (0: off)"),
    "depth": (int, None, "cut-off: actions (depth_unit) from the root after which evaluate() scores (none: to "
                        "the end)"),
    "deepen": (int, 0, "actions the depth cut-off moves away from the root once a search has run deepen_from "
                       "iterations, and again at each doubling of them (the horizon grows with the budget; 0: off; "
                       "no effect without depth)"),
    "deepen_from": (int, 1000, "deepen: a search's iterations at which the cut-off first moves"),
    "playout": (int, None, "cut-off: rollout actions past the tree's leaf after which evaluate() scores, so the "
                           "horizon grows with the tree (early playout termination; 0: the leaf itself; none: no "
                           "such cut-off; with depth, whichever comes first)"),
    "leaf_mix": (float, 0.0, "the share of a cut-off leaf's value (depth, playout) taken from moves played on from it "
                             "to the end (by mix_policy) instead of evaluate() (0: evaluate() alone)"),
    "mix_at": (str, "cutoff", "where leaf_mix applies: cutoff (every cut-off leaf) | tree (only a cut-off met "
                              "inside the tree, where the tree already fills the horizon and evaluate() would score "
                              "a leaf it has scored before; a new leaf keeps evaluate() alone)"),
    "mix_policy": (str, "uniform", "who plays leaf_mix's moves to the end: uniform (uniform moves) | rollout (the "
                                   "search's rollout policy, with its lookahead and epsilon: a dearer, better "
                                   "informed ending)"),
    "depth_unit": (str, "actions", "what depth, playout and deepen count: actions (chance included) | turns (a "
                                   "turn begins where a player other than the last decider decides; the cut-off "
                                   "scores where a turn begins, so evaluate() never meets a turn half played)"),
    "opponents": (str, "tree", "the other players' decisions below the root: tree (nodes of their own, each chosen "
                               "by UCB on its player's reward) | policy (made by the rollout policy as the descent "
                               "passes, so the tree holds the searching player's decisions only and reaches its "
                               "later moves sooner: a self-only tree, opponent moves abstracted away)"),
    "oma": (float, 0.0, "opponent move abstraction (Baier and Kaisers), equivalence K: at the searching player's "
                        "nodes a move's mean is blended with that of the same move after the same own moves from the "
                        "root, whatever the others (and chance) did in between, with weight sqrt(K / (3n + K)) for "
                        "an edge of n visits (0: off; one tree: not observers=multi)"),
    "widen": (float, 0.0, "progressive widening at the other players' nodes, C: such a node tries a new move only "
                          "while it has fewer than ceil(C x (visits + 1)^widen_power) moves tried, so the tree reaches "
                          "the searching player's later moves sooner (0: off; the untried move is drawn as without, "
                          "or by its average with history)"),
    "widen_power": (float, 0.5, "widen: the exponent of the visits, in [0, 1]"),
    "chance_leaf": (str, "evaluate", "a state evaluate() would score (the cut-off, heuristic rollouts' look-ahead) "
                                     "where chance acts next: evaluate (as it stands) | sample (played on by sampled "
                                     "outcomes until someone decides)"),
    "stop": (str, "budget", "when a search ends: budget (when its budget is spent) | decided (as soon as the most "
                            "visited root move cannot be overtaken in the budget left, at the rate so far: the same "
                            "choice sooner, and a bot's turn time left for its later decisions; final=visits, one "
                            "tree: not pimc, workers=1)"),
    "seed": (int, 0, "seed of the searcher's random stream"),
    "workers": (int, 1, "root parallelism: processes searching at once, root visit counts merged"),
    "final": (str, "visits", "final choice: visits (most visited) | value (best mean value) | mixed (a move drawn "
                             "in proportion to its visits)"),
}

# Belief from the opponents' moves (search/belief.pyx), for the searchers that sample worlds (PIMC, ISMCTS).
BELIEF_OPTIONS = {
    "belief": (str, "none", "where the sampled worlds come from. none: fresh determinizations (every world the seat "
                            "cannot rule out alike); particles: a particle filter over the game's events, weighted "
                            "by an opponent model (a bot keeps it over the game)"),
    "particles": (int, 64, "belief=particles: how many particles (full game states) the filter keeps"),
    "model": (str, "uniform", "belief=particles: the opponent model. uniform: every legal move alike; greedy: "
                              "softmax over evaluate() of each move's successor, temperature temp"),
    "temp": (float, 0.1, "belief=particles, model=greedy: the softmax temperature (evaluate() is on [0, 1])"),
    "belief_mix": (float, 0.1, "belief=particles: the share of worlds that are still fresh determinizations (a "
                               "guard against a wrong model)"),
}


def _convert(searcher: str, name: str, kind: type, value):
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if kind is str:
            return text
        if text.lower() in ("none", ""):
            return None
        try:
            return kind(text) if kind is not int else int(text, 10)
        except ValueError:
            raise SearchOptionError(
                f"{searcher}: option {name}={value!r} is not {'an integer' if kind is int else 'a number'}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else kind):
        raise SearchOptionError(f"{searcher}: option {name} must be {kind.__name__}, got {value!r}")
    if kind is int and isinstance(value, float):
        raise SearchOptionError(f"{searcher}: option {name} must be int, got {value!r}")
    return kind(value)


def check_options(searcher: str, table: dict, given: dict) -> dict:
    """Typed, validated values for every option of ``table`` (defaults filled in)."""
    unknown = sorted(set(given) - set(table))
    if unknown:
        raise SearchOptionError(
            f"{searcher}: unknown option {', '.join(map(repr, unknown))}; known options: {', '.join(table)}")
    out = {}
    for name, (kind, default, _help) in table.items():
        value = _convert(searcher, name, kind, given[name]) if name in given else default
        if value is not None:
            if name in CHOICES and value not in CHOICES[name]:
                raise SearchOptionError(
                    f"{searcher}: option {name}={value!r} is not one of {', '.join(CHOICES[name])}")
            if kind is float and not (value == value and abs(value) != float("inf")):
                raise SearchOptionError(f"{searcher}: option {name}={value!r} must be a finite number")
            if name in MINIMUM:
                low = MINIMUM[name]
                if value < low or (name in STRICT and value <= low):
                    op = ">" if name in STRICT else ">="
                    extra = " (a budget must be positive)" if name in BUDGETS else ""
                    raise SearchOptionError(f"{searcher}: option {name}={value!r} must be {op} {low}{extra}")
            if name in MAXIMUM and value > MAXIMUM[name]:
                raise SearchOptionError(f"{searcher}: option {name}={value!r} must be <= {MAXIMUM[name]}")
        out[name] = value
    if all(out.get(b) is None for b in BUDGETS):
        out["iterations"] = DEFAULT_ITERATIONS
    return out


def parse_spec(spec: str) -> tuple[str, dict]:
    """``"ismcts:time=1.0,c=0.7"`` -> ``("ismcts", {"time": "1.0", "c": "0.7"})`` (values checked later)."""
    if not isinstance(spec, str):
        raise SearchOptionError(f"a searcher spec is a string like 'ismcts:time=1.0', got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    options = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        if "=" not in part:
            raise SearchOptionError(f"{name}: option {part!r} in spec {spec!r} is not of the form name=value")
        key, value = part.split("=", 1)
        key = key.strip()
        if key in options:
            raise SearchOptionError(f"{name}: option {key!r} given twice in spec {spec!r}")
        options[key] = value.strip()
    return name.strip(), options

"""Helpers for the searcher tests: goofspiel positions, a brute-force 'forced win' check, test positions."""
import random

from engine.registry import load_game
from search import make_searcher
from search.bench import opening

# The searchers under test: label -> (searcher name, options).
CONFIGS = {"mcts": ("mcts", {}), "pimc": ("pimc", {}), "ismcts": ("ismcts", {}),
           "ismcts-sample": ("ismcts", {"pending": "sample"}),
           "ismcts-observer": ("ismcts", {"keys": "observer"}),
           "ismcts-path": ("ismcts", {"keys": "path"}),
           "ismcts-mo": ("ismcts", {"keys": "path", "observers": "multi"}),
           "ismcts-belief": ("ismcts", {"belief": "particles", "particles": 16}),
           "pimc-belief": ("pimc", {"belief": "particles", "particles": 16, "model": "greedy"}),
           "ismcts-mast": ("ismcts", {"rollout": "mast"}),
           "ismcts-mo-mast": ("ismcts", {"keys": "path", "observers": "multi", "rollout": "mast"}),
           "ismcts-history": ("ismcts", {"rollout": "mast", "history": 1.0}),
           "ismcts-observer-history": ("ismcts", {"keys": "observer", "rollout": "mast", "history": 1.0}),
           "ismcts-mo-history": ("ismcts", {"keys": "path", "observers": "multi", "history": 1.0}),
           "mcts-implicit": ("mcts", {"implicit": 0.5}),
           "pimc-implicit": ("pimc", {"implicit": 0.5}),
           "ismcts-implicit": ("ismcts", {"implicit": 0.5}),
           "ismcts-path-implicit": ("ismcts", {"keys": "path", "implicit": 0.5}),
           "ismcts-reuse-implicit": ("ismcts", {"implicit": 0.3, "reuse": "yes"}),
           "pimc-playout": ("pimc", {"playout": 3}),
           "ismcts-playout": ("ismcts", {"playout": 3}),
           "ismcts-reuse-playout": ("ismcts", {"playout": 2, "reuse": "yes"})}
# Searchers whose cut-off or tree shape is part of the configuration (every test of CONFIGS that sets its own
# depth, counts calls or looks for a forced win against every reply would measure something else): the every-game
# legality and no-peek tests run them.
CUTOFF_CONFIGS = {"pimc-leaf-mix": ("pimc", {"depth": 6, "leaf_mix": 0.5}),
                  "ismcts-leaf-mix": ("ismcts", {"depth": 6, "leaf_mix": 0.5, "chance_leaf": "sample"}),
                  "ismcts-playout-leaf-mix": ("ismcts", {"playout": 2, "leaf_mix": 1.0, "reuse": "yes"}),
                  "ismcts-tree-mix": ("ismcts", {"depth": 4, "leaf_mix": 0.5, "mix_at": "tree"}),
                  "ismcts-policy-mix": ("ismcts", {"depth": 4, "leaf_mix": 0.5, "mix_policy": "rollout",
                                                   "rollout": "heuristic", "chance_leaf": "sample"}),
                  "pimc-policy-mix": ("pimc", {"depth": 3, "leaf_mix": 0.5, "mix_policy": "rollout",
                                               "rollout": "heuristic", "lookahead": 0}),
                  "ismcts-mast-tree-mix": ("ismcts", {"depth": 3, "leaf_mix": 0.5, "mix_at": "tree",
                                                      "mix_policy": "rollout", "rollout": "mast", "reuse": "yes"}),
                  "ismcts-deepen": ("ismcts", {"depth": 3, "deepen": 2, "deepen_from": 16, "reuse": "yes"}),
                  "pimc-deepen": ("pimc", {"depth": 3, "deepen": 1, "deepen_from": 4}),
                  "ismcts-turns": ("ismcts", {"depth": 3, "depth_unit": "turns", "reuse": "yes"}),
                  "pimc-turns": ("pimc", {"depth": 2, "depth_unit": "turns", "rollout": "heuristic"}),
                  "ismcts-playout-turns": ("ismcts", {"playout": 1, "depth_unit": "turns", "chance_leaf": "sample"}),
                  "ismcts-self": ("ismcts", {"opponents": "policy", "rollout": "heuristic", "depth": 8,
                                             "reuse": "yes"}),
                  "ismcts-observer-self": ("ismcts", {"opponents": "policy", "keys": "observer", "rollout": "mast",
                                                      "history": 1.0}),
                  "ismcts-path-self": ("ismcts", {"opponents": "policy", "keys": "path"}),
                  "ismcts-stop": ("ismcts", {"stop": "decided", "reuse": "yes", "rollout": "heuristic",
                                             "depth": 10}),
                  "ismcts-path-stop": ("ismcts", {"stop": "decided", "keys": "path", "observers": "multi"}),
                  "pimc-self": ("pimc", {"opponents": "policy", "rollout": "heuristic", "lookahead": 0,
                                         "depth": 6}),
                  "ismcts-oma-widen": ("ismcts", {"oma": 20.0, "widen": 1.0, "rollout": "mast", "history": 1.0,
                                                  "reuse": "yes"}),
                  "ismcts-observer-oma": ("ismcts", {"oma": 5.0, "keys": "observer", "depth": 8}),
                  "ismcts-path-widen": ("ismcts", {"widen": 2.0, "widen_power": 0.25, "keys": "path"}),
                  "pimc-oma-widen": ("pimc", {"oma": 20.0, "widen": 1.0, "rollout": "heuristic", "depth": 6})}


def new(label, **options):
    """A searcher of CONFIGS by label, with more (or other) options."""
    name, extra = CONFIGS[label] if label in CONFIGS else CUTOFF_CONFIGS[label]
    return make_searcher(name, **{**extra, **options})     # options given here win over the label's


def greedy_move(state):
    """The move a greedy rollout step plays (rollout=heuristic,lookahead=0), in Python: every legal move scored by
    evaluate() of its successor for the mover, the first best played."""
    p = state.current_player()
    legal = state.legal_actions()
    best, best_value = legal[0], -1.0
    if len(legal) > 1:
        for a in legal:
            nxt = state.clone()
            nxt.apply(a)
            value = nxt.evaluate()[p]
            if value > best_value:
                best, best_value = a, value
    return best


def position(obj):
    """A goofspiel state from its to_json() form (the game's options are read from the object)."""
    return load_game("goofspiel", players=obj["players"], cards=obj["cards"]).state_from_json(obj)


def after(state, action):
    s = state.clone()
    s.apply(action)
    return s


def forces_win(state, me):
    """True when `me` wins (return 1.0) against every reply and every chance outcome, even if the opponents
    could see `me`'s secret bids: the strongest adversary, so a forced win here is forced in the real game."""
    p = state.current_player()
    if p == -2:
        return state.returns()[me] == 1.0
    if p == -1:
        return all(forces_win(after(state, a), me) for a, _ in state.chance_outcomes())
    if p == me:
        return any(forces_win(after(state, a), me) for a in state.legal_actions())
    return all(forces_win(after(state, a), me) for a in state.legal_actions())


# One move ahead: P0 holds 1 and 5, the prize is 5 and the 3 follows. Bidding 5 wins the 5 (7 points to at most
# 1 + 3); bidding 1 gives the 5 away and loses. The winning action is 4 (card 5).
ONE_AHEAD = {"players": 2, "cards": 5, "round": 3, "phase": "bidding", "to_bid": 0, "prize": 5, "prize_deck": [3],
             "hands": [[1, 5], [2, 4]], "bids": [None, None], "last_bids": [2, 5], "points": [2, 1]}
# Two moves ahead: three cards each, a prize now and two to come; only bidding 3 (action 2) wins by force, and
# only with the right follow-up in the next round (after the chance reveal).
TWO_AHEAD = {"players": 2, "cards": 5, "round": 2, "phase": "bidding", "to_bid": 0, "prize": 4,
             "prize_deck": [3, 5], "hands": [[1, 3, 5], [1, 2, 3]], "bids": [None, None], "last_bids": [2, 5],
             "points": [0, 1]}
# Three players (max^n backup): only bidding 5 (action 4) forces a win for P0.
THREE_PLAYERS = {"players": 3, "cards": 6, "round": 3, "phase": "bidding", "to_bid": 0, "prize": 3,
                 "prize_deck": [1, 5], "hands": [[1, 5, 6], [2, 5, 6], [2, 4, 5]], "bids": [None, None, None],
                 "last_bids": [3, 3, 6], "points": [6, 4, 2]}


def random_positions(name, count, seed=7, **options):
    """Decisions of seeded random games with more than one legal move."""
    rng = random.Random(seed)
    game = load_game(name, **options)
    out = []
    while len(out) < count:
        s = opening(game, rng.randrange(1000))
        for _ in range(rng.randrange(1, 50)):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply(rng.choice([a for a, _ in s.chance_outcomes()]))
            else:
                s.apply(rng.choice(s.legal_actions()))
        while s.is_chance_node():
            s.apply(rng.choice([a for a, _ in s.chance_outcomes()]))
        if s.current_player() >= 0 and len(s.legal_actions()) > 1:
            out.append(s)
    return out

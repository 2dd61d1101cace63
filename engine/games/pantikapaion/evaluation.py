"""evaluate()'s projection in Python: the parts the C code (state.pyx, c_evaluate) weighs, for fitting its weights
(scripts/pantikapaion_evaluate_fit.py) and for holding the C code to the documented formula (tests).

A player's projection is the score if the game ended now plus, times the share of rounds still to play (this one
included), the weights of data/evaluate.json on the parts below; a player's value is the mean, over opponents, of
the logistic of the projection's lead divided by the scale (docs/rules/pantikapaion.md, "Evaluation heuristic").
"""
from __future__ import annotations

import math

# the weighed parts, named as their weights in data/evaluate.json (scale is the squash's, not a part's)
PARTS = ("building", "development_step", "worker", "coin")


def projection_parts(state) -> tuple[float, list[tuple[float, list[float]]]]:
    """(share of rounds left, [(score now, [buildings, development steps, workers in play, coins]) per player])."""
    raw = state._raw()
    rounds = state.game.data["rounds"]
    left = (rounds - raw["round"] + 1) / rounds
    players = []
    for p in range(state.num_players):
        pl = raw["pl"][p]
        players.append((float(state.score_breakdown(p)["total"]),
                        [float(pl["nb"]), float(sum(pl["marker"])), float(pl["w_board"] + pl["w_city"]),
                         float(pl["coins"])]))
    return left, players


def projections(state, weights: dict) -> list[float]:
    left, players = projection_parts(state)
    return [now + left * sum(weights[name] * x for name, x in zip(PARTS, parts)) for now, parts in players]


def values(state, weights: dict) -> list[float]:
    """What evaluate() returns under ``weights`` ({name: value}, as data.load()["evaluate"])."""
    proj = projections(state, weights)
    n = len(proj)
    return [sum(1.0 / (1.0 + math.exp(-(proj[p] - proj[q]) / weights["scale"])) for q in range(n) if q != p) / (n - 1)
            for p in range(n)]

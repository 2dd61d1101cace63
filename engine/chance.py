"""Drawing chance outcomes outside the search loop (the referee, records, tools): one rule, used everywhere.

The C searchers draw with ``engine.core.sample_chance_outcome``, the same rule over the same outcome order.
"""


def pick_outcome(outcomes, u: float) -> int:
    """The outcome of ``[(outcome, probability), ...]`` that a uniform ``u`` in [0, 1) falls on, in list order."""
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if u < acc:
            return action
    return outcomes[-1][0]          # rounding: probabilities that sum to a hair under 1


def sample_outcome(outcomes, rng) -> int:
    """One outcome of ``[(outcome, probability), ...]`` drawn with ``rng`` (an ``engine.rng.RNG``)."""
    return pick_outcome(outcomes, rng.random())

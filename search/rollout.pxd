# Rollout policies: how a simulation continues below the tree.
from libc.stdint cimport int64_t

from engine.core cimport State
from engine.rng cimport Rng

cdef enum:
    ROLLOUT_RANDOM = 0         # uniform over the legal actions
    ROLLOUT_HEURISTIC = 1      # the best of a few sampled actions by the game's evaluate() (see rollout.pyx)

# Write into out the returns of `state` when it is over, else its evaluate() estimate.
cdef void leaf_value(State state, double* out) noexcept
# The same; with `settle`, where chance acts next (a die about to be rolled, a tile about to be drawn) `state` is
# first played on in place by sampled outcomes until someone decides or the game ends, so evaluate() scores a state
# whose chance is settled (searcher option chance_leaf=sample). Returns the outcomes applied (0 without `settle`),
# or -1 at a chance node without an outcome (a broken state).
cdef int64_t scored_leaf_value(State state, Rng* rng, bint settle, double* out) noexcept
# Play `state` on in place (chance by its probabilities) until the end or until `max_actions` actions (< 0: no
# limit), then write its value into out; every state evaluate() scores (the cut-off, the heuristic's look-ahead)
# is scored by scored_leaf_value with `settle`. `scratch` is a state of the same game for look-ahead.
# Returns the number of actions applied to `state` plus look-ahead applications (forward-model calls), or -1 when
# `state` reached a node without a legal action or outcome (a broken state, left there: the caller raises
# engine.core.no_legal_action).
cdef int64_t rollout(State state, State scratch, Rng* rng, int kind, int64_t max_actions, bint settle,
                     double* out) noexcept

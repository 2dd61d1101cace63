# Rollout policies: how a simulation continues below the tree.
from libc.stdint cimport int64_t

from engine.core cimport CHANCE, State
from engine.rng cimport Rng

cpdef enum:                    # the searchers' `rollout` option, by name (search/searchers.py)
    ROLLOUT_RANDOM = 0         # uniform over the legal actions
    ROLLOUT_HEURISTIC = 1      # the best of `lookahead` sampled actions by the game's evaluate() (see rollout())
    ROLLOUT_MAST = 2           # the action with the best average return so far for its player (see Mast)


# Move-Average Sampling Technique (Finnsson and Bjornsson): what every (player, action) pair played in a search's
# simulations, tree and rollout alike, has returned to that player on average. Rollouts then play, with probability
# 1 - epsilon, the legal action with the best average for the mover (untried actions count as the best possible
# return, 1), else a uniform one. Game-agnostic: it keys by action id only. Statistics live for one search.
cdef struct Mast:
    double* sums               # [player * actions + action]: returns summed
    double* counts             # [player * actions + action]: times played
    int players
    int actions                # the game's num_distinct_actions
    double epsilon
    int* played                # this simulation's moves, as player * actions + action
    int64_t n_played
    int64_t cap

# Allocate (or grow) and zero the tables for a search of `players` players over `actions` action ids (epsilon is
# left as set); -1: no memory.
cdef int mast_reset(Mast* m, int players, int actions) noexcept
cdef void mast_free(Mast* m) noexcept
# Scale every sum and count by `keep` (in [0, 1]): what a new search carries over from the last one.
cdef void mast_decay(Mast* m, double keep) noexcept
# The average return of `action` to `player` so far; 1 (the best possible) for a move no simulation has played, so
# untried moves are tried first (the rollouts' choice and progressive history share it).
cdef inline double mast_mean(const Mast* m, int player, int action) noexcept:
    cdef int64_t k = <int64_t>player * m.actions + action
    return m.sums[k] / m.counts[k] if m.counts[k] > 0.0 else 1.0
# Note that `player` played `action` in this simulation (ignored when out of memory: the statistics thin out).
cdef void mast_note(Mast* m, int player, int action) noexcept
# Credit every noted move with its player's component of `ret`, and forget them for the next simulation.
cdef void mast_update(Mast* m, const double* ret) noexcept

# Write into out the returns of `state` when it is over, else its evaluate() estimate.
cdef void leaf_value(State state, double* out) noexcept
# The same; with `settle`, where chance acts next (a die about to be rolled, a tile about to be drawn) `state` is
# first played on in place by sampled outcomes until someone decides or the game ends, so evaluate() scores a state
# whose chance is settled (searcher option chance_leaf=sample). Returns the outcomes applied (0 without `settle`),
# or -1 at a chance node without an outcome (a broken state).
cdef int64_t scored_leaf_value(State state, Rng* rng, bint settle, double* out) noexcept
# The value of a leaf at a cut-off (`depth`, `playout`): scored_leaf_value's, and with `mix` > 0 that share of it
# taken instead from the returns of moves played on in place to the game's end (chance by its probabilities) by
# the policy `mix_kind` (searcher option leaf_mix: an evaluation and a rollout mixed, as AlphaGo mixed its value
# network and its rollouts; mix_policy: ROLLOUT_RANDOM, uniform moves, or the search's own rollout kind, which then
# uses `scratch`, `mast` and `lookahead` as rollout() does). Returns the actions applied plus look-ahead
# applications, or -1 at a node without a legal action or outcome (a broken state).
cdef int64_t cutoff_value(State state, State scratch, Rng* rng, bint settle, double mix, int mix_kind, Mast* mast,
                          int lookahead, double* out) noexcept
# The move the rollout policy `kind` plays for `player` among the legal actions buf[0..n) (n >= 1) of `state`: one
# rollout step (see rollout() below; the tree's opponents play it too under opponents=policy). Look-ahead
# applications are added to `calls`; the move is noted in `mast` unless it is NULL. -1: a look-ahead met a broken
# state.
cdef int policy_action(State state, State scratch, Rng* rng, int kind, bint settle, Mast* mast, int lookahead,
                       int player, const int* buf, int n, int64_t* calls) noexcept
# Play `state` on in place (chance by its probabilities) until the end or until `max_actions` actions (< 0: no
# limit), then write its value into out (at the limit, cutoff_value's with `mix` and `mix_kind`); every state
# evaluate() scores (the cut-off, the heuristic's look-ahead) is scored by scored_leaf_value with `settle`.
# `scratch` is a state of the same game for look-ahead (None will do for the random kind without a limit, which
# looks nothing ahead).
# Returns the number of actions applied to `state` plus look-ahead applications (forward-model calls), or -1 when
# `state` reached a node without a legal action or outcome (a broken state, left there: the caller raises
# engine.core.no_legal_action).
# Every move played is noted in `mast` unless it is NULL (the searcher keeps move averages: rollout=mast, or
# progressive history); with kind ROLLOUT_MAST its averages also pick the moves (then it must not be NULL).
# ROLLOUT_HEURISTIC scores `lookahead` legal actions a step, drawn with replacement (0: every legal action, a
# greedy step), by evaluate() of their successor, and plays the best for the mover: a bias towards good moves
# that keeps rollouts varied.
# With `turns` the limit counts turns instead of actions (searcher option depth_unit=turns, by turn_reached():
# `last` is who decided just before `state`, -1 if no one), so the state is scored where the `max_actions`-th turn
# begins (0: at the first decision that begins a turn) and evaluate() never meets a turn half played.
cdef int64_t rollout(State state, State scratch, Rng* rng, int kind, int64_t max_actions, bint settle,
                     Mast* mast, double* out, int lookahead, double mix, int mix_kind, bint turns, int last) noexcept


# depth_unit=turns, the one rule the tree and the rollouts share: a turn begins at a decision of a player other than
# the last one to decide (`last`; -1: no one yet, the first turn; chance ends no turn). Where `player` is to move,
# the turns begun so far, `begun` counted up when another player's turn begins here; -1 where no turn begins.
cdef inline int64_t turn_reached(int player, int last, int64_t* begun) noexcept nogil:
    if player == CHANCE or player == last:
        return -1
    if last >= 0:
        begun[0] += 1
    return begun[0]

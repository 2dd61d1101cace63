"""Rollout policies (rollout.pxd), in C over the State contract."""
from libc.stdint cimport int64_t

from engine.core cimport CHANCE, MAX_ACTIONS, MAX_PLAYERS, TERMINAL, State, sample_chance_outcome
from engine.rng cimport Rng, rng_below

# Heuristic rollouts look at this many sampled legal actions a step (with replacement) and play the one whose
# evaluate() is best for the mover: a cheap bias towards good moves that keeps rollouts varied. A search constant,
# not a game value.
cdef enum:
    HEURISTIC_SAMPLES = 3


cdef void leaf_value(State state, double* out) noexcept:
    if state.c_current_player() == TERMINAL:
        state.c_returns(out)
    else:
        state.c_evaluate(out)


cdef int64_t scored_leaf_value(State state, Rng* rng, bint settle, double* out) noexcept:
    cdef int64_t applied = 0
    cdef int a
    while settle and state.c_current_player() == CHANCE:
        a = sample_chance_outcome(state, rng)
        if a < 0:
            return -1
        state.c_apply(a)
        applied += 1
    leaf_value(state, out)
    return applied


cdef int64_t rollout(State state, State scratch, Rng* rng, int kind, int64_t max_actions, bint settle,
                     double* out) noexcept:
    cdef int buf[MAX_ACTIONS]
    cdef double est[MAX_PLAYERS]
    cdef int player, n, k, a, best_a
    cdef double best
    cdef int64_t moves = 0, calls = 0, settled
    while True:
        player = state.c_current_player()
        if player == TERMINAL:
            state.c_returns(out)
            return calls
        if max_actions >= 0 and moves >= max_actions:
            settled = scored_leaf_value(state, rng, settle, out)
            return -1 if settled < 0 else calls + settled
        if player == CHANCE:
            a = sample_chance_outcome(state, rng)
            if a < 0:
                return -1
        else:
            n = state.c_legal_actions(buf)
            if n <= 0:
                return -1
            a = buf[rng_below(rng, n)]
            if kind == ROLLOUT_HEURISTIC and n > 1:
                best_a = a
                best = -1.0
                for k in range(HEURISTIC_SAMPLES):
                    scratch.c_copy_from(state)
                    scratch.c_apply(a)
                    calls += 1
                    settled = scored_leaf_value(scratch, rng, settle, est)
                    if settled < 0:
                        return -1
                    calls += settled
                    if est[player] > best:
                        best = est[player]
                        best_a = a
                    a = buf[rng_below(rng, n)]
                a = best_a
        state.c_apply(a)
        moves += 1
        calls += 1

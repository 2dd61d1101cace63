"""Random playouts and the timing loops of ``kleos bench``, all in C over the State contract."""
from libc.stdint cimport uint64_t

from engine.clock cimport now
from engine.core cimport CHANCE, MAX_ACTIONS, TERMINAL, State, sample_chance_outcome
from engine.rng cimport RNG, Rng, rng_below
from engine.core import no_legal_action


cdef long random_playout(State state, Rng* rng, long max_moves) noexcept:
    """Play uniformly random legal actions (chance by its probabilities) until the end or max_moves.

    Returns the number of actions applied (chance outcomes included), or -1 when it reached a node without a
    legal action or outcome (a broken state, left where it got stuck: the caller raises no_legal_action)."""
    cdef int buf[MAX_ACTIONS]
    cdef int player, n, a
    cdef long moves = 0
    while moves < max_moves:
        player = state.c_current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            a = sample_chance_outcome(state, rng)
            if a < 0:
                return -1
        else:
            n = state.c_legal_actions(buf)
            if n <= 0:
                return -1
            a = buf[rng_below(rng, n)]
        state.c_apply(a)
        moves += 1
    return moves


def playout(State state, seed=0, long max_moves=10_000_000):
    """Play ``state`` to the end in place with random moves; returns the number of actions applied."""
    cdef RNG rng = seed if isinstance(seed, RNG) else RNG(seed)
    cdef long moves = random_playout(state, &rng.state, max_moves)
    if moves < 0:
        raise no_legal_action(state, "random playout")
    return moves


def measure_playouts(State start, double seconds=1.0, seed=0):
    """Random playouts from ``start`` (copied each game) for about ``seconds``: games, actions, elapsed time."""
    cdef RNG rng = RNG(seed)
    cdef State scratch = start.c_clone()
    cdef long games = 0, moves = 0, played
    cdef double t0 = now(), t
    while True:
        scratch.c_copy_from(start)
        played = random_playout(scratch, &rng.state, 100_000_000)
        if played < 0:
            raise no_legal_action(scratch, "random playout")
        moves += played
        games += 1
        t = now() - t0
        if t >= seconds:
            break
    return {"games": games, "moves": moves, "seconds": t}


def measure_clone(State state, long repeats=100_000):
    """Seconds per ``clone()`` (a new state object: allocation plus a struct copy)."""
    cdef long i
    cdef State c
    cdef double t0 = now()
    for i in range(repeats):
        c = state.c_clone()
    return (now() - t0) / repeats


def measure_copy(State state, long repeats=100_000):
    """Seconds per ``copy_from`` into an existing state (what searchers do every iteration)."""
    cdef State scratch = state.c_clone()
    cdef long i
    cdef double t0 = now()
    for i in range(repeats):
        scratch.c_copy_from(state)
    return (now() - t0) / repeats


def measure_determinize(State state, int observer, long repeats=100_000, seed=0):
    """Seconds per determinization from ``observer``'s seat: a copy into scratch plus the resampling."""
    cdef RNG rng = RNG(seed)
    cdef State scratch = state.c_clone()
    cdef long i
    cdef double t0 = now()
    for i in range(repeats):
        scratch.c_copy_from(state)
        scratch.c_determinize(observer, &rng.state)
    return (now() - t0) / repeats

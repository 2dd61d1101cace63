"""Rollout policies (rollout.pxd), in C over the State contract."""
from libc.stdint cimport int64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memset

from engine.core cimport CHANCE, MAX_ACTIONS, MAX_PLAYERS, TERMINAL, State, sample_chance_outcome
from engine.rng cimport Rng, rng_below, rng_seed, rng_uniform

cdef int mast_reset(Mast* m, int players, int actions) noexcept:
    cdef int64_t size = <int64_t>players * actions
    cdef double* sums
    cdef double* counts
    if size > <int64_t>m.players * m.actions:
        sums = <double*>realloc(m.sums, size * sizeof(double))
        if sums == NULL:
            return -1
        m.sums = sums
        counts = <double*>realloc(m.counts, size * sizeof(double))
        if counts == NULL:
            return -1
        m.counts = counts
    m.players = players
    m.actions = actions
    memset(m.sums, 0, size * sizeof(double))
    memset(m.counts, 0, size * sizeof(double))
    m.n_played = 0
    return 0


cdef void mast_free(Mast* m) noexcept:
    free(m.sums)
    free(m.counts)
    free(m.played)
    m.sums = NULL
    m.counts = NULL
    m.played = NULL
    m.players = 0
    m.actions = 0
    m.n_played = 0
    m.cap = 0


cdef void mast_decay(Mast* m, double keep) noexcept:
    cdef int64_t i, size = <int64_t>m.players * m.actions
    for i in range(size):
        m.sums[i] *= keep
        m.counts[i] *= keep
    m.n_played = 0


cdef void mast_note(Mast* m, int player, int action) noexcept:
    cdef int* grown
    cdef int64_t cap
    if m.n_played == m.cap:
        cap = 2 * m.cap if m.cap > 0 else 1024
        grown = <int*>realloc(m.played, cap * sizeof(int))
        if grown == NULL:
            return
        m.played = grown
        m.cap = cap
    m.played[m.n_played] = player * m.actions + action
    m.n_played += 1


cdef void mast_update(Mast* m, const double* ret) noexcept:
    cdef int64_t i
    cdef int k
    for i in range(m.n_played):
        k = m.played[i]
        m.sums[k] += ret[k // m.actions]
        m.counts[k] += 1.0
    m.n_played = 0


cdef int mast_pick(Mast* m, Rng* rng, int player, const int* buf, int n) noexcept:
    """The legal action (buf[0..n)) with the best average for `player`, ties to the first from a random start;
    a uniform one with probability epsilon."""
    cdef int start = rng_below(rng, n), i, j, a, best_a
    cdef double v, best = -1.0
    if m.epsilon > 0.0 and rng_uniform(rng) < m.epsilon:
        return buf[start]
    best_a = buf[start]
    for i in range(n):
        j = start + i
        if j >= n:
            j -= n
        a = buf[j]
        v = mast_mean(m, player, a)
        if v > best:
            best = v
            best_a = a
    return best_a


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


cdef int64_t cutoff_value(State state, State scratch, Rng* rng, bint settle, double mix, int mix_kind, Mast* mast,
                          int lookahead, double* out) noexcept:
    cdef double end[MAX_PLAYERS]
    cdef int64_t applied = scored_leaf_value(state, rng, settle, out), played
    cdef int q
    if applied < 0 or mix <= 0.0 or state.c_current_player() == TERMINAL:
        return applied
    # moves to the end, a sample of what the leaf is worth under the ending's policy: a rollout without a limit
    # (it never reaches a cut-off, so never comes back here); uniform endings leave the move averages alone
    played = rollout(state, scratch, rng, mix_kind, -1, settle, NULL if mix_kind == ROLLOUT_RANDOM else mast, end,
                     lookahead, 0.0, mix_kind, False, -1)
    if played < 0:
        return -1
    for q in range(state.num_players):
        out[q] = (1.0 - mix) * out[q] + mix * end[q]
    return applied + played


cdef int policy_action(State state, State scratch, Rng* rng, int kind, bint settle, Mast* mast, int lookahead,
                       int player, const int* buf, int n, int64_t* calls) noexcept:
    cdef double est[MAX_PLAYERS]
    cdef int k, a, best_a, tries
    cdef double best
    cdef int64_t settled
    if kind == ROLLOUT_MAST:
        a = mast_pick(mast, rng, player, buf, n) if n > 1 else buf[0]
    else:
        a = buf[rng_below(rng, n)]
    if kind == ROLLOUT_HEURISTIC and n > 1:
        best_a = a
        best = -1.0
        tries = lookahead if lookahead > 0 else n
        if lookahead <= 0:
            a = buf[0]                 # every legal move in turn: a greedy step
        for k in range(tries):
            scratch.c_copy_from(state)
            scratch.c_apply(a)
            calls[0] += 1
            settled = scored_leaf_value(scratch, rng, settle, est)
            if settled < 0:
                return -1
            calls[0] += settled
            if est[player] > best:
                best = est[player]
                best_a = a
            a = buf[rng_below(rng, n)] if lookahead > 0 else buf[(k + 1) % n]
        a = best_a
    if mast != NULL:
        mast_note(mast, player, a)
    return a


cdef int64_t rollout(State state, State scratch, Rng* rng, int kind, int64_t max_actions, bint settle,
                     Mast* mast, double* out, int lookahead, double mix, int mix_kind, bint turns, int last) noexcept:
    cdef int buf[MAX_ACTIONS]
    cdef int player, n, a
    cdef int64_t moves = 0, calls = 0, settled, reached
    while True:
        player = state.c_current_player()
        if player == TERMINAL:
            state.c_returns(out)
            return calls
        reached = turn_reached(player, last, &moves) if turns else moves   # turns: moves counts turns begun
        if max_actions >= 0 and reached >= max_actions:
            settled = cutoff_value(state, scratch, rng, settle, mix, mix_kind, mast, lookahead, out)
            return -1 if settled < 0 else calls + settled
        if player == CHANCE:
            a = sample_chance_outcome(state, rng)
            if a < 0:
                return -1
        else:
            n = state.c_legal_actions(buf)
            if n <= 0:
                return -1
            a = policy_action(state, scratch, rng, kind, settle, mast, lookahead, player, buf, n, &calls)
            if a < 0:
                return -1
            last = player
        state.c_apply(a)
        if not turns:
            moves += 1
        calls += 1


def mast_choice(double[:, ::1] sums, double[:, ::1] counts, legal, int player, double epsilon, unsigned long long seed):
    """The move a MAST rollout plays for `player` among `legal`, given the move tables (players x actions): for
    inspection and tests; the search itself calls the same C function."""
    cdef Mast m
    cdef Rng rng
    cdef int buf[MAX_ACTIONS]
    cdef int n = len(legal), i
    if not 0 < n <= MAX_ACTIONS or sums.shape[0] != counts.shape[0] or sums.shape[1] != counts.shape[1]:
        raise ValueError("mast_choice: 1 to MAX_ACTIONS legal actions and tables of one shape")
    if not 0 <= player < sums.shape[0]:
        raise ValueError(f"mast_choice: no player {player}")
    for i in range(n):
        if not 0 <= legal[i] < sums.shape[1]:
            raise ValueError(f"mast_choice: action {legal[i]} is outside the tables")
        buf[i] = legal[i]
    m.sums = &sums[0, 0]
    m.counts = &counts[0, 0]
    m.players = sums.shape[0]
    m.actions = sums.shape[1]
    m.epsilon = epsilon
    rng_seed(&rng, seed)
    return mast_pick(&m, &rng, player, buf, n)


def greedy_cutoff_state(State state, long long max_actions, bint turns=False, int last=-1, unsigned long long seed=0):
    """The state a greedy rollout (`rollout=heuristic,lookahead=0`: every legal move scored by evaluate(), the first
    best played; chance by its probabilities, from `seed`) from a copy of `state` hands to its cut-off
    `max_actions` actions on, or with `turns` at the start of the `max_actions`-th turn to begin (depth_unit=turns;
    `last`: who decided just before `state`, -1 if no one): for inspection and tests; searches call the same C
    function."""
    if max_actions < 0:
        raise ValueError(f"greedy_cutoff_state: max_actions {max_actions} is not >= 0")
    cdef State s = state.c_clone(), scratch = state.c_clone()
    cdef Rng rng
    cdef double out[MAX_PLAYERS]
    rng_seed(&rng, seed)
    if rollout(s, scratch, &rng, ROLLOUT_HEURISTIC, max_actions, False, NULL, out, 0, 0.0, ROLLOUT_RANDOM, turns,
               last) < 0:
        raise ValueError("greedy_cutoff_state: a state without a legal action or outcome")
    return s

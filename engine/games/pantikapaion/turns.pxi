# The turn machine: steps, windows, end of turn and round, the ring.
# Included by state.pyx (one compiled module: the C functions inline across files).
cdef inline void merge_discard(SData* d, const Tables* T) noexcept nogil:
    """L412: the tiles discarded so far go back into the bag (the shuffle is the later draws)."""
    cdef int t
    for t in range(T.n_terrain):
        d.bag[t] += d.disc[t]
        d.disc[t] = 0
    d.bag_n += d.disc_n
    d.disc_n = 0


cdef int step(SData* d, const Tables* T, int row) noexcept nogil:
    """Move the current player's marker one cell right in row and resolve the cell (L274, L334-L372).
    Returns 1 when the cell opened a decision (d.phase set), else 0."""
    cdef Player* P = &d.pl[d.cur]
    cdef int pos, k, a, c, tok, r
    if P.marker[row] >= T.rowlen[row]:
        return 0                                           # end of the row: never moves again (L368)
    P.marker[row] += 1
    pos = P.marker[row]
    k = T.kind[row][pos]
    a = T.arg[row][pos]
    if k == K_WORKER:
        if P.w_supply > 0:
            P.w_supply -= 1
            P.w_board += 1
    elif k == K_RES1 or k == K_RES2:
        tok = d.tok_at[a if k == K_RES1 else T.n_res1 + a]
        if tok >= 0:
            for c in range(NC):
                P.store[c] += T.tok[tok][c]
    elif k == K_UPG:
        if d.upg_left[a] > 0:
            d.upg_left[a] -= 1
            if T.upg_kind[a] == U_SUB:
                P.n_sub += 1
            elif T.upg_kind[a] == U_RES:
                P.has_res = 1
            else:
                P.has_coin = 1
    elif k == K_MOVE:
        if any_move(P, T):
            d.phase = PH_MOVESEL
            return 1
    elif k == K_FREE:
        if any_free(d, T, P):
            d.phase = PH_FREESEL
            return 1
    elif k == K_AQT:
        if aq_ok(d, T, P, a):
            d.opt = OPT_AQ
            d.opt_arg = a
            d.phase = PH_OPT
            return 1
    elif k == K_RAND:
        if d.bag_n + d.disc_n > 0:
            d.opt = OPT_RAND
            d.opt_arg = 0
            d.phase = PH_OPT
            return 1
    elif k == K_ADV:
        for r in range(NC):
            if r != row and P.marker[r] < T.rowlen[r]:
                d.opt_arg = row
                d.phase = PH_ADVSEL
                return 1
    return 0


cdef void start_turn(SData* d, const Tables* T) noexcept nogil:
    cdef int i
    d.cur = (d.first + d.tturn) % d.players
    d.coin_used = 0
    d.chain = -1
    d.paid = 0
    d.sell_rows = 0
    for i in range(T.ring_size):
        if d.ring[i] >= 0:
            d.phase = PH_PICK
            return
    open_window(d, T, NX_DEV)                               # empty ring: no exploration (G12)


cdef void open_window(SData* d, const Tables* T, int nx) noexcept nogil:
    d.wnext = nx
    d.wlast = -1
    if any_worker_spot(d, T, &d.pl[d.cur]):
        d.phase = PH_WORK
    else:
        window_done(d, T)


cdef void window_done(SData* d, const Tables* T) noexcept nogil:
    if d.wnext == NX_DEV:
        d.phase = PH_DEV
    elif d.wnext == NX_END:
        end_turn(d, T)
    else:
        final_next(d, T)


cdef void cont(SData* d, const Tables* T) noexcept nogil:
    """Go on with the current action after a step or a sub-decision: the rows of a sale (top to bottom, L297),
    then the paid steps of a build (L274), then the end-of-turn worker window."""
    cdef int r
    while d.sell_rows:
        r = 0
        while not (d.sell_rows >> r) & 1:
            r += 1
        d.sell_rows &= ~(1 << r)
        if step(d, T, r):
            return
    if d.chain >= 0:
        if paid_ok(d, T, &d.pl[d.cur]):
            d.phase = PH_PAID
            return
        d.chain = -1
    open_window(d, T, NX_END)


cdef void end_turn(SData* d, const Tables* T) noexcept nogil:
    d.tturn += 1
    if d.tturn >= T.turns * d.players:
        end_round(d, T)
    else:
        start_turn(d, T)


cdef void end_round(SData* d, const Tables* T) noexcept nogil:
    cdef int i, p, c, house = T.t_of[B_HOUSE]
    cdef Player* P
    for i in range(T.ring_size):                            # leftovers to the discard pile (L396)
        if d.ring[i] >= 0:
            d.disc[d.ring[i]] += 1
            d.disc_n += 1
            d.ring[i] = -1
    for p in range(d.players):
        P = &d.pl[p]
        P.coins += T.plus_w[P.marker[house]]                # 1 coin per '+worker' cell reached (L398, L422)
        if d.round < T.rounds:                              # workers come home, except after round 5 (L398, L422)
            for c in range(G):
                P.wrow[c] = 0
            P.w_board += P.w_city
            P.w_city = 0
    d.seq = -1
    if d.round < T.rounds:
        next_discard(d, T)
    else:
        final_next(d, T)                                    # final worker placement (L422)


cdef void final_next(SData* d, const Tables* T) noexcept nogil:
    while True:
        d.seq += 1
        if d.seq >= d.players:
            d.seq = -1
            next_discard(d, T)
            return
        d.cur = (d.first + d.seq) % d.players
        d.wnext = NX_FINAL
        d.wlast = -1
        if any_worker_spot(d, T, &d.pl[d.cur]):
            d.phase = PH_WORK
            return


cdef void next_discard(SData* d, const Tables* T) noexcept nogil:
    cdef int p
    while True:
        d.seq += 1
        if d.seq >= d.players:
            break
        p = (d.first + d.seq) % d.players
        if store_total(&d.pl[p]) > T.limit:                  # storage limit at round end (L400)
            d.cur = p
            d.dlast = 0
            d.phase = PH_DISCARD
            return
    if d.round >= T.rounds:
        d.phase = PH_OVER
    else:
        next_round(d, T)


cdef void next_round(SData* d, const Tables* T) noexcept nogil:
    d.round += 1
    d.first = (d.first + 1) % d.players                     # first-player token passes clockwise (L408)
    d.tturn = 0
    start_ring(d, T)


cdef void start_ring(SData* d, const Tables* T) noexcept nogil:
    cdef int i
    for i in range(MAXRING):
        d.ring[i] = -1
    d.ring_fill = 0
    d.tri = -1
    if d.bag_n == 0:
        merge_discard(d, T)
    if d.bag_n == 0:
        start_turn(d, T)
    else:
        d.phase = PH_RING


cdef void take_piece(SData* d, int t, int mode) noexcept nogil:
    d.stock[t] -= 1                                         # the bottom piece; the next cost shows (L249)
    d.btype = t
    d.bmode = mode
    d.phase = PH_BPLACE


cdef void after_tile(SData* d, const Tables* T) noexcept nogil:
    if d.psrc == SRC_RING:
        open_window(d, T, NX_DEV)
    else:
        cont(d, T)


cdef int ring_available(const SData* d, const Tables* T, int* out) noexcept nogil:
    """Ring slots of the (up to) 3 tiles clockwise after the trireme, skipping gaps (L189), ascending."""
    cdef int n = 0, j, i, tmp, k
    for j in range(T.ring_size):
        i = (d.tri + 1 + j) % T.ring_size
        if d.ring[i] >= 0:
            out[n] = i
            n += 1
            if n == T.choices:
                break
    for j in range(1, n):                                   # insertion sort (n <= 3)
        k = j
        while k > 0 and out[k - 1] > out[k]:
            tmp = out[k]
            out[k] = out[k - 1]
            out[k - 1] = tmp
            k -= 1
    return n


cdef inline bint token_used(const SData* d, int k) noexcept nogil:
    cdef int i
    for i in range(d.tok_dealt):
        if d.tok_at[i] == k:
            return 1
    return 0


# Applying one action.
# Included by state.pyx (one compiled module: the C functions inline across files).
cdef void apply_action(SData* d, const Tables* T, int a) noexcept nogil:
    cdef Player* P
    cdef int t, c, k, n, m, c0, c1, slot
    cdef int ph = d.phase
    # ---- chance ----
    if ph == PH_FIRST:
        d.first = a - A_FIRST
        d.cur = d.first
        d.tok_dealt = 0
        if T.n_res1 + T.n_res2 > 0:
            d.phase = PH_TOKEN
        else:
            start_ring(d, T)
        return
    if ph == PH_TOKEN:
        d.tok_at[d.tok_dealt] = a - A_TOKEN
        d.tok_dealt += 1
        if d.tok_dealt == T.n_res1 + T.n_res2:
            start_ring(d, T)
        return
    if ph == PH_RING:
        t = a - A_DRAW
        d.bag[t] -= 1
        d.bag_n -= 1
        d.ring[d.ring_fill] = t
        d.ring_fill += 1
        if d.ring_fill < T.ring_size and d.bag_n == 0:
            merge_discard(d, T)                             # bag short: reshuffle the discards (L412)
        if d.ring_fill == T.ring_size or d.bag_n == 0:
            start_turn(d, T)
        return
    P = &d.pl[d.cur]
    if ph == PH_RAND:
        t = a - A_DRAW
        d.bag[t] -= 1
        d.bag_n -= 1
        if tile_placeable(P, T, t):
            d.ptile = t
            d.psrc = SRC_EFFECT
            d.phase = PH_ROT
        else:
            d.disc[t] += 1                                  # cannot be placed anywhere: discarded (ASSUMED)
            d.disc_n += 1
            cont(d, T)
        return
    # ---- decisions ----
    if ph == PH_PICK:
        slot = a - A_PICK
        t = d.ring[slot]
        d.ring[slot] = -1
        d.tri = slot                                        # the trireme takes the tile's place (L189)
        if P.ntiles == 0:                                   # first tile starts the city (L193)
            place_tile(d, T, d.cur, t, 0, (G // 2 - 2) * G + G // 2 - 2)
            open_window(d, T, NX_DEV)
        elif tile_placeable(P, T, t):
            d.ptile = t
            d.psrc = SRC_RING
            d.phase = PH_ROT
        else:
            d.disc[t] += 1
            d.disc_n += 1
            open_window(d, T, NX_DEV)
    elif ph == PH_ROT:
        d.prot = a - A_ROT
        d.phase = PH_ANCHOR
    elif ph == PH_ANCHOR:
        c = place_tile(d, T, d.cur, d.ptile, d.prot, a - A_ANCHOR)
        if c >= 0:
            d.pcell = c
            d.phase = PH_AQCOL
        else:
            after_tile(d, T)
    elif ph == PH_AQCOL:
        c = a - A_AQCOL
        P.cell[d.pcell] = (P.cell[d.pcell] & 0xF0) | (T_RES + c)    # the chosen cube on the '*' cell (L358)
        SETBIT(P.crow, d.pcell)
        P.h_col[P.ntiles - 1] = c
        after_tile(d, T)
    elif ph == PH_WORK:
        if a == A_WDONE:
            window_done(d, T)
            return
        c = a - A_WORK
        collect(P, c)                                       # the cube under the worker is collected (L301)
        SETBIT(P.wrow, c)
        P.w_board -= 1
        P.w_city += 1
        d.wlast = c
        if not any_worker_spot(d, T, P):
            window_done(d, T)
    elif ph == PH_DEV:
        if a < A_SELL:                                      # build (L237-L274)
            t = a - A_BUILD
            n = build_due(d, T, P, t)
            m = P.store[t]
            if m >= n:
                P.store[t] -= n                             # enough of the colour: no substitution (L380)
                take_piece(d, t, BM_BUILD)
            else:
                P.store[t] = 0
                d.btype = t
                d.sub_left = n - m
                d.sub_min = 0
                d.phase = PH_PAYSUB
        elif a < A_TCOIN:                                   # sell 3-5 different colours (L277-L283)
            m = a - A_SELL
            for c in range(NC):
                if (m >> c) & 1:
                    P.store[c] -= 1
                    P.coins += 1
            d.sell_rows = m
            cont(d, T)
        elif a == A_TCOIN:
            P.coins += T.take_coins
            cont(d, T)
        else:
            P.store[a - A_TCUBE] += 1
            cont(d, T)
    elif ph == PH_PAYSUB:
        c = a - A_PAYSUB
        P.store[c] -= 1
        d.sub_left -= 1
        d.sub_min = c
        if d.sub_left == 0:
            take_piece(d, d.btype, BM_BUILD)
    elif ph == PH_BPLACE:
        t = d.btype
        bplace_cells(T, t, a, &c0, &c1)
        if d.bmode == BM_MOVE:
            lift_building(P, d.bslot)
            put_building(P, d.bslot, c0, c1)
            cont(d, T)
            return
        slot = P.nb
        P.nb += 1
        P.btype[slot] = t
        put_building(P, slot, c0, c1)
        if d.bmode == BM_BUILD:
            d.chain = t
            d.paid = 0
            if step(d, T, t):
                return
        cont(d, T)
    elif ph == PH_MOVESEL:
        if a == A_SKIP:
            cont(d, T)
            return
        d.bslot = a - A_MOVESEL
        d.btype = P.btype[d.bslot]
        d.bmode = BM_MOVE
        d.phase = PH_BPLACE
    elif ph == PH_FREESEL:
        if a == A_SKIP:
            cont(d, T)
            return
        take_piece(d, a - A_FREESEL, BM_FREE)
    elif ph == PH_OPT:
        if a == A_SKIP:
            cont(d, T)
            return
        if d.opt == OPT_AQ:
            d.aq_left[d.opt_arg] -= 1
            d.ptile = T.aq_first + d.opt_arg
            d.psrc = SRC_EFFECT
            d.phase = PH_ROT
        else:
            if d.bag_n == 0:
                merge_discard(d, T)                         # empty bag: reshuffle the discards first (G12)
            d.phase = PH_RAND
    elif ph == PH_ADVSEL:
        if a == A_SKIP:
            cont(d, T)
            return
        if step(d, T, a - A_ADVROW):
            return
        cont(d, T)
    elif ph == PH_PAID:
        if a == A_SKIP:
            d.chain = -1
            cont(d, T)
            return
        k = paid_cost(d, T, P)
        if P.has_coin and not d.coin_used:
            d.coin_used = 1                                 # the coin discount, once a turn (L388)
        P.coins -= k
        d.paid += 1
        if step(d, T, d.chain):
            return
        cont(d, T)
    elif ph == PH_DISCARD:
        c = a - A_DISC
        P.store[c] -= 1
        d.dlast = c
        if store_total(P) <= T.limit:
            next_discard(d, T)


# Legal actions of every phase.
# Included by state.pyx (one compiled module: the C functions inline across files).
cdef int legal(const SData* d, const Tables* T, int* out) noexcept nogil:
    cdef const Player* P = &d.pl[d.cur]
    cdef int n = 0, i, k, t, c, y, x, mask, cnt, rest
    cdef int slots[MAXRING]
    cdef uint32_t nb[G]
    cdef int ph = d.phase
    if ph == PH_PICK:
        k = ring_available(d, T, slots)
        for i in range(k):
            if tile_placeable(P, T, d.ring[slots[i]]):
                out[n] = A_PICK + slots[i]
                n += 1
        if n == 0:                                          # no tile fits: take one anyway, it is discarded
            for i in range(k):
                out[i] = A_PICK + slots[i]
            n = k
    elif ph == PH_ROT:
        nbr_rows(P, nb)
        for i in range(T.nrot[d.ptile]):
            if anchors(P, &T.rot[d.ptile][i], nb, NULL, 1):
                out[n] = A_ROT + i
                n += 1
    elif ph == PH_ANCHOR:
        nbr_rows(P, nb)
        n = anchors(P, &T.rot[d.ptile][d.prot], nb, out, 0)
        for i in range(n):
            out[i] += A_ANCHOR
    elif ph == PH_AQCOL:
        for c in range(NC):
            out[c] = A_AQCOL + c
        n = NC
    elif ph == PH_WORK:
        for y in range(P.miny, P.maxy + 1):
            for x in range(P.minx, P.maxx + 1):
                c = y * G + x
                if c > d.wlast and worker_ok(d, T, P, c):
                    out[n] = A_WORK + c
                    n += 1
        out[n] = A_WDONE
        n += 1
    elif ph == PH_DEV:
        for t in range(NC):
            if d.stock[t] > 0 and can_pay(d, T, P, t) and bplaces(P, T, t, -1, NULL, 1):
                out[n] = A_BUILD + t
                n += 1
        for mask in range(32):
            cnt = 0
            for c in range(NC):
                if (mask >> c) & 1:
                    if P.store[c] == 0:
                        cnt = -99
                    cnt += 1
            if T.sell_min <= cnt <= T.sell_max:
                out[n] = A_SELL + mask
                n += 1
        out[n] = A_TCOIN
        n += 1
        for c in range(NC):
            out[n] = A_TCUBE + c
            n += 1
    elif ph == PH_PAYSUB:
        for c in range(d.sub_min, NC):
            if c == d.btype or P.store[c] == 0:
                continue
            rest = P.store[c] - 1                           # can the remaining substitutions still be paid?
            for k in range(c + 1, NC):
                if k != d.btype:
                    rest += P.store[k]
            if rest >= d.sub_left - 1:
                out[n] = A_PAYSUB + c
                n += 1
    elif ph == PH_BPLACE:
        n = bplaces(P, T, d.btype, d.bslot if d.bmode == BM_MOVE else -1, out, 0)
    elif ph == PH_MOVESEL:
        for k in range(P.nb):
            if bplaces(P, T, P.btype[k], k, NULL, 1):
                out[n] = A_MOVESEL + k
                n += 1
        out[n] = A_SKIP
        n += 1
    elif ph == PH_FREESEL:
        for t in range(NC):
            if free_ok(d, T, P, t):
                out[n] = A_FREESEL + t
                n += 1
        out[n] = A_SKIP
        n += 1
    elif ph == PH_OPT:
        out[0] = A_USE
        out[1] = A_SKIP
        n = 2
    elif ph == PH_ADVSEL:
        for t in range(NC):
            if t != d.opt_arg and P.marker[t] < T.rowlen[t]:
                out[n] = A_ADVROW + t
                n += 1
        out[n] = A_SKIP
        n += 1
    elif ph == PH_PAID:
        if paid_ok(d, T, P):
            out[n] = A_PAID
            n += 1
        out[n] = A_SKIP
        n += 1
    elif ph == PH_DISCARD:
        # colours in non-decreasing order (a multiset, not a sequence); a choice must leave enough cubes of this
        # colour and the later ones to finish the discard
        k = store_total(P) - T.limit
        rest = 0
        for c in range(d.dlast, NC):
            rest += P.store[c]
        for c in range(d.dlast, NC):
            if P.store[c] > 0 and rest >= k:
                out[n] = A_DISC + c
                n += 1
            rest -= P.store[c]
    return n


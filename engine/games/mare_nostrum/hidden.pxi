# Hidden information: what a player cannot see (blind) and its resampling (determinize).
# Included by state.pyx (one compiled module: the C functions inline across files).
# ------------------------------------------------------------------------------------------------------------------
# hidden information

cdef void blind(MNData* v, int player) noexcept nogil:
    """Blank what `player` cannot see: others' unrevealed rare goods (keep their count), others' unrevealed
    offers, the rare stack's contents."""
    cdef int q, t, hidden
    for q in range(v.players):
        if q == player:
            continue
        hidden = popc(v.rare[q] & ~v.rknown[q])
        v.rare[q] = v.rknown[q]
        v.view_hidden[q] = hidden       # the count of unrevealed rare goods is public
        if v.step == S_OFFER:           # offers are secret until all are made
            for t in range(NI):
                v.offer[q][t] = 0
    v.stack = 0


cdef void determinize(MNData* d, int observer, Rng* rng) noexcept nogil:
    cdef int q, pool, n, i, g, k, t, total, r
    cdef int cnts[NI]
    cdef int drawn[NI]
    pool = d.stack
    for q in range(d.players):
        if q != observer:
            pool |= d.rare[q] & ~d.rknown[q]
    for q in range(d.players):
        if q == observer:
            continue
        n = popc(d.rare[q] & ~d.rknown[q])
        d.rare[q] &= d.rknown[q]
        for i in range(n):
            k = <int>rng_below(rng, popc(pool))
            g = 0
            while True:
                if (pool >> g) & 1:
                    if k == 0:
                        break
                    k -= 1
                g += 1
            pool &= ~(1 << g)
            d.rare[q] |= 1 << g
    d.stack = pool
    # secret offers made but not yet revealed: draw a whole offer from the (redrawn) hand and keep its lowest
    # items as the part already committed, so that the offer can still be finished in ascending order
    for q in range(d.players):
        if q == observer or d.odone[q] == 0 or d.step != S_OFFER:
            continue
        total = 0
        for t in range(NI):
            cnts[t] = cnt_item(d, q, t)
            total += cnts[t]
            d.offer[q][t] = 0
            drawn[t] = 0
        for i in range(d.nofs[q]):
            r = <int>rng_below(rng, total)
            t = 0
            while r >= cnts[t]:
                r -= cnts[t]
                t += 1
            cnts[t] -= 1
            total -= 1
            drawn[t] += 1
        k = d.odone[q]
        for t in range(NI):
            while drawn[t] > 0 and k > 0:
                d.offer[q][t] += 1
                drawn[t] -= 1
                k -= 1


cdef int rewind_offers(MNData* d, int observer) noexcept nogil:
    """At observer's offer (L259, L265: offers are made secretly, revealed together): take back the others'
    committed offers, which observer has not seen (their items never left the hands), so that the first of them
    offers again. Observer's own part of its offer (known to it, hidden from them) stays. Returns the offer
    decisions taken back (one an item)."""
    cdef int q, t, k = 0
    if d.step != S_OFFER or d.cur != observer:
        return 0
    for q in range(d.players):
        if q == observer or d.odone[q] == 0:
            continue
        k += d.odone[q]
        d.odone[q] = 0
        for t in range(NI):
            d.offer[q][t] = 0
    if k > 0:
        next_offer(d)                 # the first player (seat order) with an offer still to make
    return k

# Hellas: hidden information (spec 7.2, 7.3). What one player sees (blind) and resampling what he cannot see
# (determinize).
#
# Not yet built: resampling the identities and steps of unrevealed enemy blocks. blind() hides them (the observer
# sees where a block stands and whether it is inside a city, not what it is), but determinize() keeps their true
# identities, so a search would see them: Hellas stays unregistered until the block tracker of spec 7.3 item 2
# lands (docs/rules/hellas.md).

cdef void blind(HData* v, int p) noexcept nogil:
    """v becomes what player p sees: the other hand only as part of the unseen cards (its size is public), the
    other's face-down card as committed but unknown, and unrevealed enemy blocks only as counts per area."""
    cdef HS* s = tab(v)
    cdef int o = 1 - p, u
    v.deck |= v.hand[o]
    v.hand[o] = 0
    if v.commit[o] >= 0:
        v.commit[o] = -2
    if s.r_open:
        return
    for u in range(s.nu):
        if s.u_side[u] != o or v.revealed[u]:
            continue
        if v.loc[u] >= 0:
            v.vcount[v.loc[u] * 2 + v.incity[u]] += 1
        v.loc[u] = 0
        v.steps[u] = 0
        v.incity[u] = 0
        v.moved[u] = 0
        v.raised[u] = 0
        v.strait_in[u] = 0


cdef void determinize(HData* d, int observer, Rng* rng) noexcept nogil:
    """Resample the other hand from the unseen cards (its size kept) and, before the reveal, the other's
    face-down card among its legal plays from that hand (spec 7.3 items 1 and 3)."""
    cdef int o = 1 - observer, n, k, c, i, j
    cdef uint64_t unknown = d.deck | d.hand[o], pick = 0, rest
    n = popc(d.hand[o])
    rest = unknown
    for i in range(n):
        k = <int>rng_below(rng, popc(rest))
        c = 0
        for j in range(64):
            if (rest >> j) & 1:
                if c == k:
                    pick |= bit(j)
                    rest &= ~bit(j)
                    break
                c += 1
    d.hand[o] = pick
    d.deck = rest
    if d.step == S_CARD and d.commit[o] >= 0:
        k = card_choices(d, o, NULL_BUF)
        d.commit[o] = NULL_BUF[<int>rng_below(rng, k)] - A_CARD

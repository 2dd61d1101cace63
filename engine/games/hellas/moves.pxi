# Hellas: land movement (spec 5.1) and Winter refuge moves (spec 5.8).
#
# Not yet built (docs/rules/hellas.md): sea movement and transport (5.2), storms and forced march (5.3).

cdef inline int enemy_units(HData* d, int a, int side) noexcept nogil:
    return units_in(d, a, 1 - side, 2)


cdef inline int can_move(HData* d, int u) noexcept nogil:
    """Unit u may take part in a land group move now (it has not moved this turn and is not shut in a city)."""
    cdef HS* s = tab(d)
    if d.loc[u] < 0 or d.loc[u] >= s.nl or d.incity[u] or s.u_type[u] == T_FLEET:
        return 0
    if s.r_move_once and d.moved[u]:
        return 0
    return 1


cdef uint64_t land_reach(HData* d, int u, int refuge) noexcept nogil:
    """Areas unit u can end a land move in (spec 5.1): through adjacent land areas up to its speed, never into a
    neutral area, stopping on entering an area with enemy units (a garrison alone does not stop it, SRC L240).
    It leaves an area holding enemy units only as a besieger (the enemies are shut in the city). Refuge moves
    (spec 5.8) end only in friendly-controlled, non-besieged city areas and never enter an area with enemies."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], a0 = d.loc[u], depth, a, b
    cdef uint64_t frontier, nxt, seen, out = 0
    if not can_move(d, u) or (refuge and d.moved[u]):
        return 0
    if units_in(d, a0, 1 - side, 0):
        return 0                                    # pinned: a battle is due here
    frontier = bit(a0)
    seen = frontier
    for depth in range(s.u_lspd[u]):
        nxt = 0
        for a in range(s.nl):
            if not (frontier >> a) & 1:
                continue
            for b in range(s.nl):
                if not (s.adj[a] >> b) & 1 or (seen >> b) & 1 or s.neutral[b]:
                    continue
                if enemy_units(d, b, side):
                    if refuge or d.omen_vs == side:
                        continue                    # refuge avoids enemies; Omen forbids engaging (L302)
                    seen |= bit(b)
                    out |= bit(b)                   # must stop here
                    continue
                seen |= bit(b)
                out |= bit(b)
                nxt |= bit(b)
        frontier = nxt
    out &= ~bit(a0)
    if refuge:
        for a in range(s.nl):
            if (out >> a) & 1 and not friendly_city(d, a, side):
                out &= ~bit(a)
    return out


cdef int group_units(HData* d, int a, int after, int refuge, int* out) noexcept nogil:
    """Units of the active side that began the action in area a, with a move left, index above `after`."""
    cdef HS* s = tab(d)
    cdef int u, n = 0
    for u in range(after + 1, s.nu):
        if d.loc[u] == a and s.u_side[u] == d.active and land_reach(d, u, refuge):
            if out != NULL:
                out[n] = u
            n += 1
    return n


cdef void move_unit(HData* d, int u, int dest) noexcept nogil:
    d.came[u] = d.loc[u]
    d.loc[u] = dest
    d.moved[u] = 1
    d.revealed[u] = 0               # a block that moves is unknown again (spec 7.2 H4)

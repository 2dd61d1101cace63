# Hellas: who is where, control and sieges (spec 6.9), prestige, capture and reversion (spec 6.13), Winter supply
# needs (spec 5.7).

cdef inline int units_in(HData* d, int a, int side, int inside) noexcept nogil:
    """Blocks of side in area a (on the map): inside = 0 field only, 1 inside the city only, 2 both."""
    if inside == 0:
        return d.nfield[side][a]
    if inside == 1:
        return d.ninside[side][a]
    return d.nfield[side][a] + d.ninside[side][a]


cdef inline int fleets_in(HData* d, int a, int side) noexcept nogil:
    return d.nfleet[side][a]


cdef inline int is_city(HS* s, int a) noexcept nogil:
    return a >= 0 and (s.city_bits >> a) & 1


cdef inline int city_owner(HData* d, int a) noexcept nogil:
    """Who holds the city now (without re-computing): a captor, else the side it is loyal to; -1 for none."""
    cdef HS* s = tab(d)
    if not is_city(s, a):
        return -1
    if d.occ[a] >= 0:
        return d.occ[a]
    if s.loyal[a] == ATH or s.loyal[a] == SPA:
        return s.loyal[a]
    return -1


cdef inline int has_garrison(HData* d, int a, int side) noexcept nogil:
    """Side has a garrison block in the city of a: its inherent one (its own loyal city, not captured) or a
    recruited or revolt garrison."""
    cdef HS* s = tab(d)
    if not is_city(s, a):
        return 0
    if d.garrison[a] == side:
        return 1
    return s.loyal[a] == side and d.occ[a] < 0


cdef inline int besieged_blocks(HData* d, int a) noexcept nogil:
    cdef int side = d.cctrl[a]
    if side < 0 or not d.besieged[a]:
        return 0
    return units_in(d, a, side, 1) + has_garrison(d, a, side)


cdef void gain(HData* d, int side, int n) noexcept nogil:
    """Side gains n prestige on the net track (a negative n is a loss)."""
    cdef HS* s = tab(d)
    if side == SPA:
        d.prestige += n
    else:
        d.prestige -= n
    if s.r_auto_immediate and d.winner < 0 and (d.prestige >= s.r_auto_lead or -d.prestige >= s.r_auto_lead):
        d.winner = SPA if d.prestige > 0 else ATH
        d.level = 4
        d.step = S_OVER
        d.cur = TERMINAL


cdef void recompute(HData* d) noexcept nogil:
    """Control and sieges (spec 6.9.1, 6.9.2; L123-L154), re-computed at the end of every Action and Battle phase:
    a captured city left without its captor's units or garrison reverts; a city held by D is besieged when the other
    side has field units in its area and D has none; the besieger then controls the province."""
    cdef HS* s = tab(d)
    cdef int a, f0, f1, i0, i1, cc, b
    cdef uint64_t m, field0 = d.o.field[ATH], field1 = d.o.field[SPA]
    # without a city: a side alone in the field controls the area; an empty one (or a sea both are in) nobody;
    # open land both are in keeps its control
    m = s.open_bits & field0 & ~field1
    while m:
        d.ctrl[__builtin_ctzll(m)] = ATH
        m &= m - 1
    m = s.open_bits & field1 & ~field0
    while m:
        d.ctrl[__builtin_ctzll(m)] = SPA
        m &= m - 1
    m = s.open_bits & ~(field0 | field1) | s.sea_bits & field0 & field1
    while m:
        d.ctrl[__builtin_ctzll(m)] = -1
        m &= m - 1
    m = s.city_bits
    while m:
        a = __builtin_ctzll(m)
        m &= m - 1
        f0 = (field0 >> a) & 1
        f1 = (field1 >> a) & 1
        i0 = (d.o.inside[ATH] >> a) & 1
        i1 = (d.o.inside[SPA] >> a) & 1
        if d.occ[a] >= 0 and not (i0 + f0 if d.occ[a] == ATH else i1 + f1) and d.garrison[a] != d.occ[a]:
            d.occ[a] = -1                               # L128: a captured city left empty reverts
        cc = city_owner(d, a)
        d.cctrl[a] = cc
        b = 1 - cc if cc >= 0 else -1
        if cc >= 0 and (f1 if b == SPA else f0) and not (f0 if cc == ATH else f1):
            if not d.besieged[a]:
                d.fresh[a] = 1
            d.besieged[a] = 1
            d.ctrl[a] = b
            continue
        d.besieged[a] = 0
        d.fresh[a] = 0
        if f0 and not f1:
            d.ctrl[a] = ATH
        elif f1 and not f0:
            d.ctrl[a] = SPA
        elif not f0 and not f1:
            d.ctrl[a] = cc


cdef inline int friendly_city(HData* d, int a, int side) noexcept nogil:
    """A friendly-controlled, non-besieged city stands in area a."""
    return is_city(tab(d), a) and d.cctrl[a] == side and not d.besieged[a]


cdef inline int blockaded(HData* d, int a) noexcept nogil:
    """A besieged port is blockaded when the besieger has a fleet in its offshore sea and the defender has none
    (spec 6.9.3)."""
    cdef HS* s = tab(d)
    cdef int off = s.offshore[a], cc = d.cctrl[a]
    if s.site[a] != SITE_PORT or off < 0:
        return 1
    return (d.o.fleets[1 - cc] >> off) & 1 and not (d.o.fleets[cc] >> off) & 1


cdef void eliminate(HData* d, int u) noexcept nogil:
    """A block is eliminated: back to its owner's pool (ELIMINATED_TO_POOL), its identity shown (spec 7.2)."""
    d.steps[u] = 0
    d.moved[u] = 0
    seen(d, u)
    place(d, u, POOL, 0)


cdef void lose_step(HData* d, int u) noexcept nogil:
    """Block u loses a step, the enemy seeing which token (a battle hit, a storm on the fleet that moved)."""
    d.steps[u] -= 1
    if not d.revealed[u]:
        d.slo[u] = bounded(d.slo[u] - 1)
        d.shi[u] = bounded(d.shi[u] - 1)
    if d.steps[u] <= 0:
        eliminate(d, u)


cdef void secret_loss(HData* d, int u) noexcept nogil:
    """Block u loses a step to siege attrition or Winter supply, the enemy learning only that one of the tokens of
    its side where it stands lost one (spec 7.2 H4; an elimination is shown): none of them stays revealed."""
    hidden_step_change(d, tab(d).u_side[u], d.loc[u], d.incity[u], -1, 0)
    d.steps[u] -= 1
    if d.steps[u] <= 0:                     # the block is shown, not which of the tokens there it was
        merge_place(d, tab(d).u_side[u], d.loc[u], d.incity[u])
        eliminate(d, u)


cdef void capture(HData* d, int a, int taker) noexcept nogil:
    """The last besieged block of the city of a is gone (spec 6.13): the besieger takes the city, with prestige
    for an enemy-loyal city (CAPTURE_PRESTIGE) or for taking back his own (RECAPTURE_PRESTIGE)."""
    cdef HS* s = tab(d)
    if s.loyal[a] == taker:
        d.occ[a] = -1
        if s.r_recapture:
            gain(d, taker, s.value[a])
    else:
        d.occ[a] = taker
        gain(d, taker, s.value[a])
    d.garrison[a] = -1
    d.besieged[a] = 0
    d.fresh[a] = 0
    d.cctrl[a] = taker
    d.ctrl[a] = taker


cdef uint64_t supply_areas(HData* d, int side, i8* need) noexcept nogil:
    """Spec 5.7: the blocks of side that need Winter supply (need[u] = 1, others 0, when need is not NULL), and
    their areas as bits. A block on the map outside a friendly-controlled, non-besieged city (up to its capacity,
    fleets only in a port) needs it; blocks besieged inside their city and barbarians do not. Over capacity, the
    first blocks by roster order count as inside."""
    cdef HS* s = tab(d)
    cdef int u, a, n
    cdef uint64_t areas = 0
    cdef unsigned char sheltered[MAXA]                  # blocks counted inside each city so far
    memset(sheltered, 0, sizeof(sheltered))
    for u in range(s.nu):
        a = d.loc[u]
        n = 0
        if s.u_side[u] == side and a >= 0 and not s.u_barb[u] and not d.incity[u]:
            if a >= s.nl or not friendly_city(d, a, side) or (s.u_type[u] == T_FLEET and s.site[a] != SITE_PORT):
                n = 1
            else:
                n = sheltered[a] >= s.capacity[a]
                sheltered[a] += 1
            if n:
                areas |= bit(a)
        if need != NULL:
            need[u] = n
    return areas

# Hellas: the legal actions at each decision (ascending action ids).

cdef int recruit_places(HData* d, int u, int* out) noexcept nogil:
    """Where a new Greek unit may appear (spec 5.5 a): a friendly-controlled, non-besieged city of its nationality
    (a port for a fleet; L113, L169)."""
    cdef HS* s = tab(d)
    cdef int a, n = 0
    cdef uint64_t m = s.u_places[u]
    while m:
        a = __builtin_ctzll(m)
        m &= m - 1
        if friendly_city(d, a, s.u_side[u]):
            if out != NULL:
                out[n] = A_PLACE + a
            n += 1
    return n


cdef int can_recruit(HData* d, int u) noexcept nogil:
    """A unit of the active player's pool may be raised now (spec 5.5 a and c)."""
    cdef HS* s = tab(d)
    cdef int side = d.active, home
    if d.loc[u] != POOL or s.u_side[u] != side:
        return 0
    if s.u_special[u] == SP_PERSIAN and not in_play(d, EV_PERSIAN_AID):
        return 0                                    # L314
    if s.u_special[u] == SP_ODRYSIAN and d.leader[ATH] >= 0:
        return 0                                    # L235, L237
    if s.u_special[u] == SP_E2 and in_play(d, EV_NO_QUARTER):
        return 0                                    # L320
    if s.u_barb[u]:
        home = s.u_home[u]
        if s.r_barb_once and d.raised[u]:
            return 0
        return enemy_units(d, home, side) == 0
    return recruit_places(d, u, NULL) > 0


cdef int can_add_step(HData* d, int u) noexcept nogil:
    """A replacement step (spec 5.5 b): only in the area of a friendly, non-besieged city of its own nationality."""
    cdef HS* s = tab(d)
    cdef int a = d.loc[u]
    if a < 0 or a >= s.nl or s.u_side[u] != d.active or s.u_barb[u] or d.steps[u] >= s.u_max[u]:
        return 0
    if s.u_special[u] == SP_E2 and in_play(d, EV_NO_QUARTER):
        return 0
    return friendly_city(d, a, d.active) and s.nat[a] == s.u_nat[u]


cdef inline uint64_t pillage_areas(HData* d) noexcept nogil:
    """Spec 5.6: own land units in the field of an enemy-loyal city-state, no enemy field units there, not
    pillaged yet this year; not under Earthquake (L300)."""
    cdef HS* s = tab(d)
    cdef int side = d.active, a
    cdef uint64_t m, out = 0
    if d.quake_vs == side:
        return 0
    m = s.loyal_cities[1 - side] & d.o.landf[side] & ~d.o.field[1 - side]
    while m:
        a = __builtin_ctzll(m)
        m &= m - 1
        if not (s.r_pillage_once and d.pillaged[a]):
            out |= bit(a)
    return out


cdef inline uint64_t garrison_areas(HData* d) noexcept nogil:
    """Spec 5.5 d: a garrison in an enemy-loyal city the player occupies (L242)."""
    cdef int side = d.active, a
    cdef uint64_t m, out = 0
    m = tab(d).city_bits & (d.o.field[side] | d.o.inside[side]) & ~(d.o.field[1 - side] | d.o.inside[1 - side])
    while m:
        a = __builtin_ctzll(m)
        m &= m - 1
        if d.occ[a] == side and d.garrison[a] < 0:
            out |= bit(a)
    return out


cdef void phase_actions(HData* d, PhaseActs* p) noexcept nogil:
    """S_ACTION: a group move, recruiting, pillage, a garrison, Winter supply (spec 4.4, 4.5, 5.0), as bits; passing
    is always open besides. Worked out once when the decision opens: to_action keeps them in d.acts."""
    cdef HS* s = tab(d)
    cdef int i, a, u, side = d.active, winter = d.season == s.nseasons
    cdef int recruit = d.actions >= s.r_recruit_cost and (not winter or s.r_winter_recruit)
    memset(p, 0, sizeof(PhaseActs))
    if (winter and d.refuge) or (not winter and d.actions >= 1 and d.quake_vs != side):
        for i in range(s.roster_n[side]):           # an area is a group move's source when one unit can move
            u = s.roster[side][i]
            a = d.loc[u]
            if a >= 0 and not (p.groups >> a) & 1 and can_go(d, u, winter):
                p.groups |= bit(a)
    if recruit:
        for i in range(s.roster_n[side]):
            u = s.roster[side][i]
            if can_recruit(d, u):                   # in the pool
                p.rnew[u >> 6] |= bit(u & 63)
            elif can_add_step(d, u):                # on the map
                p.rstep[u >> 6] |= bit(u & 63)
    if not winter and d.actions >= 1:
        p.pillage = pillage_areas(d)
    if winter and s.r_winter_supply and d.actions >= s.r_supply_cost:
        p.supply = supply_areas(d, side, NULL) & ~d.supplied   # the areas where a block still needs supply
    if recruit:
        p.garrison = garrison_areas(d)


cdef inline int phase_open(PhaseActs* p) noexcept nogil:
    """Something besides passing."""
    return (p.groups | p.rnew[0] | p.rnew[1] | p.rstep[0] | p.rstep[1] | p.pillage | p.supply | p.garrison) != 0


cdef int phase_list(PhaseActs* p, int* out) noexcept nogil:
    """The action ids (ascending): pass, then the kept bits."""
    cdef int n = 1
    out[0] = A_PASS
    n = bits_out(p.groups, A_MOVE, out, n)
    n = bits_out(p.rnew[0], A_RNEW, out, n)
    n = bits_out(p.rnew[1], A_RNEW + 64, out, n)
    n = bits_out(p.rstep[0], A_RSTEP, out, n)
    n = bits_out(p.rstep[1], A_RSTEP + 64, out, n)
    n = bits_out(p.pillage, A_PILLAGE, out, n)
    n = bits_out(p.supply, A_SUPPLY, out, n)
    return bits_out(p.garrison, A_GARRISON, out, n)


cdef void rebuild_derived(HData* d) noexcept nogil:
    """The derived part of the state (who stands where; at S_ACTION its legal actions) after a bulk write: a
    load, a resample of blocks."""
    rebuild_occupancy(d)
    if d.step == S_ACTION:
        phase_actions(d, &d.acts)
    else:
        memset(&d.acts, 0, sizeof(PhaseActs))


cdef int legal(HData* d, int* out) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int n = 0, a, u, i, k
    cdef uint64_t m
    cdef int step = d.step
    if step == S_TRUCE or step == S_FAVOUR or step == S_ATR_KEEP or step == S_WITHDRAW or step == S_CONTINUE \
            or step == S_REROLL:
        out[0] = A_PASS
        out[1] = A_YES
        return 2
    if step == S_CARD:
        return card_choices(d, d.cur, out)
    if step == S_TARGET:
        if d.ev_left == 0:
            out[n] = A_PASS
            n += 1
        return n + event_targets(d, out + n)
    if step == S_ACTION:
        return phase_list(&d.acts, out)
    if step == S_MOVE_UNIT:
        if d.unit >= 0:
            out[n] = A_PASS
            n += 1
        k = group_units(d, d.group, d.unit, d.season == s.nseasons, out + n)
        for i in range(k):
            out[n + i] += A_UNIT
        return n + k
    if step == S_MOVE_DEST:
        if d.free_move:
            out[n] = A_PASS
            n += 1
        m = land_reach(d, d.unit, d.season == s.nseasons and not d.free_move)
        while m:
            out[n] = A_DEST + __builtin_ctzll(m)
            m &= m - 1
            n += 1
        return n
    if step == S_PLACE:
        return recruit_places(d, d.unit, out)
    if step == S_BATTLE or step == S_SIEGE:
        return combat_choices(d, out)
    if step == S_SALLY:
        out[n] = A_PASS
        n += 1
        if d.b_area >= 0:                           # a relief battle: sally from that city or not
            out[n] = A_SALLY + d.b_area
            return n + 1
        for a in range(s.nl):
            if sally_ok(d, a):
                out[n] = A_SALLY + a
                n += 1
        return n
    if step == S_FORCED:
        out[n] = A_PASS
        n += 1
        m = forced_dests(d, d.unit)
        while m:
            out[n] = A_DEST + __builtin_ctzll(m)
            m &= m - 1
            n += 1
        return n
    if step == S_CARGO:
        out[n] = A_PASS
        n += 1
        for u in range(s.nu):
            if cargo_ok(d, d.unit, u):
                out[n] = A_UNIT + u
                n += 1
        return n
    if step == S_HIT:
        return tied_largest(d, d.cur, out)
    if step == S_ROUT:
        for u in range(s.nu):
            if s.u_side[u] == d.cur and in_battle(d, u):
                out[n] = A_UNIT + u
                n += 1
        return n
    if step == S_RETREAT:
        return retreat_dests(d, d.r_unit, out)
    if step == S_BID or step == S_PICK:
        return side_choices(d, out)
    return 0

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


cdef inline int can_pillage(HData* d, int a) noexcept nogil:
    """Spec 5.6: own land units in the field of an enemy-loyal city-state, no enemy field units there, not
    pillaged yet this year; not under Earthquake (L300)."""
    cdef HS* s = tab(d)
    cdef int side = d.active
    if not is_city(s, a) or s.loyal[a] != 1 - side or d.quake_vs == side:
        return 0
    if s.r_pillage_once and d.pillaged[a]:
        return 0
    return (d.o.landf[side] >> a) & 1 and not (d.o.field[1 - side] >> a) & 1


cdef inline int can_garrison(HData* d, int a) noexcept nogil:
    """Spec 5.5 d: a garrison in an enemy-loyal city the player occupies (L242)."""
    cdef int side = d.active
    return is_city(tab(d), a) and d.occ[a] == side and d.garrison[a] < 0 and \
        ((d.o.field[side] | d.o.inside[side]) >> a) & 1 and not ((d.o.field[1 - side] | d.o.inside[1 - side]) >> a) & 1


cdef int legal_actions_phase(HData* d, int* out, int some=0) noexcept nogil:
    """S_ACTION: pass, a group move, recruiting, pillage, a garrison, Winter supply (spec 4.4, 4.5, 5.0). With some,
    stops once it has found something besides passing (out then holds only part of them)."""
    cdef HS* s = tab(d)
    cdef int n = 0, a, u, side = d.active, winter = d.season == s.nseasons
    cdef int cost_r = s.r_recruit_cost
    cdef uint64_t groups = 0
    out[n] = A_PASS
    n += 1
    if (winter and d.refuge) or (not winter and d.actions >= 1 and d.quake_vs != side):
        for u in range(s.nu):                       # an area is a group move's source when one unit can move
            a = d.loc[u]
            if a >= 0 and s.u_side[u] == side and not (groups >> a) & 1 and can_go(d, u, winter):
                groups |= bit(a)
        while groups:
            out[n] = A_MOVE + __builtin_ctzll(groups)
            groups &= groups - 1
            n += 1
    if some and n > 1:
        return n
    if d.actions >= cost_r and (not winter or s.r_winter_recruit):
        for u in range(s.nu):
            if can_recruit(d, u):
                out[n] = A_RNEW + u
                n += 1
        for u in range(s.nu):
            if can_add_step(d, u):
                out[n] = A_RSTEP + u
                n += 1
    if some and n > 1:
        return n
    if not winter and d.actions >= 1:
        for a in range(s.nl):
            if can_pillage(d, a):
                out[n] = A_PILLAGE + a
                n += 1
    if some and n > 1:
        return n
    if winter and s.r_winter_supply and d.actions >= s.r_supply_cost:
        groups = supply_areas(d, side, NULL) & ~d.supplied  # the areas where a block still needs supply
        while groups:
            out[n] = A_SUPPLY + __builtin_ctzll(groups)
            groups &= groups - 1
            n += 1
    if some and n > 1:
        return n
    if d.actions >= cost_r and (not winter or s.r_winter_recruit):
        for a in range(s.nl):
            if can_garrison(d, a):
                out[n] = A_GARRISON + a
                n += 1
    return n


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
        return legal_actions_phase(d, out)
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

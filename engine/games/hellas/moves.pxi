# Hellas: land movement (spec 5.1), fleets at sea with transport and storms (5.2) and Winter refuge moves (5.8).
#
# Forced march and forced rowing (5.3) for elite units.

cdef inline int enemy_units(HData* d, int a, int side) noexcept nogil:
    return units_in(d, a, 1 - side, 2)


cdef inline int can_move(HData* d, int u) noexcept nogil:
    """Unit u may take part in a group move now: it has not moved this turn and is not shut in a city (a fleet in
    a besieged port may still sail out through its offshore sea)."""
    cdef HS* s = tab(d)
    if d.loc[u] < 0:
        return 0
    if s.u_type[u] != T_FLEET and (d.loc[u] >= s.nl or d.incity[u]):
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
    cdef Occ* o = &d.o
    cdef int side = s.u_side[u], a0 = d.loc[u], depth, a
    cdef uint64_t frontier, reach, seen, out = 0, enemy, stop, f
    if s.u_type[u] == T_FLEET:
        return sea_reach(d, u, refuge, -1)
    if not can_move(d, u) or (refuge and d.moved[u]):
        return 0
    if (o.field[1 - side] >> a0) & 1:
        return 0                                    # pinned: a battle is due here
    enemy = o.field[1 - side] | o.inside[1 - side]
    # entering enemies ends the move there; refuge avoids them and Omen forbids engaging (L302)
    stop = 0 if refuge or d.omen_vs == side else enemy
    frontier = bit(a0)
    seen = frontier
    for depth in range(s.u_lspd[u]):
        reach = 0
        f = frontier
        while f:
            a = __builtin_ctzll(f)
            f &= f - 1
            reach |= s.adj[a]
        reach &= ~seen & ~s.neutral_bits
        frontier = reach & ~enemy
        seen |= frontier | (reach & stop)
        out |= frontier | (reach & stop)
    out &= ~bit(a0)
    if refuge:
        f = out
        while f:
            a = __builtin_ctzll(f)
            f &= f - 1
            if not friendly_city(d, a, side):
                out &= ~bit(a)
    return out


cdef inline int can_go(HData* d, int u, int refuge) noexcept nogil:
    """land_reach(d, u, refuge) != 0, without the walk where its first step decides: a land unit on a
    normal move reaches somewhere exactly when some neighbour is open to it (entering enemies ends a move there
    but counts, unless Omen forbids engaging); a fleet on a normal move from land exactly when it can put to
    sea, from a sea when it may sail on to a neighbouring sea (else its coasts decide)."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], a0 = d.loc[u]
    cdef uint64_t open_, seas
    cdef Occ* o = &d.o
    if refuge:
        return land_reach(d, u, refuge) != 0
    if s.u_type[u] == T_FLEET:
        if not sea_start(d, u, 0, &seas):
            return 0
        if a0 < s.nl or (s.u_sspd[u] >= 1 and s.adj[a0] & ~bit(a0)):
            return seas != 0
        return sea_spread(d, u, 0, seas) != 0
    if not can_move(d, u) or (o.field[1 - side] >> a0) & 1 or s.u_lspd[u] < 1:
        return 0
    open_ = s.adj[a0] & ~bit(a0) & ~s.neutral_bits
    if d.omen_vs == side:
        open_ &= ~(o.field[1 - side] | o.inside[1 - side])
    return open_ != 0


cdef inline int sea_start(HData* d, int u, int refuge, uint64_t* seas) noexcept nogil:
    """Where fleet u's move begins (spec 5.2): 0 when it cannot move at all (moved, shut in a city that is not a
    besieged port, pinned by a battle due on its land area, or at a sea with enemy fleets); else 1, with *seas
    the seas it stands in or first enters (none with sea speed 0 from land)."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], a0 = d.loc[u], x
    cdef uint64_t first = 0
    seas[0] = 0
    if not can_move(d, u) or (refuge and d.moved[u]):
        return 0
    if d.incity[u]:
        if not d.besieged[a0] or s.offshore[a0] < 0:
            return 0
        first = bit(s.offshore[a0])
    elif a0 < s.nl:
        first = s.coast[a0]
    if a0 < s.nl and not d.incity[u] and (d.o.field[1 - side] >> a0) & 1:
        return 0                                    # pinned: a battle is due here
    if a0 >= s.nl:
        if (d.o.fleets[1 - side] >> a0) & 1:
            return 0
        seas[0] = bit(a0)
    elif s.u_sspd[u] >= 1:
        for x in range(s.nl, s.na):
            if (first >> x) & 1 and not (refuge and (d.o.fleets[1 - side] >> x) & 1):
                seas[0] |= bit(x)
    return 1


cdef uint64_t sea_reach(HData* d, int u, int refuge, int dest) noexcept nogil:
    """Spec 5.2: a fleet's move is a path of seas, each counting 1 against its sea speed (the first entry from a
    land area too); it stops on entering a sea with enemy fleets; it may end at sea or by landing (cost 0) in a
    coastal land area next to a sea it reached, where it stops. A fleet in a besieged port leaves only into its
    offshore sea, free of enemy fleets. Its destinations as bits (sea_spread); with dest >= 0, instead the fewest
    hazard borders (storm rolls) on a path to dest within the speed (99: none)."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], a0 = d.loc[u], c, x, y, h, best = 99
    cdef int hz[MAXA]
    cdef int nh[MAXA]
    cdef uint64_t seas, ef = d.o.fleets[1 - side], enemy = d.o.field[1 - side] | d.o.inside[1 - side], f, g
    if not sea_start(d, u, refuge, &seas):
        return 99 if dest >= 0 else 0
    if dest < 0:
        return sea_spread(d, u, refuge, seas)
    for x in range(s.nl, s.na):                     # storms so far on the best path: 0 where it starts; a sea is
        hz[x] = 0 if (seas >> x) & 1 else 99        # in seas exactly when it has a path (hz below 99)
    for c in range(1 if a0 < s.nl else 0, s.u_sspd[u]):
        for x in range(s.nl, s.na):
            nh[x] = hz[x]
        f = seas & ~ef                              # stopped by enemy fleets: no further
        while f:
            x = __builtin_ctzll(f)
            f &= f - 1
            g = s.adj[x] & s.sea_bits & ~(ef if refuge else 0)
            while g:
                y = __builtin_ctzll(g)
                g &= g - 1
                h = hz[x] + <int>((s.hazard[x] >> y) & 1)
                if h < nh[y]:
                    nh[y] = h
                    seas |= bit(y)
        for x in range(s.nl, s.na):
            hz[x] = nh[x]
    if dest >= s.nl:
        return hz[dest] if (seas >> dest) & 1 else 99
    # landing on dest (cost 0) from a sea it reached, where it did not have to stop to fight (unless it began there)
    if s.neutral[dest] or dest == a0:
        return 99
    if refuge and (not friendly_city(d, dest, side) or s.site[dest] != SITE_PORT or (enemy >> dest) & 1):
        return 99
    if d.omen_vs == side and (enemy >> dest) & 1:
        return 99
    f = seas & ~(ef & ~bit(a0))
    while f:
        x = __builtin_ctzll(f)
        f &= f - 1
        if (s.coast[x] >> dest) & 1 and hz[x] < best:
            best = hz[x]
    return best


cdef int strait_only(HData* d, int u, int dest) noexcept nogil:
    """Spec 6.7: fleet u (before it moves) can reach dest only across a strait: for a sea, every sea path within
    its speed enters dest across a strait border; for a coastal land area, every sea it could land from is one it
    could enter only across a strait. The player picks his path, so one open way in is enough to avoid the rule.
    The paths are those of sea_reach: through seas free of enemy fleets, the first sea from land counting 1."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], a0 = d.loc[u], c, x, y
    cdef uint64_t first, seen, layer, nxt, passed = 0, opened
    if a0 >= s.nl:
        first = bit(a0)
        c = 0
    else:
        first = bit(s.offshore[a0]) if d.incity[u] and s.offshore[a0] >= 0 else s.coast[a0]
        c = 1
    seen = first
    layer = first
    while c < s.u_sspd[u]:                          # breadth first: seas at each cost, passing free ones
        nxt = 0
        for x in range(s.nl, s.na):
            if (layer >> x) & 1 and not (x != a0 and fleets_in(d, x, 1 - side)):
                passed |= bit(x)
                nxt |= s.adj[x]
        nxt &= ~seen
        seen |= nxt
        layer = nxt
        c += 1
    opened = first                                  # entered from land (or the start): no border crossed
    for x in range(s.nl, s.na):
        if (passed >> x) & 1:
            opened |= s.adj[x] & ~s.strait[x]
    if dest >= s.nl:
        return (seen >> dest) & 1 and not (opened >> dest) & 1
    c = 0
    for x in range(s.nl, s.na):                     # the seas it could land from
        if (s.coast[dest] >> x) & 1 and (seen >> x) & 1 and not (x != a0 and fleets_in(d, x, 1 - side)):
            if (opened >> x) & 1:
                return 0
            c = 1
    return c


cdef uint64_t sea_spread(HData* d, int u, int refuge, uint64_t seas) noexcept nogil:
    """sea_reach's destinations as area bits (no storm count needed): the seas reached from `seas` within the
    fleet's speed, never onwards from a sea with enemy fleets, then the coasts it may land on (same rules)."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], a0 = d.loc[u], c, x
    cdef uint64_t ef = d.o.fleets[1 - side], enemy = d.o.field[1 - side] | d.o.inside[1 - side], grow, f, lands = 0
    for c in range(1 if a0 < s.nl else 0, s.u_sspd[u]):
        grow = 0
        f = seas & ~ef
        while f:
            x = __builtin_ctzll(f)
            f &= f - 1
            grow |= s.adj[x]
        if refuge:
            grow &= ~ef
        seas |= grow
    f = seas & ~(ef & ~bit(a0))                     # it must stop at sea to fight where enemy fleets are
    while f:
        x = __builtin_ctzll(f)
        f &= f - 1
        lands |= s.coast[x]
    lands &= ~s.neutral_bits & ~bit(a0)
    if d.omen_vs == side:
        lands &= ~enemy
    if refuge:
        lands &= ~enemy
        f = lands
        while f:
            x = __builtin_ctzll(f)
            f &= f - 1
            if not friendly_city(d, x, side) or s.site[x] != SITE_PORT:
                lands &= ~bit(x)
        return lands & ~bit(a0)
    return (seas | lands) & ~bit(a0)


cdef int land_distance(HData* d, int u, int src, int dst) noexcept nogil:
    """The fewest land areas unit u needs from src to dst, passing only through areas free of enemy units and
    never neutral ones (99 if more than its speed)."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], depth, a, b
    cdef uint64_t frontier = bit(src), seen = bit(src), nxt
    for depth in range(1, s.u_lspd[u] + 1):
        nxt = 0
        for a in range(s.nl):
            if not (frontier >> a) & 1 or (a != src and enemy_units(d, a, side)):
                continue
            for b in range(s.nl):
                if (s.adj[a] >> b) & 1 and not (seen >> b) & 1 and not s.neutral[b]:
                    if b == dst:
                        return depth
                    seen |= bit(b)
                    nxt |= bit(b)
        frontier = nxt
    return 99


cdef int sea_cost(HData* d, int u, int dest) noexcept nogil:
    """The fewest seas fleet u (before it moves) counts to reach sea dest, passing only through seas free of enemy
    fleets (99 if beyond its speed)."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], a0 = d.loc[u], c, x, y
    cdef uint64_t layer, nxt, seen
    if a0 >= s.nl:
        layer = bit(a0)
        c = 0
    else:
        layer = bit(s.offshore[a0]) if d.incity[u] and s.offshore[a0] >= 0 else s.coast[a0]
        c = 1
    seen = layer
    while c <= s.u_sspd[u]:
        if (layer >> dest) & 1:
            return c
        nxt = 0
        for x in range(s.nl, s.na):
            if (layer >> x) & 1 and not fleets_in(d, x, 1 - side):
                for y in range(s.nl, s.na):
                    if (s.adj[x] >> y) & 1 and not (seen >> y) & 1:
                        nxt |= bit(y)
        seen |= nxt
        layer = nxt
        c += 1
    return 99


cdef uint64_t forced_dests(HData* d, int u) noexcept nogil:
    """Spec 5.3: an elite unit that used its full speed and was not stopped by enemies may try one more adjacent
    area: a land unit one more land area, a fleet one more sea (not in Winter, not carried, not a barbarian's
    free move)."""
    cdef HS* s = tab(d)
    cdef int x = d.loc[u], side = s.u_side[u], b
    cdef uint64_t out = 0
    if not s.u_elite[u] or d.free_move or d.season == s.nseasons or d.cargo == u:
        return 0
    if s.u_type[u] == T_FLEET:
        if x < s.nl or not d.full_speed or fleets_in(d, x, 1 - side):
            return 0
        for b in range(s.nl, s.na):
            if (s.adj[x] >> b) & 1 and b != d.came[u]:
                out |= bit(b)
        return out
    if x < 0 or x >= s.nl or enemy_units(d, x, side) or d.came[u] < 0:
        return 0
    if land_distance(d, u, d.came[u], x) != s.u_lspd[u]:
        return 0
    for b in range(s.nl):
        if (s.adj[x] >> b) & 1 and not s.neutral[b] and b != d.came[u]:
            if d.omen_vs == side and enemy_units(d, b, side):
                continue
            out |= bit(b)
    return out


cdef int cargo_ok(HData* d, int fleet, int u) noexcept nogil:
    """Spec 5.2 item 4: one Greek land unit that began the action in the fleet's coastal land area, with steps
    the fleet can carry (CARGO_STEP_RULE)."""
    cdef HS* s = tab(d)
    if s.r_cargo == 0 or u == fleet or s.u_side[u] != s.u_side[fleet] or s.u_type[u] == T_FLEET or s.u_barb[u]:
        return 0
    if d.loc[u] != d.came[fleet] or d.moved[u] or d.incity[u] or d.loc[u] >= s.nl:
        return 0
    if s.r_cargo_rule == 1:
        return d.steps[u] < d.steps[fleet]
    if s.r_cargo_rule == 2:
        return s.u_max[u] <= s.u_max[fleet]
    return d.steps[u] <= d.steps[fleet]


cdef int group_units(HData* d, int a, int after, int refuge, int* out) noexcept nogil:
    """Units of the active side that began the action in area a, with a move left, index above `after`."""
    cdef HS* s = tab(d)
    cdef int i, u, n = 0
    for i in range(s.roster_n[d.active]):
        u = s.roster[d.active][i]
        if u > after and d.loc[u] == a and can_go(d, u, refuge):
            if out != NULL:
                out[n] = u
            n += 1
    return n


cdef void move_unit(HData* d, int u, int dest) noexcept nogil:
    d.came[u] = d.loc[u]
    place(d, u, dest, 0)
    d.moved[u] = 1
    d.strait_in[u] = 0
    unsee(d, u)                     # a block that moves is unknown again (spec 7.2 H4), but followed (tracker.pxi)

# Movement feasibility (spec 5.5, 5.6): connected components by land and sea.
# Included by state.pyx (one compiled module: the C functions inline across files).
# ---- movement feasibility (spec 5.5, 5.6) -------------------------------------------------------------------------
cdef struct MoveCtx:
    uint32_t have             # areas (regions, or seas for galleys) holding p's units
    uint32_t cross            # areas a unit of p may cross now
    uint32_t comp[MAXR]       # connected component of each crossable area
    uint32_t usable           # seas a hoplite's sea path may use (not enemy-controlled)
    uint32_t scomp[MAXS]      # component of each usable sea
    uint32_t sadj[MAXS]       # sea adjacency for p (with the diolkos)


cdef void components(uint32_t nodes, const uint32_t* adj, uint32_t* comp) noexcept nogil:
    cdef uint32_t left = nodes, c, frontier, nxt, m
    cdef int r
    while left:
        c = 1u << lowbit(left)
        frontier = c
        while frontier:
            nxt = 0
            while frontier:
                r = lowbit(frontier)
                frontier &= frontier - 1
                nxt |= adj[r]
            nxt &= nodes & ~c
            c |= nxt
            frontier = nxt
        left &= ~c
        m = c
        while m:
            r = lowbit(m)
            m &= m - 1
            comp[r] = c


cdef void move_ctx(const PolisData* d, const Static* g, int p, int kind, MoveCtx* c) noexcept nogil:
    """What movement feasibility needs, computed once per decision (spec 5.5, 5.6)."""
    cdef int L = limit(d), opp = 1 - p, a
    c.have = 0
    c.cross = 0
    c.usable = 0
    for a in range(g.ns):
        c.sadj[a] = sea_adj(d, g, p, a)
    if kind == T_MOVE_HOP:
        for a in range(g.nr):
            if d.hop[a][p] > 0:
                c.have |= 1u << a
            # crossed regions: not enemy-controlled, below the limit (L358-L359); sea-only regions never crossed
            if rctrl(d, a) != opp and d.hop[a][p] < L and not (g.sea_only >> a) & 1:
                c.cross |= 1u << a
        for a in range(g.ns):
            if sctrl(d, a) != opp:                    # every sea of a sea path is crossed (L357)
                c.usable |= 1u << a
        components(c.cross, g.land_adj, c.comp)
        components(c.usable, c.sadj, c.scomp)
    else:
        for a in range(g.ns):
            if d.gal[a][p] > 0:
                c.have |= 1u << a
            if sctrl(d, a) != opp and d.gal[a][p] < L:   # L386-L387
                c.cross |= 1u << a
        components(c.cross, c.sadj, c.comp)


cdef uint32_t ctx_origins(const Static* g, const MoveCtx* c, int kind, int dest) noexcept nogil:
    """Areas holding p's units that can reach dest now (region for hoplites, sea index for galleys)."""
    cdef uint32_t nb, reach = 0, m, origins, seas = 0
    cdef int r
    if kind == T_MOVE_HOP:
        origins = 0
        if not (g.sea_only >> dest) & 1:
            nb = g.land_adj[dest]
            m = nb & c.cross
            while m:
                r = lowbit(m)
                reach |= c.comp[r]
                m &= ~c.comp[r]
            origins = nb
            m = reach
            while m:
                r = lowbit(m)
                m &= m - 1
                origins |= g.land_adj[r]
            origins &= ~g.sea_only
        m = g.coast[dest] & c.usable
        while m:
            r = lowbit(m)
            seas |= c.scomp[r]
            m &= ~c.scomp[r]
        while seas:
            r = lowbit(seas)
            seas &= seas - 1
            origins |= g.sea_regions[r]
        return origins & c.have & ~(1u << dest)
    nb = c.sadj[dest]
    m = nb & c.cross
    while m:
        r = lowbit(m)
        reach |= c.comp[r]
        m &= ~c.comp[r]
    origins = nb
    m = reach
    while m:
        r = lowbit(m)
        m &= m - 1
        origins |= c.sadj[r]
    return origins & c.have & ~(1u << dest)


cdef uint32_t hoplite_origins(const PolisData* d, const Static* g, int p, int dest) noexcept nogil:
    cdef MoveCtx c
    move_ctx(d, g, p, T_MOVE_HOP, &c)
    return ctx_origins(g, &c, T_MOVE_HOP, dest)


cdef uint32_t galley_origins(const PolisData* d, const Static* g, int p, int dest) noexcept nogil:
    cdef MoveCtx c
    move_ctx(d, g, p, T_MOVE_GAL, &c)
    return ctx_origins(g, &c, T_MOVE_GAL, dest)


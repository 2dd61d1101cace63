# Trade reachability and prices (spec 5.9).
# Included by state.pyx (one compiled module: the C functions inline across files).
# ---- trade reachability (spec 5.9) ---------------------------------------------------------------------------------
cdef uint32_t reachable_markets(const PolisData* d, const Static* g, int p) noexcept nogil:
    cdef int opp = 1 - p, s, m
    cdef uint32_t usable = 0, reach, frontier, nxt, out = 0
    for s in range(g.ns):
        if sctrl(d, s) != opp:
            usable |= 1u << s
    reach = g.tport[p] & usable
    frontier = reach
    while frontier:
        nxt = 0
        while frontier:
            s = lowbit(frontier)
            frontier &= frontier - 1
            nxt |= sea_adj(d, g, p, s)
        nxt &= usable & ~reach
        reach |= nxt
        frontier = nxt
    for m in range(g.nm):
        if g.mseas[m] & reach:
            out |= 1u << m
        elif g.mland[m] >= 0 and d.owner[g.mland[m]] == p:
            out |= 1u << m
    return out


cdef inline int controls_trade_polis(const PolisData* d, const Static* g, int p) noexcept nogil:
    cdef uint32_t m = g.trade_poleis[p]
    cdef int pol
    while m:
        pol = lowbit(m)
        m &= m - 1
        if d.owner[pol] == p:
            return 1
    return 0


cdef inline int cell_price(const PolisData* d, const Static* g, int c, int r) noexcept nogil:
    """What p pays in resource r at cell c: the grid for goods (L496), N silver for N wheat (L500); -1 if not accepted."""
    if not (g.caccept[c] >> r) & 1:
        return -1
    if r == SILVER:
        return g.crate[c]
    return g.price[g.crate[c] - 3][d.ppos[r]]


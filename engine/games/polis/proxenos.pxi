# Proxenos bribes (spec 5.10).
# Included by state.pyx (one compiled module: the C functions inline across files).
# ---- proxenos bribes (spec 5.10) -----------------------------------------------------------------------------------
cdef void proxenos_costs(const PolisData* d, const Static* g, int p, int* cost) noexcept nogil:
    """cost[pol] = the cheapest bribe to move p's proxenos to pol, or -1 when no path exists.

    Bellman-Ford on bitmask adjacency: land paths from region to region over regions only, sea paths from port sea
    to port sea over seas only (L524-L532); every area on the path, start and end included, costs 1 silver per
    enemy unit in it (L528)."""
    cdef int opp = 1 - p, start = d.prox[p], r0 = g.preg[start], i, j, s, r, best, c, it
    cdef int dland[MAXR]
    cdef int dsea[MAXS]
    cdef uint32_t sadj[MAXS]
    cdef uint32_t m, dirty
    for i in range(g.nr):
        dland[i] = -1
    for s in range(g.ns):
        sadj[s] = sea_adj(d, g, p, s)
    # land paths: sea-only regions (Sicily, Ionia) are left or entered only by sea (L366)
    if r0 >= 0:
        dland[r0] = d.hop[r0][opp]
        dirty = 0 if (g.sea_only >> r0) & 1 else (1u << r0)
        while dirty:
            r = lowbit(dirty)
            dirty &= dirty - 1
            m = g.land_adj[r] & ~g.sea_only
            while m:
                j = lowbit(m)
                m &= m - 1
                c = dland[r] + d.hop[j][opp]
                if dland[j] < 0 or c < dland[j]:
                    dland[j] = c
                    dirty |= 1u << j
    # sea paths: from a port sea of the polis to a port sea of the destination, over seas only (L526); a polis
    # without a port (Sparta, Thebes) is left and reached only by land (L531)
    dirty = 0
    for s in range(g.ns):
        best = -1
        if g.nports[start] > 0 and (g.port[start][0] == s or (g.nports[start] > 1 and g.port[start][1] == s)):
            best = d.gal[s][opp]
        dsea[s] = best
        if best >= 0:
            dirty |= 1u << s
    while dirty:
        s = lowbit(dirty)
        dirty &= dirty - 1
        m = sadj[s]
        while m:
            j = lowbit(m)
            m &= m - 1
            c = dsea[s] + d.gal[j][opp]
            if dsea[j] < 0 or c < dsea[j]:
                dsea[j] = c
                dirty |= 1u << j
    for i in range(NPOL):
        best = -1
        r = g.preg[i]
        if r >= 0 and dland[r] >= 0:
            best = dland[r]
        for it in range(g.nports[i]):
            s = g.port[i][it]
            if dsea[s] >= 0 and (best < 0 or dsea[s] < best):
                best = dsea[s]
        cost[i] = best


# Small helpers: bit tricks, control, units, prestige and resources, removing units.
# Included by state.pyx (one compiled module: the C functions inline across files).
# ---- small helpers ---------------------------------------------------------------------------------------------
cdef inline int popc(uint32_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline int lowbit(uint32_t x) noexcept nogil:
    cdef int i = 0
    while not (x >> i) & 1:
        i += 1
    return i


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline int limit(const PolisData* d) noexcept nogil:
    """Stacking limit: 3/4/5 by round (L259), changed by an event this round."""
    return imax(1, d.round + 3 + d.stack_delta)


cdef inline int rctrl(const PolisData* d, int r) noexcept nogil:
    if d.hop[r][0] > d.hop[r][1]:
        return 0
    if d.hop[r][1] > d.hop[r][0]:
        return 1
    return -1


cdef inline int sctrl(const PolisData* d, int s) noexcept nogil:
    if d.gal[s][0] > d.gal[s][1]:
        return 0
    if d.gal[s][1] > d.gal[s][0]:
        return 1
    return -1


cdef inline int units(const PolisData* d, const Static* g, int area, int p) noexcept nogil:
    if area < g.nr:
        return d.hop[area][p]
    return d.gal[area - g.nr][p]


cdef inline uint32_t sea_adj(const PolisData* d, const Static* g, int p, int s) noexcept nogil:
    """Sea neighbours of s for player p (the diolkos adds Cyclades-Ionian for Corinth's controller, L364)."""
    cdef uint32_t m = g.sea_adj[s]
    if d.owner[g.dk_polis] == p:
        if s == g.dk_a:
            m |= 1u << g.dk_b
        elif s == g.dk_b:
            m |= 1u << g.dk_a
    return m


cdef inline void lose(PolisData* d, int p) noexcept nogil:
    """Sudden death (spec 8.1): p loses at once."""
    d.winner = 1 - p
    d.phase = PH_OVER


cdef inline void gain_prestige(PolisData* d, const Static* g, int p, int n) noexcept nogil:
    d.prestige[p] = imin(g.pcap, d.prestige[p] + n)


cdef inline void pay_prestige(PolisData* d, int p, int n) noexcept nogil:
    """Prestige below 0 loses at once (L207)."""
    if d.prestige[p] - n < 0:
        d.prestige[p] = 0
        lose(d, p)
    else:
        d.prestige[p] -= n


cdef inline void gain_res(PolisData* d, const Static* g, int p, int r, int n) noexcept nogil:
    d.res[p][r] = imin(g.rcap, d.res[p][r] + n)


cdef inline int total_res(const PolisData* d, int p) noexcept nogil:
    return d.res[p][0] + d.res[p][1] + d.res[p][2] + d.res[p][3] + d.res[p][4]


cdef void siege_cleanup(PolisData* d, const Static* g, int p, int r) noexcept nogil:
    """A besieger with no hoplites left in the region takes its siege discs back (L425)."""
    cdef uint32_t m
    cdef int pol
    if r >= g.nr or d.hop[r][p] > 0:
        return
    m = g.reg_poleis[r]
    while m:
        pol = lowbit(m)
        m &= m - 1
        if d.siege[pol][p]:
            d.discs[p] += d.siege[pol][p]
            d.siege[pol][p] = 0


cdef void remove_unit(PolisData* d, const Static* g, int area, int p) noexcept nogil:
    if area < g.nr:
        d.hop[area][p] -= 1
        d.cubes[p] += 1
        siege_cleanup(d, g, p, area)
    else:
        d.gal[area - g.nr][p] -= 1
        d.cubes[p] += 1


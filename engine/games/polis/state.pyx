"""Polis on the Kleos contract: the rules core in C (legal actions, apply, chance, determinize, info keys).

Rules: shared/rules/polis.md; coverage and the split of a turn into decisions: docs/rules/polis.md.
Seat 0 is Athens, seat 1 is Sparta. Every table the rulebook lost comes from data/*.json (see data.py).
The Python face delegates to codec.py (JSON, observation), notation.py (move names) and render.py (text view).
Layout: helpers, movement/trade/proxenos searches, option generators (one per decision), chance, flow (turns,
battles, end of round), apply, then the Game and State classes.
"""
from libc.math cimport exp
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memset

from engine.core cimport CHANCE, HIDDEN_ACTION, MAX_ACTIONS, TERMINAL, Game, State, returns_from_keys
from engine.hashing cimport hash_bytes, hash_mix
from engine.rng cimport Rng, rng_below

from engine.errors import BadMoveError, BadStateError

# ---- phases (who decides is in c_current_player) ----------------------------------------------------------------
cdef enum:
    PH_SETUP_TILES = 0   # chance: the initial project display
    PH_EVENT             # chance (set-up): the face-down event stack, one card of each letter
    PH_ACTION            # pass / ransom / start an action type
    PH_SURCHARGE         # solo phase: pay the 1-resource surcharge
    PH_TRAIN_POLIS
    PH_TRAIN_COUNT
    PH_BUILD_POLIS
    PH_BUILD_COUNT       # one count per port sea of the polis (sel_n, then sel_n2 for Corinth)
    PH_HIRE_POLIS
    PH_HIRE_COUNT
    PH_PAY_SPLIT         # how many of pay_n are paid in silver instead of pay_res
    PH_DEV_TILE
    PH_DEV_POLIS
    PH_DEV_MASK
    PH_MOVE_DEST
    PH_MOVE_FROM
    PH_SIEGE_TARGET
    PH_SIEGE_ROLL        # chance: d4
    PH_TRIB_REGION
    PH_TRIB_ALLOC
    PH_TRADE_CELL
    PH_TRADE_PAY
    PH_TRADE_ROLL        # chance: min(2d4) drop, or a d4 rise per listed good
    PH_PROX_DEST
    PH_BATTLE_ORDER
    PH_RETREAT
    PH_DEAL              # chance: one battle card to need[] holder
    PH_ATTACK
    PH_DEFEND
    PH_FOOD
    PH_GROWTH
    PH_PHOROS
    PH_TILE_DRAW         # chance: a project tile to the display
    PH_TILE_REMOVE
    PH_OVER
    NUM_PHASES

# ---- action ids (fixed action space) -----------------------------------------------------------------------------
cdef enum:
    A_PASS = 0
    A_RANSOM = 1
    A_START = 2          # + type-1, types 1..11
    A_SURCH = 13         # + resource
    A_POLIS = 20         # + polis
    A_COUNT = 40         # + 0..10
    A_SILVER = 52        # + 0..10
    A_AREA = 64          # + area (regions then seas)
    A_STOP = 88
    A_TILE = 90          # + tile
    A_MASK = 106         # + 0..7
    A_ALLOC = 114        # + 0..10 cubes in the first column
    A_CELL = 126         # + cell
    A_PAYRES = 142       # + resource
    A_RETREAT = 148
    A_STAY = 149
    A_ATTACK = 150       # + pair index (i <= j), 45
    A_DEFEND = 200       # + 9*i + j, 81
    A_RELEASE = 290      # + polis
    A_GROW = 310         # + polis
    A_PHOROS = 330       # + 0..2
    C_D4 = 340           # + roll-1
    C_DROP = 346         # + min(2d4)-1
    C_CARD = 350         # + kind
    C_TILE = 360         # + tile
    C_EVENT = 380        # + event
    NUM_ACTIONS = 430

cdef enum:
    T_TRAIN = 1
    T_BUILD = 2
    T_HIRE = 3
    T_DEVELOP = 4
    T_MOVE_HOP = 5
    T_MOVE_GAL = 6
    T_SIEGE = 7
    T_TRIBUTE = 8
    T_TRADE = 9
    T_PROXENOS = 10
    T_CIVIL = 11

cdef enum:
    IRON = 0
    WOOD = 1
    WINE = 2
    SILVER = 3
    WHEAT = 4

cdef enum:
    TW_PILE = -1
    TW_DISPLAY = -2
    TW_REMOVED = -3

cdef enum:
    CAPTURED = -1
    CTX_TURN = 0
    CTX_ROUND = 1
    U_M = 4              # unit index of Misthophoroi in kunit
    U_S = 5              # unit index of Salpinktes
    W_NONE = -1
    W_DRAW = 2
    W_SCORE = 3
    EFF_RESOURCE = 1
    EFF_PRESTIGE = 2
    EFF_POPULATION = 3
    EFF_UNITS = 4
    EFF_FIRST = 5
    EFF_STACKING = 6
    EFF_BLOCK = 7

cdef int PAIR_I[45]
cdef int PAIR_J[45]
cdef int PAIR_OF[9][9]
cdef double DROP_P[4]


cdef void _init_pairs():
    cdef int i, j, k = 0
    for i in range(9):
        for j in range(i, 9):
            PAIR_I[k] = i
            PAIR_J[k] = j
            PAIR_OF[i][j] = k
            PAIR_OF[j][i] = k
            k += 1
    DROP_P[0] = 7.0 / 16
    DROP_P[1] = 5.0 / 16
    DROP_P[2] = 3.0 / 16
    DROP_P[3] = 1.0 / 16

_init_pairs()


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


# ---- proxenos bribes (spec 5.10) -----------------------------------------------------------------------------------
cdef void proxenos_costs(const PolisData* d, const Static* g, int p, int* cost) noexcept nogil:
    """cost[pol] = the cheapest bribe to move p's proxenos to pol, or -1 when no path exists.

    Bellman-Ford on bitmask adjacency: land paths over regions only, sea paths over seas only (L524-L532);
    every area on the path, start and end included, costs 1 silver per enemy unit in it (L528)."""
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
    # sea paths: start in a port sea of the polis, or in its region and out to that region's coast
    dirty = 0
    for s in range(g.ns):
        best = -1
        if g.nports[start] > 0 and (g.port[start][0] == s or (g.nports[start] > 1 and g.port[start][1] == s)):
            best = d.gal[s][opp]
        if r0 >= 0 and (g.coast[r0] >> s) & 1:
            c = d.hop[r0][opp] + d.gal[s][opp]
            if best < 0 or c < best:
                best = c
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
        if r >= 0 and r != r0:
            m = g.coast[r]
            while m:
                s = lowbit(m)
                m &= m - 1
                if dsea[s] >= 0:
                    c = dsea[s] + d.hop[r][opp]
                    if best < 0 or c < best:
                        best = c
        cost[i] = best


# ---- option generators: each fills out[] ascending and returns the count (0 = the step is impossible) ----------
cdef uint32_t owned_mask(const PolisData* d, int p) noexcept nogil:
    cdef uint32_t m = 0
    cdef int pol
    for pol in range(NPOL):
        if d.owner[pol] == p:
            m |= 1u << pol
    return m


cdef int gen_train_polis(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, pol, r
    if d.res[p][IRON] + d.res[p][SILVER] < 1:
        return 0
    cdef uint32_t m = owned_mask(d, p)
    while m:
        pol = lowbit(m)
        m &= m - 1
        r = g.preg[pol]
        if r >= 0 and d.pop[pol] >= 2 and d.hop[r][p] < limit(d):
            out[n] = A_POLIS + pol
            n += 1
    return n


cdef int train_max(const PolisData* d, const Static* g, int p, int pol) noexcept nogil:
    return imin(imin(d.pop[pol] - 1, limit(d) - d.hop[g.preg[pol]][p]), d.res[p][IRON] + d.res[p][SILVER])


cdef inline int build_pay(const PolisData* d, int p) noexcept nogil:
    return d.res[p][WOOD] + d.res[p][SILVER]


cdef int gen_build_polis(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, pol, k, room
    if build_pay(d, p) < 1:
        return 0
    for pol in range(NPOL):
        if d.owner[pol] != p or g.nports[pol] == 0 or d.pop[pol] < 2:
            continue
        room = 0
        for k in range(g.nports[pol]):
            if d.gal[g.port[pol][k]][p] < limit(d):
                room = 1
        if room:
            out[n] = A_POLIS + pol
            n += 1
    return n


cdef int gen_build_count(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    """Galleys to the polis's first port sea, then (Corinth, L279) to its second."""
    cdef int pol = d.sel_polis, L = limit(d), n = 0, k, lo, hi
    cdef int cap = imin(d.pop[pol] - 1, build_pay(d, p))
    cdef int room0 = L - d.gal[g.port[pol][0]][p]
    cdef int room1 = (L - d.gal[g.port[pol][1]][p]) if g.nports[pol] > 1 else 0
    if d.sel_n < 0:          # first sea
        hi = imin(room0, cap)
        lo = 0 if room1 > 0 and g.nports[pol] > 1 else 1
    else:
        hi = imin(room1, cap - d.sel_n)
        lo = 1 if d.sel_n == 0 else 0
    for k in range(lo, hi + 1):
        out[n] = A_COUNT + k
        n += 1
    return n


cdef int gen_hire_polis(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, pol
    cdef uint32_t m = g.trade_poleis[p]
    if d.msup[p] < 1 or build_pay(d, p) < 1:
        return 0
    for pol in range(NPOL):
        if (m >> pol) & 1 and d.owner[pol] == p and d.pop[pol] >= 2:
            out[n] = A_POLIS + pol
            n += 1
    return n


cdef int mask_payable(const PolisData* d, const Static* g, int p, int t, int mask) noexcept nogil:
    """Project cost with the components in mask paid in silver instead (whole components only, L305)."""
    cdef int need[5]
    cdef int i, r
    for i in range(5):
        need[i] = 0
    for i in range(g.tncomp[t]):
        r = g.tcres[t][i]
        if (mask >> i) & 1:
            if r == SILVER:
                return 0        # a silver component has no substitute to choose
            need[SILVER] += g.tcamt[t][i]
        else:
            need[r] += g.tcamt[t][i]
    for i in range(5):
        if d.res[p][i] < need[i]:
            return 0
    return 1


cdef int tile_payable(const PolisData* d, const Static* g, int p, int t) noexcept nogil:
    """Some whole-component silver substitution pays for tile t: pay in silver exactly the components p cannot
    cover (each resource appears in one component at most), which needs the least silver."""
    cdef int i, r, silver = 0
    for i in range(g.tncomp[t]):
        r = g.tcres[t][i]
        if r == SILVER or d.res[p][r] < g.tcamt[t][i]:
            silver += g.tcamt[t][i]
    return silver <= d.res[p][SILVER]


cdef int gen_dev_polis(const PolisData* d, const Static* g, int p, int t, int* out) noexcept nogil:
    cdef int n = 0, pol
    for pol in range(NPOL):
        if (g.tpoleis[t] >> pol) & 1 and d.owner[pol] == p and not (d.started >> pol) & 1:
            out[n] = A_POLIS + pol
            n += 1
    return n


cdef int gen_dev_tile(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, t
    cdef uint32_t free = owned_mask(d, p) & ~d.started
    for t in range(NTILE):
        if d.tile_where[t] == TW_DISPLAY and (g.tpoleis[t] & free) and tile_payable(d, g, p, t):
            out[n] = A_TILE + t
            n += 1
    return n


cdef int gen_move_dest(const PolisData* d, const Static* g, int p, int kind, int* out) noexcept nogil:
    cdef int n = 0, a, L = limit(d)
    cdef MoveCtx c
    if d.prestige[p] < 1:
        return 0
    move_ctx(d, g, p, kind, &c)
    if kind == T_MOVE_HOP:
        for a in range(g.nr):
            if d.hop[a][p] < L and ctx_origins(g, &c, kind, a):
                out[n] = A_AREA + a
                n += 1
    else:
        for a in range(g.ns):
            if d.gal[a][p] < L and ctx_origins(g, &c, kind, a):
                out[n] = A_AREA + g.nr + a
                n += 1
    return n


cdef int any_move_dest(const PolisData* d, const Static* g, int p, int kind) noexcept nogil:
    cdef int a, L = limit(d), o, opp = 1 - p
    cdef uint32_t room = 0, usable = 0, m
    cdef MoveCtx c
    if d.prestige[p] < 1:
        return 0
    if kind == T_MOVE_HOP:
        # quick yes: a hoplite next to a region with room, or sharing a free coast sea with one (no crossing)
        for a in range(g.nr):
            if d.hop[a][p] < L:
                room |= 1u << a
        for a in range(g.ns):
            if sctrl(d, a) != opp:
                usable |= 1u << a
        for o in range(g.nr):
            if d.hop[o][p] == 0:
                continue
            if not (g.sea_only >> o) & 1 and g.land_adj[o] & room & ~g.sea_only:
                return 1
            m = g.coast[o] & usable
            if m:
                for a in range(g.nr):
                    if a != o and (room >> a) & 1 and g.coast[a] & m:
                        return 1
    move_ctx(d, g, p, kind, &c)
    if kind == T_MOVE_HOP:
        for a in range(g.nr):
            if d.hop[a][p] < L and ctx_origins(g, &c, kind, a):
                return 1
    else:
        for a in range(g.ns):
            if d.gal[a][p] < L and ctx_origins(g, &c, kind, a):
                return 1
    return 0


cdef int gen_move_from(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, a, dest = d.sel_area
    cdef uint32_t o = 0
    cdef MoveCtx c
    if units(d, g, dest, p) < limit(d):
        move_ctx(d, g, p, d.cur, &c)
        o = ctx_origins(g, &c, d.cur, dest if d.cur == T_MOVE_HOP else dest - g.nr)
    while o:
        a = lowbit(o)
        o &= o - 1
        out[n] = A_AREA + (a if d.cur == T_MOVE_HOP else g.nr + a)
        n += 1
    if d.moved > 0:
        out[n] = A_STOP
        n += 1
    return n


cdef inline int siege_ok(const PolisData* d, const Static* g, int p, int pol) noexcept nogil:
    cdef int r = g.preg[pol]
    if d.owner[pol] == p or pol == g.capital[0] or pol == g.capital[1] or r < 0:
        return 0
    if rctrl(d, r) != p or d.hop[r][p] < g.base[pol]:
        return 0
    if d.discs[p] < 1 or d.cubes[p] < (g.base[pol] if d.owner[pol] < 0 else d.pop[pol]):
        return 0
    return 1


cdef int gen_siege(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, pol
    if d.prestige[p] < 1:
        return 0
    cdef uint32_t cand = 0, m
    cdef int r
    for r in range(g.nr):                             # only regions p controls with enough hoplites matter
        if d.hop[r][p] > d.hop[r][1 - p]:
            cand |= g.reg_poleis[r]
    m = cand
    while m:
        pol = lowbit(m)
        m &= m - 1
        if siege_ok(d, g, p, pol):
            out[n] = A_POLIS + pol
            n += 1
    return n


cdef int gen_tribute(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, r, pol, ok
    cdef uint32_t m
    if d.discs[p] < 1:
        return 0
    for r in range(g.nr):
        if d.hop[r][p] < 1 or d.trib[r] >= 0 or d.hop[r][p] > g.tlen[r][0] + g.tlen[r][1]:
            continue                                  # (all hoplites must fit in the columns, L454)
        if r != g.preg[g.capital[p]] and d.prestige[p] < 1:
            continue
        m = g.reg_poleis[r]
        ok = m == 0                     # Achaea: hoplites suffice (L462)
        while m:
            pol = lowbit(m)
            m &= m - 1
            if d.owner[pol] == p:
                ok = 1
        if ok:
            out[n] = A_AREA + r
            n += 1
    return n


cdef int gen_trib_alloc(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int r = d.sel_area, h = d.hop[r][p], n = 0, k
    for k in range(imax(0, h - g.tlen[r][1]), imin(h, g.tlen[r][0]) + 1):
        out[n] = A_ALLOC + k
        n += 1
    return n


cdef int gen_trade_cell(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, c, r, pr
    cdef uint32_t mk
    if d.mport[p] < 1 or not controls_trade_polis(d, g, p):
        return 0
    mk = reachable_markets(d, g, p)
    for c in range(g.ncell):
        if d.cell_block[c] or d.cell_occ[c] >= 0 or g.crate[c] > d.round + 3 or not (mk >> g.cmarket[c]) & 1:
            continue
        for r in range(4):
            pr = cell_price(d, g, c, r)
            if pr >= 0 and d.res[p][r] >= pr:
                out[n] = A_CELL + c
                n += 1
                break
    return n


cdef int gen_trade_pay(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, r, pr
    for r in range(4):
        pr = cell_price(d, g, d.sel_cell, r)
        if pr >= 0 and d.res[p][r] >= pr:
            out[n] = A_PAYRES + r
            n += 1
    return n


cdef int gen_proxenos(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int cost[NPOL]
    cdef int n = 0, pol
    if d.prox[p] < 0:
        return 0
    proxenos_costs(d, g, p, cost)
    for pol in range(NPOL):
        if (pol != d.prox[p] and pol != d.prox[1 - p] and pol != g.capital[1 - p]
                and cost[pol] >= 0 and cost[pol] <= d.res[p][SILVER]):
            out[n] = A_POLIS + pol
            n += 1
    return n


cdef int proxenos_quick(const PolisData* d, const Static* g, int p) noexcept nogil:
    """Quick yes: an allowed polis in the same region, on the same port sea, or in a neighbouring region,
    within the silver at hand (a sufficient test; the full search decides otherwise)."""
    cdef int start = d.prox[p], opp = 1 - p, r0, s, r, sil = d.res[p][SILVER]
    cdef uint32_t ok = (1u << NPOL) - 1, m
    if start < 0:
        return 0
    ok &= ~(1u << start) & ~(1u << g.capital[opp])
    if d.prox[opp] >= 0:
        ok &= ~(1u << d.prox[opp])
    r0 = g.preg[start]
    if r0 >= 0 and d.hop[r0][opp] <= sil and g.reg_poleis[r0] & ok:
        return 1
    m = g.portmask[start]
    while m:
        s = lowbit(m)
        m &= m - 1
        if d.gal[s][opp] <= sil and g.sea_poleis[s] & ok:
            return 1
    if r0 >= 0 and not (g.sea_only >> r0) & 1:
        m = g.land_adj[r0] & ~g.sea_only
        while m:
            r = lowbit(m)
            m &= m - 1
            if d.hop[r0][opp] + d.hop[r][opp] <= sil and g.reg_poleis[r] & ok:
                return 1
    return 0


cdef int civil_cost(const PolisData* d, const Static* g, int p) noexcept nogil:
    """Silver for a civil war where p's proxenos stands, or -1 if not possible (spec 5.11)."""
    cdef int pol = d.prox[p], n
    if pol < 0 or d.owner[pol] == p or pol == g.capital[1 - p]:
        return -1
    n = g.base[pol] if d.owner[pol] < 0 else d.pop[pol]
    if d.cubes[p] < n or d.discs[p] < 1:
        return -1
    return 2 * n if d.owner[pol] < 0 else 3 * n


cdef int feasible(const PolisData* d, const Static* g, int p, int t) noexcept nogil:
    """Does action type t have at least one complete legal line for p now?"""
    cdef int buf[64]
    cdef int c
    if t == T_TRAIN:
        return gen_train_polis(d, g, p, buf) > 0
    if t == T_BUILD:
        return gen_build_polis(d, g, p, buf) > 0
    if t == T_HIRE:
        return gen_hire_polis(d, g, p, buf) > 0
    if t == T_DEVELOP:
        return gen_dev_tile(d, g, p, buf) > 0
    if t == T_MOVE_HOP or t == T_MOVE_GAL:
        return any_move_dest(d, g, p, t)
    if t == T_SIEGE:
        return gen_siege(d, g, p, buf) > 0
    if t == T_TRIBUTE:
        return gen_tribute(d, g, p, buf) > 0
    if t == T_TRADE:
        return gen_trade_cell(d, g, p, buf) > 0
    if t == T_PROXENOS:
        return proxenos_quick(d, g, p) or gen_proxenos(d, g, p, buf) > 0
    if t == T_CIVIL:
        c = civil_cost(d, g, p)
        return c >= 0 and c <= d.res[p][SILVER]
    return 0


cdef inline int uses_resource(int t, int r) noexcept nogil:
    """Could paying one r as surcharge change whether action type t is possible?"""
    if t == T_MOVE_HOP or t == T_MOVE_GAL or t == T_SIEGE or t == T_TRIBUTE:
        return 0
    if t == T_TRAIN:
        return r == IRON or r == SILVER
    if t == T_BUILD or t == T_HIRE:
        return r == WOOD or r == SILVER
    if t == T_PROXENOS or t == T_CIVIL:
        return r == SILVER
    if t == T_TRADE:
        return r != WHEAT
    return 1


cdef int feasible_after_surcharge(PolisData* d, const Static* g, int p, int t, int r) noexcept nogil:
    """Assumes feasible(t) holds without the surcharge."""
    cdef int ok
    if d.res[p][r] < 1:
        return 0
    if not uses_resource(t, r):
        return 1
    d.res[p][r] -= 1
    ok = feasible(d, g, p, t)
    d.res[p][r] += 1
    return ok


cdef int gen_food(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, pol, demand = 0, deficit
    for pol in range(NPOL):
        if d.owner[pol] == p:
            demand += d.pop[pol]
    deficit = demand - d.res[p][WHEAT]
    if d.prestige[p] >= deficit:
        out[n] = A_STOP
        n += 1
    for pol in range(NPOL):
        if d.owner[pol] == p and pol != g.capital[p]:
            out[n] = A_RELEASE + pol
            n += 1
    return n


cdef int gen_growth(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 1, pol
    out[0] = A_STOP
    if d.res[p][WHEAT] < 1 or d.cubes[p] < 1:
        return 0
    for pol in range(NPOL):
        if d.owner[pol] == p and d.grown[pol] < g.mgrow[pol] and d.pop[pol] < g.mpop[pol]:
            out[n] = A_GROW + pol
            n += 1
    return n if n > 1 else 0


cdef int has_non_capital(const PolisData* d, const Static* g, int p) noexcept nogil:
    cdef int pol
    for pol in range(NPOL):
        if d.owner[pol] == p and pol != g.capital[p]:
            return 1
    return 0


cdef int gen_phoros(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    cdef int n = 0, k
    if not has_non_capital(d, g, p) or d.prestige[p] < 1:
        return 0
    for k in range(3):
        if d.prestige[p] >= k:
            out[n] = A_PHOROS + k
            n += 1
    return n


cdef int gen_action(PolisData* d, const Static* g, int* out) noexcept nogil:
    cdef int p = d.active, n = 0, t, r, ok
    out[n] = A_PASS
    n += 1
    if d.prox[p] == CAPTURED and d.res[p][SILVER] >= 2:
        out[n] = A_RANSOM
        n += 1
    cdef int solo = d.passed[1 - p]
    if (solo and d.solo_acts >= g.turn_cap) or (not solo and d.turns[p] > g.turn_cap):
        return n                                      # engine safety cap: forced pass (spec 11.3)
    for t in range(1, 12):
        if (d.blocked[p] >> t) & 1:
            continue
        if solo:
            ok = 0
            if not feasible(d, g, p, t):              # paying can only make it harder
                continue
            for r in range(5):
                if feasible_after_surcharge(d, g, p, t, r):
                    ok = 1
                    break
        else:
            if d.acts == 1 and t == d.first_type:
                continue
            ok = feasible(d, g, p, t)
        if ok:
            out[n] = A_START + t - 1
            n += 1
    return n


cdef int units_in_battle(const PolisData* d, const Static* g, int p) noexcept nogil:
    return units(d, g, d.b_area, p)


cdef int gen_attack(const PolisData* d, int* out) noexcept nogil:
    cdef int n = 0, k, i, j
    cdef int a = d.b_att
    for k in range(45):
        i = PAIR_I[k]
        j = PAIR_J[k]
        if d.hand[a][i] > 0 and d.hand[a][j] > (1 if i == j else 0):
            out[n] = A_ATTACK + k
            n += 1
    return n


cdef int gen_defend(const PolisData* d, int* out) noexcept nogil:
    cdef int n = 0, i, j
    cdef int q = 1 - d.b_att
    for i in range(9):
        if d.hand[q][i] < 1:
            continue
        for j in range(9):
            if d.hand[q][j] < (2 if i == j else 1):
                continue
            if d.a1 == d.a2 and j < i:
                continue                              # same attacking cards: the assignment order is moot
            out[n] = A_DEFEND + 9 * i + j
            n += 1
    return n


cdef int legal(PolisData* d, const Static* g, int* out) noexcept nogil:
    cdef int p = d.active, n = 0, k, lo, hi, t
    cdef int ph = d.phase
    if ph == PH_ACTION:
        return gen_action(d, g, out)
    if ph == PH_SURCHARGE:                            # feasible(cur) held when the action was chosen
        for k in range(5):
            if feasible_after_surcharge(d, g, p, d.cur, k):
                out[n] = A_SURCH + k
                n += 1
        return n
    if ph == PH_TRAIN_POLIS:
        return gen_train_polis(d, g, p, out)
    if ph == PH_TRAIN_COUNT:
        for k in range(1, train_max(d, g, p, d.sel_polis) + 1):
            out[n] = A_COUNT + k
            n += 1
        return n
    if ph == PH_BUILD_POLIS:
        return gen_build_polis(d, g, p, out)
    if ph == PH_BUILD_COUNT:
        return gen_build_count(d, g, p, out)
    if ph == PH_HIRE_POLIS:
        return gen_hire_polis(d, g, p, out)
    if ph == PH_HIRE_COUNT:
        hi = imin(imin(d.pop[d.sel_polis] - 1, d.msup[p]), build_pay(d, p))
        for k in range(1, hi + 1):
            out[n] = A_COUNT + k
            n += 1
        return n
    if ph == PH_PAY_SPLIT:
        lo = imax(0, d.pay_n - d.res[p][d.pay_res])
        hi = imin(d.pay_n, d.res[p][SILVER])
        for k in range(lo, hi + 1):
            out[n] = A_SILVER + k
            n += 1
        return n
    if ph == PH_DEV_TILE:
        return gen_dev_tile(d, g, p, out)
    if ph == PH_DEV_POLIS:
        return gen_dev_polis(d, g, p, d.sel_tile, out)
    if ph == PH_DEV_MASK:
        t = d.sel_tile
        for k in range(1 << g.tncomp[t]):
            if mask_payable(d, g, p, t, k):
                out[n] = A_MASK + k
                n += 1
        return n
    if ph == PH_MOVE_DEST:
        return gen_move_dest(d, g, p, d.cur, out)
    if ph == PH_MOVE_FROM:
        return gen_move_from(d, g, p, out)
    if ph == PH_SIEGE_TARGET:
        return gen_siege(d, g, p, out)
    if ph == PH_TRIB_REGION:
        return gen_tribute(d, g, p, out)
    if ph == PH_TRIB_ALLOC:
        return gen_trib_alloc(d, g, p, out)
    if ph == PH_TRADE_CELL:
        return gen_trade_cell(d, g, p, out)
    if ph == PH_TRADE_PAY:
        return gen_trade_pay(d, g, p, out)
    if ph == PH_PROX_DEST:
        return gen_proxenos(d, g, p, out)
    if ph == PH_BATTLE_ORDER:
        k = 0
        while k < g.nr + g.ns:
            if (d.pending >> k) & 1:
                out[n] = A_AREA + k
                n += 1
            k += 1
        return n
    if ph == PH_RETREAT:
        out[0] = A_RETREAT
        out[1] = A_STAY
        return 2
    if ph == PH_ATTACK:
        return gen_attack(d, out)
    if ph == PH_DEFEND:
        return gen_defend(d, out)
    if ph == PH_FOOD:
        return gen_food(d, g, p, out)
    if ph == PH_GROWTH:
        return gen_growth(d, g, p, out)
    if ph == PH_PHOROS:
        return gen_phoros(d, g, p, out)
    if ph == PH_TILE_REMOVE:
        for k in range(NTILE):
            if d.tile_where[k] == TW_DISPLAY:
                out[n] = A_TILE + k
                n += 1
        return n
    return 0


# ---- chance ------------------------------------------------------------------------------------------------------
cdef inline int is_chance_phase(int ph) noexcept nogil:
    return (ph == PH_SETUP_TILES or ph == PH_EVENT or ph == PH_SIEGE_ROLL or ph == PH_TRADE_ROLL
            or ph == PH_DEAL or ph == PH_TILE_DRAW)


cdef int chance(const PolisData* d, const Static* g, int* acts, double* probs) noexcept nogil:
    cdef int n = 0, k, total = 0
    cdef int ph = d.phase
    if ph == PH_SETUP_TILES or ph == PH_TILE_DRAW:
        for k in range(NTILE):
            if d.tile_where[k] == TW_PILE:
                acts[n] = C_TILE + k
                n += 1
        for k in range(n):
            probs[k] = 1.0 / n
        return n
    if ph == PH_EVENT:
        total = 0                                     # the next letter to deal: alpha, then sigma, then omega
        while total < 3 and d.ev_stack[total] >= 0:
            total += 1
        for k in range(g.nev):
            if g.ev_letter[k] == total:
                acts[n] = C_EVENT + k
                n += 1
        for k in range(n):
            probs[k] = 1.0 / n
        return n
    if ph == PH_SIEGE_ROLL or (ph == PH_TRADE_ROLL and d.rise_mask):
        for k in range(4):
            acts[k] = C_D4 + k
            probs[k] = 0.25
        return 4
    if ph == PH_TRADE_ROLL:
        for k in range(4):
            acts[k] = C_DROP + k
            probs[k] = DROP_P[k]
        return 4
    if ph == PH_DEAL:
        for k in range(NK):
            total += d.deck[k]
        for k in range(NK):
            if d.deck[k] > 0:
                acts[n] = C_CARD + k
                probs[n] = <double>d.deck[k] / total
                n += 1
        return n
    return 0


# ---- flow --------------------------------------------------------------------------------------------------------
cdef void begin_turn(PolisData* d, int p) noexcept nogil:
    d.active = p
    d.acts = 0
    d.first_type = -1
    d.phase = PH_ACTION
    if not d.passed[1 - p]:
        d.turns[p] += 1


cdef void apply_effect(PolisData* d, const Static* g, int p, int op, int a, int b) noexcept nogil:
    """One event effect for player p (the data-driven vocabulary of data/events.json)."""
    cdef int k, L = limit(d)
    if op == EFF_RESOURCE:
        d.res[p][a] = imax(0, imin(g.rcap, d.res[p][a] + b))
    elif op == EFF_PRESTIGE:
        if b >= 0:
            gain_prestige(d, g, p, b)
        else:
            pay_prestige(d, p, -b)
    elif op == EFF_POPULATION:
        if d.owner[a] != p:
            return
        if b >= 0:
            k = imin(imin(b, g.mpop[a] - d.pop[a]), d.cubes[p])
            d.pop[a] += k
            d.cubes[p] -= k
        else:
            k = imin(-b, d.pop[a])
            d.pop[a] -= k
            d.cubes[p] += k
            if d.pop[a] == 0:                       # revolt: the polis turns neutral (L407)
                d.owner[a] = -1
                d.discs[p] += 1
    elif op == EFF_UNITS:
        if b >= 0:
            k = imin(imin(b, L - units(d, g, a, p)), d.cubes[p])
            if k > 0:
                if a < g.nr:
                    d.hop[a][p] += k
                else:
                    d.gal[a - g.nr][p] += k
                d.cubes[p] -= k
        else:
            k = imin(-b, units(d, g, a, p))
            while k > 0:
                remove_unit(d, g, a, p)
                k -= 1
    elif op == EFF_FIRST:
        d.first_override = p
    elif op == EFF_STACKING:
        d.stack_delta = b
    elif op == EFF_BLOCK:
        d.blocked[p] |= <unsigned short>(1 << a)


cdef void resolve_event(PolisData* d, const Static* g, int e) noexcept nogil:
    """The revealer (more prestige; round 1 or a tie: Athens) applies its side first (L165)."""
    cdef int rev = 0, k, who, i, first
    d.event_cur = e
    if d.round > 0 and d.prestige[1] > d.prestige[0]:
        rev = 1
    for k in range(2):
        who = rev if k == 0 else 1 - rev
        for i in range(g.ev_n[e]):
            if g.ev_side[e][i] == who or g.ev_side[e][i] == 2:
                apply_effect(d, g, who, g.ev_op[e][i], g.ev_a[e][i], g.ev_b[e][i])
                if d.phase == PH_OVER:
                    return
    # first player: less prestige; round 1 or a tie: Sparta (L167)
    if d.first_override >= 0:
        first = d.first_override
    elif d.round > 0 and d.prestige[0] < d.prestige[1]:
        first = 0
    else:
        first = 1
    begin_turn(d, first)


cdef void start_round(PolisData* d, const Static* g) noexcept nogil:
    """Reveal the top of the event stack and resolve it; then the first turn (L158-167)."""
    d.passed[0] = d.passed[1] = 0
    d.first_passer = d.last_passer = -1
    d.turns[0] = d.turns[1] = 0
    d.solo_acts = 0
    d.ev_shown = d.round + 1
    resolve_event(d, g, d.ev_stack[d.round])


# battles ------------------------------------------------------------------------------------------------------
cdef void open_window(PolisData* d, const Static* g, int first) noexcept nogil:
    """Retreat window: the next attacker declares first (ASSUMED A11); a player at 0 prestige cannot retreat."""
    d.ret_who[0] = first
    d.ret_who[1] = 1 - first
    d.ret_cursor = 0
    advance_window(d, g)


cdef void advance_window(PolisData* d, const Static* g) noexcept nogil:
    cdef int p, q, total = 0, k
    while d.ret_cursor < 2:
        p = d.ret_who[d.ret_cursor]
        if d.prestige[p] >= 1:
            d.phase = PH_RETREAT
            d.active = p
            return
        d.ret_cursor += 1
    # nobody retreated: deal (first window) or refill (L600, L606)
    if d.b_initial:
        d.b_initial = 0
        d.need[0] = units_in_battle(d, g, 0)
        d.need[1] = units_in_battle(d, g, 1)
    else:
        for k in range(NK):
            total += d.deck[k]
        if total < 2 + (2 - d.b_lost):
            end_battle(d, g)
            return
        q = 1 - d.b_att
        d.need[d.b_att] = 2
        d.need[q] = 2 - d.b_lost
        d.b_att = q                                   # roles alternate (L581, L602)
    d.b_lost = 0
    start_deal(d, g)


cdef void start_deal(PolisData* d, const Static* g) noexcept nogil:
    if d.need[0] > 0 or d.need[1] > 0:
        d.phase = PH_DEAL
    else:
        d.phase = PH_ATTACK
        d.active = d.b_att


cdef void start_battle(PolisData* d, const Static* g, int area) noexcept nogil:
    cdef int k
    d.pending &= ~(1u << area)
    d.b_area = area
    d.b_att = 1 if area < g.nr else 0                # Sparta attacks first on land, Athens at sea (L583)
    d.b_lost = 0
    d.b_rounds = 0
    d.b_initial = 1
    d.a1 = d.a2 = -1
    for k in range(NK):
        d.deck[k] = g.kcount[k]                      # a full reshuffle for every battle (L579)
        d.hand[0][k] = d.hand[1][k] = 0
        d.disc[k] = 0
    d.need[0] = d.need[1] = 0
    open_window(d, g, d.b_att)


cdef void next_battle(PolisData* d, const Static* g) noexcept nogil:
    if d.pending == 0:
        after_check(d, g)
    elif popc(d.pending) == 1:
        start_battle(d, g, lowbit(d.pending))
    else:
        d.phase = PH_BATTLE_ORDER
        d.active = d.chooser


cdef void end_battle(PolisData* d, const Static* g) noexcept nogil:
    cdef int k
    for k in range(NK):                               # hands are discarded (ASSUMED spec 6.6)
        d.hand[0][k] = d.hand[1][k] = 0
        d.deck[k] = 0
        d.disc[k] = 0
    d.need[0] = d.need[1] = 0
    d.b_area = -1
    d.a1 = d.a2 = -1
    next_battle(d, g)


cdef void battle_check(PolisData* d, const Static* g, int ctx, int chooser) noexcept nogil:
    """Every area with 8 or more cubes fights once (L171, L575); the chooser orders them."""
    cdef int a
    d.check_ctx = ctx
    d.chooser = chooser
    d.pending = 0
    # (both sides need 2+ units to play a card pair; only an event raising the stacking limit could break that)
    for a in range(g.nr):
        if d.hop[a][0] + d.hop[a][1] >= 8 and d.hop[a][0] >= 2 and d.hop[a][1] >= 2:
            d.pending |= 1u << a
    for a in range(g.ns):
        if d.gal[a][0] + d.gal[a][1] >= 8 and d.gal[a][0] >= 2 and d.gal[a][1] >= 2:
            d.pending |= 1u << (g.nr + a)
    next_battle(d, g)


cdef inline int card_match(const Static* g, int a, int b) noexcept nogil:
    """MATCH of spec 6.3: Salpinktes never matches, Misthophoroi joker, else equal units."""
    cdef int ua = g.kunit[a], ub = g.kunit[b]
    if ua == U_S or ub == U_S:
        return 0
    if ub == U_M or ua == U_M:
        return 1
    return ua == ub


cdef void resolve_exchange(PolisData* d, const Static* g, int x, int y) noexcept nogil:
    cdef int att = d.b_att, q = 1 - att, gain = 0, lost = 0, k, a, b
    for k in range(2):
        a = d.a1 if k == 0 else d.a2
        b = x if k == 0 else y
        if card_match(g, a, b):
            gain += imax(0, g.kstr[a] - g.kstr[b])
        else:
            lost += 1
            gain += g.kstr[a]
        d.disc[a] += 1
        d.disc[b] += 1
        d.hand[q][b] -= 1
    for k in range(lost):
        remove_unit(d, g, d.b_area, q)
    d.b_lost = lost
    d.b_rounds += 1
    d.a1 = d.a2 = -1
    if gain >= 0:
        gain_prestige(d, g, att, gain)
    else:
        pay_prestige(d, att, -gain)                   # an attacking Salpinktes costs 1 (L598)
        if d.phase == PH_OVER:
            return
    if units_in_battle(d, g, q) < 2:
        end_battle(d, g)
    else:
        open_window(d, g, q)


# end of round -----------------------------------------------------------------------------------------------------
cdef void final_scoring(PolisData* d) noexcept nogil:
    d.winner = W_SCORE
    d.phase = PH_OVER


cdef int zero_check(PolisData* d) noexcept nogil:
    """After the end-of-round steps, exactly 0 prestige loses (L698); both at 0: a draw (ASSUMED A22)."""
    if d.prestige[0] == 0 and d.prestige[1] == 0:
        d.winner = W_DRAW
        d.phase = PH_OVER
        return 1
    if d.prestige[0] == 0:
        lose(d, 0)
        return 1
    if d.prestige[1] == 0:
        lose(d, 1)
        return 1
    return 0


cdef int food_demand(const PolisData* d, int p) noexcept nogil:
    cdef int pol, s = 0
    for pol in range(NPOL):
        if d.owner[pol] == p:
            s += d.pop[pol]
    return s


cdef void release_polis(PolisData* d, int p, int pol) noexcept nogil:
    d.cubes[p] += d.pop[pol]
    d.pop[pol] = 0
    d.owner[pol] = -1
    d.discs[p] += 1


cdef int food_auto(PolisData* d, const Static* g, int p) noexcept nogil:
    """Feed p's poleis if no choice is left; returns 1 when p must decide (release or pay prestige)."""
    cdef int deficit = food_demand(d, p) - d.res[p][WHEAT]
    if deficit <= 0:
        d.res[p][WHEAT] -= food_demand(d, p)
        return 0
    if has_non_capital(d, g, p):
        return 1
    # only the capital is left: wheat, then prestige; failing that, p loses (L700)
    d.res[p][WHEAT] = 0
    pay_prestige(d, p, deficit)
    return 0


cdef void eor_advance(PolisData* d, const Static* g) noexcept nogil:
    cdef int p, k, pol, m, best, c, order0 = d.first_passer if d.first_passer >= 0 else 1
    cdef int buf[64]
    while True:
        p = order0 if d.eor_idx == 0 else 1 - order0
        if d.eor_step == 1:                           # projects complete (L626)
            for k in range(NTILE):
                if d.tile_where[k] >= 0 and not d.tile_done[k]:
                    d.tile_done[k] = 1
                    if d.owner[d.tile_where[k]] >= 0:
                        gain_prestige(d, g, d.owner[d.tile_where[k]], g.tround[k])
            d.eor_step = 2
            d.eor_idx = 0
        elif d.eor_step == 2:                         # food (L636)
            if d.eor_idx == 2:
                d.eor_step = 3
                d.eor_idx = 0
                for pol in range(NPOL):
                    d.grown[pol] = 0
                continue
            if food_auto(d, g, p):
                d.phase = PH_FOOD
                d.active = p
                return
            if d.phase == PH_OVER:
                return
            d.eor_idx += 1
        elif d.eor_step == 3:                         # growth (L644)
            if d.eor_idx == 2:
                d.eor_step = 4
                continue
            if gen_growth(d, g, p, buf) > 0:
                d.phase = PH_GROWTH
                d.active = p
                return
            d.eor_idx += 1
        elif d.eor_step == 4:                         # megalopolis (L654)
            for pol in range(NPOL):
                if d.owner[pol] >= 0 and d.pop[pol] > g.base[pol]:
                    gain_prestige(d, g, d.owner[pol], 1)
            if d.round == 2:                          # omega ends here (L662, L701)
                if not zero_check(d):
                    final_scoring(d)
                return
            d.eor_step = 5
        elif d.eor_step == 5:                         # spoilage: ceil(x/2) of wine and wheat (L664)
            for k in range(2):
                d.res[k][WINE] = (d.res[k][WINE] + 1) // 2
                d.res[k][WHEAT] = (d.res[k][WHEAT] + 1) // 2
            d.eor_step = 6
            d.eor_idx = 0
        elif d.eor_step == 6:                         # phoros (L674)
            if d.eor_idx == 2:
                d.eor_step = 7
                continue
            if gen_phoros(d, g, p, buf) > 1:
                d.phase = PH_PHOROS
                d.active = p
                return
            d.eor_idx += 1
        elif d.eor_step == 7:                         # preparation (L682)
            for k in range(g.nr):
                if d.trib[k] >= 0:
                    d.discs[d.trib[k]] += 1
                    d.trib[k] = -1
            for pol in range(NPOL):
                for k in range(2):
                    d.discs[k] += d.siege[pol][k]
                    d.siege[pol][k] = 0
            for m in range(g.nm):                     # one black cube leaves each market, lowest rate first
                best = -1
                for c in range(g.ncell):
                    if g.cmarket[c] == m and d.cell_block[c] and (best < 0 or g.crate[c] < g.crate[best]):
                        best = c
                if best >= 0:
                    d.cell_block[best] = 0
            for c in range(g.ncell):
                if d.cell_occ[c] >= 0:
                    d.mport[d.cell_occ[c]] += 1
                    d.cell_occ[c] = -1
            for k in range(NTILE):
                if d.tile_where[k] == TW_DISPLAY:
                    d.tile_where[k] = TW_REMOVED
            d.started = 0
            d.stack_delta = 0
            d.blocked[0] = d.blocked[1] = 0
            d.first_override = -1
            d.draws_left = g.disp[d.round + 1]
            d.eor_step = 8
        elif d.eor_step == 8:                         # refill the display
            c = 0
            for k in range(NTILE):
                if d.tile_where[k] == TW_PILE:
                    c += 1
            if d.draws_left > 0 and c > 0:
                if c <= d.draws_left:                 # the rest of the pile: no randomness in content
                    for k in range(NTILE):
                        if d.tile_where[k] == TW_PILE:
                            d.tile_where[k] = TW_DISPLAY
                    d.draws_left = 0
                else:
                    d.phase = PH_TILE_DRAW
                    return
            d.eor_step = 9
        elif d.eor_step == 9:                         # least prestige removes one (tie: first passer)
            c = 0
            for k in range(NTILE):
                if d.tile_where[k] == TW_DISPLAY:
                    c += 1
            d.eor_step = 10
            if c > 1:
                if d.prestige[0] < d.prestige[1]:
                    d.active = 0
                elif d.prestige[1] < d.prestige[0]:
                    d.active = 1
                else:
                    d.active = order0
                d.phase = PH_TILE_REMOVE
                return
        else:
            if zero_check(d):
                return
            d.round += 1
            start_round(d, g)
            return


cdef void start_eor(PolisData* d, const Static* g) noexcept nogil:
    d.eor_step = 1
    d.eor_idx = 0
    eor_advance(d, g)


cdef void after_check(PolisData* d, const Static* g) noexcept nogil:
    cdef int p = d.active, q
    if d.check_ctx == CTX_ROUND:
        start_eor(d, g)
        return
    # end of a normal turn: the opponent moves next, unless it has passed (then the solo player goes on)
    p = d.chooser
    q = 1 - p
    if not d.passed[q]:
        begin_turn(d, q)
    elif not d.passed[p]:
        begin_turn(d, p)
    else:
        battle_check(d, g, CTX_ROUND, d.last_passer)


cdef void end_turn(PolisData* d, const Static* g) noexcept nogil:
    battle_check(d, g, CTX_TURN, d.active)


cdef void finish_action(PolisData* d, const Static* g) noexcept nogil:
    if d.phase == PH_OVER:
        return
    if d.passed[1 - d.active]:                        # solo phase: act again, no battle checks (L175)
        d.solo_acts += 1
        d.phase = PH_ACTION
        return
    d.acts += 1
    if d.acts >= 2:
        end_turn(d, g)
    else:
        d.phase = PH_ACTION


cdef void do_pass(PolisData* d, const Static* g) noexcept nogil:
    cdef int p = d.active
    d.passed[p] = 1
    d.last_passer = p
    if d.first_passer < 0:
        d.first_passer = p
        end_turn(d, g)                                # the passer's own turn still ends with a check (L175)
    else:
        battle_check(d, g, CTX_ROUND, p)              # all battles fire; the last passer orders (ASSUMED A14)


# payments -----------------------------------------------------------------------------------------------------
cdef void complete_payment(PolisData* d, const Static* g, int silver) noexcept nogil:
    """Pay pay_n units as (pay_n - silver) pay_res + silver silver, then carry out the pending action."""
    cdef int p = d.active, pol = d.sel_polis, n = d.pay_n, r
    d.res[p][d.pay_res] -= n - silver
    d.res[p][SILVER] -= silver
    if d.cur == T_TRAIN:
        r = g.preg[pol]
        d.pop[pol] -= n
        d.hop[r][p] += n
    elif d.cur == T_BUILD:
        d.pop[pol] -= n
        d.gal[g.port[pol][0]][p] += d.sel_n
        if d.sel_n2 > 0:
            d.gal[g.port[pol][1]][p] += d.sel_n2
    elif d.cur == T_HIRE:
        d.pop[pol] -= n
        d.cubes[p] += n
        d.msup[p] -= n
        d.mport[p] += n
    finish_action(d, g)


cdef void start_payment(PolisData* d, const Static* g, int res, int n) noexcept nogil:
    cdef int p = d.active
    cdef int lo = imax(0, n - d.res[p][res]), hi = imin(n, d.res[p][SILVER])
    d.pay_res = res
    d.pay_n = n
    if lo == hi:
        complete_payment(d, g, lo)
    else:
        d.phase = PH_PAY_SPLIT


cdef void enter_action(PolisData* d, const Static* g, int t) noexcept nogil:
    cdef int p = d.active, cost, pol, n
    d.cur = t
    d.sel_polis = d.sel_n = d.sel_n2 = d.sel_tile = d.sel_area = d.sel_cell = -1
    d.moved = 0
    if t == T_TRAIN:
        d.phase = PH_TRAIN_POLIS
    elif t == T_BUILD:
        d.phase = PH_BUILD_POLIS
    elif t == T_HIRE:
        d.phase = PH_HIRE_POLIS
    elif t == T_DEVELOP:
        d.phase = PH_DEV_TILE
    elif t == T_MOVE_HOP or t == T_MOVE_GAL:
        d.phase = PH_MOVE_DEST
    elif t == T_SIEGE:
        d.phase = PH_SIEGE_TARGET
    elif t == T_TRIBUTE:
        d.phase = PH_TRIB_REGION
    elif t == T_TRADE:
        d.phase = PH_TRADE_CELL
    elif t == T_PROXENOS:
        d.phase = PH_PROX_DEST
    else:                                             # civil war: the polis is where the proxenos stands (L544)
        pol = d.prox[p]
        cost = civil_cost(d, g, p)
        n = g.base[pol] if d.owner[pol] < 0 else d.pop[pol]
        d.res[p][SILVER] -= cost
        if d.owner[pol] == 1 - p:
            d.cubes[1 - p] += d.pop[pol]
            d.discs[1 - p] += 1
        d.owner[pol] = p
        d.pop[pol] = n
        d.cubes[p] -= n
        d.discs[p] -= 1
        gain_prestige(d, g, p, n)
        finish_action(d, g)


cdef void siege_roll(PolisData* d, const Static* g, int roll) noexcept nogil:
    cdef int p = d.active, opp = 1 - p, pol = d.sel_polis, r = g.preg[pol], n
    if roll + d.siege[pol][p] >= g.base[pol]:        # success (L411)
        if d.owner[pol] == opp:
            n = d.pop[pol]
            d.cubes[opp] += n
            d.discs[opp] += 1
        else:
            n = g.base[pol]
        d.pop[pol] = n
        d.cubes[p] -= n
        d.owner[pol] = p
        d.discs[p] -= 1
        d.discs[p] += d.siege[pol][p]
        d.siege[pol][p] = 0
        gain_prestige(d, g, p, g.base[pol])
        if d.prox[opp] == pol:
            d.prox[opp] = CAPTURED
    else:                                             # failure (L407)
        d.siege[pol][p] += 1
        d.discs[p] -= 1
        if d.owner[pol] == opp:
            d.pop[pol] -= 1
            d.cubes[opp] += 1
            if d.pop[pol] == 0:
                d.owner[pol] = -1
                d.discs[opp] += 1
        d.hop[r][p] -= 1
        d.cubes[p] += 1
        siege_cleanup(d, g, p, r)
    finish_action(d, g)


cdef void apply_action(PolisData* d, const Static* g, int a) noexcept nogil:
    cdef int p = d.active, ph = d.phase, k, r, pol, t, c, opp = 1 - p, x = 0, y
    cdef int cost[NPOL]
    cdef int buf[64]
    if ph == PH_SETUP_TILES or ph == PH_TILE_DRAW:
        d.tile_where[a - C_TILE] = TW_DISPLAY
        d.draws_left -= 1
        if d.draws_left <= 0:
            if ph == PH_SETUP_TILES:
                d.phase = PH_EVENT
            else:
                d.eor_step = 9
                eor_advance(d, g)
        return
    if ph == PH_EVENT:
        k = g.ev_letter[a - C_EVENT]
        d.ev_stack[k] = a - C_EVENT
        if k == 2:
            start_round(d, g)
        return
    if ph == PH_SIEGE_ROLL:
        siege_roll(d, g, a - C_D4 + 1)
        return
    if ph == PH_TRADE_ROLL:
        if d.rise_mask:                               # silver paid: each listed good's price rises by a d4 (L500)
            r = lowbit(d.rise_mask)
            d.ppos[r] = imax(0, d.ppos[r] - (a - C_D4 + 1))
            d.rise_mask &= d.rise_mask - 1
            if d.rise_mask == 0:
                finish_action(d, g)
        else:                                         # goods paid: the price falls by min(2d4) (L498)
            d.ppos[d.pay_res] = imin(7, d.ppos[d.pay_res] + (a - C_DROP + 1))
            finish_action(d, g)
        return
    if ph == PH_DEAL:
        k = 0 if d.need[0] > 0 else 1
        d.hand[k][a - C_CARD] += 1
        d.deck[a - C_CARD] -= 1
        d.need[k] -= 1
        start_deal(d, g)
        return
    if ph == PH_ACTION:
        if a == A_PASS:
            do_pass(d, g)
        elif a == A_RANSOM:                           # free; 2 silver to the opponent, home to the capital (L413)
            d.res[p][SILVER] -= 2
            gain_res(d, g, opp, SILVER, 2)
            d.prox[p] = g.capital[p]
        else:
            t = a - A_START + 1
            if d.passed[opp]:
                d.cur = t
                d.phase = PH_SURCHARGE
            else:
                if d.acts == 0:
                    d.first_type = t
                enter_action(d, g, t)
        return
    if ph == PH_SURCHARGE:
        d.res[p][a - A_SURCH] -= 1
        enter_action(d, g, d.cur)
        return
    if ph == PH_TRAIN_POLIS or ph == PH_HIRE_POLIS:
        d.sel_polis = a - A_POLIS
        d.phase = PH_TRAIN_COUNT if ph == PH_TRAIN_POLIS else PH_HIRE_COUNT
        return
    if ph == PH_TRAIN_COUNT:
        start_payment(d, g, IRON, a - A_COUNT)
        return
    if ph == PH_HIRE_COUNT:
        start_payment(d, g, WOOD, a - A_COUNT)
        return
    if ph == PH_BUILD_POLIS:
        d.sel_polis = a - A_POLIS
        d.sel_n = -1
        d.sel_n2 = 0
        d.phase = PH_BUILD_COUNT
        return
    if ph == PH_BUILD_COUNT:
        pol = d.sel_polis
        if d.sel_n < 0:
            d.sel_n = a - A_COUNT
            if g.nports[pol] > 1:
                c = gen_build_count(d, g, p, buf)
                if c > 1 or (c == 1 and buf[0] != A_COUNT):
                    return                            # Corinth: now the count for its second sea
        else:
            d.sel_n2 = a - A_COUNT
        start_payment(d, g, WOOD, d.sel_n + d.sel_n2)
        return
    if ph == PH_PAY_SPLIT:
        complete_payment(d, g, a - A_SILVER)
        return
    if ph == PH_DEV_TILE:
        d.sel_tile = a - A_TILE
        d.phase = PH_DEV_POLIS
        return
    if ph == PH_DEV_POLIS:
        d.sel_polis = a - A_POLIS
        d.phase = PH_DEV_MASK
        c = 0
        t = d.sel_tile
        for k in range(1 << g.tncomp[t]):
            if mask_payable(d, g, p, t, k):
                c += 1
                x = k
        if c == 1:
            apply_action(d, g, A_MASK + x)
        return
    if ph == PH_DEV_MASK:
        t = d.sel_tile
        for k in range(g.tncomp[t]):
            r = SILVER if ((a - A_MASK) >> k) & 1 else g.tcres[t][k]
            d.res[p][r] -= g.tcamt[t][k]
        d.tile_where[t] = d.sel_polis
        d.tile_done[t] = 0
        d.started |= 1u << d.sel_polis
        finish_action(d, g)
        return
    if ph == PH_MOVE_DEST:
        pay_prestige(d, p, 1)
        d.sel_area = a - A_AREA
        d.moved = 0
        d.phase = PH_MOVE_FROM
        return
    if ph == PH_MOVE_FROM:
        if a == A_STOP:
            finish_action(d, g)
            return
        k = a - A_AREA
        if k < g.nr:
            d.hop[k][p] -= 1
            d.hop[d.sel_area][p] += 1
            siege_cleanup(d, g, p, k)
        else:
            d.gal[k - g.nr][p] -= 1
            d.gal[d.sel_area - g.nr][p] += 1
        d.moved += 1
        if gen_move_from(d, g, p, buf) == 1:          # only STOP is left
            finish_action(d, g)
        return
    if ph == PH_SIEGE_TARGET:
        pol = a - A_POLIS
        pay_prestige(d, p, 1)
        if d.owner[pol] < 0 and d.siege[pol][opp]:   # the other besieger's discs go home (L428)
            d.discs[opp] += d.siege[pol][opp]
            d.siege[pol][opp] = 0
        d.sel_polis = pol
        d.phase = PH_SIEGE_ROLL
        return
    if ph == PH_TRIB_REGION:
        r = a - A_AREA
        if r != g.preg[g.capital[p]]:
            pay_prestige(d, p, 1)
        d.sel_area = r
        if g.tcols[r] == 1:
            apply_tribute(d, g, d.hop[r][p])
        elif gen_trib_alloc(d, g, p, buf) == 1:
            apply_tribute(d, g, buf[0] - A_ALLOC)
        else:
            d.phase = PH_TRIB_ALLOC
        return
    if ph == PH_TRIB_ALLOC:
        apply_tribute(d, g, a - A_ALLOC)
        return
    if ph == PH_TRADE_CELL:
        d.sel_cell = a - A_CELL
        if gen_trade_pay(d, g, p, buf) == 1:
            apply_action_pay(d, g, buf[0] - A_PAYRES)
        else:
            d.phase = PH_TRADE_PAY
        return
    if ph == PH_TRADE_PAY:
        apply_action_pay(d, g, a - A_PAYRES)
        return
    if ph == PH_PROX_DEST:
        pol = a - A_POLIS
        proxenos_costs(d, g, p, cost)
        d.res[p][SILVER] -= cost[pol]
        d.prox[p] = pol
        finish_action(d, g)
        return
    if ph == PH_BATTLE_ORDER:
        start_battle(d, g, a - A_AREA)
        return
    if ph == PH_RETREAT:
        if a == A_RETREAT:                            # -1 to the coward, +1 to the other (L604)
            d.prestige[p] -= 1
            gain_prestige(d, g, opp, 1)
            end_battle(d, g)
        else:
            d.ret_cursor += 1
            advance_window(d, g)
        return
    if ph == PH_ATTACK:
        k = a - A_ATTACK
        d.a1 = PAIR_I[k]
        d.a2 = PAIR_J[k]
        d.hand[p][d.a1] -= 1
        d.hand[p][d.a2] -= 1
        d.phase = PH_DEFEND
        d.active = opp
        return
    if ph == PH_DEFEND:
        x = (a - A_DEFEND) // 9
        y = (a - A_DEFEND) % 9
        resolve_exchange(d, g, x, y)
        return
    if ph == PH_FOOD:
        if a == A_STOP:
            k = food_demand(d, p) - d.res[p][WHEAT]
            d.res[p][WHEAT] = 0
            pay_prestige(d, p, k)
            if d.phase == PH_OVER:
                return
        else:
            release_polis(d, p, a - A_RELEASE)
            if food_auto(d, g, p) or d.phase == PH_OVER:
                return
        d.eor_idx += 1
        eor_advance(d, g)
        return
    if ph == PH_GROWTH:
        if a == A_STOP:
            d.eor_idx += 1
        else:
            pol = a - A_GROW
            d.pop[pol] += 1
            d.grown[pol] += 1
            d.cubes[p] -= 1
            d.res[p][WHEAT] -= 1
            if gen_growth(d, g, p, buf) == 0:
                d.eor_idx += 1
        eor_advance(d, g)
        return
    if ph == PH_PHOROS:
        k = a - A_PHOROS                              # 1 prestige -> 1 silver, 2 -> 3 (L680)
        if k > 0:
            d.prestige[p] -= k
            gain_res(d, g, p, SILVER, 1 if k == 1 else 3)
        d.eor_idx += 1
        eor_advance(d, g)
        return
    if ph == PH_TILE_REMOVE:
        d.tile_where[a - A_TILE] = TW_REMOVED
        eor_advance(d, g)
        return


cdef void apply_tribute(PolisData* d, const Static* g, int k0) noexcept nogil:
    """All of p's hoplites go into the columns: k0 in the first, the rest in the second (L454)."""
    cdef int p = d.active, r = d.sel_area, h = d.hop[r][p], k1 = h - k0
    if k0 > 0:
        gain_res(d, g, p, g.tres[r][0], g.tval[r][0][k0 - 1])
    if k1 > 0:
        gain_res(d, g, p, g.tres[r][1], g.tval[r][1][k1 - 1])
    d.trib[r] = p
    d.discs[p] -= 1
    finish_action(d, g)


cdef void apply_action_pay(PolisData* d, const Static* g, int r) noexcept nogil:
    cdef int p = d.active, c = d.sel_cell
    d.res[p][r] -= cell_price(d, g, c, r)
    gain_res(d, g, p, g.cgives[c], g.crate[c])
    d.cell_occ[c] = p
    d.mport[p] -= 1
    if r == SILVER:
        d.pay_res = -1
        d.rise_mask = <signed char>(g.caccept[c] & 7)
        if d.rise_mask == 0:
            finish_action(d, g)
            return
    else:
        d.pay_res = r
        d.rise_mask = 0
    d.phase = PH_TRADE_ROLL


cdef int score_of(const PolisData* d, const Static* g, int p) noexcept nogil:
    """Population on p's poleis + prestige + end-game prestige of completed projects there (L705-711)."""
    cdef int s = d.prestige[p], pol, t
    for pol in range(NPOL):
        if d.owner[pol] == p:
            s += d.pop[pol]
    for t in range(NTILE):
        if d.tile_where[t] >= 0 and d.tile_done[t] and d.owner[d.tile_where[t]] == p:
            s += g.tend[t]
    return s


# ---- the game -------------------------------------------------------------------------------------------------
cdef class PolisGame(Game):
    def __init__(self, dict options):
        from engine.games.polis.data import load_tables
        super().__init__("polis", options, 2, NUM_ACTIONS)
        self.data_dir = options.get("data") or None
        self.tables = load_tables(self.data_dir)
        self._fill(self.tables)

    def _fill(self, t):
        cdef Static* g = &self.st
        cdef int i, j, k
        memset(g, 0, sizeof(Static))
        g.nr = len(t["regions"])
        g.ns = len(t["seas"])
        g.nm = len(t["markets"])
        for i in range(g.nr):
            g.land_adj[i] = t["land_adj"][i]
            g.coast[i] = t["coast"][i]
        for i in range(g.ns):
            g.sea_adj[i] = t["sea_adj"][i]
        g.sea_only = t["sea_only"]
        g.dk_polis, g.dk_a, g.dk_b = t["diolkos"]
        for i in range(NPOL):
            g.preg[i] = t["polis_region"][i]
            g.base[i] = t["base"][i]
            g.mgrow[i] = t["max_growth"][i]
            g.mpop[i] = t["max_pop"][i]
            g.nports[i] = len(t["ports"][i])
            for j, s in enumerate(t["ports"][i]):
                g.port[i][j] = s
            if g.preg[i] >= 0:
                g.reg_poleis[g.preg[i]] |= 1u << i
            for s in t["ports"][i]:
                g.portmask[i] |= 1u << s
                g.sea_poleis[s] |= 1u << i
        for i in range(g.nr):
            for j in range(g.ns):
                if (g.coast[i] >> j) & 1:
                    g.sea_regions[j] |= 1u << i
        for i in range(2):
            g.capital[i] = t["capital"][i]
            g.trade_poleis[i] = t["trade_poleis"][i]
            g.tport[i] = t["trade_port_seas"][i]
        for i in range(g.nm):
            g.mseas[i] = t["market_seas"][i]
            g.mland[i] = t["market_land"][i]
        for i in range(g.nr):
            g.tcols[i] = len(t["trib"][i])
            for j, (res, vals) in enumerate(t["trib"][i]):
                g.tres[i][j] = res
                g.tlen[i][j] = len(vals)
                for k, v in enumerate(vals):
                    g.tval[i][j][k] = v
        g.ncell = len(t["cells"])
        for i, (m, rate, gives, acc) in enumerate(t["cells"]):
            g.cmarket[i] = m
            g.crate[i] = rate
            g.cgives[i] = gives
            g.caccept[i] = acc
        for i in range(3):
            for j in range(8):
                g.price[i][j] = t["price"][i][j]
        for i, (name, mask, comps, rnd, end) in enumerate(t["tiles"]):
            g.tpoleis[i] = mask
            g.tncomp[i] = len(comps)
            for j, (res, amt) in enumerate(comps):
                g.tcres[i][j] = res
                g.tcamt[i][j] = amt
            g.tround[i] = rnd
            g.tend[i] = end
        g.nev = len(t["events"])
        for i, (letter, name, effs) in enumerate(t["events"]):
            g.ev_letter[i] = letter
            g.ev_n[i] = len(effs)
            for j, (side, op, a, b) in enumerate(effs):
                g.ev_side[i][j] = side
                g.ev_op[i][j] = op
                g.ev_a[i][j] = a
                g.ev_b[i][j] = b
        g.rcap = t["resource_cap"]
        g.pcap = t["prestige_cap"]
        g.cubes = t["cubes"]
        g.discs = t["discs"]
        g.merchants = t["merchants"]
        g.turn_cap = t["turn_cap"]
        for i in range(3):
            g.disp[i] = t["display_sizes"][i]
        for i in range(NK):
            g.kcount[i] = t["card_count"][i]
            g.kunit[i] = t["card_unit"][i]
            g.kstr[i] = t["card_strength"][i]

    cpdef State new_initial_state(self):
        """The set-up of spec section 3; the first events are the chance draws of the project display."""
        cdef PolisState s = PolisState.__new__(PolisState)
        cdef PolisData* d = &s.d
        cdef int p, k
        s.game = self
        s.num_players = 2
        s.g = &self.st
        memset(d, 0, sizeof(PolisData))
        t = self.tables
        d.winner = W_NONE
        d.first_passer = d.last_passer = -1
        d.first_type = -1
        d.cur = d.sel_polis = d.sel_n = d.sel_tile = d.sel_area = d.sel_cell = d.pay_res = -1
        d.event_cur = -1
        d.ev_stack[0] = d.ev_stack[1] = d.ev_stack[2] = -1
        d.first_override = -1
        d.b_area = -1
        d.a1 = d.a2 = -1
        d.active = 1
        for k in range(MAXR):
            d.trib[k] = -1
        for k in range(NPOL):
            d.owner[k] = -1
        for k in range(NTILE):
            d.tile_where[k] = TW_PILE
        for k in range(MAXCELL):
            d.cell_occ[k] = -1
            d.cell_block[k] = 1 if k < self.st.ncell and self.st.crate[k] >= 4 else 0
        for p in range(2):
            su = t["setup"][p]
            d.cubes[p] = self.st.cubes
            d.discs[p] = self.st.discs
            d.msup[p] = self.st.merchants - su["merchants"]
            d.mport[p] = su["merchants"]
            d.prox[p] = su["proxenos"]
            d.prestige[p] = su["prestige"]
            for k in range(5):
                d.res[p][k] = su["resources"][k]
            for pol, n in su["poleis"].items():
                d.owner[pol] = p
                d.pop[pol] = n
                d.cubes[p] -= n
                d.discs[p] -= 1
            for r, n in su["hoplites"].items():
                d.hop[r][p] = n
                d.cubes[p] -= n
            for sea, n in su["galleys"].items():
                d.gal[sea][p] = n
                d.cubes[p] -= n
        d.phase = PH_SETUP_TILES
        d.draws_left = self.st.disp[0]
        return s

    def state_from_json(self, obj):
        from engine.games.polis.codec import state_from_json
        return state_from_json(self, obj)


cdef class PolisState(State):
    # --- C contract --------------------------------------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        cdef int ph = self.d.phase
        if ph == PH_OVER:
            return TERMINAL
        if is_chance_phase(ph):
            return CHANCE
        return self.d.active

    cdef int c_legal_actions(self, int* out) noexcept:
        if self.d.phase == PH_OVER or is_chance_phase(self.d.phase):
            return 0
        return legal(&self.d, self.g, out)

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept:
        return chance(&self.d, self.g, actions, probs)

    cdef void c_apply(self, int action) noexcept:
        apply_action(&self.d, self.g, action)

    cdef State c_clone(self):
        cdef PolisState s = PolisState.__new__(PolisState)
        s.game = self.game
        s.num_players = 2
        s.g = self.g
        s.d = self.d
        return s

    cdef void c_copy_from(self, State other) noexcept:
        self.d = (<PolisState>other).d
        self.g = (<PolisState>other).g

    cdef void c_determinize(self, int observer, Rng* rng) noexcept:
        """The opponent's battle hand is dealt again from the cards observer has not seen (deck + that hand)."""
        cdef PolisData* d = &self.d
        cdef int q = 1 - observer, k, n = 0, total = 0, pick
        cdef int pool[NK]
        cdef int e, c, letter
        # the event cards still face down in the stack are unknown to both players (L129)
        for letter in range(d.ev_shown, 3):
            if d.ev_stack[letter] >= 0:
                c = 0
                for e in range(self.g.nev):
                    if self.g.ev_letter[e] == letter:
                        c += 1
                pick = <int>rng_below(rng, c)
                for e in range(self.g.nev):
                    if self.g.ev_letter[e] == letter:
                        if pick == 0:
                            d.ev_stack[letter] = e
                            break
                        pick -= 1
        for k in range(NK):
            n += d.hand[q][k]
        if n == 0:
            return
        for k in range(NK):
            pool[k] = d.deck[k] + d.hand[q][k]
            total += pool[k]
            d.hand[q][k] = 0
        while n > 0:
            pick = <int>rng_below(rng, total)
            k = 0
            while pick >= pool[k]:
                pick -= pool[k]
                k += 1
            pool[k] -= 1
            total -= 1
            d.hand[q][k] += 1
            n -= 1
        for k in range(NK):
            d.deck[k] = pool[k]

    cdef uint64_t c_info_key(self, int player) noexcept:
        cdef PolisData tmp = self.d
        cdef int q = 1 - player, k, n = 0
        for k in range(NK):
            n += tmp.hand[q][k]
            tmp.hand[q][k] = 0
            tmp.deck[k] = 0
        tmp.hand[q][0] = n                            # the opponent's hand size is public
        for k in range(tmp.ev_shown, 3):
            tmp.ev_stack[k] = 0 if tmp.ev_stack[k] >= 0 else -1      # dealt, but face down
        cdef size_t used = <size_t>(<char*>&tmp.draws_left - <char*>&tmp) + 1   # no tail padding
        return hash_bytes(hash_mix(0x9011, <uint64_t>player), &tmp, used)

    cdef int64_t c_action_observation(self, int action, int player) noexcept:
        if self.d.phase == PH_DEAL and (0 if self.d.need[0] > 0 else 1) != player:
            return HIDDEN_ACTION                      # a card dealt to the other player
        if self.d.phase == PH_EVENT:
            return HIDDEN_ACTION                      # the event stack is dealt face down
        return action

    cdef void c_returns(self, double* out) noexcept:
        cdef double keys[2]
        cdef int w = self.d.winner, p
        if w == 0 or w == 1:
            out[w] = 1.0
            out[1 - w] = 0.0
        elif w == W_DRAW:
            out[0] = out[1] = 0.5
        else:
            for p in range(2):
                keys[p] = score_of(&self.d, self.g, p) * 1000.0 + total_res(&self.d, p)   # tie-break: resources (L711)
            returns_from_keys(keys, 2, out)

    cdef void c_evaluate(self, double* out) noexcept:
        """Score lead plus a little for resources, units and the projects under way, squashed to [0, 1]."""
        cdef double v[2]
        cdef int p, k, t
        for p in range(2):
            v[p] = score_of(&self.d, self.g, p) + 0.15 * total_res(&self.d, p)
            for k in range(self.g.nr):
                v[p] += 0.3 * self.d.hop[k][p]
            for k in range(self.g.ns):
                v[p] += 0.2 * self.d.gal[k][p]
            for t in range(NTILE):
                if self.d.tile_where[t] >= 0 and not self.d.tile_done[t] and self.d.owner[self.d.tile_where[t]] == p:
                    v[p] += self.g.tround[t] + self.g.tend[t]
        out[0] = 1.0 / (1.0 + exp(-(v[0] - v[1]) / 6.0))
        out[1] = 1.0 - out[0]

    # --- Python face: see codec.py (JSON), notation.py (moves) and render.py ------------------------------------
    def raw(self):
        """The struct as a dict of ints and lists of ints (for codec.py)."""
        cdef PolisData* d = &self.d
        cdef int i
        return {
            'phase': d.phase,
            'round': d.round,
            'active': d.active,
            'winner': d.winner,
            'first_passer': d.first_passer,
            'last_passer': d.last_passer,
            'acts': d.acts,
            'first_type': d.first_type,
            'solo_acts': d.solo_acts,
            'cur': d.cur,
            'sel_polis': d.sel_polis,
            'sel_n': d.sel_n,
            'sel_n2': d.sel_n2,
            'sel_tile': d.sel_tile,
            'sel_area': d.sel_area,
            'sel_cell': d.sel_cell,
            'moved': d.moved,
            'pay_res': d.pay_res,
            'pay_n': d.pay_n,
            'rise_mask': d.rise_mask,
            'event_cur': d.event_cur,
            'ev_shown': d.ev_shown,
            'ev_stack': [d.ev_stack[i] for i in range(3)],
            'stack_delta': d.stack_delta,
            'first_override': d.first_override,
            'check_ctx': d.check_ctx,
            'chooser': d.chooser,
            'b_area': d.b_area,
            'b_att': d.b_att,
            'b_lost': d.b_lost,
            'b_rounds': d.b_rounds,
            'b_initial': d.b_initial,
            'ret_cursor': d.ret_cursor,
            'a1': d.a1,
            'a2': d.a2,
            'eor_step': d.eor_step,
            'eor_idx': d.eor_idx,
            'draws_left': d.draws_left,
            'started': d.started,
            'pending': d.pending,
            'passed': [d.passed[i] for i in range(2)],
            'turns': [d.turns[i] for i in range(2)],
            'blocked': [d.blocked[i] for i in range(2)],
            'prestige': [d.prestige[i] for i in range(2)],
            'cubes': [d.cubes[i] for i in range(2)],
            'discs': [d.discs[i] for i in range(2)],
            'msup': [d.msup[i] for i in range(2)],
            'mport': [d.mport[i] for i in range(2)],
            'prox': [d.prox[i] for i in range(2)],
            'trib': [d.trib[i] for i in range(MAXR)],
            'owner': [d.owner[i] for i in range(NPOL)],
            'pop': [d.pop[i] for i in range(NPOL)],
            'grown': [d.grown[i] for i in range(NPOL)],
            'tile_where': [d.tile_where[i] for i in range(NTILE)],
            'tile_done': [d.tile_done[i] for i in range(NTILE)],
            'ppos': [d.ppos[i] for i in range(3)],
            'cell_occ': [d.cell_occ[i] for i in range(MAXCELL)],
            'cell_block': [d.cell_block[i] for i in range(MAXCELL)],
            'ret_who': [d.ret_who[i] for i in range(2)],
            'deck': [d.deck[i] for i in range(NK)],
            'disc': [d.disc[i] for i in range(NK)],
            'need': [d.need[i] for i in range(2)],
            'res': [[d.res[i][j] for j in range(5)] for i in range(2)],
            'hop': [[d.hop[i][j] for j in range(2)] for i in range(MAXR)],
            'gal': [[d.gal[i][j] for j in range(2)] for i in range(MAXS)],
            'siege': [[d.siege[i][j] for j in range(2)] for i in range(NPOL)],
            'hand': [[d.hand[i][j] for j in range(NK)] for i in range(2)],
        }

    def set_raw(self, dict r):
        """Overwrite the struct from a raw() dict (codec.py validates it first)."""
        cdef PolisData* d = &self.d
        cdef int i, j
        d.phase = r['phase']
        d.round = r['round']
        d.active = r['active']
        d.winner = r['winner']
        d.first_passer = r['first_passer']
        d.last_passer = r['last_passer']
        d.acts = r['acts']
        d.first_type = r['first_type']
        d.solo_acts = r['solo_acts']
        d.cur = r['cur']
        d.sel_polis = r['sel_polis']
        d.sel_n = r['sel_n']
        d.sel_n2 = r['sel_n2']
        d.sel_tile = r['sel_tile']
        d.sel_area = r['sel_area']
        d.sel_cell = r['sel_cell']
        d.moved = r['moved']
        d.pay_res = r['pay_res']
        d.pay_n = r['pay_n']
        d.rise_mask = r['rise_mask']
        d.event_cur = r['event_cur']
        d.ev_shown = r['ev_shown']
        for i in range(3):
            d.ev_stack[i] = r['ev_stack'][i]
        d.stack_delta = r['stack_delta']
        d.first_override = r['first_override']
        d.check_ctx = r['check_ctx']
        d.chooser = r['chooser']
        d.b_area = r['b_area']
        d.b_att = r['b_att']
        d.b_lost = r['b_lost']
        d.b_rounds = r['b_rounds']
        d.b_initial = r['b_initial']
        d.ret_cursor = r['ret_cursor']
        d.a1 = r['a1']
        d.a2 = r['a2']
        d.eor_step = r['eor_step']
        d.eor_idx = r['eor_idx']
        d.draws_left = r['draws_left']
        d.started = r['started']
        d.pending = r['pending']
        for i in range(2):
            d.passed[i] = r['passed'][i]
        for i in range(2):
            d.turns[i] = r['turns'][i]
        for i in range(2):
            d.blocked[i] = r['blocked'][i]
        for i in range(2):
            d.prestige[i] = r['prestige'][i]
        for i in range(2):
            d.cubes[i] = r['cubes'][i]
        for i in range(2):
            d.discs[i] = r['discs'][i]
        for i in range(2):
            d.msup[i] = r['msup'][i]
        for i in range(2):
            d.mport[i] = r['mport'][i]
        for i in range(2):
            d.prox[i] = r['prox'][i]
        for i in range(MAXR):
            d.trib[i] = r['trib'][i]
        for i in range(NPOL):
            d.owner[i] = r['owner'][i]
        for i in range(NPOL):
            d.pop[i] = r['pop'][i]
        for i in range(NPOL):
            d.grown[i] = r['grown'][i]
        for i in range(NTILE):
            d.tile_where[i] = r['tile_where'][i]
        for i in range(NTILE):
            d.tile_done[i] = r['tile_done'][i]
        for i in range(3):
            d.ppos[i] = r['ppos'][i]
        for i in range(MAXCELL):
            d.cell_occ[i] = r['cell_occ'][i]
        for i in range(MAXCELL):
            d.cell_block[i] = r['cell_block'][i]
        for i in range(2):
            d.ret_who[i] = r['ret_who'][i]
        for i in range(NK):
            d.deck[i] = r['deck'][i]
        for i in range(NK):
            d.disc[i] = r['disc'][i]
        for i in range(2):
            d.need[i] = r['need'][i]
        for i in range(2):
            for j in range(5):
                d.res[i][j] = r['res'][i][j]
        for i in range(MAXR):
            for j in range(2):
                d.hop[i][j] = r['hop'][i][j]
        for i in range(MAXS):
            for j in range(2):
                d.gal[i][j] = r['gal'][i][j]
        for i in range(NPOL):
            for j in range(2):
                d.siege[i][j] = r['siege'][i][j]
        for i in range(2):
            for j in range(NK):
                d.hand[i][j] = r['hand'][i][j]

    def static(self):
        return self.game.tables

    def score(self, int p):
        return score_of(&self.d, self.g, p)

    def scores(self):
        return [score_of(&self.d, self.g, 0), score_of(&self.d, self.g, 1)]

    def proxenos_cost_table(self, int p):
        """Cheapest bribe to every polis for p's proxenos (-1: unreachable); for tests and the console."""
        cdef int cost[NPOL]
        if self.d.prox[p] < 0:
            return [-1] * NPOL
        proxenos_costs(&self.d, self.g, p, cost)
        return [cost[i] for i in range(NPOL)]

    def reachable_markets(self, int p):
        return reachable_markets(&self.d, self.g, p)

    def observation(self, int player):
        self._check_player(player)
        from engine.games.polis.codec import observation
        return observation(self, player)

    def action_to_str(self, int action):
        from engine.games.polis.notation import action_to_str
        return action_to_str(self, action)

    def str_to_action(self, str text):
        from engine.games.polis.notation import str_to_action
        return str_to_action(self, text)

    def to_json(self):
        from engine.games.polis.codec import to_json
        return to_json(self)

    def render(self, observer=None):
        from engine.games.polis.render import render
        return render(self, observer)

# Option generators, one per decision, and legal(): each fills out[] ascending and returns the count.
# Included by state.pyx (one compiled module: the C functions inline across files).
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
        if d.hop[r][p] < 1 or d.trib[r] >= 0 or d.hop[r][p] > tribute_capacity(g, r, 0):
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


cdef inline int tribute_capacity(const Static* g, int r, int first) noexcept nogil:
    """Cells of region r's columns from column `first` on."""
    cdef int c, n = 0
    for c in range(first, g.tcols[r]):
        n += g.tlen[r][c]
    return n


cdef int gen_trib_alloc(const PolisData* d, const Static* g, int p, int* out) noexcept nogil:
    """How many of the hoplites still to place go into the current column (d.sel_n2): the later columns must
    hold the rest."""
    cdef int r = d.sel_area, c = d.sel_n2, rest = d.hop[r][p] - d.sel_n, n = 0, k
    for k in range(imax(0, rest - tribute_capacity(g, r, c + 1)), imin(rest, g.tlen[r][c]) + 1):
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


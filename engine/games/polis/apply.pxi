# Entering an action, siege rolls, and applying one action.
# Included by state.pyx (one compiled module: the C functions inline across files).
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
            d.ppos[d.pay_res] = imin(g.npcol - 1, d.ppos[d.pay_res] + (a - C_DROP + 1))
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
        d.sel_n = 0              # hoplites placed so far
        d.sel_n2 = 0             # the column being filled
        next_tribute_column(d, g)
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
        # "may play it by spending 1 prestige" (L598, A10): paid as played; below 0 loses at once (L207)
        k = imax(0, -g.kstr[d.a1]) + imax(0, -g.kstr[d.a2])
        if k > 0:
            pay_prestige(d, p, k)
            if d.phase == PH_OVER:
                return
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


cdef void next_tribute_column(PolisData* d, const Static* g) noexcept nogil:
    """All of p's hoplites go into the region's columns (L454), one column a decision: the last column takes the
    rest, and a column whose count is forced is filled without asking."""
    cdef int p = d.active, r = d.sel_area, rest
    cdef int buf[MAX_ACTIONS]
    if d.sel_n2 == g.tcols[r] - 1:
        rest = d.hop[r][p] - d.sel_n
        if rest > 0:
            gain_res(d, g, p, g.tres[r][d.sel_n2], g.tval[r][d.sel_n2][rest - 1])
        d.trib[r] = p
        d.discs[p] -= 1
        finish_action(d, g)
    elif gen_trib_alloc(d, g, p, buf) == 1:
        apply_tribute(d, g, buf[0] - A_ALLOC)
    else:
        d.phase = PH_TRIB_ALLOC


cdef void apply_tribute(PolisData* d, const Static* g, int k) noexcept nogil:
    """k hoplites into the current column, paid out at once; then the next column."""
    cdef int p = d.active, r = d.sel_area
    if k > 0:
        gain_res(d, g, p, g.tres[r][d.sel_n2], g.tval[r][d.sel_n2][k - 1])
    d.sel_n += k
    d.sel_n2 += 1
    next_tribute_column(d, g)


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


# The end of a round (food, growth, tribute, scoring), and the end of a turn.
# Included by state.pyx (one compiled module: the C functions inline across files).
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


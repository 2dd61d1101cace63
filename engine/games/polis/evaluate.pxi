# evaluate(): the points each side would hold once this round's end is scored (rulebook L626-L660, L698-L711),
# if nobody acted again; what is left to spend is valued by the ASSUMED weights of data/evaluate.json.
# Included by state.pyx (one compiled module). It reads the state it is given and nothing else: a determinized
# state is valued as the determinization shows it.

cdef inline int eor_phase(const PolisData* d) noexcept nogil:
    """The end-of-round steps are under way (a decision inside them: food, growth, phoros, tiles)."""
    return d.phase >= PH_FOOD and d.phase <= PH_TILE_REMOVE


cdef inline int eor_done(const PolisData* d, int p, int step) noexcept nogil:
    """Has p's part of end-of-round step `step` been done? Steps go first passer first (L624)."""
    cdef int order0, idx
    if not eor_phase(d):
        return 0
    if d.eor_step != step:
        return d.eor_step > step
    order0 = d.first_passer if d.first_passer >= 0 else 1
    idx = 0 if p == order0 else 1
    return d.eor_idx > idx


cdef inline int can_still_act(const PolisData* d, int p) noexcept nogil:
    """p has not passed (a side that passed acts no more this round, L175) and the round's actions are not over
    (L624): it may still fetch wheat or prestige before the round's end."""
    return d.phase != PH_OVER and not eor_phase(d) and not d.passed[p]


cdef double projected_points(const PolisData* d, const Static* g, int p, int* stock) noexcept nogil:
    """p's final-score points (population + prestige + end-game project prestige, L705-L711) after this round's
    projects (L626), food (L636-L642), growth (L644-L652) and megalopolis (L654), plus the weighted value of what
    is left to spend; minus ev_death if the round's end would leave p at 0 prestige or unfed (L698-L700), that and
    the lost poleis weighed by ev_food_open while p can still act. ``stock`` (when not NULL) receives p's resources
    left after this round's food and spoilage, which break a tie on points in omega (L711)."""
    cdef int pol, t, k, r
    cdef int last = d.round >= 2
    cdef int projects_due = not eor_phase(d)
    cdef int food_due = not eor_done(d, p, 2)
    cdef int growth_due = not eor_done(d, p, 3)
    cdef int mega_due = not eor_phase(d) or d.eor_step <= 3
    cdef int pop = 0, releasable = 0, mega = 0, at_base = 0, room = 0, tround = 0, deficit = 0
    cdef int wheat = d.res[p][WHEAT], wine = d.res[p][WINE], payable, paid, need, released = 0, grow = 0, best
    cdef int rel_pop[NPOL]
    cdef double v, f
    # a side still to act is not yet bound by this projection: its disasters weigh less (data/evaluate.json)
    cdef double doom = g.ev_food_open if can_still_act(d, p) else 1.0
    for pol in range(NPOL):
        rel_pop[pol] = 0
        if d.owner[pol] != p:
            continue
        pop += d.pop[pol]
        if pol != g.capital[p]:
            releasable += d.pop[pol]
            rel_pop[pol] = d.pop[pol]
        if d.pop[pol] > g.base[pol]:
            mega += 1
        k = imin(g.mgrow[pol] - d.grown[pol], g.mpop[pol] - d.pop[pol])
        if k > 0:
            room += k
            if d.pop[pol] == g.base[pol]:
                at_base += 1
    v = score_of(d, g, p)
    if projects_due:
        for t in range(NTILE):
            if d.tile_where[t] >= 0 and not d.tile_done[t] and d.owner[d.tile_where[t]] == p:
                tround += g.tround[t]
                v += g.tround[t] + g.tend[t]
    if not mega_due:
        mega = 0
    # food: each missing wheat costs a point, as prestige while it lasts, then as population of released poleis
    if food_due:
        deficit = imax(0, pop - wheat)
        wheat = imax(0, wheat - pop)
        v -= deficit
        payable = imax(0, imin(d.prestige[p] + tround, d.prestige[p] + tround + mega - 1))
        paid = imin(deficit, payable)
        need = deficit - paid
        while need > 0:                               # release the fewest poleis: largest population first
            best = -1
            for pol in range(NPOL):
                if rel_pop[pol] > 0 and (best < 0 or rel_pop[pol] > rel_pop[best]):
                    best = pol
            if best < 0:
                break
            need -= rel_pop[best]
            room -= imin(g.mgrow[best] - d.grown[best], g.mpop[best] - d.pop[best]) if room > 0 else 0
            rel_pop[best] = 0
            released += 1
        v -= doom * g.ev_lost_polis * released
        if need > 0 or d.prestige[p] + tround - paid + mega <= 0:
            v -= doom * g.ev_death                    # unfed with only the capital (L700), or 0 prestige (L698)
    elif not eor_phase(d) or d.eor_step <= 4:
        if d.prestige[p] + tround + mega <= 0:
            v -= doom * g.ev_death
    # growth: wheat left grows population, up to the poleis' room and the cubes in supply
    if growth_due:
        grow = imin(imin(wheat, imax(0, room)), d.cubes[p])
        wheat -= grow
        v += grow * (1.0 if last else g.ev_growth)
        if mega_due:
            v += imin(grow, at_base)                  # a polis grown above its base scores megalopolis
    if mega_due:
        v += mega
    # what is left to spend: wine and wheat spoil to half (L664) unless the game ends with this round
    f = g.ev_res_last if last else 1.0
    v += f * (g.ev_res[IRON] * d.res[p][IRON] + g.ev_res[WOOD] * d.res[p][WOOD] + g.ev_res[SILVER] * d.res[p][SILVER])
    if not last:
        wine = (wine + 1) // 2
        wheat = (wheat + 1) // 2
    v += f * (g.ev_res[WINE] * wine + g.ev_res[WHEAT] * wheat)
    if stock != NULL:
        stock[0] = d.res[p][IRON] + d.res[p][WOOD] + d.res[p][SILVER] + wine + wheat
    for r in range(g.nr):
        v += g.ev_hoplite * d.hop[r][p]
    for r in range(g.ns):
        v += g.ev_galley * d.gal[r][p]
    v += g.ev_merchant * d.mport[p]
    # position: markets this side's merchants can reach (sea control decides the routes, L480-L484), and the
    # regions and seas it controls (tribute, sieges and routes need them, L221-L223)
    if controls_trade_polis(d, g, p):
        v += g.ev_market * popc(reachable_markets(d, g, p))
    for r in range(g.nr):
        if rctrl(d, r) == p:
            v += g.ev_region
    # sieges ready to be laid: a share of what a siege is expected to bring (the polis's fortification in prestige
    # and its population, L405-L419), so hoplites gathered for a siege are worth more than hoplites at home
    for pol in range(NPOL):
        if siege_ok(d, g, p, pol):
            k = imin(4, imax(0, 5 - g.base[pol] + d.siege[pol][p]))      # d4 + own siege discs >= fortification
            v += g.ev_siege * k / 4.0 * (g.base[pol] + (g.base[pol] if d.owner[pol] < 0 else d.pop[pol]))
    for r in range(g.ns):
        if sctrl(d, r) == p:
            v += g.ev_sea
    return v

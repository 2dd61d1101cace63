# The flow of a round: turns, event effects, the start of a round.
# Included by state.pyx (one compiled module: the C functions inline across files).
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


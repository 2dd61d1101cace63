# Battles: windows, card deals, exchanges.
# Included by state.pyx (one compiled module: the C functions inline across files).
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


cdef void clear_battle(PolisData* d) noexcept nogil:
    """Every battle field back to its value outside a battle (as in a new game and in from_json): nothing of a
    finished battle (hands, retreat order, rounds) stays in the state, so info_key depends on what is seen (H1)."""
    cdef int k
    for k in range(NK):                               # hands are discarded (ASSUMED spec 6.6)
        d.hand[0][k] = d.hand[1][k] = 0
        d.deck[k] = 0
        d.disc[k] = 0
    d.need[0] = d.need[1] = 0
    d.b_area = -1
    d.a1 = d.a2 = -1
    d.b_att = 0
    d.ret_who[0] = d.ret_who[1] = 0
    d.ret_cursor = 0
    d.b_lost = 0
    d.b_rounds = 0
    d.b_initial = 0


cdef void end_battle(PolisData* d, const Static* g) noexcept nogil:
    clear_battle(d)
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
            gain += imax(0, g.kstr[a])                # a Salpinktes's cost was paid when played (L598)
        d.disc[a] += 1
        d.disc[b] += 1
        d.hand[q][b] -= 1
    for k in range(lost):
        remove_unit(d, g, d.b_area, q)
    d.b_lost = lost
    d.b_rounds += 1
    d.a1 = d.a2 = -1
    gain_prestige(d, g, att, gain)
    if units_in_battle(d, g, q) < 2:
        end_battle(d, g)
    else:
        open_window(d, g, q)


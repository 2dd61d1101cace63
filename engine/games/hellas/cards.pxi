# Hellas: card play (spec 4.2 NY5, 4.3, 9.1), action counts (4.4, 9.6), leaders (9.2), revolts (9.3) and the
# events (9.4, 9.5).
#

cdef inline int in_play(HData* d, int kind) noexcept nogil:
    """Cards of this event kind face up in play."""
    cdef HS* s = tab(d)
    cdef int n = 0
    cdef uint64_t m = d.inplay
    while m:
        n += s.c_kind[__builtin_ctzll(m)] == kind
        m &= m - 1
    return n


cdef int own_siege(HData* d, int side) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int a
    for a in range(s.nl):
        if d.besieged[a] and d.ctrl[a] == side:
            return 1
    return 0


cdef int any_siege(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int a
    for a in range(s.nl):
        if d.besieged[a]:
            return 1
    return 0


cdef int event_legal(HData* d, int side, int c, int new_year) noexcept nogil:
    """Side may play card c as an event now (colour, New Year stars, Winter, bracketed condition; L261, L288)."""
    cdef HS* s = tab(d)
    cdef int col = s.c_colour[c], k = s.c_kind[c]
    if (col == COL_RED and side != SPA) or (col == COL_BLUE and side != ATH):
        return 0
    if new_year and s.c_nyf[c]:
        return 0
    if not new_year and d.season == s.nseasons and not s.r_events_winter:
        return 0
    if s.c_cond[c] == CO_BESIEGED and not any_siege(d):
        return 0
    if s.c_cond[c] == CO_PLAGUE_STRUCK and not d.plague_struck:
        return 0
    if (s.c_cond[c] == CO_OWN_PRIOR_SIEGE or s.c_cond[c] == CO_OWN_SIEGE) and not own_siege(d, side):
        return 0
    if s.c_cond[c] == CO_LEADER and d.leader[ATH] < 0 and d.leader[SPA] < 0:
        return 0
    if k == EV_ATROCITY and s.r_atrocity_reading == 1 and \
            (d.leader[1 - side] < 0 or s.c_rating[d.leader[1 - side]] <= 0):
        return 0                                    # ATROCITY_LOSS (b): only against an enemy with a +1 leader
    return 1


cdef int card_choices(HData* d, int side, int* out) noexcept nogil:
    """The card plays open to side (card*2 + use; use 1 = actions, or sacrifice at the New Year), ascending."""
    cdef HS* s = tab(d)
    cdef int c, n = 0, ny = d.season == 0
    cdef uint64_t m = d.hand[side]
    while m:
        c = __builtin_ctzll(m)
        m &= m - 1
        if event_legal(d, side, c, ny):
            out[n] = A_CARD + c * 2
            n += 1
        out[n] = A_CARD + c * 2 + 1
        n += 1
    return n


cdef int action_count(HData* d, int side, int c, int favour) noexcept nogil:
    """Spec 4.4: printed coins + leader bonus + Athens Raises Taxes (Athens) + Persian Aid (Sparta) + a favour."""
    cdef HS* s = tab(d)
    cdef int n = s.c_act[c], t
    if d.leader[side] >= 0:
        n += s.r_lead1 if s.c_rating[d.leader[side]] > 0 else s.r_lead0
    if side == ATH:
        t = in_play(d, EV_TAXES)
        n += t if s.r_atr_per_card else (1 if t else 0)
    elif in_play(d, EV_PERSIAN_AID):
        n += s.r_persian_bonus
    if favour:
        n += s.r_favour_extra
    if s.r_cap > 0 and n > s.r_cap:
        n = s.r_cap
    return n


cdef int initiative_value(HData* d, int side) noexcept nogil:
    """L42: the printed action value of a card played for actions, 0 for an event (INITIATIVE_VALUE)."""
    cdef HS* s = tab(d)
    cdef int p = d.play[side]
    if p < 0 or (p & 1) == 0:
        return 0
    if s.r_init_bonus:
        return action_count(d, side, p >> 1, 0)
    return s.c_act[p >> 1]


# --- event targets ----------------------------------------------------------------------------------------------

cdef inline int vacant(HData* d, int a) noexcept nogil:
    """C-16: no units of either side in the area and no garrison placed."""
    return units_in(d, a, ATH, 2) == 0 and units_in(d, a, SPA, 2) == 0 and d.garrison[a] < 0


cdef int revolt_target(HData* d, int c, int a) noexcept nogil:
    """A Revolt may put a Spartan garrison in the vacant Athenian subject city of a: in the card's region, or (a
    spreading card) in a region that already holds a Spartan garrison (L272-L280)."""
    cdef HS* s = tab(d)
    cdef int b
    if not s.subject[a] or not vacant(d, a) or d.occ[a] >= 0:
        return 0
    if s.region[a] == s.c_region[c]:
        return 1
    if s.c_spread[c]:
        for b in range(s.nl):
            if s.region[b] == s.region[a] and d.garrison[b] == SPA:
                return 1
    return 0


cdef int event_targets(HData* d, int* out) noexcept nogil:
    """The targets of the event being resolved (d.ev_card by d.ev_side); 0 means it has none to choose."""
    cdef HS* s = tab(d)
    cdef int c = d.ev_card, side = d.ev_side, k = s.c_kind[c], a, n = 0, q
    if k == EV_OSTRACISM:
        for q in range(2):
            if d.leader[q] >= 0:
                out[n] = A_SIDE + q
                n += 1
        return n
    for a in range(s.nl):
        if k == EV_PLAGUE and is_city(s, a) and d.besieged[a]:
            pass
        elif k == EV_PLAGUE_RETURNS and is_city(s, a):
            pass
        elif k == EV_REVOLT and revolt_target(d, c, a):
            pass
        elif k == EV_HELOT and s.helot[a] and vacant(d, a) and d.occ[a] < 0:
            pass
        elif (k == EV_FAMINE or k == EV_TREACHERY) and d.besieged[a] and d.ctrl[a] == side:
            pass
        elif k == EV_CIVIL_WAR and is_city(s, a) and d.cctrl[a] == 1 - side and not d.besieged[a]:
            pass
        else:
            continue
        out[n] = A_TARGET + a
        n += 1
    return n


cdef void plague(HData* d, int a, int loss, int min_steps) noexcept nogil:
    """Every unit in the city loses `loss` steps, cadres spared (L290): the units inside a besieged city, else the
    holder's units in the area (ASSUMED, docs/rules/hellas.md); the garrison is unaffected."""
    cdef HS* s = tab(d)
    cdef int u, i, holder = d.cctrl[a]
    for u in range(s.nu):
        if d.loc[u] != a:
            continue
        if (d.besieged[a] and d.incity[u]) or (not d.besieged[a] and s.u_side[u] == holder):
            if not d.revealed[u]:                   # the enemy knows who stands there, not their steps
                d.slo[u] = bounded(d.slo[u] - loss)
            if d.steps[u] < min_steps:
                continue
            for i in range(loss):
                if d.steps[u] > 1:
                    d.steps[u] -= 1


cdef inline void take_out_of_play(HData* d, int c) noexcept nogil:
    """A continuing event leaves play for the played pile (collected and shuffled at the next deal)."""
    d.inplay &= ~bit(c)
    d.played |= bit(c)


cdef void discard_kind(HData* d, int kind) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int c
    for c in range(s.nc):
        if (d.inplay >> c) & 1 and s.c_kind[c] == kind:
            take_out_of_play(d, c)


cdef inline void put_in_play(HData* d, int c) noexcept nogil:
    """A continuing event stays face up in play (L262, L308), off the played pile."""
    d.inplay |= bit(c)
    d.played &= ~bit(c)


cdef void event_effect(HData* d, int target) noexcept nogil:
    """Carry out the event d.ev_card of d.ev_side on target (an action id, or -1 when it has none)."""
    cdef HS* s = tab(d)
    cdef int c = d.ev_card, side = d.ev_side, k = s.c_kind[c], a = target - A_TARGET, q
    if k == EV_LEADER:
        q = s.c_side[c]
        if d.leader[q] < 0:                         # L270: else the card is wasted
            d.leader[q] = c
            put_in_play(d, c)
    elif k == EV_OSTRACISM:
        if target >= 0:
            q = target - A_SIDE
            take_out_of_play(d, d.leader[q])        # L296: back to the deck at the next deal
            d.leader[q] = -1
    elif k == EV_PLAGUE:
        d.plague_struck = 1
        if target >= 0:
            plague(d, a, s.r_ev_plague_loss, s.r_ev_plague_min)
    elif k == EV_PLAGUE_RETURNS:
        if target >= 0:
            plague(d, a, s.r_ev_pr_loss, s.r_ev_pr_min)
    elif k == EV_REVOLT or k == EV_HELOT:
        if target >= 0:
            d.garrison[a] = SPA if k == EV_REVOLT else ATH
            d.occ[a] = d.garrison[a]
            d.cctrl[a] = d.garrison[a]
    elif k == EV_FAMINE:
        if target >= 0:
            d.famine = a
    elif k == EV_TREACHERY:
        if target >= 0:
            d.treach = a                            # L294: one assault there this turn
    elif k == EV_EARTHQUAKE:
        d.quake_vs = 1 - side
    elif k == EV_OMEN:
        d.omen_vs = 1 - side
    elif k == EV_ATROCITY:                          # L304 "Enemy (+1 Leader) loses 2 Prestige", read by C-18:
        q = d.leader[1 - side]
        if s.r_atrocity_reading == 3 and q >= 0 and s.c_rating[q] > 0:
            take_out_of_play(d, q)                  # (d) his +1 leader goes too
            d.leader[1 - side] = -1
        gain(d, 1 - side, -s.r_atrocity - (s.r_atrocity_extra if s.r_atrocity_reading == 2 and q >= 0 else 0))
    elif k == EV_CIVIL_WAR:
        if target >= 0:
            d.civil[a] = 1
            put_in_play(d, c)
    elif k == EV_PEACE:
        discard_kind(d, EV_WAR)
        put_in_play(d, c)
    elif k == EV_WAR:
        discard_kind(d, EV_PEACE)
        put_in_play(d, c)
    elif k == EV_TAXES or k == EV_PERSIAN_AID or k == EV_NO_QUARTER:
        put_in_play(d, c)

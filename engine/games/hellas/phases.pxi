# Hellas: the sequence of play (spec 4.1): the New Year (4.2), the seasons with the secret card choice and
# initiative (4.3), the player turn (4.4), Winter (4.5), the end of the year and of the scenario (8.3). Each
# function runs the automatic steps and stops at the next decision or chance node.

cdef void setup(HData* d, int slot) noexcept nogil:
    cdef HS* s = &TABLES[slot]
    cdef int u, a
    memset(d, 0, sizeof(HData))
    d.ds = slot
    for u in range(MAXU):
        d.loc[u] = POOL
    for u in range(s.nu):
        d.loc[u] = s.u_start[u]
        d.steps[u] = s.u_steps0[u] if s.u_start[u] >= 0 else 0
    rebuild_occupancy(d)
    track_setup(d)
    for a in range(MAXA):
        d.occ[a] = -1
        d.garrison[a] = -1
        d.ctrl[a] = -1
        d.cctrl[a] = -1
    d.leader[ATH] = s.lead0[ATH]
    d.leader[SPA] = s.lead0[SPA]
    d.inplay = bit(s.lead0[ATH]) | bit(s.lead0[SPA])
    d.commit[0] = d.commit[1] = d.play[0] = d.play[1] = -1
    d.prestige = s.start_prestige
    d.winner = -1
    d.active = -1
    d.quake_vs = d.omen_vs = d.famine = -1
    d.ev_side = d.ev_card = -1
    d.ny_next = -1
    d.truce_side = -1
    d.att_area = -1
    d.atr_next = -1
    d.group = d.unit = -1
    d.b_area = d.b_att = d.b_firer = d.wd_area = d.wd_unit = d.r_unit = d.mv_dest = d.cargo = d.treach = -1
    d.march_to = -1
    d.reroll = -1
    for u in range(MAXU):
        d.came[u] = -1
    recompute(d)
    if s.r_sides:
        start_sides(d)                              # SIDE_SELECTION random or bid (spec 5.13)
    else:
        start_year(d)


cdef void finish(HData* d, int winner, int level) noexcept nogil:
    d.winner = winner
    d.level = level
    d.step = S_OVER
    d.cur = TERMINAL


cdef void capital_check(HData* d) noexcept nogil:
    """CAPITAL_CAPTURE_WINS (spec 8.3 item 4, C-30): a side that holds the enemy's capital city at a control
    re-computation (with its units there, CAPITAL_WIN_REQUIRES_UNITS) wins at once, as an automatic victory."""
    cdef HS* s = tab(d)
    cdef int a, side
    if not s.r_capital_wins or d.step == S_OVER:
        return
    for a in range(s.nl):
        if not s.capital[a] or not is_city(s, a):
            continue
        side = 1 - s.loyal[a] if s.loyal[a] == ATH or s.loyal[a] == SPA else -1
        if side >= 0 and d.cctrl[a] == side and (not s.r_capital_units or units_in(d, a, side, 2) > 0):
            finish(d, side, 4)
            return


cdef void tribute(HData* d) noexcept nogil:
    """NY1 (spec 4.2): each side gains the value of every enemy-loyal city it controls; Persian Aid and No Quarter
    cost Sparta their yearly prestige (L314, L320)."""
    cdef HS* s = tab(d)
    cdef int a, side
    for a in range(s.nl):
        side = d.cctrl[a]
        if is_city(s, a) and side >= 0 and s.loyal[a] == 1 - side:
            gain(d, side, s.value[a])
    if in_play(d, EV_PERSIAN_AID):
        gain(d, SPA, -s.r_persian_yearly)
    if in_play(d, EV_NO_QUARTER):
        gain(d, SPA, -s.r_noq_yearly)


cdef inline int lead_of(HData* d) noexcept nogil:
    return d.prestige if d.prestige >= 0 else -d.prestige


cdef void start_year(HData* d) noexcept nogil:
    """NY1-NY3 (skipped in the first year, L28), then the deal."""
    cdef HS* s = tab(d)
    cdef int thr
    d.season = 0
    if d.year > 0 or not s.r_skip1:
        tribute(d)
        if d.step == S_OVER:
            return
        if lead_of(d) >= s.r_auto_lead:                 # EXT-13: 15 or more wins at the Victory Check
            finish(d, SPA if d.prestige > 0 else ATH, 4)
            return
        thr = s.r_truce_thr_pf if in_play(d, EV_PEACE) else s.r_truce_thr
        if s.r_truce and d.prestige != 0 and lead_of(d) >= thr:
            d.truce_side = SPA if d.prestige > 0 else ATH
            d.step = S_TRUCE
            d.cur = d.truce_side
            return
    start_deal(d)


cdef inline uint64_t out_of_play(HData* d) noexcept nogil:
    """Every card not in play (the deck before a deal)."""
    cdef HS* s = tab(d)
    return ((bit(s.nc) - 1) if s.nc < 64 else <uint64_t>0xFFFFFFFFFFFFFFFF) & ~d.inplay


cdef void start_deal(HData* d) noexcept nogil:
    """NY4: every card not in play is collected and shuffled; 6 are dealt face down to each player (L30)."""
    d.truce_side = -1
    d.deck = out_of_play(d)
    d.hand[0] = d.hand[1] = 0
    d.played = 0
    d.dealt = 0
    next_deal(d)


cdef inline int deal_to(HData* d) noexcept nogil:
    return d.dealt & 1                                  # alternately Athens, Sparta


cdef void next_deal(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    if d.dealt < 2 * s.r_hand and d.deck:
        d.step = S_DEAL
        d.cur = CHANCE
        return
    begin_choice(d)


cdef void begin_choice(HData* d) noexcept nogil:
    """A secret simultaneous card choice (L40, L258), sequentialised: Sparta commits, then Athens, who does not
    see Sparta's card until both are revealed."""
    d.commit[0] = d.commit[1] = -1
    if not d.hand[SPA] and not d.hand[ATH]:
        end_season(d)
        return
    d.step = S_CARD
    d.cur = SPA if d.hand[SPA] else ATH


cdef void committed(HData* d) noexcept nogil:
    if d.cur == SPA and d.hand[ATH]:
        d.cur = ATH
        return
    reveal(d)


cdef void reveal(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int p, c, v0, v1
    for p in range(2):
        d.play[p] = d.commit[p]
        d.commit[p] = -1
        if d.play[p] >= 0:
            c = d.play[p] >> 1
            d.hand[p] &= ~bit(c)
            d.played |= bit(c)
    if d.season == 0:
        for p in range(2):                             # spec 4.6: a sacrifice buys an Olympian favour
            if d.play[p] >= 0 and d.play[p] & 1 and s.r_sacrifice:
                d.favour[p] = 1
        d.ny_next = s.r_ny_first                        # New Year events, Sparta's first (EXT-9)
        next_ny_event(d)
        return
    v0 = initiative_value(d, ATH) if d.play[ATH] >= 0 else 99
    v1 = initiative_value(d, SPA) if d.play[SPA] >= 0 else 99
    d.first = ATH if v0 < v1 else SPA if v1 < v0 else s.r_tie       # L42: the lower goes first, ties to Sparta
    d.tix = 0
    d.wstage = 0
    start_turn(d)


cdef void next_ny_event(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int p
    while d.ny_next >= 0:
        p = d.ny_next
        d.ny_next = (1 - p) if p == s.r_ny_first else -1
        if d.play[p] >= 0 and (d.play[p] & 1) == 0:
            begin_event(d, p, d.play[p] >> 1)
            return
    d.play[0] = d.play[1] = -1
    d.season = 1
    begin_choice(d)


cdef void begin_event(HData* d, int side, int c) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int n, k = s.c_kind[c], t
    d.ev_side = side
    d.ev_card = c
    d.ev_left = 0
    d.ev_opt = 0
    if k == EV_REVOLT:
        d.ev_left = s.r_ev_revolt_n
        t = in_play(d, EV_TAXES)
        d.ev_opt = t * s.r_ev_revolt_extra
    elif k == EV_OSTRACISM or k == EV_PLAGUE or k == EV_PLAGUE_RETURNS or k == EV_HELOT or k == EV_FAMINE \
            or k == EV_CIVIL_WAR or k == EV_TREACHERY:
        d.ev_left = 1
    if d.ev_left == 0:
        event_effect(d, -1)
        event_done(d)
        return
    next_target(d)


cdef void next_target(HData* d) noexcept nogil:
    """Ask for the event's next target, or finish it when no target is left or none is possible (an event
    whose effect is empty is simply used up, spec 10.6.3)."""
    if d.step == S_OVER:
        return
    if (d.ev_left > 0 or d.ev_opt > 0) and event_targets(d, NULL_BUF) > 0:
        d.step = S_TARGET
        d.cur = d.ev_side
        return
    if tab(d).c_kind[d.ev_card] == EV_PLAGUE:
        d.plague_struck = 1                         # Plague Strikes has occurred, even with nothing to strike
    event_done(d)


cdef void event_done(HData* d) noexcept nogil:
    d.ev_side = d.ev_card = -1
    d.ev_left = d.ev_opt = 0
    if d.step == S_OVER:
        return
    if d.season == 0:
        next_ny_event(d)
        return
    d.actions = 0                                   # L54, L263: an event turn has no actions
    end_actions(d)


cdef void start_turn(HData* d) noexcept nogil:
    """A player turn: its Action phase, then its Battle phase (L46-L48). In Winter both players take their Winter
    actions (W2) before either takes its offensive combat (W4)."""
    cdef HS* s = tab(d)
    cdef int p, a, u
    d.active = d.first if d.tix == 0 else 1 - d.first
    d.turn += 1
    d.sieged = 0
    d.asked = 0
    d.fought = 0
    for u in range(s.nu):
        d.moved[u] = 0
        d.came[u] = -1
        d.strait_in[u] = 0
    if d.season == s.nseasons and d.wstage == 1:
        begin_sally(d)
        return
    if d.season == s.nseasons and d.wstage == 2:
        begin_battle(d)
        return
    for a in range(s.nl):
        d.fresh[a] = 0
    d.supplied = 0
    p = d.play[d.active]
    if p < 0:
        d.actions = 0
        end_actions(d)
        return
    if (p & 1) == 0:
        begin_event(d, d.active, p >> 1)
        return
    d.actions = action_count(d, d.active, p >> 1, 0)
    d.refuge = 1 if d.season == s.nseasons else 0
    if d.favour[d.active] and s.r_sacrifice and s.r_favour_extra > 0:
        d.step = S_FAVOUR
        d.cur = d.active
        return
    to_action(d)


cdef void to_action(HData* d) noexcept nogil:
    d.group = d.unit = -1
    d.free_move = 0
    d.step = S_ACTION
    d.cur = d.active
    phase_actions(d, &d.acts)                       # kept for legal() until the decision is taken
    if not phase_open(&d.acts):
        end_actions(d)


cdef void end_actions(HData* d) noexcept nogil:
    """The end of an Action phase: Winter supply losses (spec 5.7), control re-computed (L123), then the Battle
    phase (or, in Winter, the other player's Winter actions)."""
    cdef HS* s = tab(d)
    cdef int u
    cdef i8 need[MAXU]
    if d.step == S_OVER:
        return
    if d.season == s.nseasons:
        supply_areas(d, d.active, need)
        for u in range(s.nu):
            if s.u_side[u] == d.active and need[u] and not (d.supplied >> d.loc[u]) & 1:
                if s.r_unsupplied_elim:
                    eliminate(d, u)
                else:                               # H4: the enemy learns the steps lost in the area, not whose
                    secret_loss(d, u)
        recompute(d)
        capital_check(d)
        if d.step == S_OVER:
            return
        if d.tix == 0:
            d.tix = 1
        else:
            d.tix = 0
            d.wstage = 1 if s.r_sally else 2        # W3 sallies (WINTER_SALLY), then W4
        start_turn(d)
        return
    recompute(d)
    capital_check(d)
    if d.step == S_OVER:
        return
    begin_battle(d, 1)


cdef int siege_base(HData* d, int a) noexcept nogil:
    """A siege of the active player's, established before this turn (EXT-7), not yet fought this phase."""
    cdef HS* s = tab(d)
    if not d.besieged[a] or d.ctrl[a] != d.active or (d.sieged >> a) & 1:
        return 0
    if s.r_prior_siege and d.fresh[a]:
        return 0
    return besieged_blocks(d, a) > 0


cdef int attrition_open(HData* d, int a) noexcept nogil:
    """Spec 6.10: also after an event; a port must be blockaded (spec 6.9.3)."""
    return siege_base(d, a) and (not tab(d).r_port_blockade or blockaded(d, a))


cdef int assault_open(HData* d, int a) noexcept nogil:
    """Spec 6.11: only on a turn played for actions (L263), or the city a Treachery names; not under an enemy
    Omen (L302); with own field units there."""
    cdef int p = d.play[d.active]
    if not siege_base(d, a) or d.omen_vs == d.active or d.nfield[d.active][a] == 0:
        return 0
    return d.treach == a or (d.treach < 0 and p >= 0 and (p & 1) == 1)


cdef void begin_battle(HData* d, int settled=0) noexcept nogil:
    """The Battle phase: every battle in a contested area and, at its player's option, siege combat on his sieges,
    the smallest first (combat_choices, L64); then the phase ends. settled: control was re-computed (and the
    capital checked) just before, with nothing changed since."""
    cdef int n = combat_choices(d, NULL_BUF), a
    if n == 0:
        end_battle(d, settled)
        return
    if n == 1 and NULL_BUF[0] >= A_BATTLE and NULL_BUF[0] < A_BATTLE + MAXA:
        open_battle(d, NULL_BUF[0] - A_BATTLE)       # one battle, no choice
        return
    d.step = S_SIEGE
    for a in range(n):
        if NULL_BUF[a] >= A_BATTLE and NULL_BUF[a] < A_BATTLE + MAXA:
            d.step = S_BATTLE
    d.cur = d.active


cdef void end_battle(HData* d, int settled=0) noexcept nogil:
    """settled: as begin_battle's; re-computing control again would change nothing (recompute is idempotent)."""
    cdef HS* s = tab(d)
    if d.step == S_OVER:
        return
    if not settled:
        recompute(d)
        capital_check(d)
        if d.step == S_OVER:
            return
    d.famine = -1                                   # Famine lasts for its player's own attrition this turn
    d.treach = -1
    if d.season == s.nseasons:
        if d.tix == 0:
            d.tix = 1
            start_turn(d)
        else:
            end_season(d)
        return
    if d.tix == 0:
        d.tix = 1
        start_turn(d)
        return
    end_season(d)


cdef void end_season(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    d.quake_vs = d.omen_vs = d.famine = -1
    d.play[0] = d.play[1] = -1
    d.active = -1
    if d.season >= s.nseasons:
        end_year(d)
        return
    d.season += 1
    begin_choice(d)


cdef void end_year(HData* d) noexcept nogil:
    """W5 (spec 4.5): barbarians go home to the pool, Pillaged and Civil War markers go (Civil War cards with
    them), favours are lost, then Athens may take back its Athens Raises Taxes cards."""
    cdef HS* s = tab(d)
    cdef int u, a
    for u in range(s.nu):
        if s.u_barb[u] and d.loc[u] >= 0:
            d.steps[u] = 0
            seen(d, u)                              # shown as it goes home (spec 7.2)
            place(d, u, POOL, 0)
        d.raised[u] = 0
    for a in range(s.nl):
        d.pillaged[a] = 0
        d.civil[a] = 0
    discard_kind(d, EV_CIVIL_WAR)
    d.favour[0] = d.favour[1] = 0
    d.atr_next = -1
    next_atr(d)


cdef void next_atr(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int c
    for c in range(d.atr_next + 1, s.nc):
        if (d.inplay >> c) & 1 and s.c_kind[c] == EV_TAXES:
            d.atr_next = c
            d.step = S_ATR_KEEP
            d.cur = ATH
            return
    d.atr_next = -1
    recompute(d)
    d.year += 1
    if d.year >= s.nyears:
        final_accounting(d)
        return
    start_year(d)


cdef void final_accounting(HData* d) noexcept nogil:
    """Spec 8.3: after the last End of Year, tribute and the automatic-victory test (no truce), then the level."""
    cdef HS* s = tab(d)
    cdef int lead
    tribute(d)
    if d.step == S_OVER:
        return
    lead = lead_of(d)
    if lead >= s.r_auto_lead:
        finish(d, SPA if d.prestige > 0 else ATH, 4)
    elif lead >= s.r_major:
        finish(d, SPA if d.prestige > 0 else ATH, 3)
    elif lead >= s.r_minor:
        finish(d, SPA if d.prestige > 0 else ATH, 2)
    else:
        finish(d, 2, 1)

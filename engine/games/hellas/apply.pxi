# Hellas: playing one action or chance outcome (unchecked: the caller guarantees legality).

cdef int tied_largest(HData* d, int side, int* out) noexcept nogil:
    """The blocks of side that the next hit may take (HIT_TARGET, ATTRITION_TARGET: the most steps; the owner breaks
    ties, spec 6.4, 6.10): in siege attrition his units inside the city of att_area, in a battle his units in it.
    Returns how many (out: their A_UNIT ids, ascending)."""
    cdef HS* s = tab(d)
    cdef int u, n = 0, best = 0, a = d.att_area
    for u in range(s.nu):
        if s.u_side[u] == side and ((a >= 0 and d.loc[u] == a and d.incity[u]) or (a < 0 and in_battle(d, u))):
            if d.steps[u] > best:
                best = d.steps[u]
                n = 0
            if d.steps[u] == best:
                if out != NULL:
                    out[n] = A_UNIT + u
                n += 1
    return n


cdef void next_attrition_hit(HData* d) noexcept nogil:
    """Siege attrition hits (spec 6.10), d.att_dice of them still to take: each takes a step from the besieged unit
    with the most steps (its owner picks among ties), the garrison last; 1 hit = 1 step. With every besieged
    block gone the city falls."""
    cdef int a = d.att_area, side = d.cctrl[a], n, fallen = 0
    while d.att_dice > 0:
        n = tied_largest(d, side, NULL_BUF)
        if n == 0:
            fallen = 1                              # the garrison (1 step) is the last block to go
            break
        if n > 1:
            d.step = S_HIT
            d.cur = side
            return
        secret_loss(d, NULL_BUF[0] - A_UNIT)
        d.att_dice -= 1
    if fallen or besieged_blocks(d, a) == 0:
        capture(d, a, 1 - side)
    d.att_area = -1
    d.att_dice = 0
    if d.step != S_OVER:
        begin_battle(d)


cdef int roller(HData* d) noexcept nogil:
    """Whose dice the pending chance node rolls (spec 4.6 use b): a firing unit's owner (the garrison's for the
    garrison); the active player for siege attrition, storms and forced marches; -1 for other chance nodes."""
    cdef HS* s = tab(d)
    if d.step == S_FIRE:
        return (1 - d.b_att) if d.b_firer == GARRISON_FIRES else s.u_side[d.b_firer]
    if d.step == S_ATTRITION or d.step == S_STORM or d.step == S_MARCH:
        return d.active
    return -1


cdef int reroll_step(HData* d, int action) noexcept nogil:
    """The chance node a pending outcome came from."""
    if action >= A_FIRE and action < A_FIRE + 25:
        return S_FIRE
    if action >= A_MARCH and action < A_MARCH + 2:
        return S_MARCH
    return S_ATTRITION if d.att_area >= 0 else S_STORM


cdef void apply_action(HData* d, int action) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int step = d.step, side = d.cur, c, a, u, cost, toward, k
    if step == S_REROLL:                            # FAVOUR_REROLL (spec 4.6 use b)
        d.step = reroll_step(d, d.reroll)
        d.cur = CHANCE
        if action == A_YES:
            d.favour[side] = 0                      # the dice are rolled again; the second result stands
            d.reroll = -1
            return
        action = d.reroll
        d.reroll = -2                               # keep the first result: resolve it without asking again
        step = d.step
    if s.r_reroll and d.cur == CHANCE and d.reroll == -1:
        u = roller(d)
        if u >= 0 and d.favour[u]:
            d.reroll = action
            d.step = S_REROLL
            d.cur = u
            return
    if d.reroll == -2:
        d.reroll = -1
    if step == S_DEAL:
        c = action - A_DRAW
        d.deck &= ~bit(c)
        d.hand[deal_to(d)] |= bit(c)
        d.dealt += 1
        next_deal(d)
    elif step == S_TRUCE:
        if action == A_YES:                         # spec 5.11: pay, then both roll a die
            cost = s.r_truce_cost_pf if in_play(d, EV_PEACE) else s.r_truce_cost
            toward = d.prestige if d.truce_side == SPA else -d.prestige
            gain(d, d.truce_side, -cost)
            if d.step == S_OVER:
                return
            d.att_dice = toward - cost if s.r_truce_after else toward
            d.step = S_TRUCE_ROLL
            d.cur = CHANCE
        else:
            start_deal(d)
    elif step == S_TRUCE_ROLL:
        if action - A_SUM < d.att_dice:
            finish(d, d.truce_side, 5)
        else:
            start_deal(d)
    elif step == S_CARD:
        d.commit[side] = action - A_CARD
        committed(d)
    elif step == S_TARGET:
        if action == A_PASS:
            d.ev_opt = 0
        else:
            event_effect(d, action)
            if d.ev_left > 0:
                d.ev_left -= 1
            else:
                d.ev_opt -= 1
        next_target(d)
    elif step == S_FAVOUR:
        if action == A_YES:
            d.favour[side] = 0
            d.actions = action_count(d, side, d.play[side] >> 1, 1)
        to_action(d)
    elif step == S_ACTION:
        apply_phase_action(d, action)
    elif step == S_MOVE_UNIT:
        if action == A_PASS:
            to_action(d)
        else:
            d.unit = action - A_UNIT
            hidden_pick(d, d.unit)
            d.step = S_MOVE_DEST
    elif step == S_MOVE_DEST:
        if action == A_PASS:
            next_withdraw(d)
            return
        a = action - A_DEST
        u = d.unit
        d.storm_n = 0
        d.cargo = -1
        d.full_speed = 0
        if s.u_type[u] == T_FLEET and not (d.season == s.nseasons):
            d.storm_n = <int>sea_reach(d, u, 0, a)   # the path with the fewest hazard borders
            d.full_speed = a >= s.nl and sea_cost(d, u, a) == s.u_sspd[u]
        c = s.u_type[u] == T_FLEET and strait_only(d, u, a)
        move_unit(d, u, a)
        d.strait_in[u] = c
        d.mv_dest = a
        if s.u_type[u] == T_FLEET and a < s.nl:      # transport, also on a Winter refuge move (spec 5.8)
            for c in range(s.nu):
                if cargo_ok(d, u, c):
                    d.step = S_CARGO
                    return
        if forced_dests(d, u):
            d.step = S_FORCED
            return
        after_move(d)
    elif step == S_SALLY and d.b_area >= 0:        # a relief battle: the besieged join it (or not) before round 1
        d.b_kind = 0 if action == A_PASS else 3
        start_battle(d, d.b_area)
    elif step == S_SALLY:
        if action == A_PASS:
            end_sally(d)
        else:
            d.b_kind = 3
            start_battle(d, action - A_SALLY)
    elif step == S_FORCED:
        if action == A_PASS:
            after_move(d)
        else:
            d.march_to = action - A_DEST
            d.step = S_MARCH
            d.cur = CHANCE
    elif step == S_MARCH:
        if action == A_MARCH + 1:                   # FORCED_MARCH_SUCCESS; a failure costs nothing
            if s.u_type[d.unit] == T_FLEET and (s.hazard[d.loc[d.unit]] >> d.march_to) & 1:
                d.storm_n += 1                      # forced rowing across a hazard border
            c = (s.strait[d.loc[d.unit]] >> d.march_to) & 1 if s.u_type[d.unit] == T_FLEET else 0
            move_unit(d, d.unit, d.march_to)
            d.strait_in[d.unit] = c
            d.mv_dest = d.march_to
        d.march_to = -1
        d.cur = d.active
        after_move(d)
    elif step == S_CARGO:
        if action != A_PASS:
            d.cargo = action - A_UNIT
            move_unit(d, d.cargo, d.mv_dest)
            d.strait_in[d.cargo] = d.strait_in[d.unit]     # it landed where its fleet did
        after_move(d)
    elif step == S_STORM:
        for c in range(action - A_HITS):            # STORM_LOSS_ON: each roll of 1 costs the fleet a step
            if d.loc[d.unit] >= 0:
                lose_step(d, d.unit)
        if d.loc[d.unit] < 0 and d.cargo >= 0:
            eliminate(d, d.cargo)                   # the cargo goes down with its fleet
        d.storm_n = 0
        d.cur = d.active
        if d.loc[d.unit] >= 0:
            maybe_withdraw(d, d.mv_dest)
        next_withdraw(d)
    elif step == S_WITHDRAW:
        if action == A_YES:
            place(d, d.wd_unit, d.loc[d.wd_unit], 1)
        next_withdraw(d)
    elif (step == S_BATTLE or step == S_SIEGE) and action >= A_BATTLE and action < A_BATTLE + MAXA:
        open_battle(d, action - A_BATTLE)
    elif step == S_FIRE:
        apply_fire(d, (action - A_FIRE) // 5, (action - A_FIRE) % 5)
    elif step == S_ROUT:
        rout(d, action - A_UNIT)
        next_rout(d)
    elif step == S_CONTINUE and is_assault(d):
        if action == A_YES:
            next_round(d)
        else:
            end_assault(d)
    elif step == S_CONTINUE:
        if action == A_YES:
            if d.b_stage == 1:
                d.b_stage = 2
                d.cur = 1 - d.b_att
            else:
                next_round(d)
        else:
            d.b_retreat |= 1 << d.cur
            finish_battle(d)
    elif step == S_RETREAT:
        apply_retreat(d, action)
    elif step == S_PLACE:
        u = d.unit
        place(d, u, action - A_PLACE, 0)
        d.steps[u] = s.r_new_steps
        raised_steps(d, u, s.r_new_steps)
        to_action(d)
    elif step == S_SIEGE or step == S_BATTLE:
        if action == A_PASS:                        # the sieges among the smallest combats are left alone
            k = combat_choices(d, NULL_BUF)
            for c in range(k):
                if NULL_BUF[c] >= A_ASSAULT:
                    d.sieged |= bit(NULL_BUF[c] - A_ASSAULT)
                elif NULL_BUF[c] >= A_SIEGE and NULL_BUF[c] < A_SIEGE + MAXA:
                    d.sieged |= bit(NULL_BUF[c] - A_SIEGE)
            begin_battle(d)
        elif action >= A_ASSAULT:
            a = action - A_ASSAULT
            d.sieged |= bit(a)
            start_assault(d, a, 2 if d.treach == a else 1)
        else:
            a = action - A_SIEGE
            d.sieged |= bit(a)
            d.att_area = a
            d.att_dice = besieged_blocks(d, a)
            d.step = S_ATTRITION
            d.cur = CHANCE
    elif step == S_ATTRITION:
        d.att_dice = action - A_HITS                # now the hits still to take
        next_attrition_hit(d)
    elif step == S_HIT:
        if d.att_area >= 0:                         # spec 7.2 H4: the other player learns a step was lost, not
            secret_loss(d, action - A_UNIT)         # which block lost it
            d.att_dice -= 1
            next_attrition_hit(d)
            return
        lose_step(d, action - A_UNIT)
        if is_assault(d):
            d.b_routs -= 1
            next_assault_hit(d)
        else:
            d.b_lost |= 1 << side
            d.b_bank -= 1
            next_battle_hit(d)
    elif step == S_ATR_KEEP:
        if action == A_YES:                         # L312: Athens takes the card out of play
            take_out_of_play(d, d.atr_next)
        next_atr(d)
    elif choosing_sides(d):
        apply_sides(d, action)


cdef void after_move(HData* d) noexcept nogil:
    """After a unit (and its cargo) moved: storms for a fleet that crossed hazard borders, then the defender's
    withdrawal where it stopped, then the rest of the group."""
    if d.storm_n > 0:
        d.step = S_STORM
        d.cur = CHANCE
        return
    maybe_withdraw(d, d.mv_dest)
    next_withdraw(d)


cdef void next_withdraw(HData* d) noexcept nogil:
    """Ask the defender about the next unit that may withdraw, else go on with the group move."""
    cdef HS* s = tab(d)
    cdef int u
    if d.wd_area >= 0:
        u = withdraw_next(d)
        if u >= 0:
            d.wd_unit = u
            hidden_pick(d, u)                       # asked in roster order: which token is not his to know
            d.step = S_WITHDRAW
            d.cur = 1 - d.active
            return
        d.wd_area = d.wd_unit = -1
    d.cur = d.active
    if d.free_move or group_units(d, d.group, d.unit, d.season == s.nseasons, NULL) == 0:
        to_action(d)
    else:
        d.step = S_MOVE_UNIT


cdef void apply_phase_action(HData* d, int action) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int side = d.active, u, a, c, winter = d.season == s.nseasons
    if action == A_PASS:
        d.actions = 0
        d.refuge = 0
        end_actions(d)
        return
    if action < A_UNIT:                             # a group move
        a = action - A_MOVE
        if not winter:
            d.actions -= 1
        d.group = a
        d.unit = -1
        d.step = S_MOVE_UNIT
        return
    d.refuge = 0                                    # refuge moves come first in a Winter turn (spec 5.8)
    if action < A_RSTEP:
        u = action - A_RNEW
        d.actions -= s.r_recruit_cost
        hidden_pick(d, u)                           # H5: which pool block is not shown
        if s.u_barb[u]:                             # L170: full strength at home, then one free move
            place(d, u, s.u_home[u], 0)
            d.steps[u] = s.u_max[u]
            d.raised[u] = 1
            d.moved[u] = 0
            raised_steps(d, u, -1)
            if d.quake_vs != side and land_reach(d, u, 0):
                d.unit = u
                d.free_move = 1
                d.step = S_MOVE_DEST
                return
            to_action(d)
            return
        d.unit = u
        d.step = S_PLACE
        if recruit_places(d, u, NULL_BUF) == 1:
            apply_action(d, NULL_BUF[0])            # one place only: no decision
        return
    if action < A_PILLAGE:
        u = action - A_RSTEP
        d.actions -= s.r_recruit_cost
        for c in range(s.nu):                       # H6: the enemy sees a step come to this area, not to whom
            if s.u_side[c] == side and d.loc[c] == d.loc[u]:
                unsee(d, c)
        hidden_step_change(d, side, d.loc[u], d.incity[u], 0, 1)
        d.steps[u] += 1
    elif action < A_SUPPLY:
        a = action - A_PILLAGE
        d.actions -= 1
        d.pillaged[a] = 1
        gain(d, side, 1 if s.r_pillage_one else s.value[a])
        if d.step == S_OVER:
            return
    elif action < A_GARRISON:
        a = action - A_SUPPLY
        d.actions -= s.r_supply_cost
        d.supplied |= bit(a)
    else:
        a = action - A_GARRISON
        d.actions -= s.r_recruit_cost
        d.garrison[a] = side
    to_action(d)

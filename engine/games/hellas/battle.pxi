# Hellas: withdrawing into a city (spec 5.4), field and naval battles (6.1-6.7): the combat order, firing by
# letter with the defender first, hits to the largest block, routs, rounds, breaking off, retreats and prestige;
# and siege assaults (6.11) on the same machinery: the besieged fire as FORTIFIED_RATING, hits on them are banked
# against double defence, routs are ignored. One decision or one firing unit's roll at a time.

cdef inline int is_assault(HData* d) noexcept nogil:
    return d.b_kind == 1 or d.b_kind == 2


cdef inline int in_battle(HData* d, int u) noexcept nogil:
    """Unit u fights in the combat being fought: in a battle, in its area (in the field on land), not routed; in
    an assault, the attacker's field units and the defender's units inside the city; in a sally (Winter W3, or a
    relief battle the besieged join, spec 6.12), the attacker's units inside and in the field against the
    defender's field units."""
    if d.loc[u] != d.b_area or d.routed[u]:
        return 0
    if d.b_kind == 0:
        return not d.incity[u]
    if d.b_kind == 3:                               # a sally: all the attacker's units there, inside or not
        return 1 if tab(d).u_side[u] == d.b_att else not d.incity[u]
    return (not d.incity[u]) if tab(d).u_side[u] == d.b_att else d.incity[u]


cdef int battle_units(HData* d, int side) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int u, n = 0
    for u in range(s.nu):
        if s.u_side[u] == side and in_battle(d, u):
            n += 1
    return n


cdef int combat_choices(HData* d, int* out) noexcept nogil:
    """The combats the attacker may fight next (BATTLE_ORDER size, L64, spec 4.4, 6.1): those of the fewest blocks,
    battles and his open sieges ranked together; he orders ties, and since siege combat is optional he may pass
    the sieges among them (`pass` before the sieges' attrition and assault ids). BATTLE_ORDER free: any combat.
    Ascending action ids: pass, attrition, battles, assaults."""
    cdef HS* s = tab(d)
    cdef int a, n = 0, best = 1 << 20, free = s.r_battle_free, side = d.active
    cdef uint64_t due, cand = 0, attr = 0, assa = 0, f
    # a battle's size is its field blocks; a siege's, every besieged block (the garrison included) and the besiegers
    # there (spec 6.1)
    cdef int bsize[MAXA]                                # per battle area
    cdef int ssize[MAXA]                                # per siege area (a relief force can make both)
    for a in range(s.nl):                               # the active player's sieges not fought yet (siege_base)
        if d.besieged[a] and d.ctrl[a] == side and not (d.sieged >> a) & 1:
            cand |= bit(a)
    due = d.o.field[ATH] & d.o.field[SPA] & ~d.fought   # contested (both sides in the field), not fought yet
    if not due and not cand:
        return 0
    f = cand                                            # each siege's tests once
    while f:
        a = __builtin_ctzll(f)
        f &= f - 1
        if attrition_open(d, a):
            attr |= bit(a)
        if assault_open(d, a):
            assa |= bit(a)
        ssize[a] = besieged_blocks(d, a) + d.nfield[side][a]
    cand &= attr | assa                                 # the open sieges
    f = due
    while f:
        a = __builtin_ctzll(f)
        f &= f - 1
        bsize[a] = d.nfield[ATH][a] + d.nfield[SPA][a]
    if not free:
        f = due
        while f:
            a = __builtin_ctzll(f)
            f &= f - 1
            if bsize[a] < best:
                best = bsize[a]
        f = cand
        while f:
            a = __builtin_ctzll(f)
            f &= f - 1
            if ssize[a] < best:
                best = ssize[a]
        f = due                                         # keep only the smallest
        while f:
            a = __builtin_ctzll(f)
            f &= f - 1
            if bsize[a] != best:
                due &= ~bit(a)
        f = cand
        while f:
            a = __builtin_ctzll(f)
            f &= f - 1
            if ssize[a] != best:
                cand &= ~bit(a)
    attr &= cand
    assa &= cand
    if cand:
        if out != NULL:
            out[n] = A_PASS
        n += 1
    n = bits_out(attr, A_SIEGE, out, n)
    n = bits_out(due, A_BATTLE, out, n)
    return bits_out(assa, A_ASSAULT, out, n)


cdef inline int relief_battle(HData* d, int a) noexcept nogil:
    """Spec 6.12: the active player's units fight in the area of his own city where more of his units are shut
    inside (they were besieged until the relief force arrived)."""
    cdef HS* s = tab(d)
    return a < s.nl and is_city(s, a) and d.cctrl[a] == d.active and units_in(d, a, d.active, 1) > 0


cdef void open_battle(HData* d, int a) noexcept nogil:
    """The next combat is the battle in area a: a relief battle first asks its player whether the besieged sally
    and join the relief force before round 1 (spec 6.12); any other starts at once."""
    if relief_battle(d, a):
        d.b_area = a
        d.step = S_SALLY
        d.cur = d.active
        return
    start_battle(d, a)


cdef void start_battle(HData* d, int a) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int u
    d.fought |= bit(a)
    d.b_area = a
    d.b_att = d.active
    d.b_round = 1
    d.b_lost = 0
    d.b_retreat = 0
    cdef int st = strait_battle(d)
    for u in range(s.nu):
        d.routed[u] = 0
        if in_battle(d, u):
            seen(d, u)                              # REVEAL_IN_COMBAT (spec 7.2 H4)
            if s.u_side[u] == d.b_att:
                d.strait_in[u] = st                 # the whole attack counts as across the strait, or none of it
    d.b_letter = 0
    d.b_side = 0
    d.b_last = -1
    next_fire(d)


cdef int strait_battle(HData* d) noexcept nogil:
    """STRAIT_DEFENDER_FIRST_ROUND1 (spec 6.7, L97): at sea, some attacking fleet entered across a strait this turn;
    on land, every attacking unit landed from a sea it could enter only across a strait (a fleet or its cargo)."""
    cdef HS* s = tab(d)
    cdef int u, some = 0, every = 1
    if not s.r_strait or is_assault(d):
        return 0
    for u in range(s.nu):
        if s.u_side[u] == d.b_att and in_battle(d, u):
            if d.strait_in[u] and d.moved[u]:
                some = 1
            else:
                every = 0
    return some if d.b_area >= s.nl else (some and every)


cdef inline int strait_round(HData* d) noexcept nogil:
    """Round 1 of a battle fought across a strait: every defending unit fires before any attacking one."""
    cdef HS* s = tab(d)
    cdef int u
    if d.b_round != 1 or is_assault(d):
        return 0
    for u in range(s.nu):
        if d.loc[u] == d.b_area and s.u_side[u] == d.b_att and d.strait_in[u]:
            return 1
    return 0


cdef inline int fire_letter(HData* d, int u) noexcept nogil:
    cdef HS* s = tab(d)
    if u == GARRISON_FIRES or (is_assault(d) and s.u_side[u] != d.b_att):
        return s.r_fort_let                          # EXT-7: fortified blocks fight as A2
    return s.u_nlet[u] if d.b_area >= s.nl else s.u_let[u]


cdef inline int fire_power(HData* d, int u) noexcept nogil:
    cdef HS* s = tab(d)
    if u == GARRISON_FIRES or (is_assault(d) and s.u_side[u] != d.b_att):
        return s.r_fort_pow
    return s.u_npow[u] if d.b_area >= s.nl else s.u_pow[u]


cdef void next_fire(HData* d) noexcept nogil:
    """The next unit to fire: letters A to D (sea E, F), the defender first within a letter (L193), each unit
    separately in roster order."""
    cdef HS* s = tab(d)
    cdef int u, side, st = strait_round(d)
    while d.b_letter < 6 or (st and d.b_side == 0):
        if d.b_letter >= 6:                          # the strait: the attacker's letters after all the defender's
            d.b_letter = 0
            d.b_side = 1
        side = (1 - d.b_att) if d.b_side == 0 else d.b_att
        for u in range(d.b_last + 1, s.nu):
            if s.u_side[u] == side and in_battle(d, u) and fire_letter(d, u) == d.b_letter:
                d.b_last = u
                d.b_firer = u
                d.step = S_FIRE
                d.cur = CHANCE
                return
        if is_assault(d) and d.b_side == 0 and d.b_letter == s.r_fort_let and not d.g_fired \
                and has_garrison(d, d.b_area, side):
            d.g_fired = 1                            # the garrison block fires last of its letter
            d.b_firer = GARRISON_FIRES
            d.step = S_FIRE
            d.cur = CHANCE
            return
        d.b_last = -1
        if st:
            d.b_letter += 1
        elif d.b_side == 0:
            d.b_side = 1
        else:
            d.b_side = 0
            d.b_letter += 1
    end_round(d)


cdef int smallest(HData* d, int side) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int u, best = -1
    for u in range(s.nu):
        if s.u_side[u] == side and in_battle(d, u) and (best < 0 or d.steps[u] < d.steps[best]):
            best = u
    return best


cdef void apply_fire(HData* d, int hits, int routs) noexcept nogil:
    """One unit's roll: hits at once to the largest enemy block, then its routs (spec 6.4 2.3, 2.4)."""
    cdef HS* s = tab(d)
    if is_assault(d):
        assault_fire(d, hits)
        return
    d.b_bank = hits                                 # in a field or naval battle: the hits still to take
    d.b_routs = routs
    d.b_rout_side = 1 - s.u_side[d.b_firer]
    next_battle_hit(d)


cdef void next_battle_hit(HData* d) noexcept nogil:
    """Each hit takes a step from the enemy block in the battle with the most steps, its owner picking among ties
    (HIT_TARGET, spec 6.4 2.3); then the routs."""
    cdef int t = d.b_rout_side, n
    while d.b_bank > 0:
        n = tied_largest(d, t, NULL_BUF)
        if n == 0:
            break
        if n > 1:
            d.step = S_HIT
            d.cur = t
            return
        lose_step(d, NULL_BUF[0] - A_UNIT)
        d.b_lost |= 1 << t
        d.b_bank -= 1
    d.b_bank = 0
    next_rout(d)


cdef void next_rout(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int n
    while d.b_routs > 0:
        n = battle_units(d, d.b_rout_side)
        if n == 0:
            break
        if n > 1 and not s.r_rout_smallest:
            d.step = S_ROUT                          # ROUT_TARGET owner_choice: the owner picks
            d.cur = d.b_rout_side
            return
        rout(d, smallest(d, d.b_rout_side))
    d.b_routs = 0
    after_fire(d)


cdef void rout(HData* d, int u) noexcept nogil:
    d.routed[u] = 1
    d.b_lost |= 1 << tab(d).u_side[u]
    d.b_routs -= 1


cdef void after_fire(HData* d) noexcept nogil:
    if d.step == S_OVER:
        return
    if battle_units(d, ATH) == 0 or battle_units(d, SPA) == 0:
        finish_battle(d)
        return
    next_fire(d)


cdef void end_round(HData* d) noexcept nogil:
    """After a round: the attacker may break off, then the defender; after the last round the attacker retreats
    (spec 6.4 3-4). An assault lasts ASSAULT_ROUNDS; the attacker may stop after any round."""
    cdef HS* s = tab(d)
    if is_assault(d):
        if d.b_round >= (s.r_assault_treach if d.b_kind == 2 else s.r_assault):
            end_assault(d)
            return
        d.b_stage = 1
        d.step = S_CONTINUE
        d.cur = d.b_att
        return
    if d.b_round >= s.r_battle_rounds:
        if s.r_att_retreats:
            d.b_retreat |= 1 << d.b_att
        finish_battle(d)
        return
    d.b_stage = 1
    d.step = S_CONTINUE
    d.cur = d.b_att


cdef void next_round(HData* d) noexcept nogil:
    d.g_fired = 0
    d.b_round += 1
    d.b_stage = 0
    d.b_letter = 0
    d.b_side = 0
    d.b_last = -1
    next_fire(d)


cdef void finish_battle(HData* d) noexcept nogil:
    """The winner keeps the area; +BATTLE_WIN_PRESTIGE if the loser lost a step or had a unit routed. Routed
    units and the side that breaks off retreat, one unit at a time."""
    cdef HS* s = tab(d)
    cdef int u, side, w = -1
    for u in range(s.nu):
        if in_battle(d, u) and (d.b_retreat >> s.u_side[u]) & 1:
            d.routed[u] = 1                          # breaking off: every remaining unit retreats
    for side in range(2):
        if battle_units(d, side) > 0:
            w = side
    if w >= 0 and battle_units(d, 1 - w) == 0 and (d.b_lost >> (1 - w)) & 1 and s.r_battle_prestige:
        gain(d, w, s.r_battle_prestige)
        if d.step == S_OVER:
            return
    if d.b_kind == 3:
        for u in range(s.nu):
            if s.u_side[u] == d.b_att and d.loc[u] == d.b_area and d.incity[u]:
                d.routed[u] = 0                      # sally units that rout or break off go back inside
    d.r_unit = -1
    next_retreat(d)


cdef int retreat_dests(HData* d, int u, int* out) noexcept nogil:
    """Spec 6.6: one adjacent area, not neutral, with no enemy units, friendly or uncontrolled (cavalry: also
    enemy-controlled), or the area the unit came from this turn; a fleet retreats by sea; the city's holder may
    retreat into its city within capacity (A_YES)."""
    cdef HS* s = tab(d)
    cdef int a = d.loc[u], side = s.u_side[u], b, n = 0
    cdef uint64_t opts
    if s.u_type[u] == T_FLEET:
        opts = s.coast[a] if a < s.nl else (s.adj[a] | s.coast[a])
    else:
        opts = s.adj[a] if a < s.nl else 0
    if is_city(s, a) and d.cctrl[a] == side and (s.u_type[u] != T_FLEET or s.site[a] == SITE_PORT) \
            and units_in(d, a, side, 1) < s.capacity[a]:
        if out != NULL:
            out[n] = A_YES
        n += 1
    for b in range(s.na):
        if not (opts >> b) & 1 or s.neutral[b] or enemy_units(d, b, side):
            continue
        if b < s.nl and s.u_type[u] == T_FLEET and not friendly_city(d, b, side) and d.ctrl[b] != side:
            continue                                 # a fleet lands only on a friendly coast
        if d.ctrl[b] == 1 - side and b != d.came[u] and not (s.r_cav_retreat and s.u_type[u] == T_CAVALRY):
            continue
        if out != NULL:
            out[n] = A_DEST + b
        n += 1
    return n


cdef void next_retreat(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int u
    for u in range(d.r_unit + 1, s.nu):
        if d.loc[u] == d.b_area and d.routed[u]:
            d.r_unit = u
            if retreat_dests(d, u, NULL) == 0:
                eliminate(d, u)                      # NO_RETREAT_ELIMINATES (EXT-10)
                d.routed[u] = 0
                continue
            d.step = S_RETREAT
            d.cur = s.u_side[u]
            return
    d.b_area = -1
    d.r_unit = -1
    d.b_firer = -1
    if d.b_kind == 3 and d.season == s.nseasons and d.wstage == 1:
        d.b_kind = 0
        end_sally(d)                                 # a Winter sally (W3)
        return
    d.b_kind = 0
    begin_battle(d)


cdef void apply_retreat(HData* d, int action) noexcept nogil:
    cdef int u = d.r_unit
    d.routed[u] = 0
    if action == A_YES:
        place(d, u, d.loc[u], 1)
    else:
        place(d, u, action - A_DEST, d.incity[u])
        unsee(d, u)
    next_retreat(d)


# --- withdrawing into the city (spec 5.4) ---------------------------------------------------------------------

cdef void maybe_withdraw(HData* d, int a) noexcept nogil:
    """The active player's units stopped in area a: the first time this turn, if the opponent holds its city and
    has field units there, he decides at once which go inside (WITHDRAW_INTO_CITY, per EXT-7)."""
    cdef HS* s = tab(d)
    cdef int o = 1 - d.active
    if not s.r_withdraw or not is_city(s, a) or (d.asked >> a) & 1 or d.cctrl[a] != o or not units_in(d, a, o, 0):
        return
    d.asked |= bit(a)
    d.wd_area = a
    d.wd_unit = -1


cdef int withdraw_next(HData* d) noexcept nogil:
    """The next defender field unit that may still go inside (capacity; fleets only into a port), or -1."""
    cdef HS* s = tab(d)
    cdef int a = d.wd_area, o = 1 - d.active, u
    if units_in(d, a, o, 1) >= s.capacity[a]:
        return -1
    for u in range(d.wd_unit + 1, s.nu):
        if d.loc[u] == a and s.u_side[u] == o and not d.incity[u] and \
                (s.u_type[u] != T_FLEET or s.site[a] == SITE_PORT):
            return u
    return -1


# --- siege assault (spec 6.11) --------------------------------------------------------------------------------

cdef void start_assault(HData* d, int a, int kind) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int u
    d.b_area = a
    d.b_att = d.active
    d.b_kind = kind
    d.b_round = 1
    d.b_bank = 0
    d.g_fired = 0
    d.b_lost = 0
    d.b_retreat = 0
    if kind == 2:
        d.treach = -1
    for u in range(s.nu):
        d.routed[u] = 0
        if in_battle(d, u):
            seen(d, u)                              # REVEAL_IN_COMBAT
    d.b_letter = 0
    d.b_side = 0
    d.b_last = -1
    next_fire(d)


cdef void assault_fire(HData* d, int hits) noexcept nogil:
    """Defenders' hits go to the largest attacking unit; attackers' hits are banked, and every
    DOUBLE_DEFENCE_HITS_PER_STEP of them (1 under Civil War or Treachery, L294, L312) takes a step from the largest
    besieged unit, the garrison last (its loss takes the city). The owner picks among blocks tied for the most
    steps (spec 6.4, 6.10). Routs are ignored (ASSAULT_ROUTS), so b_routs counts the steps still to take."""
    cdef HS* s = tab(d)
    cdef int a = d.b_area, dside = 1 - d.b_att, per
    if d.b_firer == GARRISON_FIRES or s.u_side[d.b_firer] == dside:
        d.b_routs = hits
        d.b_rout_side = d.b_att
    else:
        per = s.r_dd_open if (d.civil[a] or d.b_kind == 2) else s.r_dd
        d.b_bank += hits
        d.b_routs = d.b_bank // per
        d.b_bank -= d.b_routs * per
        d.b_rout_side = dside
    next_assault_hit(d)


cdef void next_assault_hit(HData* d) noexcept nogil:
    cdef int a = d.b_area, t = d.b_rout_side, n
    while d.b_routs > 0:
        n = tied_largest(d, t, NULL_BUF)
        if n == 0:
            d.b_routs = 0
            if t != d.b_att:
                capture(d, a, d.b_att)              # the garrison, last, falls with the city
                end_assault(d)
                return
            break
        if n > 1:
            d.step = S_HIT
            d.cur = t
            return
        lose_step(d, NULL_BUF[0] - A_UNIT)
        d.b_routs -= 1
    d.b_routs = 0
    if besieged_blocks(d, a) == 0:
        capture(d, a, d.b_att)
        end_assault(d)
        return
    if battle_units(d, d.b_att) == 0:
        end_assault(d)
        return
    next_fire(d)


cdef void end_assault(HData* d) noexcept nogil:
    """The odd banked hit is lost; a failed Treachery assault must retreat (L294)."""
    cdef HS* s = tab(d)
    cdef int u, a = d.b_area
    d.b_bank = 0
    if d.step == S_OVER:
        return
    if d.b_kind == 2 and d.besieged[a]:
        for u in range(s.nu):
            if d.loc[u] == a and s.u_side[u] == d.b_att and not d.incity[u]:
                d.routed[u] = 1
        d.r_unit = -1
        next_retreat(d)
        return
    d.b_area = -1
    d.b_firer = -1
    d.b_kind = 0
    begin_battle(d)


# --- Winter sallies (spec 6.12, W3; relief battles in a season are open_battle's) ----------------------------------------------------------------------------

cdef int sally_ok(HData* d, int a) noexcept nogil:
    """The active player's units besieged in the city of a may sally against its besiegers (WINTER_SALLY)."""
    return is_city(tab(d), a) and d.besieged[a] and d.cctrl[a] == d.active and units_in(d, a, d.active, 1) > 0 \
        and units_in(d, a, 1 - d.active, 0) > 0


cdef void begin_sally(HData* d) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int a
    for a in range(s.nl):
        if sally_ok(d, a):
            d.step = S_SALLY
            d.cur = d.active
            return
    end_sally(d)


cdef void end_sally(HData* d) noexcept nogil:
    """W3 is Player 1's sally, then Player 2's; then W4 offensive combat in the same order."""
    if d.step == S_OVER:
        return
    recompute(d)
    capital_check(d)
    if d.step == S_OVER:
        return
    if d.tix == 0:
        d.tix = 1
    else:
        d.tix = 0
        d.wstage = 2
    start_turn(d)

# The phase machine: each function walks to the next decision, resolving what is automatic.
# Included by state.pyx (one compiled module: the C functions inline across files).
# ------------------------------------------------------------------------------------------------------------------
# the phase machine

cdef void game_over(MNData* d, int winners, int reason) noexcept nogil:
    d.winners = winners
    d.reason = reason
    d.step = S_OVER
    d.cur = TERMINAL


cdef void start_round(MNData* d) noexcept nogil:
    cdef int p
    d.round += 1
    if d.round > d.max_rounds:
        game_over(d, 0, 6)
        return
    for p in range(d.players):
        d.once[p] = 0
    d.destroyed = 0
    collect(d)


cdef void collect(MNData* d) noexcept nogil:
    """Phase 1 (L151-155, L216-251): every producer, supply-limited in trade order (ASSUMED G10)."""
    cdef int ent[5][NR]
    cdef int tr[15]
    cdef int order[5]
    cdef int p, k, q, b, pr, m, t, i, j, tmp, need
    memset(ent, 0, sizeof(ent))
    for k in range(NSLOT):
        pr = SLOT_PROV[k]
        if not (d.live >> pr) & 1:
            continue
        t = SLOT_TYPE[k]
        if d.built[k]:
            b = bctrl(d, k)
            if b < 0:
                continue
            if t == CARAVAN:
                ent[b][SLOT_GOOD[k]] += 1 + market_bonus(d, pr, b)
            elif t == REGULAR or t == CAPITAL:
                ent[b][COIN] += 1 + temple_bonus(d, pr, b)
            elif t == LEGENDARY:
                ent[b][COIN] += 1
                d.rare_owed[b] += 1
        elif t == CARAVAN and d.circe[k] >= 0 and has(d, d.circe[k], C_CIRCE):
            b = d.circe[k]
            ent[b][SLOT_GOOD[k]] += 1 + market_bonus(d, pr, b)
    for p in range(d.players):
        if has(d, p, C_ARTEMIS):
            ent[p][COIN] += 1
    tracks(d, tr)
    for p in range(d.players):
        order[p] = p
    for i in range(d.players):
        for j in range(d.players - 1 - i):
            if tr[order[j + 1] * 3] > tr[order[j] * 3]:
                tmp = order[j]; order[j] = order[j + 1]; order[j + 1] = tmp
    for t in range(NR):
        need = 0
        for p in range(d.players):
            need += ent[p][t]
        if need <= d.supply[t]:
            for p in range(d.players):
                gain(d, p, t, ent[p][t])
        else:
            while d.supply[t] > 0 and need > 0:
                for i in range(d.players):
                    q = order[i]
                    if ent[q][t] > 0 and d.supply[t] > 0:
                        gain(d, q, t, 1)
                        ent[q][t] -= 1
                        need -= 1
    d.c_p = 0
    d.c_k = -1
    next_legchoice(d)


cdef inline int market_bonus(MNData* d, int pr, int b) noexcept nogil:
    cdef int k
    for k in range(P_SLOT0[pr], P_SLOT0[pr] + P_NSLOT[pr]):
        if SLOT_TYPE[k] == MARKET and d.built[k] and bctrl(d, k) == b:
            return 1
    return 0


cdef inline int temple_bonus(MNData* d, int pr, int b) noexcept nogil:
    cdef int k
    for k in range(P_SLOT0[pr], P_SLOT0[pr] + P_NSLOT[pr]):
        if SLOT_TYPE[k] == TEMPLE and d.built[k] and bctrl(d, k) == b:
            return 1
    return 0


cdef void next_legchoice(MNData* d) noexcept nogil:
    """Legendary city with a temple of the same holder: +1 coin or +1 rare good, the holder's choice (L232)."""
    cdef int k, b
    for k in range(d.c_k + 1, NSLOT):
        if SLOT_TYPE[k] == LEGENDARY and d.built[k] and (d.live >> SLOT_PROV[k]) & 1:
            b = bctrl(d, k)
            if b >= 0 and temple_bonus(d, SLOT_PROV[k], b):
                d.c_k = k
                d.step = S_LEGCHOICE
                d.cur = b
                return
    d.draw_ret = 0
    next_draw(d)


cdef void next_draw(MNData* d) noexcept nogil:
    """Rare goods owed are drawn one by one (chance); the discard is reshuffled when the stack is empty (L244)."""
    cdef int p
    for p in range(d.players):
        if d.rare_owed[p] > 0:
            if d.stack == 0:
                d.stack = d.discard
                d.discard = 0
            if d.stack == 0:          # all 13 held: the draw is lost (ASSUMED G10)
                d.rare_owed[p] = 0
                continue
            d.c_p = p
            d.step = S_RAREDRAW
            d.cur = CHANCE
            return
    if d.draw_ret == 0:
        d.c_p = -1
        next_colossus(d)
    else:
        next_capture(d)


cdef void next_colossus(MNData* d) noexcept nogil:
    cdef int p
    for p in range(d.c_p + 1, d.players):
        if (d.cards[p] >> C_COLOSSUS) & 1:
            d.c_p = p
            d.step = S_COLOSSUS
            d.cur = p
            if colossus_legal(d, p, NULL) > 0:
                return
    start_trade(d)


cdef int colossus_legal(MNData* d, int p, int* out) noexcept nogil:
    cdef int n = 0, t
    for t in range(NR):
        if d.supply[t] > 0:
            if out != NULL:
                out[n] = A_ITEM + t
            n += 1
    return n


cdef void start_trade(MNData* d) noexcept nogil:
    """Phase 2 (L157-163, L253-293)."""
    cdef int p
    for p in range(d.players):
        d.nofs[p] = 0
        d.odone[p] = 0
    if d.tok_owner != d.title[0] or d.tokens == 0:
        d.tok_owner = d.title[0]
        d.tokens = 7
    d.step = S_EXCH
    d.cur = d.title[0]


cdef void after_exchange(MNData* d) noexcept nogil:
    cdef int p
    if d.N == 0:
        start_build(d)
        return
    for p in range(d.players):
        d.nofs[p] = d.N
    d.c_p = -1
    next_antigone(d)


cdef void next_antigone(MNData* d) noexcept nogil:
    cdef int p
    for p in range(d.c_p + 1, d.players):
        if has(d, p, C_ANTIGONE):
            d.c_p = p
            d.step = S_ANTIGONE
            d.cur = p
            return
    for p in range(d.players):
        if hand_total(d, p) < d.nofs[p]:     # too few resources: no part in the trade (L293)
            d.nofs[p] = 0
    next_offer(d)


cdef void next_offer(MNData* d) noexcept nogil:
    cdef int p, t, best
    cdef int tr[15]
    for p in range(d.players):
        if d.odone[p] < d.nofs[p]:
            d.step = S_OFFER
            d.cur = p
            return
    # everyone has committed: reveal together (L265); the offers stay on the table, now public
    for p in range(d.players):
        for t in range(NR, NI):
            if d.offer[p][t]:
                d.rknown[p] |= 1 << (t - NR)
    d.la = d.lb = d.pa = d.pb = -1
    d.ntakes = 0
    if d.nofs[d.title[0]] > 0:
        d.taker = d.title[0]
    else:                                     # ASSUMED G13: the highest trade value among those taking part
        tracks(d, tr)
        best = -1
        for p in range(d.players):
            if d.nofs[p] > 0 and (best < 0 or tr[p * 3] > tr[best * 3]):
                best = p
        d.taker = best
    d.first_taker = d.taker
    d.step = S_TAKE
    d.cur = d.taker
    if d.taker < 0 or take_legal(d, NULL) == 0:
        end_takes(d)


cdef int take_legal(MNData* d, int* out) noexcept nogil:
    """Take one available offered item of another player; no taking straight back twice (L275-277)."""
    cdef int n = 0, v, t, forbidden = -1
    if d.lb == d.taker and d.pa == d.taker:
        forbidden = d.la
    for v in range(d.players):
        if v == d.taker or v == forbidden:
            continue
        for t in range(NI):
            if d.offer[v][t] > 0:
                if out != NULL:
                    out[n] = A_TAKE + v * NI + t
                n += 1
    return n


cdef void end_takes(MNData* d) noexcept nogil:
    cdef int p, t
    for p in range(d.players):
        for t in range(NI):
            d.offer[p][t] = 0
    # uneven trade: the opener (+1) gives the last victim (-1) one resource (L283-289)
    if d.ntakes > 0 and d.first_taker != d.lb:
        d.step = S_GIFT
        d.cur = d.first_taker
        return
    start_build(d)


cdef void start_build(MNData* d) noexcept nogil:
    """Phase 3 (L165-176, L295-409)."""
    cdef int p
    for p in range(d.players):
        d.start_ctrl[p] = controlled(d, p)
    d.done = 0
    d.bought = 0
    next_builder(d)


cdef void next_builder(MNData* d) noexcept nogil:
    cdef int p, left = 0, last = -1
    for p in range(d.players):
        if not (d.done >> p) & 1:
            left += 1
            last = p
    if left == 0:
        refill(d)
        return
    if left == 1:
        select_builder(d, last)
        return
    d.step = S_CHOOSEB
    d.cur = d.title[1]


cdef int perseus_can_win(MNData* d, int p) noexcept nogil:
    if not (d.cards[p] >> C_PERSEUS) & 1:
        return 0
    if can_afford(d, p, COST_PYR):
        return 1
    return ncards(d, p) == MAX_CARDS - 1 and d.row != 0 and can_afford(d, p, CARD_BASE + ncards(d, p))


cdef void select_builder(MNData* d, int q) noexcept nogil:
    cdef int p
    for p in range(d.players):
        if p != q and perseus_can_win(d, p):   # Perseus may jump the order to win (L611, L644-646)
            d.pending_b = q
            d.step = S_PERSEUS
            d.cur = p
            return
    begin_build(d, q, 0)


cdef void begin_build(MNData* d, int q, int perseus) noexcept nogil:
    d.builder = q
    d.perseus_mode = perseus
    d.step = S_BUILD
    d.cur = q
    d.keep_n = 0
    d.keep_rare = 0
    memset(d.keep_res, 0, sizeof(d.keep_res))


cdef void end_build_turn(MNData* d) noexcept nogil:
    """Unused goods go back; up to 2 coins (and the Hanging Gardens' 2) are kept, shown (L176, L333, L344)."""
    cdef int x = d.builder, g, kc
    for g in range(NG):
        d.supply[g] += d.res[x][g] - d.keep_res[g]
        d.res[x][g] = d.keep_res[g]
    kc = d.res[x][COIN] - d.keep_res[COIN]
    if kc > 2:
        kc = 2
    kc += d.keep_res[COIN]
    d.supply[COIN] += d.res[x][COIN] - kc
    d.res[x][COIN] = kc
    d.discard |= d.rare[x] & ~d.keep_rare
    d.rare[x] = d.keep_rare
    d.rknown[x] = d.keep_rare
    d.done |= 1 << x
    d.builder = -1
    next_builder(d)


cdef void refill(MNData* d) noexcept nogil:
    """End of the build phase: turn up a face-down card for each bought (chance, L73), then Glory (L603)."""
    if d.bought > 0 and d.facedown != 0 and popc(d.row) < 5:
        d.step = S_REFILL
        d.cur = CHANCE
        return
    d.bought = 0
    cdef int p, win = 0
    for p in range(d.players):
        if ncards(d, p) >= MAX_CARDS:
            win |= 1 << p
    if win:
        if (win >> d.title[1]) & 1:
            win = 1 << d.title[1]
        game_over(d, win, 2)
        return
    start_move(d)


cdef void start_move(MNData* d) noexcept nogil:
    """Phase 4 (L178-186, L411-555)."""
    cdef int p
    d.peace_a = -1
    d.peace_b = -1
    d.done = 0
    for p in range(d.players):
        if (d.cards[p] >> C_ZEUS) & 1:
            d.step = S_ZEUS
            d.cur = p
            return
    next_mover(d)


cdef void zeus_peace(MNData* d, int x, int y) noexcept nogil:
    """Statue of Zeus (L897-907): legions in each other's provinces go home; no fighting for the round."""
    cdef int p, n
    d.peace_a = x
    d.peace_b = y
    d.zeus_last[x] = y
    for p in range(NPROV):
        if d.ctrl[p] == x and d.leg[p][y] > 0 and p != CAP_PROV[d.emp[y]]:
            n = d.leg[p][y]
            d.leg[p][y] = 0
            release_all(d, p, y)
            place_legions(d, CAP_PROV[d.emp[y]], y, n)
        elif d.ctrl[p] == y and d.leg[p][x] > 0 and p != CAP_PROV[d.emp[x]]:
            n = d.leg[p][x]
            d.leg[p][x] = 0
            release_all(d, p, x)
            place_legions(d, CAP_PROV[d.emp[x]], x, n)


cdef void next_mover(MNData* d) noexcept nogil:
    cdef int p, left = 0, last = -1
    for p in range(d.players):
        if not (d.done >> p) & 1:
            left += 1
            last = p
    if left == 0:
        end_move_phase(d)
        return
    if left == 1:
        begin_move(d, last)
        return
    d.step = S_CHOOSEM
    d.cur = d.title[2]


cdef void begin_move(MNData* d, int x) noexcept nogil:
    d.mover = x
    memset(d.legmv, 0, sizeof(d.legmv))
    memset(d.trimv, 0, sizeof(d.trimv))
    d.seafought = 0
    d.landfought = 0
    d.lastmv = 0
    d.step = S_MOVETRI
    d.cur = x
    if not movetri_any(d):                 # only "pass": skip the empty step
        to_sea_battles(d)


cdef void to_sea_battles(MNData* d) noexcept nogil:
    d.step = S_SEABATTLE
    d.cur = d.mover
    if seabattle_legal(d, NULL) == 1:
        to_legion_moves(d)


cdef void to_legion_moves(MNData* d) noexcept nogil:
    d.lastmv = 0
    d.step = S_MOVELEG
    d.cur = d.mover
    if not moveleg_any(d):
        to_land_battles(d)


cdef void to_land_battles(MNData* d) noexcept nogil:
    d.step = S_LANDBATTLE
    d.cur = d.mover
    if landbattle_legal(d, NULL) == 0:
        release_at_war(d)
        d.c_k = -1
        next_capture(d)


cdef void start_battle(MNData* d, int kind, int loc, int att, int dfd) noexcept nogil:
    d.b_kind = kind
    d.b_loc = loc
    d.b_att = att
    d.b_def = dfd
    if kind == 0:
        d.seafought |= 1u << loc
    else:
        d.landfought |= 1u << loc
    d.step = S_HITS_A
    d.cur = CHANCE


cdef inline int cas_choice(MNData* d, int side) noexcept nogil:
    """Does the side (0 attacker, 1 defender) have to choose between a legion and its fortress?"""
    cdef int who = d.b_att if side == 0 else d.b_def
    cdef int h = d.b_hits_d if side == 0 else d.b_hits_a
    if d.b_kind == 0 or d.fort[d.b_loc] != who:
        return 0
    return h >= 1 and h <= d.leg[d.b_loc][who]


cdef void lose(MNData* d, int who, int h, int fort_first) noexcept nogil:
    cdef int p = d.b_loc, n
    if d.b_kind == 0:
        n = d.tri[p][who]
        d.tri[p][who] = n - h if h < n else 0
        if who == d.mover and d.trimv[p] > d.tri[p][who]:
            d.trimv[p] = d.tri[p][who]
        return
    if h <= 0:
        return
    if d.fort[p] == who and (fort_first or h > d.leg[p][who]):
        d.fort[p] = -1
        h -= 1
    n = d.leg[p][who]
    d.leg[p][who] = n - h if h < n else 0
    if who == d.mover and d.legmv[p] > d.leg[p][who]:
        d.legmv[p] = d.leg[p][who]
    release_excess(d, p, who)


cdef void resolve_casualties(MNData* d, int stage) noexcept nogil:
    """stage 0: dice done; 1: attacker has chosen; 2: defender has chosen. Hits land together (L445)."""
    if stage == 0 and cas_choice(d, 0):
        d.step = S_CAS_A
        d.cur = d.b_att
        return
    if stage <= 1 and cas_choice(d, 1):
        d.step = S_CAS_D
        d.cur = d.b_def
        return
    lose(d, d.b_def, d.b_hits_a, d.cas_d)
    lose(d, d.b_att, d.b_hits_d, d.cas_a)
    d.cas_a = 0
    d.cas_d = 0
    if d.b_kind == 0:
        to_sea_battles(d)
    else:
        to_land_battles(d)


cdef int capture_target(MNData* d, int p, int x) noexcept nogil:
    """Is p a province where x is the invader (only x has units, another player controls it)?"""
    if not (d.live >> p) & 1 or d.ctrl[p] < 0 or d.ctrl[p] == x:
        return 0
    if d.leg[p][x] == 0 or units_mask(d, p) != (1 << x):
        return 0
    return 1


cdef void next_capture(MNData* d) noexcept nogil:
    cdef int p, x = d.mover
    for p in range(d.c_k + 1, NPROV):
        if capture_target(d, p, x):
            d.c_k = p
            d.step = S_CAPTURE
            d.cur = x
            return
    d.c_k = NPROV
    d.step = S_CIRCE
    d.cur = x
    if circe_legal(d, NULL) == 1:
        end_move_turn(d)


cdef int linked(MNData* d, int p, int x) noexcept nogil:
    """p is adjacent to, or connected by x's triremes with, a province x controls (L517)."""
    cdef uint32_t mine = controlled(d, x)
    if P_ADJ[p] & mine:
        return 1
    return (connected_from(d, x, 1u << p) & mine & ~(1u << p)) != 0


cdef void end_move_turn(MNData* d) noexcept nogil:
    """Pending marker swaps fall due at the end of the invader's next turn (L523, Q&A L662-664)."""
    cdef int p, k, x = d.mover
    for p in range(NPROV):
        if d.cap_by[p] == x and d.cap_round[p] < d.round:
            if not linked(d, p, x):
                d.ctrl[p] = -1
                d.cap_by[p] = -1
                d.cap_round[p] = 0
            elif markers_left(d, x) > 0:
                d.ctrl[p] = x
                d.cap_by[p] = -1
                d.cap_round[p] = 0
                for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
                    if d.occ[k] == x:
                        d.occ[k] = -1
    d.done |= 1 << x
    d.mover = -1
    next_mover(d)


cdef void end_move_phase(MNData* d) noexcept nogil:
    """Conquest (L607): CONQUEST_CITIES (4) capitals and/or legendary cities held; ASSUMED tie rule as for Glory."""
    cdef int cnt[5]
    cdef int k, b, p, win = 0
    for p in range(5):
        cnt[p] = 0
    for k in range(NSLOT):
        if d.built[k] and (SLOT_TYPE[k] == CAPITAL or SLOT_TYPE[k] == LEGENDARY) and (d.live >> SLOT_PROV[k]) & 1:
            b = bctrl(d, k)
            if b >= 0:
                cnt[b] += 1
    for p in range(d.players):
        if cnt[p] >= CONQUEST_CITIES:
            win |= 1 << p
    if win:
        if (win >> d.title[2]) & 1:
            win = 1 << d.title[2]
        game_over(d, win, 3)
        return
    d.c_k = -1
    next_title(d)


cdef void next_title(MNData* d) noexcept nogil:
    """Phase 5 (L557-591): highest value holds the title; the last holder breaks ties (L575)."""
    cdef int tr[15]
    cdef int t, p, best, ties
    tracks(d, tr)
    for t in range(d.c_k + 1, 3):
        best = -1
        for p in range(d.players):
            if best < 0 or tr[p * 3 + t] > best:
                best = tr[p * 3 + t]
        ties = 0
        for p in range(d.players):
            if tr[p * 3 + t] == best:
                ties |= 1 << p
        if popc(ties) == 1:
            d.title[t] = lowbit(ties)
        elif d.title[t] >= 0:
            d.c_k = t
            d.c_p = ties
            d.step = S_TITLE
            d.cur = d.title[t]
            return
        else:
            d.title[t] = lowbit(ties)
    if d.title[0] == d.title[1] and d.title[1] == d.title[2]:
        game_over(d, 1 << d.title[0], 4)
        return
    start_round(d)

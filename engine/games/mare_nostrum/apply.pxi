# Applying an action (or a chance outcome) in place.
# Included by state.pyx (one compiled module: the C functions inline across files).
# ------------------------------------------------------------------------------------------------------------------
# apply

cdef void apply_action(MNData* d, int a) noexcept nogil:
    cdef int s = d.step, x = d.cur, t, v, p, k, q, c, g
    if s == S_HERODRAW or s == S_REFILL:
        c = a - A_CARDK
        d.facedown &= ~(1u << c)
        d.row |= 1u << c
        if s == S_HERODRAW:
            if popc(d.row) >= 5 or d.facedown == 0:
                # round 1 skips collection: the 9 starting resources are its income (L44, G3)
                start_trade(d)
        else:
            d.bought -= 1
            refill(d)
        return
    if s == S_LEGCHOICE:
        if a == A_COIN:
            gain(d, x, COIN, 1)
        else:
            d.rare_owed[x] += 1
        next_legchoice(d)
        return
    if s == S_RAREDRAW:
        g = a - A_RAREK
        d.stack &= ~(1 << g)
        d.rare[d.c_p] |= 1 << g
        d.rare_owed[d.c_p] -= 1
        next_draw(d)
        return
    if s == S_COLOSSUS:
        gain(d, x, a - A_ITEM, 1)
        next_colossus(d)
        return
    if s == S_EXCH:
        t = (a - A_EXCH) // 2
        d.N = EXCH[t][(a - A_EXCH) % 2]
        d.tokens &= ~(1 << t)
        after_exchange(d)
        return
    if s == S_ANTIGONE:
        d.nofs[x] = a - A_COUNT
        next_antigone(d)
        return
    if s == S_OFFER:
        d.offer[x][a - A_ITEM] += 1
        d.odone[x] += 1
        next_offer(d)
        return
    if s == S_TAKE:
        v = (a - A_TAKE) // NI
        t = (a - A_TAKE) % NI
        d.offer[v][t] -= 1
        move_item(d, v, x, t)
        d.pa = d.la
        d.pb = d.lb
        d.la = x
        d.lb = v
        d.ntakes += 1
        d.taker = v
        d.cur = v
        if take_legal(d, NULL) == 0:
            end_takes(d)
        return
    if s == S_GIFT:
        move_item(d, x, d.lb, a - A_ITEM)
        start_build(d)
        return
    if s == S_CHOOSEB:
        select_builder(d, a - A_PLAYER)
        return
    if s == S_PERSEUS:
        if a == A_YES:
            begin_build(d, x, 1)
        else:
            begin_build(d, d.pending_b, 0)
        return
    if s == S_BUILD:
        apply_build(d, x, a)
        return
    if s == S_PAY:
        apply_pay(d, x, a)
        return
    if s == S_CPT:
        d.cpt[x] = a - A_CPT if a != A_PASS else -1
        after_build_item(d, x)
        return
    if s == S_KEEP:
        if a == A_PASS:
            end_build_turn(d)
            return
        t = a - A_ITEM
        if t < NR:
            d.keep_res[t] += 1
        else:
            d.keep_rare |= 1 << (t - NR)
        d.keep_n += 1
        if d.keep_n >= 2 or legal(d, NULL_BUF) == 1:
            end_build_turn(d)
        return
    if s == S_ZEUS:
        if a != A_PASS:
            zeus_peace(d, x, a - A_PLAYER)
        else:
            d.zeus_last[x] = -1
        next_mover(d)
        return
    if s == S_CHOOSEM:
        begin_move(d, a - A_PLAYER)
        return
    if s == S_MOVETRI:
        if a == A_PASS:
            to_sea_battles(d)
            return
        t = a - A_MOVETRI
        d.tri[t // 16][x] -= 1
        d.tri[t % 16][x] += 1
        d.trimv[t % 16] += 1
        d.lastmv = a
        if not movetri_any(d):
            to_sea_battles(d)
        return
    if s == S_SEABATTLE:
        if a == A_PASS:
            to_legion_moves(d)
            return
        t = a - A_SEABATTLE
        start_battle(d, 0, t // 5, x, t % 5)
        return
    if s == S_MOVELEG:
        if a == A_PASS:
            to_land_battles(d)
            return
        t = a - A_MOVELEG
        p = t // 32
        q = t % 32
        d.leg[p][x] -= 1
        d.leg[q][x] += 1
        d.legmv[q] += 1
        d.lastmv = a
        release_excess(d, p, x)
        if not moveleg_any(d):
            to_land_battles(d)
        return
    if s == S_LANDBATTLE:
        t = a - A_LANDBATTLE
        start_battle(d, 1, t // 5, x, t % 5)
        return
    if s == S_HITS_A:
        d.b_hits_a = a - A_HITS
        d.step = S_HITS_D
        return
    if s == S_HITS_D:
        d.b_hits_d = a - A_HITS
        d.cas_a = 0
        d.cas_d = 0
        resolve_casualties(d, 0)
        return
    if s == S_CAS_A:
        d.cas_a = 1 if a == A_CAS_FORT else 0
        resolve_casualties(d, 1)
        return
    if s == S_CAS_D:
        d.cas_d = 1 if a == A_CAS_FORT else 0
        resolve_casualties(d, 2)
        return
    if s == S_CAPTURE:
        apply_capture(d, x, a)
        return
    if s == S_OCCUPY:
        if a == A_PASS:
            next_capture(d)
            return
        d.occ[a - A_OCCUPY] = x
        if occupy_legal(d, d.occ_prov, NULL_BUF) == 1:
            next_capture(d)
        return
    if s == S_LOOT:
        if a == A_COIN:
            gain(d, x, COIN, 1)
            next_capture(d)
        else:
            d.rare_owed[x] += 1
            d.draw_ret = 1
            next_draw(d)
        return
    if s == S_CIRCE:
        if a == A_PASS:
            end_move_turn(d)
            return
        d.circe[a - A_CIRCE] = x
        if circe_legal(d, NULL) == 1:
            end_move_turn(d)
        return
    if s == S_TITLE:
        d.title[d.c_k] = a - A_PLAYER
        next_title(d)
        return




cdef void apply_build(MNData* d, int x, int a) noexcept nogil:
    cdef int cost = 0, cheap = -1, n
    if a == A_PASS:
        if (d.cards[x] >> C_GARDENS) & 1 and hand_total(d, x) > 0:
            d.step = S_KEEP
            return
        end_build_turn(d)
        return
    if a == A_PENTH:
        n = penth_count(d, x)
        if n > PIECE_LEG - legions_of(d, x):
            n = PIECE_LEG - legions_of(d, x)
        place_legions(d, CAP_PROV[d.emp[x]], x, n)
        d.once[x] |= O_PENTH
        return
    if a >= A_HAMMURABI and a < A_HAMMURABI + 32:
        d.ctrl[a - A_HAMMURABI] = x
        d.once[x] |= O_HAMMURABI
        return
    if a >= A_SLOT and a < A_SLOT + MAXK:
        cost = SLOT_COST[SLOT_TYPE[a - A_SLOT]]
    elif a >= A_CARD and a < A_CARD + NCARD:
        cost = COST_PYR if a - A_CARD == C_PYRAMIDS else CARD_BASE + ncards(d, x)
    elif a >= A_SPARTACUS and a < A_SPARTACUS + 32:
        cost = 1
        cheap = 12
    elif a >= A_GILGAMESH and a < A_GILGAMESH + 32:
        cost = 1
        cheap = 5
    elif a >= A_PHAROS and a < A_PHAROS + 16:
        cost = 1
        cheap = 6
    elif a >= A_MARKER and a < A_MARKER + 32:
        cost = COST_MARKER
    elif a >= A_LEGION and a < A_LEGION + 32:
        cost = COST_LEGION
    elif a >= A_FORT and a < A_FORT + 32:
        cost = COST_FORT
    else:
        cost = COST_TRIREME
    d.item = a
    d.pay_left = cost
    d.pay_mode = 3 if cheap >= 0 else 0
    d.pay_cheapg = cheap
    d.pay_lastg = -1
    d.pay_lastrare = 0
    d.pay_dbl = 0
    d.pay_for = 0
    d.step = S_PAY


cdef void apply_pay(MNData* d, int x, int a) noexcept nogil:
    cdef int t = a - A_ITEM, g
    if d.pay_mode == 0:
        d.pay_mode = 1 if t == COIN else 2
    elif d.pay_mode == 1 and t != COIN:
        d.pay_for = 1
    elif d.pay_mode == 2:
        if t == COIN:
            d.pay_for = 1
        else:
            g = t - NR if t >= NR else t
            if g == d.pay_lastg:
                d.pay_dbl = 1
    if d.pay_mode == 2 and t != COIN:
        d.pay_lastg = t - NR if t >= NR else t
        d.pay_lastrare = t >= NR
    remove_item(d, x, t)
    d.pay_left -= 1
    if d.pay_left > 0 and d.pay_mode != 3:
        return
    d.pay_mode = 0
    d.pay_dbl = 0
    d.pay_for = 0
    d.step = S_BUILD
    complete_item(d, x, d.item)


cdef void complete_item(MNData* d, int x, int a) noexcept nogil:
    cdef int k, c
    if a >= A_SLOT and a < A_SLOT + MAXK:
        k = a - A_SLOT
        d.built[k] = 1
        if d.circe[k] >= 0:
            d.circe[k] = -1
    elif a >= A_MARKER and a < A_MARKER + 32:
        d.ctrl[a - A_MARKER] = x
    elif a >= A_LEGION and a < A_LEGION + 32:
        place_legions(d, a - A_LEGION, x, 1)
    elif a >= A_FORT and a < A_FORT + 32:
        place_fortress(d, a - A_FORT, x)
    elif a >= A_TRIREME and a < A_TRIREME + 16:
        d.tri[a - A_TRIREME][x] += 1
    elif a >= A_SPARTACUS and a < A_SPARTACUS + 32:
        place_legions(d, a - A_SPARTACUS, x, 1)
        d.once[x] |= O_SPARTACUS
    elif a >= A_GILGAMESH and a < A_GILGAMESH + 32:
        place_fortress(d, a - A_GILGAMESH, x)
        d.once[x] |= O_GILGAMESH
    elif a >= A_PHAROS and a < A_PHAROS + 16:
        d.tri[a - A_PHAROS][x] += 1
        d.once[x] |= O_PHAROS
    elif a >= A_CARD and a < A_CARD + NCARD:
        c = a - A_CARD
        d.cards[x] |= 1u << c
        if c == C_PYRAMIDS:                       # Prestige: immediate win (L597-599)
            game_over(d, 1 << x, 1)
            return
        d.row &= ~(1u << (c - 5))
        d.bought += 1
        if (d.cards[x] >> C_PERSEUS) & 1 and ncards(d, x) >= MAX_CARDS:   # Perseus: the 5th wins at once
            game_over(d, 1 << x, 5)
            return
        if c == C_CASTOR:
            d.step = S_CPT
            return
    after_build_item(d, x)


cdef void after_build_item(MNData* d, int x) noexcept nogil:
    d.step = S_BUILD
    d.cur = x


cdef void apply_capture(MNData* d, int x, int a) noexcept nogil:
    cdef int p = d.c_k, k, t, mult
    if a == A_PASS:
        next_capture(d)
        return
    release_all(d, p, x)                 # a new choice replaces the old arrangement (ASSUMED G32)
    if a >= A_DESTROY and a < A_DESTROY + MAXK:
        k = a - A_DESTROY
        t = SLOT_TYPE[k]
        d.built[k] = 0
        d.occ[k] = -1
        d.destroyed |= 1u << p
        mult = 2 if has(d, x, C_HAMILCAR) else 1
        if t == CARAVAN:
            gain(d, x, SLOT_GOOD[k], mult)
        elif t == REGULAR or t == CAPITAL:
            gain(d, x, COIN, mult)
        elif t == LEGENDARY:
            if mult == 2:                  # Hamilcar: 1 coin and 1 rare good (L788)
                gain(d, x, COIN, 1)
                d.rare_owed[x] += 1
                d.draw_ret = 1
                next_draw(d)
                return
            d.step = S_LOOT
            return
        next_capture(d)
        return
    if a >= A_OCCUPY and a < A_OCCUPY + MAXK:
        d.occ[a - A_OCCUPY] = x
        d.occ_prov = p
        d.step = S_OCCUPY
        if occupy_legal(d, p, NULL_BUF) == 1:
            next_capture(d)
        return
    if a >= A_CAPTURE and a < A_CAPTURE + 32:
        d.cap_by[p] = x
        d.cap_round[p] = d.round
        next_capture(d)
        return
    if a >= A_SHEBA and a < A_SHEBA + 32:      # Queen of Sheba: swap at once, the legion is sacrificed (L825)
        d.ctrl[p] = x
        d.leg[p][x] -= 1
        d.once[x] |= O_SHEBA
        next_capture(d)
        return

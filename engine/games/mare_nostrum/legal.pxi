# Legal actions of every decision step.
# Included by state.pyx (one compiled module: the C functions inline across files).
# ------------------------------------------------------------------------------------------------------------------
# legal actions

cdef int legal(MNData* d, int* out) noexcept nogil:
    cdef int s = d.step, x = d.cur, n = 0, p, t, q, left
    cdef int suffix[NI]
    if s == S_LEGCHOICE or s == S_LOOT:
        out[0] = A_COIN
        out[1] = A_RARE
        return 2
    if s == S_COLOSSUS:
        return colossus_legal(d, x, out)
    if s == S_EXCH:
        for t in range(3):
            if (d.tokens >> t) & 1:
                out[n] = A_EXCH + 2 * t
                out[n + 1] = A_EXCH + 2 * t + 1
                n += 2
        return n
    if s == S_ANTIGONE:
        q = hand_total(d, x)
        for t in range(6):
            if t <= q:
                out[n] = A_COUNT + t
                n += 1
        return n
    if s == S_OFFER:
        # one item at a time in ascending item order (an offer is a set: one path each), keeping enough items
        # at or above the chosen one to finish the offer
        q = 0
        for t in range(NI):
            if d.offer[x][t] > 0:
                q = t
        p = d.nofs[x] - d.odone[x]           # items still to offer, this one included
        left = 0
        for t in range(NI - 1, q - 1, -1):
            left += cnt_item(d, x, t) - d.offer[x][t]
            suffix[t] = left
        for t in range(q, NI):
            if cnt_item(d, x, t) > d.offer[x][t] and suffix[t] >= p:
                out[n] = A_ITEM + t
                n += 1
        return n
    if s == S_TAKE:
        return take_legal(d, out)
    if s == S_GIFT or s == S_KEEP:
        for t in range(NI):
            if cnt_item(d, x, t) > 0:
                if s == S_KEEP:              # Hanging Gardens: up to 2 resources of different kinds (L875-885)
                    q = t - NR if t >= NR else t
                    if d.keep_n >= 2 or d.keep_res[q] > 0 or (q < NG and (d.keep_rare >> q) & 1):
                        continue
                out[n] = A_ITEM + t
                n += 1
        if s == S_KEEP:
            out[n] = A_PASS
            n += 1
        return n
    if s == S_CHOOSEB or s == S_CHOOSEM:
        for p in range(d.players):
            if not (d.done >> p) & 1:
                out[n] = A_PLAYER + p
                n += 1
        return n
    if s == S_PERSEUS:
        out[0] = A_PASS
        out[1] = A_YES
        return 2
    if s == S_BUILD:
        return build_legal(d, x, out)
    if s == S_PAY:
        return pay_legal(d, x, out)
    if s == S_CPT:
        for t in range(C_CASTOR + 1, C_COLOSSUS):
            if t == C_PERSEUS:
                continue
            for p in range(d.players):
                if p != x and (d.cards[p] >> t) & 1:
                    out[n] = A_CPT + t
                    n += 1
                    break
        if n == 0:
            out[0] = A_PASS
            n = 1
        return n
    if s == S_ZEUS:
        for p in range(d.players):
            if p != x and p != d.zeus_last[x]:
                out[n] = A_PLAYER + p
                n += 1
        out[n] = A_PASS
        return n + 1
    if s == S_MOVETRI:
        return movetri_legal(d, out)
    if s == S_SEABATTLE:
        return seabattle_legal(d, out)
    if s == S_MOVELEG:
        return moveleg_legal(d, out)
    if s == S_LANDBATTLE:
        return landbattle_legal(d, out)
    if s == S_CAS_A or s == S_CAS_D:
        out[0] = A_CAS_KEEP
        out[1] = A_CAS_FORT
        return 2
    if s == S_CAPTURE:
        return capture_legal(d, out)
    if s == S_OCCUPY:
        return occupy_legal(d, d.occ_prov, out)
    if s == S_CIRCE:
        return circe_legal(d, out)
    if s == S_TITLE:
        for p in range(d.players):
            if (d.c_p >> p) & 1:
                out[n] = A_PLAYER + p
                n += 1
        return n
    return 0


cdef int build_legal(MNData* d, int x, int* out) noexcept nogil:
    cdef int n = 0, p, k, s, c, cost, bad
    cdef int c3 = can_afford(d, x, 3), c6 = can_afford(d, x, 6)
    cdef int ncard = ncards(d, x)
    cdef int ccard = ncard < MAX_CARDS and can_afford(d, x, CARD_BASE + ncard)
    cdef uint32_t targets = 0, base, okprov = 0, seas = 0
    cdef int nleg = legions_of(d, x), ntri = triremes_of(d, x), nfort = forts_of(d, x)
    cdef int reserve[6]
    cdef int foes[MAXP]
    if d.perseus_mode:
        if ncard == MAX_CARDS - 1 and ccard:
            for c in range(17):
                if (d.row >> c) & 1:
                    out[n] = A_CARD + 5 + c
                    n += 1
        if can_afford(d, x, COST_PYR):
            out[n] = A_CARD + C_PYRAMIDS
            n += 1
        return n
    # provinces x may build units in: controlled, no enemy units (or x's own capital, L553)
    for p in range(NPROV):
        foes[p] = enemies(d, p, x)
        if d.ctrl[p] == x and (d.live >> p) & 1:
            if foes[p] == 0 or is_own_capital(d, p, x):
                okprov |= 1u << p
                seas |= P_SEAS[p]
    out[n] = A_PASS                      # end the build turn (the lowest id: the list stays ascending)
    n += 1
    for k in range(6):
        reserve[k] = BLD_TOKENS[k]
    for k in range(NSLOT):
        if d.built[k]:
            reserve[SLOT_TYPE[k]] -= 1
    # 1. buildings on empty spaces (L389-393)
    for k in range(NSLOT):
        p = SLOT_PROV[k]
        if d.built[k] or not (okprov >> p) & 1:
            continue
        if foes[p] != 0 and not d.cap_bld:
            continue
        if SLOT_TYPE[k] == CAPITAL and PROV_CAP[p] != d.emp[x]:
            continue
        cost = SLOT_COST[SLOT_TYPE[k]]
        if (c3 if cost == 3 else (c6 if cost == 6 else can_afford(d, x, cost))) and reserve[SLOT_TYPE[k]] > 0:
            out[n] = A_SLOT + k
            n += 1
    # 2. control markers (L352-370)
    if markers_left(d, x) > 0 and (c3 or ((d.cards[x] >> C_HAMMURABI) & 1 and not (d.once[x] & O_HAMMURABI))):
        base = d.start_ctrl[x]
        for p in range(NPROV):
            if (base >> p) & 1:
                targets |= P_ADJ[p]
        targets |= connected_from(d, x, base)
        targets &= d.live
        for p in range(NPROV):      # uncontrolled, no enemy units, not a capital province (L360)
            if not (d.ctrl[p] < 0 and PROV_CAP[p] < 0 and foes[p] == 0):
                targets &= ~(1u << p)
        if c3:
            for p in range(NPROV):
                if (targets >> p) & 1:
                    out[n] = A_MARKER + p
                    n += 1
    # 3. units (L372-387)
    if nleg < PIECE_LEG and c3:
        for p in range(NPROV):
            if (okprov >> p) & 1:
                out[n] = A_LEGION + p
                n += 1
    if nfort < PIECE_FORT and c3:
        for p in range(NPROV):
            if (okprov >> p) & 1 and d.fort[p] < 0:
                out[n] = A_FORT + p
                n += 1
    if ntri < PIECE_TRI and c3:
        for s in range(NSEA):
            if (seas >> s) & 1:
                out[n] = A_TRIREME + s
                n += 1
    # 4. heroes and wonders (L397-399)
    if ccard:
        for c in range(17):
            if (d.row >> c) & 1:
                out[n] = A_CARD + 5 + c
                n += 1
    if can_afford(d, x, COST_PYR):
        out[n] = A_CARD + C_PYRAMIDS
        n += 1
    # 5. cheap once-per-round builds of the heroes
    if has(d, x, C_SPARTACUS) and not (d.once[x] & O_SPARTACUS) and nleg < PIECE_LEG and can_cheap(d, x, 12):
        for p in range(NPROV):
            if (okprov >> p) & 1:
                out[n] = A_SPARTACUS + p
                n += 1
    if has(d, x, C_GILGAMESH) and not (d.once[x] & O_GILGAMESH) and nfort < PIECE_FORT and can_cheap(d, x, 5):
        for p in range(NPROV):
            if (okprov >> p) & 1 and d.fort[p] < 0:
                out[n] = A_GILGAMESH + p
                n += 1
    if (d.cards[x] >> C_PHAROS) & 1 and not (d.once[x] & O_PHAROS) and ntri < PIECE_TRI and can_cheap(d, x, 6):
        for s in range(NSEA):
            if (seas >> s) & 1:
                out[n] = A_PHAROS + s
                n += 1
    if has(d, x, C_HAMMURABI) and not (d.once[x] & O_HAMMURABI) and markers_left(d, x) > 0:
        for p in range(NPROV):
            if (targets >> p) & 1:
                out[n] = A_HAMMURABI + p
                n += 1
    if has(d, x, C_PENTH) and not (d.once[x] & O_PENTH) and nleg < PIECE_LEG and penth_count(d, x) > 0:
        out[n] = A_PENTH
        n += 1
    return n


cdef int penth_count(MNData* d, int x) noexcept nogil:
    cdef int p, q, n = 0
    for p in range(NPROV):
        if d.ctrl[p] == x:
            for q in range(d.players):
                if q != x and d.leg[p][q] > 0:
                    n += 1
                    break
    return n


cdef void sort_small(int* a, int n) noexcept nogil:
    cdef int i, j, v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef int moveleg_any(MNData* d) noexcept nogil:
    """Has the mover a legion that can still move? (the move list without building it)"""
    cdef int x = d.mover, p, pt = partner(d, x)
    cdef int lo = d.lastmv - A_MOVELEG if d.lastmv >= A_MOVELEG else 0
    cdef uint32_t forbid = 0, dest, above
    if pt >= 0:
        forbid = controlled(d, pt)
    for p in range(lo // 32, NPROV):
        if d.leg[p][x] - d.legmv[p] > 0:
            above = 0xFFFFFFFFu if p > lo // 32 else ~((1u << (lo % 32)) - 1)
            dest = P_ADJ[p] & d.live & ~forbid & above
            if dest:
                return 1
            if (connected_from(d, x, 1u << p) & d.live & ~(1u << p) & ~forbid & above) != 0:
                return 1
    return 0


cdef int movetri_any(MNData* d) noexcept nogil:
    cdef int s
    cdef int lo = d.lastmv - A_MOVETRI if d.lastmv >= A_MOVETRI else 0
    cdef uint32_t above
    for s in range(lo // 16, NSEA):
        above = 0xFFFFFFFFu if s > lo // 16 else ~((1u << (lo % 16)) - 1)
        if d.tri[s][d.mover] - d.trimv[s] > 0 and (S_ADJ[s] & above):
            return 1
    return 0


cdef int movetri_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, n = 1, s, t
    if out != NULL:
        out[0] = A_PASS
    for s in range(NSEA):
        if d.tri[s][x] - d.trimv[s] > 0:
            for t in range(NSEA):
                if (S_ADJ[s] >> t) & 1 and A_MOVETRI + s * 16 + t >= d.lastmv:
                    if out != NULL:
                        out[n] = A_MOVETRI + s * 16 + t
                    n += 1
    return n


cdef int seabattle_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, n = 0, s, q, pt = partner(d, x)
    if out != NULL:
        out[0] = A_PASS
    n = 1
    for s in range(NSEA):
        if d.tri[s][x] > 0 and not (d.seafought >> s) & 1:
            for q in range(d.players):
                if q != x and q != pt and d.tri[s][q] > 0:
                    if out != NULL:
                        out[n] = A_SEABATTLE + s * 5 + q
                    n += 1
    if out != NULL:
        sort_small(out, n)
    return n


cdef int moveleg_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, n = 1, p, q, pt = partner(d, x)
    cdef uint32_t dest, forbid = 0
    if out != NULL:
        out[0] = A_PASS
    if pt >= 0:
        forbid = controlled(d, pt)
    for p in range(NPROV):
        if d.leg[p][x] - d.legmv[p] > 0:
            dest = (P_ADJ[p] | connected_from(d, x, 1u << p)) & d.live & ~(1u << p) & ~forbid
            for q in range(NPROV):
                if (dest >> q) & 1 and A_MOVELEG + p * 32 + q >= d.lastmv:
                    if out != NULL:
                        out[n] = A_MOVELEG + p * 32 + q
                    n += 1
    return n


cdef int landbattle_legal(MNData* d, int* out) noexcept nogil:
    """Every province where the mover's units meet an enemy's must see a battle (L425)."""
    cdef int x = d.mover, n = 0, p, q, pt = partner(d, x), m
    for p in range(NPROV):
        if (d.landfought >> p) & 1 or not (d.live >> p) & 1:
            continue
        m = units_mask(d, p)
        if not (m >> x) & 1:
            continue
        for q in range(d.players):
            if q != x and q != pt and (m >> q) & 1:
                if out != NULL:
                    out[n] = A_LANDBATTLE + p * 5 + q
                n += 1
    return n


cdef int capture_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, p = d.c_k, n = 0, k
    out[n] = A_PASS
    n += 1
    if not (d.destroyed >> p) & 1:
        for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
            if d.built[k]:
                out[n] = A_DESTROY + k
                n += 1
    for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
        if d.built[k]:
            out[n] = A_OCCUPY + k
            n += 1
    if PROV_CAP[p] < 0 and d.cap_by[p] != x and linked(d, p, x):
        out[n] = A_CAPTURE + p
        n += 1
        if has(d, x, C_SHEBA) and not (d.once[x] & O_SHEBA) and markers_left(d, x) > 0:
            out[n] = A_SHEBA + p
            n += 1
    return n


cdef int occupy_legal(MNData* d, int p, int* out) noexcept nogil:
    cdef int x = d.mover, n = 1, k, first = P_SLOT0[p]
    out[0] = A_PASS
    for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
        if d.occ[k] == x:                   # ascending space order: one path per set of occupied buildings
            first = k + 1
    if d.leg[p][x] > holdings(d, p, x):
        for k in range(first, P_SLOT0[p] + P_NSLOT[p]):
            if d.built[k] and d.occ[k] != x:
                out[n] = A_OCCUPY + k
                n += 1
    return n


cdef int circe_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, n = 0, k, p
    if out != NULL:
        out[0] = A_PASS
    n = 1
    if not has(d, x, C_CIRCE):
        return 1
    for k in range(NSLOT):
        if SLOT_TYPE[k] != CARAVAN or d.built[k] or d.circe[k] >= 0:
            continue
        p = SLOT_PROV[k]
        if (d.live >> p) & 1 and d.leg[p][x] > holdings(d, p, x) and enemies(d, p, x) == 0:
            if out != NULL:
                out[n] = A_CIRCE + k
            n += 1
    return n

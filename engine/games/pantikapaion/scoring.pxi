# Scoring (L424-L456).
# Included by state.pyx (one compiled module: the C functions inline across files).
cdef int neighbours(const Player* P, const Tables* T, int slot, int* out) noexcept nogil:
    """The grid positions around a building (8-neighbourhood of its cells, minus its own cells), with a tile
    (and, with the G10 reading 'same level only', at the building's level; L428)."""
    cdef int n = 0, i, j, dy, dx, y, x, c, k, c0 = P.bc0[slot], c1 = P.bc1[slot], dup
    for i in range(2):
        c = c0 if i == 0 else c1
        if c < 0:
            continue
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                y = c // G + dy
                x = c % G + dx
                if y < 0 or y >= G or x < 0 or x >= G:
                    continue
                k = y * G + x
                if k == c0 or k == c1 or P.cell[k] == 0:
                    continue
                if T.adj_same_level and HT(P, k) != HT(P, c):
                    continue
                dup = 0
                for j in range(n):
                    if out[j] == k:
                        dup = 1
                if not dup:
                    out[n] = k
                    n += 1
    return n


cdef inline bint visible_drought(const Player* P, int c) noexcept nogil:
    return FACE(P, c) == T_DROUGHT and not BIT(P.brow, c) and not BIT(P.wrow, c)


cdef void score_parts(const SData* d, const Tables* T, int p, int* out) noexcept nogil:
    """out[0..4]: houses, wineries, fortresses, aqueducts, temples; out[5] coins; out[6] cubes; out[7] drought;
    out[8] total."""
    cdef const Player* P = &d.pl[p]
    cdef int nbr[16]
    cdef int seen[MAXB]
    cdef int b, t, kind, rate, n, i, cnt, o, y, x, c, dy, dx, k, protect
    cdef int aq = T.t_of[B_AQUEDUCT]
    for i in range(9):
        out[i] = 0
    for b in range(P.nb):
        t = P.btype[b]
        kind = T.bkind[t]
        rate = T.rate[t][P.marker[t]]
        if rate == 0:
            continue
        n = neighbours(P, T, b, nbr)
        cnt = 0
        if kind == B_HOUSE:                                 # workers around it (L432)
            for i in range(n):
                if BIT(P.wrow, nbr[i]):
                    cnt += 1
            out[0] += rate * cnt
        elif kind == B_WINERY:                              # 1 VP per 3/2/1 cells without a building (L436)
            for i in range(n):
                if not BIT(P.brow, nbr[i]):
                    cnt += 1
            out[1] += cnt // rate
        elif kind == B_FORTRESS:                            # per level it stands on (L440)
            out[2] += rate * HT(P, P.bc0[b])
        elif kind == B_AQUEDUCT:                            # visible drought around it (L444)
            for i in range(n):
                if visible_drought(P, nbr[i]):
                    cnt += 1
            out[3] += rate * cnt
        else:                                               # buildings of another type around it (L448)
            for i in range(MAXB):
                seen[i] = 0
            for i in range(n):
                o = slot_at(P, nbr[i]) + 1
                if o == 0 or T.bkind[P.btype[o - 1]] == B_TEMPLE:
                    continue
                k = o - 1 if not T.temple_types else P.btype[o - 1]    # G11: each building, or each type
                if not seen[k]:
                    seen[k] = 1
                    cnt += 1
            out[4] += rate * cnt
    out[5] = P.coins // T.coins_per_vp                      # L450
    cnt = store_total(P)
    out[6] = cnt if cnt < T.limit else T.limit              # L451 (at the end storage is already <= 5)
    if P.ntiles > 0:
        for y in range(P.miny, P.maxy + 1):                 # -1 per visible unprotected drought cell (L452)
            for x in range(P.minx, P.maxx + 1):
                c = y * G + x
                if not visible_drought(P, c):
                    continue
                protect = 0
                if P.marker[aq] >= 1:
                    for dy in range(-1, 2):
                        for dx in range(-1, 2):
                            if 0 <= y + dy < G and 0 <= x + dx < G:
                                k = slot_at(P, (y + dy) * G + x + dx) + 1
                                if k != 0 and P.btype[k - 1] == aq and not (
                                        T.adj_same_level and HT(P, (y + dy) * G + x + dx) != HT(P, c)):
                                    protect = 1
                if not protect:
                    out[7] -= 1
    for i in range(8):
        out[8] += out[i]


# Payments: which resource may go next into the set being paid.
# Included by state.pyx (one compiled module: the C functions inline across files).
# ------------------------------------------------------------------------------------------------------------------
# payments (L171-174, L318-346): one set per item, exact size; coins only, or pairwise different goods;
# Hannibal: one kind twice in a goods set; Cleopatra: one coin in a goods set or one good in a coin set.
# Goods are paid in ascending kind order (ordinary before rare of the same kind) so that a set has one path.

cdef int goods_feasible(MNData* d, int x, int left, int lastg, int lastrare, int dbl, int forn) noexcept nogil:
    if left <= 0:
        return 1
    cdef int distinct = 0, has2 = 0, g, c, ext = 0
    for g in range(lastg + 1, NG):
        c = cnt_good(d, x, g)
        if c >= 1:
            distinct += 1
            if c >= 2:
                has2 = 1
    if has(d, x, C_HANNIBAL) and not dbl:
        if has2 or (lastg >= 0 and not lastrare and cnt_good(d, x, lastg) >= 1):
            ext += 1
    if has(d, x, C_CLEOPATRA) and not forn and d.res[x][COIN] >= 1:
        ext += 1
    return distinct + ext >= left


cdef inline int any_good(MNData* d, int x) noexcept nogil:
    cdef int g
    if d.rare[x]:
        return 1
    for g in range(NG):
        if d.res[x][g]:
            return 1
    return 0


cdef int coins_feasible(MNData* d, int x, int left, int forn) noexcept nogil:
    if left <= 0:
        return 1
    if d.res[x][COIN] >= left:
        return 1
    return has(d, x, C_CLEOPATRA) and not forn and d.res[x][COIN] >= left - 1 and any_good(d, x)


cdef inline int can_afford(MNData* d, int x, int cost) noexcept nogil:
    return coins_feasible(d, x, cost, 0) or goods_feasible(d, x, cost, -1, 0, 0, 0)


cdef inline int can_cheap(MNData* d, int x, int g) noexcept nogil:
    return d.res[x][COIN] > 0 or cnt_good(d, x, g) > 0


cdef int pay_legal(MNData* d, int x, int* out) noexcept nogil:
    """The resources that can go next into the set being paid, such that the set can still be completed."""
    cdef int n = 0, g, c, left = d.pay_left, coins = d.res[x][COIN]
    cdef int cleo = has(d, x, C_CLEOPATRA) and not d.pay_for
    cdef int hann = has(d, x, C_HANNIBAL) and not d.pay_dbl
    cdef int suf_distinct[NG + 1]
    cdef int suf_has2[NG + 1]
    cdef int start, after, rep_ok, cap
    if d.pay_mode == 3:                  # Spartacus / Gilgamesh / Pharos: 1 coin or 1 good of the named kind
        g = d.pay_cheapg
        if d.res[x][g] > 0:
            out[n] = A_ITEM + g; n += 1
        if coins > 0:
            out[n] = A_ITEM + COIN; n += 1
        if (d.rare[x] >> g) & 1:
            out[n] = A_ITEM + NR + g; n += 1
        return n
    if d.pay_mode == 1:                  # a coin set: coins, and Cleopatra's one good as the last item
        if left == 1 and cleo:
            for g in range(NG):
                if d.res[x][g]:
                    out[n] = A_ITEM + g; n += 1
        if coins >= left or (cleo and coins >= left - 1 and left >= 2 and any_good(d, x)):
            out[n] = A_ITEM + COIN; n += 1
        if left == 1 and cleo:
            for g in range(NG):
                if (d.rare[x] >> g) & 1:
                    out[n] = A_ITEM + NR + g; n += 1
        sort_small(out, n)
        return n
    # goods (mode 2) or the first item (mode 0): kinds in ascending order, suffix counts for feasibility
    suf_distinct[NG] = 0
    suf_has2[NG] = 0
    for g in range(NG - 1, -1, -1):
        c = cnt_good(d, x, g)
        suf_distinct[g] = suf_distinct[g + 1] + (1 if c >= 1 else 0)
        suf_has2[g] = suf_has2[g + 1] or c >= 2
    start = 0 if d.pay_mode == 0 else d.pay_lastg + 1
    for g in range(NG):
        c = cnt_good(d, x, g)
        if c == 0:
            continue
        if g >= start:
            # after one good of kind g, the set can still take: one of each kind above g, a Hannibal double
            # (a kind above g held twice, or kind g again right after an ordinary one), a Cleopatra coin
            after = left - 1
            cap = suf_distinct[g + 1] + (1 if cleo and coins >= 1 else 0)
            if d.res[x][g] > 0:
                rep_ok = hann and (suf_has2[g + 1] or c - 1 >= 1)
                if cap + (1 if rep_ok else 0) >= after:
                    out[n] = A_ITEM + g; n += 1
            if (d.rare[x] >> g) & 1:
                rep_ok = hann and suf_has2[g + 1]
                if cap + (1 if rep_ok else 0) >= after:
                    out[n] = A_ITEM + NR + g; n += 1
        elif g == d.pay_lastg and d.pay_mode == 2 and hann and not d.pay_lastrare:
            # Hannibal: the same kind again, right after it
            after = left - 1
            cap = suf_distinct[g + 1] + (1 if cleo and coins >= 1 else 0)
            if cap >= after:
                if d.res[x][g] > 0:
                    out[n] = A_ITEM + g; n += 1
                if (d.rare[x] >> g) & 1:
                    out[n] = A_ITEM + NR + g; n += 1
    if coins >= 1:
        if d.pay_mode == 0:
            if coins_feasible(d, x, left, 0):
                out[n] = A_ITEM + COIN; n += 1
        elif left == 1 and cleo:
            out[n] = A_ITEM + COIN; n += 1
    sort_small(out, n)
    return n

# The evaluation heuristic: distance to each victory condition (weights: data/evaluate.json).
# Included by state.pyx (one compiled module: the C functions inline across files).
# ------------------------------------------------------------------------------------------------------------------
# evaluation: distance to each victory condition

cdef void evaluate_keys(MNData* d, double* keys) noexcept nogil:
    cdef int tr[15]
    cdef int caps[5]
    cdef int p, k, b, t, best, titles, distinct, g
    cdef double glory, conquest, primacy, prestige, v
    tracks(d, tr)
    for p in range(5):
        caps[p] = 0
    for k in range(NSLOT):
        if d.built[k] and (SLOT_TYPE[k] == CAPITAL or SLOT_TYPE[k] == LEGENDARY):
            b = bctrl(d, k)
            if b >= 0:
                caps[b] += 1
    for p in range(d.players):
        glory = ncards(d, p) / <double>MAX_CARDS
        conquest = caps[p] / <double>CONQUEST_CITIES
        titles = 0
        for t in range(3):
            best = 0
            for k in range(d.players):
                if tr[k * 3 + t] > best:
                    best = tr[k * 3 + t]
            if d.title[t] == p:
                titles += 1
            elif best > 0 and tr[p * 3 + t] >= best:
                titles += 1
        primacy = titles / 3.0
        distinct = 0
        for g in range(NG):
            if cnt_good(d, p, g) > 0:
                distinct += 1
        v = distinct + EV_COIN * d.res[p][COIN]
        prestige = v / COST_PYR if v < COST_PYR else 1.0
        v = glory
        if conquest > v:
            v = conquest
        if primacy > v:
            v = primacy
        keys[p] = v + EV_ALL_PATHS * (glory + conquest + primacy + EV_PYRAMIDS * prestige)

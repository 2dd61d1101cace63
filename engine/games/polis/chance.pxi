# Chance: which phases are chance nodes, and their outcomes.
# Included by state.pyx (one compiled module: the C functions inline across files).
# ---- chance ------------------------------------------------------------------------------------------------------
cdef inline int is_chance_phase(int ph) noexcept nogil:
    return (ph == PH_SETUP_TILES or ph == PH_EVENT or ph == PH_SIEGE_ROLL or ph == PH_TRADE_ROLL
            or ph == PH_DEAL or ph == PH_TILE_DRAW)


cdef int chance(const PolisData* d, const Static* g, int* acts, double* probs) noexcept nogil:
    cdef int n = 0, k, total = 0
    cdef int ph = d.phase
    if ph == PH_SETUP_TILES or ph == PH_TILE_DRAW:
        for k in range(NTILE):
            if d.tile_where[k] == TW_PILE:
                acts[n] = C_TILE + k
                n += 1
        for k in range(n):
            probs[k] = 1.0 / n
        return n
    if ph == PH_EVENT:
        total = 0                                     # the next letter to deal: alpha, then sigma, then omega
        while total < 3 and d.ev_stack[total] >= 0:
            total += 1
        for k in range(g.nev):
            if g.ev_letter[k] == total:
                acts[n] = C_EVENT + k
                n += 1
        for k in range(n):
            probs[k] = 1.0 / n
        return n
    if ph == PH_SIEGE_ROLL or (ph == PH_TRADE_ROLL and d.rise_mask):
        for k in range(4):
            acts[k] = C_D4 + k
            probs[k] = 0.25
        return 4
    if ph == PH_TRADE_ROLL:
        for k in range(4):
            acts[k] = C_DROP + k
            probs[k] = DROP_P[k]
        return 4
    if ph == PH_DEAL:
        for k in range(NK):
            total += d.deck[k]
        for k in range(NK):
            if d.deck[k] > 0:
                acts[n] = C_CARD + k
                probs[n] = <double>d.deck[k] / total
                n += 1
        return n
    return 0


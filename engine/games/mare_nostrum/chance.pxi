# Chance nodes: battle hits, rare draws, display refills.
# Included by state.pyx (one compiled module: the C functions inline across files).
# ------------------------------------------------------------------------------------------------------------------
# chance

cdef int hit_outcomes(MNData* d, int side, int* acts, double* probs) noexcept nogil:
    """P(hits) of one side: n dice (+ Ramses) + per-legion bonus + flat bonuses, floor(/5), -1 vs a fortress."""
    cdef int who = d.b_att if side == 0 else d.b_def
    cdef int opp = d.b_def if side == 0 else d.b_att
    cdef int loc = d.b_loc, nd, nb = 0, bonus = 0, flat = 0, pen = 0, s, h, n = 0, maxs
    cdef double acc[32]
    cdef double (*dist)[128]
    for h in range(32):
        acc[h] = 0
    if d.b_kind == 0:
        nd = d.tri[loc][who]
        dist = SEA_DIST
        maxs = nd * SEA_MAXF
    else:
        nb = d.leg[loc][who]
        nd = nb
        if has(d, who, C_RAMSES):
            nd += 1
        if side == 0 and has(d, who, C_CAESAR):
            bonus = CAESAR_BONUS
        if side == 1 and has(d, who, C_PERICLES):
            bonus = PERICLES_BONUS
        if d.fort[loc] == who:
            flat += FORT_BONUS
        if has(d, who, C_NEBU) and d.ctrl[loc] == who:
            flat += NEBU_BONUS
        if d.fort[loc] == opp:
            pen = 1
        dist = LAND_DIST
        maxs = nd * LAND_MAXF
    if nd > 11:
        nd = 11
    for s in range(maxs + 1):
        if dist[nd][s] > 0:
            h = (s + bonus * nb + flat) // HIT_EVERY - pen
            if h < 0:
                h = 0
            if h > 31:
                h = 31
            acc[h] += dist[nd][s]
    for h in range(32):
        if acc[h] > 0:
            acts[n] = A_HITS + h
            probs[n] = acc[h]
            n += 1
    return n


cdef int chance(MNData* d, int* acts, double* probs) noexcept nogil:
    cdef int n = 0, c, g, m
    if d.step == S_HERODRAW or d.step == S_REFILL:
        m = popc(d.facedown)
        for c in range(17):
            if (d.facedown >> c) & 1:
                acts[n] = A_CARDK + c
                probs[n] = 1.0 / m
                n += 1
        return n
    if d.step == S_RAREDRAW:
        m = popc(d.stack)
        for g in range(NG):
            if (d.stack >> g) & 1:
                acts[n] = A_RAREK + g
                probs[n] = 1.0 / m
                n += 1
        return n
    if d.step == S_HITS_A:
        return hit_outcomes(d, 0, acts, probs)
    if d.step == S_HITS_D:
        return hit_outcomes(d, 1, acts, probs)
    return 0

# Hellas: chance nodes (spec 7.1): the side-selection coin (R1), the New Year deal card by card (R2), the truce dice
# (5.11), one firing unit's hits and routs (R3), siege attrition (R4) and storms (R5) as the number of hits among
# the dice.

cdef int attrition_hit_max(HData* d, int a) noexcept nogil:
    """Hit on 1 normally, 1-2 under Famine (L298), 1-3 in Winter (EXT-7): ATTRITION_HIT_MAX."""
    cdef HS* s = tab(d)
    if d.season == s.nseasons:
        return s.r_att_winter
    if d.famine == a:
        return s.r_att_famine
    return s.r_att_normal


cdef inline double ipow(double x, int n) noexcept nogil:
    cdef double r = 1.0
    cdef int i
    for i in range(n):
        r *= x
    return r


cdef inline double multinomial(int n, int a, int b) noexcept nogil:
    """n! / (a! b! (n-a-b)!)"""
    cdef double r = 1.0
    cdef int i
    for i in range(1, n + 1):
        r *= i
    for i in range(1, a + 1):
        r /= i
    for i in range(1, b + 1):
        r /= i
    for i in range(1, n - a - b + 1):
        r /= i
    return r


cdef int chance(HData* d, int* actions, double* probs) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int c, n = 0, k, i, dice
    cdef double p, q, b
    cdef uint64_t m
    if d.step == S_DEAL:
        p = 1.0 / popc(d.deck)
        m = d.deck
        while m:
            actions[n] = A_DRAW + __builtin_ctzll(m)
            probs[n] = p
            m &= m - 1
            n += 1
        return n
    if d.step == S_MARCH:
        p = tab(d).r_march / 6.0
        if p < 1.0:
            actions[n] = A_MARCH
            probs[n] = 1.0 - p
            n += 1
        if p > 0.0:
            actions[n] = A_MARCH + 1
            probs[n] = p
            n += 1
        return n
    if d.step == S_TRUCE_ROLL:
        for k in range(2, 13):
            actions[n] = A_SUM + k
            probs[n] = (6 - (k - 7 if k >= 7 else 7 - k)) / 36.0
            n += 1
        return n
    if d.step == S_FIRE:                                    # one die per step: hit <= P, rout >= 7 - P
        dice = 1 if d.b_firer == GARRISON_FIRES else d.steps[d.b_firer]
        p = fire_power(d, d.b_firer) / 6.0
        q = 1.0 - 2.0 * p
        if is_assault(d):                                    # assaults ignore routs: hits only
            q = 1.0 - p
            for k in range(dice + 1):
                b = multinomial(dice, k, 0) * ipow(p, k) * ipow(q, dice - k)
                if b > 0.0:
                    actions[n] = A_FIRE + k * 5
                    probs[n] = b
                    n += 1
            return n
        for k in range(dice + 1):                           # k hits, i routs
            for i in range(dice - k + 1):
                b = multinomial(dice, k, i) * ipow(p, k + i) * ipow(q, dice - k - i)
                if b > 0.0:
                    actions[n] = A_FIRE + k * 5 + i
                    probs[n] = b
                    n += 1
        return n
    if d.step == S_ATTRITION or d.step == S_STORM:
        dice = d.att_dice if d.step == S_ATTRITION else d.storm_n
        p = (attrition_hit_max(d, d.att_area) if d.step == S_ATTRITION else s.r_storm) / 6.0
        q = 1.0 - p
        for k in range(dice + 1):
            b = 1.0                                         # C(dice, k) p^k q^(dice-k)
            for i in range(k):
                b = b * (dice - i) / (i + 1)
            for i in range(k):
                b *= p
            for i in range(dice - k):
                b *= q
            if b > 0.0:
                actions[n] = A_HITS + k
                probs[n] = b
                n += 1
        return n
    if d.step == S_SIDES:                                   # spec 5.13: a fair coin
        actions[0] = A_COIN
        actions[1] = A_COIN + 1
        probs[0] = probs[1] = 0.5
        return 2
    return 0

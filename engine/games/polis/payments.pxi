# Payments.
# Included by state.pyx (one compiled module: the C functions inline across files).
# payments -----------------------------------------------------------------------------------------------------
cdef void complete_payment(PolisData* d, const Static* g, int silver) noexcept nogil:
    """Pay pay_n units as (pay_n - silver) pay_res + silver silver, then carry out the pending action."""
    cdef int p = d.active, pol = d.sel_polis, n = d.pay_n, r
    d.res[p][d.pay_res] -= n - silver
    d.res[p][SILVER] -= silver
    if d.cur == T_TRAIN:
        r = g.preg[pol]
        d.pop[pol] -= n
        d.hop[r][p] += n
    elif d.cur == T_BUILD:
        d.pop[pol] -= n
        d.gal[g.port[pol][0]][p] += d.sel_n
        if d.sel_n2 > 0:
            d.gal[g.port[pol][1]][p] += d.sel_n2
    elif d.cur == T_HIRE:
        d.pop[pol] -= n
        d.cubes[p] += n
        d.msup[p] -= n
        d.mport[p] += n
    finish_action(d, g)


cdef void start_payment(PolisData* d, const Static* g, int res, int n) noexcept nogil:
    cdef int p = d.active
    cdef int lo = imax(0, n - d.res[p][res]), hi = imin(n, d.res[p][SILVER])
    d.pay_res = res
    d.pay_n = n
    if lo == hi:
        complete_payment(d, g, lo)
    else:
        d.phase = PH_PAY_SPLIT


# Costs and payments.
# Included by state.pyx (one compiled module: the C functions inline across files).
cdef inline int build_due(const SData* d, const Tables* T, const Player* P, int t) noexcept nogil:
    """Cubes due for the next piece of column t: the printed cost, less the resource-discount token (floor 0)."""
    cdef int k = T.cost[T.pieces - d.stock[t]] - P.has_res
    return k if k > 0 else 0


cdef inline bint can_pay(const SData* d, const Tables* T, const Player* P, int t) noexcept nogil:
    cdef int n = build_due(d, T, P, t), m = P.store[t], others = 0, c
    if m >= n:
        return 1
    if n - m > P.n_sub:
        return 0
    for c in range(NC):
        if c != t:
            others += P.store[c]
    return others >= n - m


cdef inline int paid_cost(const SData* d, const Tables* T, const Player* P) noexcept nogil:
    cdef int k = T.paid[d.paid]
    if P.has_coin and not d.coin_used:
        k -= 1
    return k if k > 0 else 0


cdef inline bint paid_ok(const SData* d, const Tables* T, const Player* P) noexcept nogil:
    return (d.chain >= 0 and d.paid < 3 and P.marker[d.chain] < T.rowlen[d.chain]
            and P.coins >= paid_cost(d, T, P))


cdef inline int store_total(const Player* P) noexcept nogil:
    return P.store[0] + P.store[1] + P.store[2] + P.store[3] + P.store[4]


# Which options of the development board are open.
# Included by state.pyx (one compiled module: the C functions inline across files).
cdef bint any_move(const Player* P, const Tables* T) noexcept nogil:
    cdef int k
    for k in range(P.nb):
        if bplaces(P, T, P.btype[k], k, NULL, 1):
            return 1
    return 0


cdef bint free_ok(const SData* d, const Tables* T, const Player* P, int t) noexcept nogil:
    return t != T.t_of[B_FORTRESS] and d.stock[t] > 0 and bplaces(P, T, t, -1, NULL, 1) > 0


cdef bint any_free(const SData* d, const Tables* T, const Player* P) noexcept nogil:
    cdef int t
    for t in range(NC):
        if free_ok(d, T, P, t):
            return 1
    return 0


cdef inline bint aq_ok(const SData* d, const Tables* T, const Player* P, int s) noexcept nogil:
    return d.aq_left[s] > 0 and tile_placeable(P, T, T.aq_first + s)


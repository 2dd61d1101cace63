# Hellas: a heuristic value for depth-limited search: the prestige lead, the tribute each side would collect at the
# next New Year and the steps on the map, squashed to [0, 1] (the scale of c_returns).
from libc.math cimport exp


cdef void evaluate(HData* d, double* out) noexcept nogil:
    cdef HS* s = tab(d)
    cdef int a, u, side
    cdef double x = d.prestige, pspa
    for a in range(s.nl):
        side = d.cctrl[a]
        if is_city(s, a) and side >= 0 and s.loyal[a] == 1 - side:
            x += s.value[a] if side == SPA else -s.value[a]
    for u in range(s.nu):
        if d.loc[u] >= 0:
            x += 0.1 * d.steps[u] if s.u_side[u] == SPA else -0.1 * d.steps[u]
    pspa = 1.0 / (1.0 + exp(-x / 5.0))
    out[SPA] = pspa
    out[ATH] = 1.0 - pspa

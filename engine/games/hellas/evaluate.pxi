# Hellas: a heuristic value for depth-limited search: the prestige lead, the tribute each side would collect at the
# next New Year and the steps on the map, squashed to [0, 1] (the scale of c_returns). Weights: data/evaluate.json.
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
            x += s.ev_step * d.steps[u] if s.u_side[u] == SPA else -s.ev_step * d.steps[u]
    pspa = 1.0 / (1.0 + exp(-x / s.ev_scale))
    out[SPA] = pspa
    out[ATH] = 1.0 - pspa

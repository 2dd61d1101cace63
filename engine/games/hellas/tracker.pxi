# Hellas: the block tracker (spec 7.2 H4-H7, 7.3 item 2). What the enemy can know of each block, kept in the state
# and changed only by what observe() lets him see, so that determinize() fills his unseen slots consistently with
# everything he saw (docs/rules/hellas.md, "Hidden information").
#
# Each block u carries, for the token standing where u stands:
# - poss[u]: the identities (bits over u's side's roster, side-local index s.u_local) the enemy holds possible.
#   Set-up is public: the blocks that start in the same place (the pool: every pool block). A reveal (combat,
#   elimination, a barbarian going home): u alone. When an unseen token leaves a place (area and field / inside,
#   or the pool), or the turn machinery points at one (the unit picked for a hidden move, the unit asked about
#   withdrawing, a recruit), where other unseen tokens of its side stand, the enemy does not know which: they all
#   get the union of their masks (a sound over-approximation), and so when a secret loss eliminates one of them.
#   A recruit: that union of the pool, narrowed to the blocks that may be raised where it appears (s.enter:
#   recruit cities of its nationality, a barbarian's home).
# - slo[u], shi[u], srel[u]: its steps as bounds, relative to the identity's prior strength s.u_ref (the set-up
#   strength; srel 1) or absolute (srel 0). A reveal: the steps seen. A secret loss among several tokens (siege
#   attrition, Winter supply: H4) lowers every one's lower bound, a replacement step among several (H6) raises
#   every upper bound; a loss the enemy sees on a token he follows (a storm) moves both. determinize() draws the
#   steps uniformly within the bounds, clamped to 1 .. the identity's maximum.
# Revealed blocks keep the mask of themselves; the bounds are set when a block stops being revealed.

DEF STEP_BOUND = 8          # the bounds stay within +-STEP_BOUND (steps are 1..4, loader.MAX_STEPS)


cdef inline uint64_t own_bit(HS* s, int u) noexcept nogil:
    return bit(s.u_local[u])


cdef inline void seen(HData* d, int u) noexcept nogil:
    """The enemy sees block u as it is (a reveal)."""
    d.revealed[u] = 1
    d.poss[u] = own_bit(tab(d), u)
    d.slo[u] = d.shi[u] = d.steps[u]
    d.srel[u] = 0


cdef inline void unsee(HData* d, int u) noexcept nogil:
    """Block u stops being revealed: the enemy still knows what it is (its mask) and its steps as they are now."""
    if d.revealed[u]:
        d.revealed[u] = 0
        d.slo[u] = d.shi[u] = d.steps[u]
        d.srel[u] = 0


cdef inline i8 bounded(int x) noexcept nogil:
    return <i8>(-STEP_BOUND if x < -STEP_BOUND else STEP_BOUND if x > STEP_BOUND else x)


cdef void absolute_steps(HData* d, int u) noexcept nogil:
    """Token u's step bounds made absolute: the hull over its mask of the prior strength plus the offsets."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], v, lo = 99, hi = -99
    cdef uint64_t m = d.poss[u]
    if not d.srel[u]:
        return
    while m:
        v = s.roster[side][__builtin_ctzll(m)]
        m &= m - 1
        lo = min(lo, s.u_ref[v])
        hi = max(hi, s.u_ref[v])
    d.slo[u] = bounded(lo + d.slo[u])
    d.shi[u] = bounded(hi + d.shi[u])
    d.srel[u] = 0


cdef inline int same_place(HData* d, int v, int a, int inside) noexcept nogil:
    return d.loc[v] == a and (a < 0 or d.incity[v] == inside)


cdef void merge_place(HData* d, int side, int a, int inside) noexcept nogil:
    """An unseen token of side left (a, inside) (the pool: a < 0) without the enemy seeing which: every unseen
    token there gets the union of the masks and the hull of the step bounds. In the pool every block counts
    (which one a recruit is is never shown, spec 7.2 H5), revealed or not."""
    cdef HS* s = tab(d)
    cdef int ids[MAXU]
    cdef int i, v, n = 0, nrel = 0, lo = 99, hi = -99
    cdef uint64_t m = 0
    for i in range(s.roster_n[side]):
        v = s.roster[side][i]
        if same_place(d, v, a, inside) and (a < 0 or not d.revealed[v]):
            unsee(d, v)
            ids[n] = v
            n += 1
            nrel += d.srel[v]
    for i in range(n):
        v = ids[i]
        if nrel != 0 and nrel != n:                 # relative and absolute bounds together: all absolute
            absolute_steps(d, v)
        m |= d.poss[v]
        lo = min(lo, d.slo[v])
        hi = max(hi, d.shi[v])
    for i in range(n):
        v = ids[i]
        d.poss[v] = m
        d.slo[v] = <i8>lo
        d.shi[v] = <i8>hi


cdef inline void hidden_pick(HData* d, int u) noexcept nogil:
    """The turn machinery now points at block u (a unit field: the unit to move, the unit asked to withdraw, the
    recruit), which the enemy sees only as one of the unseen tokens of its place (spec 7.2 H4, H5): that place's
    masks merge first, so that the view's pointer tells him nothing about which it was."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], a = d.loc[u]
    if a < 0:
        merge_place(d, side, POOL, 0)
    elif not d.revealed[u] and (d.ninside[side][a] if d.incity[u] else d.nfield[side][a]) > 1:
        merge_place(d, side, a, d.incity[u])


cdef inline void track_leave(HData* d, int u, int a, int inside) noexcept nogil:
    """Block u is about to go from where it stands to (a, inside): the enemy does not see which token left (a
    revealed block he follows; an eliminated one is revealed first), and a recruit is one its city may raise."""
    if same_place(d, u, a, inside):
        return
    hidden_pick(d, u)
    if d.loc[u] < 0:
        d.poss[u] &= tab(d).enter[tab(d).u_side[u]][a]


cdef void hidden_step_change(HData* d, int side, int a, int inside, int dlo, int dhi) noexcept nogil:
    """One of side's tokens at (a, inside) lost (dlo -1) or gained (dhi +1) a step, the enemy not seeing which: the
    bounds of every one there widen (a revealed one stops being revealed; its mask keeps what it is)."""
    cdef HS* s = tab(d)
    cdef int i, v
    for i in range(s.roster_n[side]):
        v = s.roster[side][i]
        if d.loc[v] == a and d.incity[v] == inside:
            unsee(d, v)
            d.slo[v] = bounded(d.slo[v] + dlo)
            d.shi[v] = bounded(d.shi[v] + dhi)


cdef void raised_steps(HData* d, int u, int steps) noexcept nogil:
    """A token that just came out of the pool with the public strength steps (a recruit), or at full strength
    (steps < 0: a barbarian, the hull of its mask's maxima)."""
    cdef HS* s = tab(d)
    cdef int side = s.u_side[u], v, lo = 99, hi = 0
    cdef uint64_t m = d.poss[u]
    d.revealed[u] = 0
    d.srel[u] = 0
    if steps >= 0:
        d.slo[u] = d.shi[u] = <i8>steps
        return
    while m:
        v = s.roster[side][__builtin_ctzll(m)]
        m &= m - 1
        lo = min(lo, s.u_max[v])
        hi = max(hi, s.u_max[v])
    d.slo[u] = <i8>lo
    d.shi[u] = <i8>hi


cdef void track_setup(HData* d) noexcept nogil:
    """The public set-up: each token may be any block that starts in its place, at that block's set-up strength."""
    cdef HS* s = tab(d)
    cdef int u, v
    for u in range(s.nu):
        d.poss[u] = 0
        d.slo[u] = d.shi[u] = 0
        d.srel[u] = 1
        for v in range(s.nu):
            if s.u_side[v] == s.u_side[u] and d.loc[v] == d.loc[u] and d.incity[v] == d.incity[u]:
                d.poss[u] |= own_bit(s, v)


cdef inline void step_bounds(HS* s, HData* d, int u, int* lo, int* hi) noexcept nogil:
    """The steps block u may have as the token it stands in (its bounds for its own identity), within 1..max."""
    cdef int base = s.u_ref[u] if d.srel[u] else 0
    lo[0] = base + d.slo[u]
    hi[0] = base + d.shi[u]
    if hi[0] > s.u_max[u]:
        hi[0] = s.u_max[u]
    if lo[0] < 1:
        lo[0] = 1
    if lo[0] > hi[0]:
        lo[0] = hi[0] if hi[0] >= 1 else 1
        hi[0] = lo[0]

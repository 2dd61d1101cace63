# Geometry of a city: tiles, buildings, workers (fits, anchors, placement).
# Included by state.pyx (one compiled module: the C functions inline across files).
cdef inline int HT(const Player* P, int c) noexcept nogil:
    return P.cell[c] >> 4


cdef inline int FACE(const Player* P, int c) noexcept nogil:
    return P.cell[c] & TYPE_MASK


cdef inline bint BIT(const uint16_t* rows, int c) noexcept nogil:
    return (rows[c // G] >> (c % G)) & 1


cdef inline void SETBIT(uint16_t* rows, int c) noexcept nogil:
    rows[c // G] |= <uint16_t>(1 << (c % G))


cdef inline void CLRBIT(uint16_t* rows, int c) noexcept nogil:
    rows[c // G] &= <uint16_t>~(1 << (c % G))


cdef inline int slot_at(const Player* P, int c) noexcept nogil:
    """The building slot covering cell c, or -1."""
    cdef int k
    if not BIT(P.brow, c):
        return -1
    for k in range(P.nb):
        if P.bc0[k] == c or P.bc1[k] == c:
            return k
    return -1


cdef inline void nbr_rows(const Player* P, uint32_t* nb) noexcept nogil:
    """Cells on the table that share a side with the city (where an expansion may touch)."""
    cdef int y
    cdef uint32_t f, up, dn
    for y in range(G):
        f = P.frow[y]
        up = P.frow[y - 1] if y > 0 else 0
        dn = P.frow[y + 1] if y < G - 1 else 0
        nb[y] = ((f << 1) | (f >> 1) | up | dn) & ~f & FULL


cdef inline int fits(const Player* P, const Shape* s, int y, int x, const uint32_t* nb) noexcept nogil:
    """0: illegal; 1: expands the city (all on the table, touching by a side, L203); 2: raises it (all on cells of
    one height with no building, L209). The reference test of one anchor (anchors() does a row at once)."""
    cdef int r, i, h0
    cdef bint on = 0, off = 0, touch = 0
    cdef uint32_t m, f
    for r in range(s.h):
        m = s.rowmask[r] << x
        f = P.frow[y + r]
        if m & f:
            on = 1
        if m & ~f:
            off = 1
        if m & nb[y + r]:
            touch = 1
    if not on:
        return 1 if touch else 0
    if off:
        return 0                         # overhang: part on tiles, part on the table
    for r in range(s.h):
        if (s.rowmask[r] << x) & P.brow[y + r]:
            return 0                     # never on a building
    h0 = HT(P, (y + s.dy[0]) * G + x + s.dx[0])
    if h0 >= MAXH:
        return 0                         # engine limit on the stack height
    for i in range(1, s.n):
        if HT(P, (y + s.dy[i]) * G + x + s.dx[i]) != h0:
            return 0                     # no empty space under the tile: one supporting height
    return 2


cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil


cdef int anchors(const Player* P, const Shape* s, const uint32_t* nb, int* out, bint first_only) noexcept nogil:
    """Legal anchors (top-left cell of the rotated tile's box) of one rotation, ascending; out may be NULL.

    Bit-parallel over the columns: for one anchor row y, bit x of ``hit`` says some cell of the tile at (y, x) lies
    on the city, of ``all_on`` that every cell does, of ``touch`` that some cell shares a side with it, of ``onb``
    that some cell holds a building. Same tests as fits(), all anchors of a row at once."""
    cdef int y, x, i, n = 0, r, h0, ok
    cdef int y0 = P.miny - s.h, y1 = P.maxy + 1
    cdef uint32_t xmask = ((<uint32_t>1) << (G - s.w + 1)) - 1
    cdef uint32_t hit, all_on, touch, onb, f, m, stack
    if P.ntiles == 0:
        return 0
    if y0 < 0:
        y0 = 0
    if y1 > G - s.h:
        y1 = G - s.h
    for y in range(y0, y1 + 1):
        hit = 0
        all_on = xmask
        touch = 0
        onb = 0
        for i in range(s.n):
            r = y + s.dy[i]
            f = P.frow[r] >> s.dx[i]
            hit |= f
            all_on &= f
            touch |= nb[r] >> s.dx[i]
            onb |= (<uint32_t>P.brow[r]) >> s.dx[i]
        stack = all_on & ~onb
        m = (touch & ~hit & xmask) | stack
        while m:
            x = __builtin_ctz(m)
            m &= m - 1
            if (stack >> x) & 1:                 # raising: one supporting height (no empty space below)
                h0 = HT(P, (y + s.dy[0]) * G + x + s.dx[0])
                ok = h0 < MAXH
                for i in range(1, s.n):
                    if HT(P, (y + s.dy[i]) * G + x + s.dx[i]) != h0:
                        ok = 0
                        break
                if not ok:
                    continue
            if out != NULL:
                out[n] = y * G + x
            n += 1
            if first_only:
                return 1
    return n


cdef inline bint tile_placeable(const Player* P, const Tables* T, int tt) noexcept nogil:
    cdef uint32_t nb[G]
    cdef int r
    if P.ntiles == 0:
        return 1
    nbr_rows(P, nb)
    for r in range(T.nrot[tt]):
        if anchors(P, &T.rot[tt][r], nb, NULL, 1):
            return 1
    return 0


cdef inline void bbox_add(Player* P, int c) noexcept nogil:
    cdef int y = c // G, x = c % G
    if P.ntiles == 0 and P.miny > P.maxy:
        P.miny = y
        P.maxy = y
        P.minx = x
        P.maxx = x
    if y < P.miny:
        P.miny = y
    if y > P.maxy:
        P.maxy = y
    if x < P.minx:
        P.minx = x
    if x > P.maxx:
        P.maxx = x


cdef inline void collect(Player* P, int c) noexcept nogil:
    """The cube on c goes to storage and the worker on c back to the board (covered by a tile, L209, or by a
    building, L261)."""
    if BIT(P.crow, c):
        P.store[FACE(P, c) - T_RES] += 1
        CLRBIT(P.crow, c)
    if BIT(P.wrow, c):
        P.w_board += 1
        P.w_city -= 1
        CLRBIT(P.wrow, c)


cdef int place_tile(SData* d, const Tables* T, int p, int tt, int r, int cell) noexcept nogil:
    """Put tile face tt (rotation r) at anchor cell: collect covered cubes, return covered workers, seed the new
    resource cells (L195, L209, L221). Returns the cell of an aqueduct tile's '*' cell, else -1."""
    cdef Player* P = &d.pl[p]
    cdef const Shape* s = &T.rot[tt][r]
    cdef int y = cell // G, x = cell % G, i, c, typ, wild = -1
    for i in range(s.n):
        c = (y + s.dy[i]) * G + x + s.dx[i]
        collect(P, c)
        typ = s.typ[i]
        P.cell[c] = ((HT(P, c) + 1) << 4) | typ
        if typ >= T_RES and typ < T_WILD:
            SETBIT(P.crow, c)
        elif typ == T_WILD:
            wild = c
        SETBIT(P.frow, c)
        bbox_add(P, c)
    if P.ntiles < MAXT:
        P.h_tile[P.ntiles] = tt
        P.h_rot[P.ntiles] = r
        P.h_at[P.ntiles] = cell
        P.h_col[P.ntiles] = -1
        P.ntiles += 1
    return wild


cdef inline bint cell_free_for(const Player* P, int c, int slot) noexcept nogil:
    """A top cell a building may take: on a tile, no other building (slot: the building being moved)."""
    if P.cell[c] == 0:
        return 0
    if not BIT(P.brow, c):
        return 1
    return slot >= 0 and (P.bc0[slot] == c or P.bc1[slot] == c)


cdef int bplaces(const Player* P, const Tables* T, int t, int slot, int* out, bint first_only) noexcept nogil:
    """Legal placements of a building of type t (slot >= 0: moving that building, its old cells count as free but
    its exact old placement is no move). 2-cell buildings: two orthogonal cells of one level (L262, L264)."""
    cdef int n = 0, y, x, c, c2
    cdef int o0 = P.bc0[slot] if slot >= 0 else -1
    cdef int o1 = P.bc1[slot] if slot >= 0 else -1
    if P.ntiles == 0:
        return 0
    for y in range(P.miny, P.maxy + 1):
        for x in range(P.minx, P.maxx + 1):
            c = y * G + x
            if not cell_free_for(P, c, slot):
                continue
            if T.bsize[t] == 1:
                if c == o0:
                    continue
            else:
                c2 = c + 1
                if x + 1 >= G or not cell_free_for(P, c2, slot) or HT(P, c2) != HT(P, c):
                    continue
                if (c == o0 and c2 == o1) or (c == o1 and c2 == o0):
                    continue
            if out != NULL:
                out[n] = A_BPLACE + c
            n += 1
            if first_only:
                return 1
    if T.bsize[t] == 2:
        for y in range(P.miny, P.maxy):
            for x in range(P.minx, P.maxx + 1):
                c = y * G + x
                c2 = c + G
                if not cell_free_for(P, c, slot) or not cell_free_for(P, c2, slot) or HT(P, c2) != HT(P, c):
                    continue
                if (c == o0 and c2 == o1) or (c == o1 and c2 == o0):
                    continue
                if out != NULL:
                    out[n] = A_BPLACEV + c
                n += 1
                if first_only:
                    return 1
    return n


cdef void put_building(Player* P, int slot, int c0, int c1) noexcept nogil:
    collect(P, c0)
    SETBIT(P.brow, c0)
    if c1 >= 0:
        collect(P, c1)
        SETBIT(P.brow, c1)
    P.bc0[slot] = c0
    P.bc1[slot] = c1


cdef void lift_building(Player* P, int slot) noexcept nogil:
    CLRBIT(P.brow, P.bc0[slot])
    if P.bc1[slot] >= 0:
        CLRBIT(P.brow, P.bc1[slot])


cdef inline void bplace_cells(const Tables* T, int t, int a, int* c0, int* c1) noexcept nogil:
    if a >= A_BPLACEV:
        c0[0] = a - A_BPLACEV
        c1[0] = c0[0] + G
    else:
        c0[0] = a - A_BPLACE
        c1[0] = c0[0] + 1 if T.bsize[t] == 2 else -1


cdef inline bint worker_ok(const SData* d, const Tables* T, const Player* P, int c) noexcept nogil:
    """A worker may go on any free top cell (L301); before the last round only cells with a cube are offered,
    since a worker elsewhere changes nothing and comes home at round end (lossless pruning, spec §10.5)."""
    if P.cell[c] == 0 or BIT(P.brow, c) or BIT(P.wrow, c):
        return 0
    return d.round >= T.rounds or BIT(P.crow, c)


cdef bint any_worker_spot(const SData* d, const Tables* T, const Player* P) noexcept nogil:
    cdef int y, x, c
    if P.w_board <= 0 or P.ntiles == 0:
        return 0
    for y in range(P.miny, P.maxy + 1):
        for x in range(P.minx, P.maxx + 1):
            c = y * G + x
            if c > d.wlast and worker_ok(d, T, P, c):
                return 1
    return 0


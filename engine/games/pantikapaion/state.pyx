"""Pantikapaion on the Kleos contract (engine/core.pxd). Rules: shared/rules/pantikapaion.md; coverage and the way a
turn is split into decisions: docs/rules/pantikapaion.md.

The whole changing state is one C struct (SData, state.pxd, 2.8 KB, in its own malloc block): every city as a 16x16 grid of
bytes (height << 4 | face of the top cell) with bit rows for the footprint, buildings, cubes and workers, a list of
buildings, the players' boards and development-board markers, the ring and trireme, the bag as counts per tile
face. The static tables (tile rotations, development board, costs) live in the Game and are read from data/*.json.
The turn is a small state machine (``d.phase``): each phase is one decision of a few to a few hundred actions.
"""
from libc.math cimport exp
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from engine.core cimport CHANCE, MAX_ACTIONS, MAX_PLAYERS, TERMINAL, Game, State, returns_from_keys
from engine.hashing cimport hash_bytes, hash_mix
from engine.rng cimport Rng
from engine.errors import BadMoveError, BadStateError

from engine.games.pantikapaion import data as _data

cdef enum:
    FULL = (1 << G) - 1
    SRC_RING = 0
    SRC_EFFECT = 1
    NX_DEV = 0
    NX_END = 1
    NX_FINAL = 2
    BM_BUILD = 0
    BM_FREE = 1
    BM_MOVE = 2
    OPT_AQ = 0
    OPT_RAND = 1

PHASES = ("first_player", "resource_token", "ring", "random_tile", "pick", "rotation", "anchor", "aqueduct_cube",
          "workers", "development", "substitution", "building_placement", "move_select", "free_select", "option",
          "advance_select", "paid_step", "discard", "over")


# ---------------------------------------------------------------------------------------------------------------
# Geometry: tiles, buildings, workers
# ---------------------------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------------------------
# Costs and payments
# ---------------------------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------------------------
# Option availability on the development board
# ---------------------------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------------------------
# The turn machine
# ---------------------------------------------------------------------------------------------------------------

cdef inline void merge_discard(SData* d, const Tables* T) noexcept nogil:
    """L412: the tiles discarded so far go back into the bag (the shuffle is the later draws)."""
    cdef int t
    for t in range(T.n_terrain):
        d.bag[t] += d.disc[t]
        d.disc[t] = 0
    d.bag_n += d.disc_n
    d.disc_n = 0


cdef int step(SData* d, const Tables* T, int row) noexcept nogil:
    """Move the current player's marker one cell right in row and resolve the cell (L274, L334-L372).
    Returns 1 when the cell opened a decision (d.phase set), else 0."""
    cdef Player* P = &d.pl[d.cur]
    cdef int pos, k, a, c, tok, r
    if P.marker[row] >= T.rowlen[row]:
        return 0                                           # end of the row: never moves again (L368)
    P.marker[row] += 1
    pos = P.marker[row]
    k = T.kind[row][pos]
    a = T.arg[row][pos]
    if k == K_WORKER:
        if P.w_supply > 0:
            P.w_supply -= 1
            P.w_board += 1
    elif k == K_RES1 or k == K_RES2:
        tok = d.tok_at[a if k == K_RES1 else T.n_res1 + a]
        if tok >= 0:
            for c in range(NC):
                P.store[c] += T.tok[tok][c]
    elif k == K_UPG:
        if d.upg_left[a] > 0:
            d.upg_left[a] -= 1
            if T.upg_kind[a] == U_SUB:
                P.n_sub += 1
            elif T.upg_kind[a] == U_RES:
                P.has_res = 1
            else:
                P.has_coin = 1
    elif k == K_MOVE:
        if any_move(P, T):
            d.phase = PH_MOVESEL
            return 1
    elif k == K_FREE:
        if any_free(d, T, P):
            d.phase = PH_FREESEL
            return 1
    elif k == K_AQT:
        if aq_ok(d, T, P, a):
            d.opt = OPT_AQ
            d.opt_arg = a
            d.phase = PH_OPT
            return 1
    elif k == K_RAND:
        if d.bag_n + d.disc_n > 0:
            d.opt = OPT_RAND
            d.opt_arg = 0
            d.phase = PH_OPT
            return 1
    elif k == K_ADV:
        for r in range(NC):
            if r != row and P.marker[r] < T.rowlen[r]:
                d.opt_arg = row
                d.phase = PH_ADVSEL
                return 1
    return 0


cdef void start_turn(SData* d, const Tables* T) noexcept nogil:
    cdef int i
    d.cur = (d.first + d.tturn) % d.players
    d.coin_used = 0
    d.chain = -1
    d.paid = 0
    d.sell_rows = 0
    for i in range(T.ring_size):
        if d.ring[i] >= 0:
            d.phase = PH_PICK
            return
    open_window(d, T, NX_DEV)                               # empty ring: no exploration (G12)


cdef void open_window(SData* d, const Tables* T, int nx) noexcept nogil:
    d.wnext = nx
    d.wlast = -1
    if any_worker_spot(d, T, &d.pl[d.cur]):
        d.phase = PH_WORK
    else:
        window_done(d, T)


cdef void window_done(SData* d, const Tables* T) noexcept nogil:
    if d.wnext == NX_DEV:
        d.phase = PH_DEV
    elif d.wnext == NX_END:
        end_turn(d, T)
    else:
        final_next(d, T)


cdef void cont(SData* d, const Tables* T) noexcept nogil:
    """Go on with the current action after a step or a sub-decision: the rows of a sale (top to bottom, L297),
    then the paid steps of a build (L274), then the end-of-turn worker window."""
    cdef int r
    while d.sell_rows:
        r = 0
        while not (d.sell_rows >> r) & 1:
            r += 1
        d.sell_rows &= ~(1 << r)
        if step(d, T, r):
            return
    if d.chain >= 0:
        if paid_ok(d, T, &d.pl[d.cur]):
            d.phase = PH_PAID
            return
        d.chain = -1
    open_window(d, T, NX_END)


cdef void end_turn(SData* d, const Tables* T) noexcept nogil:
    d.tturn += 1
    if d.tturn >= T.turns * d.players:
        end_round(d, T)
    else:
        start_turn(d, T)


cdef void end_round(SData* d, const Tables* T) noexcept nogil:
    cdef int i, p, c, house = T.t_of[B_HOUSE]
    cdef Player* P
    for i in range(T.ring_size):                            # leftovers to the discard pile (L396)
        if d.ring[i] >= 0:
            d.disc[d.ring[i]] += 1
            d.disc_n += 1
            d.ring[i] = -1
    for p in range(d.players):
        P = &d.pl[p]
        P.coins += T.plus_w[P.marker[house]]                # 1 coin per '+worker' cell reached (L398, L422)
        if d.round < T.rounds:                              # workers come home, except after round 5 (L398, L422)
            for c in range(G):
                P.wrow[c] = 0
            P.w_board += P.w_city
            P.w_city = 0
    d.seq = -1
    if d.round < T.rounds:
        next_discard(d, T)
    else:
        final_next(d, T)                                    # final worker placement (L422)


cdef void final_next(SData* d, const Tables* T) noexcept nogil:
    while True:
        d.seq += 1
        if d.seq >= d.players:
            d.seq = -1
            next_discard(d, T)
            return
        d.cur = (d.first + d.seq) % d.players
        d.wnext = NX_FINAL
        d.wlast = -1
        if any_worker_spot(d, T, &d.pl[d.cur]):
            d.phase = PH_WORK
            return


cdef void next_discard(SData* d, const Tables* T) noexcept nogil:
    cdef int p
    while True:
        d.seq += 1
        if d.seq >= d.players:
            break
        p = (d.first + d.seq) % d.players
        if store_total(&d.pl[p]) > T.limit:                  # storage limit at round end (L400)
            d.cur = p
            d.dlast = 0
            d.phase = PH_DISCARD
            return
    if d.round >= T.rounds:
        d.phase = PH_OVER
    else:
        next_round(d, T)


cdef void next_round(SData* d, const Tables* T) noexcept nogil:
    d.round += 1
    d.first = (d.first + 1) % d.players                     # first-player token passes clockwise (L408)
    d.tturn = 0
    start_ring(d, T)


cdef void start_ring(SData* d, const Tables* T) noexcept nogil:
    cdef int i
    for i in range(MAXRING):
        d.ring[i] = -1
    d.ring_fill = 0
    d.tri = -1
    if d.bag_n == 0:
        merge_discard(d, T)
    if d.bag_n == 0:
        start_turn(d, T)
    else:
        d.phase = PH_RING


cdef void take_piece(SData* d, int t, int mode) noexcept nogil:
    d.stock[t] -= 1                                         # the bottom piece; the next cost shows (L249)
    d.btype = t
    d.bmode = mode
    d.phase = PH_BPLACE


cdef void after_tile(SData* d, const Tables* T) noexcept nogil:
    if d.psrc == SRC_RING:
        open_window(d, T, NX_DEV)
    else:
        cont(d, T)


cdef int ring_available(const SData* d, const Tables* T, int* out) noexcept nogil:
    """Ring slots of the (up to) 3 tiles clockwise after the trireme, skipping gaps (L189), ascending."""
    cdef int n = 0, j, i, tmp, k
    for j in range(T.ring_size):
        i = (d.tri + 1 + j) % T.ring_size
        if d.ring[i] >= 0:
            out[n] = i
            n += 1
            if n == T.choices:
                break
    for j in range(1, n):                                   # insertion sort (n <= 3)
        k = j
        while k > 0 and out[k - 1] > out[k]:
            tmp = out[k]
            out[k] = out[k - 1]
            out[k - 1] = tmp
            k -= 1
    return n


cdef inline bint token_used(const SData* d, int k) noexcept nogil:
    cdef int i
    for i in range(d.tok_dealt):
        if d.tok_at[i] == k:
            return 1
    return 0


cdef int legal(const SData* d, const Tables* T, int* out) noexcept nogil:
    cdef const Player* P = &d.pl[d.cur]
    cdef int n = 0, i, k, t, c, y, x, mask, cnt, rest
    cdef int slots[MAXRING]
    cdef uint32_t nb[G]
    cdef int ph = d.phase
    if ph == PH_PICK:
        k = ring_available(d, T, slots)
        for i in range(k):
            if tile_placeable(P, T, d.ring[slots[i]]):
                out[n] = A_PICK + slots[i]
                n += 1
        if n == 0:                                          # no tile fits: take one anyway, it is discarded
            for i in range(k):
                out[i] = A_PICK + slots[i]
            n = k
    elif ph == PH_ROT:
        nbr_rows(P, nb)
        for i in range(T.nrot[d.ptile]):
            if anchors(P, &T.rot[d.ptile][i], nb, NULL, 1):
                out[n] = A_ROT + i
                n += 1
    elif ph == PH_ANCHOR:
        nbr_rows(P, nb)
        n = anchors(P, &T.rot[d.ptile][d.prot], nb, out, 0)
        for i in range(n):
            out[i] += A_ANCHOR
    elif ph == PH_AQCOL:
        for c in range(NC):
            out[c] = A_AQCOL + c
        n = NC
    elif ph == PH_WORK:
        for y in range(P.miny, P.maxy + 1):
            for x in range(P.minx, P.maxx + 1):
                c = y * G + x
                if c > d.wlast and worker_ok(d, T, P, c):
                    out[n] = A_WORK + c
                    n += 1
        out[n] = A_WDONE
        n += 1
    elif ph == PH_DEV:
        for t in range(NC):
            if d.stock[t] > 0 and can_pay(d, T, P, t) and bplaces(P, T, t, -1, NULL, 1):
                out[n] = A_BUILD + t
                n += 1
        for mask in range(32):
            cnt = 0
            for c in range(NC):
                if (mask >> c) & 1:
                    if P.store[c] == 0:
                        cnt = -99
                    cnt += 1
            if T.sell_min <= cnt <= T.sell_max:
                out[n] = A_SELL + mask
                n += 1
        out[n] = A_TCOIN
        n += 1
        for c in range(NC):
            out[n] = A_TCUBE + c
            n += 1
    elif ph == PH_PAYSUB:
        for c in range(d.sub_min, NC):
            if c == d.btype or P.store[c] == 0:
                continue
            rest = P.store[c] - 1                           # can the remaining substitutions still be paid?
            for k in range(c + 1, NC):
                if k != d.btype:
                    rest += P.store[k]
            if rest >= d.sub_left - 1:
                out[n] = A_PAYSUB + c
                n += 1
    elif ph == PH_BPLACE:
        n = bplaces(P, T, d.btype, d.bslot if d.bmode == BM_MOVE else -1, out, 0)
    elif ph == PH_MOVESEL:
        for k in range(P.nb):
            if bplaces(P, T, P.btype[k], k, NULL, 1):
                out[n] = A_MOVESEL + k
                n += 1
        out[n] = A_SKIP
        n += 1
    elif ph == PH_FREESEL:
        for t in range(NC):
            if free_ok(d, T, P, t):
                out[n] = A_FREESEL + t
                n += 1
        out[n] = A_SKIP
        n += 1
    elif ph == PH_OPT:
        out[0] = A_USE
        out[1] = A_SKIP
        n = 2
    elif ph == PH_ADVSEL:
        for t in range(NC):
            if t != d.opt_arg and P.marker[t] < T.rowlen[t]:
                out[n] = A_ADVROW + t
                n += 1
        out[n] = A_SKIP
        n += 1
    elif ph == PH_PAID:
        if paid_ok(d, T, P):
            out[n] = A_PAID
            n += 1
        out[n] = A_SKIP
        n += 1
    elif ph == PH_DISCARD:
        # colours in non-decreasing order (a multiset, not a sequence); a choice must leave enough cubes of this
        # colour and the later ones to finish the discard
        k = store_total(P) - T.limit
        rest = 0
        for c in range(d.dlast, NC):
            rest += P.store[c]
        for c in range(d.dlast, NC):
            if P.store[c] > 0 and rest >= k:
                out[n] = A_DISC + c
                n += 1
            rest -= P.store[c]
    return n


cdef void apply_action(SData* d, const Tables* T, int a) noexcept nogil:
    cdef Player* P
    cdef int t, c, k, n, m, c0, c1, slot
    cdef int ph = d.phase
    # ---- chance ----
    if ph == PH_FIRST:
        d.first = a - A_FIRST
        d.cur = d.first
        d.tok_dealt = 0
        if T.n_res1 + T.n_res2 > 0:
            d.phase = PH_TOKEN
        else:
            start_ring(d, T)
        return
    if ph == PH_TOKEN:
        d.tok_at[d.tok_dealt] = a - A_TOKEN
        d.tok_dealt += 1
        if d.tok_dealt == T.n_res1 + T.n_res2:
            start_ring(d, T)
        return
    if ph == PH_RING:
        t = a - A_DRAW
        d.bag[t] -= 1
        d.bag_n -= 1
        d.ring[d.ring_fill] = t
        d.ring_fill += 1
        if d.ring_fill < T.ring_size and d.bag_n == 0:
            merge_discard(d, T)                             # bag short: reshuffle the discards (L412)
        if d.ring_fill == T.ring_size or d.bag_n == 0:
            start_turn(d, T)
        return
    P = &d.pl[d.cur]
    if ph == PH_RAND:
        t = a - A_DRAW
        d.bag[t] -= 1
        d.bag_n -= 1
        if tile_placeable(P, T, t):
            d.ptile = t
            d.psrc = SRC_EFFECT
            d.phase = PH_ROT
        else:
            d.disc[t] += 1                                  # cannot be placed anywhere: discarded (ASSUMED)
            d.disc_n += 1
            cont(d, T)
        return
    # ---- decisions ----
    if ph == PH_PICK:
        slot = a - A_PICK
        t = d.ring[slot]
        d.ring[slot] = -1
        d.tri = slot                                        # the trireme takes the tile's place (L189)
        if P.ntiles == 0:                                   # first tile starts the city (L193)
            place_tile(d, T, d.cur, t, 0, (G // 2 - 2) * G + G // 2 - 2)
            open_window(d, T, NX_DEV)
        elif tile_placeable(P, T, t):
            d.ptile = t
            d.psrc = SRC_RING
            d.phase = PH_ROT
        else:
            d.disc[t] += 1
            d.disc_n += 1
            open_window(d, T, NX_DEV)
    elif ph == PH_ROT:
        d.prot = a - A_ROT
        d.phase = PH_ANCHOR
    elif ph == PH_ANCHOR:
        c = place_tile(d, T, d.cur, d.ptile, d.prot, a - A_ANCHOR)
        if c >= 0:
            d.pcell = c
            d.phase = PH_AQCOL
        else:
            after_tile(d, T)
    elif ph == PH_AQCOL:
        c = a - A_AQCOL
        P.cell[d.pcell] = (P.cell[d.pcell] & 0xF0) | (T_RES + c)    # the chosen cube on the '*' cell (L358)
        SETBIT(P.crow, d.pcell)
        P.h_col[P.ntiles - 1] = c
        after_tile(d, T)
    elif ph == PH_WORK:
        if a == A_WDONE:
            window_done(d, T)
            return
        c = a - A_WORK
        collect(P, c)                                       # the cube under the worker is collected (L301)
        SETBIT(P.wrow, c)
        P.w_board -= 1
        P.w_city += 1
        d.wlast = c
        if not any_worker_spot(d, T, P):
            window_done(d, T)
    elif ph == PH_DEV:
        if a < A_SELL:                                      # build (L237-L274)
            t = a - A_BUILD
            n = build_due(d, T, P, t)
            m = P.store[t]
            if m >= n:
                P.store[t] -= n                             # enough of the colour: no substitution (L380)
                take_piece(d, t, BM_BUILD)
            else:
                P.store[t] = 0
                d.btype = t
                d.sub_left = n - m
                d.sub_min = 0
                d.phase = PH_PAYSUB
        elif a < A_TCOIN:                                   # sell 3-5 different colours (L277-L283)
            m = a - A_SELL
            for c in range(NC):
                if (m >> c) & 1:
                    P.store[c] -= 1
                    P.coins += 1
            d.sell_rows = m
            cont(d, T)
        elif a == A_TCOIN:
            P.coins += T.take_coins
            cont(d, T)
        else:
            P.store[a - A_TCUBE] += 1
            cont(d, T)
    elif ph == PH_PAYSUB:
        c = a - A_PAYSUB
        P.store[c] -= 1
        d.sub_left -= 1
        d.sub_min = c
        if d.sub_left == 0:
            take_piece(d, d.btype, BM_BUILD)
    elif ph == PH_BPLACE:
        t = d.btype
        bplace_cells(T, t, a, &c0, &c1)
        if d.bmode == BM_MOVE:
            lift_building(P, d.bslot)
            put_building(P, d.bslot, c0, c1)
            cont(d, T)
            return
        slot = P.nb
        P.nb += 1
        P.btype[slot] = t
        put_building(P, slot, c0, c1)
        if d.bmode == BM_BUILD:
            d.chain = t
            d.paid = 0
            if step(d, T, t):
                return
        cont(d, T)
    elif ph == PH_MOVESEL:
        if a == A_SKIP:
            cont(d, T)
            return
        d.bslot = a - A_MOVESEL
        d.btype = P.btype[d.bslot]
        d.bmode = BM_MOVE
        d.phase = PH_BPLACE
    elif ph == PH_FREESEL:
        if a == A_SKIP:
            cont(d, T)
            return
        take_piece(d, a - A_FREESEL, BM_FREE)
    elif ph == PH_OPT:
        if a == A_SKIP:
            cont(d, T)
            return
        if d.opt == OPT_AQ:
            d.aq_left[d.opt_arg] -= 1
            d.ptile = T.aq_first + d.opt_arg
            d.psrc = SRC_EFFECT
            d.phase = PH_ROT
        else:
            if d.bag_n == 0:
                merge_discard(d, T)                         # empty bag: reshuffle the discards first (G12)
            d.phase = PH_RAND
    elif ph == PH_ADVSEL:
        if a == A_SKIP:
            cont(d, T)
            return
        if step(d, T, a - A_ADVROW):
            return
        cont(d, T)
    elif ph == PH_PAID:
        if a == A_SKIP:
            d.chain = -1
            cont(d, T)
            return
        k = paid_cost(d, T, P)
        if P.has_coin and not d.coin_used:
            d.coin_used = 1                                 # the coin discount, once a turn (L388)
        P.coins -= k
        d.paid += 1
        if step(d, T, d.chain):
            return
        cont(d, T)
    elif ph == PH_DISCARD:
        c = a - A_DISC
        P.store[c] -= 1
        d.dlast = c
        if store_total(P) <= T.limit:
            next_discard(d, T)


# ---------------------------------------------------------------------------------------------------------------
# Scoring (L424-L456)
# ---------------------------------------------------------------------------------------------------------------

cdef int neighbours(const Player* P, const Tables* T, int slot, int* out) noexcept nogil:
    """The grid positions around a building (8-neighbourhood of its cells, minus its own cells), with a tile
    (and, with the G10 reading 'same level only', at the building's level; L428)."""
    cdef int n = 0, i, j, dy, dx, y, x, c, k, c0 = P.bc0[slot], c1 = P.bc1[slot], dup
    for i in range(2):
        c = c0 if i == 0 else c1
        if c < 0:
            continue
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                y = c // G + dy
                x = c % G + dx
                if y < 0 or y >= G or x < 0 or x >= G:
                    continue
                k = y * G + x
                if k == c0 or k == c1 or P.cell[k] == 0:
                    continue
                if T.adj_same_level and HT(P, k) != HT(P, c):
                    continue
                dup = 0
                for j in range(n):
                    if out[j] == k:
                        dup = 1
                if not dup:
                    out[n] = k
                    n += 1
    return n


cdef inline bint visible_drought(const Player* P, int c) noexcept nogil:
    return FACE(P, c) == T_DROUGHT and not BIT(P.brow, c) and not BIT(P.wrow, c)


cdef void score_parts(const SData* d, const Tables* T, int p, int* out) noexcept nogil:
    """out[0..4]: houses, wineries, fortresses, aqueducts, temples; out[5] coins; out[6] cubes; out[7] drought;
    out[8] total."""
    cdef const Player* P = &d.pl[p]
    cdef int nbr[16]
    cdef int seen[MAXB]
    cdef int b, t, kind, rate, n, i, cnt, o, y, x, c, dy, dx, k, protect
    cdef int aq = T.t_of[B_AQUEDUCT]
    for i in range(9):
        out[i] = 0
    for b in range(P.nb):
        t = P.btype[b]
        kind = T.bkind[t]
        rate = T.rate[t][P.marker[t]]
        if rate == 0:
            continue
        n = neighbours(P, T, b, nbr)
        cnt = 0
        if kind == B_HOUSE:                                 # workers around it (L432)
            for i in range(n):
                if BIT(P.wrow, nbr[i]):
                    cnt += 1
            out[0] += rate * cnt
        elif kind == B_WINERY:                              # 1 VP per 3/2/1 cells without a building (L436)
            for i in range(n):
                if not BIT(P.brow, nbr[i]):
                    cnt += 1
            out[1] += cnt // rate
        elif kind == B_FORTRESS:                            # per level it stands on (L440)
            out[2] += rate * HT(P, P.bc0[b])
        elif kind == B_AQUEDUCT:                            # visible drought around it (L444)
            for i in range(n):
                if visible_drought(P, nbr[i]):
                    cnt += 1
            out[3] += rate * cnt
        else:                                               # buildings of another type around it (L448)
            for i in range(MAXB):
                seen[i] = 0
            for i in range(n):
                o = slot_at(P, nbr[i]) + 1
                if o == 0 or T.bkind[P.btype[o - 1]] == B_TEMPLE:
                    continue
                k = o - 1 if not T.temple_types else P.btype[o - 1]    # G11: each building, or each type
                if not seen[k]:
                    seen[k] = 1
                    cnt += 1
            out[4] += rate * cnt
    out[5] = P.coins // T.coins_per_vp                      # L450
    cnt = store_total(P)
    out[6] = cnt if cnt < T.limit else T.limit              # L451 (at the end storage is already <= 5)
    if P.ntiles > 0:
        for y in range(P.miny, P.maxy + 1):                 # -1 per visible unprotected drought cell (L452)
            for x in range(P.minx, P.maxx + 1):
                c = y * G + x
                if not visible_drought(P, c):
                    continue
                protect = 0
                if P.marker[aq] >= 1:
                    for dy in range(-1, 2):
                        for dx in range(-1, 2):
                            if 0 <= y + dy < G and 0 <= x + dx < G:
                                k = slot_at(P, (y + dy) * G + x + dx) + 1
                                if k != 0 and P.btype[k - 1] == aq and not (
                                        T.adj_same_level and HT(P, (y + dy) * G + x + dx) != HT(P, c)):
                                    protect = 1
                if not protect:
                    out[7] -= 1
    for i in range(8):
        out[8] += out[i]


# ---------------------------------------------------------------------------------------------------------------
# Game and State
# ---------------------------------------------------------------------------------------------------------------

cdef class PantikapaionGame(Game):
    """Static data: tile rotations, development board, costs (from data/*.json), for one player count."""

    def __init__(self, dict options, data=None):
        # data: the tables of data.load(), or a variant of them (tests of the switchable readings)
        D = data if data is not None else _data.load()
        n = options["players"]
        super().__init__("pantikapaion", options, n, NUM_ACTIONS)
        self.data = D
        cdef Tables* T = &self.T
        memset(T, 0, sizeof(Tables))
        T.players = n
        tiles = D["tiles"]
        if len(tiles) > MAXTT:
            raise ValueError(f"pantikapaion data: {len(tiles)} tile faces, the engine holds {MAXTT}")
        T.n_types = len(tiles)
        T.n_terrain = D["n_terrain"]
        T.aq_first = D["n_terrain"]
        T.n_aq = T.n_types - T.n_terrain
        for i, tile in enumerate(tiles):
            T.count[i] = tile["count"]
            T.nrot[i] = len(tile["rotations"])
            for r, (deg, cells) in enumerate(tile["rotations"]):
                T.rot[i][r].n = len(cells)
                T.rot[i][r].deg = deg
                T.rot[i][r].h = max(c[0] for c in cells) + 1
                T.rot[i][r].w = max(c[1] for c in cells) + 1
                for j, (dy, dx, typ) in enumerate(cells):
                    T.rot[i][r].dy[j] = dy
                    T.rot[i][r].dx[j] = dx
                    T.rot[i][r].typ[j] = typ
                    T.rot[i][r].rowmask[<int>dy] |= (<uint32_t>1) << <int>dx
        for row, cells in enumerate(D["dev"]):
            T.rowlen[row] = len(cells)
            rate = 0
            for pos, (kind, arg) in enumerate(cells, 1):
                T.kind[row][pos] = kind
                T.arg[row][pos] = arg
                if kind == K_VP and D["vp_cells_add_up"]:
                    rate += arg                             # G9 alternative reading: the VP cells add up
                elif kind in (K_VP, K_VPC):
                    rate = arg                              # the furthest VP cell reached counts (G9)
                T.rate[row][pos] = rate
        for t, b in enumerate(D["buildings"]):
            T.bsize[t] = b["cells"]
            T.bkind[t] = _data.BUILDING_KINDS.index(b["name"])
            T.t_of[T.bkind[t]] = t
        house = T.t_of[B_HOUSE]
        acc = 0
        for pos in range(1, T.rowlen[house] + 1):
            if T.kind[house][pos] == K_WORKER:
                acc += 1
            T.plus_w[pos] = acc
        T.pieces = D["pieces_2p"] if n == 2 else D["pieces"]
        for i, c in enumerate(D["costs"][:8]):
            T.cost[i] = c
        T.n_res1 = D["n_res1"]
        T.n_res2 = D["n_res2"]
        T.n_tok = len(D["tokens"])
        T.n_single = D["n_single_tokens"]
        for k, tok in enumerate(D["tokens"]):
            for c in tok:
                T.tok[k][c] += 1
        T.n_upg = len(D["upgrade_cells"])
        for k, kind in enumerate(D["upgrade_cells"]):
            T.upg_kind[k] = kind
        T.ring_size = D["ring_size"][n]
        T.choices = D["choices"]
        T.rounds = D["rounds"]
        T.turns = D["turns"]
        T.workers = D["workers"]
        T.workers_start = D["workers_start"]
        T.limit = D["storage_limit"]
        for i in range(3):
            T.paid[i] = D["paid_costs"][i]
        T.sell_min = D["sell_min"]
        T.sell_max = D["sell_max"]
        T.take_coins = D["take_coins"]
        T.coins_per_vp = D["coins_per_vp"]
        T.max_sub = D["max_sub"]
        T.start_coins = D["start_coins"]
        for c in range(NC):
            T.start_cubes[c] = D["start_cubes"][c]
        T.adj_same_level = D["adjacency_same_level_only"]
        T.temple_types = D["temple_counts_types"]
        if T.ring_size > MAXRING or T.n_res1 + T.n_res2 > MAXRES or T.n_upg > NUPGC or T.n_tok > NTOK:
            raise ValueError("pantikapaion data: a table exceeds the engine's fixed sizes")
        # a player builds at most once a turn plus once per free-build cell, and receives at most one tile a turn
        # plus one per aqueduct-tile / random-tile cell: the fixed slots must hold that
        cells = [k for row in D["dev"] for k, _ in row]
        if T.rounds * T.turns + cells.count(K_FREE) > MAXB:
            raise ValueError(f"pantikapaion data: a player could build more than {MAXB} buildings")
        if T.rounds * T.turns + cells.count(K_AQT) + cells.count(K_RAND) > MAXT:
            raise ValueError(f"pantikapaion data: a city could receive more than {MAXT} tiles")

    cpdef State new_initial_state(self):
        cdef PantikapaionState s = PantikapaionState.__new__(PantikapaionState)
        cdef Tables* T = &self.T
        cdef int p, i
        cdef Player* P
        memset(s.d, 0, sizeof(SData))
        s.game = self
        s.num_players = self.num_players
        s.T = T
        s.d.players = self.num_players
        s.d.phase = PH_FIRST
        s.d.round = 1
        s.d.tri = -1
        for i in range(MAXRING):
            s.d.ring[i] = -1
        for i in range(T.n_terrain):
            s.d.bag[i] = T.count[i]
            s.d.bag_n += T.count[i]
        for i in range(NC):
            s.d.stock[i] = T.pieces
        for i in range(T.n_upg):
            s.d.upg_left[i] = self.num_players               # one token per player on each cell (L128)
        for i in range(T.n_aq):
            s.d.aq_left[i] = T.count[T.aq_first + i]
        for i in range(MAXRES):
            s.d.tok_at[i] = -1
        s.d.ptile = -1
        s.d.pcell = -1
        s.d.chain = -1
        s.d.bslot = -1
        s.d.seq = -1
        s.d.wlast = -1
        for p in range(self.num_players):
            P = &s.d.pl[p]
            P.w_board = T.workers_start
            P.w_supply = T.workers - T.workers_start
            P.coins = T.start_coins
            for i in range(NC):
                P.store[i] = T.start_cubes[i]
            P.miny = 1
            P.maxy = 0
            P.minx = 1
            P.maxx = 0
            for i in range(MAXB):
                P.bc0[i] = -1
                P.bc1[i] = -1
        return s

    def state_from_json(self, obj):
        from engine.games.pantikapaion.jsonio import state_from_json
        return state_from_json(self, obj)


cdef class PantikapaionState(State):

    def __cinit__(self):
        # The struct lives in its own block (not zeroed: clone overwrites it, new_initial_state clears it).
        self.d = <SData*>malloc(sizeof(SData))
        if self.d == NULL:
            raise MemoryError("pantikapaion: no memory for a state")

    def __dealloc__(self):
        free(self.d)

    # --- C contract ----------------------------------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        cdef int ph = self.d.phase
        if ph == PH_OVER:
            return TERMINAL
        if ph <= PH_RAND:
            return CHANCE
        return self.d.cur

    cdef int c_legal_actions(self, int* out) noexcept:
        if self.d.phase <= PH_RAND or self.d.phase == PH_OVER:
            return 0
        return legal(self.d, self.T, out)

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept:
        cdef int n = 0, i, lo, hi
        cdef const Tables* T = self.T
        cdef double q
        cdef int ph = self.d.phase
        if ph == PH_FIRST:
            for i in range(self.d.players):
                actions[i] = A_FIRST + i
                probs[i] = 1.0 / self.d.players
            return self.d.players
        if ph == PH_TOKEN:
            lo = 0 if self.d.tok_dealt < T.n_res1 else T.n_single
            hi = T.n_single if self.d.tok_dealt < T.n_res1 else T.n_tok
            for i in range(lo, hi):
                if not token_used(self.d, i):
                    actions[n] = A_TOKEN + i
                    n += 1
            for i in range(n):
                probs[i] = 1.0 / n
            return n
        if ph == PH_RING or ph == PH_RAND:
            q = 1.0 / self.d.bag_n
            for i in range(T.n_terrain):
                if self.d.bag[i]:
                    actions[n] = A_DRAW + i
                    probs[n] = self.d.bag[i] * q
                    n += 1
            return n
        return 0

    cdef void c_apply(self, int action) noexcept:
        apply_action(self.d, self.T, action)

    cdef State c_clone(self):
        cdef PantikapaionState s = PantikapaionState.__new__(PantikapaionState)
        s.game = self.game
        s.num_players = self.num_players
        s.T = self.T
        memcpy(s.d, self.d, sizeof(SData))              # the state lives outside the object: one copy, no zeroing
        return s

    cdef void c_copy_from(self, State other) noexcept:
        memcpy(self.d, (<PantikapaionState>other).d, sizeof(SData))

    cdef void c_determinize(self, int observer, Rng* rng) noexcept:
        # Nothing is hidden: the bag is a multiset of counts, its order is future chance (spec §7.2).
        pass

    cdef uint64_t c_info_key(self, int player) noexcept:
        # Open information: every player sees the whole state.
        return hash_bytes(hash_mix(0x9A17, <uint64_t>self.d.players), self.d, sizeof(SData))

    cdef int64_t c_action_observation(self, int action, int player) noexcept:
        return action

    cdef void c_returns(self, double* out) noexcept:
        cdef double keys[MAX_PLAYERS]
        cdef int parts[9]
        cdef int p
        for p in range(self.d.players):
            score_parts(self.d, self.T, p, parts)
            # ties: most buildings, then most coins (L456); still tied: shared
            keys[p] = parts[8] * 1e6 + self.d.pl[p].nb * 1e3 + self.d.pl[p].coins
        returns_from_keys(keys, self.d.players, out)

    cdef void c_evaluate(self, double* out) noexcept:
        # Score if the game ended now, plus what the remaining rounds are likely to add (see heuristic.py).
        cdef double proj[MAX_PLAYERS]
        cdef int parts[9]
        cdef int p, q, c
        cdef const Player* P
        cdef double left = (self.T.rounds - self.d.round + 1) / <double>self.T.rounds, s, z
        for p in range(self.d.players):
            P = &self.d.pl[p]
            score_parts(self.d, self.T, p, parts)
            s = 0
            for c in range(NC):
                s += P.marker[c]
            proj[p] = parts[8] + left * (1.5 * P.nb + 0.6 * s + 1.0 * (P.w_board + P.w_city) + 0.3 * P.coins)
        for p in range(self.d.players):
            z = 0
            for q in range(self.d.players):
                if q != p:
                    z += 1.0 / (1.0 + exp(-(proj[p] - proj[q]) / 6.0))
            out[p] = z / (self.d.players - 1)

    # --- Python face -----------------------------------------------------------------------------------------
    def score_breakdown(self, int player):
        """{'houses', 'wineries', 'fortresses', 'aqueducts', 'temples', 'coins', 'resources', 'drought', 'total'}."""
        self._check_player(player)
        cdef int parts[9]
        score_parts(self.d, self.T, player, parts)
        keys = ("houses", "wineries", "fortresses", "aqueducts", "temples", "coins", "resources", "drought", "total")
        return {k: parts[i] for i, k in enumerate(keys)}

    def scores(self):
        return [self.score_breakdown(p)["total"] for p in range(self.d.players)]

    def observation(self, int player):
        self._check_player(player)
        obs = self.to_json()                                # open information: everything is on the table
        obs["to_move"] = self.c_current_player()
        return obs

    @property
    def phase(self):
        return PHASES[self.d.phase]

    def _raw(self):
        """The C struct as nested Python values (for jsonio and tests)."""
        cdef SData* d = self.d
        cdef Player* P
        cdef int i
        out = {"players": d.players, "phase": d.phase, "round": d.round, "tturn": d.tturn, "first": d.first,
               "cur": d.cur, "ring": [d.ring[i] for i in range(MAXRING)], "ring_fill": d.ring_fill, "tri": d.tri,
               "bag_n": d.bag_n, "disc_n": d.disc_n, "stock": [d.stock[i] for i in range(NC)],
               "upg_left": [d.upg_left[i] for i in range(NUPGC)], "aq_left": [d.aq_left[i] for i in range(8)],
               "tok_at": [d.tok_at[i] for i in range(MAXRES)], "tok_dealt": d.tok_dealt,
               "ptile": d.ptile, "psrc": d.psrc, "prot": d.prot, "pcell": d.pcell, "wnext": d.wnext,
               "wlast": d.wlast, "chain": d.chain, "paid": d.paid, "coin_used": d.coin_used,
               "sell_rows": d.sell_rows, "btype": d.btype, "bmode": d.bmode, "bslot": d.bslot,
               "sub_left": d.sub_left, "sub_min": d.sub_min, "opt": d.opt, "opt_arg": d.opt_arg, "seq": d.seq,
               "dlast": d.dlast, "bag": [d.bag[i] for i in range(MAXTT)], "disc": [d.disc[i] for i in range(MAXTT)],
               "pl": []}
        for p in range(NPL):
            P = &d.pl[p]
            out["pl"].append({
                "ht": [HT(P, i) for i in range(NCELL)], "top": [self._top(p, i) for i in range(NCELL)],
                "bld": [slot_at(P, i) + 1 for i in range(NCELL)],
                "bc0": [P.bc0[i] for i in range(MAXB)], "bc1": [P.bc1[i] for i in range(MAXB)],
                "btype": [P.btype[i] for i in range(MAXB)],
                "h_tile": [P.h_tile[i] for i in range(MAXT)], "h_rot": [P.h_rot[i] for i in range(MAXT)],
                "h_col": [P.h_col[i] for i in range(MAXT)], "h_at": [P.h_at[i] for i in range(MAXT)],
                "coins": P.coins, "store": [P.store[i] for i in range(NC)],
                "marker": [P.marker[i] for i in range(NC)], "nb": P.nb, "ntiles": P.ntiles,
                "w_board": P.w_board, "w_supply": P.w_supply, "w_city": P.w_city, "n_sub": P.n_sub,
                "has_res": P.has_res, "has_coin": P.has_coin})
        return out

    def _set_raw(self, dict r):
        """Overwrite the scalar fields and the board-level arrays from a _raw() dict (cities are left as they are:
        jsonio rebuilds them by replaying tiles)."""
        cdef SData* d = self.d
        cdef Player* P
        cdef int i
        d.phase, d.round, d.tturn, d.first, d.cur = r["phase"], r["round"], r["tturn"], r["first"], r["cur"]
        d.ring_fill, d.tri, d.bag_n, d.disc_n, d.tok_dealt = r["ring_fill"], r["tri"], r["bag_n"], r["disc_n"], r["tok_dealt"]
        for i in range(MAXRING):
            d.ring[i] = r["ring"][i]
        for i in range(NC):
            d.stock[i] = r["stock"][i]
        for i in range(NUPGC):
            d.upg_left[i] = r["upg_left"][i]
        for i in range(8):
            d.aq_left[i] = r["aq_left"][i]
        for i in range(MAXRES):
            d.tok_at[i] = r["tok_at"][i]
        for i in range(MAXTT):
            d.bag[i] = r["bag"][i]
            d.disc[i] = r["disc"][i]
        d.ptile, d.psrc, d.prot, d.pcell, d.wnext = r["ptile"], r["psrc"], r["prot"], r["pcell"], r["wnext"]
        d.wlast, d.chain, d.paid, d.coin_used = r["wlast"], r["chain"], r["paid"], r["coin_used"]
        d.sell_rows, d.btype, d.bmode, d.bslot = r["sell_rows"], r["btype"], r["bmode"], r["bslot"]
        d.sub_left, d.sub_min, d.opt, d.opt_arg = r["sub_left"], r["sub_min"], r["opt"], r["opt_arg"]
        d.seq, d.dlast = r["seq"], r["dlast"]
        for p in range(NPL):
            P = &d.pl[p]
            q = r["pl"][p]
            P.coins, P.w_board, P.w_supply, P.w_city = q["coins"], q["w_board"], q["w_supply"], q["w_city"]
            P.n_sub, P.has_res, P.has_coin = q["n_sub"], q["has_res"], q["has_coin"]
            for i in range(NC):
                P.store[i] = q["store"][i]
                P.marker[i] = q["marker"][i]

    def _rot_info(self, int tt, int r):
        cdef const Shape* s = &self.T.rot[tt][r]
        return {"deg": s.deg, "h": s.h, "w": s.w,
                "cells": [(s.dy[i], s.dx[i], s.typ[i]) for i in range(s.n)]}

    def _fits(self, int p, int tt, int r, int cell):
        """0 illegal, 1 expand, 2 stack: where the tile would go (for notation and tests)."""
        cdef uint32_t nb[G]
        cdef const Shape* s = &self.T.rot[tt][r]
        cdef int y = cell // G, x = cell % G
        if y + s.h > G or x + s.w > G:
            return 0
        nbr_rows(&self.d.pl[p], nb)
        return fits(&self.d.pl[p], s, y, x, nb)

    def _anchor_list(self, int p, int tt, int r):
        """The bit-parallel anchor enumeration of one rotation (tests compare it with _fits on every cell)."""
        cdef int buf[NCELL]
        cdef uint32_t nb[G]
        nbr_rows(&self.d.pl[p], nb)
        cdef int n = anchors(&self.d.pl[p], &self.T.rot[tt][r], nb, buf, 0)
        return [buf[i] for i in range(n)]

    def _build_due(self, int p, int t):
        return build_due(self.d, self.T, &self.d.pl[p], t)

    def _paid_cost(self):
        return paid_cost(self.d, self.T, &self.d.pl[self.d.cur])

    # small accessors for notation.py and jsonio.py (no struct conversion)
    def _ctx(self):
        return (self.d.phase, self.d.cur, self.d.ptile, self.d.prot, self.d.btype, self.d.bslot)

    def _ring_tile(self, int slot):
        return self.d.ring[slot] if 0 <= slot < MAXRING else -1

    def _height(self, int p, int c):
        return HT(&self.d.pl[p], c)

    def _top(self, int p, int c):
        cdef const Player* P = &self.d.pl[p]
        return FACE(P, c) | (F_CUBE if BIT(P.crow, c) else 0) | (F_WORKER if BIT(P.wrow, c) else 0)

    def _set_top(self, int p, int c, int value):
        cdef Player* P = &self.d.pl[p]
        P.cell[c] = (P.cell[c] & 0xF0) | (value & TYPE_MASK)
        if value & F_CUBE:
            SETBIT(P.crow, c)
        else:
            CLRBIT(P.crow, c)
        if value & F_WORKER:
            SETBIT(P.wrow, c)
        else:
            CLRBIT(P.wrow, c)

    def _set_h_col(self, int p, int i, int c):
        self.d.pl[p].h_col[i] = c

    def _bld(self, int p, int c):
        return slot_at(&self.d.pl[p], c) + 1

    def _building(self, int p, int slot):
        cdef const Player* P = &self.d.pl[p]
        return (P.btype[slot], P.bc0[slot], P.bc1[slot])

    def _place_tile(self, int p, int tt, int r, int cell):
        return place_tile(self.d, self.T, p, tt, r, cell)

    def _put_building(self, int p, int t, int c0, int c1):
        cdef Player* P = &self.d.pl[p]
        slot = P.nb
        P.nb += 1
        P.btype[slot] = t
        put_building(P, slot, c0, c1)

    def _tile_placeable(self, int p, int tt):
        return tile_placeable(&self.d.pl[p], self.T, tt)

    def action_to_str(self, int action):
        from engine.games.pantikapaion.notation import action_to_str
        return action_to_str(self, action)

    def str_to_action(self, str text):
        from engine.games.pantikapaion.notation import str_to_action
        return str_to_action(self, text)

    def to_json(self):
        from engine.games.pantikapaion.jsonio import state_to_json
        return state_to_json(self)

    def render(self, observer=None):
        from engine.games.pantikapaion.render import render
        return render(self, observer)


MAX_BUILDINGS = MAXB
MAX_TILES = MAXT


def state_bytes():
    """Bytes of the changing state (what clone copies)."""
    return sizeof(SData)

"""Pantikapaion on the Kleos contract (engine/core.pxd). Rules: docs/rules/spec/pantikapaion.md; coverage and the way a
turn is split into decisions: docs/rules/pantikapaion.md.

The whole changing state is one C struct (SData, state.pxd, 2.8 KB, in its own malloc block): every city as a 16x16 grid of
bytes (height << 4 | face of the top cell) with bit rows for the footprint, buildings, cubes and workers, a list of
buildings, the players' boards and development-board markers, the ring and trireme, the bag as counts per tile
face. The static tables (tile rotations, development board, costs) live in the Game and are read from data/*.json.
The turn is a small state machine (``d.phase``): each phase is one decision of a few to a few hundred actions.
The C rules are split by idea into included files (one compiled module): geometry.pxi, payments.pxi,
development.pxi, turns.pxi, legal.pxi, apply.pxi, scoring.pxi; this file keeps the Game and State classes.
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


# The C rules, split by idea (one compiled module)
include "geometry.pxi"
include "payments.pxi"
include "development.pxi"
include "turns.pxi"
include "legal.pxi"
include "apply.pxi"
include "scoring.pxi"


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
        ev = D["evaluate"]
        T.ev_building, T.ev_step, T.ev_worker = ev["building"], ev["development_step"], ev["worker"]
        T.ev_coin, T.ev_scale = ev["coin"], ev["scale"]
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
        # Score if the game ended now, plus what the remaining rounds are likely to add (weights: data/evaluate.json).
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
            proj[p] = parts[8] + left * (self.T.ev_building * P.nb + self.T.ev_step * s
                                         + self.T.ev_worker * (P.w_board + P.w_city) + self.T.ev_coin * P.coins)
        for p in range(self.d.players):
            z = 0
            for q in range(self.d.players):
                if q != p:
                    z += 1.0 / (1.0 + exp(-(proj[p] - proj[q]) / self.T.ev_scale))
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

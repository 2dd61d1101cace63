"""Polis on the Kleos contract: the rules core in C (legal actions, apply, chance, determinize, info keys).

Rules: docs/rules/spec/polis.md; coverage and the split of a turn into decisions: docs/rules/polis.md.
Seat 0 is Athens, seat 1 is Sparta. Every table the rulebook lost comes from data/*.json (see data.py).
The Python face delegates to codec.py (JSON, observation), notation.py (move names) and render.py (text view).
The C rules are split by idea into included files (one compiled module): helpers.pxi, movement.pxi, trade.pxi,
proxenos.pxi, legal.pxi (one option generator per decision), chance.pxi, turns.pxi, battles.pxi, end_of_round.pxi,
payments.pxi, apply.pxi, evaluate.pxi (the position score of search cut-offs and greedy); this file keeps the enums, the action ids and the Game and State classes.
"""
from libc.math cimport exp
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memset

from engine.core cimport CHANCE, HIDDEN_ACTION, MAX_ACTIONS, TERMINAL, Game, State, returns_from_keys
from engine.hashing cimport hash_bytes, hash_mix
from engine.rng cimport Rng, rng_below

from engine.errors import BadMoveError, BadStateError

# ---- phases (who decides is in c_current_player) ----------------------------------------------------------------
cdef enum:
    PH_SETUP_TILES = 0   # chance: the initial project display
    PH_EVENT             # chance (set-up): the face-down event stack, one card of each letter
    PH_ACTION            # pass / ransom / start an action type
    PH_SURCHARGE         # solo phase: pay the 1-resource surcharge
    PH_TRAIN_POLIS
    PH_TRAIN_COUNT
    PH_BUILD_POLIS
    PH_BUILD_COUNT       # one count per port sea of the polis (sel_n, then sel_n2 for Corinth)
    PH_HIRE_POLIS
    PH_HIRE_COUNT
    PH_PAY_SPLIT         # how many of pay_n are paid in silver instead of pay_res
    PH_DEV_TILE
    PH_DEV_POLIS
    PH_DEV_MASK
    PH_MOVE_DEST
    PH_MOVE_FROM
    PH_SIEGE_TARGET
    PH_SIEGE_ROLL        # chance: d4
    PH_TRIB_REGION
    PH_TRIB_ALLOC
    PH_TRADE_CELL
    PH_TRADE_PAY
    PH_TRADE_ROLL        # chance: min(2d4) drop, or a d4 rise per listed good
    PH_PROX_DEST
    PH_BATTLE_ORDER
    PH_RETREAT
    PH_DEAL              # chance: one battle card to need[] holder
    PH_ATTACK
    PH_DEFEND
    PH_FOOD
    PH_GROWTH
    PH_PHOROS
    PH_TILE_DRAW         # chance: a project tile to the display
    PH_TILE_REMOVE
    PH_OVER
    NUM_PHASES

# ---- action ids (fixed action space) -----------------------------------------------------------------------------
cdef enum:
    A_PASS = 0
    A_RANSOM = 1
    A_START = 2          # + type-1, types 1..11
    A_SURCH = 13         # + resource
    A_POLIS = 20         # + polis
    A_COUNT = 40         # + 0..10
    A_SILVER = 52        # + 0..10
    A_AREA = 64          # + area (regions then seas)
    A_STOP = 88
    A_TILE = 90          # + tile
    A_MASK = 106         # + 0..7
    A_ALLOC = 114        # + 0..10 cubes in the first column
    A_CELL = 126         # + cell
    A_PAYRES = 142       # + resource
    A_RETREAT = 148
    A_STAY = 149
    A_ATTACK = 150       # + pair index (i <= j), 45
    A_DEFEND = 200       # + 9*i + j, 81
    A_RELEASE = 290      # + polis
    A_GROW = 310         # + polis
    A_PHOROS = 330       # + 0..2
    C_D4 = 340           # + roll-1
    C_DROP = 346         # + min(2d4)-1
    C_CARD = 350         # + kind
    C_TILE = 360         # + tile
    C_EVENT = 380        # + event
    NUM_ACTIONS = 430

cdef enum:
    T_TRAIN = 1
    T_BUILD = 2
    T_HIRE = 3
    T_DEVELOP = 4
    T_MOVE_HOP = 5
    T_MOVE_GAL = 6
    T_SIEGE = 7
    T_TRIBUTE = 8
    T_TRADE = 9
    T_PROXENOS = 10
    T_CIVIL = 11

cdef enum:
    IRON = 0
    WOOD = 1
    WINE = 2
    SILVER = 3
    WHEAT = 4

cdef enum:
    TW_PILE = -1
    TW_DISPLAY = -2
    TW_REMOVED = -3

cdef enum:
    CAPTURED = -1
    CTX_TURN = 0
    CTX_ROUND = 1
    U_M = 4              # unit index of Misthophoroi in kunit
    U_S = 5              # unit index of Salpinktes
    W_NONE = -1
    W_DRAW = 2
    W_SCORE = 3
    EFF_RESOURCE = 1
    EFF_PRESTIGE = 2
    EFF_POPULATION = 3
    EFF_UNITS = 4
    EFF_FIRST = 5
    EFF_STACKING = 6
    EFF_BLOCK = 7

cdef int PAIR_I[45]
cdef int PAIR_J[45]
cdef int PAIR_OF[9][9]
cdef double DROP_P[4]


cdef void _init_pairs():
    cdef int i, j, k = 0
    for i in range(9):
        for j in range(i, 9):
            PAIR_I[k] = i
            PAIR_J[k] = j
            PAIR_OF[i][j] = k
            PAIR_OF[j][i] = k
            k += 1
    DROP_P[0] = 7.0 / 16
    DROP_P[1] = 5.0 / 16
    DROP_P[2] = 3.0 / 16
    DROP_P[3] = 1.0 / 16

_init_pairs()


# The C rules, split by idea (one compiled module)
include "helpers.pxi"
include "movement.pxi"
include "trade.pxi"
include "proxenos.pxi"
include "legal.pxi"
include "chance.pxi"
include "turns.pxi"
include "battles.pxi"
include "end_of_round.pxi"
include "payments.pxi"
include "apply.pxi"
include "evaluate.pxi"


# ---- the game -------------------------------------------------------------------------------------------------
cdef class PolisGame(Game):
    def __init__(self, dict options):
        from engine.games.polis.data import load_tables
        super().__init__("polis", options, 2, NUM_ACTIONS)
        self.data_dir = options.get("data") or None
        self.tables = load_tables(self.data_dir)
        self._fill(self.tables)

    def _fill(self, t):
        cdef Static* g = &self.st
        cdef int i, j, k
        memset(g, 0, sizeof(Static))
        g.nr = len(t["regions"])
        g.ns = len(t["seas"])
        g.nm = len(t["markets"])
        for i in range(g.nr):
            g.land_adj[i] = t["land_adj"][i]
            g.coast[i] = t["coast"][i]
        for i in range(g.ns):
            g.sea_adj[i] = t["sea_adj"][i]
        g.sea_only = t["sea_only"]
        g.dk_polis, g.dk_a, g.dk_b = t["diolkos"]
        for i in range(NPOL):
            g.preg[i] = t["polis_region"][i]
            g.base[i] = t["base"][i]
            g.mgrow[i] = t["max_growth"][i]
            g.mpop[i] = t["max_pop"][i]
            g.nports[i] = len(t["ports"][i])
            for j, s in enumerate(t["ports"][i]):
                g.port[i][j] = s
            if g.preg[i] >= 0:
                g.reg_poleis[g.preg[i]] |= 1u << i
            for s in t["ports"][i]:
                g.portmask[i] |= 1u << s
                g.sea_poleis[s] |= 1u << i
        for i in range(g.nr):
            for j in range(g.ns):
                if (g.coast[i] >> j) & 1:
                    g.sea_regions[j] |= 1u << i
        for i in range(2):
            g.capital[i] = t["capital"][i]
            g.trade_poleis[i] = t["trade_poleis"][i]
            g.tport[i] = t["trade_port_seas"][i]
        for i in range(g.nm):
            g.mseas[i] = t["market_seas"][i]
            g.mland[i] = t["market_land"][i]
        for i in range(g.nr):
            g.tcols[i] = len(t["trib"][i])
            for j, (res, vals) in enumerate(t["trib"][i]):
                g.tres[i][j] = res
                g.tlen[i][j] = len(vals)
                for k, v in enumerate(vals):
                    g.tval[i][j][k] = v
        g.ncell = len(t["cells"])
        for i, (m, rate, gives, acc) in enumerate(t["cells"]):
            g.cmarket[i] = m
            g.crate[i] = rate
            g.cgives[i] = gives
            g.caccept[i] = acc
        g.npcol = len(t["price"][0])
        for i in range(3):
            for j in range(g.npcol):
                g.price[i][j] = t["price"][i][j]
        for i, (name, mask, comps, rnd, end) in enumerate(t["tiles"]):
            g.tpoleis[i] = mask
            g.tncomp[i] = len(comps)
            for j, (res, amt) in enumerate(comps):
                g.tcres[i][j] = res
                g.tcamt[i][j] = amt
            g.tround[i] = rnd
            g.tend[i] = end
        g.nev = len(t["events"])
        for i, (letter, name, effs) in enumerate(t["events"]):
            g.ev_letter[i] = letter
            g.ev_n[i] = len(effs)
            for j, (side, op, a, b) in enumerate(effs):
                g.ev_side[i][j] = side
                g.ev_op[i][j] = op
                g.ev_a[i][j] = a
                g.ev_b[i][j] = b
        g.rcap = t["resource_cap"]
        g.pcap = t["prestige_cap"]
        g.cubes = t["cubes"]
        g.discs = t["discs"]
        g.merchants = t["merchants"]
        g.turn_cap = t["turn_cap"]
        for i in range(3):
            g.disp[i] = t["display_sizes"][i]
        for i in range(NK):
            g.kcount[i] = t["card_count"][i]
            g.kunit[i] = t["card_unit"][i]
            g.kstr[i] = t["card_strength"][i]
        ev = t["eval"]
        for i in range(5):
            g.ev_res[i] = ev["resources"][i]
        g.ev_res_last, g.ev_hoplite, g.ev_galley = ev["resources_last_round"], ev["hoplite"], ev["galley"]
        g.ev_merchant, g.ev_growth, g.ev_lost_polis = ev["merchant"], ev["growth"], ev["lost_polis"]
        g.ev_death, g.ev_scale = ev["death"], ev["scale"]
        g.ev_food_open, g.ev_tie_break = ev["food_open"], ev["tie_break"]
        g.ev_market, g.ev_region, g.ev_sea, g.ev_siege = ev["market"], ev["region"], ev["sea"], ev["siege"]

    cpdef State new_initial_state(self):
        """The set-up of spec section 3; the first events are the chance draws of the project display."""
        cdef PolisState s = PolisState.__new__(PolisState)
        cdef PolisData* d = &s.d
        cdef int p, k
        s.game = self
        s.num_players = 2
        s.g = &self.st
        memset(d, 0, sizeof(PolisData))
        t = self.tables
        d.winner = W_NONE
        d.first_passer = d.last_passer = -1
        d.first_type = -1
        d.cur = d.sel_polis = d.sel_n = d.sel_tile = d.sel_area = d.sel_cell = d.pay_res = -1
        d.event_cur = -1
        d.ev_stack[0] = d.ev_stack[1] = d.ev_stack[2] = -1
        d.first_override = -1
        d.b_area = -1
        d.a1 = d.a2 = -1
        d.active = 1
        for k in range(MAXR):
            d.trib[k] = -1
        for k in range(NPOL):
            d.owner[k] = -1
        for k in range(NTILE):
            d.tile_where[k] = TW_PILE
        for k in range(MAXCELL):
            d.cell_occ[k] = -1
            d.cell_block[k] = 1 if k < self.st.ncell and self.st.crate[k] >= 4 else 0
        for p in range(2):
            su = t["setup"][p]
            d.cubes[p] = self.st.cubes
            d.discs[p] = self.st.discs
            d.msup[p] = self.st.merchants - su["merchants"]
            d.mport[p] = su["merchants"]
            d.prox[p] = su["proxenos"]
            d.prestige[p] = su["prestige"]
            for k in range(5):
                d.res[p][k] = su["resources"][k]
            for pol, n in su["poleis"].items():
                d.owner[pol] = p
                d.pop[pol] = n
                d.cubes[p] -= n
                d.discs[p] -= 1
            for r, n in su["hoplites"].items():
                d.hop[r][p] = n
                d.cubes[p] -= n
            for sea, n in su["galleys"].items():
                d.gal[sea][p] = n
                d.cubes[p] -= n
        d.phase = PH_SETUP_TILES
        d.draws_left = self.st.disp[0]
        return s

    def state_from_json(self, obj):
        from engine.games.polis.codec import state_from_json
        return state_from_json(self, obj)


cdef class PolisState(State):
    # --- C contract --------------------------------------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        cdef int ph = self.d.phase
        if ph == PH_OVER:
            return TERMINAL
        if is_chance_phase(ph):
            return CHANCE
        return self.d.active

    cdef int c_legal_actions(self, int* out) noexcept:
        if self.d.phase == PH_OVER or is_chance_phase(self.d.phase):
            return 0
        return legal(&self.d, self.g, out)

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept:
        return chance(&self.d, self.g, actions, probs)

    cdef void c_apply(self, int action) noexcept:
        apply_action(&self.d, self.g, action)

    cdef State c_clone(self):
        cdef PolisState s = PolisState.__new__(PolisState)
        s.game = self.game
        s.num_players = 2
        s.g = self.g
        s.d = self.d
        return s

    cdef void c_copy_from(self, State other) noexcept:
        self.d = (<PolisState>other).d
        self.g = (<PolisState>other).g

    cdef void c_determinize(self, int observer, Rng* rng) noexcept:
        """The opponent's battle hand is dealt again from the cards observer has not seen (deck + that hand)."""
        cdef PolisData* d = &self.d
        cdef int q = 1 - observer, k, n = 0, total = 0, pick
        cdef int pool[NK]
        cdef int e, c, letter
        # the event cards still face down in the stack are unknown to both players (L129)
        for letter in range(d.ev_shown, 3):
            if d.ev_stack[letter] >= 0:
                c = 0
                for e in range(self.g.nev):
                    if self.g.ev_letter[e] == letter:
                        c += 1
                pick = <int>rng_below(rng, c)
                for e in range(self.g.nev):
                    if self.g.ev_letter[e] == letter:
                        if pick == 0:
                            d.ev_stack[letter] = e
                            break
                        pick -= 1
        for k in range(NK):
            n += d.hand[q][k]
        if n == 0:
            return
        for k in range(NK):
            pool[k] = d.deck[k] + d.hand[q][k]
            total += pool[k]
            d.hand[q][k] = 0
        while n > 0:
            pick = <int>rng_below(rng, total)
            k = 0
            while pick >= pool[k]:
                pick -= pool[k]
                k += 1
            pool[k] -= 1
            total -= 1
            d.hand[q][k] += 1
            n -= 1
        for k in range(NK):
            d.deck[k] = pool[k]

    cdef uint64_t c_info_key(self, int player) noexcept:
        cdef PolisData tmp = self.d
        cdef int q = 1 - player, k, n = 0
        for k in range(NK):
            n += tmp.hand[q][k]
            tmp.hand[q][k] = 0
            tmp.deck[k] = 0
        tmp.hand[q][0] = n                            # the opponent's hand size is public
        if tmp.phase < PH_RETREAT or tmp.phase > PH_DEFEND:
            clear_battle(&tmp)                        # a game that ended mid-battle shows no battle (H1)
        for k in range(tmp.ev_shown, 3):
            tmp.ev_stack[k] = 0 if tmp.ev_stack[k] >= 0 else -1      # dealt, but face down
        cdef size_t used = <size_t>(<char*>&tmp.draws_left - <char*>&tmp) + 1   # no tail padding
        return hash_bytes(hash_mix(0x9011, <uint64_t>player), &tmp, used)

    cdef int64_t c_action_observation(self, int action, int player) noexcept:
        if self.d.phase == PH_DEAL and (0 if self.d.need[0] > 0 else 1) != player:
            return HIDDEN_ACTION                      # a card dealt to the other player
        if self.d.phase == PH_EVENT:
            return HIDDEN_ACTION                      # the event stack is dealt face down
        return action

    cdef void c_returns(self, double* out) noexcept:
        cdef double keys[2]
        cdef int w = self.d.winner, p
        if w == 0 or w == 1:
            out[w] = 1.0
            out[1 - w] = 0.0
        elif w == W_DRAW:
            out[0] = out[1] = 0.5
        else:
            for p in range(2):
                keys[p] = score_of(&self.d, self.g, p) * 1000.0 + total_res(&self.d, p)   # tie-break: resources (L711)
            returns_from_keys(keys, 2, out)

    cdef void c_evaluate(self, double* out) noexcept:
        """The projected points of each side after this round's end (evaluate.pxi), their difference squashed."""
        if self.d.phase == PH_OVER:
            self.c_returns(out)
            return
        cdef int stock0 = 0, stock1 = 0
        cdef int omega = self.d.round >= 2               # the stocks matter only where they break a tie (L711)
        cdef double lead = projected_points(&self.d, self.g, 0, &stock0 if omega else NULL) \
            - projected_points(&self.d, self.g, 1, &stock1 if omega else NULL)
        if omega and stock0 != stock1:
            # in omega a tie on points goes to the larger stock (L711): that stock is worth part of a point
            lead += self.g.ev_tie_break if stock0 > stock1 else -self.g.ev_tie_break
        out[0] = 1.0 / (1.0 + exp(-lead / self.g.ev_scale))
        out[1] = 1.0 - out[0]

    # --- Python face: see codec.py (JSON), notation.py (moves) and render.py ------------------------------------
    def raw(self):
        """The struct as a dict of ints and lists of ints (for codec.py)."""
        cdef PolisData* d = &self.d
        cdef int i
        return {
            'phase': d.phase,
            'round': d.round,
            'active': d.active,
            'winner': d.winner,
            'first_passer': d.first_passer,
            'last_passer': d.last_passer,
            'acts': d.acts,
            'first_type': d.first_type,
            'solo_acts': d.solo_acts,
            'cur': d.cur,
            'sel_polis': d.sel_polis,
            'sel_n': d.sel_n,
            'sel_n2': d.sel_n2,
            'sel_tile': d.sel_tile,
            'sel_area': d.sel_area,
            'sel_cell': d.sel_cell,
            'moved': d.moved,
            'pay_res': d.pay_res,
            'pay_n': d.pay_n,
            'rise_mask': d.rise_mask,
            'event_cur': d.event_cur,
            'ev_shown': d.ev_shown,
            'ev_stack': [d.ev_stack[i] for i in range(3)],
            'stack_delta': d.stack_delta,
            'first_override': d.first_override,
            'check_ctx': d.check_ctx,
            'chooser': d.chooser,
            'b_area': d.b_area,
            'b_att': d.b_att,
            'b_lost': d.b_lost,
            'b_rounds': d.b_rounds,
            'b_initial': d.b_initial,
            'ret_cursor': d.ret_cursor,
            'a1': d.a1,
            'a2': d.a2,
            'eor_step': d.eor_step,
            'eor_idx': d.eor_idx,
            'draws_left': d.draws_left,
            'started': d.started,
            'pending': d.pending,
            'passed': [d.passed[i] for i in range(2)],
            'turns': [d.turns[i] for i in range(2)],
            'blocked': [d.blocked[i] for i in range(2)],
            'prestige': [d.prestige[i] for i in range(2)],
            'cubes': [d.cubes[i] for i in range(2)],
            'discs': [d.discs[i] for i in range(2)],
            'msup': [d.msup[i] for i in range(2)],
            'mport': [d.mport[i] for i in range(2)],
            'prox': [d.prox[i] for i in range(2)],
            'trib': [d.trib[i] for i in range(MAXR)],
            'owner': [d.owner[i] for i in range(NPOL)],
            'pop': [d.pop[i] for i in range(NPOL)],
            'grown': [d.grown[i] for i in range(NPOL)],
            'tile_where': [d.tile_where[i] for i in range(NTILE)],
            'tile_done': [d.tile_done[i] for i in range(NTILE)],
            'ppos': [d.ppos[i] for i in range(3)],
            'cell_occ': [d.cell_occ[i] for i in range(MAXCELL)],
            'cell_block': [d.cell_block[i] for i in range(MAXCELL)],
            'ret_who': [d.ret_who[i] for i in range(2)],
            'deck': [d.deck[i] for i in range(NK)],
            'disc': [d.disc[i] for i in range(NK)],
            'need': [d.need[i] for i in range(2)],
            'res': [[d.res[i][j] for j in range(5)] for i in range(2)],
            'hop': [[d.hop[i][j] for j in range(2)] for i in range(MAXR)],
            'gal': [[d.gal[i][j] for j in range(2)] for i in range(MAXS)],
            'siege': [[d.siege[i][j] for j in range(2)] for i in range(NPOL)],
            'hand': [[d.hand[i][j] for j in range(NK)] for i in range(2)],
        }

    def set_raw(self, dict r):
        """Overwrite the struct from a raw() dict (codec.py validates it first)."""
        cdef PolisData* d = &self.d
        cdef int i, j
        d.phase = r['phase']
        d.round = r['round']
        d.active = r['active']
        d.winner = r['winner']
        d.first_passer = r['first_passer']
        d.last_passer = r['last_passer']
        d.acts = r['acts']
        d.first_type = r['first_type']
        d.solo_acts = r['solo_acts']
        d.cur = r['cur']
        d.sel_polis = r['sel_polis']
        d.sel_n = r['sel_n']
        d.sel_n2 = r['sel_n2']
        d.sel_tile = r['sel_tile']
        d.sel_area = r['sel_area']
        d.sel_cell = r['sel_cell']
        d.moved = r['moved']
        d.pay_res = r['pay_res']
        d.pay_n = r['pay_n']
        d.rise_mask = r['rise_mask']
        d.event_cur = r['event_cur']
        d.ev_shown = r['ev_shown']
        for i in range(3):
            d.ev_stack[i] = r['ev_stack'][i]
        d.stack_delta = r['stack_delta']
        d.first_override = r['first_override']
        d.check_ctx = r['check_ctx']
        d.chooser = r['chooser']
        d.b_area = r['b_area']
        d.b_att = r['b_att']
        d.b_lost = r['b_lost']
        d.b_rounds = r['b_rounds']
        d.b_initial = r['b_initial']
        d.ret_cursor = r['ret_cursor']
        d.a1 = r['a1']
        d.a2 = r['a2']
        d.eor_step = r['eor_step']
        d.eor_idx = r['eor_idx']
        d.draws_left = r['draws_left']
        d.started = r['started']
        d.pending = r['pending']
        for i in range(2):
            d.passed[i] = r['passed'][i]
        for i in range(2):
            d.turns[i] = r['turns'][i]
        for i in range(2):
            d.blocked[i] = r['blocked'][i]
        for i in range(2):
            d.prestige[i] = r['prestige'][i]
        for i in range(2):
            d.cubes[i] = r['cubes'][i]
        for i in range(2):
            d.discs[i] = r['discs'][i]
        for i in range(2):
            d.msup[i] = r['msup'][i]
        for i in range(2):
            d.mport[i] = r['mport'][i]
        for i in range(2):
            d.prox[i] = r['prox'][i]
        for i in range(MAXR):
            d.trib[i] = r['trib'][i]
        for i in range(NPOL):
            d.owner[i] = r['owner'][i]
        for i in range(NPOL):
            d.pop[i] = r['pop'][i]
        for i in range(NPOL):
            d.grown[i] = r['grown'][i]
        for i in range(NTILE):
            d.tile_where[i] = r['tile_where'][i]
        for i in range(NTILE):
            d.tile_done[i] = r['tile_done'][i]
        for i in range(3):
            d.ppos[i] = r['ppos'][i]
        for i in range(MAXCELL):
            d.cell_occ[i] = r['cell_occ'][i]
        for i in range(MAXCELL):
            d.cell_block[i] = r['cell_block'][i]
        for i in range(2):
            d.ret_who[i] = r['ret_who'][i]
        for i in range(NK):
            d.deck[i] = r['deck'][i]
        for i in range(NK):
            d.disc[i] = r['disc'][i]
        for i in range(2):
            d.need[i] = r['need'][i]
        for i in range(2):
            for j in range(5):
                d.res[i][j] = r['res'][i][j]
        for i in range(MAXR):
            for j in range(2):
                d.hop[i][j] = r['hop'][i][j]
        for i in range(MAXS):
            for j in range(2):
                d.gal[i][j] = r['gal'][i][j]
        for i in range(NPOL):
            for j in range(2):
                d.siege[i][j] = r['siege'][i][j]
        for i in range(2):
            for j in range(NK):
                d.hand[i][j] = r['hand'][i][j]

    def static(self):
        return self.game.tables

    def score(self, int p):
        return score_of(&self.d, self.g, p)

    def scores(self):
        return [score_of(&self.d, self.g, 0), score_of(&self.d, self.g, 1)]

    def projected_points(self, int p):
        """The points evaluate() gives side p (evaluate.pxi): for tests and the console."""
        self._check_player(p)
        return projected_points(&self.d, self.g, p, NULL)

    def proxenos_cost_table(self, int p):
        """Cheapest bribe to every polis for p's proxenos (-1: unreachable); for tests and the console."""
        cdef int cost[NPOL]
        if self.d.prox[p] < 0:
            return [-1] * NPOL
        proxenos_costs(&self.d, self.g, p, cost)
        return [cost[i] for i in range(NPOL)]

    def reachable_markets(self, int p):
        return reachable_markets(&self.d, self.g, p)

    def observation(self, int player):
        self._check_player(player)
        from engine.games.polis.codec import observation
        return observation(self, player)

    def action_to_str(self, int action):
        from engine.games.polis.notation import action_to_str
        return action_to_str(self, action)

    def str_to_action(self, str text):
        from engine.games.polis.notation import str_to_action
        return str_to_action(self, text)

    def to_json(self):
        from engine.games.polis.codec import to_json
        return to_json(self)

    def render(self, observer=None):
        from engine.games.polis.render import render
        return render(self, observer)

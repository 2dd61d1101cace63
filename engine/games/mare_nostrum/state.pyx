"""Mare Nostrum on the Kleos contract (engine/core.pxd). Rules: docs/rules/spec/mare_nostrum.md; coverage and the
decision split: docs/rules/mare_nostrum.md.

The whole changing state is one C struct (MNData); the map and the rule numbers are module-level C tables read
once from data/*.toml. A round is a chain of small decisions (see the Step enum); the functions of phases.pxi walk
the phase machine to the next decision, resolving everything automatic on the way. The C code is split by idea
into included files (one compiled module): payments.pxi, phases.pxi, legal.pxi, chance.pxi, apply.pxi,
hidden.pxi, evaluate.pxi. JSON lives in codec.py, notation in notation.py, the text view in render.py.
"""
from libc.stdint cimport int64_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from engine.core cimport CHANCE, HIDDEN_ACTION, MAX_ACTIONS, MAX_PLAYERS, TERMINAL, Game, State, returns_from_keys
from engine.hashing cimport hash_bytes, hash_mix
from engine.rng cimport Rng, rng_below

from engine.errors import BadMoveError, BadStateError

# ------------------------------------------------------------------------------------------------------------------
# sizes and enums
DEF MAXP = 32        # provinces
DEF MAXS = 16        # seas
DEF MAXK = 96        # building spaces (slots); action ids keep room for 128
DEF NG = 13          # goods
DEF COIN = 13        # resource index of coins
DEF NR = 14          # resources (goods + coin)
DEF NI = 27          # hand items: 0..12 goods, 13 coin, 14..26 rare good of kind i-14
DEF NCARD = 23
DEF PADN = 1

cdef enum SlotType:
    CARAVAN = 0
    MARKET = 1
    REGULAR = 2
    CAPITAL = 3
    LEGENDARY = 4
    TEMPLE = 5

# card indices (order of data/rules.toml, checked at load)
cdef enum Card:
    C_CAESAR = 0
    C_PERICLES = 1
    C_HAMMURABI = 2
    C_CLEOPATRA = 3
    C_HANNIBAL = 4
    C_CASTOR = 5
    C_HERCULES = 6
    C_CIRCE = 7
    C_NEBU = 8
    C_GILGAMESH = 9
    C_PENTH = 10
    C_HAMILCAR = 11
    C_PERSEUS = 12
    C_SHEBA = 13
    C_RAMSES = 14
    C_ANTIGONE = 15
    C_SPARTACUS = 16
    C_COLOSSUS = 17
    C_GARDENS = 18
    C_PHAROS = 19
    C_ZEUS = 20
    C_ARTEMIS = 21
    C_PYRAMIDS = 22

CARD_NAMES = ["Caesar", "Pericles", "Hammurabi", "Cleopatra", "Hannibal", "Castor & Pollux", "Hercules", "Circe",
              "Nebuchadnezzar", "Gilgamesh", "Penthesilea", "Hamilcar", "Perseus", "Queen of Sheba", "Ramses II",
              "Antigone", "Spartacus", "Colossus of Rhodes", "Hanging Gardens", "Lighthouse of Pharos",
              "Statue of Zeus", "Temple of Artemis", "Pyramids"]

# once-per-round flags
cdef enum Once:
    O_SPARTACUS = 1
    O_GILGAMESH = 2
    O_PHAROS = 4
    O_PENTH = 8
    O_HAMMURABI = 16
    O_SHEBA = 32

# the decision (or chance node) the state is at
cdef enum Step:
    S_HERODRAW = 0      # chance: lay out the face-up heroes and wonders (set-up)
    S_LEGCHOICE = 1     # legendary city with temple: coin or rare good
    S_RAREDRAW = 2      # chance: a rare good for c_p
    S_COLOSSUS = 3      # Colossus owner picks one resource
    S_EXCH = 4          # trade leader picks an exchange token value
    S_ANTIGONE = 5      # Antigone: own offer size
    S_OFFER = 6         # secret offer, one item at a time
    S_TAKE = 7          # the take chain
    S_GIFT = 8          # compensation gift
    S_CHOOSEB = 9       # culture leader names the next builder
    S_PERSEUS = 10      # Perseus owner may jump the order
    S_BUILD = 11        # builder chooses an item (or ends)
    S_PAY = 12          # builder pays it, one resource at a time
    S_CPT = 13          # Castor & Pollux target
    S_KEEP = 14         # Hanging Gardens: keep resources
    S_REFILL = 15       # chance: a face-down card is turned up
    S_ZEUS = 16         # Statue of Zeus: declare peace
    S_CHOOSEM = 17      # military leader names the next mover
    S_MOVETRI = 18
    S_SEABATTLE = 19
    S_MOVELEG = 20
    S_LANDBATTLE = 21
    S_HITS_A = 22       # chance: attacker's hits
    S_HITS_D = 23       # chance: defender's hits
    S_CAS_A = 24        # attacker chooses whether his fortress takes a hit
    S_CAS_D = 25
    S_CAPTURE = 26      # invader's choice in one province
    S_OCCUPY = 27       # more buildings to occupy in that province
    S_LOOT = 28         # destroyed legendary city: coin or rare good
    S_CIRCE = 29        # Circe: stand legions on empty caravan spaces
    S_TITLE = 30        # previous title holder breaks a tie
    S_OVER = 31

STEP_NAMES = ["hero-draw", "legendary-choice", "rare-draw", "colossus", "exchange", "antigone", "offer", "take",
              "gift", "choose-builder", "perseus", "build", "pay", "castor-target", "keep", "refill", "zeus",
              "choose-mover", "move-triremes", "sea-battle", "move-legions", "land-battle", "hits-attacker",
              "hits-defender", "casualty-attacker", "casualty-defender", "capture", "occupy", "loot", "circe",
              "title", "over"]

# action id layout (fixed action space)
DEF A_ITEM = 0          # 27 hand items (offer, gift, pay, colossus, keep)
DEF A_EXCH = 27         # 6: token*2 + side
DEF A_COUNT = 33        # 6: Antigone 0..5
DEF A_TAKE = 39         # 5*27: victim*27 + item
DEF A_PLAYER = 174      # 5
DEF A_PASS = 179
DEF A_YES = 180
DEF A_COIN = 181
DEF A_RARE = 182
DEF A_SLOT = 183        # 128 build on slot
DEF A_MARKER = 311      # 32
DEF A_LEGION = 343      # 32
DEF A_FORT = 375        # 32
DEF A_TRIREME = 407     # 16
DEF A_CARD = 423        # 23
DEF A_SPARTACUS = 446   # 32
DEF A_GILGAMESH = 478   # 32
DEF A_PHAROS = 510      # 16
DEF A_HAMMURABI = 526   # 32
DEF A_PENTH = 558
DEF A_CPT = 559         # 23
DEF A_MOVETRI = 582     # 256: from*16+to
DEF A_SEABATTLE = 838   # 80: sea*5+opp
DEF A_LANDBATTLE = 918  # 160: prov*5+opp
DEF A_MOVELEG = 1078    # 1024: from*32+to
DEF A_DESTROY = 2102    # 128
DEF A_OCCUPY = 2230     # 128
DEF A_CAPTURE = 2358    # 32
DEF A_SHEBA = 2390      # 32
DEF A_CIRCE = 2422      # 128
DEF A_CAS_KEEP = 2550
DEF A_CAS_FORT = 2551
DEF A_HITS = 2552       # 32 chance
DEF A_RAREK = 2584      # 13 chance
DEF A_CARDK = 2597      # 17 chance (face-down card turned up)
DEF NUM_ACTIONS = 2614

# ------------------------------------------------------------------------------------------------------------------
# static tables (filled from data/*.toml at import)
cdef int NPROV, NSEA, NSLOT
cdef uint32_t P_ADJ[MAXP]
cdef uint32_t P_SEAS[MAXP]
cdef uint32_t S_ADJ[MAXS]
cdef uint32_t S_PROVS[MAXS]
cdef int P_SLOT0[MAXP]
cdef int P_NSLOT[MAXP]
cdef int SLOT_PROV[MAXK]
cdef int SLOT_TYPE[MAXK]
cdef int SLOT_GOOD[MAXK]
cdef int CAP_PROV[5]            # empire -> capital province
cdef int PROV_CAP[MAXP]         # province -> empire whose capital it holds, or -1
cdef int CARD_INFL[NCARD][3]
cdef int CARD_KIND[NCARD]       # 0 start, 1 hero, 2 wonder, 3 pyramids
cdef int START_HERO[5]
cdef int BLD_TOKENS[6]
cdef int SLOT_COST[6]
cdef int COST_MARKER, COST_LEGION, COST_TRIREME, COST_FORT, CARD_BASE, MAX_CARDS, COST_PYR
cdef int PIECE_LEG, PIECE_TRI, PIECE_FORT, PIECE_MARK
cdef int SUPPLY0[NR]
cdef int EXCH[3][2]
cdef int HIT_EVERY, FORT_BONUS, NEBU_BONUS, CAESAR_BONUS, PERICLES_BONUS
cdef int CONQUEST_CITIES        # capitals and legendary cities that win by Conquest (L607)
cdef double LAND_DIST[12][128]  # P(sum of n land dice = s)
cdef double SEA_DIST[12][128]
cdef int LAND_MAXF, SEA_MAXF
cdef double EV_ALL_PATHS, EV_PYRAMIDS, EV_COIN   # evaluate() weights (data/evaluate.json, ASSUMED heuristics)

ctypedef short sh

cdef struct MNData:
    # --- 32-bit fields first, then 16-bit ones: no padding bytes (checked at import), so info keys hash cleanly
    int players
    int emp[5]                  # empire of each seat
    uint32_t live               # provinces in play
    int max_rounds
    int cap_bld                 # capital exception covers buildings
    int round
    int step
    int cur                     # player to decide (or -1 at chance)
    int winners                 # bit mask of winners once over
    int reason                  # 0 none, 1 pyramids, 2 glory, 3 conquest, 4 primacy, 5 perseus, 6 round cap
    uint32_t start_ctrl[5]      # provinces held at the start of the build phase (control-marker bases, L354)
    uint32_t destroyed          # provinces where a building was destroyed this round
    uint32_t cards[5]           # heroes and wonders owned (bit = card)
    uint32_t row                # face-up heroes and wonders (bits 0..16 = cards 5..21)
    uint32_t facedown
    uint32_t landfought         # provinces / seas already fought over in the mover's turn (L660)
    uint32_t seafought
    # --- map
    sh ctrl[MAXP]               # controller, -1 none
    sh cap_by[MAXP]             # legion of this player stands on the control marker, -1 none
    sh cap_round[MAXP]
    sh leg[MAXP][5]
    sh fort[MAXP]               # owner of the fortress, -1 none
    sh tri[MAXS][5]
    sh built[MAXK]
    sh occ[MAXK]                # occupier, -1 none
    sh circe[MAXK]              # Circe legion on an empty caravan space, -1 none
    # --- holdings
    sh res[5][NR]
    sh rare[5]                  # rare goods held (bit g)
    sh rknown[5]                # those shown to everyone
    sh stack                    # rare goods face down in the stack
    sh discard                  # rare goods in the discard (face up)
    sh supply[NR]
    sh cpt[5]                   # Castor & Pollux target card, -1 none
    sh bought                   # cards bought this build phase
    # --- titles and trade
    sh title[3]
    sh tok_owner
    sh tokens                   # exchange tokens still to use in this cycle (bits)
    sh N
    sh once[5]
    sh zeus_last[5]
    sh peace_a
    sh peace_b
    sh nofs[5]                  # resources each player must offer (0: not taking part)
    sh odone[5]                 # offered so far
    sh offer[5][NI]             # offers: secret until revealed, then what is still available to take
    sh view_hidden[6]           # 0 in a state; blind() puts the others' unrevealed rare counts here
    sh taker
    sh first_taker
    sh la                       # last take la -> lb
    sh lb
    sh pa                       # the take before: pa -> pb
    sh pb
    sh ntakes
    # --- phase machinery
    sh done                     # players who built / moved this phase (bits)
    sh c_p                      # cursor: player
    sh c_k                      # cursor: slot / province / title
    sh rare_owed[5]
    sh draw_ret                 # where a rare draw returns: 0 collection, 1 capture
    sh builder
    sh perseus_mode
    sh pending_b                # named builder waiting behind a Perseus window
    sh item                     # build action being paid
    sh pay_left
    sh pay_mode                 # 0 none yet, 1 coins, 2 goods, 3 cheap
    sh pay_lastg
    sh pay_lastrare
    sh pay_dbl
    sh pay_for
    sh pay_cheapg
    sh keep_res[NR]
    sh keep_rare
    sh keep_n
    sh mover
    sh lastmv                   # last unit move this step: moves go in ascending id order (one path each)
    sh legmv[MAXP]              # legions of the mover that already moved, by province
    sh trimv[MAXS]
    sh b_kind                   # 0 sea, 1 land
    sh b_loc
    sh b_att
    sh b_def
    sh b_hits_a                 # hits scored by the attacker
    sh b_hits_d
    sh cas_a                    # the attacker chose to lose his fortress
    sh cas_d
    sh occ_prov
    sh pad_[PADN]


cdef int NULL_BUF[MAXK + 2]


cdef inline int popc(uint64_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline int lowbit(uint64_t x) noexcept nogil:
    cdef int i = 0
    while not (x & 1):
        x >>= 1
        i += 1
    return i


# ------------------------------------------------------------------------------------------------------------------
# small queries

cdef inline int has(MNData* d, int p, int card) noexcept nogil:
    if (d.cards[p] >> card) & 1:
        return 1
    return d.cpt[p] == card and (d.cards[p] >> C_CASTOR) & 1


cdef inline int units_mask(MNData* d, int p) noexcept nogil:
    cdef int m = 0, q
    for q in range(d.players):
        if d.leg[p][q] > 0:
            m |= 1 << q
    if d.fort[p] >= 0:
        m |= 1 << d.fort[p]
    return m


cdef inline int partner(MNData* d, int x) noexcept nogil:
    if d.peace_a == x:
        return d.peace_b
    if d.peace_b == x:
        return d.peace_a
    return -1


cdef inline int enemies(MNData* d, int p, int x) noexcept nogil:
    return units_mask(d, p) & ~(1 << x)


cdef inline int bctrl(MNData* d, int k) noexcept nogil:
    if d.occ[k] >= 0:
        return d.occ[k]
    return d.ctrl[SLOT_PROV[k]]


cdef inline int cnt_item(MNData* d, int p, int t) noexcept nogil:
    if t < NR:
        return d.res[p][t]
    return (d.rare[p] >> (t - NR)) & 1


cdef inline int cnt_good(MNData* d, int p, int g) noexcept nogil:
    return d.res[p][g] + ((d.rare[p] >> g) & 1)


cdef inline int hand_total(MNData* d, int p) noexcept nogil:
    cdef int n = popc(d.rare[p]), t
    for t in range(NR):
        n += d.res[p][t]
    return n


cdef inline void remove_item(MNData* d, int p, int t) noexcept nogil:
    """An item leaves p's hand for the reserve (rare goods: the discard, face up)."""
    if t < NR:
        d.res[p][t] -= 1
        d.supply[t] += 1
    else:
        d.rare[p] &= ~(1 << (t - NR))
        d.rknown[p] &= ~(1 << (t - NR))
        d.discard |= 1 << (t - NR)


cdef inline void move_item(MNData* d, int src, int dst, int t) noexcept nogil:
    """An item passes openly from src to dst (trade)."""
    cdef int b
    if t < NR:
        d.res[src][t] -= 1
        d.res[dst][t] += 1
    else:
        b = 1 << (t - NR)
        d.rare[src] &= ~b
        d.rknown[src] &= ~b
        d.rare[dst] |= b
        d.rknown[dst] |= b


cdef inline int gain(MNData* d, int p, int r, int n) noexcept nogil:
    """p takes up to n of resource r from the reserve; returns how many it got."""
    if n > d.supply[r]:
        n = d.supply[r]
    d.supply[r] -= n
    d.res[p][r] += n
    return n


cdef inline int legions_of(MNData* d, int x) noexcept nogil:
    cdef int n = 0, p
    for p in range(NPROV):
        n += d.leg[p][x]
    return n


cdef inline int triremes_of(MNData* d, int x) noexcept nogil:
    cdef int n = 0, s
    for s in range(NSEA):
        n += d.tri[s][x]
    return n


cdef inline int forts_of(MNData* d, int x) noexcept nogil:
    cdef int n = 0, p
    for p in range(NPROV):
        if d.fort[p] == x:
            n += 1
    return n


cdef inline uint32_t controlled(MNData* d, int x) noexcept nogil:
    cdef uint32_t m = 0
    cdef int p
    for p in range(NPROV):
        if d.ctrl[p] == x:
            m |= 1u << p
    return m


cdef inline int markers_left(MNData* d, int x) noexcept nogil:
    cdef int n = PIECE_MARK, p
    for p in range(NPROV):
        if d.ctrl[p] == x and PROV_CAP[p] != d.emp[x]:
            n -= 1
    return n


cdef inline int is_own_capital(MNData* d, int p, int x) noexcept nogil:
    return PROV_CAP[p] == d.emp[x]


cdef uint32_t connected_from(MNData* d, int x, uint32_t src) noexcept nogil:
    """Provinces reachable from the provinces src through a chain of seas each holding one of x's triremes."""
    cdef uint32_t tmask = 0, reach = 0, prev = 0, out = 0
    cdef int s, p
    for s in range(NSEA):
        if d.tri[s][x] > 0:
            tmask |= 1u << s
    if tmask == 0:
        return 0
    for p in range(NPROV):
        if (src >> p) & 1:
            reach |= P_SEAS[p] & tmask
    while reach != prev:
        prev = reach
        for s in range(NSEA):
            if (reach >> s) & 1:
                reach |= S_ADJ[s] & tmask
    for s in range(NSEA):
        if (reach >> s) & 1:
            out |= S_PROVS[s]
    return out & d.live


cdef inline int holdings(MNData* d, int p, int x) noexcept nogil:
    cdef int n = 0, k
    for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
        if d.occ[k] == x:
            n += 1
        if d.circe[k] == x:
            n += 1
    if d.cap_by[p] == x:
        n += 1
    return n


cdef void release_all(MNData* d, int p, int x) noexcept nogil:
    cdef int k
    for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
        if d.occ[k] == x:
            d.occ[k] = -1
        if d.circe[k] == x:
            d.circe[k] = -1
    if d.cap_by[p] == x:
        d.cap_by[p] = -1
        d.cap_round[p] = 0


cdef void release_excess(MNData* d, int p, int x) noexcept nogil:
    """Fewer legions than things they hold: let go (ASSUMED order: Circe spaces, occupations, the marker)."""
    cdef int h = holdings(d, p, x), k
    if h <= d.leg[p][x]:
        return
    for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
        if h > d.leg[p][x] and d.circe[k] == x:
            d.circe[k] = -1
            h -= 1
    for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
        if h > d.leg[p][x] and d.occ[k] == x:
            d.occ[k] = -1
            h -= 1
    if h > d.leg[p][x] and d.cap_by[p] == x:
        d.cap_by[p] = -1
        d.cap_round[p] = 0


cdef void release_if_at_war(MNData* d, int p) noexcept nogil:
    """A province holding units of two or more players is at war: occupations and captures there end (L476)."""
    cdef int q
    if popc(units_mask(d, p)) >= 2:
        for q in range(d.players):
            release_all(d, p, q)


cdef void release_at_war(MNData* d) noexcept nogil:
    cdef int p
    for p in range(NPROV):
        release_if_at_war(d, p)


cdef void place_legions(MNData* d, int p, int x, int n) noexcept nogil:
    """x's legions arrive in p outside a movement turn (built, free, sent home): if p is now at war, its
    occupations end at once (L476). (In a movement turn that waits for the battles: to_land_battles.)"""
    d.leg[p][x] += n
    release_if_at_war(d, p)


cdef void place_fortress(MNData* d, int p, int x) noexcept nogil:
    d.fort[p] = x
    release_if_at_war(d, p)


cdef void tracks(MNData* d, int* out) noexcept nogil:
    """out[p*3 + t]: trade, culture, military values (L563-573)."""
    cdef int p, k, c, t, b
    for p in range(d.players * 3):
        out[p] = 0
    for k in range(NSLOT):
        if not d.built[k]:
            continue
        b = bctrl(d, k)
        if b < 0:
            continue
        t = SLOT_TYPE[k]
        if t == CARAVAN or t == MARKET:
            out[b * 3] += 1
        else:
            out[b * 3 + 1] += 1
    for p in range(d.players):
        out[p * 3 + 2] += legions_of(d, p) + triremes_of(d, p) + forts_of(d, p)
        for c in range(NCARD):
            if (d.cards[p] >> c) & 1:
                out[p * 3] += CARD_INFL[c][0]
                out[p * 3 + 1] += CARD_INFL[c][1]
                out[p * 3 + 2] += CARD_INFL[c][2]


cdef inline int ncards(MNData* d, int p) noexcept nogil:
    return popc(d.cards[p] & ~(1u << C_PYRAMIDS))


include "payments.pxi"


# ------------------------------------------------------------------------------------------------------------------
# the state

cdef class MareNostrumGame(Game):
    def __init__(self, dict options):
        super().__init__("mare_nostrum", options, options["players"], NUM_ACTIONS)

    cpdef State new_initial_state(self):
        cdef MareNostrumState s = MareNostrumState.__new__(MareNostrumState)
        s.game = self
        s.num_players = self.num_players
        _setup(&s.d, self.num_players, self.options)
        return s

    def state_from_json(self, obj):
        from engine.games.mare_nostrum import codec
        return codec.from_json(self, obj)

    def names(self):
        return _NAMES

    def _limits(self):
        return {"legions": PIECE_LEG, "triremes": PIECE_TRI, "fortresses": PIECE_FORT, "markers": PIECE_MARK,
                "buildings": [BLD_TOKENS[k] for k in range(6)], "cards": MAX_CARDS}

    def _supply0(self, int t):
        return SUPPLY0[t]


cdef class MareNostrumState(State):
    cdef MNData d

    # --- C contract ------------------------------------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        if self.d.step == S_OVER:
            return TERMINAL
        return self.d.cur

    cdef int c_legal_actions(self, int* out) noexcept:
        if self.d.cur < 0:
            return 0
        return legal(&self.d, out)

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept:
        if self.d.cur != CHANCE or self.d.step == S_OVER:
            return 0
        return chance(&self.d, actions, probs)

    cdef void c_apply(self, int action) noexcept:
        apply_action(&self.d, action)

    cdef State c_clone(self):
        cdef MareNostrumState s = MareNostrumState.__new__(MareNostrumState)
        s.game = self.game
        s.num_players = self.num_players
        s.d = self.d
        return s

    cdef void c_copy_from(self, State other) noexcept:
        self.d = (<MareNostrumState>other).d

    cdef void c_determinize(self, int observer, Rng* rng) noexcept:
        determinize(&self.d, observer, rng)

    cdef uint64_t c_info_key(self, int player) noexcept:
        cdef MNData v = self.d
        blind(&v, player)
        return hash_bytes(hash_mix(0x3A4E, <uint64_t>player), &v, sizeof(MNData))

    cdef int c_rewind_pending(self, int observer) noexcept:
        return rewind_offers(&self.d, observer)

    cdef int64_t c_action_observation(self, int action, int player) noexcept:
        if self.d.step == S_OFFER and self.d.cur != player:
            return HIDDEN_ACTION
        if self.d.step == S_RAREDRAW and self.d.c_p != player:
            return HIDDEN_ACTION - 1
        return action

    cdef void c_returns(self, double* out) noexcept:
        cdef double keys[MAX_PLAYERS]
        cdef int p
        for p in range(self.d.players):
            keys[p] = 1.0 if (self.d.winners >> p) & 1 else 0.0
        returns_from_keys(keys, self.d.players, out)

    cdef void c_evaluate(self, double* out) noexcept:
        cdef double keys[MAX_PLAYERS]
        cdef int p
        if self.d.step == S_OVER:
            self.c_returns(out)
            return
        evaluate_keys(&self.d, keys)
        returns_from_keys(keys, self.d.players, out)

    # --- Python face ------------------------------------------------------------------------------------------
    def _raw(self):
        return self.d

    def _set_raw(self, raw):
        """Load a raw field dict (as _raw() gives it). Packed field by field in declaration order (the struct has
        no padding, see _check_layout) and copied in: Cython's own dict-to-struct conversion of 2-D arrays
        overflows its buffer (found with AddressSanitizer), so it is not used."""
        from array import array
        cdef bytes blob
        template = self.d
        parts = []
        for key, shape in template.items():
            if key not in raw:
                raise KeyError(key)
            flat = _flatten(raw[key], shape, key)
            parts.append(array("i" if key in INT_FIELDS else "h", flat).tobytes())
        blob = b"".join(parts)
        if len(blob) != sizeof(MNData):
            raise ValueError(f"raw state packs to {len(blob)} bytes, not {sizeof(MNData)}")
        memcpy(&self.d, <const char*>blob, sizeof(MNData))

    def _raw_view(self, int player):
        """The raw state with what `player` cannot see blanked (as info_key hashes it)."""
        cdef MNData v = self.d
        blind(&v, player)
        return v

    def _legal_raw(self):
        """Legal actions, or chance outcomes at a chance node."""
        if self.d.cur == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return self.legal_actions()

    def scores(self):
        """Progress points toward the four victories (see evaluate); winners get 100 more."""
        cdef double keys[MAX_PLAYERS]
        evaluate_keys(&self.d, keys)
        return [round(keys[p] + (100 if (self.d.winners >> p) & 1 else 0), 3) for p in range(self.d.players)]

    def track_values(self):
        cdef int out[15]
        tracks(&self.d, out)
        return [[out[p * 3 + t] for t in range(3)] for p in range(self.d.players)]

    def _enter(self, str phase):
        """Start a phase from this position (for tests and tools): collect, trade, build, move, leadership."""
        cdef MNData* d = &self.d
        if phase == "collect":
            d.round += 1
            collect(d)
        elif phase == "trade":
            start_trade(d)
        elif phase == "build":
            start_build(d)
        elif phase == "move":
            start_move(d)
        elif phase == "leadership":
            d.c_k = -1
            next_title(d)
        else:
            raise ValueError(f"mare_nostrum: no phase {phase!r}")

    def step_name(self):
        return STEP_NAMES[self.d.step]

    def observation(self, int player):
        self._check_player(player)
        from engine.games.mare_nostrum import codec
        return codec.observation(self, player)

    def action_to_str(self, int action):
        from engine.games.mare_nostrum import notation
        return notation.action_to_str(self, action)

    def str_to_action(self, str text):
        from engine.games.mare_nostrum import notation
        return notation.str_to_action(self, text)

    def to_json(self):
        from engine.games.mare_nostrum import codec
        return codec.to_json(self)

    def render(self, observer=None):
        from engine.games.mare_nostrum import render
        return render.render(self, observer)

    def hit_distribution(self, int side):
        """(hits, probability) of one side (0 attacker, 1 defender) of the battle being fought (for tests)."""
        cdef int acts[64]
        cdef double probs[64]
        cdef int n = hit_outcomes(&self.d, side, acts, probs)
        return [(acts[i] - A_HITS, probs[i]) for i in range(n)]


# ------------------------------------------------------------------------------------------------------------------
# set-up

cdef void _setup(MNData* d, int players, dict options) except *:
    memset(d, 0, sizeof(MNData))
    d.players = players
    d.max_rounds = options["max_rounds"]
    d.cap_bld = 1 if options["capital_exception_buildings"] else 0
    cdef int p, k, e, t
    for p in range(MAXP):
        d.ctrl[p] = -1
        d.cap_by[p] = -1
        d.cap_round[p] = 0
        d.fort[p] = -1
    for k in range(MAXK):
        d.occ[k] = -1
        d.circe[k] = -1
    for p in range(5):
        d.cpt[p] = -1
        d.zeus_last[p] = -1
    d.peace_a = -1
    d.peace_b = -1
    for t in range(NR):
        d.supply[t] = SUPPLY0[t]
    seats = _SETUP["players"][str(players)]
    d.live = 0
    for p in range(NPROV):
        d.live |= 1u << p
    for e, name in enumerate(_NAMES["empires"]):
        if name not in seats:
            for prov in _SETUP["covers"][name]:
                d.live &= ~(1u << prov)
    for p, name in enumerate(seats):
        e = _NAMES["empires"].index(name)
        d.emp[p] = e
        d.cards[p] = 1u << START_HERO[e]
        d.ctrl[CAP_PROV[e]] = p
        for st in _SETUP["start"][name]:
            prov = st["province"]
            d.ctrl[prov] = p
            for k in st["slots"]:
                d.built[k] = 1
            d.leg[prov][p] = st["legions"]
            if st["fortress"]:
                d.fort[prov] = p
        for t, n in _SETUP["resources"][name].items():
            d.res[p][t] = n
            d.supply[t] -= n
    for t, name in enumerate(("trade", "culture", "military")):
        d.title[t] = seats.index(_SETUP["titles"][str(players)][name])
    d.tok_owner = d.title[0]
    d.tokens = 7
    d.stack = (1 << NG) - 1
    d.facedown = (1u << 17) - 1
    d.round = 1
    d.taker = d.first_taker = d.la = d.lb = d.pa = d.pb = -1
    d.builder = d.mover = d.pending_b = -1
    d.b_att = d.b_def = -1
    d.step = S_HERODRAW
    d.cur = CHANCE
    if options["all_heroes_open"]:       # variant L75-77: all 17 cards face up from the start
        d.row = d.facedown
        d.facedown = 0
        start_trade(d)


include "phases.pxi"


include "legal.pxi"


include "chance.pxi"


include "apply.pxi"


include "hidden.pxi"


include "evaluate.pxi"


# ------------------------------------------------------------------------------------------------------------------
# loading the data files

_NAMES = {}
_SETUP = {}


# data/evaluate.json's weights
EVALUATE_WEIGHTS = ("all_paths", "pyramids", "coin")


def evaluate_weights(path):
    """The checked evaluate() weights of ``path`` (a ValueError names the weight)."""
    from engine.weights import load_weights
    try:
        return load_weights(path, EVALUATE_WEIGHTS, positive=())
    except ValueError as e:
        raise ValueError(f"mare_nostrum data: {e}") from None


def _load_static():
    import tomllib
    from pathlib import Path
    global NPROV, NSEA, NSLOT, COST_MARKER, COST_LEGION, COST_TRIREME, COST_FORT, CARD_BASE, MAX_CARDS, COST_PYR
    global PIECE_LEG, PIECE_TRI, PIECE_FORT, PIECE_MARK, HIT_EVERY, FORT_BONUS, NEBU_BONUS, CAESAR_BONUS
    global PERICLES_BONUS, LAND_MAXF, SEA_MAXF, EV_ALL_PATHS, EV_PYRAMIDS, EV_COIN, CONQUEST_CITIES
    here = Path(__file__).resolve().parent / "data"
    mp = tomllib.loads((here / "map.toml").read_text())
    st = tomllib.loads((here / "setup.toml").read_text())
    ru = tomllib.loads((here / "rules.toml").read_text())
    ev = evaluate_weights(here / "evaluate.json")
    EV_ALL_PATHS, EV_PYRAMIDS, EV_COIN = ev["all_paths"], ev["pyramids"], ev["coin"]
    goods = ru["goods"]
    if len(goods) != NG:
        raise ValueError(f"mare_nostrum data: {len(goods)} goods, expected {NG}")
    cards = [c["name"] for c in ru["card"]]
    if cards != CARD_NAMES:
        raise ValueError(f"mare_nostrum data: cards must be, in order, {CARD_NAMES}")
    empires = st["empires"]
    provs = [p["name"] for p in mp["province"]]
    seas = [s["name"] for s in mp["sea"]]
    if len(provs) > MAXP or len(seas) > MAXS:
        raise ValueError("mare_nostrum data: too many provinces or seas")
    NPROV, NSEA = len(provs), len(seas)
    slots = []
    for i in range(MAXP):
        P_ADJ[i] = 0
        P_SEAS[i] = 0
        PROV_CAP[i] = -1
    for i in range(MAXS):
        S_ADJ[i] = 0
        S_PROVS[i] = 0
    for i, p in enumerate(mp["province"]):
        for q in p["adj"]:
            P_ADJ[i] |= 1 << provs.index(q)
            P_ADJ[provs.index(q)] |= 1 << i
        for s in p["seas"]:
            P_SEAS[i] |= 1 << seas.index(s)
            S_PROVS[seas.index(s)] |= 1 << i
        P_SLOT0[i] = len(slots)
        for g in p["caravans"]:
            slots.append((i, CARAVAN, goods.index(g), f"caravan:{g}"))
        if p["market"]:
            slots.append((i, MARKET, -1, "market"))
        for c in p["cities"]:
            if c == "regular":
                slots.append((i, REGULAR, -1, "city"))
            elif c.startswith("capital:"):
                e = empires.index(c.split(":", 1)[1])
                CAP_PROV[e] = i
                PROV_CAP[i] = e
                slots.append((i, CAPITAL, -1, "capital"))
            elif c.startswith("legendary:"):
                slots.append((i, LEGENDARY, -1, "legendary:" + c.split(":", 1)[1]))
            else:
                raise ValueError(f"mare_nostrum data: city space {c!r} in {p['name']}")
        if p["temple"]:
            slots.append((i, TEMPLE, -1, "temple"))
        P_NSLOT[i] = len(slots) - P_SLOT0[i]
    for i, s in enumerate(mp["sea"]):
        for t in s["adj"]:
            S_ADJ[i] |= 1 << seas.index(t)
            S_ADJ[seas.index(t)] |= 1 << i
    if len(slots) > MAXK:
        raise ValueError("mare_nostrum data: too many building spaces")
    NSLOT = len(slots)
    for k, (p, t, g, _) in enumerate(slots):
        SLOT_PROV[k] = p
        SLOT_TYPE[k] = t
        SLOT_GOOD[k] = g
    b = ru["buildings"]
    for t, name in enumerate(("caravan", "market", "regular", "capital", "legendary", "temple")):
        BLD_TOKENS[t] = b[name]
        SLOT_COST[t] = ru["costs"][name]
    c = ru["costs"]
    COST_MARKER, COST_LEGION, COST_TRIREME, COST_FORT = c["marker"], c["legion"], c["trireme"], c["fortress"]
    CARD_BASE, MAX_CARDS, COST_PYR = c["card_base"], c["max_cards"], c["pyramids"]
    conquest = ru["victory"]["conquest"]
    if isinstance(conquest, bool) or not isinstance(conquest, int) or not 1 <= conquest <= 8:
        raise ValueError(f"mare_nostrum data: rules.toml [victory] conquest must be a whole number in 1..8, "
                         f"got {conquest!r}")
    CONQUEST_CITIES = conquest
    pc = ru["pieces"]
    PIECE_LEG, PIECE_TRI, PIECE_FORT, PIECE_MARK = pc["legions"], pc["triremes"], pc["fortresses"], pc["markers"]
    for t in range(NG):
        SUPPLY0[t] = ru["goods_supply"][t]
    SUPPLY0[COIN] = ru["coin_supply"]
    for t in range(3):
        EXCH[t][0], EXCH[t][1] = ru["exchange"]["tokens"][t]
    dc = ru["dice"]
    HIT_EVERY, FORT_BONUS, NEBU_BONUS = dc["hit_every"], dc["fortress_bonus"], dc["nebuchadnezzar_bonus"]
    CAESAR_BONUS, PERICLES_BONUS = dc["caesar_bonus"], dc["pericles_bonus"]
    LAND_MAXF, SEA_MAXF = max(dc["land"]), max(dc["sea"])
    _dice_table(dc["land"], 0)
    _dice_table(dc["sea"], 1)
    for i, card in enumerate(ru["card"]):
        CARD_INFL[i][0], CARD_INFL[i][1], CARD_INFL[i][2] = card["influence"]
        CARD_KIND[i] = ("start", "hero", "wonder", "pyramids").index(card["kind"])
    for e, name in enumerate(empires):
        START_HERO[e] = cards.index(st["heroes"][name])
    start = {name: [] for name in empires}
    covers = {name: [] for name in empires}
    for entry in st["start"]:
        e, pi = entry["empire"], provs.index(entry["province"])
        covers[e].append(pi)
        ks = []
        mine = [k for k in range(P_SLOT0[pi], P_SLOT0[pi] + P_NSLOT[pi])]
        for g in entry["caravans"]:
            k = next(k for k in mine if SLOT_TYPE[k] == CARAVAN and SLOT_GOOD[k] == goods.index(g) and k not in ks)
            ks.append(k)
        if entry["market"]:
            ks.append(next(k for k in mine if SLOT_TYPE[k] == MARKET))
        cities = [k for k in mine if SLOT_TYPE[k] in (REGULAR, CAPITAL, LEGENDARY)]
        ks.extend(cities[i] for i in entry["cities"])
        if entry["temple"]:
            ks.append(next(k for k in mine if SLOT_TYPE[k] == TEMPLE))
        start[e].append({"province": pi, "slots": ks, "legions": entry["legions"], "fortress": entry["fortress"]})
    resources = {}
    kinds = goods + ["Coin"]
    for name in empires:
        resources[name] = {kinds.index(k): n for k, n in st["resources"][name].items()}
    _SETUP.update(players=st["players"], titles=st["titles"], start=start, covers=covers, resources=resources)
    _NAMES.update(provinces=provs, seas=seas, goods=goods, kinds=kinds, empires=empires, cards=cards,
                  slots=[s[3] for s in slots], slot_prov=[s[0] for s in slots],
                  slot_type=[s[1] for s in slots], items=kinds + ["rare " + g for g in goods],
                  steps=STEP_NAMES, capital_of=[PROV_CAP[i] for i in range(NPROV)],
                  slot_cost=[SLOT_COST[s[1]] for s in slots],
                  defaults={k: v for k, v in ru["options"].items()})


def _dice_table(faces, int sea):
    cdef int n, s, f
    dist = [[0.0] * 128 for _ in range(12)]
    dist[0][0] = 1.0
    for n in range(1, 12):
        for s in range(128):
            if dist[n - 1][s]:
                for f in faces:
                    if s + f < 128:
                        dist[n][s + f] += dist[n - 1][s] / len(faces)
    for n in range(12):
        for s in range(128):
            if sea:
                SEA_DIST[n][s] = dist[n][s]
            else:
                LAND_DIST[n][s] = dist[n][s]


_load_static()

# constants for the Python modules (notation, codec, render)
ACTIONS = {"ITEM": A_ITEM, "EXCH": A_EXCH, "COUNT": A_COUNT, "TAKE": A_TAKE, "PLAYER": A_PLAYER, "PASS": A_PASS,
           "YES": A_YES, "COIN": A_COIN, "RARE": A_RARE, "SLOT": A_SLOT, "MARKER": A_MARKER, "LEGION": A_LEGION,
           "FORT": A_FORT, "TRIREME": A_TRIREME, "CARD": A_CARD, "SPARTACUS": A_SPARTACUS,
           "GILGAMESH": A_GILGAMESH, "PHAROS": A_PHAROS, "HAMMURABI": A_HAMMURABI, "PENTH": A_PENTH, "CPT": A_CPT,
           "MOVETRI": A_MOVETRI, "SEABATTLE": A_SEABATTLE, "LANDBATTLE": A_LANDBATTLE, "MOVELEG": A_MOVELEG,
           "DESTROY": A_DESTROY, "OCCUPY": A_OCCUPY, "CAPTURE": A_CAPTURE, "SHEBA": A_SHEBA, "CIRCE": A_CIRCE,
           "CAS_KEEP": A_CAS_KEEP, "CAS_FORT": A_CAS_FORT, "HITS": A_HITS, "RAREK": A_RAREK, "CARDK": A_CARDK,
           "NUM": NUM_ACTIONS}
SIZES = {"MAXP": MAXP, "MAXS": MAXS, "MAXK": MAXK, "NI": NI, "NR": NR, "NG": NG, "COIN": COIN}


def _exchange_value(int i):
    """The value of exchange choice i (token i // 2, side i % 2)."""
    return EXCH[i // 2][i % 2]


INT_FIELDS = ("players", "emp", "live", "max_rounds", "cap_bld", "round", "step", "cur", "winners", "reason",
              "start_ctrl", "destroyed", "cards", "row", "facedown", "landfought", "seafought")


def _flatten(value, shape, key):
    """value flattened like shape (a nested list of the same lengths, or a scalar)."""
    if isinstance(shape, list):
        if not isinstance(value, list) or len(value) != len(shape):
            raise ValueError(f"field {key!r} must be a list of {len(shape)}")
        out = []
        for v, sh_ in zip(value, shape):
            out.extend(_flatten(v, sh_, key))
        return out
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"field {key!r} must hold integers, got {value!r}")
    return [value]


def _check_layout():
    """The struct has no padding bytes (info_key hashes it whole): 32-bit fields, then 16-bit ones."""
    cdef MNData probe
    memset(&probe, 0, sizeof(MNData))
    raw = probe
    ints = INT_FIELDS

    def count(v):
        return sum(count(x) for x in v) if isinstance(v, list) else 1
    size = sum(count(v) * (4 if k in ints else 2) for k, v in raw.items())
    if size != sizeof(MNData):
        raise AssertionError(f"mare_nostrum: MNData has {sizeof(MNData) - size} padding bytes; adjust PADN")


_check_layout()

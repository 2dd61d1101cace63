# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Mare Nostrum on the Kleos contract (engine/core.pxd). Rules: shared/rules/mare_nostrum.md; coverage and the
decision split: docs/rules/mare_nostrum.md.

The whole changing state is one C struct (MNData); the map and the rule numbers are module-level C tables read
once from data/*.toml. A round is a chain of small decisions (see the Step enum); `advance_*` functions walk the
phase machine to the next decision, resolving everything automatic on the way.
"""
from libc.stdint cimport int64_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

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
DEF PADN = 2

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
cdef double LAND_DIST[12][128]  # P(sum of n land dice = s)
cdef double SEA_DIST[12][128]
cdef int LAND_MAXF, SEA_MAXF

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


cdef void release_at_war(MNData* d) noexcept nogil:
    """A province holding units of two or more players is at war: occupations and captures there end (L476)."""
    cdef int p, q
    for p in range(NPROV):
        if popc(units_mask(d, p)) >= 2:
            for q in range(d.players):
                release_all(d, p, q)


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


# ------------------------------------------------------------------------------------------------------------------
# payments (L171-174, L318-346): one set per item, exact size; coins only, or pairwise different goods;
# Hannibal: one kind twice in a goods set; Cleopatra: one coin in a goods set or one good in a coin set.
# Goods are paid in ascending kind order (ordinary before rare of the same kind) so that a set has one path.

cdef int goods_feasible(MNData* d, int x, int left, int lastg, int lastrare, int dbl, int forn) noexcept nogil:
    if left <= 0:
        return 1
    cdef int distinct = 0, has2 = 0, g, c, ext = 0
    for g in range(lastg + 1, NG):
        c = cnt_good(d, x, g)
        if c >= 1:
            distinct += 1
            if c >= 2:
                has2 = 1
    if has(d, x, C_HANNIBAL) and not dbl:
        if has2 or (lastg >= 0 and not lastrare and cnt_good(d, x, lastg) >= 1):
            ext += 1
    if has(d, x, C_CLEOPATRA) and not forn and d.res[x][COIN] >= 1:
        ext += 1
    return distinct + ext >= left


cdef inline int any_good(MNData* d, int x) noexcept nogil:
    cdef int g
    if d.rare[x]:
        return 1
    for g in range(NG):
        if d.res[x][g]:
            return 1
    return 0


cdef int coins_feasible(MNData* d, int x, int left, int forn) noexcept nogil:
    if left <= 0:
        return 1
    if d.res[x][COIN] >= left:
        return 1
    return has(d, x, C_CLEOPATRA) and not forn and d.res[x][COIN] >= left - 1 and any_good(d, x)


cdef inline int can_afford(MNData* d, int x, int cost) noexcept nogil:
    return coins_feasible(d, x, cost, 0) or goods_feasible(d, x, cost, -1, 0, 0, 0)


cdef inline int can_cheap(MNData* d, int x, int g) noexcept nogil:
    return d.res[x][COIN] > 0 or cnt_good(d, x, g) > 0


cdef int pay_legal(MNData* d, int x, int* out) noexcept nogil:
    """The resources that can go next into the set being paid, such that the set can still be completed."""
    cdef int n = 0, g, c, left = d.pay_left, coins = d.res[x][COIN]
    cdef int cleo = has(d, x, C_CLEOPATRA) and not d.pay_for
    cdef int hann = has(d, x, C_HANNIBAL) and not d.pay_dbl
    cdef int suf_distinct[NG + 1]
    cdef int suf_has2[NG + 1]
    cdef int start, after, rep_ok, cap
    if d.pay_mode == 3:                  # Spartacus / Gilgamesh / Pharos: 1 coin or 1 good of the named kind
        g = d.pay_cheapg
        if d.res[x][g] > 0:
            out[n] = A_ITEM + g; n += 1
        if coins > 0:
            out[n] = A_ITEM + COIN; n += 1
        if (d.rare[x] >> g) & 1:
            out[n] = A_ITEM + NR + g; n += 1
        return n
    if d.pay_mode == 1:                  # a coin set: coins, and Cleopatra's one good as the last item
        if left == 1 and cleo:
            for g in range(NG):
                if d.res[x][g]:
                    out[n] = A_ITEM + g; n += 1
        if coins >= left or (cleo and coins >= left - 1 and left >= 2 and any_good(d, x)):
            out[n] = A_ITEM + COIN; n += 1
        if left == 1 and cleo:
            for g in range(NG):
                if (d.rare[x] >> g) & 1:
                    out[n] = A_ITEM + NR + g; n += 1
        sort_small(out, n)
        return n
    # goods (mode 2) or the first item (mode 0): kinds in ascending order, suffix counts for feasibility
    suf_distinct[NG] = 0
    suf_has2[NG] = 0
    for g in range(NG - 1, -1, -1):
        c = cnt_good(d, x, g)
        suf_distinct[g] = suf_distinct[g + 1] + (1 if c >= 1 else 0)
        suf_has2[g] = suf_has2[g + 1] or c >= 2
    start = 0 if d.pay_mode == 0 else d.pay_lastg + 1
    for g in range(NG):
        c = cnt_good(d, x, g)
        if c == 0:
            continue
        if g >= start:
            # after one good of kind g, the set can still take: one of each kind above g, a Hannibal double
            # (a kind above g held twice, or kind g again right after an ordinary one), a Cleopatra coin
            after = left - 1
            cap = suf_distinct[g + 1] + (1 if cleo and coins >= 1 else 0)
            if d.res[x][g] > 0:
                rep_ok = hann and (suf_has2[g + 1] or c - 1 >= 1)
                if cap + (1 if rep_ok else 0) >= after:
                    out[n] = A_ITEM + g; n += 1
            if (d.rare[x] >> g) & 1:
                rep_ok = hann and suf_has2[g + 1]
                if cap + (1 if rep_ok else 0) >= after:
                    out[n] = A_ITEM + NR + g; n += 1
        elif g == d.pay_lastg and d.pay_mode == 2 and hann and not d.pay_lastrare:
            # Hannibal: the same kind again, right after it
            after = left - 1
            cap = suf_distinct[g + 1] + (1 if cleo and coins >= 1 else 0)
            if cap >= after:
                if d.res[x][g] > 0:
                    out[n] = A_ITEM + g; n += 1
                if (d.rare[x] >> g) & 1:
                    out[n] = A_ITEM + NR + g; n += 1
    if coins >= 1:
        if d.pay_mode == 0:
            if coins_feasible(d, x, left, 0):
                out[n] = A_ITEM + COIN; n += 1
        elif left == 1 and cleo:
            out[n] = A_ITEM + COIN; n += 1
    sort_small(out, n)
    return n


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
        return {"legions": PIECE_LEG, "triremes": PIECE_TRI, "fortresses": PIECE_FORT, "markers": PIECE_MARK}

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
        self.d = raw

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


# ------------------------------------------------------------------------------------------------------------------
# the phase machine

cdef void game_over(MNData* d, int winners, int reason) noexcept nogil:
    d.winners = winners
    d.reason = reason
    d.step = S_OVER
    d.cur = TERMINAL


cdef void start_round(MNData* d) noexcept nogil:
    cdef int p
    d.round += 1
    if d.round > d.max_rounds:
        game_over(d, 0, 6)
        return
    for p in range(d.players):
        d.once[p] = 0
    d.destroyed = 0
    collect(d)


cdef void collect(MNData* d) noexcept nogil:
    """Phase 1 (L151-155, L216-251): every producer, supply-limited in trade order (ASSUMED G10)."""
    cdef int ent[5][NR]
    cdef int tr[15]
    cdef int order[5]
    cdef int p, k, q, b, pr, m, t, i, j, tmp, need
    memset(ent, 0, sizeof(ent))
    for k in range(NSLOT):
        pr = SLOT_PROV[k]
        if not (d.live >> pr) & 1:
            continue
        t = SLOT_TYPE[k]
        if d.built[k]:
            b = bctrl(d, k)
            if b < 0:
                continue
            if t == CARAVAN:
                ent[b][SLOT_GOOD[k]] += 1 + market_bonus(d, pr, b)
            elif t == REGULAR or t == CAPITAL:
                ent[b][COIN] += 1 + temple_bonus(d, pr, b)
            elif t == LEGENDARY:
                ent[b][COIN] += 1
                d.rare_owed[b] += 1
        elif t == CARAVAN and d.circe[k] >= 0 and has(d, d.circe[k], C_CIRCE):
            b = d.circe[k]
            ent[b][SLOT_GOOD[k]] += 1 + market_bonus(d, pr, b)
    for p in range(d.players):
        if has(d, p, C_ARTEMIS):
            ent[p][COIN] += 1
    tracks(d, tr)
    for p in range(d.players):
        order[p] = p
    for i in range(d.players):
        for j in range(d.players - 1 - i):
            if tr[order[j + 1] * 3] > tr[order[j] * 3]:
                tmp = order[j]; order[j] = order[j + 1]; order[j + 1] = tmp
    for t in range(NR):
        need = 0
        for p in range(d.players):
            need += ent[p][t]
        if need <= d.supply[t]:
            for p in range(d.players):
                gain(d, p, t, ent[p][t])
        else:
            while d.supply[t] > 0 and need > 0:
                for i in range(d.players):
                    q = order[i]
                    if ent[q][t] > 0 and d.supply[t] > 0:
                        gain(d, q, t, 1)
                        ent[q][t] -= 1
                        need -= 1
    d.c_p = 0
    d.c_k = -1
    next_legchoice(d)


cdef inline int market_bonus(MNData* d, int pr, int b) noexcept nogil:
    cdef int k
    for k in range(P_SLOT0[pr], P_SLOT0[pr] + P_NSLOT[pr]):
        if SLOT_TYPE[k] == MARKET and d.built[k] and bctrl(d, k) == b:
            return 1
    return 0


cdef inline int temple_bonus(MNData* d, int pr, int b) noexcept nogil:
    cdef int k
    for k in range(P_SLOT0[pr], P_SLOT0[pr] + P_NSLOT[pr]):
        if SLOT_TYPE[k] == TEMPLE and d.built[k] and bctrl(d, k) == b:
            return 1
    return 0


cdef void next_legchoice(MNData* d) noexcept nogil:
    """Legendary city with a temple of the same holder: +1 coin or +1 rare good, the holder's choice (L232)."""
    cdef int k, b
    for k in range(d.c_k + 1, NSLOT):
        if SLOT_TYPE[k] == LEGENDARY and d.built[k] and (d.live >> SLOT_PROV[k]) & 1:
            b = bctrl(d, k)
            if b >= 0 and temple_bonus(d, SLOT_PROV[k], b):
                d.c_k = k
                d.step = S_LEGCHOICE
                d.cur = b
                return
    d.draw_ret = 0
    next_draw(d)


cdef void next_draw(MNData* d) noexcept nogil:
    """Rare goods owed are drawn one by one (chance); the discard is reshuffled when the stack is empty (L244)."""
    cdef int p
    for p in range(d.players):
        if d.rare_owed[p] > 0:
            if d.stack == 0:
                d.stack = d.discard
                d.discard = 0
            if d.stack == 0:          # all 13 held: the draw is lost (ASSUMED G10)
                d.rare_owed[p] = 0
                continue
            d.c_p = p
            d.step = S_RAREDRAW
            d.cur = CHANCE
            return
    if d.draw_ret == 0:
        d.c_p = -1
        next_colossus(d)
    else:
        next_capture(d)


cdef void next_colossus(MNData* d) noexcept nogil:
    cdef int p
    for p in range(d.c_p + 1, d.players):
        if (d.cards[p] >> C_COLOSSUS) & 1:
            d.c_p = p
            d.step = S_COLOSSUS
            d.cur = p
            if colossus_legal(d, p, NULL) > 0:
                return
    start_trade(d)


cdef int colossus_legal(MNData* d, int p, int* out) noexcept nogil:
    cdef int n = 0, t
    for t in range(NR):
        if d.supply[t] > 0:
            if out != NULL:
                out[n] = A_ITEM + t
            n += 1
    return n


cdef void start_trade(MNData* d) noexcept nogil:
    """Phase 2 (L157-163, L253-293)."""
    cdef int p
    for p in range(d.players):
        d.nofs[p] = 0
        d.odone[p] = 0
    if d.tok_owner != d.title[0] or d.tokens == 0:
        d.tok_owner = d.title[0]
        d.tokens = 7
    d.step = S_EXCH
    d.cur = d.title[0]


cdef void after_exchange(MNData* d) noexcept nogil:
    cdef int p
    if d.N == 0:
        start_build(d)
        return
    for p in range(d.players):
        d.nofs[p] = d.N
    d.c_p = -1
    next_antigone(d)


cdef void next_antigone(MNData* d) noexcept nogil:
    cdef int p
    for p in range(d.c_p + 1, d.players):
        if has(d, p, C_ANTIGONE):
            d.c_p = p
            d.step = S_ANTIGONE
            d.cur = p
            return
    for p in range(d.players):
        if hand_total(d, p) < d.nofs[p]:     # too few resources: no part in the trade (L293)
            d.nofs[p] = 0
    next_offer(d)


cdef void next_offer(MNData* d) noexcept nogil:
    cdef int p, t, best
    cdef int tr[15]
    for p in range(d.players):
        if d.odone[p] < d.nofs[p]:
            d.step = S_OFFER
            d.cur = p
            return
    # everyone has committed: reveal together (L265); the offers stay on the table, now public
    for p in range(d.players):
        for t in range(NR, NI):
            if d.offer[p][t]:
                d.rknown[p] |= 1 << (t - NR)
    d.la = d.lb = d.pa = d.pb = -1
    d.ntakes = 0
    if d.nofs[d.title[0]] > 0:
        d.taker = d.title[0]
    else:                                     # ASSUMED G13: the highest trade value among those taking part
        tracks(d, tr)
        best = -1
        for p in range(d.players):
            if d.nofs[p] > 0 and (best < 0 or tr[p * 3] > tr[best * 3]):
                best = p
        d.taker = best
    d.first_taker = d.taker
    d.step = S_TAKE
    d.cur = d.taker
    if d.taker < 0 or take_legal(d, NULL) == 0:
        end_takes(d)


cdef int take_legal(MNData* d, int* out) noexcept nogil:
    """Take one available offered item of another player; no taking straight back twice (L275-277)."""
    cdef int n = 0, v, t, forbidden = -1
    if d.lb == d.taker and d.pa == d.taker:
        forbidden = d.la
    for v in range(d.players):
        if v == d.taker or v == forbidden:
            continue
        for t in range(NI):
            if d.offer[v][t] > 0:
                if out != NULL:
                    out[n] = A_TAKE + v * NI + t
                n += 1
    return n


cdef void end_takes(MNData* d) noexcept nogil:
    cdef int p, t
    for p in range(d.players):
        for t in range(NI):
            d.offer[p][t] = 0
    # uneven trade: the opener (+1) gives the last victim (-1) one resource (L283-289)
    if d.ntakes > 0 and d.first_taker != d.lb:
        d.step = S_GIFT
        d.cur = d.first_taker
        return
    start_build(d)


cdef void start_build(MNData* d) noexcept nogil:
    """Phase 3 (L165-176, L295-409)."""
    cdef int p
    for p in range(d.players):
        d.start_ctrl[p] = controlled(d, p)
    d.done = 0
    d.bought = 0
    next_builder(d)


cdef void next_builder(MNData* d) noexcept nogil:
    cdef int p, left = 0, last = -1
    for p in range(d.players):
        if not (d.done >> p) & 1:
            left += 1
            last = p
    if left == 0:
        refill(d)
        return
    if left == 1:
        select_builder(d, last)
        return
    d.step = S_CHOOSEB
    d.cur = d.title[1]


cdef int perseus_can_win(MNData* d, int p) noexcept nogil:
    if not (d.cards[p] >> C_PERSEUS) & 1:
        return 0
    if can_afford(d, p, COST_PYR):
        return 1
    return ncards(d, p) == MAX_CARDS - 1 and d.row != 0 and can_afford(d, p, CARD_BASE + ncards(d, p))


cdef void select_builder(MNData* d, int q) noexcept nogil:
    cdef int p
    for p in range(d.players):
        if p != q and perseus_can_win(d, p):   # Perseus may jump the order to win (L611, L644-646)
            d.pending_b = q
            d.step = S_PERSEUS
            d.cur = p
            return
    begin_build(d, q, 0)


cdef void begin_build(MNData* d, int q, int perseus) noexcept nogil:
    d.builder = q
    d.perseus_mode = perseus
    d.step = S_BUILD
    d.cur = q
    d.keep_n = 0
    d.keep_rare = 0
    memset(d.keep_res, 0, sizeof(d.keep_res))


cdef void end_build_turn(MNData* d) noexcept nogil:
    """Unused goods go back; up to 2 coins (and the Hanging Gardens' 2) are kept, shown (L176, L333, L344)."""
    cdef int x = d.builder, g, kc
    for g in range(NG):
        d.supply[g] += d.res[x][g] - d.keep_res[g]
        d.res[x][g] = d.keep_res[g]
    kc = d.res[x][COIN] - d.keep_res[COIN]
    if kc > 2:
        kc = 2
    kc += d.keep_res[COIN]
    d.supply[COIN] += d.res[x][COIN] - kc
    d.res[x][COIN] = kc
    d.discard |= d.rare[x] & ~d.keep_rare
    d.rare[x] = d.keep_rare
    d.rknown[x] = d.keep_rare
    d.done |= 1 << x
    d.builder = -1
    next_builder(d)


cdef void refill(MNData* d) noexcept nogil:
    """End of the build phase: turn up a face-down card for each bought (chance, L73), then Glory (L603)."""
    if d.bought > 0 and d.facedown != 0 and popc(d.row) < 5:
        d.step = S_REFILL
        d.cur = CHANCE
        return
    d.bought = 0
    cdef int p, win = 0
    for p in range(d.players):
        if ncards(d, p) >= MAX_CARDS:
            win |= 1 << p
    if win:
        if (win >> d.title[1]) & 1:
            win = 1 << d.title[1]
        game_over(d, win, 2)
        return
    start_move(d)


cdef void start_move(MNData* d) noexcept nogil:
    """Phase 4 (L178-186, L411-555)."""
    cdef int p
    d.peace_a = -1
    d.peace_b = -1
    d.done = 0
    for p in range(d.players):
        if (d.cards[p] >> C_ZEUS) & 1:
            d.step = S_ZEUS
            d.cur = p
            return
    next_mover(d)


cdef void zeus_peace(MNData* d, int x, int y) noexcept nogil:
    """Statue of Zeus (L897-907): legions in each other's provinces go home; no fighting for the round."""
    cdef int p, n
    d.peace_a = x
    d.peace_b = y
    d.zeus_last[x] = y
    for p in range(NPROV):
        if d.ctrl[p] == x and d.leg[p][y] > 0 and p != CAP_PROV[d.emp[y]]:
            n = d.leg[p][y]
            d.leg[p][y] = 0
            d.leg[CAP_PROV[d.emp[y]]][y] += n
            release_all(d, p, y)
        elif d.ctrl[p] == y and d.leg[p][x] > 0 and p != CAP_PROV[d.emp[x]]:
            n = d.leg[p][x]
            d.leg[p][x] = 0
            d.leg[CAP_PROV[d.emp[x]]][x] += n
            release_all(d, p, x)


cdef void next_mover(MNData* d) noexcept nogil:
    cdef int p, left = 0, last = -1
    for p in range(d.players):
        if not (d.done >> p) & 1:
            left += 1
            last = p
    if left == 0:
        end_move_phase(d)
        return
    if left == 1:
        begin_move(d, last)
        return
    d.step = S_CHOOSEM
    d.cur = d.title[2]


cdef void begin_move(MNData* d, int x) noexcept nogil:
    d.mover = x
    memset(d.legmv, 0, sizeof(d.legmv))
    memset(d.trimv, 0, sizeof(d.trimv))
    d.seafought = 0
    d.landfought = 0
    d.step = S_MOVETRI
    d.cur = x
    if not movetri_any(d):                 # only "pass": skip the empty step
        to_sea_battles(d)


cdef void to_sea_battles(MNData* d) noexcept nogil:
    d.step = S_SEABATTLE
    d.cur = d.mover
    if seabattle_legal(d, NULL) == 1:
        to_legion_moves(d)


cdef void to_legion_moves(MNData* d) noexcept nogil:
    d.step = S_MOVELEG
    d.cur = d.mover
    if not moveleg_any(d):
        to_land_battles(d)


cdef void to_land_battles(MNData* d) noexcept nogil:
    d.step = S_LANDBATTLE
    d.cur = d.mover
    if landbattle_legal(d, NULL) == 0:
        release_at_war(d)
        d.c_k = -1
        next_capture(d)


cdef void start_battle(MNData* d, int kind, int loc, int att, int dfd) noexcept nogil:
    d.b_kind = kind
    d.b_loc = loc
    d.b_att = att
    d.b_def = dfd
    if kind == 0:
        d.seafought |= 1u << loc
    else:
        d.landfought |= 1u << loc
    d.step = S_HITS_A
    d.cur = CHANCE


cdef inline int cas_choice(MNData* d, int side) noexcept nogil:
    """Does the side (0 attacker, 1 defender) have to choose between a legion and its fortress?"""
    cdef int who = d.b_att if side == 0 else d.b_def
    cdef int h = d.b_hits_d if side == 0 else d.b_hits_a
    if d.b_kind == 0 or d.fort[d.b_loc] != who:
        return 0
    return h >= 1 and h <= d.leg[d.b_loc][who]


cdef void lose(MNData* d, int who, int h, int fort_first) noexcept nogil:
    cdef int p = d.b_loc, n
    if d.b_kind == 0:
        n = d.tri[p][who]
        d.tri[p][who] = n - h if h < n else 0
        if who == d.mover and d.trimv[p] > d.tri[p][who]:
            d.trimv[p] = d.tri[p][who]
        return
    if h <= 0:
        return
    if d.fort[p] == who and (fort_first or h > d.leg[p][who]):
        d.fort[p] = -1
        h -= 1
    n = d.leg[p][who]
    d.leg[p][who] = n - h if h < n else 0
    if who == d.mover and d.legmv[p] > d.leg[p][who]:
        d.legmv[p] = d.leg[p][who]
    release_excess(d, p, who)


cdef void resolve_casualties(MNData* d, int stage) noexcept nogil:
    """stage 0: dice done; 1: attacker has chosen; 2: defender has chosen. Hits land together (L445)."""
    if stage == 0 and cas_choice(d, 0):
        d.step = S_CAS_A
        d.cur = d.b_att
        return
    if stage <= 1 and cas_choice(d, 1):
        d.step = S_CAS_D
        d.cur = d.b_def
        return
    lose(d, d.b_def, d.b_hits_a, d.cas_d)
    lose(d, d.b_att, d.b_hits_d, d.cas_a)
    d.cas_a = 0
    d.cas_d = 0
    if d.b_kind == 0:
        to_sea_battles(d)
    else:
        to_land_battles(d)


cdef int capture_target(MNData* d, int p, int x) noexcept nogil:
    """Is p a province where x is the invader (only x has units, another player controls it)?"""
    if not (d.live >> p) & 1 or d.ctrl[p] < 0 or d.ctrl[p] == x:
        return 0
    if d.leg[p][x] == 0 or units_mask(d, p) != (1 << x):
        return 0
    return 1


cdef void next_capture(MNData* d) noexcept nogil:
    cdef int p, x = d.mover
    for p in range(d.c_k + 1, NPROV):
        if capture_target(d, p, x):
            d.c_k = p
            d.step = S_CAPTURE
            d.cur = x
            return
    d.c_k = NPROV
    d.step = S_CIRCE
    d.cur = x
    if circe_legal(d, NULL) == 1:
        end_move_turn(d)


cdef int linked(MNData* d, int p, int x) noexcept nogil:
    """p is adjacent to, or connected by x's triremes with, a province x controls (L517)."""
    cdef uint32_t mine = controlled(d, x)
    if P_ADJ[p] & mine:
        return 1
    return (connected_from(d, x, 1u << p) & mine & ~(1u << p)) != 0


cdef void end_move_turn(MNData* d) noexcept nogil:
    """Pending marker swaps fall due at the end of the invader's next turn (L523, Q&A L662-664)."""
    cdef int p, k, x = d.mover
    for p in range(NPROV):
        if d.cap_by[p] == x and d.cap_round[p] < d.round:
            if not linked(d, p, x):
                d.ctrl[p] = -1
                d.cap_by[p] = -1
                d.cap_round[p] = 0
            elif markers_left(d, x) > 0:
                d.ctrl[p] = x
                d.cap_by[p] = -1
                d.cap_round[p] = 0
                for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
                    if d.occ[k] == x:
                        d.occ[k] = -1
    d.done |= 1 << x
    d.mover = -1
    next_mover(d)


cdef void end_move_phase(MNData* d) noexcept nogil:
    """Conquest (L607): 4 capitals and/or legendary cities held; ASSUMED tie rule as for Glory."""
    cdef int cnt[5]
    cdef int k, b, p, win = 0
    for p in range(5):
        cnt[p] = 0
    for k in range(NSLOT):
        if d.built[k] and (SLOT_TYPE[k] == CAPITAL or SLOT_TYPE[k] == LEGENDARY) and (d.live >> SLOT_PROV[k]) & 1:
            b = bctrl(d, k)
            if b >= 0:
                cnt[b] += 1
    for p in range(d.players):
        if cnt[p] >= 4:
            win |= 1 << p
    if win:
        if (win >> d.title[2]) & 1:
            win = 1 << d.title[2]
        game_over(d, win, 3)
        return
    d.c_k = -1
    next_title(d)


cdef void next_title(MNData* d) noexcept nogil:
    """Phase 5 (L557-591): highest value holds the title; the last holder breaks ties (L575)."""
    cdef int tr[15]
    cdef int t, p, best, ties
    tracks(d, tr)
    for t in range(d.c_k + 1, 3):
        best = -1
        for p in range(d.players):
            if best < 0 or tr[p * 3 + t] > best:
                best = tr[p * 3 + t]
        ties = 0
        for p in range(d.players):
            if tr[p * 3 + t] == best:
                ties |= 1 << p
        if popc(ties) == 1:
            d.title[t] = lowbit(ties)
        elif d.title[t] >= 0:
            d.c_k = t
            d.c_p = ties
            d.step = S_TITLE
            d.cur = d.title[t]
            return
        else:
            d.title[t] = lowbit(ties)
    if d.title[0] == d.title[1] and d.title[1] == d.title[2]:
        game_over(d, 1 << d.title[0], 4)
        return
    start_round(d)


# ------------------------------------------------------------------------------------------------------------------
# legal actions

cdef int legal(MNData* d, int* out) noexcept nogil:
    cdef int s = d.step, x = d.cur, n = 0, p, t, q
    if s == S_LEGCHOICE or s == S_LOOT:
        out[0] = A_COIN
        out[1] = A_RARE
        return 2
    if s == S_COLOSSUS:
        return colossus_legal(d, x, out)
    if s == S_EXCH:
        for t in range(3):
            if (d.tokens >> t) & 1:
                out[n] = A_EXCH + 2 * t
                out[n + 1] = A_EXCH + 2 * t + 1
                n += 2
        return n
    if s == S_ANTIGONE:
        q = hand_total(d, x)
        for t in range(6):
            if t <= q:
                out[n] = A_COUNT + t
                n += 1
        return n
    if s == S_OFFER:
        for t in range(NI):
            if cnt_item(d, x, t) > d.offer[x][t]:
                out[n] = A_ITEM + t
                n += 1
        return n
    if s == S_TAKE:
        return take_legal(d, out)
    if s == S_GIFT or s == S_KEEP:
        for t in range(NI):
            if cnt_item(d, x, t) > 0:
                if s == S_KEEP:              # Hanging Gardens: up to 2 resources of different kinds (L875-885)
                    q = t - NR if t >= NR else t
                    if d.keep_n >= 2 or d.keep_res[q] > 0 or (q < NG and (d.keep_rare >> q) & 1):
                        continue
                out[n] = A_ITEM + t
                n += 1
        if s == S_KEEP:
            out[n] = A_PASS
            n += 1
        return n
    if s == S_CHOOSEB or s == S_CHOOSEM:
        for p in range(d.players):
            if not (d.done >> p) & 1:
                out[n] = A_PLAYER + p
                n += 1
        return n
    if s == S_PERSEUS:
        out[0] = A_PASS
        out[1] = A_YES
        return 2
    if s == S_BUILD:
        return build_legal(d, x, out)
    if s == S_PAY:
        return pay_legal(d, x, out)
    if s == S_CPT:
        for t in range(C_CASTOR + 1, C_COLOSSUS):
            if t == C_PERSEUS:
                continue
            for p in range(d.players):
                if p != x and (d.cards[p] >> t) & 1:
                    out[n] = A_CPT + t
                    n += 1
                    break
        if n == 0:
            out[0] = A_PASS
            n = 1
        return n
    if s == S_ZEUS:
        for p in range(d.players):
            if p != x and p != d.zeus_last[x]:
                out[n] = A_PLAYER + p
                n += 1
        out[n] = A_PASS
        return n + 1
    if s == S_MOVETRI:
        return movetri_legal(d, out)
    if s == S_SEABATTLE:
        return seabattle_legal(d, out)
    if s == S_MOVELEG:
        return moveleg_legal(d, out)
    if s == S_LANDBATTLE:
        return landbattle_legal(d, out)
    if s == S_CAS_A or s == S_CAS_D:
        out[0] = A_CAS_KEEP
        out[1] = A_CAS_FORT
        return 2
    if s == S_CAPTURE:
        return capture_legal(d, out)
    if s == S_OCCUPY:
        return occupy_legal(d, d.occ_prov, out)
    if s == S_CIRCE:
        return circe_legal(d, out)
    if s == S_TITLE:
        for p in range(d.players):
            if (d.c_p >> p) & 1:
                out[n] = A_PLAYER + p
                n += 1
        return n
    return 0


cdef int build_legal(MNData* d, int x, int* out) noexcept nogil:
    cdef int n = 0, p, k, s, c, cost, bad
    cdef int c3 = can_afford(d, x, 3), c6 = can_afford(d, x, 6)
    cdef int ncard = ncards(d, x)
    cdef int ccard = ncard < MAX_CARDS and can_afford(d, x, CARD_BASE + ncard)
    cdef uint32_t targets = 0, base, okprov = 0, seas = 0
    cdef int nleg = legions_of(d, x), ntri = triremes_of(d, x), nfort = forts_of(d, x)
    cdef int reserve[6]
    cdef int foes[MAXP]
    if d.perseus_mode:
        if ncard == MAX_CARDS - 1 and ccard:
            for c in range(17):
                if (d.row >> c) & 1:
                    out[n] = A_CARD + 5 + c
                    n += 1
        if can_afford(d, x, COST_PYR):
            out[n] = A_CARD + C_PYRAMIDS
            n += 1
        return n
    # provinces x may build units in: controlled, no enemy units (or x's own capital, L553)
    for p in range(NPROV):
        foes[p] = enemies(d, p, x)
        if d.ctrl[p] == x and (d.live >> p) & 1:
            if foes[p] == 0 or is_own_capital(d, p, x):
                okprov |= 1u << p
                seas |= P_SEAS[p]
    out[n] = A_PASS                      # end the build turn (the lowest id: the list stays ascending)
    n += 1
    for k in range(6):
        reserve[k] = BLD_TOKENS[k]
    for k in range(NSLOT):
        if d.built[k]:
            reserve[SLOT_TYPE[k]] -= 1
    # 1. buildings on empty spaces (L389-393)
    for k in range(NSLOT):
        p = SLOT_PROV[k]
        if d.built[k] or not (okprov >> p) & 1:
            continue
        if foes[p] != 0 and not d.cap_bld:
            continue
        if SLOT_TYPE[k] == CAPITAL and PROV_CAP[p] != d.emp[x]:
            continue
        cost = SLOT_COST[SLOT_TYPE[k]]
        if (c3 if cost == 3 else (c6 if cost == 6 else can_afford(d, x, cost))) and reserve[SLOT_TYPE[k]] > 0:
            out[n] = A_SLOT + k
            n += 1
    # 2. control markers (L352-370)
    if markers_left(d, x) > 0 and (c3 or ((d.cards[x] >> C_HAMMURABI) & 1 and not (d.once[x] & O_HAMMURABI))):
        base = d.start_ctrl[x]
        for p in range(NPROV):
            if (base >> p) & 1:
                targets |= P_ADJ[p]
        targets |= connected_from(d, x, base)
        targets &= d.live
        for p in range(NPROV):      # uncontrolled, no enemy units, not a capital province (L360)
            if not (d.ctrl[p] < 0 and PROV_CAP[p] < 0 and foes[p] == 0):
                targets &= ~(1u << p)
        if c3:
            for p in range(NPROV):
                if (targets >> p) & 1:
                    out[n] = A_MARKER + p
                    n += 1
    # 3. units (L372-387)
    if nleg < PIECE_LEG and c3:
        for p in range(NPROV):
            if (okprov >> p) & 1:
                out[n] = A_LEGION + p
                n += 1
    if nfort < PIECE_FORT and c3:
        for p in range(NPROV):
            if (okprov >> p) & 1 and d.fort[p] < 0:
                out[n] = A_FORT + p
                n += 1
    if ntri < PIECE_TRI and c3:
        for s in range(NSEA):
            if (seas >> s) & 1:
                out[n] = A_TRIREME + s
                n += 1
    # 4. heroes and wonders (L397-399)
    if ccard:
        for c in range(17):
            if (d.row >> c) & 1:
                out[n] = A_CARD + 5 + c
                n += 1
    if can_afford(d, x, COST_PYR):
        out[n] = A_CARD + C_PYRAMIDS
        n += 1
    # 5. cheap once-per-round builds of the heroes
    if has(d, x, C_SPARTACUS) and not (d.once[x] & O_SPARTACUS) and nleg < PIECE_LEG and can_cheap(d, x, 12):
        for p in range(NPROV):
            if (okprov >> p) & 1:
                out[n] = A_SPARTACUS + p
                n += 1
    if has(d, x, C_GILGAMESH) and not (d.once[x] & O_GILGAMESH) and nfort < PIECE_FORT and can_cheap(d, x, 5):
        for p in range(NPROV):
            if (okprov >> p) & 1 and d.fort[p] < 0:
                out[n] = A_GILGAMESH + p
                n += 1
    if (d.cards[x] >> C_PHAROS) & 1 and not (d.once[x] & O_PHAROS) and ntri < PIECE_TRI and can_cheap(d, x, 6):
        for s in range(NSEA):
            if (seas >> s) & 1:
                out[n] = A_PHAROS + s
                n += 1
    if has(d, x, C_HAMMURABI) and not (d.once[x] & O_HAMMURABI) and markers_left(d, x) > 0:
        for p in range(NPROV):
            if (targets >> p) & 1:
                out[n] = A_HAMMURABI + p
                n += 1
    if has(d, x, C_PENTH) and not (d.once[x] & O_PENTH) and nleg < PIECE_LEG and penth_count(d, x) > 0:
        out[n] = A_PENTH
        n += 1
    return n


cdef int penth_count(MNData* d, int x) noexcept nogil:
    cdef int p, q, n = 0
    for p in range(NPROV):
        if d.ctrl[p] == x:
            for q in range(d.players):
                if q != x and d.leg[p][q] > 0:
                    n += 1
                    break
    return n


cdef void sort_small(int* a, int n) noexcept nogil:
    cdef int i, j, v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef int moveleg_any(MNData* d) noexcept nogil:
    """Has the mover a legion that can still move? (the move list without building it)"""
    cdef int x = d.mover, p, pt = partner(d, x)
    cdef uint32_t forbid = 0, dest
    if pt >= 0:
        forbid = controlled(d, pt)
    for p in range(NPROV):
        if d.leg[p][x] - d.legmv[p] > 0:
            dest = P_ADJ[p] & d.live & ~forbid
            if dest:
                return 1
            if (connected_from(d, x, 1u << p) & d.live & ~(1u << p) & ~forbid) != 0:
                return 1
    return 0


cdef int movetri_any(MNData* d) noexcept nogil:
    cdef int s
    for s in range(NSEA):
        if d.tri[s][d.mover] - d.trimv[s] > 0 and S_ADJ[s]:
            return 1
    return 0


cdef int movetri_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, n = 1, s, t
    if out != NULL:
        out[0] = A_PASS
    for s in range(NSEA):
        if d.tri[s][x] - d.trimv[s] > 0:
            for t in range(NSEA):
                if (S_ADJ[s] >> t) & 1:
                    if out != NULL:
                        out[n] = A_MOVETRI + s * 16 + t
                    n += 1
    return n


cdef int seabattle_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, n = 0, s, q, pt = partner(d, x)
    if out != NULL:
        out[0] = A_PASS
    n = 1
    for s in range(NSEA):
        if d.tri[s][x] > 0 and not (d.seafought >> s) & 1:
            for q in range(d.players):
                if q != x and q != pt and d.tri[s][q] > 0:
                    if out != NULL:
                        out[n] = A_SEABATTLE + s * 5 + q
                    n += 1
    if out != NULL:
        sort_small(out, n)
    return n


cdef int moveleg_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, n = 1, p, q, pt = partner(d, x)
    cdef uint32_t dest, forbid = 0
    if out != NULL:
        out[0] = A_PASS
    if pt >= 0:
        forbid = controlled(d, pt)
    for p in range(NPROV):
        if d.leg[p][x] - d.legmv[p] > 0:
            dest = (P_ADJ[p] | connected_from(d, x, 1u << p)) & d.live & ~(1u << p) & ~forbid
            for q in range(NPROV):
                if (dest >> q) & 1:
                    if out != NULL:
                        out[n] = A_MOVELEG + p * 32 + q
                    n += 1
    return n


cdef int landbattle_legal(MNData* d, int* out) noexcept nogil:
    """Every province where the mover's units meet an enemy's must see a battle (L425)."""
    cdef int x = d.mover, n = 0, p, q, pt = partner(d, x), m
    for p in range(NPROV):
        if (d.landfought >> p) & 1 or not (d.live >> p) & 1:
            continue
        m = units_mask(d, p)
        if not (m >> x) & 1:
            continue
        for q in range(d.players):
            if q != x and q != pt and (m >> q) & 1:
                if out != NULL:
                    out[n] = A_LANDBATTLE + p * 5 + q
                n += 1
    return n


cdef int capture_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, p = d.c_k, n = 0, k
    out[n] = A_PASS
    n += 1
    if not (d.destroyed >> p) & 1:
        for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
            if d.built[k]:
                out[n] = A_DESTROY + k
                n += 1
    for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
        if d.built[k]:
            out[n] = A_OCCUPY + k
            n += 1
    if PROV_CAP[p] < 0 and d.cap_by[p] != x and linked(d, p, x):
        out[n] = A_CAPTURE + p
        n += 1
        if has(d, x, C_SHEBA) and not (d.once[x] & O_SHEBA) and markers_left(d, x) > 0:
            out[n] = A_SHEBA + p
            n += 1
    return n


cdef int occupy_legal(MNData* d, int p, int* out) noexcept nogil:
    cdef int x = d.mover, n = 1, k
    out[0] = A_PASS
    if d.leg[p][x] > holdings(d, p, x):
        for k in range(P_SLOT0[p], P_SLOT0[p] + P_NSLOT[p]):
            if d.built[k] and d.occ[k] != x:
                out[n] = A_OCCUPY + k
                n += 1
    return n


cdef int circe_legal(MNData* d, int* out) noexcept nogil:
    cdef int x = d.mover, n = 0, k, p
    if out != NULL:
        out[0] = A_PASS
    n = 1
    if not has(d, x, C_CIRCE):
        return 1
    for k in range(NSLOT):
        if SLOT_TYPE[k] != CARAVAN or d.built[k] or d.circe[k] >= 0:
            continue
        p = SLOT_PROV[k]
        if (d.live >> p) & 1 and d.leg[p][x] > holdings(d, p, x) and enemies(d, p, x) == 0:
            if out != NULL:
                out[n] = A_CIRCE + k
            n += 1
    return n


# ------------------------------------------------------------------------------------------------------------------
# chance

cdef int hit_outcomes(MNData* d, int side, int* acts, double* probs) noexcept nogil:
    """P(hits) of one side: n dice (+ Ramses) + per-legion bonus + flat bonuses, floor(/5), -1 vs a fortress."""
    cdef int who = d.b_att if side == 0 else d.b_def
    cdef int opp = d.b_def if side == 0 else d.b_att
    cdef int loc = d.b_loc, nd, nb = 0, bonus = 0, flat = 0, pen = 0, s, h, n = 0, maxs
    cdef double acc[32]
    cdef double (*dist)[128]
    for h in range(32):
        acc[h] = 0
    if d.b_kind == 0:
        nd = d.tri[loc][who]
        dist = SEA_DIST
        maxs = nd * SEA_MAXF
    else:
        nb = d.leg[loc][who]
        nd = nb
        if has(d, who, C_RAMSES):
            nd += 1
        if side == 0 and has(d, who, C_CAESAR):
            bonus = CAESAR_BONUS
        if side == 1 and has(d, who, C_PERICLES):
            bonus = PERICLES_BONUS
        if d.fort[loc] == who:
            flat += FORT_BONUS
        if has(d, who, C_NEBU) and d.ctrl[loc] == who:
            flat += NEBU_BONUS
        if d.fort[loc] == opp:
            pen = 1
        dist = LAND_DIST
        maxs = nd * LAND_MAXF
    if nd > 11:
        nd = 11
    for s in range(maxs + 1):
        if dist[nd][s] > 0:
            h = (s + bonus * nb + flat) // HIT_EVERY - pen
            if h < 0:
                h = 0
            if h > 31:
                h = 31
            acc[h] += dist[nd][s]
    for h in range(32):
        if acc[h] > 0:
            acts[n] = A_HITS + h
            probs[n] = acc[h]
            n += 1
    return n


cdef int chance(MNData* d, int* acts, double* probs) noexcept nogil:
    cdef int n = 0, c, g, m
    if d.step == S_HERODRAW or d.step == S_REFILL:
        m = popc(d.facedown)
        for c in range(17):
            if (d.facedown >> c) & 1:
                acts[n] = A_CARDK + c
                probs[n] = 1.0 / m
                n += 1
        return n
    if d.step == S_RAREDRAW:
        m = popc(d.stack)
        for g in range(NG):
            if (d.stack >> g) & 1:
                acts[n] = A_RAREK + g
                probs[n] = 1.0 / m
                n += 1
        return n
    if d.step == S_HITS_A:
        return hit_outcomes(d, 0, acts, probs)
    if d.step == S_HITS_D:
        return hit_outcomes(d, 1, acts, probs)
    return 0


# ------------------------------------------------------------------------------------------------------------------
# apply

cdef void apply_action(MNData* d, int a) noexcept nogil:
    cdef int s = d.step, x = d.cur, t, v, p, k, q, c, g
    if s == S_HERODRAW or s == S_REFILL:
        c = a - A_CARDK
        d.facedown &= ~(1u << c)
        d.row |= 1u << c
        if s == S_HERODRAW:
            if popc(d.row) >= 5 or d.facedown == 0:
                # round 1 skips collection: the 9 starting resources are its income (L44, G3)
                start_trade(d)
        else:
            d.bought -= 1
            refill(d)
        return
    if s == S_LEGCHOICE:
        if a == A_COIN:
            gain(d, x, COIN, 1)
        else:
            d.rare_owed[x] += 1
        next_legchoice(d)
        return
    if s == S_RAREDRAW:
        g = a - A_RAREK
        d.stack &= ~(1 << g)
        d.rare[d.c_p] |= 1 << g
        d.rare_owed[d.c_p] -= 1
        next_draw(d)
        return
    if s == S_COLOSSUS:
        gain(d, x, a - A_ITEM, 1)
        next_colossus(d)
        return
    if s == S_EXCH:
        t = (a - A_EXCH) // 2
        d.N = EXCH[t][(a - A_EXCH) % 2]
        d.tokens &= ~(1 << t)
        after_exchange(d)
        return
    if s == S_ANTIGONE:
        d.nofs[x] = a - A_COUNT
        next_antigone(d)
        return
    if s == S_OFFER:
        d.offer[x][a - A_ITEM] += 1
        d.odone[x] += 1
        next_offer(d)
        return
    if s == S_TAKE:
        v = (a - A_TAKE) // NI
        t = (a - A_TAKE) % NI
        d.offer[v][t] -= 1
        move_item(d, v, x, t)
        d.pa = d.la
        d.pb = d.lb
        d.la = x
        d.lb = v
        d.ntakes += 1
        d.taker = v
        d.cur = v
        if take_legal(d, NULL) == 0:
            end_takes(d)
        return
    if s == S_GIFT:
        move_item(d, x, d.lb, a - A_ITEM)
        start_build(d)
        return
    if s == S_CHOOSEB:
        select_builder(d, a - A_PLAYER)
        return
    if s == S_PERSEUS:
        if a == A_YES:
            begin_build(d, x, 1)
        else:
            begin_build(d, d.pending_b, 0)
        return
    if s == S_BUILD:
        apply_build(d, x, a)
        return
    if s == S_PAY:
        apply_pay(d, x, a)
        return
    if s == S_CPT:
        d.cpt[x] = a - A_CPT if a != A_PASS else -1
        after_build_item(d, x)
        return
    if s == S_KEEP:
        if a == A_PASS:
            end_build_turn(d)
            return
        t = a - A_ITEM
        if t < NR:
            d.keep_res[t] += 1
        else:
            d.keep_rare |= 1 << (t - NR)
        d.keep_n += 1
        if d.keep_n >= 2 or legal(d, NULL_BUF) == 1:
            end_build_turn(d)
        return
    if s == S_ZEUS:
        if a != A_PASS:
            zeus_peace(d, x, a - A_PLAYER)
        else:
            d.zeus_last[x] = -1
        next_mover(d)
        return
    if s == S_CHOOSEM:
        begin_move(d, a - A_PLAYER)
        return
    if s == S_MOVETRI:
        if a == A_PASS:
            to_sea_battles(d)
            return
        t = a - A_MOVETRI
        d.tri[t // 16][x] -= 1
        d.tri[t % 16][x] += 1
        d.trimv[t % 16] += 1
        if not movetri_any(d):
            to_sea_battles(d)
        return
    if s == S_SEABATTLE:
        if a == A_PASS:
            to_legion_moves(d)
            return
        t = a - A_SEABATTLE
        start_battle(d, 0, t // 5, x, t % 5)
        return
    if s == S_MOVELEG:
        if a == A_PASS:
            to_land_battles(d)
            return
        t = a - A_MOVELEG
        p = t // 32
        q = t % 32
        d.leg[p][x] -= 1
        d.leg[q][x] += 1
        d.legmv[q] += 1
        release_excess(d, p, x)
        if not moveleg_any(d):
            to_land_battles(d)
        return
    if s == S_LANDBATTLE:
        t = a - A_LANDBATTLE
        start_battle(d, 1, t // 5, x, t % 5)
        return
    if s == S_HITS_A:
        d.b_hits_a = a - A_HITS
        d.step = S_HITS_D
        return
    if s == S_HITS_D:
        d.b_hits_d = a - A_HITS
        d.cas_a = 0
        d.cas_d = 0
        resolve_casualties(d, 0)
        return
    if s == S_CAS_A:
        d.cas_a = 1 if a == A_CAS_FORT else 0
        resolve_casualties(d, 1)
        return
    if s == S_CAS_D:
        d.cas_d = 1 if a == A_CAS_FORT else 0
        resolve_casualties(d, 2)
        return
    if s == S_CAPTURE:
        apply_capture(d, x, a)
        return
    if s == S_OCCUPY:
        if a == A_PASS:
            next_capture(d)
            return
        d.occ[a - A_OCCUPY] = x
        if occupy_legal(d, d.occ_prov, NULL_BUF) == 1:
            next_capture(d)
        return
    if s == S_LOOT:
        if a == A_COIN:
            gain(d, x, COIN, 1)
            next_capture(d)
        else:
            d.rare_owed[x] += 1
            d.draw_ret = 1
            next_draw(d)
        return
    if s == S_CIRCE:
        if a == A_PASS:
            end_move_turn(d)
            return
        d.circe[a - A_CIRCE] = x
        if circe_legal(d, NULL) == 1:
            end_move_turn(d)
        return
    if s == S_TITLE:
        d.title[d.c_k] = a - A_PLAYER
        next_title(d)
        return




cdef void apply_build(MNData* d, int x, int a) noexcept nogil:
    cdef int cost = 0, cheap = -1, n
    if a == A_PASS:
        if (d.cards[x] >> C_GARDENS) & 1 and hand_total(d, x) > 0:
            d.step = S_KEEP
            return
        end_build_turn(d)
        return
    if a == A_PENTH:
        n = penth_count(d, x)
        if n > PIECE_LEG - legions_of(d, x):
            n = PIECE_LEG - legions_of(d, x)
        d.leg[CAP_PROV[d.emp[x]]][x] += n
        d.once[x] |= O_PENTH
        return
    if a >= A_HAMMURABI and a < A_HAMMURABI + 32:
        d.ctrl[a - A_HAMMURABI] = x
        d.once[x] |= O_HAMMURABI
        return
    if a >= A_SLOT and a < A_SLOT + MAXK:
        cost = SLOT_COST[SLOT_TYPE[a - A_SLOT]]
    elif a >= A_CARD and a < A_CARD + NCARD:
        cost = COST_PYR if a - A_CARD == C_PYRAMIDS else CARD_BASE + ncards(d, x)
    elif a >= A_SPARTACUS and a < A_SPARTACUS + 32:
        cost = 1
        cheap = 12
    elif a >= A_GILGAMESH and a < A_GILGAMESH + 32:
        cost = 1
        cheap = 5
    elif a >= A_PHAROS and a < A_PHAROS + 16:
        cost = 1
        cheap = 6
    elif a >= A_MARKER and a < A_MARKER + 32:
        cost = COST_MARKER
    elif a >= A_LEGION and a < A_LEGION + 32:
        cost = COST_LEGION
    elif a >= A_FORT and a < A_FORT + 32:
        cost = COST_FORT
    else:
        cost = COST_TRIREME
    d.item = a
    d.pay_left = cost
    d.pay_mode = 3 if cheap >= 0 else 0
    d.pay_cheapg = cheap
    d.pay_lastg = -1
    d.pay_lastrare = 0
    d.pay_dbl = 0
    d.pay_for = 0
    d.step = S_PAY


cdef void apply_pay(MNData* d, int x, int a) noexcept nogil:
    cdef int t = a - A_ITEM, g
    if d.pay_mode == 0:
        d.pay_mode = 1 if t == COIN else 2
    elif d.pay_mode == 1 and t != COIN:
        d.pay_for = 1
    elif d.pay_mode == 2:
        if t == COIN:
            d.pay_for = 1
        else:
            g = t - NR if t >= NR else t
            if g == d.pay_lastg:
                d.pay_dbl = 1
    if d.pay_mode == 2 and t != COIN:
        d.pay_lastg = t - NR if t >= NR else t
        d.pay_lastrare = t >= NR
    remove_item(d, x, t)
    d.pay_left -= 1
    if d.pay_left > 0 and d.pay_mode != 3:
        return
    d.pay_mode = 0
    d.pay_dbl = 0
    d.pay_for = 0
    d.step = S_BUILD
    complete_item(d, x, d.item)


cdef void complete_item(MNData* d, int x, int a) noexcept nogil:
    cdef int k, c
    if a >= A_SLOT and a < A_SLOT + MAXK:
        k = a - A_SLOT
        d.built[k] = 1
        if d.circe[k] >= 0:
            d.circe[k] = -1
    elif a >= A_MARKER and a < A_MARKER + 32:
        d.ctrl[a - A_MARKER] = x
    elif a >= A_LEGION and a < A_LEGION + 32:
        d.leg[a - A_LEGION][x] += 1
    elif a >= A_FORT and a < A_FORT + 32:
        d.fort[a - A_FORT] = x
    elif a >= A_TRIREME and a < A_TRIREME + 16:
        d.tri[a - A_TRIREME][x] += 1
    elif a >= A_SPARTACUS and a < A_SPARTACUS + 32:
        d.leg[a - A_SPARTACUS][x] += 1
        d.once[x] |= O_SPARTACUS
    elif a >= A_GILGAMESH and a < A_GILGAMESH + 32:
        d.fort[a - A_GILGAMESH] = x
        d.once[x] |= O_GILGAMESH
    elif a >= A_PHAROS and a < A_PHAROS + 16:
        d.tri[a - A_PHAROS][x] += 1
        d.once[x] |= O_PHAROS
    elif a >= A_CARD and a < A_CARD + NCARD:
        c = a - A_CARD
        d.cards[x] |= 1u << c
        if c == C_PYRAMIDS:                       # Prestige: immediate win (L597-599)
            game_over(d, 1 << x, 1)
            return
        d.row &= ~(1u << (c - 5))
        d.bought += 1
        if (d.cards[x] >> C_PERSEUS) & 1 and ncards(d, x) >= MAX_CARDS:   # Perseus: the 5th wins at once
            game_over(d, 1 << x, 5)
            return
        if c == C_CASTOR:
            d.step = S_CPT
            return
    after_build_item(d, x)


cdef void after_build_item(MNData* d, int x) noexcept nogil:
    d.step = S_BUILD
    d.cur = x


cdef void apply_capture(MNData* d, int x, int a) noexcept nogil:
    cdef int p = d.c_k, k, t, mult
    if a == A_PASS:
        next_capture(d)
        return
    release_all(d, p, x)                 # a new choice replaces the old arrangement (ASSUMED G32)
    if a >= A_DESTROY and a < A_DESTROY + MAXK:
        k = a - A_DESTROY
        t = SLOT_TYPE[k]
        d.built[k] = 0
        d.occ[k] = -1
        d.destroyed |= 1u << p
        mult = 2 if has(d, x, C_HAMILCAR) else 1
        if t == CARAVAN:
            gain(d, x, SLOT_GOOD[k], mult)
        elif t == REGULAR or t == CAPITAL:
            gain(d, x, COIN, mult)
        elif t == LEGENDARY:
            if mult == 2:                  # Hamilcar: 1 coin and 1 rare good (L788)
                gain(d, x, COIN, 1)
                d.rare_owed[x] += 1
                d.draw_ret = 1
                next_draw(d)
                return
            d.step = S_LOOT
            return
        next_capture(d)
        return
    if a >= A_OCCUPY and a < A_OCCUPY + MAXK:
        d.occ[a - A_OCCUPY] = x
        d.occ_prov = p
        d.step = S_OCCUPY
        if occupy_legal(d, p, NULL_BUF) == 1:
            next_capture(d)
        return
    if a >= A_CAPTURE and a < A_CAPTURE + 32:
        d.cap_by[p] = x
        d.cap_round[p] = d.round
        next_capture(d)
        return
    if a >= A_SHEBA and a < A_SHEBA + 32:      # Queen of Sheba: swap at once, the legion is sacrificed (L825)
        d.ctrl[p] = x
        d.leg[p][x] -= 1
        d.once[x] |= O_SHEBA
        next_capture(d)
        return


# ------------------------------------------------------------------------------------------------------------------
# hidden information

cdef void blind(MNData* v, int player) noexcept nogil:
    """Blank what `player` cannot see: others' unrevealed rare goods (keep their count), others' unrevealed
    offers, the rare stack's contents."""
    cdef int q, t, hidden
    for q in range(v.players):
        if q == player:
            continue
        hidden = popc(v.rare[q] & ~v.rknown[q])
        v.rare[q] = v.rknown[q]
        v.view_hidden[q] = hidden       # the count of unrevealed rare goods is public
        if v.step == S_OFFER:           # offers are secret until all are made
            for t in range(NI):
                v.offer[q][t] = 0
    v.stack = 0


cdef void determinize(MNData* d, int observer, Rng* rng) noexcept nogil:
    cdef int q, pool, n, i, g, k, t, total, r
    cdef int cnts[NI]
    pool = d.stack
    for q in range(d.players):
        if q != observer:
            pool |= d.rare[q] & ~d.rknown[q]
    for q in range(d.players):
        if q == observer:
            continue
        n = popc(d.rare[q] & ~d.rknown[q])
        d.rare[q] &= d.rknown[q]
        for i in range(n):
            k = <int>rng_below(rng, popc(pool))
            g = 0
            while True:
                if (pool >> g) & 1:
                    if k == 0:
                        break
                    k -= 1
                g += 1
            pool &= ~(1 << g)
            d.rare[q] |= 1 << g
    d.stack = pool
    # secret offers made but not yet revealed: any items of the hand
    for q in range(d.players):
        if q == observer or d.odone[q] == 0 or d.step != S_OFFER:
            continue
        total = 0
        for t in range(NI):
            cnts[t] = cnt_item(d, q, t)
            total += cnts[t]
            d.offer[q][t] = 0
        for i in range(d.odone[q]):
            r = <int>rng_below(rng, total)
            t = 0
            while r >= cnts[t]:
                r -= cnts[t]
                t += 1
            cnts[t] -= 1
            total -= 1
            d.offer[q][t] += 1


# ------------------------------------------------------------------------------------------------------------------
# evaluation: distance to each victory condition

cdef void evaluate_keys(MNData* d, double* keys) noexcept nogil:
    cdef int tr[15]
    cdef int caps[5]
    cdef int p, k, b, t, best, titles, distinct, g
    cdef double glory, conquest, primacy, prestige, v
    tracks(d, tr)
    for p in range(5):
        caps[p] = 0
    for k in range(NSLOT):
        if d.built[k] and (SLOT_TYPE[k] == CAPITAL or SLOT_TYPE[k] == LEGENDARY):
            b = bctrl(d, k)
            if b >= 0:
                caps[b] += 1
    for p in range(d.players):
        glory = ncards(d, p) / <double>MAX_CARDS
        conquest = caps[p] / 4.0
        titles = 0
        for t in range(3):
            best = 0
            for k in range(d.players):
                if tr[k * 3 + t] > best:
                    best = tr[k * 3 + t]
            if d.title[t] == p:
                titles += 1
            elif best > 0 and tr[p * 3 + t] >= best:
                titles += 1
        primacy = titles / 3.0
        distinct = 0
        for g in range(NG):
            if cnt_good(d, p, g) > 0:
                distinct += 1
        v = distinct + d.res[p][COIN] / 2.0
        prestige = v / COST_PYR if v < COST_PYR else 1.0
        v = glory
        if conquest > v:
            v = conquest
        if primacy > v:
            v = primacy
        keys[p] = v + 0.25 * (glory + conquest + primacy + 0.5 * prestige)


# ------------------------------------------------------------------------------------------------------------------
# loading the data files

_NAMES = {}
_SETUP = {}


def _load_static():
    import tomllib
    from pathlib import Path
    global NPROV, NSEA, NSLOT, COST_MARKER, COST_LEGION, COST_TRIREME, COST_FORT, CARD_BASE, MAX_CARDS, COST_PYR
    global PIECE_LEG, PIECE_TRI, PIECE_FORT, PIECE_MARK, HIT_EVERY, FORT_BONUS, NEBU_BONUS, CAESAR_BONUS
    global PERICLES_BONUS, LAND_MAXF, SEA_MAXF
    here = Path(__file__).resolve().parent / "data"
    mp = tomllib.loads((here / "map.toml").read_text())
    st = tomllib.loads((here / "setup.toml").read_text())
    ru = tomllib.loads((here / "rules.toml").read_text())
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


def _check_layout():
    """The struct has no padding bytes (info_key hashes it whole): 32-bit fields, then 16-bit ones."""
    cdef MNData probe
    memset(&probe, 0, sizeof(MNData))
    raw = probe
    ints = ("players", "emp", "live", "max_rounds", "cap_bld", "round", "step", "cur", "winners", "reason",
            "start_ctrl", "destroyed", "cards", "row", "facedown", "landfought", "seafought")

    def count(v):
        return sum(count(x) for x in v) if isinstance(v, list) else 1
    size = sum(count(v) * (4 if k in ints else 2) for k, v in raw.items())
    if size != sizeof(MNData):
        raise AssertionError(f"mare_nostrum: MNData has {sizeof(MNData) - size} padding bytes; adjust PADN")


_check_layout()

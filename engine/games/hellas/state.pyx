"""Hellas on the Kleos contract (engine/core.pxd). Coverage and the decision split: docs/rules/hellas.md.

The whole changing state is one C struct (HData); the map, the roster, the deck and every rule key are C tables
(HS) read from a checked data set (loader.py), one slot per data set, so several data sets can live side by side.
A year is a chain of small decisions (the Step enum); the functions of phases.pxi walk the sequence of play to the
next decision, resolving everything automatic on the way. The C code is split by idea into included files (one
compiled module): tables.pxi (the static tables), control.pxi (control, sieges, supply), phases.pxi (the year),
sides.pxi (who plays which side), cards.pxi (card play and events), moves.pxi (movement), legal.pxi, chance.pxi,
apply.pxi, hidden.pxi, evaluate.pxi. JSON lives in codec.py, notation in notation.py, the text view in render.py.

Sides: 0 = Athens, 1 = Sparta; every rule here is written in sides. The prestige lead is one signed number,
positive when Sparta leads (spec 8.2). Seats are the contract's players: seat s plays side s ^ swap, mapped only at
the contract boundary (HellasState below); swap is 0 unless SIDE_SELECTION (spec 5.13) says otherwise, and until
the sides are settled (the chance node or the bids before the first New Year) seats stand in for sides.
"""
from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcmp, memset

from engine.core cimport CHANCE, HIDDEN_ACTION, MAX_ACTIONS, MAX_PLAYERS, TERMINAL, Game, State, returns_from_keys
from engine.hashing cimport hash_bytes, hash_mix
from engine.rng cimport Rng, rng_below, rng_seed

# ------------------------------------------------------------------------------------------------------------------
# sizes (the loader refuses data that would not fit)
DEF MAXA = 64        # areas: land first, then seas
DEF MAXU = 120       # blocks of both sides
DEF MAXC = 64        # cards
DEF NSLOT = 32       # data sets (and rule variants of the option `rules`) loaded at once (about 21 KB each)

DEF ATH = 0
DEF SPA = 1
DEF POOL = -1        # a block's location when it is in its owner's pool

# site types
DEF SITE_NONE = 0
DEF SITE_CITY = 1
DEF SITE_PORT = 2
DEF SITE_SETTLEMENT = 3

# unit types
DEF T_HOPLITE = 0
DEF T_ARCHERS = 1
DEF T_CAVALRY = 2
DEF T_INFANTRY = 3
DEF T_FLEET = 4

# unit specials
DEF SP_NONE = 0
DEF SP_ODRYSIAN = 1
DEF SP_PERSIAN = 2
DEF SP_E2 = 3

# event kinds (order of loader.EVENT_KINDS)
DEF EV_LEADER = 0
DEF EV_OSTRACISM = 1
DEF EV_PLAGUE = 2
DEF EV_PLAGUE_RETURNS = 3
DEF EV_REVOLT = 4
DEF EV_HELOT = 5
DEF EV_TREACHERY = 6
DEF EV_FAMINE = 7
DEF EV_EARTHQUAKE = 8
DEF EV_OMEN = 9
DEF EV_ATROCITY = 10
DEF EV_CIVIL_WAR = 11
DEF EV_TAXES = 12
DEF EV_PERSIAN_AID = 13
DEF EV_PEACE = 14
DEF EV_WAR = 15
DEF EV_NO_QUARTER = 16

# card colours
DEF COL_RED = 0
DEF COL_BLUE = 1
DEF COL_GREEN = 2

# card conditions (order of loader.CONDITIONS)
DEF CO_NONE = 0
DEF CO_BESIEGED = 1
DEF CO_PLAGUE_STRUCK = 2
DEF CO_OWN_PRIOR_SIEGE = 3
DEF CO_LEADER = 4
DEF CO_OWN_SIEGE = 5

# the decision (or chance node) the state is at
cdef enum Step:
    S_DEAL = 0          # chance: the next card of the New Year deal
    S_TRUCE = 1         # the leading side may attempt a truce (yes / no)
    S_TRUCE_ROLL = 2    # chance: both truce dice (their sum)
    S_CARD = 3          # secret card choice (New Year: event or sacrifice; season: event or actions)
    S_TARGET = 4        # an event's target
    S_FAVOUR = 5        # spend the Olympian favour for +1 action (yes / no)
    S_ACTION = 6        # spend the next action (or pass)
    S_MOVE_UNIT = 7     # group move: the next unit of the group (ascending), or done
    S_MOVE_DEST = 8     # group move: that unit's destination
    S_PLACE = 9         # recruiting: where the new unit appears
    S_SIEGE = 10        # battle phase: siege attrition on one of own sieges, or end the battle phase
    S_ATTRITION = 11    # chance: the number of attrition hits
    S_ATR_KEEP = 12     # end of year: Athens keeps (no) or removes (yes) an Athens Raises Taxes card
    S_WITHDRAW = 13     # the defender: does this field unit go inside the city (yes / no)
    S_BATTLE = 14       # the attacker: which combat next (among the smallest)
    S_FIRE = 15         # chance: one firing unit's hits and routs
    S_ROUT = 16         # the routed side's owner picks which of his units routs
    S_CONTINUE = 17     # after a round: fight on (yes) or break off and retreat (no); attacker, then defender
    S_RETREAT = 18      # where a retreating unit goes
    S_CARGO = 19        # a fleet that landed: which Greek land unit it carried (or none)
    S_STORM = 20        # chance: steps a fleet loses to storms on hazard borders
    S_FORCED = 21       # an elite unit that used its full speed: try one more area (or not)
    S_MARCH = 22        # chance: the forced march succeeds or fails
    S_SALLY = 23        # Winter W3: the besieged sally from one city (or not)
    S_OVER = 24
    S_REROLL = 25       # FAVOUR_REROLL: the roller spends his favour to roll those dice again (yes) or keeps them
    S_HIT = 26          # a hit falls on one of the owner's blocks tied for the most steps: he picks which
    S_SIDES = 27        # chance, before the first New Year: a fair coin (SIDE_SELECTION random: which side seat 0
                        # plays; after tied bids: which seat picks)
    S_BID = 28          # SIDE_SELECTION bid: a secret bid of prestige for the right to pick a side (seat 0, then 1)
    S_PICK = 29         # the higher bidder picks the side he plays

STEP_NAMES = ["deal", "truce", "truce-roll", "card", "event-target", "favour", "action", "move-unit", "move-dest",
              "place", "siege", "attrition", "taxes-keep", "withdraw", "battle", "fire", "rout", "continue",
              "retreat", "cargo", "storm", "forced", "march", "sally", "over", "reroll", "hit", "sides", "bid",
              "pick"]

# action id layout (fixed action space)
DEF A_CARD = 0          # 128: card*2 + use (use 0 = event, 1 = actions / sacrifice at the New Year)
DEF A_PASS = 128        # end the action phase / the group / the battle phase; decline
DEF A_YES = 129
DEF A_MOVE = 130        # 64: group move from this area
DEF A_UNIT = 194        # 120: this unit moves next
DEF A_DEST = 314        # 64: destination area
DEF A_RNEW = 378        # 120: recruit this unit from the pool
DEF A_RSTEP = 498       # 120: a replacement step for this unit
DEF A_PILLAGE = 618     # 64
DEF A_SUPPLY = 682      # 64
DEF A_GARRISON = 746    # 64
DEF A_PLACE = 810       # 64
DEF A_SIEGE = 874       # 64: attrition against the city of this area
DEF A_TARGET = 938      # 64: an event's target area
DEF A_SIDE = 1002       # 2: an event's target side; the side the higher bidder picks (S_PICK)
DEF A_DRAW = 1004       # chance, 64: the card dealt
DEF A_SUM = 1068        # chance, 13: the sum of two dice (2..12)
DEF A_HITS = 1081       # chance, 64: number of hits
DEF A_BATTLE = 1145     # 64: fight the battle in this area next
DEF A_FIRE = 1209       # chance, 25: hits*5 + routs of one firing unit
DEF A_ASSAULT = 1234    # 64: assault the city of this area
DEF A_MARCH = 1298      # chance, 2: the forced march fails (0) or succeeds (1)
DEF A_SALLY = 1300      # 64: sally from the city of this area
DEF A_COIN = 1364       # chance, 2: the side-selection coin (S_SIDES)
DEF A_BID = 1366        # MAXBID: bid this much prestige for the right to pick a side
DEF MAXBID = 99         # bids run 0 .. AUTO_VICTORY_LEAD - 1 (the loader caps that lead at 99)
DEF NUM_ACTIONS = 1465
DEF GARRISON_FIRES = -2 # b_firer when the besieged garrison block fires

ctypedef signed char i8

# ------------------------------------------------------------------------------------------------------------------
# static tables of one data set

cdef struct HS:
    int nl, ns, na, nu, nc
    uint64_t adj[MAXA]          # land: land neighbours; sea: sea neighbours
    uint64_t coast[MAXA]        # land: the seas it coasts on; sea: its coastal land areas
    uint64_t hazard[MAXA]       # sea: neighbours across a hazard border
    uint64_t strait[MAXA]       # sea: neighbours across a strait
    uint64_t neutral_bits       # the neutral areas (no block may enter)
    uint64_t city_bits          # the land areas with a city (a city or a port)
    uint64_t loyal_cities[2]    # the cities loyal to a side
    uint64_t sea_bits           # the seas
    uint64_t open_bits          # the areas without a city: the seas and open land
    int site[MAXA]
    int value[MAXA]
    int capacity[MAXA]
    int loyal[MAXA]             # 0 Athens, 1 Sparta, 2 neutral, -1 none
    int nat[MAXA]               # nationality id or -1
    int region[MAXA]            # subject region id or -1
    int capital[MAXA]
    int neutral[MAXA]
    int offshore[MAXA]          # the port's offshore sea (area index) or -1
    int subject[MAXA]           # a subject city a Revolt may take (subject nationalities)
    int helot[MAXA]             # a city Helot Uprising may take
    int u_side[MAXU]
    int roster[2][MAXU]         # each side's blocks (ascending)
    int roster_n[2]
    int u_nat[MAXU]
    int u_type[MAXU]
    int u_let[MAXU]             # land rating letter 0..3 = A..D
    int u_pow[MAXU]
    int u_nlet[MAXU]            # naval letter 4..5 = E..F, -1
    int u_npow[MAXU]
    int u_max[MAXU]
    int u_lspd[MAXU]
    int u_sspd[MAXU]
    int u_elite[MAXU]
    int u_barb[MAXU]
    int u_home[MAXU]            # barbarian settlement area or -1
    int u_special[MAXU]
    int u_start[MAXU]           # area or POOL
    int u_steps0[MAXU]
    uint64_t u_places[MAXU]     # the cities of its nationality it may be recruited in (ports for a fleet)
    int u_local[MAXU]           # its index in its side's roster (the tracker's mask bit)
    int u_ref[MAXU]             # its prior strength: set-up steps, else a barbarian's full, else a recruit's
    uint64_t enter[2][MAXA]     # the blocks of a side (side-local bits) that may come out of the pool in an area
    uint64_t holds[2][5]        # the blocks of a side (side-local bits) a slot class may hold (hidden.pxi)
    int c_id[MAXC]
    int c_kind[MAXC]
    int c_colour[MAXC]
    int c_cont[MAXC]
    int c_nyf[MAXC]
    int c_cond[MAXC]
    int c_side[MAXC]            # leader side
    int c_rating[MAXC]
    int c_region[MAXC]          # revolt region
    int c_spread[MAXC]
    int c_act[MAXC]
    int lead0[2]                # leader cards in play at the start
    int first_year, nyears, nseasons, start_prestige
    # rule keys, as numbers
    int r_hand, r_skip1, r_init_bonus, r_tie, r_ny_first, r_events_winter, r_sacrifice, r_favour_extra
    int r_lead1, r_lead0, r_atr_per_card, r_persian_bonus, r_cap, r_move_once, r_capacity, r_recruit_cost
    int r_new_steps, r_barb_once, r_pillage_one, r_pillage_once, r_prior_siege, r_att_normal, r_att_famine
    int r_att_winter, r_port_blockade, r_recapture, r_supply_cost, r_unsupplied_elim, r_persian_yearly
    int r_noq_yearly, r_atrocity, r_auto_lead, r_auto_immediate, r_truce, r_truce_thr, r_truce_thr_pf
    int r_truce_cost, r_truce_cost_pf, r_truce_after, r_minor, r_major, r_winter_supply, r_winter_recruit
    int r_sally, r_march, r_cargo, r_cargo_rule, r_storm, r_fort_let, r_fort_pow, r_dd, r_dd_open, r_assault, r_assault_treach
    int r_battle_free, r_rout_smallest, r_battle_rounds, r_att_retreats, r_cav_retreat, r_withdraw
    int r_battle_prestige, r_open, r_ev_plague_loss, r_ev_plague_min, r_ev_pr_loss, r_ev_pr_min, r_ev_revolt_n
    int r_ev_revolt_extra, r_strait, r_reroll, r_atrocity_reading, r_atrocity_extra, r_capital_wins
    int r_capital_units, r_sides, r_bid_max
    double ev_step, ev_scale    # evaluate() weights (data/evaluate.json, ASSUMED search heuristics, not rules)


cdef HS TABLES[NSLOT]

# ------------------------------------------------------------------------------------------------------------------
# the changing state

cdef struct Occ:
    # who stands where, as area bits, kept in the state by place() (the move and control queries read bits
    # instead of scanning the roster once an area)
    uint64_t field[2]           # areas with blocks of a side in the field
    uint64_t inside[2]          # areas with blocks of a side inside the city
    uint64_t fleets[2]          # areas with fleets of a side
    uint64_t landf[2]           # areas with land units (not fleets) of a side in the field


cdef struct PhaseActs:
    # the legal actions of an Action phase decision besides passing, as bits: worked out once when the decision
    # opens (to_action) and kept in the state until it is taken (legal.pxi)
    uint64_t groups             # group-move source areas
    uint64_t rnew[2]            # pool blocks that may be recruited (block bits: 0-63, 64-127)
    uint64_t rstep[2]           # blocks that may take a replacement step
    uint64_t pillage            # areas
    uint64_t supply
    uint64_t garrison


cdef struct HData:
    # --- 64-bit, then 32-bit, then 8-bit fields: no padding inside (checked at import), info keys hash cleanly
    uint64_t hand[2]            # card index bits
    uint64_t deck               # not dealt, not played, not in play (shuffled: its order is drawn card by card)
    uint64_t played             # played this year (the public discard)
    uint64_t inplay             # continuing events face up
    uint64_t sieged             # sieges already fought this battle phase (area bits)
    uint64_t supplied           # areas supplied this Winter turn (area bits)
    uint64_t asked              # areas where the defender has decided on withdrawing this turn
    uint64_t fought             # areas whose battle has been fought this Battle phase
    uint64_t poss[MAXU]         # tracker: the identities the enemy holds possible for this block (tracker.pxi)
    int ds                      # data set slot
    int year                    # 0 = the first scenario year
    int season                  # 0 = New Year, 1..nseasons (the last is Winter)
    int step
    int cur                     # player to decide, CHANCE or TERMINAL
    int turn                    # player turns begun so far (siege stamps)
    int first                   # the season's Player 1
    int tix                     # 0: Player 1's turn, 1: Player 2's
    int wstage                  # Winter: 0 W2 actions, 1 W3 sallies, 2 W4 offensive combat
    int active                  # the player whose turn it is (-1 between turns)
    int prestige                # the net lead, > 0 Sparta
    int winner                  # -1 none, 0/1 a side, 2 draw
    int level                   # 0 none, 1 draw, 2 minor, 3 major, 4 automatic, 5 truce
    int commit[2]               # card*2 + use committed this choice, -1 not yet
    int play[2]                 # the revealed play of this season (card*2 + use), -1 none
    int actions
    int refuge                  # Winter: free refuge moves still open this turn
    int group                   # group move: the source area
    int unit                    # group move: the last unit chosen / the unit being moved or placed
    int free_move               # the unit being moved is a newly raised barbarian (free move)
    int dealt                   # cards dealt so far this New Year
    int leader[2]               # leader card in play per side, -1
    int favour[2]
    int quake_vs                # Earthquake: the side that may not move or pillage this season, -1
    int omen_vs                 # Omen: the side that may not start battles or assault this season, -1
    int famine                  # Famine: the area of the city whose attrition hits on 1-2 this season, -1
    int plague_struck
    int ev_side                 # the side resolving an event, -1
    int ev_card
    int ev_left                 # garrisons a revolt may still place
    int ny_next                 # New Year: the side whose event resolves next, -1 when done
    int truce_side
    int att_area                # the siege being attrited
    int att_dice
    int atr_next                # end of year: the next Athens Raises Taxes card index to ask about
    int ev_opt                  # optional garrisons a revolt may still place (tax revolt)
    int b_area                  # the battle being fought, -1
    int b_att                   # its attacker
    int b_round
    int b_letter                # firing: the letter (0..5 = A..F) ...
    int b_side                  # ... the side (0 defender, 1 attacker) ...
    int b_last                  # ... and the last unit that fired
    int b_firer                 # the unit whose roll is pending
    int b_lost                  # side bits: lost a step or had a unit routed in this battle
    int b_routs                 # routs still to take
    int b_rout_side
    int b_stage                 # after a round: 1 the attacker decides, 2 the defender
    int b_retreat               # side bits: breaking off (all its units retreat)
    int wd_area                 # withdrawing: the area, -1
    int wd_unit                 # the unit asked about
    int r_unit                  # retreating: the unit
    int mv_dest                 # the destination of the unit just moved
    int storm_n                 # storm rolls due for the fleet just moved
    int cargo                   # the land unit it carries, -1
    int b_kind                  # 0 a field or naval battle, 1 an assault, 2 a Treachery assault
    int b_bank                  # assault: hits banked against double defence
    int treach                  # Treachery: the siege it lets its player assault this turn, -1
    int g_fired                 # assault: the garrison has fired this round
    int march_to                # forced march: the extra area tried, -1
    int full_speed              # the fleet just moved used its whole sea speed (forced rowing)
    int reroll                  # FAVOUR_REROLL: the chance outcome waiting for its player's reroll choice, -1
    int swap                    # seat s plays side s ^ swap (SIDE_SELECTION, spec 5.13); 0 until the sides are set
    i8 loc[MAXU]                # area, or POOL
    i8 steps[MAXU]
    i8 incity[MAXU]             # inside the city of its area
    i8 moved[MAXU]              # moved this player turn
    i8 raised[MAXU]             # barbarian raised this year
    i8 revealed[MAXU]           # the enemy knows what this block is (and its steps at the reveal)
    i8 occ[MAXA]                # side holding a captured city against its loyalty, -1
    i8 garrison[MAXA]           # recruited or revolt garrison: its side, -1
    i8 pillaged[MAXA]
    i8 civil[MAXA]              # Civil War marker
    i8 ctrl[MAXA]               # area control at the last re-computation: 0, 1, -1 none
    i8 cctrl[MAXA]              # city control, -1 none
    i8 besieged[MAXA]           # the city is besieged (at the last re-computation)
    i8 fresh[MAXA]              # the siege began in this player turn (no siege combat yet)
    i8 routed[MAXU]             # out of the battle; retreats at its end
    i8 came[MAXU]               # the area it moved from this turn, -1
    i8 strait_in[MAXU]          # entered its area across a strait this turn (a fleet at sea, or landed from a
                                # sea it entered across a strait; its cargo with it): spec 6.7
    i8 slo[MAXU]                # tracker: the enemy's bounds on its steps (tracker.pxi) ...
    i8 shi[MAXU]
    i8 srel[MAXU]               # ... relative to the identity's prior strength (1) or absolute (0)
    i8 vcount[MAXA * 2]         # view only: unseen enemy blocks per area (field, inside); 0 in a state
    # --- derived (rebuild_derived after a bulk write): not in the raw layout, not hashed; a view (blind) leaves
    # them stale. Who stands where, from loc, incity and the roster, kept up to date by place():
    unsigned char nfield[2][MAXA]       # blocks of a side in the field of an area
    unsigned char ninside[2][MAXA]      # blocks of a side inside the city of an area
    unsigned char nfleet[2][MAXA]       # fleets of a side in an area (in the field or inside)
    unsigned char nlandf[2][MAXA]       # land units (not fleets) of a side in the field of an area
    Occ o                               # the same as area bits (a count above 0)
    PhaseActs acts                      # at S_ACTION: its legal actions (phase_actions)


cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil


cdef int NULL_BUF[MAX_ACTIONS]          # scratch for counting legal moves


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


cdef inline uint64_t bit(int i) noexcept nogil:
    return (<uint64_t>1) << i


cdef inline int bits_out(uint64_t m, int base, int* out, int n) noexcept nogil:
    """Writes base + each set bit of m (ascending) to out from index n (out NULL: counts only); the new count."""
    while m:
        if out != NULL:
            out[n] = base + __builtin_ctzll(m)
        m &= m - 1
        n += 1
    return n


cdef inline HS* tab(HData* d) noexcept nogil:
    return &TABLES[d.ds]


cdef inline size_t raw_size() noexcept nogil:
    """The bytes of HData before its derived part: the raw layout (info_key hashes these)."""
    cdef HData* probe = NULL
    return <size_t>(<char*>&probe.nfield[0][0] - <char*>probe)


cdef inline void occ_count(HData* d, int u, int delta) noexcept nogil:
    """Add (delta 1) or take away (delta -1) block u, where it stands now, to the counts and bits of who stands
    where (u on the map)."""
    cdef HS* s = tab(d)
    cdef int a = d.loc[u], side = s.u_side[u], n
    cdef uint64_t b = bit(a)
    if d.incity[u]:
        n = d.ninside[side][a] + delta
        d.ninside[side][a] = n
        d.o.inside[side] = (d.o.inside[side] & ~b) | (b if n else 0)
    else:
        n = d.nfield[side][a] + delta
        d.nfield[side][a] = n
        d.o.field[side] = (d.o.field[side] & ~b) | (b if n else 0)
        if s.u_type[u] != T_FLEET:
            n = d.nlandf[side][a] + delta
            d.nlandf[side][a] = n
            d.o.landf[side] = (d.o.landf[side] & ~b) | (b if n else 0)
    if s.u_type[u] == T_FLEET:
        n = d.nfleet[side][a] + delta
        d.nfleet[side][a] = n
        d.o.fleets[side] = (d.o.fleets[side] & ~b) | (b if n else 0)


include "tracker.pxi"


cdef inline void place(HData* d, int u, int a, int inside) noexcept nogil:
    """Block u now stands in area a (POOL: off the map), inside its city or not: the one way loc and incity
    change, so that who stands where and what the enemy can know of which block left stay right."""
    track_leave(d, u, a, inside)
    if d.loc[u] >= 0:
        occ_count(d, u, -1)
    d.loc[u] = a
    d.incity[u] = inside
    if a >= 0:
        occ_count(d, u, 1)


cdef void rebuild_occupancy(HData* d) noexcept nogil:
    """Who stands where from loc and incity, in one pass (after set-up, loading or a resample of blocks)."""
    cdef HS* s = tab(d)
    cdef int u
    memset(d.nfield, 0, sizeof(d.nfield))
    memset(d.ninside, 0, sizeof(d.ninside))
    memset(d.nfleet, 0, sizeof(d.nfleet))
    memset(d.nlandf, 0, sizeof(d.nlandf))
    memset(&d.o, 0, sizeof(Occ))
    for u in range(s.nu):
        if d.loc[u] >= 0:
            occ_count(d, u, 1)


include "control.pxi"


include "moves.pxi"


include "cards.pxi"


include "battle.pxi"


include "phases.pxi"


include "sides.pxi"


include "legal.pxi"


include "chance.pxi"


include "apply.pxi"


include "hidden.pxi"


include "evaluate.pxi"


# ------------------------------------------------------------------------------------------------------------------
# the game and the state

_SLOTS = {}          # ((scenario, folder), rule keys set by the option) -> (slot, HellasData)


def _slot(str value, rules_text=""):
    """The table slot of the data set the option value names, with the game option ``rules`` over it, loading and
    checking it on first use."""
    from engine.errors import BadOptionError
    from engine.games.hellas import loader
    overrides = loader.parse_rules_option(rules_text)
    source = loader.option_source(value)
    key = (source, tuple(sorted((k, repr(v)) for k, v in overrides.items())))
    if key not in _SLOTS:
        data = loader.load(*source, rules_option=overrides)
        if len(_SLOTS) >= NSLOT:
            raise BadOptionError(f"hellas: at most {NSLOT} data sets and rule variants in one process")
        slot = len(_SLOTS)
        _fill_tables(slot, data)
        _SLOTS[key] = (slot, data)
    return _SLOTS[key]


cdef class HellasGame(Game):
    cdef readonly int slot
    cdef readonly object data

    def __init__(self, dict options):
        super().__init__("hellas", options, 2, NUM_ACTIONS)
        self.slot, self.data = _slot(options.get("data", "placeholder"), options.get("rules", ""))

    cpdef State new_initial_state(self):
        cdef HellasState s = HellasState.__new__(HellasState)
        s.game = self
        s.num_players = 2
        setup(&s.d, self.slot)
        return s

    def state_from_json(self, obj):
        from engine.games.hellas import codec
        return codec.from_json(self, obj)


cdef class HellasState(State):
    cdef HData d

    # --- C contract ------------------------------------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        if self.d.step == S_OVER:
            return TERMINAL
        if self.d.cur < 0:
            return self.d.cur
        return self.d.cur ^ self.d.swap

    cdef int c_legal_actions(self, int* out) noexcept:
        if self.d.cur < 0 or self.d.step == S_OVER:
            return 0
        return legal(&self.d, out)

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept:
        if self.d.cur != CHANCE or self.d.step == S_OVER:
            return 0
        return chance(&self.d, actions, probs)

    cdef void c_apply(self, int action) noexcept:
        apply_action(&self.d, action)

    cdef State c_clone(self):
        cdef HellasState s = HellasState.__new__(HellasState)
        s.game = self.game
        s.num_players = 2
        s.d = self.d
        return s

    cdef void c_copy_from(self, State other) noexcept:
        self.d = (<HellasState>other).d

    cdef void c_determinize(self, int observer, Rng* rng) noexcept:
        determinize(&self.d, observer ^ self.d.swap, rng)

    cdef uint64_t c_info_key(self, int player) noexcept:
        cdef HData v = self.d
        blind(&v, player ^ self.d.swap)
        return hash_bytes(hash_mix(0x4E11A5, <uint64_t>player), &v, raw_size())

    cdef int c_rewind_pending(self, int observer) noexcept:
        return rewind_card(&self.d, observer ^ self.d.swap)

    cdef int64_t c_action_observation(self, int action, int player) noexcept:
        return observe(&self.d, action, player ^ self.d.swap)

    cdef void c_returns(self, double* out) noexcept:
        cdef double keys[2]
        cdef int seat, side
        for seat in range(2):
            side = seat ^ self.d.swap
            keys[seat] = 1.0 if self.d.winner == side else 0.5 if self.d.winner == 2 else 0.0
        returns_from_keys(keys, 2, out)

    cdef void c_evaluate(self, double* out) noexcept:
        cdef double ath
        if self.d.step == S_OVER:
            self.c_returns(out)
            return
        evaluate(&self.d, out)
        if self.d.swap:                             # out per side -> per seat
            ath = out[ATH]
            out[ATH] = out[SPA]
            out[SPA] = ath

    # --- Python face ------------------------------------------------------------------------------------------
    def _raw(self):
        return raw_dict(&self.d)

    def _set_raw(self, dict raw):
        """Load a raw field dict (as _raw() gives it; codec.py has checked it)."""
        raw_load(&self.d, raw)

    def _raw_view(self, int player):
        """The raw fields as seat ``player`` sees them."""
        cdef HData v = self.d
        blind(&v, player ^ self.d.swap)
        return raw_dict(&v)

    def side_of(self, int seat):
        """The side (0 Athens, 1 Sparta) seat plays: SIDE_SELECTION may have swapped them (spec 5.13)."""
        self._check_player(seat)
        return seat ^ self.d.swap

    def sides_set(self):
        """Whether the sides are settled (False only during SIDE_SELECTION's coin or bids, before the first
        New Year)."""
        return not choosing_sides(&self.d)

    def step_name(self):
        return STEP_NAMES[self.d.step]

    def scores(self):
        """The net prestige lead from each seat's point of view (its side's)."""
        lead = [-self.d.prestige, self.d.prestige]
        return [lead[self.d.swap], lead[1 - self.d.swap]]

    def observation(self, int player):
        self._check_player(player)
        from engine.games.hellas import codec
        return codec.observation(self, player)

    def action_to_str(self, int action):
        from engine.games.hellas import notation
        return notation.action_to_str(self, action)

    def str_to_action(self, str text):
        from engine.games.hellas import notation
        return notation.str_to_action(self, text)

    def to_json(self):
        from engine.games.hellas import codec
        return codec.to_json(self)

    def render(self, observer=None):
        from engine.games.hellas import render
        return render.render(self, observer)

    def _recompute(self):
        """Re-compute control and sieges now (as at the end of a phase; for tests and the codec)."""
        recompute(&self.d)

    def _derived_ok(self):
        """Whether the derived part kept move by move (who stands where, the Action phase's legal actions) equals
        a rebuild from the raw state (for tests)."""
        cdef HData fresh = self.d
        rebuild_derived(&fresh)
        return (memcmp(&fresh.nfield[0][0], &self.d.nfield[0][0], 4 * 2 * MAXA) == 0
                and memcmp(&fresh.o, &self.d.o, sizeof(Occ)) == 0
                and (self.d.step != S_ACTION or memcmp(&fresh.acts, &self.d.acts, sizeof(PhaseActs)) == 0))

    def _reach(self, int u, int refuge=0):
        """Destinations of unit u's move from here (area indices; a Winter refuge move with refuge; for tests)."""
        cdef uint64_t m = land_reach(&self.d, u, refuge)
        return [a for a in range(MAXA) if (m >> a) & 1]

    def _can_go(self, int u, int refuge=0):
        """can_go: whether unit u's move reaches somewhere, by its shortcut (for tests against _reach)."""
        return bool(can_go(&self.d, u, refuge))

    def _actions_for(self, int side, int card):
        """Actions a side gets playing card (index) for actions (spec 4.4; for tests)."""
        return action_count(&self.d, side, card, 0)


include "tables.pxi"


# constants for the Python modules (notation, codec, render)
ACTIONS = {"CARD": A_CARD, "PASS": A_PASS, "YES": A_YES, "MOVE": A_MOVE, "UNIT": A_UNIT, "DEST": A_DEST,
           "RNEW": A_RNEW, "RSTEP": A_RSTEP, "PILLAGE": A_PILLAGE, "SUPPLY": A_SUPPLY, "GARRISON": A_GARRISON,
           "PLACE": A_PLACE, "SIEGE": A_SIEGE, "TARGET": A_TARGET, "SIDE": A_SIDE, "DRAW": A_DRAW, "SUM": A_SUM,
           "HITS": A_HITS, "BATTLE": A_BATTLE, "FIRE": A_FIRE, "ASSAULT": A_ASSAULT,
           "MARCH": A_MARCH, "SALLY": A_SALLY, "COIN": A_COIN, "BID": A_BID, "NUM": NUM_ACTIONS}
SIZES = {"MAXA": MAXA, "MAXU": MAXU, "MAXC": MAXC, "POOL": POOL, "MAXBID": MAXBID, "STEP_BOUND": STEP_BOUND}


# The raw layout: three runs of fields (64-bit, 32-bit, 8-bit), each contiguous; _raw() and _set_raw() walk them.
WIDE_FIELDS = (("hand", 2), ("deck", 1), ("played", 1), ("inplay", 1), ("sieged", 1), ("supplied", 1),
               ("asked", 1), ("fought", 1), ("poss", MAXU))
INT_FIELDS = (("ds", 1), ("year", 1), ("season", 1), ("step", 1), ("cur", 1), ("turn", 1), ("first", 1),
              ("tix", 1), ("wstage", 1), ("active", 1), ("prestige", 1), ("winner", 1), ("level", 1),
              ("commit", 2), ("play", 2), ("actions", 1), ("refuge", 1), ("group", 1), ("unit", 1),
              ("free_move", 1), ("dealt", 1), ("leader", 2), ("favour", 2), ("quake_vs", 1), ("omen_vs", 1),
              ("famine", 1), ("plague_struck", 1), ("ev_side", 1), ("ev_card", 1), ("ev_left", 1), ("ny_next", 1),
              ("truce_side", 1), ("att_area", 1), ("att_dice", 1), ("atr_next", 1), ("ev_opt", 1),
              ("b_area", 1), ("b_att", 1), ("b_round", 1), ("b_letter", 1), ("b_side", 1), ("b_last", 1),
              ("b_firer", 1), ("b_lost", 1), ("b_routs", 1), ("b_rout_side", 1), ("b_stage", 1), ("b_retreat", 1),
              ("wd_area", 1), ("wd_unit", 1), ("r_unit", 1), ("mv_dest", 1), ("storm_n", 1),
              ("cargo", 1), ("b_kind", 1), ("b_bank", 1), ("treach", 1), ("g_fired", 1),
              ("march_to", 1), ("full_speed", 1), ("reroll", 1), ("swap", 1))
BYTE_FIELDS = (("loc", MAXU), ("steps", MAXU), ("incity", MAXU), ("moved", MAXU), ("raised", MAXU),
               ("revealed", MAXU), ("occ", MAXA), ("garrison", MAXA), ("pillaged", MAXA), ("civil", MAXA),
               ("ctrl", MAXA), ("cctrl", MAXA), ("besieged", MAXA), ("fresh", MAXA), ("routed", MAXU),
               ("came", MAXU), ("strait_in", MAXU), ("slo", MAXU), ("shi", MAXU), ("srel", MAXU),
               ("vcount", 2 * MAXA))


cdef dict raw_dict(HData* d):
    cdef uint64_t* w = &d.hand[0]
    cdef int* n = &d.ds
    cdef i8* b = &d.loc[0]
    out = {}
    for fields, kind in ((WIDE_FIELDS, 0), (INT_FIELDS, 1), (BYTE_FIELDS, 2)):
        for name, size in fields:
            vals = []
            for i in range(size):
                if kind == 0:
                    vals.append(w[0])
                    w += 1
                elif kind == 1:
                    vals.append(n[0])
                    n += 1
                else:
                    vals.append(b[0])
                    b += 1
            out[name] = vals if size > 1 or kind == 2 else vals[0]
    return out


cdef void raw_load(HData* d, dict raw) except *:
    """Fill d from a dict shaped like raw_dict (values already range-checked by codec.py)."""
    cdef uint64_t* w = &d.hand[0]
    cdef int* n = &d.ds
    cdef i8* b = &d.loc[0]
    memset(d, 0, sizeof(HData))
    for fields, kind in ((WIDE_FIELDS, 0), (INT_FIELDS, 1), (BYTE_FIELDS, 2)):
        for name, size in fields:
            vals = raw[name] if (size > 1 or kind == 2) else [raw[name]]
            for i in range(size):
                if kind == 0:
                    w[0] = vals[i]
                    w += 1
                elif kind == 1:
                    n[0] = vals[i]
                    n += 1
                else:
                    b[0] = vals[i]
                    b += 1
    rebuild_derived(d)


def _match_slots(masks, int forced=-1, int fbit=-1, seed=0, int tries=DRAW_TRIES):
    """determinize's matching (hidden.match_slots) on slot masks (side-local identity bits), for tests: (the
    identity picked for each slot, 0 if drawn or 1 if by augmenting paths), or None when there is no matching."""
    cdef uint64_t allowed[MAXU]
    cdef int pick[MAXU]
    cdef Rng rng
    cdef int n = len(masks), i, how
    if n > 64:
        raise ValueError("at most 64 slots")
    for i in range(n):
        allowed[i] = masks[i]
    rng_seed(&rng, seed)
    how = match_slots(allowed, n, forced, fbit, &rng, pick, tries)
    return None if how < 0 else ([pick[i] for i in range(n)], how)


def _check_layout():
    """The three runs are contiguous and have no padding, and the derived part follows them (info_key hashes
    the raw part whole)."""
    cdef HData probe
    cdef char* base = <char*>&probe
    wide = sum(n for _, n in WIDE_FIELDS) * 8
    ints = sum(n for _, n in INT_FIELDS) * 4
    size = sum(n for _, n in BYTE_FIELDS)
    if (<char*>&probe.ds - base != wide or <char*>&probe.loc[0] - base != wide + ints
            or raw_size() != wide + ints + size):
        raise AssertionError("hellas: HData layout does not match its field lists (padding or a field missing)")


_check_layout()

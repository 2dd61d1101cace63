# Hellas: hidden information (spec 7.2, 7.3). What one player sees (blind), what he sees of the other's actions
# (observe) and resampling what he cannot see (determinize).
#
# An enemy block the observer has not seen (revealed = 0: never shown, or moved, placed or given a step since it
# was last shown) is to him a *slot*: where it stands (area, in the field or inside the city), whether it moved,
# came from somewhere or crossed a strait this turn, whether it was raised as a barbarian, whether it is routed,
# which of the turn machinery's unit fields point at it, and what the block tracker (tracker.pxi) says he knows of
# it: the identities it may be and bounds on its steps. Which block fills which slot, and its steps, he does not
# know. So blind() writes the slots sorted by their description into the unseen blocks' indices (the view is the
# same for every way of filling the slots), and determinize() fills the slots with a perfect matching of the
# unseen blocks (the pool's included), each slot getting an identity its mask allows and its class may hold (a
# fleet at sea, a raised slot a barbarian, ...), drawn most constrained slot first; the steps are drawn within
# the slot's bounds. Revealed and eliminated blocks keep what they are.

DEF SLOT_SEA = 0            # slot classes, filled in this order (the most constrained first, so no draw dead-ends)
DEF SLOT_RAISED = 1         # a raised barbarian's slot (on the map, or the pool if a state file says so)
DEF SLOT_INLAND = 2         # a land slot no fleet may hold (no coast, or inside a city that is no port)
DEF SLOT_COAST = 3          # a land slot a fleet or a land unit may hold
DEF SLOT_POOL = 4
DEF NREFS = 6               # unit fields of the turn machinery that may point at an unseen block

# action_observation codes for an enemy block the observer has not seen (below HIDDEN_ACTION and the deal's -2)
DEF HIDDEN_RECRUIT = -3                 # a new block comes out of the pool (which one is not shown: spec 7.2 H5)
DEF HIDDEN_BLOCK = -16                  # - where: an unseen block of this area (field / inside) moves or embarks
DEF HIDDEN_STEP = -200                  # - where: a replacement step goes to a block of this area (H6)


cdef inline int* unit_ref(HData* d, int r) noexcept nogil:
    if r == 0:
        return &d.unit
    if r == 1:
        return &d.wd_unit
    if r == 2:
        return &d.r_unit
    if r == 3:
        return &d.cargo
    if r == 4:
        return &d.b_firer
    return &d.b_last


cdef inline int slot_class(HS* s, HData* d, int u) noexcept nogil:
    cdef int a = d.loc[u]
    if d.raised[u]:
        return SLOT_RAISED
    if a < 0:
        return SLOT_POOL
    if a >= s.nl:
        return SLOT_SEA
    if s.coast[a] == 0 or (d.incity[u] and s.site[a] != SITE_PORT):
        return SLOT_INLAND
    return SLOT_COAST


cdef inline int64_t slot_key(HS* s, HData* d, int u) noexcept nogil:
    """Everything the enemy sees of unseen block u, as one sortable number (the class first)."""
    cdef int64_t k = slot_class(s, d, u)
    cdef int r
    k = (k << 7) | (d.loc[u] + 1)
    k = (k << 1) | d.incity[u]
    k = (k << 1) | d.moved[u]
    k = (k << 1) | d.raised[u]
    k = (k << 1) | d.routed[u]
    k = (k << 1) | d.strait_in[u]
    k = (k << 7) | (d.came[u] + 1)
    for r in range(NREFS):
        k = (k << 1) | (unit_ref(d, r)[0] == u)
    return k


cdef struct Slot:
    # an unseen block as the enemy sees it: where it stands and what the turn machinery says of it (slot_key), and
    # what he knows of it (the tracker's mask and step bounds)
    int64_t key
    uint64_t poss
    int64_t steps               # the step bounds as one number (slo, shi, srel)


cdef inline int slot_before(Slot* x, Slot* y) noexcept nogil:
    if x.key != y.key:
        return x.key < y.key
    if x.poss != y.poss:
        return x.poss < y.poss
    return x.steps < y.steps


cdef inline void put_slot(HData* d, int u, Slot* slot) noexcept nogil:
    """Block u takes the slot (steps are set by the caller)."""
    cdef int r
    cdef int64_t k = slot.key
    for r in range(NREFS - 1, -1, -1):
        if k & 1:
            unit_ref(d, r)[0] = u
        k >>= 1
    d.came[u] = <i8>((k & 127) - 1)
    k >>= 7
    d.strait_in[u] = <i8>(k & 1)
    k >>= 1
    d.routed[u] = <i8>(k & 1)
    k >>= 1
    d.raised[u] = <i8>(k & 1)
    k >>= 1
    d.moved[u] = <i8>(k & 1)
    k >>= 1
    d.incity[u] = <i8>(k & 1)
    k >>= 1
    d.loc[u] = <i8>((k & 127) - 1)
    d.poss[u] = slot.poss
    d.slo[u] = <i8>((slot.steps >> 16) - 64)
    d.shi[u] = <i8>(((slot.steps >> 8) & 255) - 64)
    d.srel[u] = <i8>(slot.steps & 255)


cdef int unseen_slots(HData* d, int enemy, int* ids, Slot* slots) noexcept nogil:
    """The enemy's unseen blocks (ascending) and their slots (sorted); returns how many."""
    cdef HS* s = tab(d)
    cdef int n = 0, u, i, j
    cdef Slot k
    for u in range(s.nu):
        if s.u_side[u] == enemy and not d.revealed[u]:
            ids[n] = u
            k.key = slot_key(s, d, u)
            k.poss = d.poss[u]
            k.steps = ((<int64_t>d.slo[u] + 64) << 16) | ((d.shi[u] + 64) << 8) | d.srel[u]
            j = n
            while j > 0 and slot_before(&k, &slots[j - 1]):
                slots[j] = slots[j - 1]
                j -= 1
            slots[j] = k
            n += 1
    return n


cdef void blind(HData* v, int p) noexcept nogil:
    """v becomes what player p sees: the other hand only as part of the unseen cards (its size is public), the
    other's face-down card as committed but unknown, and unrevealed enemy blocks only as their slots with what
    he knows of them (sorted into the unseen blocks' indices, steps 0) and as counts per area in vcount. The
    derived part of v (who stands where) is left as it was: a view is only read raw and hashed, never played on."""
    cdef HS* s = tab(v)
    cdef int o = 1 - p, u, i, n
    cdef int ids[MAXU]
    cdef Slot slots[MAXU]
    v.deck |= v.hand[o]
    v.hand[o] = 0
    if v.commit[o] >= 0:
        v.commit[o] = -2
    if s.r_open or choosing_sides(v):               # before the sides are set the map is the public set-up
        return
    n = unseen_slots(v, o, ids, slots)
    for i in range(n):
        u = ids[i]
        put_slot(v, u, &slots[i])
        v.steps[u] = 0
        if v.loc[u] >= 0:
            v.vcount[v.loc[u] * 2 + v.incity[u]] += 1


cdef inline int slot_holds(HS* s, int cls, int u) noexcept nogil:
    """Whether block u may stand in a slot of class cls (spec 2.5, 6.8: fleets at sea or on a coast, land units
    on land, a barbarian on the map only as raised)."""
    if cls == SLOT_SEA:
        return s.u_type[u] == T_FLEET and not s.u_barb[u]
    if cls == SLOT_RAISED:
        return s.u_barb[u]
    if cls == SLOT_INLAND:
        return s.u_type[u] != T_FLEET and not s.u_barb[u]
    if cls == SLOT_COAST:
        return not s.u_barb[u]
    return 1


DEF DRAW_TRIES = 8          # random draws of a matching before the deterministic one


cdef inline int nth_bit(uint64_t m, int k) noexcept nogil:
    while k > 0:
        m &= m - 1
        k -= 1
    return __builtin_ctzll(m)


cdef int augment(uint64_t* allowed, int i, int* owner, uint64_t* tried) noexcept nogil:
    """Kuhn's augmenting path from slot i: give it an identity, moving others along (owner: identity -> slot)."""
    cdef uint64_t m = allowed[i] & ~tried[0]
    cdef int b
    while m:
        b = __builtin_ctzll(m)
        m &= m - 1
        tried[0] |= bit(b)
        if owner[b] < 0 or augment(allowed, owner[b], owner, tried):
            owner[b] = i
            return 1
    return 0


cdef int match_slots(uint64_t* allowed, int n, int forced, int fbit, Rng* rng, int* pick,
                     int tries) noexcept nogil:
    """pick[i]: a side-local identity for each slot i, each used once, within allowed[i]: slots drawn most
    constrained first, each among what is left; after `tries` dead ends, the first matching by augmenting
    paths. Slot forced (>= 0) gets identity fbit. Returns 0 (a draw), 1 (augmenting paths), or -1 when there is
    no such matching."""
    cdef int order[MAXU]
    cdef int owner[64]
    cdef int i, j, t, c, b, ok
    cdef uint64_t avail, m, tried
    for i in range(n):                              # by how many identities the slot allows (stable)
        c = popc(allowed[i])
        j = i
        while j > 0 and popc(allowed[order[j - 1]]) > c:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    for t in range(tries):
        avail = ~(<uint64_t>0)
        if forced >= 0:
            pick[forced] = fbit
            avail &= ~bit(fbit)
        ok = 1
        for j in range(n):
            i = order[j]
            if i == forced:
                continue
            m = allowed[i] & avail
            if m == 0:
                ok = 0
                break
            b = nth_bit(m, <int>rng_below(rng, popc(m)))
            pick[i] = b
            avail &= ~bit(b)
        if ok:
            return 0
    for b in range(64):
        owner[b] = -1
    if forced >= 0:
        owner[fbit] = forced
    for j in range(n):
        i = order[j]
        if i == forced:
            continue
        tried = bit(fbit) if forced >= 0 else 0
        if not augment(allowed, i, owner, &tried):
            return -1
    for b in range(64):
        if owner[b] >= 0:
            pick[owner[b]] = b
    return 1


cdef int resample_blocks(HData* d, int observer, Rng* rng, int force) noexcept nogil:
    """Fill the slots of the observer's unseen enemy blocks afresh (spec 7.3 item 2): each unseen block once, each
    slot with an identity its tracker mask allows and its class may hold (a perfect matching, match_slots), the
    steps drawn uniformly within the slot's bounds (tracker.pxi). Depends only on what the observer sees (the
    sorted slots with their masks, the set of unseen blocks) and the rng. With force >= 0, the first slot the
    turn machinery points at that may hold block force gets it. Returns 0, or -1 when no matching exists (a
    state no play reaches: the tracker always allows the true one; the state is then left as it was)."""
    cdef HS* s = tab(d)
    cdef int ids[MAXU]
    cdef int pick[MAXU]
    cdef Slot slots[MAXU]
    cdef uint64_t allowed[MAXU]
    cdef uint64_t unseen = 0
    cdef int o = 1 - observer, n, i, u, lo, hi, forced = -1, fbit = -1
    if s.r_open:
        return 0
    n = unseen_slots(d, o, ids, slots)
    for i in range(n):
        unseen |= own_bit(s, ids[i])
    for i in range(n):
        allowed[i] = slots[i].poss & unseen & s.holds[o][<int>(slots[i].key >> 25)]
        if force >= 0 and forced < 0 and slots[i].key & ((1 << NREFS) - 1) and (allowed[i] >> s.u_local[force]) & 1:
            forced = i
            fbit = s.u_local[force]
    if match_slots(allowed, n, forced, fbit, rng, pick, DRAW_TRIES) < 0:
        return -1
    for i in range(n):
        u = s.roster[o][pick[i]]
        put_slot(d, u, &slots[i])
        if d.loc[u] < 0:
            d.steps[u] = 0
        else:
            step_bounds(s, d, u, &lo, &hi)
            d.steps[u] = <i8>(lo + <int>rng_below(rng, hi - lo + 1))
    rebuild_derived(d)                  # a fleet and a land unit may have swapped slots, and so the actions
    return 0


cdef int playable(HData* d) noexcept nogil:
    """The player to move has a legal action (a chance node an outcome)."""
    cdef int buf[MAX_ACTIONS]
    cdef double probs[MAX_ACTIONS]
    if d.step == S_OVER or d.cur == TERMINAL:
        return 1
    if d.cur == CHANCE:
        return chance(d, buf, probs) > 0
    return legal(d, buf) > 0


cdef void determinize(HData* d, int observer, Rng* rng) noexcept nogil:
    """Resample the other hand from the unseen cards (its size kept), before the reveal the other's face-down
    card among its legal plays from that hand, and the identities and steps of the other's unseen blocks (spec
    7.3 items 1 to 3); while the sides are chosen, only the other's face-down bid."""
    cdef int o = 1 - observer, n, k, i, j
    cdef uint64_t unknown = d.deck | d.hand[o], pick = 0, rest
    if choosing_sides(d):                           # only the other's face-down bid is unknown (spec 5.13)
        if d.step == S_BID and d.commit[o] >= 0:
            d.commit[o] = <int>rng_below(rng, tab(d).r_bid_max + 1)
        return
    n = popc(d.hand[o])
    rest = unknown
    for i in range(n):
        j = nth_bit(rest, <int>rng_below(rng, popc(rest)))
        pick |= bit(j)
        rest &= ~bit(j)
    d.hand[o] = pick
    d.deck = rest
    if resample_blocks(d, observer, rng, -1) == 0 and not playable(d):
        # the block a pending decision is about must be one that can make it (the observer knows that much):
        # draw again, then try each unseen block in that slot in turn (the true one always can)
        for i in range(64):
            resample_blocks(d, observer, rng, -1)
            if playable(d):
                break
        else:
            for j in range(tab(d).nu):
                if tab(d).u_side[j] == o and not d.revealed[j]:
                    resample_blocks(d, observer, rng, j)
                    if playable(d):
                        break
    if d.step == S_CARD and d.commit[o] >= 0:
        k = card_choices(d, o, NULL_BUF)
        d.commit[o] = NULL_BUF[<int>rng_below(rng, k)] - A_CARD


cdef int rewind_card(HData* d, int observer) noexcept nogil:
    """Take back, on a determinization, the other side's face-down card of this season's secret choice (L40,
    L258: Sparta commits first, Athens does not see it until both are revealed), or the other seat's face-down bid
    for sides (spec 5.13), so that a search has it chosen again at its player's own node. The card stays in the
    hand (committing does not take it out)."""
    cdef int o = 1 - observer
    if (d.step != S_CARD and d.step != S_BID) or d.cur != observer or d.commit[o] < 0:
        return 0
    d.commit[o] = -1
    d.cur = o
    return 1


cdef int64_t observe(HData* d, int action, int player) noexcept nogil:
    """What player sees of action (spec 7.2): the other's face-down card and the cards dealt to the other hand
    are hidden; a move, an embarkation, an attrition hit or a replacement step of an enemy block he has not seen
    shows where it happened, not which block; a recruit shows that a block left the pool, not which."""
    cdef HS* s = tab(d)
    cdef int u
    if (d.step == S_CARD or d.step == S_BID) and d.cur != player:
        return HIDDEN_ACTION                    # the face-down card choice, or bid for sides
    if d.step == S_DEAL and deal_to(d) != player:
        return HIDDEN_ACTION - 1                # a card dealt to the other hand
    if d.cur == player or d.cur < 0 or s.r_open:
        return action
    if (d.step == S_MOVE_UNIT or d.step == S_CARGO or d.step == S_HIT) and A_UNIT <= action < A_UNIT + MAXU:
        u = action - A_UNIT
        if not d.revealed[u] or (d.step == S_HIT and d.att_area >= 0):    # an attrition hit is secret (H4)
            return HIDDEN_BLOCK - ((d.loc[u] + 1) * 2 + d.incity[u])
    elif d.step == S_ACTION and A_RNEW <= action < A_RSTEP:
        return HIDDEN_RECRUIT
    elif d.step == S_ACTION and A_RSTEP <= action < A_PILLAGE:
        u = action - A_RSTEP
        return HIDDEN_STEP - ((d.loc[u] + 1) * 2 + d.incity[u])
    return action

# Hellas: hidden information (spec 7.2, 7.3). What one player sees (blind), what he sees of the other's actions
# (observe) and resampling what he cannot see (determinize).
#
# The block tracker. An enemy block the observer has not seen (revealed = 0: never shown, or moved, placed or
# given a step since it was last shown) is to him a *slot*: where it stands (area, in the field or inside the
# city), whether it moved, came from somewhere or crossed a strait this turn, whether it was raised as a barbarian, whether it is
# routed, and which of the turn machinery's unit fields point at it. Which block fills which slot, and its steps,
# he does not know. So blind() writes the slots sorted by their description into the unseen blocks' indices (the
# view is the same for every way of filling the slots), and determinize() fills the slots, in that sorted order,
# with the unseen blocks drawn at random among those the slot can legally hold: a fleet at sea, a raised slot a
# barbarian, and so on (spec 7.3 item 2, with its practical simplification: every unseen block is sampled among
# all the side's unseen blocks, the pool's included). Revealed and eliminated blocks keep what they are.

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


cdef inline void put_slot(HData* d, int u, int64_t k) noexcept nogil:
    """Block u takes the slot k (steps are set by the caller)."""
    cdef int r
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


cdef int unseen_slots(HData* d, int enemy, int* ids, int64_t* keys) noexcept nogil:
    """The enemy's unseen blocks (ascending) and their slots (sorted); returns how many."""
    cdef HS* s = tab(d)
    cdef int n = 0, u, i, j
    cdef int64_t k
    for u in range(s.nu):
        if s.u_side[u] == enemy and not d.revealed[u]:
            ids[n] = u
            k = slot_key(s, d, u)
            j = n
            while j > 0 and keys[j - 1] > k:
                keys[j] = keys[j - 1]
                j -= 1
            keys[j] = k
            n += 1
    return n


cdef void blind(HData* v, int p) noexcept nogil:
    """v becomes what player p sees: the other hand only as part of the unseen cards (its size is public), the
    other's face-down card as committed but unknown, and unrevealed enemy blocks only as their slots (sorted into
    the unseen blocks' indices, steps 0) and as counts per area in vcount. The derived part of v (who stands
    where) is left as it was: a view is only read raw and hashed, never played on."""
    cdef HS* s = tab(v)
    cdef int o = 1 - p, u, i, n
    cdef int ids[MAXU]
    cdef int64_t keys[MAXU]
    v.deck |= v.hand[o]
    v.hand[o] = 0
    if v.commit[o] >= 0:
        v.commit[o] = -2
    if s.r_open or choosing_sides(v):               # before the sides are set the map is the public set-up
        return
    n = unseen_slots(v, o, ids, keys)
    for i in range(n):
        u = ids[i]
        put_slot(v, u, keys[i])
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


cdef inline int prior_steps(HS* s, HData* d, int u) noexcept nogil:
    """The steps an unseen block is given: what the scenario shows of it (its set-up strength, a new recruit's
    steps, a barbarian's full strength); later hidden losses and replacements are not tracked."""
    cdef int n
    if d.loc[u] < 0:
        return 0
    if s.u_barb[u]:
        n = s.u_max[u]
    elif s.u_start[u] >= 0:
        n = s.u_steps0[u]
    else:
        n = s.r_new_steps
    return 1 if n < 1 else s.u_max[u] if n > s.u_max[u] else n


cdef int resample_blocks(HData* d, int observer, Rng* rng, int force) noexcept nogil:
    """Fill the slots of the observer's unseen enemy blocks afresh (spec 7.3 item 2). Depends only on what the
    observer sees (the sorted slots, the set of unseen blocks) and the rng. With force >= 0, the first slot the
    turn machinery points at gets block force (when it may hold it). Returns 0, or -1 when a slot found no block
    it may hold (a state no play reaches; the state is then left as it was)."""
    cdef HS* s = tab(d)
    cdef int ids[MAXU]
    cdef int pick[MAXU]
    cdef int64_t keys[MAXU]
    cdef int n, i, j, m, k, cls, u
    if s.r_open:
        return 0
    n = unseen_slots(d, 1 - observer, ids, keys)
    for i in range(n):
        cls = <int>(keys[i] >> 25)
        m = 0
        for j in range(i, n):
            m += slot_holds(s, cls, ids[j])
        if m == 0:
            return -1
        k = <int>rng_below(rng, m)
        if force >= 0 and keys[i] & ((1 << NREFS) - 1) and slot_holds(s, cls, force):
            k = -1
            for j in range(i, n):
                k += slot_holds(s, cls, ids[j])
                if ids[j] == force:
                    break
            force = -1
        for j in range(i, n):           # the k-th fitting block still free moves to position i
            if slot_holds(s, cls, ids[j]):
                if k == 0:
                    u = ids[j]
                    while j > i:
                        ids[j] = ids[j - 1]
                        j -= 1
                    ids[i] = u
                    break
                k -= 1
        pick[i] = ids[i]
    for i in range(n):
        u = pick[i]
        put_slot(d, u, keys[i])
        d.steps[u] = prior_steps(s, d, u)
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
    cdef int o = 1 - observer, n, k, c, i, j
    cdef uint64_t unknown = d.deck | d.hand[o], pick = 0, rest
    if choosing_sides(d):                           # only the other's face-down bid is unknown (spec 5.13)
        if d.step == S_BID and d.commit[o] >= 0:
            d.commit[o] = <int>rng_below(rng, tab(d).r_bid_max + 1)
        return
    n = popc(d.hand[o])
    rest = unknown
    for i in range(n):
        k = <int>rng_below(rng, popc(rest))
        c = 0
        for j in range(64):
            if (rest >> j) & 1:
                if c == k:
                    pick |= bit(j)
                    rest &= ~bit(j)
                    break
                c += 1
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

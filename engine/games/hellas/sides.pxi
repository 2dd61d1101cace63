# Hellas: who plays which side (spec 5.13, rulebook L16: sides are chosen at random or by bidding prestige), before
# the first New Year. SIDE_SELECTION assigned: seat s plays side s (swap stays 0). random: a fair coin sets swap.
# bid (the procedure is ASSUMED, spec 5.13): each seat secretly bids a whole number of prestige, 0 to
# AUTO_VICTORY_LEAD - 1, sequentialised as the season's card choice is (seat 0 commits face down, then seat 1, who
# does not see it); the bids wait in commit[] and, once both are in, are shown in play[]; the higher bidder picks
# the side he plays and the net prestige starts his bid in favour of the other side; tied bids: a coin says who
# picks. Until the sides are set swap is 0, so seats stand in for sides in these steps, and nobody holds private
# information yet but his own bid (the set-up is the scenario's, public).

DEF SEL_RANDOM = 1          # SIDE_SELECTION, as tables.pxi numbers it: 0 assigned, 1 random, 2 bid


cdef inline int choosing_sides(HData* d) noexcept nogil:
    return d.step == S_SIDES or d.step == S_BID or d.step == S_PICK


cdef void start_sides(HData* d) noexcept nogil:
    d.deck = out_of_play(d)                         # the cards wait in the deck for the first deal
    if tab(d).r_sides == SEL_RANDOM:
        d.step = S_SIDES
        d.cur = CHANCE
    else:
        d.step = S_BID
        d.cur = 0


cdef int side_choices(HData* d, int* out) noexcept nogil:
    """S_BID: every bid from 0 to the largest; S_PICK: Athens or Sparta."""
    cdef int k, n = tab(d).r_bid_max + 1
    if d.step == S_PICK:
        out[0] = A_SIDE + ATH
        out[1] = A_SIDE + SPA
        return 2
    for k in range(n):
        out[k] = A_BID + k
    return n


cdef void apply_sides(HData* d, int action) noexcept nogil:
    cdef int seat = d.cur, side, bid
    if d.step == S_SIDES:
        if d.play[0] < 0:                           # random: the coin says which side seat 0 plays
            d.swap = action - A_COIN
            sides_set(d)
        else:                                       # tied bids: the coin says which seat picks
            d.step = S_PICK
            d.cur = action - A_COIN
    elif d.step == S_BID:
        d.commit[seat] = action - A_BID
        if seat == 0:
            d.cur = 1
            return
        d.play[0] = d.commit[0]                     # both bids revealed together
        d.play[1] = d.commit[1]
        d.commit[0] = d.commit[1] = -1
        if d.play[0] == d.play[1]:
            d.step = S_SIDES
            d.cur = CHANCE
        else:
            d.step = S_PICK
            d.cur = 0 if d.play[0] > d.play[1] else 1
    else:                                           # S_PICK
        side = action - A_SIDE
        bid = d.play[seat]
        d.swap = seat ^ side
        d.prestige += bid if side == ATH else -bid  # the other side starts bid ahead (> 0: Sparta leads)
        sides_set(d)


cdef void sides_set(HData* d) noexcept nogil:
    d.play[0] = d.play[1] = -1
    start_year(d)

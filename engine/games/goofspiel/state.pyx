"""Goofspiel state on the Kleos contract (engine/core.pxd). Rules: docs/rules/goofspiel.md.

Each round a prize card is revealed (chance); then every player, in seat order, commits a bid card face down
(the others see that a bid was made, not which); when all have bid the bids are revealed, the single highest bid
wins the prize's value (tied highest bids: the prize is discarded) and the bid cards are spent.
"""
from libc.math cimport exp
from libc.stdint cimport int64_t, uint32_t, uint64_t

from engine.core import dead_end
from engine.core cimport CHANCE, HIDDEN_ACTION, MAX_PLAYERS, TERMINAL, Game, State, returns_from_keys
from engine.hashing cimport hash_bytes, hash_mix
from engine.rng cimport Rng, rng_below
from engine.errors import BadMoveError, BadStateError

cdef enum Phase:
    PRIZE = 0      # chance reveals the next prize
    BIDDING = 1
    OVER = 2


cdef struct GoofData:
    int players
    int cards
    int round                      # rounds completed
    int phase
    int to_bid                     # seat that bids next (BIDDING)
    int prize                      # current prize card index, -1 before the first reveal
    uint32_t deck                  # prize cards not yet revealed (bit c = card c)
    uint32_t hand[MAX_PLAYERS]     # cards each player has not yet revealed (a committed bid is still in it)
    int bid[MAX_PLAYERS]           # this round's committed bid, -1 if none yet (secret until the reveal)
    int last_bid[MAX_PLAYERS]      # the bids revealed at the end of the previous round, -1 before
    int points[MAX_PLAYERS]


cdef inline int popcount(uint32_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline double hand_value(uint32_t x) noexcept nogil:
    """Sum of the card values (index + 1) in a hand."""
    cdef double v = 0
    cdef int c = 0
    while x:
        if x & 1u:
            v += c + 1
        x >>= 1
        c += 1
    return v


cdef inline int nth_bit(uint32_t x, int k) noexcept nogil:
    """Index of the k-th set bit of x (k from 0)."""
    cdef int c = 0
    while True:
        if x & (1u << c):
            if k == 0:
                return c
            k -= 1
        c += 1


cdef class GoofspielGame(Game):
    def __init__(self, dict options):
        super().__init__("goofspiel", options, options["players"], options["cards"])

    cpdef State new_initial_state(self):
        cdef GoofspielState s = GoofspielState.__new__(GoofspielState)
        cdef int p
        s.game = self
        s.num_players = self.num_players
        s.d.players = self.num_players
        s.d.cards = self.num_distinct_actions
        s.d.round = 0
        s.d.phase = PRIZE
        s.d.to_bid = 0
        s.d.prize = -1
        s.d.deck = (1u << s.d.cards) - 1
        for p in range(MAX_PLAYERS):
            s.d.hand[p] = s.d.deck if p < s.d.players else 0
            s.d.bid[p] = -1
            s.d.last_bid[p] = -1
            s.d.points[p] = 0
        return s

    def state_from_json(self, obj):
        return GoofspielState.from_json(self, obj)


cdef class GoofspielState(State):
    cdef GoofData d

    # --- C contract ------------------------------------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        if self.d.phase == PRIZE:
            return CHANCE
        if self.d.phase == OVER:
            return TERMINAL
        return self.d.to_bid

    cdef int c_legal_actions(self, int* out) noexcept:
        if self.d.phase != BIDDING:
            return 0
        cdef uint32_t h = self.d.hand[self.d.to_bid]
        cdef int n = 0, c
        for c in range(self.d.cards):
            if h & (1u << c):
                out[n] = c
                n += 1
        return n

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept:
        if self.d.phase != PRIZE:
            return 0
        cdef int n = 0, c
        cdef double p = 1.0 / popcount(self.d.deck)
        for c in range(self.d.cards):
            if self.d.deck & (1u << c):
                actions[n] = c
                probs[n] = p
                n += 1
        return n

    cdef void c_apply(self, int action) noexcept:
        cdef int p, best, winners, winner
        if self.d.phase == PRIZE:
            self.d.deck &= ~(1u << action)
            self.d.prize = action
            self.d.phase = BIDDING
            self.d.to_bid = 0
            return
        self.d.bid[self.d.to_bid] = action
        self.d.to_bid += 1
        if self.d.to_bid < self.d.players:
            return
        # everyone has bid: reveal, score, spend the cards
        best = -1
        winners = 0
        winner = -1
        for p in range(self.d.players):
            if self.d.bid[p] > best:
                best = self.d.bid[p]
                winners = 1
                winner = p
            elif self.d.bid[p] == best:
                winners += 1
        if winners == 1:
            self.d.points[winner] += self.d.prize + 1
        for p in range(self.d.players):
            self.d.hand[p] &= ~(1u << self.d.bid[p])
            self.d.last_bid[p] = self.d.bid[p]
            self.d.bid[p] = -1
        self.d.round += 1
        self.d.phase = OVER if self.d.round == self.d.cards else PRIZE

    cdef State c_clone(self):
        cdef GoofspielState s = GoofspielState.__new__(GoofspielState)
        s.game = self.game
        s.num_players = self.num_players
        s.d = self.d
        return s

    cdef void c_copy_from(self, State other) noexcept:
        self.d = (<GoofspielState>other).d

    cdef void c_determinize(self, int observer, Rng* rng) noexcept:
        # Hidden: the committed, unrevealed bids of the others. Any card still in a hand may be its bid.
        cdef int q
        for q in range(self.d.players):
            if q != observer and self.d.bid[q] >= 0:
                self.d.bid[q] = nth_bit(self.d.hand[q], <int>rng_below(rng, popcount(self.d.hand[q])))

    cdef uint64_t c_info_key(self, int player) noexcept:
        cdef uint64_t h = hash_mix(0x600F, <uint64_t>player)
        h = hash_mix(h, <uint64_t>(self.d.round | (self.d.phase << 8) | (self.d.to_bid << 16)))
        h = hash_mix(h, <uint64_t>(self.d.prize + 1) | (<uint64_t>self.d.deck << 32))
        h = hash_bytes(h, self.d.hand, sizeof(self.d.hand))
        h = hash_bytes(h, self.d.last_bid, sizeof(self.d.last_bid))
        h = hash_bytes(h, self.d.points, sizeof(self.d.points))
        return hash_mix(h, <uint64_t>(self.d.bid[player] + 1))     # one's own bid, never the others'

    cdef int c_rewind_pending(self, int observer) noexcept:
        # The bids made before observer's in this round are face down: take them back (their cards stay in the
        # hands, as a committed bid does) and let the first bidder bid again.
        if self.d.phase != BIDDING or self.d.to_bid != observer:
            return 0
        cdef int q
        for q in range(observer):
            self.d.bid[q] = -1
        self.d.to_bid = 0
        return observer

    cdef int64_t c_action_observation(self, int action, int player) noexcept:
        if self.d.phase == BIDDING and self.d.to_bid != player:
            return HIDDEN_ACTION
        return action

    cdef void c_returns(self, double* out) noexcept:
        cdef double keys[MAX_PLAYERS]
        cdef int p
        for p in range(self.d.players):
            keys[p] = self.d.points[p]
        returns_from_keys(keys, self.d.players, out)

    cdef void c_evaluate(self, double* out) noexcept:
        # Points won plus the prizes still to come shared in proportion to the bid values left in hand; each
        # pair of players compared through a logistic of the difference (a smooth estimate of rank returns).
        cdef double est[MAX_PLAYERS]
        cdef double left = 0, power = 0, z, scale
        cdef int p, q, c
        for c in range(self.d.cards):
            if self.d.deck & (1u << c):
                left += c + 1
        if self.d.phase == BIDDING:
            left += self.d.prize + 1
        for p in range(self.d.players):
            power += hand_value(self.d.hand[p])
        for p in range(self.d.players):
            est[p] = self.d.points[p] + (left * hand_value(self.d.hand[p]) / power if power > 0 else 0)
        scale = 1.0 + left / 4.0            # the more is still to play for, the less a lead is worth
        for p in range(self.d.players):
            z = 0
            for q in range(self.d.players):
                if q != p:
                    z += 1.0 / (1.0 + exp(-(est[p] - est[q]) / scale))
            out[p] = z / (self.d.players - 1)

    # --- Python face ------------------------------------------------------------------------------------------
    def scores(self):
        return [self.d.points[p] for p in range(self.d.players)]

    def _cards(self, uint32_t mask):
        return [c + 1 for c in range(self.d.cards) if mask & (1u << c)]

    def observation(self, int player):
        self._check_player(player)
        return {
            "round": self.d.round,
            "phase": ("prize", "bidding", "over")[self.d.phase],
            "prize": self.d.prize + 1 if self.d.prize >= 0 else None,
            "prize_deck": self._cards(self.d.deck),
            "hands": [self._cards(self.d.hand[p]) for p in range(self.d.players)],
            "has_bid": [self.d.bid[p] >= 0 for p in range(self.d.players)],
            "my_bid": self.d.bid[player] + 1 if self.d.bid[player] >= 0 else None,
            "last_bids": [self.d.last_bid[p] + 1 if self.d.last_bid[p] >= 0 else None for p in range(self.d.players)],
            "points": self.scores(),
            "to_move": self.c_current_player(),
        }

    def action_to_str(self, int action):
        if not 0 <= action < self.d.cards:
            raise BadMoveError(f"goofspiel: action {action} is out of range 0..{self.d.cards - 1}")
        return f"prize:{action + 1}" if self.d.phase == PRIZE else f"bid:{action + 1}"

    def str_to_action(self, str text):
        kind, _, value = text.strip().lower().partition(":")
        expected = "prize" if self.d.phase == PRIZE else "bid"
        if self.d.phase == OVER:
            raise BadMoveError(f"goofspiel: the game is over; {text!r} is no move")
        if kind != expected or not value.isdigit():
            raise BadMoveError(f"goofspiel: {text!r} is no move here; expected {expected}:<card 1..{self.d.cards}>")
        action = int(value) - 1
        legal = [a for a, _ in self.chance_outcomes()] if self.d.phase == PRIZE else self.legal_actions()
        if action not in legal:
            raise BadMoveError(f"goofspiel: {text!r} is not available; choose from "
                               f"{', '.join(self.action_to_str(a) for a in legal)}")
        return action

    def to_json(self):
        n = self.d.players
        return {
            "players": n, "cards": self.d.cards, "round": self.d.round,
            "phase": ("prize", "bidding", "over")[self.d.phase], "to_bid": self.d.to_bid,
            "prize": self.d.prize + 1 if self.d.prize >= 0 else None,
            "prize_deck": self._cards(self.d.deck),
            "hands": [self._cards(self.d.hand[p]) for p in range(n)],
            "bids": [self.d.bid[p] + 1 if self.d.bid[p] >= 0 else None for p in range(n)],
            "last_bids": [self.d.last_bid[p] + 1 if self.d.last_bid[p] >= 0 else None for p in range(n)],
            "points": self.scores(),
        }

    @staticmethod
    def from_json(GoofspielGame game, obj):
        """Rebuild a state, checking every field and the rules that tie them together. Every value is checked
        (type and range) before any C field is set, so bad input is a BadStateError, never a TypeError."""
        def fail(msg):
            raise BadStateError(f"goofspiel state: {msg}")

        def integer(value, lo, hi, what):
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                fail(f"{what} = {value!r} must be an integer in {lo}..{hi}")
            return value

        if not isinstance(obj, dict):
            fail(f"expected a JSON object, got {type(obj).__name__}")
        need = ("players", "cards", "round", "phase", "to_bid", "prize", "prize_deck", "hands", "bids",
                "last_bids", "points")
        missing = [k for k in need if k not in obj]
        if missing:
            fail(f"missing field(s) {', '.join(missing)}")
        n, k = obj["players"], obj["cards"]
        if isinstance(n, bool) or isinstance(k, bool) or n != game.num_players or k != game.num_distinct_actions:
            fail(f"players={n!r}, cards={k!r} do not match the game ({game.num_players}, "
                 f"{game.num_distinct_actions})")
        phases = ("prize", "bidding", "over")
        if obj["phase"] not in phases:
            fail(f"phase {obj['phase']!r} is not one of {phases}")
        phase = phases.index(obj["phase"])
        rnd = integer(obj["round"], 0, k, "round")
        if (phase == OVER) != (rnd == k):
            fail(f"phase {obj['phase']!r} does not fit round {rnd} of {k}")

        def card(value, what, allow_none=False):
            if value is None and allow_none:
                return -1
            return integer(value, 1, k, f"{what} (cards 1..{k})") - 1

        def mask(cards, what):
            if not isinstance(cards, list):
                fail(f"{what} must be a list of cards 1..{k}, got {cards!r}")
            m = 0
            for c in cards:
                c = card(c, f"a card of {what}")
                if m >> c & 1:
                    fail(f"{what} holds a card twice ({c + 1})")
                m |= 1 << c
            return m

        def per_player(field):
            v = obj[field]
            if not isinstance(v, list) or len(v) != n:
                fail(f"{field} must have one entry per player ({n})")
            return v

        deck = mask(obj["prize_deck"], "prize_deck")
        if popcount(deck) != k - rnd - (1 if phase == BIDDING else 0):
            fail(f"the prize deck holds {popcount(deck)} cards, which does not fit round {rnd} ({obj['phase']})")
        # the bidder: 0..n-1 while bidding; between rounds 0 or n (all have bid; the next reveal resets it)
        to_bid = integer(obj["to_bid"], 0, n, "to_bid")
        if phase == BIDDING and to_bid == n:
            fail(f"to_bid {to_bid} out of range 0..{n - 1} while bidding")
        prize = card(obj["prize"], "prize", allow_none=True)
        if (prize < 0) != (phase == PRIZE and rnd == 0):
            fail(f"prize {obj['prize']!r}: a prize is shown from the first reveal on, and only then")
        if prize >= 0 and deck >> prize & 1:
            fail(f"prize {prize + 1} is shown but still in the prize deck")
        hands_in, bids_in, last_in, points_in = (per_player(f) for f in ("hands", "bids", "last_bids", "points"))
        hands, bids, last, points = [], [], [], []
        for p in range(n):
            h = mask(hands_in[p], f"hands[{p}]")
            if popcount(h) != k - rnd:
                fail(f"player {p} holds {popcount(h)} cards after {rnd} rounds; must hold {k - rnd}")
            b = card(bids_in[p], f"bids[{p}]", allow_none=True)
            if b >= 0 and not h >> b & 1:
                fail(f"player {p} bid {b + 1}, a card not in their hand")
            if phase == BIDDING and (b >= 0) != (p < to_bid):
                fail(f"players before to_bid={to_bid} must have bid and the rest not (player {p})")
            if phase != BIDDING and b >= 0:
                fail("bids can be pending only in the bidding phase")
            lb = card(last_in[p], f"last_bids[{p}]", allow_none=True)
            if (lb >= 0) != (rnd > 0):
                fail(f"last_bids[{p}]: the bids of the previous round are shown from round 2 on, and only then")
            if lb >= 0 and h >> lb & 1:
                fail(f"player {p}'s last bid {lb + 1} is spent, yet still in their hand")
            hands.append(h)
            bids.append(b)
            last.append(lb)
            points.append(integer(points_in[p], 0, k * (k + 1) // 2, f"points[{p}] (non-negative)"))
        # points come only from prizes already scored: those revealed, less the one being bid for
        scored = sum(c + 1 for c in range(k) if not deck >> c & 1) - (prize + 1 if phase == BIDDING else 0)
        if sum(points) > scored:
            fail(f"points total {sum(points)} exceeds the {scored} points of the prizes scored so far")

        cdef GoofspielState s = game.new_initial_state()
        s.d.round = rnd
        s.d.phase = phase
        s.d.to_bid = to_bid
        s.d.prize = prize
        s.d.deck = deck
        for p in range(n):
            s.d.hand[p] = hands[p]
            s.d.bid[p] = bids[p]
            s.d.last_bid[p] = last[p]
            s.d.points[p] = points[p]
        problem = dead_end(s)
        if problem:
            fail(problem)
        return s

    def render(self, observer=None):
        lines = [f"Goofspiel, {self.d.players} players, round {self.d.round + (self.d.phase != OVER)}/{self.d.cards}"]
        if self.d.prize >= 0 and self.d.phase == BIDDING:
            lines.append(f"Prize up for bidding: {self.d.prize + 1}")
        lines.append(f"Prizes still to come: {' '.join(map(str, self._cards(self.d.deck))) or '-'}")
        for p in range(self.d.players):
            if self.d.bid[p] < 0:
                bid = "not yet bid"
            elif observer is None or observer == p:
                bid = f"bid {self.d.bid[p] + 1}"
            else:
                bid = "bid (face down)"
            me = " (you)" if observer == p else ""
            last = f", last bid {self.d.last_bid[p] + 1}" if self.d.last_bid[p] >= 0 else ""
            lines.append(f"  P{p}{me}: {self.d.points[p]:3d} points, hand "
                         f"{' '.join(map(str, self._cards(self.d.hand[p])))}; {bid}{last}")
        return "\n".join(lines)

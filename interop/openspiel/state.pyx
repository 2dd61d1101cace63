"""An OpenSpiel game on Kleos's contract (engine/core.pxd), so that Kleos's referee and searchers play it.

Kleos's searchers call the C-level ``c_*`` methods of ``engine.core.State``; only a Cython class can override them,
so this one does, and forwards each to the OpenSpiel state it holds (a Python object) and to the game's
``interop.openspiel.bridge.Bridge``. That costs a Python call or more per step: searchers run on an OpenSpiel game
at its speed, not Kleos's (docs/openspiel.md measures it). The methods are ``noexcept`` like the contract's: an
exception inside one is reported on stderr and cannot stop the search, so everything that can fail is checked
before a search starts (a game that cannot be determinized fails in ``determinize``, which the referee calls for
every view).
"""
from libc.stdint cimport int64_t, uint64_t

from engine.core cimport CHANCE, MAX_ACTIONS, MAX_PLAYERS, TERMINAL, Game, State, returns_from_keys
from engine.rng cimport RNG, Rng, rng_uniform
from engine.errors import BadMoveError, BadStateError, IllegalActionError


cdef class _Uniform:
    """``uniform()`` in [0, 1) drawn from a Kleos Rng: OpenSpiel's resamplers take such a callable."""
    cdef Rng* rng

    def __call__(self):
        return rng_uniform(self.rng)


cdef class OpenSpielGame(Game):
    """``name`` is the Kleos name (``openspiel:<game string>``); ``bridge`` the OpenSpiel game behind it.

    ``options["returns"]``: ``rank`` (Kleos's convention: 1 first, 0 last, ties share) or ``utility`` (OpenSpiel's
    utilities mapped linearly from [min_utility, max_utility] onto [0, 1], for games played for a margin, such as
    poker's chips)."""
    cdef readonly object bridge
    cdef bint by_utility
    cdef double low, span

    def __init__(self, str name, dict options, bridge):
        super().__init__(name, options, bridge.num_players, bridge.num_distinct_actions)
        self.bridge = bridge
        self.by_utility = options.get("returns", "rank") == "utility"
        self.low = bridge.game.min_utility()
        self.span = bridge.game.max_utility() - self.low
        if self.by_utility and not self.span > 0:
            raise ValueError(f"{name}: returns=utility needs a game whose utilities span a range")

    cpdef State new_initial_state(self):
        return wrap(self, self.bridge.game.new_initial_state())

    def state_from_json(self, obj):
        if not isinstance(obj, dict) or "history" not in obj:
            raise BadStateError(f"openspiel state: expected an object with a 'history' list, got {obj!r:.80}")
        return wrap(self, self.bridge.state_from_history(obj["history"]))


cdef OpenSpielState wrap(OpenSpielGame game, object os_state):
    cdef OpenSpielState s = OpenSpielState.__new__(OpenSpielState)
    s.game = game
    s.num_players = game.num_players
    s.bridge = game.bridge
    s.set_state(os_state)
    return s


cdef class OpenSpielState(State):
    cdef readonly object os_state      # the OpenSpiel state (owned: never shared with another wrapper)
    cdef object bridge
    cdef int player                    # cached current player in Kleos's numbering
    cdef dict seen                     # player -> {action: observation}, for this position

    cdef void set_state(self, object os_state):
        self.os_state = os_state
        self.seen = None
        if os_state.is_terminal():
            self.player = TERMINAL
        elif os_state.is_chance_node():
            self.player = CHANCE
        else:
            self.player = os_state.current_player()

    # --- the C contract, forwarded ------------------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        return self.player

    cdef int c_legal_actions(self, int* out) noexcept:
        if self.player < 0:
            return 0
        cdef int n = 0
        for a in self.os_state.legal_actions():
            if n == MAX_ACTIONS:        # checked by legal_actions() below; a searcher sees the first ones
                break
            out[n] = a
            n += 1
        return n

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept:
        if self.player != CHANCE:
            return 0
        cdef int n = 0
        for a, p in self.os_state.chance_outcomes():
            if n == MAX_ACTIONS:
                break
            actions[n] = a
            probs[n] = p
            n += 1
        return n

    cdef void c_apply(self, int action) noexcept:
        self.os_state.apply_action(action)
        self.set_state(self.os_state)

    cdef State c_clone(self):
        cdef OpenSpielState s = OpenSpielState.__new__(OpenSpielState)
        s.game = self.game
        s.num_players = self.num_players
        s.bridge = self.bridge
        s.os_state = self.os_state.clone()
        s.player = self.player
        s.seen = self.seen           # read-only once built, and about this same position
        return s

    cdef void c_copy_from(self, State other) noexcept:
        cdef OpenSpielState o = <OpenSpielState>other
        self.os_state = o.os_state.clone()
        self.player = o.player
        self.seen = o.seen

    cdef void c_determinize(self, int observer, Rng* rng) noexcept:
        cdef _Uniform uniform = _Uniform.__new__(_Uniform)
        uniform.rng = rng
        self.set_state(self.bridge.resample(self.os_state, observer, uniform))

    cdef uint64_t c_info_key(self, int player) noexcept:
        return self.bridge.info_key(self.os_state, player)

    cdef int64_t c_action_observation(self, int action, int player) noexcept:
        if self.bridge.perfect or player == self.player:
            return action
        if self.seen is None:
            self.seen = {}
        classes = self.seen.get(player)
        if classes is None:
            classes = self.seen[player] = self.bridge.observation_classes(self.os_state, player)
        return classes.get(action, action)

    cdef void c_returns(self, double* out) noexcept:
        cdef double keys[MAX_PLAYERS]
        cdef int p
        cdef OpenSpielGame game = <OpenSpielGame>self.game
        values = self.os_state.returns()
        for p in range(self.num_players):
            keys[p] = values[p]
        if game.by_utility:
            for p in range(self.num_players):
                out[p] = min(1.0, max(0.0, (keys[p] - game.low) / game.span))
        else:
            returns_from_keys(keys, self.num_players, out)

    cdef void c_evaluate(self, double* out) noexcept:
        # OpenSpiel games carry no heuristic: a depth-limited search scores the cut-off as an even share
        cdef int p
        for p in range(self.num_players):
            out[p] = 0.5

    # --- Python face ----------------------------------------------------------------------------------------
    def legal_actions(self):
        actions = list(self.os_state.legal_actions()) if self.player >= 0 else []
        if len(actions) > MAX_ACTIONS:
            raise BadStateError(f"{self.game.name}: {len(actions)} legal actions here, more than Kleos's searchers "
                                f"take ({MAX_ACTIONS})")
        return actions

    def determinize(self, int observer, rng=0):
        """A copy in which all that ``observer`` cannot see is resampled (see engine.core.State.determinize).

        Raises ``NotDeterminizable`` naming the problem when the game hides information it cannot resample."""
        self._check_player(observer)
        if self.bridge.why_not is not None:
            from interop.openspiel.bridge import NotDeterminizable
            raise NotDeterminizable(self.bridge.why_not)
        cdef RNG stream = rng if isinstance(rng, RNG) else RNG(rng)
        cdef _Uniform uniform = _Uniform.__new__(_Uniform)
        uniform.rng = &stream.state
        return wrap(<OpenSpielGame>self.game, self.bridge.resample(self.os_state, observer, uniform))

    def scores(self):
        """OpenSpiel's returns (its utilities); Kleos's returns() are the ranks they give."""
        return list(self.os_state.returns())

    def observation(self, int player):
        self._check_player(player)
        out = {"to_move": self.player}
        if self.bridge.perfect:
            out["state"] = str(self.os_state)
        if self.bridge.has_infostate:
            out["information_state"] = self.os_state.information_state_string(player)
        if self.bridge.has_observation:
            out["observation"] = self.os_state.observation_string(player)
        return out

    def action_to_str(self, int action):
        mover = self.player if self.player >= 0 else -1
        return self.os_state.action_to_string(mover, action)

    def str_to_action(self, str text):
        wanted = text.strip()
        candidates = [a for a, _ in self.chance_outcomes()] if self.player == CHANCE else self.legal_actions()
        for a in candidates:
            if self.action_to_str(a) == wanted:
                return a
        if wanted.lstrip("-").isdigit() and int(wanted) in candidates:
            return int(wanted)
        shown = ", ".join(repr(self.action_to_str(a)) for a in candidates[:12])
        raise BadMoveError(f"{self.game.name}: {text!r} is no legal move here; legal: {shown}"
                           + (" ..." if len(candidates) > 12 else ""))

    def to_json(self):
        return {"game": self.bridge.game_string, "history": [int(a) for a in self.os_state.history()]}

    def render(self, observer=None):
        if observer is None or self.bridge.perfect:
            return str(self.os_state)
        if self.bridge.has_infostate:
            return self.os_state.information_state_string(observer)
        if self.bridge.has_observation:
            return self.os_state.observation_string(observer)
        return f"(player {observer} sees nothing OpenSpiel can show)"

"""The game contract: ``Game`` and ``State`` base classes (see core.pxd for the C-level methods).

A game subclasses both, overrides every ``c_*`` method and the Python methods marked "game-defined" below.
The Python methods here are the checked face of the contract: they validate input and raise the errors of
``engine.errors``; the ``c_*`` methods are unchecked and fast, for searchers.
"""
from libc.stdint cimport int64_t, uint64_t
from libc.stdio cimport fprintf, stderr
from libc.stdlib cimport abort

from engine.rng cimport RNG, Rng, rng_seed, rng_uniform
from engine.errors import IllegalActionError, KleosError, NoLegalActionError


cdef void _missing(const char* what) noexcept:
    # A game that forgot to override a C method is a programming error that must not go unnoticed.
    fprintf(stderr, b"kleos: game does not implement State.%s\n", what)
    abort()


cdef int sample_chance_outcome(State state, Rng* rng) noexcept:
    cdef int actions[MAX_ACTIONS]
    cdef double probs[MAX_ACTIONS]
    cdef int n = state.c_chance_outcomes(actions, probs)
    if n <= 0:
        return -1                               # a broken state: the caller raises no_legal_action()
    cdef double u = rng_uniform(rng)
    cdef double acc = 0.0
    cdef int i
    for i in range(n - 1):
        acc += probs[i]
        if u < acc:
            return actions[i]
    return actions[n - 1]


cdef void returns_from_keys(const double* keys, int n, double* out) noexcept nogil:
    cdef int i, j, better, equal
    if n == 1:
        out[0] = 1.0
        return
    for i in range(n):
        better = 0
        equal = 0
        for j in range(n):
            if keys[j] > keys[i]:
                better += 1
            elif keys[j] == keys[i]:
                equal += 1
        # tied players share the mean of the places they occupy
        out[i] = 1.0 - (better + (equal - 1) * 0.5) / (n - 1)


def position_phase(State state):
    """The phase (or step) a state is in, by its to_json(), for error messages; "unknown" if it has none."""
    try:
        obj = state.to_json()
    except Exception:
        return "unknown"
    for key in ("phase", "step"):
        if isinstance(obj, dict) and key in obj:
            return str(obj[key])
    return "unknown"


def no_legal_action(State state, str where):
    """The NoLegalActionError for a state stuck at a decision without a legal action (or a chance node without
    an outcome), naming the game, the seat, the phase and who found it."""
    player = state.c_current_player()
    who = "chance" if player == CHANCE else f"player {player}"
    what = "outcome" if player == CHANCE else "legal action"
    return NoLegalActionError(
        f"{state.game.name}: {who} is to move in phase {position_phase(state)!r} but has no {what} ({where}); "
        "the state breaks the game's rules (a game bug, or a state that state_from_json should have refused)")


def dead_end(State state):
    """None when ``state`` can go on as the contract says, else what is wrong: a decision node without a legal
    action, a chance node without outcomes, action ids out of range or out of order, or chance probabilities that
    do not sum to 1. Every game's state_from_json refuses such a state (a BadStateError with this text)."""
    cdef int buf[MAX_ACTIONS]
    cdef double probs[MAX_ACTIONS]
    cdef int player = state.c_current_player(), n, i
    cdef double total = 0.0
    if player == TERMINAL:
        return None
    if player != CHANCE and not 0 <= player < state.num_players:
        return f"the player to move ({player}) is no seat"
    n = state.c_chance_outcomes(buf, probs) if player == CHANCE else state.c_legal_actions(buf)
    if n <= 0:
        return (f"{'chance' if player == CHANCE else f'player {player}'} is to move in phase "
                f"{position_phase(state)!r} but has no {'outcome' if player == CHANCE else 'legal action'}")
    for i in range(n):
        if not 0 <= buf[i] < state.game.num_distinct_actions or (player != CHANCE and i > 0 and buf[i] <= buf[i - 1]):
            return f"the actions here are out of range or order ({buf[i]})"
        if player == CHANCE:
            if not probs[i] > 0.0:
                return f"chance outcome {buf[i]} has probability {probs[i]}"
            total += probs[i]
    if player == CHANCE and abs(total - 1.0) > 1e-9:
        return f"the chance outcomes' probabilities sum to {total}, not 1"
    return None


cdef int _decides_again(State state, int seat, int* budget, int depth) noexcept:
    # From ``state`` (just after one of seat's moves): 1 when some line of chance outcomes and seat's own forced
    # moves reaches another decision of seat with more than one legal move before any other seat moves, 0 when none
    # does, -1 when the budget of states (or the depth of nested chance) ran out first. ``state`` is the caller's
    # scratch copy and is played forward in place.
    cdef int buf[MAX_ACTIONS]
    cdef double probs[MAX_ACTIONS]
    cdef int player, n, i, found
    cdef State child
    while True:
        player = state.c_current_player()
        if player == TERMINAL or (player >= 0 and player != seat):
            return 0
        if player == seat:
            n = state.c_legal_actions(buf)
            if n != 1:
                return 1 if n > 1 else 0
            budget[0] -= 1
            if budget[0] < 0:
                return -1
            state.c_apply(buf[0])
            continue
        if depth >= 8:
            return -1
        n = state.c_chance_outcomes(buf, probs)
        for i in range(n):
            budget[0] -= 1
            if budget[0] < 0:
                return -1
            child = state.c_clone()
            child.c_apply(buf[i])
            found = _decides_again(child, seat, budget, depth + 1)
            if found != 0:
                return found
        return 0


def turn_ends(State state, int budget=512):
    """Whether every legal move of the seat to move here ends its turn: True when none of them leads, through chance
    outcomes and the seat's own forced (single-move) decisions, to another decision of the same seat with a choice
    before some other seat moves or the game ends; False when one does; None when ``budget`` states were not enough
    to tell. A turn is a seat's consecutive decisions, as the referee times it (chance between them does not end
    it). Asked of a bot's view, the answer is that view's, so it tells the bot nothing its view does not hold."""
    cdef int buf[MAX_ACTIONS]
    cdef int seat = state.c_current_player(), n, i, found
    cdef int left = budget
    cdef State child
    if seat < 0:
        raise ValueError(f"{state.game.name}: turn_ends() is asked at a seat's decision, not at "
                         f"{'a chance node' if seat == CHANCE else 'the end of the game'}")
    n = state.c_legal_actions(buf)
    for i in range(n):
        left -= 1
        if left < 0:
            return None
        child = state.c_clone()
        child.c_apply(buf[i])
        found = _decides_again(child, seat, &left, 0)
        if found == 1:
            return False
        if found == -1:
            return None
    return True


def _rebuild_state(Game game, obj):
    return game.state_from_json(obj)


cdef class Game:
    """Static data of one game with fixed options: shared by all its states, never copied."""

    def __init__(self, str name, dict options, int num_players, int num_distinct_actions):
        self.name = name
        self.options = dict(options)
        self.num_players = num_players
        self.num_distinct_actions = num_distinct_actions

    cpdef State new_initial_state(self):
        raise NotImplementedError(f"{type(self).__name__}.new_initial_state")

    def state_from_json(self, obj):
        """Game-defined: rebuild a State from ``State.to_json()`` output (raises BadStateError when invalid)."""
        raise NotImplementedError(f"{type(self).__name__}.state_from_json")

    def __reduce__(self):
        from engine.registry import load_game
        return (_load_game_with, (self.name, self.options))

    def __repr__(self):
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
        return f"<Game {self.name}({opts})>"


def _load_game_with(name, options):
    from engine.registry import load_game
    return load_game(name, **options)


cdef class State:
    """One position of a game. See the module docstring and core.pxd."""

    # --- C-level defaults: a game must override every one ------------------------------------------------
    cdef int c_current_player(self) noexcept:
        _missing(b"c_current_player")
        return TERMINAL

    cdef int c_legal_actions(self, int* out) noexcept:
        _missing(b"c_legal_actions")
        return 0

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept:
        _missing(b"c_chance_outcomes")
        return 0

    cdef void c_apply(self, int action) noexcept:
        _missing(b"c_apply")

    cdef State c_clone(self):
        raise NotImplementedError(f"{type(self).__name__}.c_clone")

    cdef void c_copy_from(self, State other) noexcept:
        _missing(b"c_copy_from")

    cdef void c_determinize(self, int observer, Rng* rng) noexcept:
        _missing(b"c_determinize")

    cdef uint64_t c_info_key(self, int player) noexcept:
        _missing(b"c_info_key")
        return 0

    cdef int64_t c_action_observation(self, int action, int player) noexcept:
        _missing(b"c_action_observation")
        return 0

    cdef int c_rewind_pending(self, int observer) noexcept:
        return 0                      # optional: a game without pending secret choices takes nothing back

    cdef void c_returns(self, double* out) noexcept:
        _missing(b"c_returns")

    cdef void c_evaluate(self, double* out) noexcept:
        _missing(b"c_evaluate")

    # --- Python face: checked wrappers ---------------------------------------------------------------------
    def current_player(self):
        """The seat to move, or CHANCE (-1), or TERMINAL (-2)."""
        return self.c_current_player()

    def is_terminal(self):
        return self.c_current_player() == TERMINAL

    def is_chance_node(self):
        return self.c_current_player() == CHANCE

    def legal_actions(self):
        """The legal actions of the player to move, ascending ([] at chance and terminal nodes).

        Raises NoLegalActionError at a decision node without one (a broken state)."""
        cdef int buf[MAX_ACTIONS]
        cdef int n = self.c_legal_actions(buf)
        if n <= 0 and self.c_current_player() >= 0:
            raise no_legal_action(self, "legal_actions")
        return [buf[i] for i in range(n)]

    def chance_outcomes(self):
        """At a chance node: a list of (outcome, probability) pairs that sum to 1; else [].

        Raises NoLegalActionError at a chance node without an outcome (a broken state)."""
        cdef int actions[MAX_ACTIONS]
        cdef double probs[MAX_ACTIONS]
        if self.c_current_player() != CHANCE:
            return []
        cdef int n = self.c_chance_outcomes(actions, probs)
        if n <= 0:
            raise no_legal_action(self, "chance_outcomes")
        return [(actions[i], probs[i]) for i in range(n)]

    def apply(self, action):
        """Play one action in place: an int id, or a move string in the game's notation.

        Raises IllegalActionError (and leaves the state untouched) if it is not legal here.
        """
        cdef int player = self.c_current_player()
        if isinstance(action, str):
            action = self.str_to_action(action)
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(
                f"{self.game.name}: an action is an int or a move string, got {type(action).__name__} {action!r}")
        if player == TERMINAL:
            raise IllegalActionError(f"{self.game.name}: the game is over; no action {action} can be applied")
        legal = [a for a, _ in self.chance_outcomes()] if player == CHANCE else self.legal_actions()
        if action not in legal:
            who = "chance" if player == CHANCE else f"player {player}"
            shown = ", ".join(self._describe(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalActionError(
                f"{self.game.name}: action {action} is not legal for {who} here; legal: {shown}")
        self.c_apply(action)

    def _describe(self, int action):
        try:
            return f"{action} ({self.action_to_str(action)})"
        except Exception:
            return str(action)

    def clone(self):
        """An independent copy (mutating it never touches this state)."""
        return self.c_clone()

    def __copy__(self):
        return self.c_clone()

    def __deepcopy__(self, memo):
        return self.c_clone()

    def determinize(self, int observer, rng=0):
        """A copy in which all that ``observer`` cannot see is resampled, consistent with what it has seen.

        ``rng`` is an ``engine.rng.RNG`` (advanced in place) or an int seed.
        """
        self._check_player(observer)
        cdef RNG stream
        if isinstance(rng, RNG):
            stream = rng
        elif isinstance(rng, int):
            stream = RNG(rng)
        else:
            raise TypeError(f"determinize: rng must be an engine.rng.RNG or an int seed, got {type(rng).__name__}")
        cdef State copy = self.c_clone()
        copy.c_determinize(observer, &stream.state)
        return copy

    def info_key(self, int player):
        """64-bit key of ``player``'s information set."""
        self._check_player(player)
        return self.c_info_key(player)

    def rewind_pending(self, int observer):
        """A copy with the other players' pending secret choices that ``observer`` (to move) has not seen taken
        back, and how many: ``(state, k)``; ``k == 0`` leaves the copy as it is. Call it on a determinization
        (``determinize(observer, rng)``): the choices taken back are whatever that sample holds."""
        self._check_player(observer)
        if self.c_current_player() != observer:
            raise KleosError(f"{self.game.name}: rewind_pending({observer}) needs seat {observer} to move, "
                             f"not {self.c_current_player()}")
        cdef State copy = self.c_clone()
        cdef int k = copy.c_rewind_pending(observer)
        return copy, k

    def action_observation(self, int action, int player):
        """What ``player`` sees of ``action`` played here: the action when public, else a negative class id."""
        self._check_player(player)
        return self.c_action_observation(action, player)

    def returns(self):
        """At the end: one value per player in [0, 1] from the final ranks (1 first, 0 last, ties share)."""
        cdef double out[MAX_PLAYERS]
        if self.c_current_player() != TERMINAL:
            raise KleosError(f"{self.game.name}: returns() asked before the game is over")
        self.c_returns(out)
        return [out[i] for i in range(self.num_players)]

    def evaluate(self):
        """A heuristic estimate of returns() for this state (one value per player in [0, 1])."""
        cdef double out[MAX_PLAYERS]
        if self.c_current_player() == TERMINAL:
            self.c_returns(out)
        else:
            self.c_evaluate(out)
        return [out[i] for i in range(self.num_players)]

    def _check_player(self, int player):
        if not 0 <= player < self.num_players:
            raise ValueError(f"{self.game.name}: player {player} out of range 0..{self.num_players - 1}")

    # --- game-defined Python methods -----------------------------------------------------------------------
    def scores(self):
        """Game-defined: the game's own points per player (for reports and tie-breaks)."""
        raise NotImplementedError

    def observation(self, int player):
        """Game-defined: a JSON-ready dict of exactly what ``player`` sees now."""
        raise NotImplementedError

    def action_to_str(self, int action):
        """Game-defined: canonical notation of ``action`` in this state (chance outcomes too)."""
        raise NotImplementedError

    def str_to_action(self, str text):
        """Game-defined: the action named by ``text`` here; raises BadMoveError when it names no legal move."""
        raise NotImplementedError

    def to_json(self):
        """Game-defined: the full state as a JSON-ready dict (``game.state_from_json`` rebuilds it)."""
        raise NotImplementedError

    def render(self, observer=None):
        """Game-defined: a readable text view of the board from one seat (None: the whole truth)."""
        raise NotImplementedError

    def __reduce__(self):
        return (_rebuild_state, (self.game, self.to_json()))

    def __repr__(self):
        player = self.c_current_player()
        who = {CHANCE: "chance", TERMINAL: "over"}.get(player, f"player {player}")
        return f"<{type(self).__name__} {self.game.name} to move: {who}>"

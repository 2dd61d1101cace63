# The game contract (docs/architecture.md section 2): what every game implements and every searcher calls.
#
# A game is a Game (static data: board, tables, options, player count) and a State (everything that changes, in
# plain C fields so that clone is a struct copy). Searchers call the c_* methods below, which are C virtual
# functions: no Python objects are touched in a playout. The Python methods of State (legal_actions(), apply(), ...)
# are thin checked wrappers for tests, the arena and people.
from libc.stdint cimport int64_t, uint64_t

from engine.rng cimport Rng

cdef enum:
    CHANCE = -1               # current_player() at a chance node
    TERMINAL = -2             # current_player() once the game is over
    MAX_PLAYERS = 5
    MAX_ACTIONS = 1024        # most legal actions (or chance outcomes) at any one decision, in every game
    HIDDEN_ACTION = -1        # action_observation(): "an action I cannot see" (games may use other negatives)


cdef class Game:
    cdef readonly str name
    cdef readonly int num_players
    cdef readonly int num_distinct_actions     # action ids are 0 .. num_distinct_actions-1 (chance outcomes too)
    cdef readonly dict options
    cpdef State new_initial_state(self)


cdef class State:
    cdef readonly Game game
    cdef public int num_players

    # --- the C-level contract: every game overrides all of these -------------------------------------------
    cdef int c_current_player(self) noexcept
    # Fill out[0..n) with the legal actions (ascending), return n (0 only at chance or terminal nodes).
    cdef int c_legal_actions(self, int* out) noexcept
    # At a chance node: fill the outcomes and their probabilities (summing to 1), return how many.
    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept
    # Play one legal action (or chance outcome) in place. Unchecked: the caller guarantees legality.
    cdef void c_apply(self, int action) noexcept
    # An independent copy; c_copy_from overwrites self with other (same game, same type) without allocating.
    cdef State c_clone(self)
    cdef void c_copy_from(self, State other) noexcept
    # In place: resample everything `observer` cannot see, consistently with everything it has seen.
    cdef void c_determinize(self, int observer, Rng* rng) noexcept
    # 64-bit key of `player`'s information set: equal for states that `player` cannot tell apart.
    cdef uint64_t c_info_key(self, int player) noexcept
    # Optional (the default takes nothing back): on a determinization at `observer`'s decision, take back in place
    # the other players' pending secret choices that `observer` has not seen revealed (a bid made face down
    # before it in the same simultaneous round), so that the state is at the first of those choices; whatever
    # legal choices are then replayed, the game returns to a state in `observer`'s current information set.
    # Returns how many decisions it took back (0: nothing pending, or not supported). Search only
    # (ISMCTS keys=mover roots its iterations there); it must use nothing but the state it is given.
    cdef int c_rewind_pending(self, int observer) noexcept
    # What `player` sees of `action` played here (before apply): the action itself when public, else a value
    # < 0 that is equal for all the actions `player` cannot tell apart.
    cdef int64_t c_action_observation(self, int action, int player) noexcept
    # At a terminal node: one value per player in [0, 1] from the final ranks (1 first, 0 last, ties share).
    cdef void c_returns(self, double* out) noexcept
    # Anywhere: a heuristic estimate of c_returns (same scale), for depth-limited search.
    cdef void c_evaluate(self, double* out) noexcept


# Sample one chance outcome of `state` by its probabilities; -1 when it has none (a broken state: the caller
# raises engine.core.no_legal_action).
cdef int sample_chance_outcome(State state, Rng* rng) noexcept

# Map ranking keys (higher is better; encode tie-breaks into the key) to rank returns in [0, 1].
cdef void returns_from_keys(const double* keys, int n, double* out) noexcept nogil

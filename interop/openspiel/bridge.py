"""What Kleos's game contract needs of an OpenSpiel game, computed from OpenSpiel's own API.

Kleos asks three questions OpenSpiel does not answer directly, and this module answers them from the information
strings OpenSpiel does provide (information-state strings where the game has them, else observation strings, which
are compared at every step and so form the same perfect-recall record):

- *what does player p see of action a?* (``observation_classes``): apply each candidate action to a copy and compare
  p's information string afterwards; actions that leave the same string are one class (p cannot tell them apart).
- *resample what p cannot see* (``resample``): OpenSpiel's ``resample_from_infostate`` where the game implements it,
  else ``HistorySampler``: a random history consistent with p's information at every step.
- *a key of p's information set* (``info_key``): a stable 64-bit hash of p's information string.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import sys

from engine.errors import BadStateError, KleosError
from interop.openspiel import require_pyspiel


class NotDeterminizable(KleosError):
    """The game hides information and offers no way to resample it."""


@contextlib.contextmanager
def _quiet_stderr():
    """Silence file descriptor 2 (C++ writes there directly) for the duration."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def stable_hash(text: str) -> int:
    """A 64-bit hash that is the same in every process (Python's own hash() is salted per process)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


class Bridge:
    """One OpenSpiel game (simultaneous moves already turned into turns) seen through Kleos's contract."""

    RESAMPLE_TRIES = 1000

    def __init__(self, game_string: str):
        pyspiel = require_pyspiel()
        try:
            game = pyspiel.load_game(game_string)
        except pyspiel.SpielError as e:
            raise KleosError(f"openspiel: cannot load {game_string!r}: {e}") from None
        gtype = game.get_type()
        self.game_string = game_string
        self.original = game
        if gtype.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            # each joint move becomes one turn a player, the earlier choices hidden from the later movers
            game = pyspiel.convert_to_turn_based(game)
        elif gtype.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise KleosError(f"openspiel: {game_string!r} has {gtype.dynamics} dynamics; Kleos plays sequential and "
                             "simultaneous-move games")
        # (games with rewards along the way need nothing more: OpenSpiel sums them into returns())
        self.game = game
        self.type = gtype
        self.num_players = game.num_players()
        if not 1 <= self.num_players <= 5:
            raise KleosError(f"openspiel: {game_string!r} has {self.num_players} players; Kleos seats 1 to 5")
        # Kleos numbers chance outcomes and moves in one space
        self.num_distinct_actions = max(game.num_distinct_actions(), game.max_chance_outcomes(), 1)
        self.perfect = gtype.information == pyspiel.GameType.Information.PERFECT_INFORMATION and \
            game is self.original
        self.has_infostate = gtype.provides_information_state_string
        self.has_observation = gtype.provides_observation_string
        self.native_resample = self._probe_native_resample()
        self.why_not = None
        if not self.perfect and not self.native_resample and not (self.has_infostate or self.has_observation):
            self.why_not = (f"openspiel: {game_string!r} hides information but implements neither "
                            "resample_from_infostate nor information-state or observation strings, so no view "
                            "consistent with a player's information can be built")
        self.sampler = HistorySampler(self) if self.why_not is None and not self.perfect else None

    # --- OpenSpiel state helpers ------------------------------------------------------------------------------
    def info_string(self, os_state, player: int) -> str:
        """``player``'s information string (perfect-information games: the whole state)."""
        if self.perfect:
            return str(os_state)
        if self.has_infostate:
            return os_state.information_state_string(player)
        return os_state.observation_string(player)

    def candidates(self, os_state) -> list[tuple[int, float]]:
        """The actions (with probabilities at chance nodes, 1.0 otherwise) that may be applied here."""
        if os_state.is_chance_node():
            return list(os_state.chance_outcomes())
        if os_state.is_terminal():
            return []
        return [(a, 1.0) for a in os_state.legal_actions()]

    def _probe_native_resample(self) -> bool:
        """Whether the game implements resample_from_infostate (tried on the first position where a player moves)."""
        if self.perfect:
            return False
        pyspiel = require_pyspiel()
        state = self.game.new_initial_state()
        for _ in range(10_000):
            if state.is_terminal():
                return False
            if not state.is_chance_node():
                break
            state.apply_action(state.chance_outcomes()[0][0])
        with _quiet_stderr():       # OpenSpiel prints its "not implemented" to stderr before raising
            try:
                state.resample_from_infostate(state.current_player(), lambda: 0.5)
                return True
            except pyspiel.SpielError:
                return False

    # --- the three answers ------------------------------------------------------------------------------------
    def observation_classes(self, os_state, player: int) -> dict[int, int]:
        """action -> what ``player`` sees of it: the action itself when no other candidate looks the same to
        ``player``, else -1 - (the smallest action of its class), the same for every action of the class."""
        groups: dict[str, list[int]] = {}
        for action, _ in self.candidates(os_state):
            child = os_state.child(action)
            groups.setdefault(self.info_string(child, player), []).append(action)
        out = {}
        for actions in groups.values():
            for a in actions:
                out[a] = a if len(actions) == 1 else -1 - min(actions)
        return out

    def info_key(self, os_state, player: int) -> int:
        return stable_hash(f"{player}\x00{self.info_string(os_state, player)}")

    def resample(self, os_state, observer: int, uniform):
        """A state ``observer`` cannot tell from ``os_state``, everything hidden from it drawn with ``uniform()``."""
        if self.perfect:
            return os_state.clone()
        if self.why_not is not None:
            raise NotDeterminizable(self.why_not)
        seen = self.info_string(os_state, observer)

        def fits(world) -> bool:
            # what the observer knows besides its string: whether the game goes on, whose turn it is, its moves
            # (phantom tic-tac-toe's hidden stones may already have ended the game in a sampled world)
            return world.is_terminal() == os_state.is_terminal() and \
                world.current_player() == os_state.current_player() and \
                self.info_string(world, observer) == seen and \
                (os_state.current_player() != observer or world.legal_actions() == os_state.legal_actions())

        if not self.native_resample:
            return self.sampler.sample(os_state, observer, uniform, fits)
        for _ in range(self.RESAMPLE_TRIES):
            world = os_state.resample_from_infostate(observer, uniform)
            if fits(world):
                return world
        raise NotDeterminizable(f"openspiel: {self.game_string}'s resample_from_infostate gave "
                                f"{self.RESAMPLE_TRIES} states in a row that player {observer} could tell apart "
                                "from the real one")

    def state_from_history(self, history) -> object:
        """Replay ``history`` (a list of action ids) from the start, checking every action is legal."""
        if not isinstance(history, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in history):
            raise BadStateError(f"openspiel state: history must be a list of action ids, got {history!r}")
        state = self.game.new_initial_state()
        for i, action in enumerate(history):
            legal = [a for a, _ in self.candidates(state)]
            if action not in legal:
                raise BadStateError(f"openspiel state: action {action} at step {i} of the history is not legal "
                                    f"there (legal: {legal[:20]})")
            state.apply_action(action)
        return state


class HistorySampler:
    """Random histories consistent with one player's information, for games without resample_from_infostate.

    From the start, each step draws an action among those after which the player's information string equals the
    one it had at that step of the real history (chance outcomes by their probabilities, players' choices
    uniformly), backtracking out of dead ends. The filtered candidates of each prefix are kept in a trie per
    (history, observer), so the repeated draws of one search cost little after the first.
    """

    MAX_CACHED = 32

    def __init__(self, bridge: Bridge):
        self.bridge = bridge
        self.tries: dict = {}

    def _trie(self, os_state, observer: int):
        history = tuple(os_state.history())
        key = (history, observer)
        trie = self.tries.get(key)
        if trie is None:
            if len(self.tries) >= self.MAX_CACHED:
                self.tries.pop(next(iter(self.tries)))
            targets = []
            state = self.bridge.game.new_initial_state()
            for action in history:
                state.apply_action(action)
                targets.append(self.bridge.info_string(state, observer))
            trie = self.tries[key] = {"targets": targets, "root": _Node(self.bridge.game.new_initial_state())}
        return trie

    def sample(self, os_state, observer: int, uniform, fits):
        """A state at the end of a consistent history for which ``fits(state)`` holds."""
        trie = self._trie(os_state, observer)
        targets = trie["targets"]
        path = [trie["root"]]
        while True:
            node = path[-1]
            if len(path) - 1 == len(targets):
                if fits(node.state):
                    break
                node.dead = True
                path.pop()
                continue
            if node.children is None:
                self._expand(node, targets[len(path) - 1], observer)
            live = [(w, child) for w, child in node.children if not child.dead]
            if not live:
                node.dead = True
                path.pop()
                if not path:            # cannot happen for a real history: the true one is always consistent
                    raise NotDeterminizable("openspiel: no history is consistent with the player's information")
                continue
            total = sum(w for w, _ in live)
            u = uniform() * total
            chosen = live[-1][1]
            for w, child in live:
                u -= w
                if u < 0:
                    chosen = child
                    break
            path.append(chosen)
        return path[-1].state.clone()

    def _expand(self, node, target: str, observer: int):
        node.children = []
        for action, weight in self.bridge.candidates(node.state):
            child = node.state.child(action)
            if self.bridge.info_string(child, observer) == target:
                node.children.append((weight, _Node(child)))


class _Node:
    __slots__ = ("state", "children", "dead")

    def __init__(self, state):
        self.state = state
        self.children = None
        self.dead = False

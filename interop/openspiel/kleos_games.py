"""Every registered Kleos game as an OpenSpiel Python game, named ``kleos_<name>``.

>>> import interop.openspiel.kleos_games          # registers kleos_goofspiel, kleos_polis, ...
>>> game = pyspiel.load_game("kleos_goofspiel(players=3,cards=8)")

What OpenSpiel sees, and where it comes from in Kleos:

- actions: Kleos's action ids, unchanged (chance outcomes too); notation: ``State.action_to_str``.
- returns: Kleos's rank returns in [0, 1] (1 first, 0 last, ties share), so the game is constant-sum with
  utility sum n/2 for n players; OpenSpiel rewards arrive at the end only.
- information-state string of player p: p's information set as Kleos identifies it (``State.info_key``), so two
  states p cannot tell apart have the same string; observation string: ``State.observation(p)`` as JSON.
  Kleos games define no tensors, so none are provided.
- ``resample_from_infostate(p, sampler)``: Kleos's ``determinize`` seeded from the sampler. A resampled state has
  the resampled position but no action history (Kleos resamples positions, not histories): it serves searches.
- game parameters: ``players`` and each Kleos option, with Kleos's defaults; the length bound is the game's
  ``GameSpec.max_game_length`` where it declares one, else ``UNDECLARED_MAX_GAME_LENGTH``.

Games are registered when this module is imported; a game added to ``engine/games`` later joins by itself.
"""
from __future__ import annotations

import json

import numpy as np

from engine.registry import game_spec, list_games
from interop.openspiel import require_pyspiel

pyspiel = require_pyspiel()

PREFIX = "kleos_"
# a Kleos game that declares no bound on its length gets this one (OpenSpiel needs a number; none of its uses here
# depends on it being tight)
UNDECLARED_MAX_GAME_LENGTH = 100_000
_CHANCE, _TERMINAL = -1, -2


def _game_type(spec) -> "pyspiel.GameType":
    params = {name: opt.default for name, opt in spec.all_options().items()}
    hidden = spec.has_hidden_information
    return pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"Kleos {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=params,
    )


class KleosGame(pyspiel.Game):
    """A Kleos game behind OpenSpiel's Game API; ``kleos`` is the engine.core.Game."""

    SPEC = None                       # set per registered game

    def __init__(self, params=None):
        from engine.registry import load_game
        spec = self.SPEC
        options = spec.resolve(dict(params or {}))
        self.kleos = load_game(spec.name, **options)
        n = self.kleos.num_players
        bound = spec.max_game_length(options) if spec.max_game_length else UNDECLARED_MAX_GAME_LENGTH
        info = pyspiel.GameInfo(
            num_distinct_actions=self.kleos.num_distinct_actions,
            max_chance_outcomes=self.kleos.num_distinct_actions,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=n / 2,
            max_game_length=bound)
        super().__init__(_GAME_TYPES[spec.name], info, options)

    def new_initial_state(self):
        return KleosState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return KleosObserver(iig_obs_type is None or iig_obs_type.perfect_recall)


class KleosState(pyspiel.State):
    """One Kleos state behind OpenSpiel's State API; ``kleos`` is the engine.core.State."""

    def __init__(self, game, kleos_state=None):
        super().__init__(game)
        self.kleos = kleos_state if kleos_state is not None else game.kleos.new_initial_state()

    def current_player(self):
        p = self.kleos.current_player()
        if p == _CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == _TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player):
        return self.kleos.legal_actions() if player == self.kleos.current_player() else []

    def chance_outcomes(self):
        return self.kleos.chance_outcomes()

    def _apply_action(self, action):
        self.kleos.apply(int(action))

    def _action_to_string(self, player, action):
        return self.kleos.action_to_str(action)

    def is_terminal(self):
        return self.kleos.is_terminal()

    def returns(self):
        return self.kleos.returns() if self.kleos.is_terminal() else [0.0] * self.kleos.num_players

    def resample_from_infostate(self, player_id, probability_sampler):
        """Kleos's determinize from ``player_id``'s seat, its seed drawn from ``probability_sampler()``."""
        seed = int(probability_sampler() * 2 ** 53)
        return KleosState(self.get_game(), self.kleos.determinize(player_id, seed))

    def __deepcopy__(self, memo):
        return KleosState(self.get_game(), self.kleos.clone())

    def __str__(self):
        return self.kleos.render()


class KleosObserver:
    """Strings only (Kleos games define no tensors): the information set, or the current observation."""

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        kleos = state.kleos
        if self.perfect_recall:
            return f"kleos information set {kleos.info_key(player):016x} of player {player}"
        return json.dumps(kleos.observation(player), sort_keys=True, separators=(",", ":"))


_GAME_TYPES: dict = {}


def register_all() -> list[str]:
    """Register every Kleos game not yet registered with OpenSpiel; their OpenSpiel names."""
    registered = set(pyspiel.registered_names())
    names = []
    for name in list_games():
        spec = game_spec(name)
        short = PREFIX + name
        names.append(short)
        if short in registered:
            continue
        _GAME_TYPES[name] = _game_type(spec)
        cls = type(f"Kleos_{name}_Game", (KleosGame,), {"SPEC": spec, "__module__": __name__})
        globals()[cls.__name__] = cls           # found by name, so games pickle
        pyspiel.register_game(_GAME_TYPES[name], cls)
    return names


def load(name: str, options: dict):
    """The OpenSpiel game of Kleos game ``name`` with Kleos ``options`` (complete, as in a GameInfo)."""
    register_all()
    return pyspiel.load_game(PREFIX + name, dict(options))


GAMES = register_all()

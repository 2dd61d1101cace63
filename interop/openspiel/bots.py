"""OpenSpiel's bots as Kleos bots: ``os-ismcts``, ``os-mcts``, ``os-random`` and ``os-cfr``.

They play any Kleos game (through ``interop.openspiel.kleos_games``) and any ``openspiel:`` game (on the OpenSpiel
state itself). Like every Kleos bot they are handed the referee's view, a determinization from their own seat, so
they cannot peek: OpenSpiel's ISMCTS resamples that view again by itself, its MCTS searches the view as if it were
the truth (as Kleos's ``mcts`` does), and a CFR policy reads only the information-state string.

>>> from bots import make_bot
>>> bot = make_bot("os-ismcts:time=0.2")          # OpenSpiel's Python ISMCTS, 0.2 s a move
>>> bot = make_bot("os-cfr:iterations=2000")      # a CFR average policy, solved once per game (small games only)
"""
from __future__ import annotations

import time

from bots.base import DEFAULT_PACE, BadBotSpecError, Bot, GameInfo, Turn, TurnPace

_CFR_CACHE: dict = {}


def _pyspiel():
    try:
        from interop.openspiel import require_pyspiel
        return require_pyspiel()
    except ImportError as e:
        raise BadBotSpecError(str(e)) from None


def openspiel_game(info: GameInfo):
    """The OpenSpiel game a bot plays for ``info``: the wrapped one for ``openspiel:`` names, else the Kleos game
    registered with OpenSpiel."""
    from interop.openspiel.games import PREFIX
    if info.game.startswith(PREFIX):
        from engine.registry import load_game
        return load_game(info.game, **info.options).bridge.game
    from interop.openspiel.kleos_games import load
    return load(info.game, info.options)


def openspiel_view(game, view):
    """The OpenSpiel state behind a Kleos view: the wrapped state itself, or the Kleos state wrapped for OpenSpiel."""
    os_state = getattr(view, "os_state", None)
    if os_state is not None:
        return os_state.clone()
    from interop.openspiel.kleos_games import KleosState
    return KleosState(game, view.clone())


TWIN = ("twin", (str, "", "an OpenSpiel game string with the Kleos game's action ids, step for step: the bot "
                         "plays there (OpenSpiel's C++ speed) on a history consistent with what its seat saw"))


class OpenSpielBot(Bot):
    """Common part: the OpenSpiel game per Kleos game, the view handed over, the answer checked."""

    name = "os-bot"

    def __init__(self, spec=None, **options):
        _pyspiel()                                   # a missing extra fails when the bot is made, with the fix
        super().__init__(spec, **options)
        self.game = None
        self.twin = None

    def new_game(self, info: GameInfo) -> None:
        super().new_game(info)
        import numpy as np
        from engine.rng import RNG
        from interop.openspiel.games import PREFIX
        self.random_state = np.random.RandomState(info.seed % 2 ** 32)
        self.rng = RNG(info.seed)
        # time=T is a whole turn's time, shared as Kleos's search bots share it by default
        self.pace = TurnPace.for_game(DEFAULT_PACE, info.seed)
        self.last_of_turn = False
        self.twin = None
        if self.options.get("twin"):
            if info.game.startswith(PREFIX):
                raise BadBotSpecError(f"{self.name}: twin= is for Kleos games; {info.game} is OpenSpiel's already")
            from engine.registry import load_game
            from interop.openspiel.twin import Twin
            self.twin = Twin(self.options["twin"], load_game(info.game, **info.options), info.seat)
            self.game = self.twin.bridge.game
        else:
            self.game = openspiel_game(info)
        self.start(info)

    def start(self, info: GameInfo) -> None:
        """Build the OpenSpiel bot for this game."""

    def act(self, view, turn: Turn) -> int:
        self.pace.start(turn)
        if len(turn.legal) == 1:
            # a forced move needs no search (and a twin may play such moves by itself: OpenSpiel's goofspiel
            # deals its last round without asking)
            self.last_stats = {"forced": True}
            return turn.legal[0]
        self.pace.decided()
        self.last_of_turn = self.options.get("time") is not None and self.pace.ends_turn(view)
        state = self.twin.state(view, turn, self.rng) if self.twin else openspiel_view(self.game, view)
        started = time.perf_counter()
        action = int(self.choose(state, turn))
        self.last_stats = {**self.last_stats, "seconds": time.perf_counter() - started}
        return action

    def choose(self, state, turn: Turn) -> int:
        raise NotImplementedError


class RandomBot(OpenSpielBot):
    """OpenSpiel's uniform random bot."""

    name = "os-random"
    OPTIONS = dict([TWIN])

    def start(self, info):
        self.bot = _pyspiel().make_uniform_random_bot(info.seat, int(self.random_state.randint(2 ** 31)))

    def choose(self, state, turn):
        return self.bot.step(state)


class ISMCTSBot(OpenSpielBot):
    """OpenSpiel's Python ISMCTS (open_spiel.python.algorithms.ismcts) with random rollouts; a budget of
    simulations (iterations) or of seconds (time, checked between simulations)."""

    name = "os-ismcts"
    OPTIONS = {
        "iterations": (int, None, "simulations a move (default 1000 when no time is given)"),
        "time": (float, None, "seconds a turn (a seat's consecutive decisions, shared among them as Kleos's "
                              "search bots share theirs), checked between simulations"),
        "c": (float, 2.0, "UCT exploration constant (uct_c)"),
        "rollouts": (int, 1, "random rollouts a leaf (RandomRolloutEvaluator n_rollouts)"),
        "final": (str, "visits", "final move: visits (most visited) or value (best mean)"),
        "worlds": (int, -1, "max_world_samples: root samples kept and reused (-1: a new one each simulation)"),
        "observation_keys": (bool, False, "key nodes by observation strings instead of information states"),
        **dict([TWIN]),
    }

    def __init__(self, spec=None, **options):
        super().__init__(spec, **options)
        if self.options.get("final", "visits") not in ("visits", "value"):
            raise BadBotSpecError(f"os-ismcts: final must be visits or value, got {self.options['final']!r}")
        for key in ("iterations", "time", "rollouts"):
            value = self.options.get(key)
            if value is not None and value <= 0:
                raise BadBotSpecError(f"os-ismcts: {key} must be positive, got {value!r}")

    def start(self, info):
        from open_spiel.python.algorithms import ismcts, mcts
        o = self.options
        gtype = self.game.get_type()
        if gtype.information != _pyspiel().GameType.Information.IMPERFECT_INFORMATION:
            raise BadBotSpecError(f"os-ismcts: OpenSpiel's ISMCTS plays imperfect-information games only; "
                                  f"{info.game} has perfect information (use os-mcts)")
        final = (ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT if o.get("final", "visits") == "visits"
                 else ismcts.ISMCTSFinalPolicyType.MAX_VALUE)
        evaluator = mcts.RandomRolloutEvaluator(o.get("rollouts", 1), self.random_state)
        self.bot = _TimedISMCTS(self.game, evaluator, o.get("c", 2.0), o.get("iterations") or 1000,
                                max_world_samples=o.get("worlds", -1), random_state=self.random_state,
                                final_policy_type=final, use_observation_string=o.get("observation_keys", False))
        self.bot.seconds = o.get("time")
        if o.get("time") is not None and o.get("iterations") is None:
            self.bot._max_simulations = None
        self._resampler_for(info)

    def _resampler_for(self, info):
        """On OpenSpiel's games, the root is resampled by the bridge (interop/openspiel/bridge.py)."""
        from interop.openspiel.games import PREFIX
        if self.twin is not None:
            bridge = self.twin.bridge
        elif info.game.startswith(PREFIX):
            from engine.registry import load_game
            bridge = load_game(info.game, **info.options).bridge
        else:
            return
        if bridge.why_not is not None:
            raise BadBotSpecError(f"os-ismcts: {bridge.why_not}")
        # the bridge's resampler: OpenSpiel's own where the game has one, its samples checked against the
        # player's information, else a consistent history
        uniform = self.random_state.uniform
        self.bot.set_resampler(lambda state, player: bridge.resample(state, player, uniform))

    def choose(self, state, turn):
        if self.options.get("time") is not None:      # this decision's share of the turn's time
            self.bot.seconds = self.pace.share(self.options["time"], turn, self.last_of_turn)
            budget = turn.budget()
            if budget is not None:
                self.bot.seconds = min(self.bot.seconds, 0.8 * budget)
        action = self.bot.step(state)
        self.last_stats = {"iterations": self.bot.simulations}
        return action


class MCTSBot(OpenSpielBot):
    """OpenSpiel's Python MCTS (open_spiel.python.algorithms.mcts) with random rollouts, on the view as if it were
    the whole truth; a budget of simulations (OpenSpiel's MCTS has no time budget)."""

    name = "os-mcts"
    OPTIONS = {
        "iterations": (int, 1000, "simulations a move"),
        "c": (float, 2.0, "UCT exploration constant (uct_c)"),
        "rollouts": (int, 1, "random rollouts a leaf"),
        "solve": (bool, True, "back up proven wins and losses (MCTS-Solver)"),
        **dict([TWIN]),
    }

    def start(self, info):
        from open_spiel.python.algorithms import mcts
        o = self.options
        evaluator = mcts.RandomRolloutEvaluator(o.get("rollouts", 1), self.random_state)
        self.bot = mcts.MCTSBot(self.game, o.get("c", 2.0), o.get("iterations", 1000), evaluator,
                                solve=o.get("solve", True), random_state=self.random_state)

    def choose(self, state, turn):
        return self.bot.step(state)


class CFRBot(OpenSpielBot):
    """A CFR average policy (OpenSpiel's C++ CFR or CFR+), solved once per game and options and sampled each move.
    Small games only: every information set of the game is visited every iteration."""

    name = "os-cfr"
    OPTIONS = {
        "iterations": (int, 1000, "CFR iterations before play"),
        "plus": (bool, False, "CFR+ instead of vanilla CFR"),
        **dict([TWIN]),
    }

    def start(self, info):
        pyspiel = _pyspiel()
        key = (str(self.game), self.options.get("iterations", 1000), self.options.get("plus", False))
        if key not in _CFR_CACHE:
            solver = (pyspiel.CFRPlusSolver if key[2] else pyspiel.CFRSolver)(self.game)
            for _ in range(key[1]):
                solver.evaluate_and_update_policy()
            _CFR_CACHE[key] = (solver, solver.average_policy())     # the policy reads the solver's tables
        self.policy = _CFR_CACHE[key][1]

    def choose(self, state, turn):
        pairs = self.policy.get_state_policy(state.information_state_string())
        actions = [a for a, p in pairs if p > 0] or turn.legal
        probs = [p for a, p in pairs if p > 0] or [1.0] * len(actions)
        total = sum(probs)
        return int(self.random_state.choice(actions, p=[p / total for p in probs]))


_TIMED: list = []


def _timed_ismcts_class():
    if _TIMED:
        return _TIMED[0]
    from open_spiel.python.algorithms import ismcts

    class TimedISMCTS(ismcts.ISMCTSBot):
        """OpenSpiel's ISMCTS with a deadline: simulations run until ``seconds`` pass (or the simulation count)."""

        seconds = None
        simulations = 0

        def run_search(self, state):
            if self.seconds is None:
                result = super().run_search(state)
                self.simulations = self._max_simulations
                return result
            # the same steps as ISMCTSBot.run_search, with a clock in place of the simulation count
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                self.simulations = 0
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            deadline = time.perf_counter() + self.seconds
            count = 0
            # two simulations at least: OpenSpiel's first one only expands the root, which counts no visit
            while count < 2 or time.perf_counter() < deadline:
                if self._max_simulations is not None and count >= self._max_simulations:
                    break
                self.run_simulation(self.sample_root_state(state))
                count += 1
            self.simulations = count
            return self.get_final_policy(state, self._root_node)

    _TIMED.append(TimedISMCTS)
    return TimedISMCTS


def _TimedISMCTS(*args, **kwargs):
    return _timed_ismcts_class()(*args, **kwargs)

"""The search bots ``mcts``, ``pimc`` and ``ismcts``: thin wrappers over ``search.make_searcher``.

Options are the searcher's own (``searcher.OPTIONS``) plus ``oracle=true``, which hands the bot the true state
instead of its view (a ceiling for experiments, never a fair opponent). Without it, ``mcts`` searches its view as if
it were the truth: one determinization, a weak but honest player of hidden-information games. When no budget is given
(iterations, time or calls) and the referee runs a clock, the bot thinks for ``Turn.suggested_time()``: 80% of what is
left of the turn limit shared among the decisions it expects this turn, at most a twentieth of its game clock.
``time=T`` is the time of a whole turn (a seat's consecutive decisions), shared the same way, and a decision after
which the turn surely ends gets all that is left of it (``TurnPace``; the bot option ``pace`` names the rule); a
decision with one legal move is played at once.
"""
from __future__ import annotations

from bots.base import DEFAULT_PACE, BadBotSpecError, Bot, GameInfo, Turn, TurnPace
from bots.spec import check_options, convert
from engine.registry import game_spec

BUDGETS = ("iterations", "time", "calls")
# The search bots' own option beside the searcher's: how a turn's time=T is shared among its decisions (TurnPace).
PACE_OPTION = {"pace": (str, DEFAULT_PACE,
                        "how time=T, a whole turn's time, is shared among its decisions: even (the turn time left "
                        "over the decisions expected from this one on, from the turns seen that were as long so far) "
                        "| last (as even, and a decision after which the turn surely ends gets all the turn has "
                        "left) | front (the first decisions get more, a long turn's last ones 2% of it: the pace of "
                        "the measurements made before this option)")}


def searcher_options(kind: str) -> dict:
    """The option table of searcher ``kind`` ({name: (type, default, help)}), or BadBotSpecError."""
    try:
        from search import make_searcher
    except ImportError as e:
        raise BadBotSpecError(f"{kind}: the searchers (package 'search') are not available: {e}") from None
    try:
        return dict(make_searcher(kind).OPTIONS)
    except ValueError as e:
        raise BadBotSpecError(named(kind, e)) from None


def named(kind: str, error: Exception) -> str:
    """The message of a searcher's error, prefixed with the searcher's name once (the searchers name themselves)."""
    text = str(error)
    return text if text.startswith(f"{kind}: ") else f"{kind}: {text}"


class SearchBot(Bot):
    """A searcher as a bot. ``kind`` is the searcher's name in ``search.SEARCHERS``."""

    kind = "mcts"

    def __init__(self, spec=None, **options):
        options = dict(options)
        oracle = convert(self.kind, "oracle", options.pop("oracle", False), bool)
        self.pace_rule = convert(self.kind, "pace", options.pop("pace", PACE_OPTION["pace"][1]), str)
        if self.pace_rule not in TurnPace.RULES:
            raise BadBotSpecError(f"{self.kind}: option pace={self.pace_rule!r} is not one of "
                                  f"{', '.join(TurnPace.RULES)}")
        known = searcher_options(self.kind)
        typed = check_options(self.kind, options, known)
        super().__init__(spec or self.kind, **typed)
        self.oracle = oracle
        self.known = known
        self.searcher = self._make(typed)       # checks the values now, so a bad spec fails before any game
        self.pace = TurnPace(self.pace_rule)

    def _make(self, options):
        from search import make_searcher
        try:
            return make_searcher(self.kind, **options)
        except ValueError as e:
            raise BadBotSpecError(named(self.kind, e)) from None

    def _options_for(self, info: GameInfo | None, budget: float | None) -> dict:
        options = dict(self.options)
        if info is not None:
            # the game's tuned defaults (GameSpec.search_defaults) fill what the spec left out
            for name, value in game_spec(info.game).search_defaults.items():
                if name in self.known:
                    options.setdefault(name, value)
            if "seed" in self.known:
                options.setdefault("seed", info.seed)
        if budget is not None and not any(b in options for b in BUDGETS) and "time" in self.known:
            options["time"] = budget
        return options

    def new_game(self, info: GameInfo) -> None:
        super().new_game(info)
        self.game_options = self._options_for(info, None)     # what this game's searcher runs with
        if getattr(self, "_game_searcher", None) is not None:
            self._game_searcher.close()
        self._game_searcher = self._make(self.game_options)
        self.pace = TurnPace.for_game(self.pace_rule, info.seed)
        self._start_belief(info)

    # --- belief from the opponents' moves (belief=particles): the filter follows the game's events ------------
    def _start_belief(self, info: GameInfo) -> None:
        """A particle filter for this seat, every particle at the game's initial state (the arena's chance comes as
        chance events); a seat that joins mid-game is refilled from its first view (the filter says so)."""
        self._belief_start = None
        if self.game_options.get("belief", "none") == "none":
            return
        from engine.registry import load_game
        self._belief_start = load_game(info.game, **info.options).new_initial_state()
        self._game_searcher.new_belief(self._belief_start, info.seat, (info.seed ^ 0xB311EF) & (2 ** 64 - 1))

    def _belief(self):
        searcher = getattr(self, "_game_searcher", None)
        return getattr(searcher, "belief", None)

    def observe(self, event) -> None:
        belief = self._belief()
        if belief is None:
            return
        mover = -1 if event.kind == "chance" else event.seat
        seen = event.action if event.action is not None else event.hidden_class
        if seen is None and event.text is not None:      # the protocol names a visible move by its notation
            seen = belief.action_named(mover, event.text)
        if seen is None:
            belief.lose_track()
        else:
            belief.observe(mover, int(seen))

    def resync(self, events) -> None:
        """After an undo: the filter replays everything the seat has seen from the start."""
        belief = self._belief()
        if belief is None:
            return
        belief.reset(self._belief_start)
        for event in events:
            self.observe(event)

    def close(self) -> None:
        for searcher in (self.searcher, getattr(self, "_game_searcher", None)):
            if searcher is not None and hasattr(searcher, "close"):
                searcher.close()

    def act(self, view, turn: Turn) -> int:
        self.pace.start(turn)
        if len(turn.legal) == 1:                  # forced: no search, no time spent
            self.last_stats = {"forced": 1}
            return int(turn.legal[0])
        self.pace.decided()
        searcher = self._game_searcher
        seconds = None
        if "time" in self.options:                # time=T: T seconds for the whole turn, shared among its decisions
            seconds = self.pace.share(self.options["time"], turn, self.pace.ends_turn(view))
            budget = turn.budget()
            if budget is not None:
                seconds = min(seconds, 0.8 * budget)
        elif not any(b in self.options for b in BUDGETS):
            seconds = turn.suggested_time(decisions_left=self.pace.decisions_left(self.pace.ends_turn(view)))
        if seconds is not None:
            # the searcher reads its budget at each search(): this decision's share of the turn, and nothing else
            # (a spec without a budget got the default iterations, which the clock replaces)
            searcher.options.update(time=max(0.001, seconds), iterations=None, calls=None)
        elif "time" not in self.options and any(b in self.options for b in BUDGETS):
            # iterations= or calls=: the clock still binds them (the search stops at whichever comes first)
            budget = turn.budget()
            searcher.options["time"] = None if budget is None else max(0.001, 0.8 * budget)
        result = searcher.search(view)
        self.last_stats = dict(getattr(result, "stats", {}) or {})
        return int(result.action)


def _searchbot(kind: str) -> type:
    return type(f"{kind.upper()}Bot", (SearchBot,), {"kind": kind, "name": kind,
                                                       "__doc__": f"The {kind} searcher as a bot."})


MCTSBot = _searchbot("mcts")
PIMCBot = _searchbot("pimc")
ISMCTSBot = _searchbot("ismcts")

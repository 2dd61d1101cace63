"""The search bots ``mcts``, ``pimc`` and ``ismcts``: thin wrappers over ``search.make_searcher``.

Options are the searcher's own (``searcher.OPTIONS``) plus ``oracle=true``, which hands the bot the true state
instead of its view (a ceiling for experiments, never a fair opponent). Without it, ``mcts`` searches its view as if
it were the truth: one determinization, a weak but honest player of hidden-information games. When no budget is given
(iterations, time or calls) and the referee runs a clock, the bot thinks for ``Turn.suggested_time()``: 80% of the
move limit, at most a twentieth of what is left on its game clock.
"""
from __future__ import annotations

from bots.base import BadBotSpecError, Bot, GameInfo, Turn
from bots.spec import check_options, convert
from engine.registry import game_spec

BUDGETS = ("iterations", "time", "calls")


def searcher_options(kind: str) -> dict:
    """The option table of searcher ``kind`` ({name: (type, default, help)}), or BadBotSpecError."""
    try:
        from search import make_searcher
    except ImportError as e:
        raise BadBotSpecError(f"{kind}: the searchers (package 'search') are not available: {e}") from None
    try:
        return dict(make_searcher(kind).OPTIONS)
    except ValueError as e:
        raise BadBotSpecError(f"{kind}: {e}") from None


class SearchBot(Bot):
    """A searcher as a bot. ``kind`` is the searcher's name in ``search.SEARCHERS``."""

    kind = "mcts"

    def __init__(self, spec=None, **options):
        options = dict(options)
        oracle = convert(self.kind, "oracle", options.pop("oracle", False), bool)
        known = searcher_options(self.kind)
        typed = check_options(self.kind, options, known)
        super().__init__(spec or self.kind, **typed)
        self.oracle = oracle
        self.known = known
        self.searcher = self._make(typed)       # checks the values now, so a bad spec fails before any game

    def _make(self, options):
        from search import make_searcher
        try:
            return make_searcher(self.kind, **options)
        except ValueError as e:
            raise BadBotSpecError(f"{self.kind}: {e}") from None

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
        self._game_searcher = self._make(self.game_options)

    def close(self) -> None:
        for searcher in (self.searcher, getattr(self, "_game_searcher", None)):
            if searcher is not None and hasattr(searcher, "close"):
                searcher.close()

    def act(self, view, turn: Turn) -> int:
        budget = turn.suggested_time()
        if budget is not None and not any(b in self.options for b in BUDGETS):
            searcher = self._make(self._options_for(self.info, budget))     # this move's time
            try:
                result = searcher.search(view)
            finally:
                searcher.close()
        else:
            result = self._game_searcher.search(view)
        self.last_stats = dict(getattr(result, "stats", {}) or {})
        return int(result.action)


def _searchbot(kind: str) -> type:
    return type(f"{kind.upper()}Bot", (SearchBot,), {"kind": kind, "name": kind,
                                                       "__doc__": f"The {kind} searcher as a bot."})


MCTSBot = _searchbot("mcts")
PIMCBot = _searchbot("pimc")
ISMCTSBot = _searchbot("ismcts")

"""The ``kleos`` bot: Kleos's own opponent, in every game the strongest configuration measured there.

A game declares that configuration behind the contract (``GameSpec.kleos_bot``: a searcher spec without a budget,
such as ``ismcts:c=0.4``; the game-agnostic default is plain ``ismcts``; ``GameSpec.kleos_bot_players`` names
another for a player count where one measured stronger there), and the game's ``search_defaults`` fill
what it leaves out, as for every search bot. The bot's own options are the budget and the options every searcher
has (``kleos:time=2``, ``kleos:iterations=3000,seed=4``); they override the game's. So nothing here names a game,
and every ingredient of the strongest bot is an option of a searcher, which ``kleos games`` shows per game.
``time=T`` is the time of a whole turn, as for the other search bots.
"""
from __future__ import annotations

from bots.base import BadBotSpecError, GameInfo
from bots.searchbot import SearchBot, searcher_options
from bots.spec import check_options
from engine.errors import KleosError
from engine.registry import game_spec

BUDGETS = ("iterations", "time", "calls")


def kleos_configuration(game: str, players: int | None = None) -> tuple[str, dict]:
    """The searcher and options the ``kleos`` bot plays ``game`` with (with ``players`` players, where the game
    declares another configuration for that count), before its own options and the budget: the game's declared
    spec; BadBotSpecError naming the game if the declaration is unusable."""
    from bots.spec import parse_spec
    try:
        spec = game_spec(game)
    except KleosError as e:
        raise BadBotSpecError(f"kleos: {e}") from None
    declared, where = spec.kleos_bot, f"{game} declares kleos_bot"       # `where` names it in the errors below
    if players in spec.kleos_bot_players:
        declared, where = spec.kleos_bot_players[players], f"{game} ({players} players) declares kleos_bot_players"
    try:
        kind, options = parse_spec(declared)
    except BadBotSpecError as e:
        raise BadBotSpecError(f"kleos: {where}={declared!r}: {e}") from None
    if kind not in ("mcts", "pimc", "ismcts"):
        raise BadBotSpecError(f"kleos: {where}={declared!r}, not a searcher (mcts, pimc, ismcts)")
    budget = sorted(set(options) & set(BUDGETS))
    if budget:
        raise BadBotSpecError(f"kleos: {where}={declared!r} with a budget ({', '.join(budget)}); "
                              "the budget is the bot's own option")
    return kind, check_options(f"kleos ({game}: {declared})", options, searcher_options(kind))


def kleos_spec(game: str, spec: str = "kleos", players: int | None = None) -> str:
    """What ``spec`` (a ``kleos`` spec) plays in ``game`` (with ``players`` players), as a plain searcher spec:
    the declared configuration with the spec's own options over it (for tables and records: ``kleos:iterations=500``
    in Pantikapaion is ``ismcts:depth=8,rollout=heuristic,chance_leaf=sample,lookahead=0,iterations=500``). The
    game's search_defaults still apply to it as a bot."""
    from bots.spec import parse_spec
    _, own = parse_spec(spec)
    kind, declared = kleos_configuration(game, players)
    options = {**declared, **own}
    return kind + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")


class KleosBot(SearchBot):
    """Kleos's own bot: in each game the strongest configuration measured there (the game's kleos_bot, shown by
    `kleos games`); its options are the budget and the options every searcher has."""

    name = "kleos"
    kind = "ismcts"                  # until a game is known; new_game() takes the game's searcher

    def __init__(self, spec=None, **options):
        from search.options import COMMON_OPTIONS
        options = dict(options)
        if "oracle" in options:
            raise BadBotSpecError("kleos: option 'oracle' is not for Kleos's own bot; use ismcts:oracle=true")
        pace = {"pace": options.pop("pace")} if "pace" in options else {}   # the bot's, not the searcher's
        typed = check_options(self.name, options, dict(COMMON_OPTIONS))
        super().__init__(spec or self.name, **pace, **typed)     # checks the values with the default searcher
        self.own_options = dict(typed)
        self.resolved = None                             # (game, kind, options) once a game is known

    def _resolve(self, game: str, players: int | None) -> None:
        kind, declared = kleos_configuration(game, players)
        self.kind = kind
        self.known = searcher_options(kind)
        self.options = {**declared, **self.own_options}
        self.resolved = (game, kind, dict(self.options))

    def _options_for(self, info: GameInfo | None, budget: float | None) -> dict:
        if info is not None:
            self._resolve(info.game, info.num_players)
        return super()._options_for(info, budget)

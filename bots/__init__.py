"""Bots: the Bot protocol (``bots.base``) and every bot, named by spec strings.

>>> from bots import make_bot
>>> bot = make_bot("greedy")
>>> bot = make_bot("ismcts:time=1.0,c=0.7")      # needs the search package built
>>> bot = make_bot("cmd:python my_player.py")     # any program that speaks docs/protocol.md
"""
from __future__ import annotations

from bots.base import (BadBotSpecError, Bot, BotCrashed, BotResigns, BotTimeout, Event, GameInfo,  # noqa: F401
                       IllegalMoveReply, QuitRequest, RefereeError, Turn, UndoRequest)
from bots.spec import check_options, is_config, parse_config, parse_spec

# name -> "module:Class"; imported on use, so a missing optional part (the searchers) only fails when asked for
BOTS = {
    "kleos": "bots.kleos:KleosBot",          # Kleos's own: each game's strongest measured configuration
    "random": "bots.simple:RandomBot",
    "greedy": "bots.simple:GreedyBot",
    "mcts": "bots.searchbot:MCTSBot",
    "pimc": "bots.searchbot:PIMCBot",
    "ismcts": "bots.searchbot:ISMCTSBot",
    "human": "bots.human:HumanBot",
    "cmd": "bots.external:ExternalBot",
    # OpenSpiel's bots (the optional extra "kleos[openspiel]"; docs/openspiel.md)
    "os-ismcts": "interop.openspiel.bots:ISMCTSBot",
    "os-mcts": "interop.openspiel.bots:MCTSBot",
    "os-random": "interop.openspiel.bots:RandomBot",
    "os-cfr": "interop.openspiel.bots:CFRBot",
}


SEARCH_BOTS = ("kleos", "mcts", "pimc", "ismcts")      # check their own options (the searchers' tables)


def bot_class(name: str) -> type:
    if name not in BOTS:
        raise BadBotSpecError(f"unknown bot {name!r}; bots: {', '.join(BOTS)} "
                              f"(e.g. 'random', 'ismcts:time=1.0,c=0.7', 'cmd:python my_player.py')")
    import importlib
    module, cls = BOTS[name].split(":")
    return getattr(importlib.import_module(module), cls)


def make_bot(spec: str, **extra) -> Bot:
    """The bot named by ``spec`` ('name' or 'name:option=value,...', or the key=value form
    'name=A bot=ismcts tc=60+0.5' / 'name=B cmd=./engine option.X=1 st=1'); BadBotSpecError lists what exists."""
    if is_config(spec):
        config = parse_config(spec)
        bot = make_bot(config.spec, **extra)
        bot.spec = spec.strip()                  # the record keeps the configuration as written
        bot.time_control = config.control
        if config.engine_options:
            bot.engine_options = dict(config.engine_options)
        return bot
    name, options = parse_spec(spec)
    cls = bot_class(name)
    if name in SEARCH_BOTS + ("cmd",):
        return cls(spec.strip(), **options, **extra)
    return cls(spec.strip(), **check_options(name, options, cls.OPTIONS), **extra)


def search_available() -> bool:
    try:
        from search import make_searcher
        make_searcher("ismcts")
        return True
    except Exception:
        return False


def default_hint_spec(seconds: float = 1.0) -> str:
    """The strongest bot at hand for hints and for `kleos engine`: Kleos's own bot when the searchers are built."""
    return f"kleos:time={seconds:g}" if search_available() else "greedy"


def describe_bots() -> list[str]:
    """One line a bot with its options (for `kleos bots` and error messages)."""
    lines = []
    for name in BOTS:
        try:
            cls = bot_class(name)
            if name in ("mcts", "pimc", "ismcts"):
                from bots.searchbot import PACE_OPTION, searcher_options
                options = {**searcher_options(name), **PACE_OPTION,
                           "oracle": (bool, False, "see the true state (experiments)")}
            elif name == "kleos":
                from bots.searchbot import PACE_OPTION
                from search.options import COMMON_OPTIONS
                options = {**COMMON_OPTIONS, **PACE_OPTION}
            else:
                options = cls.OPTIONS
            text = ", ".join(f"{k}={d!r}" for k, (t, d, h) in options.items())
            if name == "kleos":         # its defaults are each game's (kleos games shows them)
                text = ", ".join(options) + " (defaults: each game's configuration, shown by `kleos games`)"
            if name in ("mcts", "pimc", "ismcts"):
                from search import SEARCHERS
                cls = SEARCHERS[name]
            doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
            lines.append(f"{name:8s} {doc}" + (f"\n         options: {text}" if text else ""))
        except BadBotSpecError as e:
            lines.append(f"{name:8s} (unavailable: {e})")
    return lines

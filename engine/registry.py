"""Find games by name. Every package under ``engine/games/`` that defines ``GAME = GameSpec(...)`` is registered.

>>> from engine.registry import load_game, list_games
>>> game = load_game("goofspiel", players=3)
>>> state = game.new_initial_state()
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.errors import BadOptionError, UnknownGameError


@dataclass(frozen=True)
class Option:
    """One game option: its default, its type and the values it may take."""

    default: Any
    help: str
    choices: tuple | None = None      # the allowed values, or None
    minimum: int | None = None        # for ints
    maximum: int | None = None
    names_files: bool = False         # the value is a path on this machine (over the protocol: a data set's name)

    def check(self, game: str, name: str, value):
        kind = type(self.default)
        if kind is bool and isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
            value = value.lower() in ("true", "1")
        elif kind is int and isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise BadOptionError(f"{game}: option {name}={value!r} is not an integer") from None
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise BadOptionError(f"{game}: option {name} must be {kind.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise BadOptionError(f"{game}: option {name}={value!r} is not one of {list(self.choices)}")
        if self.minimum is not None and value < self.minimum:
            raise BadOptionError(f"{game}: option {name}={value!r} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise BadOptionError(f"{game}: option {name}={value!r} is above the maximum {self.maximum}")
        return value


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows of a game: its name, its options and how to build it."""

    name: str
    title: str
    min_players: int
    max_players: int
    make: Callable[[dict], Any]                 # options (validated, complete) -> engine.core.Game
    options: dict[str, Option] = field(default_factory=dict)   # besides "players"
    default_players: int | None = None
    has_hidden_information: bool = False        # some state is hidden from some player (determinize varies it)
    conformance_options: tuple = ()             # option dicts the conformance suite runs (default: each count)
    summary: str = ""
    # searcher options the search bots use in this game unless their spec sets them (tuning measured in
    # docs/strength.md, not rules): {"depth": 300} gives every searcher that cut-off
    search_defaults: dict = field(default_factory=dict)
    # the `kleos` bot here: the strongest configuration measured in this game, a searcher spec without a budget
    # (the bot's own time=/iterations= give that); every ingredient is a searcher option, search_defaults apply too
    kleos_bot: str = "ismcts"
    # player count -> the `kleos` bot at that count, where a measurement found another configuration stronger there
    # (same form as kleos_bot); counts not named play kleos_bot
    kleos_bot_players: dict = field(default_factory=dict)
    # `kleos play --level` bots that differ here from the common ones (arena/console/levels.py), level name ->
    # bot spec; only where a ladder measured that the common budget is no step in this game (docs/play.md)
    levels: dict = field(default_factory=dict)
    # data sets the game ships, by name: what an option that names files may name over the protocol
    datasets: dict = field(default_factory=dict)
    # options -> an upper bound on the actions of one game (chance included), for frameworks that need one
    # (OpenSpiel); None: the game declares none
    max_game_length: Callable[[dict], int] | None = None

    def all_options(self) -> dict[str, Option]:
        players = Option(
            self.default_players or self.min_players, "number of players",
            minimum=self.min_players, maximum=self.max_players)
        return {"players": players, **self.options}

    def resolve(self, options: dict) -> dict:
        known = self.all_options()
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise BadOptionError(
                f"{self.name}: unknown option {', '.join(map(repr, unknown))}; known options: {', '.join(known)}")
        return {name: opt.check(self.name, name, options.get(name, opt.default)) for name, opt in known.items()}

    def test_configurations(self) -> list[dict]:
        if self.conformance_options:
            return [dict(o) for o in self.conformance_options]
        return [{"players": n} for n in range(self.min_players, self.max_players + 1)]


_SPECS: dict[str, GameSpec] | None = None


def _discover() -> dict[str, GameSpec]:
    global _SPECS
    if _SPECS is None:
        import engine.games
        specs = {}
        for info in pkgutil.iter_modules(engine.games.__path__):
            if not info.ispkg or info.name.startswith("_"):
                continue
            module = importlib.import_module(f"engine.games.{info.name}")
            spec = getattr(module, "GAME", None)
            if isinstance(spec, GameSpec):
                specs[spec.name] = spec
        _SPECS = dict(sorted(specs.items()))
    return _SPECS


def list_games() -> list[str]:
    """Names of all registered games, sorted."""
    return list(_discover())


def game_spec(name: str) -> GameSpec:
    if isinstance(name, str) and name.startswith("openspiel:"):      # any OpenSpiel game (the optional extra)
        from interop.openspiel.games import openspiel_spec
        return openspiel_spec(name)
    specs = _discover()
    if name not in specs:
        raise UnknownGameError(f"unknown game {name!r}; registered games: {', '.join(specs) or 'none'}")
    return specs[name]


def load_game(name: str, **options):
    """Build the game ``name`` with ``options`` (validated: unknown or out-of-range options raise BadOptionError)."""
    spec = game_spec(name)
    return spec.make(spec.resolve(options))


def parse_options(text: str) -> dict:
    """``"players=3,variant=x"`` -> ``{"players": "3", "variant": "x"}`` (values are checked by load_game)."""
    options = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            raise BadOptionError(f"game option {part!r} is not of the form name=value")
        key, value = part.split("=", 1)
        options[key.strip()] = value.strip()
    return options

"""OpenSpiel games under Kleos names: ``openspiel:<OpenSpiel game string>``, e.g.
``openspiel:goofspiel(num_cards=13,points_order=random,imp_info=False)``.

The registry (engine/registry.py) hands every name with the ``openspiel:`` prefix to ``openspiel_spec``, which builds
the ``GameSpec`` that any registered game has: the player count is the OpenSpiel game's own (set it in the game
string, e.g. ``players=3``); the one Kleos option is ``returns``: ``rank`` (Kleos's convention) or ``utility``
(OpenSpiel's utilities scaled onto [0, 1], for games played for a margin such as poker's chips).
"""
from __future__ import annotations

from engine.errors import BadOptionError, UnknownGameError
from engine.registry import GameSpec, Option

PREFIX = "openspiel:"
_SPECS: dict[str, GameSpec] = {}


def openspiel_spec(name: str) -> GameSpec:
    """The GameSpec of ``openspiel:<game string>`` (UnknownGameError when OpenSpiel cannot load it)."""
    spec = _SPECS.get(name)
    if spec is None:
        from interop.openspiel.bridge import Bridge
        game_string = name[len(PREFIX):].strip()
        if not game_string:
            raise UnknownGameError("openspiel: needs an OpenSpiel game string, e.g. 'openspiel:kuhn_poker' or "
                                   "'openspiel:goofspiel(num_cards=6)'")
        try:
            bridge = Bridge(game_string)
        except Exception as e:
            raise UnknownGameError(str(e)) from None
        _SPECS[name] = spec = GameSpec(
            name=name,
            title=f"OpenSpiel {bridge.original.get_type().long_name}",
            summary=f"OpenSpiel's {game_string}" + (" (simultaneous moves taken in turn)"
                                                     if bridge.game is not bridge.original else ""),
            min_players=bridge.num_players,
            max_players=bridge.num_players,
            default_players=bridge.num_players,
            make=lambda options, bridge=bridge, name=name: _make(name, bridge, options),
            has_hidden_information=not bridge.perfect,
            options={"returns": Option("rank", "rank: 1 first, 0 last, ties share; utility: OpenSpiel's utilities "
                                               "scaled onto [0, 1]", choices=("rank", "utility"))},
        )
    return spec


def _make(name, bridge, options):
    from interop.openspiel.bridge import NotDeterminizable
    from interop.openspiel.state import OpenSpielGame
    if bridge.why_not is not None:
        # the referee hands every bot a view from its seat; without one the game cannot be played fairly
        raise NotDeterminizable(bridge.why_not)
    if options.get("players", bridge.num_players) != bridge.num_players:
        raise BadOptionError(f"{name}: the player count is set in the OpenSpiel game string (players=...)")
    return OpenSpielGame(name, options, bridge)

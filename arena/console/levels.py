"""Difficulty levels for `kleos play --level`: names a person understands, each a bot spec.

Iteration budgets (not seconds) for easy to hard, so a level is equally strong on every machine; ``max`` is
Kleos's own bot (``kleos``: the game's strongest measured configuration) thinking 10 seconds a turn, and is the
opponent `kleos play` fields when no bot and no level is given. A game may declare other bots for some levels
(``GameSpec.levels``) where its ladder showed the common budget is no step there. The strength of each, in Elo
from a ladder, is in docs/play.md ("Seats, levels and time"), with the commands that measured it.
"""
from __future__ import annotations

from engine.errors import KleosError

LEVELS = {
    "easy": "ismcts:iterations=20",
    "medium": "ismcts:iterations=200",
    "hard": "ismcts:iterations=2000",
    "max": "kleos:time=10",
}


DEFAULT_LEVEL = "max"


def level_spec(level: str, game: str | None = None) -> str:
    """The bot spec of `level`, in `game` when given (its own level bots first)."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise KleosError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    if game is not None:
        from engine.registry import game_spec
        return game_spec(game).levels.get(key, LEVELS[key])
    return LEVELS[key]

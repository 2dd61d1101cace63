"""``kleos render``: the position to draw (from a state file, or a seeded random game cut at a ply) as SVG or PNG."""
from __future__ import annotations

import json
from pathlib import Path

from engine.chance import sample_outcome
from engine.errors import BadStateError
from engine.registry import load_game
from engine.rng import RNG
from engine.svg import PictureError, render, write


def random_position(game, seed: int, plies: int, actions: list | None = None):
    """The state after ``plies`` actions of a uniformly random game from ``seed`` (chance by its odds); the
    actions played are appended to ``actions`` when given."""
    if plies < 0:
        raise PictureError(f"--plies must be 0 or more, got {plies}")
    rng = RNG(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        action = (sample_outcome(state.chance_outcomes(), rng) if state.is_chance_node()
                  else rng.choice(state.legal_actions()))
        state.apply(action)
        if actions is not None:
            actions.append(action)
    return state


def state_from_file(game, path):
    """A state from a JSON file holding ``State.to_json()`` output (checked by the game)."""
    try:
        obj = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BadStateError(f"{path}: not a readable JSON state: {e}") from None
    try:
        return game.state_from_json(obj)
    except NotImplementedError:
        raise BadStateError(f"{game.name} cannot read a state from JSON") from None


def render_to_file(game_name: str, options: dict, out, state_file=None, seat: int | None = None, seed: int = 1,
                   plies: int = 0, scale: float = 1.0):
    """Draw one position of ``game_name`` into ``out`` (.svg or .png); returns the state drawn."""
    game = load_game(game_name, **options)
    state = state_from_file(game, state_file) if state_file else random_position(game, seed, plies)
    write(render(state, seat), out, scale)
    return state

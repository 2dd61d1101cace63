"""What the console shows of a game: the contract a game's ``console.py`` fills, and a default for any game.

A game may ship ``engine/games/<name>/console.py`` defining ``View(GameView)``; the console (game-agnostic) asks it
for the board, the panel of the current decision, the legend, the text of a card, what a move does, and why the
game ended. A game without one is shown with its own ``render()`` and observation differences.

Every method that draws for a seat reads only that seat's information: ``state.observation(seat)``, the move
notation, and ``action_observation`` for others' moves. The state a human is handed is a determinization (its
hidden parts are samples, not the truth), so a view never draws hidden parts from the state directly.
"""
from __future__ import annotations

import importlib

from rich.console import Group
from rich.text import Text


class GameView:
    """The default view: the game's own text render and generic observation differences."""

    # observation keys that are bookkeeping, not news (never listed in change lines)
    QUIET_KEYS: tuple = ("to_move", "format")

    def __init__(self, game):
        self.game = game                    # the engine Game (options, num_players, name)
        self.n = game.num_players

    # --- names ----------------------------------------------------------------------------------------------
    def title(self) -> str:
        from engine.registry import game_spec
        return game_spec(self.game.name).title

    def seat_name(self, seat: int) -> str:
        return f"P{seat}"

    def seat_style(self, seat: int) -> str:
        return ("bold cyan", "bold magenta", "bold yellow", "bold green", "bold blue")[seat % 5]

    # --- drawing --------------------------------------------------------------------------------------------
    def board(self, state, seat: int | None):
        """The position as ``seat`` sees it (None: the whole truth, for the end of the game)."""
        return Text(state.render(seat))

    def decision(self, state, seat: int, legal: list[int]):
        """A panel for the decision at hand (what the options look like), or None."""
        return None

    def preview(self, state, seat: int, action: int):
        """What the position would look like after ``action`` (before the person confirms it), or None."""
        return None

    def legend(self) -> str:
        return "This game's view uses plain words; the moves are named in the game's notation (see 'legal')."

    def texts(self) -> dict[str, str]:
        """Name -> text of every card, tile, project, hero... the person can look up with 'text NAME'."""
        return {}

    # --- words ----------------------------------------------------------------------------------------------
    def explain(self, state, seat: int, action: int) -> str:
        """What ``action`` does and costs for ``seat``: its name and how the seat's view would change."""
        after = state.clone()
        after.apply(action)
        changes = self.differences(state, after, seat)
        what = "; ".join(changes[:12]) or "nothing visible changes yet (a step of a longer move)"
        return f"{state.action_to_str(action)}: {what}"

    def change(self, before, after, action: int, seat: int) -> str:
        """One short line for a move just played, as ``seat`` saw it."""
        mover = before.current_player()
        seen = before.action_observation(action, seat)
        who = "chance" if mover < 0 else self.seat_name(mover)
        text = before.action_to_str(action) if seen == action else "(a move you cannot see)"
        changes = self.differences(before, after, seat)
        return f"{who}: {text}" + (f"  ({'; '.join(changes[:4])}{' ...' if len(changes) > 4 else ''})"
                                   if changes and mover >= 0 else "")

    def differences(self, before, after, seat: int) -> list[str]:
        """Readable differences between two positions in ``seat``'s observation: numbers and words as
        ``old -> new``, lists as what came and went."""
        old = _flat(before.observation(seat), "", self.QUIET_KEYS)
        new = _flat(after.observation(seat), "", self.QUIET_KEYS)
        out = []
        for key, value in new.items():
            was = old.get(key)
            if key in old and was == value:
                continue
            if isinstance(value, list) and isinstance(was, list):
                gone, came = _multiset_minus(was, value), _multiset_minus(value, was)
                parts = [f"+{_word(v)}" for v in came] + [f"-{_word(v)}" for v in gone]
                if parts:
                    out.append(f"{key} {' '.join(parts[:6])}" + (" ..." if len(parts) > 6 else ""))
                elif value != was:
                    out.append(f"{key} reordered")
            elif key in old:
                out.append(f"{key} {_word(was)} -> {_word(value)}")
            else:
                out.append(f"{key} {_word(value)}")
        return out

    def end_reason(self, state) -> str:
        """Why the game ended (from the final, true state)."""
        return "the game reached its end"

    def final(self, state):
        """The final board with everything hidden revealed."""
        return Group(Text("Everything revealed:", style="bold"), self.board(state, None))


class ByWidth:
    """A renderable drawn as ``wide`` where the terminal has ``min_width`` columns or more, else as ``narrow``
    (e.g. a table at 200 columns, one wrapped line an item at 80)."""

    def __init__(self, wide, narrow, min_width: int = 120):
        self.wide, self.narrow, self.min_width = wide, narrow, min_width

    def __rich_console__(self, console, options):
        yield self.wide if options.max_width >= self.min_width else self.narrow


def _flat(obj, prefix: str, quiet: tuple) -> dict:
    """{'path': scalar} of a JSON observation; lists of scalars stay whole (as words)."""
    out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in quiet:
                continue
            out.update(_flat(v, f"{prefix} {k}".strip(), quiet))
    elif isinstance(obj, list) and any(isinstance(v, (dict, list)) for v in obj):
        for i, v in enumerate(obj):
            out.update(_flat(v, f"{prefix} {i}".strip(), quiet))
    else:
        out[prefix.replace("_", " ")] = obj
    return out


def _multiset_minus(a: list, b: list) -> list:
    rest = list(b)
    out = []
    for v in a:
        if v in rest:
            rest.remove(v)
        else:
            out.append(v)
    return out


def _word(value) -> str:
    """A value as words, never a Python repr."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_word(v) for v in value) if value else "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def load_view(game) -> GameView:
    """The view of ``game`` (an engine Game): its package's ``console.View`` when it has one, else the default."""
    try:
        module = importlib.import_module(f"engine.games.{game.name}.console")
    except ModuleNotFoundError as e:
        # no console module, or no package under engine/games at all (an openspiel: game): the default view
        if not e.name or not f"engine.games.{game.name}.console".startswith(e.name):
            raise
        return GameView(game)
    return module.View(game)

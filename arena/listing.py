"""The text of ``kleos games`` and ``kleos bots``: plain words, wrapped to the terminal."""
from __future__ import annotations

import shutil
import textwrap


def _width() -> int:
    return max(40, min(100, shutil.get_terminal_size((100, 24)).columns))


def _wrap(text: str, indent: str, width: int) -> str:
    return textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_long_words=False, break_on_hyphens=False)


def _values(option) -> str:
    if option.choices is not None:
        return "one of " + ", ".join(map(str, option.choices))
    if option.minimum is not None or option.maximum is not None:
        return f"{option.minimum}-{option.maximum}"
    return {bool: "true or false", str: "text", int: "a whole number"}.get(type(option.default), "")


def describe_games(specs) -> str:
    """One block a game: name and summary, players and information, each option with its default and values."""
    width = _width()
    blocks = []
    for spec in specs:
        lines = [_wrap(f"{spec.name}: {spec.summary}", "", width)]
        default = spec.default_players or spec.min_players
        players = (f"{spec.min_players} players" if spec.min_players == spec.max_players
                   else f"{spec.min_players}-{spec.max_players} players (default {default})")
        info = "hidden information" if spec.has_hidden_information else "open information"
        lines.append(_wrap(f"{players}; {info}", "  ", width))
        for name, option in spec.options.items():
            shown = option.default if option.default != "" else '""'
            values = _values(option)
            lines.append(_wrap(f"{name}={shown}  {option.help}" + (f" ({values})" if values else ""), "  ", width))
        lines.append(_wrap(f"the kleos bot plays {spec.kleos_bot} here (with its own budget)", "  ", width))
        for players, declared in sorted(spec.kleos_bot_players.items()):
            lines.append(_wrap(f"with {players} players the kleos bot plays {declared}", "  ", width))
        for name, value in spec.search_defaults.items():
            lines.append(_wrap(f"search bots use {name}={value} here unless their spec says otherwise", "  ", width))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)

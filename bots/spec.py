"""Bot spec strings: ``name`` or ``name:option=value,option=value``; ``cmd:<command line>`` takes the rest verbatim.

>>> parse_spec("ismcts:time=1.0,c=0.7")
('ismcts', {'time': '1.0', 'c': '0.7'})
>>> parse_spec("os-ismcts:time=0.2,twin=goofspiel(num_cards=6,imp_info=False)")
('os-ismcts', {'time': '0.2', 'twin': 'goofspiel(num_cards=6,imp_info=False)'})
>>> parse_spec("cmd:python my_bot.py --fast")
('cmd', {'command': 'python my_bot.py --fast'})
"""
from __future__ import annotations

import math

from bots.base import BadBotSpecError


def parse_spec(spec: str) -> tuple[str, dict]:
    if not isinstance(spec, str) or not spec.strip():
        raise BadBotSpecError(f"a bot spec is a non-empty string such as 'random' or 'ismcts:time=1', got {spec!r}")
    spec = spec.strip()
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if name == "cmd":
        if not rest.strip():
            raise BadBotSpecError("cmd: needs a command line, e.g. 'cmd:python my_bot.py'")
        return name, {"command": rest.strip()}
    options = {}
    for part in filter(None, (p.strip() for p in _split_top(rest))):
        if "=" not in part:
            raise BadBotSpecError(f"bot option {part!r} in {spec!r} is not of the form name=value")
        key, value = (s.strip() for s in part.split("=", 1))
        if key in options:
            raise BadBotSpecError(f"bot option {key!r} given twice in {spec!r}")
        options[key] = value
    return name, options


def _split_top(text: str) -> list[str]:
    """Split at the commas outside parentheses: a value may be a game string such as ``goofspiel(a=1,b=2)``."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def convert(bot: str, key: str, value, kind: type):
    """``value`` (often a string from a spec) as ``kind``; BadBotSpecError naming the option otherwise."""
    if isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)) \
            and not (kind is float and not math.isfinite(value)):
        return value
    text = str(value).strip()
    try:
        if kind is bool:
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if kind is int:
            return int(text)
        if kind is float:
            number = float(text)
            if not math.isfinite(number):
                raise ValueError
            return number
        return kind(text)
    except (TypeError, ValueError):
        raise BadBotSpecError(f"{bot}: option {key}={value!r} is not a valid {kind.__name__}") from None


def check_options(bot: str, options: dict, known: dict) -> dict:
    """Validate ``options`` against ``known`` ({name: (type, default, help)}); return them typed."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        listing = ", ".join(f"{k} ({t.__name__}, default {d!r})" for k, (t, d, _) in known.items()) or "none"
        raise BadBotSpecError(f"{bot}: unknown option {', '.join(map(repr, unknown))}; its options: {listing}")
    # "none" unsets an option whose default is none (``depth=none``: no cut-off, even where a game sets one)
    return {k: None if known[k][1] is None and str(v).strip().lower() == "none" else convert(bot, k, v, known[k][0])
            for k, v in options.items()}

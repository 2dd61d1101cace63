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
import re
import shlex
from dataclasses import dataclass, field

from bots.base import BadBotSpecError
from bots.timecontrol import TimeControl


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


# --- the cutechess-style form: --bot "name=A cmd=./engine option.Hash=64 tc=40/60+0.6" --------------------------
CONFIG_KEYS = ("name", "cmd", "bot", "tc", "st", "iterations")
_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z0-9_\-]+))?=(.*)$", re.S)


@dataclass
class BotConfig:
    """A bot as cutechess and fastchess users configure an engine: ``name=`` (its label), ``cmd=`` (a program
    speaking docs/protocol.md) or ``bot=`` (a built-in spec), ``option.X=V`` (an engine option), ``tc=``
    (time control), ``st=`` (fixed seconds a move), ``iterations=`` (a fixed search budget)."""
    spec: str                          # what is built: a built-in spec, or cmd:<command line>
    name: str | None = None
    control: TimeControl | None = None
    engine_options: dict = field(default_factory=dict)   # option.X for cmd= engines (sent with setoption)

    @property
    def external(self) -> bool:
        return self.spec.startswith("cmd:")


def is_config(text) -> bool:
    """Whether ``text`` is the key=value form (every word is key=value, the first a known key)."""
    if not isinstance(text, str) or "=" not in text:
        return False
    try:
        words = shlex.split(text)
    except ValueError:
        return False
    if not words:
        return False
    first = _KEY.match(words[0])
    return bool(first) and (first.group(1) in CONFIG_KEYS or first.group(1) == "option")


def parse_config(text: str) -> BotConfig:
    """``name=A bot=ismcts:c=0.7 option.depth=60 tc=40/60+0.6`` -> BotConfig; BadBotSpecError naming the problem."""
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise BadBotSpecError(f"cannot split the bot configuration {text!r}: {e}") from None
    seen: dict = {}
    options: dict = {}
    for word in words:
        m = _KEY.match(word)
        if not m:
            raise BadBotSpecError(f"{word!r} in --bot {text!r} is not key=value (keys: {', '.join(CONFIG_KEYS)}, "
                                  f"option.NAME)")
        key, sub, value = m.groups()
        if key == "option":
            if not sub:
                raise BadBotSpecError(f"{word!r}: write option.NAME=VALUE")
            if sub in options:
                raise BadBotSpecError(f"option.{sub} given twice in {text!r}")
            options[sub] = value
            continue
        if sub or key not in CONFIG_KEYS:
            raise BadBotSpecError(f"unknown key {word.split('=', 1)[0]!r} in --bot {text!r}; keys: "
                                  f"{', '.join(CONFIG_KEYS)}, option.NAME")
        if key in seen:
            raise BadBotSpecError(f"{key}= given twice in --bot {text!r}")
        if not value.strip():
            raise BadBotSpecError(f"{key}= is empty in --bot {text!r}")
        seen[key] = value.strip()
    if ("cmd" in seen) == ("bot" in seen):
        raise BadBotSpecError(f"--bot {text!r} needs exactly one of cmd=<command line> (an engine) or "
                              f"bot=<spec> (a built-in bot such as ismcts:iterations=300)")
    movetime = None
    if "st" in seen:
        try:
            movetime = float(seen["st"])
        except ValueError:
            raise BadBotSpecError(f"st={seen['st']!r} is not a number of seconds") from None
        if not movetime > 0 or movetime != movetime or movetime == float("inf"):
            raise BadBotSpecError(f"st={seen['st']!r}: a fixed time a move must be positive seconds")
    control = TimeControl.parse(seen.get("tc"), movetime) if ("tc" in seen or "st" in seen) else None
    if "iterations" in seen:
        try:
            iterations = int(seen["iterations"])
        except ValueError:
            raise BadBotSpecError(f"iterations={seen['iterations']!r} is not a whole number") from None
        if iterations < 1:
            raise BadBotSpecError(f"iterations={iterations} must be at least 1")
    if "cmd" in seen:
        if "iterations" in seen:
            raise BadBotSpecError("iterations= fixes the budget of a built-in search bot; give an engine its own "
                                  "option instead (option.iterations=N, sent with setoption)")
        return BotConfig(f"cmd:{seen['cmd']}", seen.get("name"), control, options)
    name, spec_options = parse_spec(seen["bot"])
    if name == "cmd":
        raise BadBotSpecError("write an engine as cmd=<command line>, not bot=cmd:...")
    for key, value in list(options.items()) + ([("iterations", seen["iterations"])] if "iterations" in seen else []):
        if key in spec_options:
            raise BadBotSpecError(f"{key} is set twice: in bot={seen['bot']!r} and as a key")
        spec_options[key] = value
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in spec_options.items()) if spec_options else "")
    return BotConfig(spec, seen.get("name"), control)


def bot_label(text: str) -> str:
    """The name a bot goes by in tables: its ``name=``, else its spec as written."""
    if is_config(text):
        config = parse_config(text)
        return config.name or config.spec
    return text.strip()


def is_external(text: str) -> bool:
    """Whether ``text`` names a program in another process (cmd:... or cmd=...)."""
    if is_config(text):
        return parse_config(text).external
    return text.strip().lower().startswith("cmd:")


def is_timed(text: str) -> bool:
    """Whether the bot runs against a clock or thinks for a time (tc=, st=, or a time= budget)."""
    if is_config(text):
        config = parse_config(text)
        if config.control is not None and config.control.timed:
            return True
        text = config.spec
    if text.strip().lower().startswith("cmd:"):
        return False
    try:
        return "time" in parse_spec(text)[1]
    except BadBotSpecError:
        return False

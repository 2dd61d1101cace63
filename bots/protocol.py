"""The Kleos text protocol's wire format (docs/protocol.md), shared by both ends.

Commands are ``[id] name args...``; replies are ``=[id] payload`` or ``?[id] code message`` and end with one empty
line. The referee side (``bots.external``) and the player side (``arena.engine``) both use these helpers, so the
format lives in one place.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from bots.base import Event

PROTOCOL_VERSION = 1
ERROR_CODES = ("unknown-command", "syntax-error", "unsupported-game", "unknown-option", "bad-value",
               "illegal-move", "out-of-sync", "internal-error")


class ProtocolError(ValueError):
    """A line that does not follow the protocol; ``code`` is the error code to answer with."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass
class Command:
    id: int | None
    name: str
    args: str                       # the rest of the line, unsplit (payloads may hold spaces)

    def words(self) -> list[str]:
        return self.args.split()


def parse_command(line: str) -> Command:
    """``"7 go 12 movetime=500"`` -> Command(7, "go", "12 movetime=500")."""
    text = line.strip()
    if not text:
        raise ProtocolError("syntax-error", "empty command")
    head, _, rest = text.partition(" ")
    cid = None
    if is_id(head):
        cid = int(head)
        head, _, rest = rest.strip().partition(" ")
        if not head:
            raise ProtocolError("syntax-error", f"command id {cid} is not followed by a command")
    return Command(cid, head.lower(), rest.strip())


MAX_ID_DIGITS = 18                    # ids fit 63 bits; a longer digit run is no id


def is_id(text: str) -> bool:
    """A command id: ASCII digits only (``"²"`` and ``"٣"`` are digits to Python, not to the protocol)."""
    return 0 < len(text) <= MAX_ID_DIGITS and text.isascii() and text.isdigit()


MAX_MESSAGE = 300                     # characters of an error message: a huge bad line is not echoed back whole


def format_reply(cid: int | None, payload: str = "") -> str:
    tag = "=" if cid is None else f"={cid}"
    return f"{tag} {payload}".rstrip() + "\n\n"


def format_error(cid: int | None, code: str, message: str) -> str:
    tag = "?" if cid is None else f"?{cid}"
    message = " ".join(message.split())           # one line, always
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "..."
    return f"{tag} {code} {message}".rstrip() + "\n\n"


@dataclass
class Reply:
    ok: bool
    id: int | None
    payload: str = ""                 # first line's text after the tag, plus further lines joined by newlines
    code: str = ""                    # error code when not ok
    info: list[str] = field(default_factory=list)   # info lines that came before it


def parse_reply_head(line: str) -> Reply | None:
    """The first line of a reply, or None when the line is not one (info lines and noise)."""
    text = line.rstrip("\n")
    if not text or text[0] not in "=?":
        return None
    tag, _, rest = text.partition(" ")
    digits = tag[1:]
    if digits and not is_id(digits):
        return None
    cid = int(digits) if digits else None
    if tag[0] == "=":
        return Reply(True, cid, rest.strip())
    code, _, message = rest.strip().partition(" ")
    return Reply(False, cid, message.strip(), code=code)


def event_args(event: Event) -> str:
    """``event`` arguments: ``<seq> <kind> <seat> <move>`` or ``<seq> <kind> <seat> hidden <class>``."""
    what = event.text if event.visible else f"hidden {event.hidden_class if event.hidden_class is not None else -1}"
    return f"{event.seq} {event.kind} {event.seat} {what}"


def parse_event(args: str) -> Event:
    parts = args.split(" ", 3)
    if len(parts) < 4:
        raise ProtocolError("syntax-error", f"event needs '<seq> <kind> <seat> <move>', got {args!r}")
    seq, kind, seat, what = parts
    try:
        seq_i, seat_i = int(seq), int(seat)
    except ValueError:
        raise ProtocolError("syntax-error", f"event seq and seat must be integers, got {seq!r} {seat!r}") from None
    if kind not in ("move", "chance"):
        raise ProtocolError("syntax-error", f"event kind must be move or chance, got {kind!r}")
    if what.startswith("hidden"):
        rest = what[len("hidden"):].strip()
        try:
            hidden = int(rest) if rest else -1
        except ValueError:
            raise ProtocolError("syntax-error", f"hidden event class must be an integer, got {rest!r}") from None
        return Event(seq_i, kind, seat_i, None, None, hidden)
    return Event(seq_i, kind, seat_i, what)


def obs_payload(state, seat: int, view) -> str:
    """The ``obs`` JSON: this seat's observation, and ``sample``: a full state drawn from its information set
    (everything the seat cannot see is a random guess, never the truth), for players that search."""
    obj = {"seat": seat, "to_move": state.current_player(), "observation": state.observation(seat),
           "sample": view.to_json()}
    return json.dumps(obj, separators=(",", ":"))


def go_args(seq: int, legal: list[str], movetime: float | None, time_left: float | None) -> str:
    """``go`` arguments; ``legal=`` comes last and is a JSON list running to the end of the line."""
    parts = [str(seq)]
    if time_left is not None:
        parts.append(f"time={max(0, int(time_left * 1000))}")
    if movetime is not None:
        parts.append(f"movetime={max(0, int(movetime * 1000))}")
    parts.append("legal=" + json.dumps(legal, separators=(",", ":"), ensure_ascii=False))
    return " ".join(parts)


def parse_go(args: str) -> dict:
    head, sep, legal = args.partition("legal=")
    words = head.split()
    if not words:
        raise ProtocolError("syntax-error", "go needs a sequence number")
    out: dict = {"legal": None}
    try:
        out["seq"] = int(words[0])
    except ValueError:
        raise ProtocolError("syntax-error", f"go: sequence number must be an integer, got {words[0]!r}") from None
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in ("time", "movetime", "budget"):
            raise ProtocolError("syntax-error", f"go: unknown argument {word!r} (time=, movetime=, budget=, legal=)")
        try:
            out[key] = int(value)
        except ValueError:
            raise ProtocolError("bad-value", f"go: {key} must be an integer, got {value!r}") from None
    if sep:
        try:
            out["legal"] = json.loads(legal)
        except (ValueError, RecursionError) as e:
            raise ProtocolError("syntax-error", f"go: legal= is not a JSON list: {e}") from None
        if not isinstance(out["legal"], list) or not all(isinstance(m, str) for m in out["legal"]):
            raise ProtocolError("syntax-error", "go: legal= must be a JSON list of moves (strings)")
    return out

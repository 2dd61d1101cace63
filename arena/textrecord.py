"""Game records as text a person reads and a diff shows (``kleos export --text``), and back (``kleos import``).

Like a PGN file: each game is a block of tag pairs, then its actions, one numbered line each, in the game's own
notation, with what the mover reported in braces; games are separated by a blank line::

    [Event "tournament"]
    [Date "2026-11-24T23:30:05.120Z"]
    [Game "goofspiel"]
    [Options {"players": 2, "cards": 4}]
    [Seed 4211]
    [Seat0 "A"]
    [Bot0 "ismcts:iterations=300"]
    ...
    [Result "1-0"]
    [Termination "normal"]

    1. chance: prize:3
    2. P0: bid:4 {value=0.612, iterations=300, time=0.0213}
    3. P1: bid:1 {time=0.0001}

Every field of the record is in the text (each tag value is JSON: a quoted string as in PGN, or a number, list or
object), so importing an export gives back the
same record, and it replays identically. A move whose notation is shared by another legal action of its position
is written ``notation #action`` (the integer), so the import never has to guess.
"""
from __future__ import annotations

import json
import re

from engine.errors import BadRecordError
from engine.records import GameRecord

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) (.*)\]$')
_MOVE = re.compile(r"^(\d+)\.\s+(chance|P\d+):\s+(.*)$")
FIELD_TAGS = ("Event", "Date", "End", "Game", "Options", "Seed", "Salt", "Result", "Termination", "Returns", "Ranks",
              "Scores", "ResultOnly", "Versions", "Meta")


def result_text(result: dict | None) -> str:
    """The result as chess players write it for two players (1-0, 0-1, 1/2-1/2), else the ranks (1,3,2)."""
    if not result:
        return "*"
    ranks = result.get("ranks") or []
    if len(ranks) == 2:
        return {(1, 2): "1-0", (2, 1): "0-1", (1, 1): "1/2-1/2"}.get(tuple(ranks), "*")
    return ",".join(str(r) for r in ranks)


def _tag(name: str, value) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


def comment(evaluation: dict | None, seconds: float) -> str:
    """``{key=value, ..., time=seconds}`` with JSON values (exact numbers), or '' when there is nothing."""
    parts = [f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in (evaluation or {}).items()]
    if seconds:
        parts.append(f"time={json.dumps(seconds)}")
    return "{" + ", ".join(parts) + "}" if parts else ""


def export_text(record: GameRecord) -> str:
    """One game as tag pairs and numbered moves."""
    lines = [_tag("Event", record.event), _tag("Date", record.started or ""), _tag("End", record.ended or ""),
             _tag("Game", record.game), _tag("Options", record.options), _tag("Seed", record.seed)]
    if record.salt is not None:                  # the dice's secret half, revealed with the finished game
        lines.append(_tag("Salt", record.salt))
    for seat, (label, spec) in enumerate(zip(record.seats, record.bots or record.seats)):
        lines += [_tag(f"Seat{seat}", label), _tag(f"Bot{seat}", spec)]
    result = record.result or {}
    lines += [_tag("Result", result_text(record.result)), _tag("Termination", result.get("reason", "unfinished"))]
    if record.result is not None:
        lines += [_tag("Returns", result.get("returns")), _tag("Ranks", result.get("ranks")),
                  _tag("Scores", result.get("scores"))]
        extra = {k: v for k, v in result.items() if k not in ("returns", "ranks", "scores", "reason")}
        if extra:
            lines.append(_tag("ResultExtra", extra))
    if record.result_only:
        lines.append(_tag("ResultOnly", True))
    lines += [_tag("Versions", record.versions), _tag("Meta", record.meta), ""]
    if record.result_only:
        lines.append("{the moves of this game were not kept}")
        return "\n".join(lines) + "\n"
    state = record.new_state() if record.actions else None
    for i, action in enumerate(record.actions):
        mover = record.players[i] if i < len(record.players) else state.current_player()
        who = "chance" if mover < 0 else f"P{mover}"
        text = record.moves[i] if i < len(record.moves) else state.action_to_str(action)
        if _ambiguous(state, action, text):
            text = f"{text} #{action}"
        note = comment(record.evals[i] if i < len(record.evals) else None,
                       record.times[i] if i < len(record.times) else 0.0)
        lines.append(f"{i + 1}. {who}: {text}" + (f" {note}" if note else ""))
        state.apply(action)
    return "\n".join(lines) + "\n"


def _choices(state) -> list[int]:
    if state.is_chance_node():
        return [a for a, _ in state.chance_outcomes()]
    return list(state.legal_actions())


def _ambiguous(state, action: int, text: str) -> bool:
    return any(a != action and state.action_to_str(a) == text for a in _choices(state)) or " #" in text \
        or text.rstrip().endswith("}")


def export_records(records) -> str:
    return "\n".join(export_text(r) for r in records)


# --- import ------------------------------------------------------------------------------------------------
def _split_comment(text: str, where: str) -> tuple[str, dict, float]:
    """'bid:4 {value=0.6, time=0.02}' -> ('bid:4', {'value': 0.6}, 0.02)."""
    if not text.endswith("}") or " {" not in text:
        return text, {}, 0.0
    move, _, body = text.partition(" {")
    body = body[:-1]
    decoder = json.JSONDecoder()
    found: dict = {}
    pos = 0
    while pos < len(body):
        m = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)=").match(body, pos)
        if not m:
            raise BadRecordError(f"{where}: cannot read the comment {{{body}}}: expected name=value")
        try:
            value, end = decoder.raw_decode(body, m.end())
        except json.JSONDecodeError:
            raise BadRecordError(f"{where}: the value of {m.group(1)} in {{{body}}} is not a number or a quoted "
                                 f"string") from None
        found[m.group(1)] = value
        pos = end
        rest = body[pos:].lstrip()
        if rest.startswith(","):
            pos = len(body) - len(rest) + 1
        elif rest:
            raise BadRecordError(f"{where}: cannot read the comment {{{body}}} after {m.group(1)}")
        else:
            break
    seconds = found.pop("time", 0.0)
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        raise BadRecordError(f"{where}: time={seconds!r} is not a number of seconds")
    return move, found, seconds


def _parse_game(tags: dict, moves: list[tuple[int, str]], where: str) -> GameRecord:
    for name in ("Game", "Options", "Seed"):
        if name not in tags:
            raise BadRecordError(f"{where}: the game has no {name} tag")
    seed = tags["Seed"]
    for name, kind in (("Game", str), ("Options", dict), ("Seed", int), ("Event", str), ("Meta", dict),
                       ("Versions", dict), ("Termination", str), ("ResultOnly", bool)):
        if name in tags and (not isinstance(tags[name], kind) or (kind is int and isinstance(tags[name], bool))):
            raise BadRecordError(f"{where}: tag {name} must be {kind.__name__} JSON, got {tags[name]!r}")
    seats, bots, s = [], [], 0
    while f"Seat{s}" in tags:
        seats.append(tags[f"Seat{s}"])
        bots.append(tags.get(f"Bot{s}", tags[f"Seat{s}"]))
        s += 1
    if not seats:
        raise BadRecordError(f"{where}: the game names no seats (Seat0, Seat1, ...)")
    result = None
    if "Returns" in tags:
        result = {"returns": tags.get("Returns"), "scores": tags.get("Scores"),
                  "ranks": tags.get("Ranks"), "reason": tags.get("Termination", "normal"),
                  **(tags.get("ResultExtra", {}) or {})}
    options = tags.get("Options")
    record = GameRecord.from_dict({
        "game": tags["Game"], "options": options, "seed": seed, "salt": tags.get("Salt"), "seats": seats,
        "actions": [], "bots": bots,
        "event": tags.get("Event", ""), "started": tags.get("Date") or None, "ended": tags.get("End") or None,
        "result": result, "result_only": tags.get("ResultOnly", False),
        "versions": tags.get("Versions", {}), "meta": tags.get("Meta", {})})
    if record.result_only:
        return record
    try:
        state = record.new_state()
    except Exception as e:
        raise BadRecordError(f"{where}: the game {record.game} {options} cannot be built: {e}") from None
    for line_no, text in moves:
        here = f"{where} line {line_no}"
        m = _MOVE.match(text)
        if not m:
            raise BadRecordError(f"{here}: not a numbered move ('12. P0: notation {{comment}}'): {text!r}")
        number, who, rest = int(m.group(1)), m.group(2), m.group(3).strip()
        if number != len(record.actions) + 1:
            raise BadRecordError(f"{here}: move {number} where move {len(record.actions) + 1} was expected")
        if state.is_terminal():
            raise BadRecordError(f"{here}: the game is already over")
        mover = state.current_player()
        if who != ("chance" if mover < 0 else f"P{mover}"):
            raise BadRecordError(f"{here}: {who} moves here, but it is {'chance' if mover < 0 else f'P{mover}'}'s "
                                 f"turn")
        notation, evaluation, seconds = _split_comment(rest, here)
        action = _find_action(state, notation, here)
        record.add(state, action, seconds, None)
        record.moves[-1] = notation.rsplit(" #", 1)[0] if " #" in notation else notation
        record.times[-1] = seconds
        record.evals[-1] = evaluation or None
        state.apply(action)
    return record


def _find_action(state, notation: str, where: str) -> int:
    choices = _choices(state)
    if " #" in notation:
        text, _, number = notation.rpartition(" #")
        try:
            action = int(number)
        except ValueError:
            raise BadRecordError(f"{where}: {number!r} after # is not an action number") from None
        if action not in choices or state.action_to_str(action) != text:
            raise BadRecordError(f"{where}: {notation!r} is not a move of this position")
        return action
    found = [a for a in choices if state.action_to_str(a) == notation]
    if len(found) != 1:
        sample = ", ".join(state.action_to_str(a) for a in choices[:8])
        raise BadRecordError(f"{where}: {notation!r} is " + ("not a move of this position" if not found else
                             "ambiguous here") + f" (moves here: {sample}{', ...' if len(choices) > 8 else ''})")
    return found[0]


def import_text(text: str, source: str = "text") -> list[GameRecord]:
    """Every game of an exported text, as records (BadRecordError naming the line for anything wrong)."""
    records = []
    tags: dict = {}
    moves: list[tuple[int, str]] = []
    start = 1

    def flush():
        if tags:
            records.append(_parse_game(tags, moves, f"{source}:{start}"))

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line == "{the moves of this game were not kept}":
            continue
        m = _TAG.match(line)
        if m:
            if moves:                      # a tag after moves: the next game begins
                flush()
                tags, moves, start = {}, [], n
            if not tags:
                start = n
            try:
                tags[m.group(1)] = json.loads(m.group(2))
            except json.JSONDecodeError:
                raise BadRecordError(f"{source}:{n}: the value of tag {m.group(1)} is not JSON (a quoted string, a "
                                     f"number, a list or an object)") from None
            continue
        if not tags:
            raise BadRecordError(f"{source}:{n}: a move before any tag pairs: {line!r}")
        moves.append((n, line))
    flush()
    if not records:
        raise BadRecordError(f"{source}: no game found (a game starts with tag pairs such as [Game \"goofspiel\"])")
    return records

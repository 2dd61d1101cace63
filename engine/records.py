"""Game records: one JSON object a game, enough to replay every intermediate state exactly.

A record holds the game and its options, the referee's seed, the seats (bot specs), every action in order
(chance outcomes included, as ints with their notation beside them), the result, the timings and the versions.
Because a game has no randomness of its own (all of it is chance actions), replaying the actions rebuilds it.
"""
from __future__ import annotations

import gzip
import json
import math
import os
import platform
import tempfile
import time
import zlib
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from typing import Iterator

from engine.chance import sample_outcome
from engine.errors import BadRecordError, IllegalActionError
from engine.registry import load_game

RECORD_FORMAT = 2
# the search figures a record keeps for each decision (the rest of a bot's report is too big to keep per move)
EVAL_KEYS = ("value", "iterations", "max_depth", "tree_size", "ties", "forced", "info")


def versions() -> dict:
    from engine import __version__
    return {"kleos": __version__, "python": platform.python_version(), "format": RECORD_FORMAT}


def iso_time(when: float | None = None) -> str:
    """A UTC time as ISO 8601 with milliseconds, e.g. 2026-11-24T23:30:05.120Z (what records keep)."""
    moment = datetime.fromtimestamp(time.time() if when is None else when, timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _as_iso(value):
    """Timestamps of format-1 records were epoch seconds; anything else is kept as written."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return iso_time(float(value))
    return value


def compact_eval(stats: dict | None) -> dict | None:
    """The per-move comment a record keeps from a bot's report: value, iterations and a few search figures."""
    if not stats:
        return None
    kept = {}
    for key in EVAL_KEYS:
        value = stats.get(key)
        if isinstance(value, bool):
            if value:
                kept[key] = True
        elif isinstance(value, float):
            kept[key] = round(value, 4)
        elif isinstance(value, (int, str)):
            kept[key] = value
    return kept or None


@dataclass
class GameRecord:
    """One game. ``seats`` are the names shown in tables (a bot's ``name=`` or its spec), ``bots`` the specs
    that played; ``evals[i]`` is what the mover reported about action i (None for chance and silent bots).
    A ``result_only`` record keeps no moves (converted from a format that had none): it can be rated, not
    replayed."""
    game: str
    options: dict
    seed: int
    seats: list[str]
    actions: list[int] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)          # notation of each action, for people
    players: list[int] = field(default_factory=list)        # who chose each action (-1: chance)
    times: list[float] = field(default_factory=list)        # seconds each decision took (0 for chance)
    evals: list = field(default_factory=list)               # the mover's report on each action, or None
    result: dict | None = None                              # returns, scores, ranks, reason
    event: str = ""                                         # what played it: tournament, sprt, strength, play
    bots: list[str] = field(default_factory=list)           # the spec in each seat
    started: str = field(default_factory=iso_time)
    ended: str | None = None
    result_only: bool = False
    versions: dict = field(default_factory=versions)
    meta: dict = field(default_factory=dict)                # free: tournament id, game index, policies...
    salt: int | None = None             # the secret half of the referee's dice, written when the game is over
    start: dict | None = None           # the position the game began from (the game's to_json); None: the setup

    def __post_init__(self):
        self.started = _as_iso(self.started)
        self.ended = _as_iso(self.ended)
        if not self.bots:
            self.bots = list(self.meta.get("bots") or self.seats)
        if len(self.evals) < len(self.actions):             # format 1 kept no per-move reports
            self.evals = list(self.evals) + [None] * (len(self.actions) - len(self.evals))

    def new_state(self):
        game = load_game(self.game, **self.options)
        if self.start is None:
            return game.new_initial_state()
        try:
            return game.state_from_json(self.start)
        except Exception as e:
            raise BadRecordError(f"record's start position is not a valid {self.game} position: {e}") from None

    @property
    def unfinished(self) -> bool:
        """True while the game can go on: it was stopped (quit, Ctrl-C, a crash) before its end."""
        return self.result is not None and self.result.get("reason") == "unfinished"

    def suspend(self, state, why: str):
        """Mark the game stopped before its end (resumable): no returns or ranks, the scores so far, and why."""
        self.result = {"returns": None, "scores": list(state.scores()), "ranks": None, "reason": "unfinished",
                       "stopped": why}
        self.ended = iso_time()

    def add(self, state, action: int, seconds: float = 0.0, stats: dict | None = None):
        """Append ``action`` as played in ``state`` (call before applying it)."""
        self.actions.append(int(action))
        self.moves.append(state.action_to_str(action))
        self.players.append(state.current_player())
        self.times.append(round(seconds, 6))
        self.evals.append(compact_eval(stats))

    def truncate(self, keep: int) -> None:
        """Drop every action from index ``keep`` on (a move taken back)."""
        for name in ("actions", "moves", "players", "times", "evals"):
            del getattr(self, name)[keep:]

    def finish(self, state, reason: str = "normal", returns: list[float] | None = None):
        rets = returns if returns is not None else state.returns()
        self.result = {
            "returns": list(rets),
            "scores": list(state.scores()),
            "ranks": ranks_from_returns(rets),
            "reason": reason,
        }
        self.ended = iso_time()

    def decisions(self) -> list[int]:
        """How many decisions each seat took (chance excluded)."""
        if self.result_only:
            return list(self.meta.get("decisions") or [0] * len(self.seats))
        counts = [0] * len(self.seats)
        for p in self.players:
            if 0 <= p < len(counts):
                counts[p] += 1
        return counts

    def clock(self) -> list[float]:
        """Seconds each seat used."""
        if "clock" in self.meta:
            return list(self.meta["clock"])
        used = [0.0] * len(self.seats)
        for p, t in zip(self.players, self.times):
            if 0 <= p < len(used):
                used[p] += t
        return used

    def to_dict(self) -> dict:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, obj) -> "GameRecord":
        if not isinstance(obj, dict):
            raise BadRecordError(f"a game record is a JSON object, got {type(obj).__name__}")
        missing = [k for k in ("game", "options", "seed", "seats", "actions") if k not in obj]
        if missing:
            raise BadRecordError(f"game record lacks {', '.join(missing)}")
        if not isinstance(obj["actions"], list) or not all(isinstance(a, int) for a in obj["actions"]):
            raise BadRecordError("game record: 'actions' must be a list of integers")
        checks = (("game", str), ("options", dict), ("seed", int), ("salt", (int, type(None))), ("seats", list),
                  ("moves", list), ("players", list), ("times", list), ("evals", list), ("result", (dict, type(None))),
                  ("event", str), ("bots", list), ("meta", dict), ("versions", dict), ("result_only", bool))
        for key, kind in checks:
            if key in obj and (not isinstance(obj[key], kind) or (kind is int and isinstance(obj[key], bool))):
                raise BadRecordError(f"game record: {key!r} has the wrong type ({type(obj[key]).__name__})")
        for key, check, what in _ELEMENT_CHECKS:
            if key in obj and not all(check(x) for x in obj[key]):
                raise BadRecordError(f"game record: {key!r} must be a list of {what}")
        result = obj.get("result")
        if "start" in obj and not isinstance(obj["start"], (dict, type(None))):
            raise BadRecordError("game record: 'start' must be a position (a JSON object) or null")
        if result is not None and result.get("reason") == "unfinished":
            pass                            # a stopped game (kleos play): no returns or ranks yet
        elif result is not None:
            for key in ("returns", "ranks"):
                if not isinstance(result.get(key), list) or len(result[key]) != len(obj["seats"]):
                    raise BadRecordError(f"game record: result {key!r} must list one value a seat")
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in obj.items() if k in known})

    @classmethod
    def from_json(cls, line: str) -> "GameRecord":
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as e:       # bad JSON, a 5,000-digit number, nesting too deep
            raise BadRecordError(f"game record is not valid JSON: {e}") from None
        return cls.from_dict(obj)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# what each list of a record holds: checked when it is read, so no later step meets a wrong type (a forged or
# corrupt file is a BadRecordError naming the field, never a TypeError deep inside)
_ELEMENT_CHECKS = (
    ("seats", lambda x: isinstance(x, str), "names"),
    ("bots", lambda x: isinstance(x, str), "bot specs"),
    ("moves", lambda x: isinstance(x, str), "move texts"),
    ("players", _is_int, "integers"),
    ("times", lambda x: isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x), "seconds"),
)


def ranks_from_returns(returns: list[float]) -> list[int]:
    """1-based ranks (ties share the better rank) from rank returns."""
    return [1 + sum(1 for o in returns if o > r + 1e-12) for r in returns]


def replay(record: GameRecord) -> Iterator:
    """Yield the initial state and the state after every recorded action (each a fresh copy).

    Raises BadRecordError naming the first action that is not legal where the record puts it.
    """
    if record.result_only:
        raise BadRecordError("this record keeps only the result (no moves); it can be rated, not replayed")
    try:
        state = record.new_state()
    except BadRecordError:
        raise
    except Exception as e:
        raise BadRecordError(f"record names a game that cannot be built: {e}") from None
    yield state.clone()
    for i, action in enumerate(record.actions):
        try:
            state.apply(action)
        except IllegalActionError as e:
            raise BadRecordError(f"record action #{i} ({action}) does not replay: {e}") from None
        yield state.clone()


def final_state(record: GameRecord):
    state = None
    for state in replay(record):
        pass
    return state


FORFEITS = ("resign", "timeout", "illegal", "crash")


def forfeit_returns(n: int, loser: int) -> list[float]:
    """The returns of a game ``loser`` forfeited: last for it, a shared first place for the others."""
    return [0.0 if p == loser else 1.0 - (n - 2) * 0.5 / (n - 1) for p in range(n)]


def _same(a, b) -> bool:
    return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and round(x, 9) == round(y, 9) for x, y in zip(a, b))


def verify(record: GameRecord) -> None:
    """Recompute everything a record says from its actions, seed and salt, and compare it field by field: every
    action legal where it stands and by the seat the record names (``players``), its notation, every chance
    outcome re-derived from seed and salt (when the salt is there), the tournament seed of its block, and the whole
    result (reason, returns, scores, ranks, the forfeiting seat). Raises BadRecordError naming the first
    difference; a forged rank or score is found like a forged move."""
    if record.result is None:
        raise BadRecordError("record has no result to verify")
    if record.result_only:
        raise BadRecordError("this record keeps only the result (no moves); it can be rated, not replayed")
    from engine.chance import chance_uniform, derive_seed, pick_outcome
    n = len(record.seats)
    for name in ("moves", "players", "times"):
        got = getattr(record, name)
        if got and len(got) != len(record.actions):
            raise BadRecordError(f"record has {len(got)} {name} for {len(record.actions)} actions")
    meta = record.meta
    if "block" in meta and "tournament_seed" in meta:
        try:
            expected_seed = derive_seed(int(meta["tournament_seed"]), int(meta["block"]))
        except (TypeError, ValueError):
            raise BadRecordError("record's tournament_seed and block are not integers") from None
        if record.seed != expected_seed:
            raise BadRecordError(f"seed {record.seed} is not the seed of block {meta['block']} of a tournament "
                                 f"with seed {meta['tournament_seed']}")
    try:
        state = record.new_state()
    except Exception as e:
        raise BadRecordError(f"record names a game that cannot be built: {e}") from None
    if state.num_players != n:
        raise BadRecordError(f"record has {n} seats for a {state.num_players}-player game")
    k = 0
    for i, action in enumerate(record.actions):
        if state.is_terminal():
            raise BadRecordError(f"action #{i} ({action}) comes after the end of the game")
        mover = state.current_player()
        if record.players and record.players[i] != mover:
            raise BadRecordError(f"action #{i}: the record says {record.players[i]} moved; it was {mover}'s turn")
        if mover < 0:
            outcomes = state.chance_outcomes()
            if action not in dict(outcomes):
                raise BadRecordError(f"chance action #{i} ({action}) is no outcome of that chance event")
            if record.salt is not None:
                drawn = pick_outcome(outcomes, chance_uniform(record.seed, record.salt, k))
                if drawn != action:
                    raise BadRecordError(f"chance action #{i} is {state.action_to_str(action)}, but seed and salt "
                                         f"draw {state.action_to_str(drawn)}")
            k += 1
        elif action not in state.legal_actions():
            raise BadRecordError(f"action #{i} ({action}) is not legal where the record puts it")
        if record.moves and record.moves[i] != state.action_to_str(action):
            raise BadRecordError(f"action #{i}: the notation {record.moves[i]!r} is not the action's "
                                 f"({state.action_to_str(action)!r})")
        state.apply(action)
    _verify_result(record.result, state, n, bool(record.actions))


def _verify_result(result: dict, state, n: int, moved: bool) -> None:
    reason = result.get("reason")
    if not isinstance(reason, str):
        raise BadRecordError("result has no reason")
    if reason == "unfinished":
        if state.is_terminal():
            raise BadRecordError("record says the game is unfinished but its last position is the end of the game")
        if result.get("returns") is not None or result.get("ranks") is not None:
            raise BadRecordError("an unfinished game has no returns or ranks")
    else:
        for key in ("returns", "scores", "ranks"):
            if key not in result:
                raise BadRecordError(f"result has no {key!r}")
        kind, _, seat = reason.partition(":")
        if reason == "normal":
            if not state.is_terminal():
                raise BadRecordError("record says the game ended normally but its last position is not the end")
            expected = list(state.returns())
        elif reason in ("adjudicated:draw", "adjudicated:max-moves"):
            if state.is_terminal():
                raise BadRecordError(f"record says the game was adjudicated ({reason}) but it had ended")
            expected = [0.5] * n                   # a draw: every seat shares first place
        elif reason.startswith("adjudicated:resign:") and reason.rsplit(":", 1)[1].isdigit() \
                and int(reason.rsplit(":", 1)[1]) < n:
            if state.is_terminal():
                raise BadRecordError(f"record says the game was adjudicated ({reason}) but it had ended")
            expected = forfeit_returns(n, int(reason.rsplit(":", 1)[1]))
        elif kind in FORFEITS and seat.isdigit() and int(seat) < n:
            loser = int(seat)
            if state.is_terminal():
                raise BadRecordError(f"record says seat {loser} forfeited ({kind}) but the game had ended")
            if (moved or kind != "crash") and state.current_player() != loser:
                raise BadRecordError(f"record says seat {loser} forfeited ({kind}) but it was "
                                     f"{state.current_player()}'s turn")
            expected = forfeit_returns(n, loser)
        else:
            raise BadRecordError(f"result reason {reason!r} is none of normal, unfinished, "
                                 f"{', '.join(k + ':<seat>' for k in FORFEITS)}, adjudicated:<rule>")
        if not _same(result["returns"], expected):
            raise BadRecordError(f"recorded returns {result['returns']} differ from the recomputed {expected}")
        if result["ranks"] != ranks_from_returns(expected):
            raise BadRecordError(f"recorded ranks {result['ranks']} differ from the recomputed "
                                 f"{ranks_from_returns(expected)}")
    if not _same(result.get("scores"), list(state.scores())):
        raise BadRecordError(f"recorded scores {result.get('scores')} differ from the recomputed "
                             f"{list(state.scores())}")


def _notations(record: GameRecord):
    state = record.new_state()
    for action in record.actions:
        yield state.action_to_str(action)
        state.apply(action)


# --- files: JSON lines, plain or gzip-compressed (recognised by content, not by name) ---------------------------
GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(2) == GZIP_MAGIC
    except OSError:
        return False


def _lines(path):
    """(line number, text) of each line of a plain or gzip file; a damaged or cut-short file ends the lines with
    a BadRecordError for the rest (never another exception)."""
    n = 0
    try:
        opener = gzip.open if is_gzip(path) else open
        with opener(path, "rb") as f:                  # decoded line by line: one bad byte spoils one line
            for n, line in enumerate(f, 1):
                yield n, line
    except (EOFError, OSError, zlib.error) as e:
        where = f"after line {n}" if n else "at its start"
        raise BadRecordError(f"{path}: the file cannot be read {where} ({type(e).__name__}: {e}); a run killed "
                             f"while writing a compressed file loses its last lines") from None


def iter_records(path, problems: list | None = None):
    """Each readable record of ``path``, in order; a message for each line that cannot be read goes to
    ``problems`` (never raises for a bad line: a truncated last line from a killed run is reported, the rest
    kept). A missing file raises BadRecordError."""
    if not os.path.exists(path):
        raise BadRecordError(f"{path}: no such record file")
    problems = problems if problems is not None else []
    try:
        for n, line in _lines(path):
            if not line.strip():
                continue
            try:
                record = GameRecord.from_json(_decode(line))
            except BadRecordError as e:
                problems.append(f"{path}:{n}: {e}")
                continue
            record.source = f"{path}:{n}"
            yield record
    except BadRecordError as e:
        problems.append(str(e))


def _decode(raw: bytes) -> str:
    if b"\0" in raw:
        raise BadRecordError("binary data (NUL bytes), not a JSON line")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadRecordError(f"not UTF-8 text (byte {e.start} of the line)") from None


def read_records(path) -> tuple[list[GameRecord], list[str]]:
    """All records of a JSON-lines file (plain or .gz), and a message for each line that could not be read."""
    problems: list[str] = []
    records = list(iter_records(path, problems))
    return records, problems


def read_whole_runs(paths) -> list[GameRecord]:
    """The records of these files, all or nothing: a line that cannot be read, or a file without records, is a
    BadRecordError naming the file (for figures that would be wrong with a game missing)."""
    records = []
    for path in paths:
        found, problems = read_records(path)
        if problems or not found:
            raise BadRecordError(f"{path}: " + ("; ".join(problems) if problems else "no records"))
        records += found
    return records


def renamed(records: list[GameRecord], old: str, new: str) -> list[GameRecord]:
    """The records with the bot shown as ``old`` shown as ``new`` (its seats, and its side of a pairing), so that
    one configuration recorded under two names (``kleos:time=1`` and the searcher spec it stood for) pools as one
    bot. The specs that played (``bots``) stay as recorded. A BadRecordError where the two names are one, where no
    game seats ``old`` (a misspelt name would otherwise rename nothing, silently), or where a game seats both: those
    two played each other, so they are not one bot."""
    if old == new:
        raise BadRecordError(f"{old!r} twice: name two different bots")
    if not any(old in r.seats for r in records):
        raise BadRecordError(f"no game of these records seats {old!r}")
    out = []
    for r in records:
        if old not in r.seats and old not in ((r.meta or {}).get("pair") or []):
            out.append(r)
            continue
        if new in r.seats:
            raise BadRecordError(f"a game (seed {r.seed}) seats both {old!r} and {new!r}: they played each other, "
                                 "so they are not one bot")
        meta = dict(r.meta or {})
        if isinstance(meta.get("pair"), list):
            meta["pair"] = [new if p == old else p for p in meta["pair"]]
        out.append(replace(r, seats=[new if s == old else s for s in r.seats], meta=meta))
    return out


def _line(record) -> str:
    obj = record.to_dict() if isinstance(record, GameRecord) else record
    return json.dumps(obj, separators=(",", ":"))


def append_record(path, record) -> None:
    """Append one record (a GameRecord or its dict) and flush it to disk. A plain file that ends mid-line (a run
    killed while writing) gets a newline first, so the cut line cannot swallow this one; a ``.gz`` file (or one
    that is gzip already) gets one gzip member a record, which every gzip reader reads as one stream."""
    path = str(path)
    data = (_line(record) + "\n").encode("utf-8")
    if _compressed(path):
        with open(path, "ab") as f:
            f.write(gzip.compress(data, mtime=0))
            f.flush()
            os.fsync(f.fileno())
        return
    with open(path, "a+b") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() > 0:
            f.seek(f.tell() - 1)
            if f.read(1) != b"\n":
                f.write(b"\n")
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _compressed(path: str) -> bool:
    """Whether records go to ``path`` compressed: as the file already is, else by its name (.gz)."""
    if os.path.exists(path) and os.path.getsize(path) > 0:
        return is_gzip(path)
    return path.endswith(".gz")


def write_records(path, records, compress: bool | None = None) -> None:
    """Write ``records`` as a whole new file, replacing it atomically; compressed as ``compress`` says (default:
    when the name ends in .gz)."""
    path = str(path)
    compress = path.endswith(".gz") if compress is None else compress
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".kleos-records-")
    try:
        with os.fdopen(fd, "wb") as raw:
            sink = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) if compress else raw
            for record in records:
                sink.write((_line(record) + "\n").encode("utf-8"))
            if sink is not raw:
                sink.close()
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)           # as an ordinary new file would be, not mkstemp's 0600
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class RecordFile:
    """An append-only record file (plain or .gz) for a run that writes each game as it finishes."""

    def __init__(self, path):
        self.path = str(path)

    def read(self) -> tuple[list[GameRecord], list[str]]:
        """The records already there. A compressed file cut short by a kill is rewritten with its readable
        records first, so that the games appended next can be read back."""
        if not os.path.exists(self.path):
            return [], []
        records, problems = read_records(self.path)
        if is_gzip(self.path) and any("cannot be read" in p for p in problems):
            write_records(self.path, records, compress=True)
            problems = [p + f" (repaired: the {len(records)} readable records were kept)" for p in problems]
        return records, problems

    def repair(self) -> list[str]:
        """Make the file whole before a run goes on with it (``--resume``): drop each record cut short by a kill
        (a line that opens a JSON object and never closes it), so its game is played again and the file reads as
        if the run had never stopped. A message for each line dropped.

        Any other unreadable line (binary data, text that is no record) raises BadRecordError naming
        ``file:line``: that file is no record file, and nothing is written into it."""
        if not os.path.exists(self.path) or is_gzip(self.path):     # read() mends a cut-short gzip file
            return []
        kept, dropped = [], []
        for n, raw in _lines(self.path):
            if not raw.strip():
                continue
            try:
                kept.append(GameRecord.from_json(_decode(raw)))
            except BadRecordError as e:
                text = raw.decode("utf-8", "replace").strip()
                if not (text.startswith("{") and not text.endswith("}")) or b"\0" in raw:
                    raise BadRecordError(f"{self.path}:{n}: {e}; this is no record file of a run, so nothing "
                                         "was written to it (choose another --out)") from None
                dropped.append(f"{self.path}:{n}: a record cut short (by a kill) was dropped; its game is played "
                               "again")
        if dropped:
            write_records(self.path, kept, compress=is_gzip(self.path))
        return dropped

    def append(self, record) -> None:
        append_record(self.path, record)


def play_random_game(game, seed: int, seats=None) -> GameRecord:
    """A record of one game of uniformly random moves (chance by its probabilities), from seed."""
    from engine.rng import RNG
    rng = RNG(seed)
    record = GameRecord(game=game.name, options=dict(game.options), seed=seed,
                        seats=list(seats or ["random"] * game.num_players))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = rng.choice(state.legal_actions())
        record.add(state, action)
        state.apply(action)
    record.finish(state)
    return record

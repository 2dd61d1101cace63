"""Game records: one JSON object a game, enough to replay every intermediate state exactly.

A record holds the game and its options, the referee's seed, the seats (bot specs), every action in order
(chance outcomes included, as ints with their notation beside them), the result, the timings and the versions.
Because a game has no randomness of its own (all of it is chance actions), replaying the actions rebuilds it.
"""
from __future__ import annotations

import json
import platform
import time
from dataclasses import asdict, dataclass, field
from typing import Iterator

from engine.chance import sample_outcome
from engine.errors import BadRecordError, IllegalActionError
from engine.registry import load_game

RECORD_FORMAT = 1


def versions() -> dict:
    from engine import __version__
    return {"kleos": __version__, "python": platform.python_version(), "format": RECORD_FORMAT}


@dataclass
class GameRecord:
    game: str
    options: dict
    seed: int
    seats: list[str]
    actions: list[int] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)          # notation of each action, for people
    players: list[int] = field(default_factory=list)        # who chose each action (-1: chance)
    times: list[float] = field(default_factory=list)        # seconds each decision took (0 for chance)
    result: dict | None = None                              # returns, scores, ranks, reason
    started: float = field(default_factory=time.time)
    ended: float | None = None
    versions: dict = field(default_factory=versions)
    meta: dict = field(default_factory=dict)                # free: tournament id, game index, policies...

    def new_state(self):
        return load_game(self.game, **self.options).new_initial_state()

    def add(self, state, action: int, seconds: float = 0.0):
        """Append ``action`` as played in ``state`` (call before applying it)."""
        self.actions.append(int(action))
        self.moves.append(state.action_to_str(action))
        self.players.append(state.current_player())
        self.times.append(round(seconds, 6))

    def finish(self, state, reason: str = "normal", returns: list[float] | None = None):
        rets = returns if returns is not None else state.returns()
        self.result = {
            "returns": list(rets),
            "scores": list(state.scores()),
            "ranks": ranks_from_returns(rets),
            "reason": reason,
        }
        self.ended = time.time()

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
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in obj.items() if k in known})

    @classmethod
    def from_json(cls, line: str) -> "GameRecord":
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise BadRecordError(f"game record is not valid JSON: {e}") from None
        return cls.from_dict(obj)


def ranks_from_returns(returns: list[float]) -> list[int]:
    """1-based ranks (ties share the better rank) from rank returns."""
    return [1 + sum(1 for o in returns if o > r + 1e-12) for r in returns]


def replay(record: GameRecord) -> Iterator:
    """Yield the initial state and the state after every recorded action (each a fresh copy).

    Raises BadRecordError naming the first action that is not legal where the record puts it.
    """
    try:
        state = record.new_state()
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


def verify(record: GameRecord) -> None:
    """Replay ``record`` and check it reaches its recorded result (raises BadRecordError if not)."""
    state = final_state(record)
    if record.result is None:
        raise BadRecordError("record has no result to verify")
    reason = record.result.get("reason", "normal")
    if reason == "normal":
        if not state.is_terminal():
            raise BadRecordError(f"record ends after {len(record.actions)} actions but the game is not over")
        if [round(x, 9) for x in state.returns()] != [round(x, 9) for x in record.result["returns"]]:
            raise BadRecordError(
                f"replayed returns {state.returns()} differ from the recorded {record.result['returns']}")
    if record.moves and record.moves != [m for m in _notations(record)]:
        raise BadRecordError("recorded move notation differs from the replayed notation")


def _notations(record: GameRecord):
    state = record.new_state()
    for action in record.actions:
        yield state.action_to_str(action)
        state.apply(action)


def read_records(path) -> tuple[list[GameRecord], list[str]]:
    """All records of a JSON-lines file, and a message for each line that could not be read (never raises for
    a bad line: a truncated last line from a killed run is reported, the rest kept)."""
    records, problems = [], []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                records.append(GameRecord.from_json(line))
            except BadRecordError as e:
                problems.append(f"{path}:{n}: {e}")
    return records, problems


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

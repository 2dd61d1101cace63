"""engine.records: a record replays exactly; bad or truncated records give clear errors and lose nothing."""
import json

import pytest

from engine.errors import BadRecordError
from engine.records import GameRecord, final_state, play_random_game, ranks_from_returns, read_records, verify
from engine.registry import load_game


@pytest.fixture
def record():
    return play_random_game(load_game("goofspiel", players=3, cards=6), seed=8)


def test_record_holds_everything_needed(record):
    obj = json.loads(record.to_json())
    for key in ("game", "options", "seed", "seats", "actions", "moves", "players", "times", "result", "versions"):
        assert key in obj
    assert obj["result"]["reason"] == "normal"
    assert len(obj["actions"]) == len(obj["moves"]) == len(obj["players"])
    assert -1 in obj["players"]                     # chance outcomes are recorded
    verify(GameRecord.from_json(record.to_json()))


def test_tampered_record_fails_verification(record):
    obj = record.to_dict()
    obj["result"]["returns"] = list(reversed(obj["result"]["returns"])) if len(set(obj["result"]["returns"])) > 1 \
        else [1.0, 0.0, 0.5]
    with pytest.raises(BadRecordError, match="differ"):
        verify(GameRecord.from_dict(obj))


def test_illegal_action_in_record_is_named(record):
    obj = record.to_dict()
    obj["actions"][3] = 999
    with pytest.raises(BadRecordError, match="action #3"):
        final_state(GameRecord.from_dict(obj))


def test_truncated_record_stops_short(record):
    obj = record.to_dict()
    for name in ("actions", "players", "times", "evals"):
        obj[name] = obj[name][:-2]
    obj["moves"] = []
    with pytest.raises(BadRecordError, match="not the end"):
        verify(GameRecord.from_dict(obj))


@pytest.mark.parametrize("line, message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"game": "goofspiel"}', "lacks options, seed, seats, actions"),
    ('{"game": "goofspiel", "options": {}, "seed": 1, "seats": [], "actions": ["x"]}', "list of integers"),
])
def test_malformed_records_are_refused(line, message):
    with pytest.raises(BadRecordError, match=message):
        GameRecord.from_json(line)


def test_read_records_keeps_good_lines_and_reports_bad_ones(tmp_path, record):
    path = tmp_path / "records.jsonl"
    line = record.to_json()
    path.write_text(line + "\n" + line + "\n" + line[: len(line) // 2])     # a run killed mid-write
    records, problems = read_records(path)
    assert len(records) == 2 and len(problems) == 1
    assert "records.jsonl:3" in problems[0]


def test_ranks_from_returns():
    assert ranks_from_returns([1.0, 0.0, 0.5]) == [1, 3, 2]
    assert ranks_from_returns([0.75, 0.75, 0.0]) == [1, 1, 3]

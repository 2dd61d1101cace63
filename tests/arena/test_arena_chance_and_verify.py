"""The referee's dice are secret until the game is over, and `replay --verify` recomputes everything a record says.

A bot that imports Kleos knows the public seed; it must not be able to work out the dice to come from it. And a
record file is evidence: a forged rank, score, return, forfeit, mover, seed or salt is found as a forged move is.
"""
import copy
import json

import pytest

from arena.referee import Referee, play_game
from arena.replay import verify_file
from arena.tournament import TournamentConfig, run_tournament
from bots import make_bot
from engine.chance import ChanceStream, chance_uniform, keyed_salt, new_salt, secret_key
from engine.errors import BadRecordError
from engine.records import GameRecord, read_records, verify

G = {"players": 3, "cards": 8}


def _prizes(record):
    return [m for m, p in zip(record.moves, record.players) if p == -1]


def test_the_seed_alone_does_not_give_the_dice():
    """Two games with the same public seed draw different prizes: the salt from the OS is the secret half."""
    a = play_game("goofspiel", G, ["random"] * 3, 42, salt=new_salt())
    b = play_game("goofspiel", G, ["random"] * 3, 42, salt=new_salt())
    assert a.seed == b.seed and a.salt != b.salt and _prizes(a) != _prizes(b)
    verify(a)
    verify(b)


def test_the_tournament_command_draws_a_secret_every_run(kleos, tmp_path):
    args = ("tournament", "goofspiel", "-o", "cards=8", "--bot", "random", "--bot", "greedy", "--games", 2, "-j", 1,
            "-q", "--seed", 3)
    kleos(*args, "--out", "a.jsonl")
    kleos(*args, "--out", "b.jsonl")
    a, b = (read_records(tmp_path / name)[0] for name in ("a.jsonl", "b.jsonl"))
    assert [r.seed for r in a] == [r.seed for r in b]                       # the same public seeds
    assert sorted(tuple(_prizes(r)) for r in a) != sorted(tuple(_prizes(r)) for r in b)   # other dice
    assert "0 do not" in kleos("replay", "--verify", "a.jsonl").stdout


def test_the_salt_is_revealed_only_when_the_game_is_over():
    seen = []
    referee = Referee("goofspiel", G, [make_bot("random") for _ in range(3)], 7)
    referee.on_move = lambda record, before, action, after: seen.append(record.salt)
    record = referee.play()
    assert seen and all(s is None for s in seen)                 # never in the record while the game runs
    assert record.salt == referee.salt and isinstance(record.salt, int)
    assert "salt" in record.to_dict() and record.to_dict()["salt"] == referee.salt


def test_chance_is_a_keyed_hash_not_a_recoverable_stream():
    s = ChanceStream(1, 2)
    outcomes = [(i, 1 / 6) for i in range(6)]
    draws = [s.draw(outcomes) for _ in range(50)]
    again = ChanceStream(1, 2)
    assert [again.draw(outcomes) for _ in range(50)] == draws and len(set(draws)) == 6
    assert [chance_uniform(1, 2, k) for k in range(3)] != [chance_uniform(1, 3, k) for k in range(3)]
    assert all(0.0 <= chance_uniform(5, 9, k) < 1.0 for k in range(100))
    assert keyed_salt(b"key", 1) != keyed_salt(b"key", 2) and keyed_salt(b"key", 1) == keyed_salt(b"key", 1)
    assert keyed_salt(b"key", 1) != keyed_salt(b"other", 1)


def test_rotations_share_their_dice_and_runs_do_not(tmp_path):
    cfg = TournamentConfig("goofspiel", G, ["random", "greedy", "random"], games=6, seed=3)
    one = run_tournament(cfg, tmp_path / "a.jsonl", workers=1, progress=False, chance_key=secret_key())
    two = run_tournament(cfg, tmp_path / "b.jsonl", workers=1, progress=False, chance_key=secret_key())
    for result in (one, two):
        by_block = {}
        for r in result.records:
            by_block.setdefault(r.meta["block"], set()).add((tuple(_prizes(r)), r.salt))
            verify(r)
        assert all(len(v) == 1 for v in by_block.values())      # every rotation of a block: the same dice
    dice = lambda result: sorted(tuple(_prizes(r)) for r in result.records)   # noqa: E731
    assert dice(one) != dice(two)                                # a new run, a new secret: other dice
    again = run_tournament(cfg, tmp_path / "c.jsonl", workers=1, progress=False, chance_key=b"k")
    same = run_tournament(cfg, tmp_path / "d.jsonl", workers=1, progress=False, chance_key=b"k")
    assert dice(again) == dice(same)


def test_a_resumed_block_keeps_its_salt(tmp_path):
    cfg = TournamentConfig("goofspiel", G, ["random", "greedy", "random"], games=3, seed=4)
    path = tmp_path / "r.jsonl"
    run_tournament(cfg, path, workers=1, progress=False, limit=1, chance_key=secret_key())
    run_tournament(cfg, path, workers=1, progress=False, resume=True, chance_key=secret_key())
    records, problems = read_records(path)
    assert len(records) == 3 and not problems
    assert len({(tuple(_prizes(r)), r.salt) for r in records}) == 1


def _forged(record, change):
    obj = copy.deepcopy(record.to_dict())
    change(obj)
    return GameRecord.from_dict(obj)


@pytest.fixture(scope="module")
def honest():
    cfg = TournamentConfig("goofspiel", G, ["random", "greedy", "random"], games=3, seed=5)
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        return run_tournament(cfg, f"{d}/h.jsonl", workers=1, progress=False).records[0]


def _swap_ranks(o):
    o["result"]["ranks"] = o["result"]["ranks"][::-1] if len(set(o["result"]["ranks"])) > 1 else [1, 2, 3]


@pytest.mark.parametrize("what, change, words", [
    ("ranks", _swap_ranks, "ranks"),
    ("scores", lambda o: o["result"]["scores"].__setitem__(0, o["result"]["scores"][0] + 5), "scores"),
    ("returns", lambda o: o["result"].__setitem__("returns", [1.0, 0.0, 0.0]), "returns"),
    ("forfeit", lambda o: o["result"].update(reason="timeout:1", returns=[0.75, 0.0, 0.75], ranks=[1, 3, 1]),
     "forfeited"),
    ("reason", lambda o: o["result"].update(reason="bribed:0"), "reason"),
    ("mover", lambda o: o["players"].__setitem__(1, (o["players"][1] + 1) % 3), "moved"),
    ("seed", lambda o: o.__setitem__("seed", o["seed"] + 1), "seed"),
    ("salt", lambda o: o.__setitem__("salt", o["salt"] + 1), "draw"),
    ("notation", lambda o: o["moves"].__setitem__(1, "bid:99"), "notation"),
])
def test_verify_finds_every_forged_field(honest, what, change, words):
    verify(honest)
    with pytest.raises(BadRecordError, match=words):
        verify(_forged(honest, change))


def test_a_result_without_returns_is_a_clear_error_and_verify_names_file_and_line(honest, tmp_path):
    lines = [honest.to_json(), "this line is no record",
             json.dumps({k: v for k, v in honest.to_dict().items() if k != "result"} | {
                 "result": {"reason": "normal", "scores": honest.result["scores"], "ranks": honest.result["ranks"]}}),
             _forged(honest, _swap_ranks).to_json()]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    ok, failures = verify_file(str(path), echo=lambda m: None)
    assert ok == 1 and len(failures) == 3
    assert failures[0].startswith(f"{path}:2:")
    assert any(f.startswith(f"{path}:3:") and "returns" in f for f in failures)
    assert any(f.startswith(f"{path}:4:") and "ranks" in f for f in failures)

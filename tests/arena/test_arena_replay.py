"""`kleos replay`: stepping through a record from one seat (hidden moves stay hidden), --verify catching a
record that does not reach its result."""
import io
import json

from arena.referee import play_game
from arena.replay import replay_game, verify_file


def _write(path, records):
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


def test_replay_from_a_seat_hides_the_other_seats_bids(tmp_path):
    record = play_game("goofspiel", {"players": 2, "cards": 4}, ["random", "greedy"], 8)
    _write(tmp_path / "r.jsonl", [record.to_dict()])
    lines = []
    replay_game(tmp_path / "r.jsonl", 0, seat=1, echo=lines.append)
    text = "\n".join(lines)
    assert text.count("P0: (hidden)") == 4 and "P1: bid:" in text
    assert "bid (face down)" in text                   # P0's bid on the board, face down, as seat 1 saw it
    lines = []
    replay_game(tmp_path / "r.jsonl", 0, seat=None, echo=lines.append)
    assert "(hidden)" not in "\n".join(lines) and "P0: bid:" in "\n".join(lines)


def test_interactive_stepping(tmp_path):
    record = play_game("goofspiel", {"players": 2, "cards": 3}, ["random", "random"], 1)
    _write(tmp_path / "r.jsonl", [record.to_dict()])
    lines = []
    replay_game(tmp_path / "r.jsonl", 0, seat=1, interactive=True, echo=lines.append,
                inp=io.StringIO("\n\nb\n5\nq\n"))
    prompts = [line for line in lines if line.startswith("[")]
    assert [p.split("]")[0] for p in prompts] == ["[0/9", "[1/9", "[2/9", "[1/9", "[5/9"]


def test_verify_catches_a_tampered_record(tmp_path, kleos):
    good = play_game("goofspiel", {"players": 3, "cards": 4}, ["random"] * 3, 2).to_dict()
    bad = json.loads(json.dumps(good))
    bad["result"]["returns"] = list(reversed(bad["result"]["returns"])) if len(set(bad["result"]["returns"])) > 1 \
        else [1.0, 0.0, 0.0]
    short = json.loads(json.dumps(good))
    short["actions"] = short["actions"][:-2]
    short["moves"] = short["moves"][:-2]
    _write(tmp_path / "v.jsonl", [good, bad, short])
    ok, failures = verify_file(tmp_path / "v.jsonl", echo=lambda m: None)
    assert ok == 1 and len(failures) == 2
    proc = kleos("replay", "v.jsonl", "--verify", check=False)
    assert proc.returncode == 1 and "FAILED v.jsonl:2:" in proc.stdout and "FAILED v.jsonl:3:" in proc.stdout
    proc = kleos("replay", "v.jsonl", "--game", 7, check=False)
    assert proc.returncode != 0 and "no game 7" in proc.stderr

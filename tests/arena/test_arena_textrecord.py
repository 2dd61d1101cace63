"""`kleos export --text` / `kleos import` (arena/textrecord.py) and `kleos replay --moves/--ply/--final/--stats`:
record -> text -> record gives the same record, which replays identically, plain and .gz; bad text is refused
with the line named."""
import gzip

import pytest

from arena.referee import play_game
from arena.replay_views import move_list, position, stats
from arena.textrecord import export_text, import_text, result_text
from engine.errors import BadRecordError
from engine.records import GameRecord, append_record, final_state, read_records, verify, write_records


@pytest.fixture(scope="module")
def games():
    return [play_game("goofspiel", {"players": 2, "cards": 4}, ["ismcts:iterations=40", "greedy"], 5,
                      event="tournament"),
            play_game("goofspiel", {"players": 3, "cards": 3}, ["random", "greedy", "mcts:iterations=20"], 6),
            play_game("polis", {"players": 2}, ["random", "greedy"], 2)]


def test_text_has_tags_numbered_moves_and_comments(games):
    text = export_text(games[0])
    for tag in ('[Event "tournament"]', "[Date \"20", '[Game "goofspiel"]', '[Options {"players": 2, "cards": 4}]',
                "[Seed 5]", '[Seat0 "ismcts:iterations=40"]', '[Bot1 "greedy"]', "[Result ", '[Termination "normal"]'):
        assert tag in text
    assert "\n1. chance: prize:" in text and "2. P0: bid:" in text
    assert "iterations=40" in text and "time=" in text         # the searcher's report and its time, as a comment
    assert result_text({"ranks": [1, 2]}) == "1-0" and result_text({"ranks": [1, 1]}) == "1/2-1/2"
    assert result_text({"ranks": [2, 1, 3]}) == "2,1,3" and result_text(None) == "*"


def test_round_trip_gives_the_same_record_which_replays_identically(games):
    text = "\n".join(export_text(g) for g in games)
    back = import_text(text)
    assert back == games
    for original, again in zip(games, back):
        verify(again)
        assert final_state(again).returns() == final_state(original).returns()
        assert export_text(again) == export_text(original)       # text -> record -> text is stable too


@pytest.mark.parametrize("name", ["games.jsonl", "games.jsonl.gz"])
def test_command_line_round_trip_plain_and_gz(tmp_path, kleos, games, name):
    for g in games:
        append_record(tmp_path / name, g)
    if name.endswith(".gz"):
        assert (tmp_path / name).read_bytes()[:2] == b"\x1f\x8b"
    kleos("export", name, "--text", "--out", "games.txt")
    kleos("import", "games.txt", "--out", "again." + name.split(".", 1)[1])
    again, problems = read_records(tmp_path / ("again." + name.split(".", 1)[1]))
    assert problems == [] and again == games
    assert "3 games replay to their recorded results" in kleos("replay", "again." + name.split(".", 1)[1],
                                                                "--verify").stdout
    assert kleos("export", name, "--text", "-g", "1").stdout == export_text(games[1])
    refused = kleos("import", "games.txt", "--out", "games.txt", check=False)
    assert refused.returncode == 1 and "already exists" in refused.stderr


def test_result_only_records_export_and_import(games):
    record = GameRecord.from_dict({**games[0].to_dict(), "actions": [], "moves": [], "players": [], "times": [],
                                   "evals": [], "result_only": True})
    text = export_text(record)
    assert "[ResultOnly true]" in text and "were not kept" in text
    assert import_text(text) == [record]


def test_a_move_may_name_its_action_number(games):
    g = games[0]
    i = g.players.index(0)
    text = export_text(g).replace(f"{i + 1}. P0: {g.moves[i]}", f"{i + 1}. P0: {g.moves[i]} #{g.actions[i]}")
    assert import_text(text) == [g]


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("2. P0: bid:", "2. P0: bad:"), "line 2[0-9]: 'bad:.*' is not a move of this position"),
    (lambda t: t.replace("2. P0:", "2. P1:"), "P1 moves here, but it is P0's turn"),
    (lambda t: t.replace("\n2. P0:", "\n7. P0:"), "move 7 where move 2 was expected"),
    (lambda t: t.replace("{value=", "{value=oops, x="), "value of value .* is not a number"),
    (lambda t: t.replace("[Seed 5]", '[Seed "five"]'), "tag Seed must be int"),
    (lambda t: t.replace("[Seed 5]", "[Seed {5]"), "tag Seed is not JSON"),
    (lambda t: t.replace('[Game "goofspiel"]\n', ""), "no Game tag"),
    (lambda t: t.replace('[Game "goofspiel"]', '[Game "chess"]'), "cannot be built"),
    (lambda t: "1. P0: bid:1\n" + t, "a move before any tag pairs"),
    (lambda t: "", "no game found"),
    (lambda t: t + "99. P0: bid:1\n", "move 99 where move"),
])
def test_bad_text_is_refused_naming_the_line(games, change, message):
    with pytest.raises(BadRecordError, match=message):
        import_text(change(export_text(games[0])), "g.txt")


def test_import_of_a_binary_file_is_a_clear_error(tmp_path, kleos):
    (tmp_path / "x.gz").write_bytes(gzip.compress(b"hello"))
    proc = kleos("import", "x.gz", "--out", "y.jsonl", check=False)
    assert proc.returncode == 1 and "not a text export" in proc.stderr and "Traceback" not in proc.stderr


def test_replay_views(tmp_path, kleos, games):
    write_records(tmp_path / "g.jsonl.gz", games)
    lines = move_list(games[0])
    assert len(lines) == len(games[0].actions) and lines[1].startswith("2. P0: bid:")
    hidden = move_list(games[0], seat=1)
    assert any(line.endswith("P0: (hidden)") for line in hidden)      # seat 1 never sees P0's bid as it is made
    assert position(games[0], 0) == games[0].new_state().render(None)
    assert "P1" in stats(games[0])[2] and "iterations" in stats(games[0])[0]
    with pytest.raises(BadRecordError, match="--ply must be 0..12"):
        position(games[0], 13)
    out = kleos("replay", "g.jsonl.gz", "--moves", "--final", "--stats").stdout
    assert "result: " in out and "2. P0: bid:" in out and "ms/move" in out
    assert kleos("replay", "g.jsonl.gz", "--ply", "0", "-g", "2").stdout.count("polis") >= 1
    bad = kleos("replay", "g.jsonl.gz", "--ply", "-1", check=False)
    assert bad.returncode != 0 and "--ply" in bad.stderr and "Traceback" not in bad.stderr

"""scripts/turn_times.py (docs/strength.md, "A turn's time shared evenly"): each bot's real decisions of a turn by
their place in it, from kept records. Checked on refereed Polis games (turns of several decisions, forced ones
among them) whose decision times are set by hand."""
import importlib.util
from pathlib import Path

from arena.referee import play_game
from engine.records import replay

_PATH = Path(__file__).resolve().parents[2] / "scripts" / "turn_times.py"
_spec = importlib.util.spec_from_file_location("turn_times", _PATH)
turn_times = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(turn_times)


def _record(seed):
    """A random Polis game whose real decisions took 1 s each and forced ones 1 ms, so every sum counts them."""
    record = play_game("polis", {}, ["random", "greedy"], seed)
    states = list(replay(record))
    record.times = [0.0 if p < 0 else (1.0 if len(s.legal_actions()) > 1 else 0.001)
                    for p, s in zip(record.players, states)]
    return record


def test_every_real_decision_has_its_place_and_every_turn_its_time():
    records = [_record(1), _record(2)]
    times = turn_times.turn_times(records, positions=4)
    for seat, bot in enumerate(("random", "greedy")):
        real = sum(1 for r in records for p, t in zip(r.players, r.times) if p == seat and t == 1.0)
        counts = [len(v) for v in times[bot]["by_position"]]
        assert sum(counts) == real > 0
        assert all(t == 1.0 for v in times[bot]["by_position"] for t in v)     # no forced decision among them
        assert counts[0] >= counts[1] >= counts[2] > 0    # a turn's 3rd real decision follows its 1st and 2nd
        total = sum(t for r in records for p, t in zip(r.players, r.times) if p == seat)
        assert abs(sum(times[bot]["turns"]) - total) < 1e-9          # the turns' times add up to the bot's time
        # a turn ends where the other seat decides: count those changes of mover
        turns = 0
        for r in records:
            movers = [p for p in r.players if p >= 0]
            turns += sum(1 for i, p in enumerate(movers) if p == seat and (i == 0 or movers[i - 1] != p))
        assert len(times[bot]["turns"]) == turns


def test_the_table_names_each_bot_and_gathers_the_last_place(tmp_path, capsys):
    from engine.records import write_records
    path = tmp_path / "games.jsonl"
    write_records(str(path), [_record(3)])
    assert turn_times.main([str(path), "--positions", "3"]) == 0
    out = capsys.readouterr().out
    assert "| bot | 1 | 2 | 3+ | a turn |" in out and "| `random` |" in out and "| `greedy` |" in out
    assert turn_times.main([str(tmp_path / "missing.jsonl")]) == 2
    assert "no such record file" in capsys.readouterr().err


def test_what_pace_last_would_know_counts_turns_and_never_a_wrong_last_in_polis(tmp_path, capsys):
    """In Polis every world of an information set agrees on whether a turn goes on (tests/unit/test_turn_ends.py),
    so a decision pace=last calls the turn's last always is; and it knows some turns' last decisions."""
    records = [_record(1), _record(2)]
    known = turn_times.last_known(records)
    seat_turns = sum(len(turn_times.turn_times([r], 4)[bot]["turns"]) for r in records for bot in ("random", "greedy"))
    assert known["turns"] == seat_turns and 0 < known["known"] < known["turns"] and known["wrong"] == 0
    from engine.records import write_records
    path = tmp_path / "games.jsonl"
    write_records(str(path), records)
    assert turn_times.main([str(path), "--last"]) == 0
    assert f"pace=last knows the last real decision of {known['known']} of {known['turns']} turns" in \
        capsys.readouterr().out

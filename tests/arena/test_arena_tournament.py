"""Tournaments end to end through the `kleos` command: schedules, records, --resume after a kill, replay."""
import collections
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from arena.referee import Policies
from arena.tournament import TournamentConfig, TournamentError, run_tournament, schedule, tables
from engine.records import read_records, verify


def test_schedule_rotates_seats_and_shares_seeds():
    cfg = TournamentConfig("goofspiel", {"players": 3}, ["a", "b", "c", "d"], games=6)
    jobs = schedule(cfg)
    assert len(tables(cfg)) == 4 and len(jobs) == 4 * 6
    seats = collections.Counter((job.seats[s], s) for job in jobs for s in range(3))
    assert set(seats.values()) == {6}                       # every bot in every seat equally often
    by_block = collections.defaultdict(set)
    for job in jobs:
        by_block[job.block].add(job.seed)
    assert all(len(s) == 1 for s in by_block.values())      # one seed a block, for all rotations and tables
    assert len({job.id for job in jobs}) == len(jobs)


def test_gauntlet_and_small_fields():
    cfg = TournamentConfig("goofspiel", {"players": 2}, ["new", "x", "y", "z"], games=2, mode="gauntlet")
    assert tables(cfg) == [(0, 1), (0, 2), (0, 3)]
    cfg = TournamentConfig("goofspiel", {"players": 4}, ["a", "b"], games=4)
    assert tables(cfg) == [(0, 1, 0, 1)]
    assert cfg.labels == ["a", "b"]
    assert TournamentConfig("goofspiel", {}, ["random", "random"]).labels == ["random", "random#2"]
    with pytest.raises(TournamentError):
        TournamentConfig("goofspiel", {}, ["a"], mode="sprt")
    with pytest.raises(TournamentError):
        TournamentConfig("goofspiel", {}, ["a", "b"], games=0)


def test_tournament_end_to_end_through_the_cli(kleos, tmp_path):
    out = kleos("tournament", "goofspiel", "--bot", "random", "--bot", "greedy", "--bot", "mcts:iterations=20",
                "--games", 4, "-o", "cards=6", "--out", "t.jsonl", "-j", 2, "--chart", "r.png",
                "--bootstrap", 50).stdout
    assert "Crosstable" in out and "Ratings (Bradley-Terry" in out and "openskill" in out
    for bot in ("random", "greedy", "mcts:iterations=20"):
        assert bot in out
    records, problems = read_records(tmp_path / "t.jsonl")
    assert len(records) == 12 and not problems
    for r in records:
        verify(r)
    assert (tmp_path / "r.png").stat().st_size > 1000
    again = kleos("ratings", "t.jsonl", "--bootstrap", 50).stdout
    assert again.split("Crosstable")[1].split("chart saved")[0] == out.split("Crosstable")[1].split("chart saved")[0]
    verified = kleos("replay", "t.jsonl", "--verify").stdout
    assert "12 games replay to their recorded results, 0 do not" in verified
    # the file exists: a second run without --resume refuses, naming the way out
    proc = kleos("tournament", "goofspiel", "--bot", "random", "--bot", "greedy", "--out", "t.jsonl", check=False)
    assert proc.returncode != 0 and "--resume" in proc.stderr


def test_three_player_tournament_uses_plackett_luce(kleos, tmp_path):
    out = kleos("tournament", "goofspiel", "-p", 3, "-o", "cards=5", "--bot", "random", "--bot", "greedy",
                "--bot", "ismcts:iterations=30", "--games", 3, "--out", "t3.jsonl", "-j", 1, "-q",
                "--bootstrap", 30).stdout
    assert "Plackett-Luce" in out
    assert len(read_records(tmp_path / "t3.jsonl")[0]) == 3


def test_resume_after_kill_loses_and_repeats_nothing(child_env, tmp_path, kleos):
    """Kill the tournament process midway, cut its last line short, resume: every game exactly once."""
    args = ["tournament", "goofspiel", "--bot", "mcts:time=0.004", "--bot", "random", "--games", 30,
            "-o", "cards=8", "--out", "k.jsonl", "-j", 2, "--seed", 5]
    proc = subprocess.Popen([sys.executable, "-m", "arena.cli", *map(str, args)], cwd=tmp_path, env=child_env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    path = tmp_path / "k.jsonl"
    deadline = time.time() + 60
    while time.time() < deadline:
        if path.exists() and path.read_text().count("\n") >= 4:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)                  # the whole process group: no worker finishes later
    proc.wait()
    before = path.read_text().count("\n")
    assert 4 <= before < 30, f"the kill came too late ({before} games done)"
    with open(path, "a") as f:
        f.write('{"game":"goofspiel","opt')               # a record cut short by the kill
    out = kleos(*args, "--resume", "-q")
    assert "cut short" in out.stderr                     # the torn line was dropped and its game played again
    records, problems = read_records(path)
    assert not problems and path.read_text().count("\n") == 30       # as if the run had never stopped
    assert "30 games replay to their recorded results, 0 do not" in kleos("replay", "k.jsonl", "--verify").stdout
    jobs = [r.meta["job"] for r in records]
    assert len(jobs) == 30 and len(set(jobs)) == 30
    for r in records:
        verify(r)
    assert "60 games" not in out.stdout and "30 games" in out.stdout
    # resuming a finished tournament plays nothing; resuming with other bots is refused
    assert "0 played now, 30 from before" in kleos(*args, "--resume", "-q").stderr
    other = kleos("tournament", "goofspiel", "--bot", "greedy", "--bot", "random", "--out", "k.jsonl", "--resume",
                  check=False)
    assert other.returncode != 0 and "another tournament" in other.stderr


def test_crashing_bot_is_taken_out_and_the_tournament_goes_on(player, tmp_path):
    cfg = TournamentConfig("goofspiel", {"players": 2, "cards": 4}, [player("--mode", "crash"), "random", "greedy"],
                           games=6, policies=Policies())
    messages = []
    result = run_tournament(cfg, tmp_path / "c.jsonl", workers=1, progress=False, echo=messages.append)
    crashed = [r for r in result.records if r.result["reason"].startswith("crash")]
    assert 3 <= len(crashed) < 12
    assert cfg.labels[0] in result.removed and "taken out" in " ".join(messages)
    others = [r for r in result.records if cfg.labels[0] not in r.seats]
    assert len(others) == 6                       # random against greedy: all played
    assert len(read_records(tmp_path / "c.jsonl")[0]) == len(result.records)


def test_bad_bot_spec_fails_before_any_game(kleos, tmp_path):
    proc = kleos("tournament", "goofspiel", "--bot", "random", "--bot", "mcts:iterashuns=5", "--out", "x.jsonl",
                 check=False)
    assert proc.returncode != 0 and "iterashuns" in proc.stderr
    assert not (tmp_path / "x.jsonl").exists()
    proc = kleos("tournament", "nosuchgame", "--bot", "random", check=False)
    assert proc.returncode != 0 and "unknown game" in proc.stderr


def test_sprt_through_the_cli(kleos):
    # the arena salts chance with a secret key, so each run plays new deals: A is made strong enough, and the test
    # strict enough, that H0 (a wrong verdict the test would fail on) stays rare. 200 iterations once lost 3-4-3
    # in 10 games; 1,000 iterations (about 78% against random here, +230 Elo) once drew H0 at [0, 150] with
    # alpha = beta = 0.1 (6-1-9 in 16); at [0, 100] with 0.05 a wrong H0 needs a far longer run of bad deals
    strong = kleos("sprt", "goofspiel", "--bot", "ismcts:iterations=1000", "--bot", "random", "--elo0", 0,
                   "--elo1", 100, "--alpha", 0.05, "--beta", 0.05, "-o", "cards=6", "--out", "s.jsonl", "-q",
                   check=False)
    assert strong.returncode == 0 and "H1 accepted" in strong.stdout, strong.stdout + strong.stderr
    same = kleos("sprt", "goofspiel", "-p", 3, "--bot", "random", "--bot", "random", "--elo0", 0, "--elo1", 150,
                 "--alpha", 0.1, "--beta", 0.1, "-o", "cards=5", "--out", "s3.jsonl", "-q", check=False)
    assert same.returncode == 1 and "H0 accepted" in same.stdout, same.stdout + same.stderr


def test_ratings_survive_a_corrupt_record_file(kleos, tmp_path):
    from arena.referee import play_game
    with open(tmp_path / "mix.jsonl", "w") as f:
        for seed in range(4):
            f.write(play_game("goofspiel", {"players": 2, "cards": 4}, ["random", "greedy"], seed).to_json() + "\n")
        f.write("this is not json\n")
        f.write(json.dumps({"game": "goofspiel"}) + "\n")
    proc = kleos("ratings", "mix.jsonl", "--bootstrap", 10)
    assert "4 games" in proc.stdout and proc.stderr.count("warning: skipped") == 2
    verify_proc = kleos("replay", "mix.jsonl", "--verify", check=False)
    assert verify_proc.returncode == 1 and "4 games replay" in verify_proc.stdout


def test_a_tournament_replays_exactly_from_its_seed(tmp_path):
    """Iteration-budgeted bots are seeded from the game seed and seat: the same tournament, the same games."""
    cfg = TournamentConfig("goofspiel", {"players": 3, "cards": 5}, ["ismcts:iterations=30", "greedy", "random"],
                           games=3, seed=9)
    runs = []
    for name in ("a.jsonl", "b.jsonl"):
        result = run_tournament(cfg, tmp_path / name, workers=1, progress=False, chance_key=b"the same key")
        runs.append({r.meta["job"]: r.actions for r in result.records})
    assert runs[0] == runs[1] and len(runs[0]) == 3


def test_games_lists_each_game_and_its_tuned_search_default(kleos, child_env):
    """`kleos games`: one block a game, plain words (no markup), every line within the terminal's width."""
    out = kleos("games").stdout
    blocks = {b.split(":")[0]: b for b in out.strip().split("\n\n")}
    assert {"goofspiel", "mare_nostrum", "pantikapaion", "polis"} <= set(blocks)
    assert "3-5 players (default 5)" in blocks["mare_nostrum"]
    assert "search bots use depth=300" in blocks["mare_nostrum"]
    assert "with 5 players the kleos bot plays ismcts:" in " ".join(blocks["mare_nostrum"].split())
    assert "search bots use depth=24" in blocks["polis"] and "use rollout=heuristic" in blocks["polis"]
    assert "search bots use" not in blocks["goofspiel"]
    assert "cards=13" in blocks["goofspiel"] and "(3-24)" in blocks["goofspiel"]
    assert "``" not in out and "{" not in out
    assert max(map(len, out.splitlines())) <= 100

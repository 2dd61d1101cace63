"""Every path and number of the `kleos` command is checked before any game is played (issue: trust nothing).

Each case is a command a careless or hostile user could type; each must exit non-zero at once with a message that
names the option and the problem, leave no record file behind, and never show a traceback.
"""
import os
import sys

import pytest

from arena.referee import Policies, Referee
from bots import RefereeError, make_bot

G = ("goofspiel", "-o", "cards=3")
BOTS = ("--bot", "random", "--bot", "greedy")


def _refused(proc, *words):
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0, text
    assert "Traceback" not in text, text
    for word in words:
        assert word in text, (word, text)


@pytest.mark.parametrize("args, words", [
    (("tournament", *G, *BOTS, "--out", "nodir/t.jsonl"), ("--out", "does not exist")),
    (("tournament", *G, *BOTS, "--out", "."), ("--out", "folder")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "--chart", "nodir/c.png"), ("--chart", "does not exist")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "--chart", "c.bmp"), ("--chart", "unknown format")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "--movetime", "nan"), ("--movetime", "finite")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "--movetime", "inf"), ("--movetime", "finite")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "--gametime", "-1"), ("--gametime", "above zero")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "--games", "-1"), ("--games", "-1")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "--bootstrap", "-1"), ("--bootstrap", "-1")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "-j", "-3"), ("--jobs", "-3")),
    (("tournament", *G, *BOTS, "--out", "t.jsonl", "--seed", "-5"), ("--seed",)),
    (("tournament", *G, "--bot", "ismcts:time=nan", "--bot", "random", "--out", "t.jsonl"), ("time",)),
    (("tournament", *G, "--bot", "cmd:/no/such/program --x", "--bot", "random", "--out", "t.jsonl"),
     ("/no/such/program", "cannot start")),
    (("sprt", *G, *BOTS, "--out", "t.jsonl", "--alpha", "nan"), ("--alpha",)),
    (("sprt", *G, *BOTS, "--out", "t.jsonl", "--elo1", "inf"), ("--elo1",)),
    (("sprt", *G, *BOTS, "--out", "t.jsonl", "--max-games", "0"), ("--max-games",)),
    (("bench", "goofspiel", "--seconds", "-1"), ("--seconds", "above zero")),
    (("bench", "goofspiel", "--seconds", "nan"), ("--seconds", "finite")),
    (("play", *G, "--seat", "random", "--seat", "random", "--movetime", "-1"), ("--movetime",)),
    (("play", *G, "-p", "7", "--seat", "random", "--seat", "random"), ("2 to 5 players, not 7",)),
    (("play", *G, "--seat", "random", "--seat", "random", "--out", "nodir/p.jsonl"), ("--out", "does not exist")),
    (("play", *G, "--seat", "random", "--seat", "random", "--games", "0"), ("--games",)),
    (("play", *G, "--seat", "random", "--seat", "cmd:/no/such/program"), ("cannot start",)),
    (("replay", "missing.jsonl"), ("missing.jsonl", "does not exist")),
    (("ratings", "missing.jsonl"), ("missing.jsonl", "does not exist")),
])
def test_bad_values_are_refused_before_any_game(kleos, tmp_path, args, words):
    proc = kleos(*args, check=False, timeout=60)
    _refused(proc, *words)
    assert not (tmp_path / "t.jsonl").exists()
    assert "game 1" not in proc.stdout


def test_binary_and_non_utf8_files_are_refused(kleos, tmp_path):
    (tmp_path / "bin.jsonl").write_bytes(b"\x7fELF\x00\x01\x02" * 100)
    (tmp_path / "latin.jsonl").write_bytes('{"game": "caf\xe9"}\n'.encode("latin-1") * 3)
    for command in (("replay", "bin.jsonl"), ("replay", "--verify", "bin.jsonl"), ("ratings", "bin.jsonl")):
        _refused(kleos(*command, check=False), "bin.jsonl", "binary")
    for command in (("replay", "latin.jsonl"), ("ratings", "latin.jsonl")):
        _refused(kleos(*command, check=False), "latin.jsonl", "UTF-8")
    for name in ("bin.jsonl", "latin.jsonl"):
        before = (tmp_path / name).read_bytes()
        _refused(kleos("tournament", *G, *BOTS, "--out", name, "--resume", check=False), name)
        assert (tmp_path / name).read_bytes() == before         # nothing appended to a file that is no record file


def test_ratings_without_a_finished_game_exits_non_zero(kleos, tmp_path):
    (tmp_path / "empty.jsonl").write_text("")
    _refused(kleos("ratings", "empty.jsonl", check=False), "no finished game")
    (tmp_path / "junk.jsonl").write_text("not json\n{}\n")
    _refused(kleos("ratings", "junk.jsonl", check=False), "no finished game")


def test_an_unexpected_error_is_one_line_not_a_traceback(kleos, tmp_path, monkeypatch):
    """The last line of defence: a bug in a command reaches the user as one line that says it is a bug."""
    from click.testing import CliRunner

    from arena import cli

    def broken(*a, **k):
        raise ZeroDivisionError("boom")
    monkeypatch.setattr("engine.registry.list_games", broken)
    result = CliRunner().invoke(cli.main, ["games"])
    assert result.exit_code != 0 and "internal error" in result.output and "ZeroDivisionError" in result.output
    assert "Traceback" not in result.output


def test_policies_refuse_non_finite_numbers():
    for bad in (float("nan"), float("inf"), -1.0, 0):
        with pytest.raises(ValueError):
            Policies(movetime=bad)
        with pytest.raises(ValueError):
            Policies(gametime=bad)
    with pytest.raises(ValueError):
        Policies(grace=float("nan"))


def test_a_referee_error_is_never_charged_to_the_bot(player, monkeypatch):
    """When the referee's own end of the protocol fails, the game is abandoned, not lost by the player."""
    import bots.external

    def broken_go_args(*a, **k):
        raise OverflowError("cannot convert float infinity to integer")
    monkeypatch.setattr(bots.external, "go_args", broken_go_args)
    bots_ = [make_bot(player("--mode", "first")), make_bot("random")]
    try:
        with pytest.raises(RefereeError, match="OverflowError"):
            Referee("goofspiel", {"players": 2, "cards": 3}, bots_, 1, Policies(movetime=5)).play()
    finally:
        for b in bots_:
            b.close()


def test_a_tournament_with_a_referee_error_fails_without_charging(player, tmp_path, monkeypatch):
    import bots.external
    from arena.tournament import TournamentConfig, run_tournament
    monkeypatch.setattr(bots.external, "go_args", lambda *a, **k: 1 / 0)
    cfg = TournamentConfig("goofspiel", {"players": 2, "cards": 3}, [player("--mode", "first"), "random"], games=2)
    result = run_tournament(cfg, tmp_path / "r.jsonl", workers=1, progress=False, echo=lambda m: None)
    assert result.errors and not result.records and not result.removed
    assert not os.path.exists(tmp_path / "r.jsonl") or not (tmp_path / "r.jsonl").read_text().strip()
    assert sys.modules["bots.external"] is bots.external


def test_runs_without_out_never_share_a_record_file(tmp_path, monkeypatch):
    """Two runs started within the same second without --out each get a file of their own (the second used to
    find the first's games there and refuse to start)."""
    from arena.cli import _default_out
    monkeypatch.chdir(tmp_path)
    first = _default_out("goofspiel", "strength")
    open(first, "w").close()
    second = _default_out("goofspiel", "strength")
    assert second != first and second.endswith(".jsonl") and not (tmp_path / second).exists()
    assert _default_out("openspiel:goofspiel(num_cards=4)", "tournament").startswith(
        "kleos-tournament-openspiel-goofspiel-num_cards-4-")

"""The issue 24 scripts: scripts/budget_scaling.py (more search must mean stronger play) and
scripts/openspiel_reference.py (Kleos against OpenSpiel's ISMCTS; skipped without OpenSpiel); and issue 20's
scripts/reuse_share.py (how much of a search reuse=yes carries in)."""
import importlib.util
import pathlib

import pytest

_SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, _SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


scaling = _load("budget_scaling")


def _row(a, score, ci):
    return {"a": a, "score": score, "ci95": ci}


def test_scaling_verdict_flags_a_fall_beyond_the_noise():
    rising = [_row("x2", 0.55, 0.05), _row("x4", 0.62, 0.05), _row("x8", 0.61, 0.05)]   # a dip within noise
    assert scaling.verdict(rising) == (True, [])
    falling = [_row("x2", 0.70, 0.03), _row("x4", 0.55, 0.03)]
    ok, falls = scaling.verdict(falling)
    assert not ok and "x2 0.700 -> x4 0.550" in falls[0]


def test_scaling_plays_its_pairings(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    code = scaling.main(["goofspiel", "--players", "2", "-o", "cards=4", "--base", "3", "--factors", "2,8",
                         "--games", "2", "--out", str(out), "--table", str(tmp_path / "t.md")])
    table = capsys.readouterr().out
    assert "| 2x | 6 |" in table and "| 8x | 24 |" in table and "against `ismcts:iterations=3`" in table
    assert code in (0, 1) and ("never falls" in table) == (code == 0)
    assert out.exists() and (tmp_path / "t.md").read_text().startswith("goofspiel")


@pytest.mark.parametrize("argv", [["goofspiel", "--factors", "4,2"], ["goofspiel", "--factors", "a"],
                                  ["goofspiel", "--base", "0"], ["goofspiel", "-o", "cards"]])
def test_scaling_rejects_bad_arguments(argv):
    with pytest.raises(SystemExit) as e:
        scaling.main(argv)
    assert e.value.code == 2


def test_reference_budget_parsing():
    ref = _load("openspiel_reference")
    assert ref.parse_budget("time=0.2") == ("time", 0.2)
    assert ref.parse_budget("iterations=1000") == ("iterations", 1000)
    for bad in ("time=0", "moves=3", "iterations="):
        with pytest.raises(ValueError):
            ref.parse_budget(bad)


@pytest.mark.parametrize("variant", ["public", "imp_info"])
def test_reference_game_in_lockstep(variant):
    """One refereed game each way: both engines agree on every legal move and on the result (play() raises
    otherwise), and OpenSpiel's bot sampled only worlds of its own information state (it asserts that)."""
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    ref = _load("openspiel_reference")
    for seat in (0, 1):
        game = ref.play(variant, "ismcts", ("iterations", 30), seat, deal=7)
        assert game["kleos_return"] in (0.0, 0.5, 1.0)
        assert game["kleos_decisions"] == 12 and game["openspiel_simulations"] == 30 * game["openspiel_decisions"]
    summary = ref.summarize([game, {**game, "kleos_seat": 1 - seat}])
    assert summary["pairs"] == 1 and summary["games"] == 2


def test_pending_speed_prints_one_line_a_case(capsys):
    speed = _load("pending_speed")
    speed.main(rounds=1, seconds=0.01)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(speed.CASES) and all("ratio" in line for line in lines)


def test_summarize_reads_the_kept_gzipped_records(capsys):
    """docs/strength.md's equal-time rows are recomputed by --summarize from the kept .jsonl.gz records; a file
    that is not a record is refused with its name and line, not a traceback."""
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    ref = _load("openspiel_reference")
    kept = _SCRIPTS.parent / "docs" / "records" / "issue24-openspiel-public-time-quiet.jsonl.gz"
    ref.main(["--summarize", str(kept)])
    out = capsys.readouterr().out
    assert '"pairs": 50' in out and '"score": 0.755' in out
    with pytest.raises(SystemExit):
        ref.main(["--summarize", str(_SCRIPTS.parent / "README.md")])
    assert "README.md:1: not a JSON game record" in capsys.readouterr().err


def test_reuse_share_counts_the_kept_visits(capsys):
    share = _load("reuse_share")
    share.main(["pantikapaion", "--iterations", "200", "--searches", "12", "--options", "depth=8,rollout=heuristic"])
    out = capsys.readouterr().out
    assert out.startswith("pantikapaion (2 players): 12 searches of 200 iterations; ")
    started = int(out.split("; ")[1].split()[0])
    assert 0 < started < 12                        # a turn's later decisions start from kept nodes, first ones not


@pytest.mark.parametrize("argv", [["nogame"], ["goofspiel", "--options", "keys=path"], ["goofspiel", "--options",
                                  "depth=-1"], ["goofspiel", "--iterations", "0"], ["goofspiel", "--options", "x"]])
def test_reuse_share_rejects_bad_arguments(argv, capsys):
    with pytest.raises(SystemExit) as e:
        _load("reuse_share").main(argv)
    assert e.value.code == 2 and "error:" in capsys.readouterr().err

"""`kleos tune` (arena/tune.py): parameter ranges, the SPSA step, every game kept, and the SPRT that confirms."""
import pytest

from arena.tune import Param, TuneError, confirm, spec_with, spsa, start_position
from engine.records import read_records


def test_param_ranges_scales_and_whole_numbers():
    c = Param.parse("c=0.1:2:log")
    depth = Param.parse("depth=20:600:log:int")
    linear = Param.parse("x=-1:1")
    assert (c.log, c.integer, depth.integer, linear.log) == (True, False, True, False)
    assert c.value(0.0) == 0.1 and c.value(1.0) == 2.0 and c.value(7) == 2.0          # clipped to the range
    assert abs(c.value(0.5) - (0.1 * 2.0) ** 0.5) < 1e-3                              # log scale: geometric mean
    assert linear.value(0.5) == 0.0 and isinstance(depth.value(0.3), int)
    for p, v in ((c, 0.7), (depth, 300), (linear, 0.25)):
        assert abs(p.value(p.position(v)) - v) <= (0.5 if p.integer else 1e-3)
    for bad in ("c", "c=1", "c=2:1", "c=0:1:log", "c=a:b", "c=0.1:1:cubic", "=1:2"):
        with pytest.raises(TuneError):
            Param.parse(bad)


def test_specs_and_the_starting_point():
    params = [Param.parse("c=0.1:2:log"), Param.parse("depth=20:600:log:int")]
    assert spec_with("ismcts:iterations=50,c=0.7", params, [1.0, 0.0]) == "ismcts:iterations=50,c=2.0,depth=20"
    start = start_position("ismcts:iterations=50,c=0.7", params)
    assert abs(params[0].value(start[0]) - 0.7) < 1e-3 and start[1] == 0.5             # given, else the middle


def test_spsa_plays_duplicate_deals_at_equal_budget_and_keeps_every_game(tmp_path):
    out = tmp_path / "tune.jsonl"
    steps = []
    result = spsa("goofspiel", {"players": 2, "cards": 4}, "ismcts:iterations=30",
                  [Param.parse("c=0.1:2:log")], out, steps=3, seed=5, echo=steps.append)
    assert len(steps) == 3 and result["spec"].startswith("ismcts:iterations=30,c=")
    records, problems = read_records(out)
    assert not problems and len(records) == 6                         # 3 steps x one deal x 2 seat rotations
    for r in records:
        a, b = r.meta["pair"]
        assert a != b and all("iterations=30" in s for s in (a, b))    # the same budget on both sides
    by_block = {}
    for r in records:
        by_block.setdefault((r.meta["tournament"], r.meta["block"]), []).append(r)
    assert all(len(games) == 2 and games[0].seats == games[1].seats[::-1] for games in by_block.values())
    # the same seed tunes the same way
    again = spsa("goofspiel", {"players": 2, "cards": 4}, "ismcts:iterations=30", [Param.parse("c=0.1:2:log")],
                 tmp_path / "again.jsonl", steps=3, seed=5, echo=lambda *_: None)
    assert again["spec"] == result["spec"]
    with pytest.raises(TuneError, match="exists already"):
        spsa("goofspiel", {"players": 2, "cards": 4}, "ismcts:iterations=30", [Param.parse("c=0.1:2:log")], out)


def test_the_candidate_can_be_the_mean_of_the_last_steps(tmp_path):
    """Polyak-Ruppert averaging: the candidate is the mean position of the last N thetas, not the last one."""
    params = [Param.parse("c=0.1:2:log"), Param.parse("depth=2:20:int")]
    result = spsa("goofspiel", {"players": 2, "cards": 4}, "ismcts:iterations=20,c=0.5,depth=8", params,
                  tmp_path / "avg.jsonl", steps=6, seed=3, average=4, echo=lambda *_: None)
    last4 = [[p.position(step["theta"][p.name]) for p in params] for step in result["steps"][-4:]]
    for i, p in enumerate(params):
        mean = sum(t[i] for t in last4) / 4
        assert abs(p.value(result["theta"][i]) - p.value(mean)) <= (1 if p.integer else 2e-3)
    assert result["last"] == "ismcts:iterations=20," + ",".join(
        f"{p.name}={result['steps'][-1]['theta'][p.name]}" for p in params)
    plain = spsa("goofspiel", {"players": 2, "cards": 4}, "ismcts:iterations=20,c=0.5,depth=8", params,
                 tmp_path / "plain.jsonl", steps=6, seed=3, echo=lambda *_: None)
    assert plain["spec"] == plain["last"] == result["last"]           # the same steps; only the candidate differs
    assert result["spec"] != result["last"]                           # (these steps moved: the mean is not the last)
    with pytest.raises(TuneError, match="between 0 and the steps"):
        spsa("goofspiel", {"players": 2, "cards": 4}, "ismcts:iterations=20", params, tmp_path / "x.jsonl",
             steps=2, average=3)


def test_confirm_runs_the_arena_sprt_into_the_same_file(tmp_path):
    out = tmp_path / "c.jsonl"
    lines = []
    decision, test = confirm("goofspiel", {"players": 2, "cards": 4}, "ismcts:iterations=40",
                             "ismcts:iterations=2", out, max_games=40, elo1=50, echo=lines.append)
    assert decision in ("H1", "H0", None) and test.blocks >= 1 and "LLR" in lines[0]
    assert len(read_records(out)[0]) == 2 * test.blocks
    with pytest.raises(TuneError):
        confirm("goofspiel", {"players": 2}, "ismcts", "ismcts", out)


def test_the_tune_command(kleos):
    out = kleos("tune", "goofspiel", "-o", "cards=4", "--base", "ismcts:iterations=20", "--param", "c=0.1:2:log",
                "--steps", "2", "--out", "t.jsonl", "--confirm", "4")
    assert "candidate: ismcts:iterations=20,c=" in out.stdout and "LLR" in out.stdout
    averaged = kleos("tune", "goofspiel", "-o", "cards=4", "--base", "ismcts:iterations=20", "--param",
                     "c=0.1:2:log", "--steps", "3", "--average", "2", "--out", "a.jsonl")
    assert "last theta: ismcts:iterations=20,c=" in averaged.stdout
    assert "(the mean of the last 2 steps)" in averaged.stdout
    bad = kleos("tune", "goofspiel", "--base", "ismcts:iterations=20", "--param", "c=2:1", "--out", "u.jsonl",
                check=False)
    assert bad.returncode != 0 and "need LOW < HIGH" in bad.stderr and "Traceback" not in bad.stderr

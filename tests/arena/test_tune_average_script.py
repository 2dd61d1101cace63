"""scripts/tune_average.py: the candidate of several `kleos tune` runs, their last steps' theta averaged as
`kleos tune --average` averages one run's."""
import importlib.util
import json
import pathlib

import pytest

from arena.tune import Param, spsa

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("tune_average", ROOT / "scripts" / "tune_average.py")
tune_average = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tune_average)

PARAMS = ("c=0.1:2:log", "depth=2:20:int")


def _run(tmp_path, seed, average):
    lines = []
    result = spsa("goofspiel", {"players": 2, "cards": 4}, "ismcts:iterations=20,c=0.5,depth=8",
                  [Param.parse(p) for p in PARAMS], tmp_path / f"r{seed}.jsonl", steps=6, seed=seed,
                  average=average, echo=lines.append)
    steps = tmp_path / f"r{seed}.steps.jsonl"
    steps.write_text("\n".join(lines + [f"candidate: {result['spec']}"]) + "\n")   # as kleos tune's stdout
    return result, steps


def test_one_run_gives_what_kleos_tune_average_gives(tmp_path, capsys):
    result, steps = _run(tmp_path, 3, 4)
    assert tune_average.main([str(steps), "--last", "4", *(f"--param={p}" for p in PARAMS)]) == 0
    pooled = json.loads(capsys.readouterr().out.splitlines()[-1].split(": ", 1)[1])
    assert result["spec"] == "ismcts:iterations=20," + ",".join(f"{k}={v}" for k, v in pooled.items())
    assert result["spec"] != result["last"]                        # the mean is not the last step here


def test_runs_pool_their_last_steps(tmp_path, capsys):
    runs = [_run(tmp_path, seed, 0)[1] for seed in (3, 4)]
    params = [Param.parse(p) for p in PARAMS]
    steps = [s for r in runs for s in tune_average.read_steps(str(r))[-2:]]
    assert tune_average.main([*map(str, runs), "--last", "2", *(f"--param={p}" for p in PARAMS)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[0].startswith(f"{runs[0]}: 6 steps; the last 2: ")
    pooled = json.loads(out[-1].split(": ", 1)[1])
    c = params[0]
    mean_c = sum(c.position(s["theta"]["c"]) for s in steps) / 4
    assert pooled["c"] == c.value(mean_c)                          # averaged by position: geometric on a log range


@pytest.mark.parametrize("text, words", [("", "no steps"), ("{\n", "not a JSON step"), ('{"step": 1}\n', "without")])
def test_bad_step_files_are_named(tmp_path, capsys, text, words):
    path = tmp_path / "s.jsonl"
    path.write_text(text)
    assert tune_average.main([str(path), "--param", "c=0.1:2:log"]) == 2
    err = capsys.readouterr().err
    assert words in err and str(path) in err and "Traceback" not in err


def test_an_option_not_tuned_in_the_runs_is_named(tmp_path, capsys):
    _, steps = _run(tmp_path, 3, 0)
    assert tune_average.main([str(steps), "--param", "epsilon=0:1"]) == 2
    assert "no number for epsilon" in capsys.readouterr().err
    assert tune_average.main([str(tmp_path / "missing.jsonl"), "--param", "c=0.1:2:log"]) == 2
    assert "missing.jsonl" in capsys.readouterr().err

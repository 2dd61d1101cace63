"""Fuzz of state_from_json (tests/robustness/statefuzz.py): mutated real states of every game are refused with a
BadStateError or, once accepted, survive legal moves, three short searches, 40 random moves that from_json must
accept again and a playout to the end. Each game runs in a child process, so a crash (a signal) or a hang fails
the test with the mutant being tried instead of killing pytest.

CI size: a few seconds a game. Soak: ``KLEOS_SOAK=600 python -m pytest -q tests/robustness/test_state_fuzz.py``
fuzzes each game for 600 seconds (seed from KLEOS_SOAK_SEED, default 1000)."""
import json
import os
import subprocess
import sys

import pytest

from engine.registry import list_games

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "statefuzz.py")
# mutants a game in the normal run (a few seconds each); a game registered later gets the default
CI_MUTANTS = {"goofspiel": 600, "polis": 300, "mare_nostrum": 150, "pantikapaion": 250}
DEFAULT_MUTANTS = 200
SOAK = float(os.environ.get("KLEOS_SOAK", "0") or 0)


@pytest.mark.parametrize("game", list_games())
def test_state_from_json_fuzz_accepts_only_states_that_play_on(game, tmp_path):
    if SOAK > 0:
        args = ["--mutants", "0", "--seconds", str(SOAK), "--sources", "300",
                "--seed", os.environ.get("KLEOS_SOAK_SEED", "1000")]
        limit = SOAK + 600
    else:
        args = ["--mutants", str(CI_MUTANTS.get(game, DEFAULT_MUTANTS)), "--sources", "60", "--seed", "1"]
        limit = 300
    dump = tmp_path / "fuzz"
    try:
        proc = subprocess.run([sys.executable, HARNESS, "--game", game, "--dump", str(dump), *args],
                              capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{game}: the fuzzer hung; the mutant being tried is in {dump / 'current.json'}")
    if proc.returncode < 0:
        mutant = (dump / "current.json").read_text()[:3000] if (dump / "current.json").exists() else "?"
        pytest.fail(f"{game}: the fuzzer crashed with signal {-proc.returncode} on the mutant\n{mutant}")
    assert proc.returncode == 0, f"{game}:\n{proc.stdout[-6000:]}\n{proc.stderr[-3000:]}"
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["failures"] == 0
    assert summary["mutants"] >= (1 if SOAK else CI_MUTANTS.get(game, DEFAULT_MUTANTS))
    assert summary["accepted"] > 0 and summary["refused"] > 0      # both paths were exercised
    print(json.dumps(summary))

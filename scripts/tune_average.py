"""The candidate of one or more `kleos tune` runs: the mean of their last steps' theta (Polyak-Ruppert averaging).

    kleos tune polis ... --out run1.jsonl.gz > run1.steps.jsonl      # each step's JSON line on stdout
    python scripts/tune_average.py --param c=0.2:2:log --param depth=12:60:log:int --last 100 \
        run1.steps.jsonl run2.steps.jsonl

Each option is averaged as SPSA moves it, by its position on [0, 1] between the bounds given (the same
`--param` ranges as the runs; a log range averages geometrically), then turned back into a value. Prints the
candidate of each run and of all runs' last steps pooled; `kleos tune --average N` gives one run's itself.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.tune import Param, TuneError  # noqa: E402


def read_steps(path: str) -> list[dict]:
    """A run's step lines (the JSON objects `kleos tune` prints, one a line; other lines are skipped)."""
    steps = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise TuneError(f"{path}: {e}") from None
    for n, line in enumerate(lines, 1):
        if line.startswith("{"):
            try:
                step = json.loads(line)
            except json.JSONDecodeError as e:
                raise TuneError(f"{path}, line {n}: not a JSON step ({e})") from None
            if not isinstance(step, dict) or not isinstance(step.get("theta"), dict):
                raise TuneError(f"{path}, line {n}: a step without its theta")
            steps.append(step)
    if not steps:
        raise TuneError(f"{path}: no steps (the JSON lines `kleos tune` prints)")
    return steps


def mean_theta(steps: list[dict], params: list[Param]) -> dict:
    """The options' values at the mean position of these steps' theta."""
    out = {}
    for p in params:
        try:
            positions = [p.position(float(s["theta"][p.name])) for s in steps]
        except (KeyError, TypeError, ValueError):
            raise TuneError(f"a step has no number for {p.name} in its theta: was it tuned in these runs?") from None
        out[p.name] = p.value(sum(positions) / len(positions))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("steps", nargs="+", help="each run's step lines (kleos tune's stdout)")
    parser.add_argument("--param", action="append", required=True, help="NAME=LOW:HIGH[:log][:int], as tuned")
    parser.add_argument("--last", type=int, default=100, help="steps averaged at the end of each run (default 100)")
    args = parser.parse_args(argv)
    try:
        params = [Param.parse(p) for p in args.param]
        if args.last < 1:
            raise TuneError("--last must be at least 1")
        pooled = []
        for path in args.steps:
            steps = read_steps(path)
            tail = steps[-args.last:]
            pooled += tail
            print(f"{path}: {len(steps)} steps; the last {len(tail)}: {json.dumps(mean_theta(tail, params))}")
        print(f"candidate (the runs pooled): {json.dumps(mean_theta(pooled, params))}")
    except TuneError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

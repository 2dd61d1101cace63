"""Games an hour against cores, on the local process pool and on a local Ray cluster (docs/distributed.md).

    python scripts/tournament_scaling.py [--game goofspiel] [--bot SPEC --bot SPEC] [--blocks N] [--cores 1,2]

Plays the same tournament (fixed iteration budgets, so every run plays the very same games) once per executor and
core count, and prints a markdown table: wall time, games an hour, the scaling efficiency against one core of the
same executor (games an hour at n cores / (n x games an hour at 1 core)), the seconds a block takes on one core,
and Ray's overhead per block against the local pool at the same core count. Run it on an otherwise idle machine;
the figures of a loaded one say nothing about scaling.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.executor import make_executor  # noqa: E402
from arena.tournament import TournamentConfig, run_tournament  # noqa: E402


def measure(cfg: TournamentConfig, backend: str, cores: int) -> dict:
    executor = make_executor(cores, backend)          # a Ray cluster starts here, outside the timing
    with tempfile.TemporaryDirectory() as tmp:
        # warm up: workers start, import Kleos and take their speed bench once (a cost per worker, not per block)
        warm = TournamentConfig(cfg.game, cfg.options, cfg.bots, games=cores * cfg.players, seed=cfg.seed + 1)
        run_tournament(warm, Path(tmp) / "warm.jsonl", executor=_kept(executor), progress=False)
        t0 = time.perf_counter()
        result = run_tournament(cfg, Path(tmp) / "scaling.jsonl", executor=executor, progress=False)
        wall = time.perf_counter() - t0
    games = len(result.records)
    return {"backend": backend, "cores": cores, "games": games, "wall": wall, "games_per_hour": games * 3600 / wall}


def _kept(executor):
    """The executor, minus its close() (run_tournament closes what it is given; the timed run reuses it)."""
    class Kept:
        workers = executor.workers

        def run(self, *args, **kwargs):
            return executor.run(*args, **kwargs)

        def close(self):
            pass
    return Kept()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="goofspiel")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--bot", action="append", default=None, metavar="SPEC")
    parser.add_argument("--blocks", type=int, default=8, help="deals to play (each in every seat rotation)")
    parser.add_argument("--cores", default="1,2", help="core counts, comma-separated")
    parser.add_argument("--executors", default="local,ray", help="executors, comma-separated")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    bots = args.bot or ["ismcts:iterations=4000", "pimc:iterations=4000"]
    cores = [int(c) for c in args.cores.split(",")]
    if max(cores) > (os.cpu_count() or 1):
        parser.error(f"--cores asks for {max(cores)} cores; this machine has {os.cpu_count()}")
    players = int(options.get("players", 2))
    cfg = TournamentConfig(args.game, options, bots, games=args.blocks * players, seed=1)
    rows = []
    for backend in args.executors.split(","):
        for n in cores:
            rows.append(measure(cfg, backend, n))
            if backend == "ray":
                import ray
                ray.shutdown()
    one = {r["backend"]: r for r in rows if r["cores"] == 1}
    local = {r["cores"]: r for r in rows if r["backend"] == "local"}
    print(f"{args.game} {options or ''}, bots {bots}, {args.blocks} deals ({cfg.games} games a table)\n")
    print("| executor | cores | games | wall s | games/hour | efficiency | s a block (1 core) | "
          "overhead a block vs local |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        base = one.get(r["backend"])
        eff = r["games_per_hour"] / (r["cores"] * base["games_per_hour"]) if base else float("nan")
        block = base["wall"] / args.blocks if base else float("nan")
        over = ((r["wall"] - local[r["cores"]]["wall"]) / args.blocks
                if r["backend"] != "local" and r["cores"] in local else 0.0)
        print(f"| {r['backend']} | {r['cores']} | {r['games']} | {r['wall']:.1f} | {r['games_per_hour']:,.0f} | "
              f"{eff:.2f} | {block:.2f} | {over:+.3f} s |")


if __name__ == "__main__":
    main()

"""What a record says of the machine that played it: host, cores and a short speed bench taken when the worker
process plays its first game (fishtest and OpenBench do the same), so that timed results from unequal machines can
be told apart. The bench is the game's own random playouts (moves a second, one core, median of three)."""
from __future__ import annotations

import os
import socket
import statistics

from engine.build import FLAVOUR

BENCH_SECONDS = 0.3
_profiles: dict = {}


def worker_profile(game: str, options: dict) -> dict:
    """This process's profile for ``game``: measured once a process and game, then reused."""
    key = (game, tuple(sorted(options.items())))
    if key not in _profiles:
        from engine import playout
        from engine.registry import load_game
        start = load_game(game, **options).new_initial_state()
        runs = [playout.measure_playouts(start, BENCH_SECONDS / 3, seed) for seed in (1, 2, 3)]
        rates = [run["moves"] / run["seconds"] for run in runs]
        _profiles[key] = {"host": socket.gethostname(), "cpus": os.cpu_count(),
                          "bench_moves_per_s": round(statistics.median(rates)),
                          "build": "debug" if FLAVOUR.startswith("debug") else "release"}
    return dict(_profiles[key])

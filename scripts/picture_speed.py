"""How fast Kleos draws: CPU milliseconds a board picture (from one seat and whole), and the CPU time and size of
a replay page for one random game, per game. Prints a markdown table (as in docs/performance.md).

    python scripts/picture_speed.py [--seed 1] [--games goofspiel,polis] [--max-plies N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.viewer import build_viewer  # noqa: E402
from engine.records import play_random_game, replay  # noqa: E402
from engine.registry import list_games, load_game  # noqa: E402
from engine.svg import has_picture, render  # noqa: E402


def per_picture_ms(states, seat, samples: int = 40) -> float:
    step = max(1, len(states) // samples)
    times = []
    for state in states[::step]:
        started = time.process_time()
        render(state, seat)
        times.append(1000 * (time.process_time() - started))
    return statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the random game")
    parser.add_argument("--games", default="", help="comma-separated games (default: every game with a picture)")
    parser.add_argument("--max-plies", type=int, default=0, help="cut the page's game after this many plies (0: all)")
    args = parser.parse_args(argv)
    names = [g for g in (args.games.split(",") if args.games else list_games()) if g]
    print("| game | players | plies | ms a picture (seat 0) | ms a picture (all) | page s | page KB | KB a ply |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        if not has_picture(name):
            print(f"| {name} | - | - | no picture yet | | | | |")
            continue
        game = load_game(name)
        record = play_random_game(game, args.seed)
        if args.max_plies:
            keep = args.max_plies
            for field in ("actions", "moves", "players", "times", "evals"):
                setattr(record, field, getattr(record, field)[:keep])
        states = list(replay(record))
        seat_ms = per_picture_ms(states, 0)
        all_ms = per_picture_ms(states, None)
        started = time.process_time()
        page = build_viewer(record)
        seconds = time.process_time() - started
        kb = len(page.encode("utf-8")) / 1024
        print(f"| {name} | {game.num_players} | {len(record.actions)} | {seat_ms:.1f} | {all_ms:.1f} | "
              f"{seconds:.1f} | {kb:,.0f} | {kb / max(1, len(states)):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

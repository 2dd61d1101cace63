"""How games between given bots go: results by seat, decisions a game, and how many decisions take moves whose
notation starts with given prefixes (how often a rule comes into play at all).

    python scripts/action_census.py polis "ismcts:iterations=3000" "ismcts:iterations=3000" --games 60 \
        --count attack: --processes 2

Seats are fixed (seat i plays the i-th spec); deals are the referee seeds 1..games. Every game is played by the
arena's referee, so every bot decides on its own view (`determinize(seat)`), none peeks.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena.referee import play_game  # noqa: E402


def census_game(game_name: str, options: dict, seats: list[str], seed: int, prefixes: list[str]) -> dict:
    """One refereed game: its returns, the decisions taken, and per prefix the decisions whose move matches
    (read from the game's record)."""
    record = play_game(game_name, options, seats, seed, event="census")
    decided = [move for move, player in zip(record.moves, record.players) if player >= 0]
    counts = {prefix: sum(1 for move in decided if move.startswith(prefix)) for prefix in prefixes}
    return {"returns": tuple(record.result["returns"]), "decisions": len(decided), "counts": counts}


def _job(args):
    return census_game(*args)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/action_census.py", description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("seats", nargs="+", help="one bot spec a seat")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--count", action="append", default=[], metavar="PREFIX",
                        help="count decisions whose move notation starts with PREFIX (repeatable)")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    options.setdefault("players", len(args.seats))
    jobs = [(args.game, options, args.seats, seed, args.count) for seed in range(1, args.games + 1)]
    if args.processes > 1:
        with ProcessPoolExecutor(args.processes) as pool:
            games = list(pool.map(_job, jobs))
    else:
        games = [_job(job) for job in jobs]
    results = collections.Counter(g["returns"] for g in games)
    lengths = sorted(g["decisions"] for g in games)
    print(f"{args.game}, seats {args.seats}, {len(games)} games")
    print("returns by seat (count):", ", ".join(f"{list(r)}: {n}" for r, n in results.most_common()))
    print(f"decisions a game: median {lengths[len(lengths) // 2]}, range {lengths[0]}-{lengths[-1]}")
    for prefix in args.count:
        hit = sum(1 for g in games if g["counts"][prefix])
        total = sum(g["counts"][prefix] for g in games)
        print(f"moves '{prefix}...': in {hit} of {len(games)} games, {total} decisions in all")


if __name__ == "__main__":
    main()

"""The `kleos` bot's speed in every game (issue 20): iterations a second and the share of time outside the
rollouts, next to plain ISMCTS measured the same way in the same run (search/bench.py's position and method).

    python scripts/kleos_speed.py [GAME ...] [--seconds 1] [--repeats 3]

The `kleos` column searches the configuration the bot plays in that game (its GameSpec.kleos_bot with the game's
search_defaults); plain ISMCTS has neither. On a shared machine compare the ratio, not the rates.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.kleos import kleos_configuration  # noqa: E402
from engine.registry import game_spec, list_games, load_game  # noqa: E402
from search.bench import first_hidden_decision, opening, rate  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print("| game | `kleos` plays | kleos it/s | plain ISMCTS it/s | kleos / ISMCTS | outside rollouts: kleos | "
          "ISMCTS |\n|---|---|---:|---:|---:|---:|---:|")
    for name in args.games or list_games():
        game = load_game(name, **({"players": args.players} if args.players else {}))
        state = first_hidden_decision(opening(game))
        kind, options = kleos_configuration(name, game.num_players)
        options = {**game_spec(name).search_defaults, **options}
        kleos = rate(kind, state, args.seconds, args.repeats, **options)
        plain = rate("ismcts", state, args.seconds, args.repeats)
        shown = kind + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
        print(f"| {name} | `{shown}` | {kleos['iterations_per_s']:,.0f} | {plain['iterations_per_s']:,.0f} | "
              f"{kleos['iterations_per_s'] / plain['iterations_per_s']:.2f}x | {1 - kleos['rollout_share']:.0%} | "
              f"{1 - plain['rollout_share']:.0%} |", flush=True)


if __name__ == "__main__":
    main()

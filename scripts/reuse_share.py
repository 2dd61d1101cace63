"""How much of a search `reuse=yes` carries in (issue 20): one seeded self-play game, every seat an ISMCTS searcher
with `reuse=yes` and the given options, counting the searches that started from a kept node and the visits kept.

    python scripts/reuse_share.py GAME [--players N] [--iterations 300] [--options depth=8,rollout=heuristic]
                                  [--searches 400] [--seed 7] [--reuse yes|no]

Forced moves are played without a search; chance outcomes are drawn by their probabilities. It also prints the
iterations a second over the game's searches, so `--reuse no` (every search a fresh tree) gives the cost of
keeping one, on a game of the same searchers.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.spec import parse_spec  # noqa: E402
from engine.errors import KleosError  # noqa: E402
from engine.registry import load_game  # noqa: E402
from engine.rng import RNG  # noqa: E402
from search import make_searcher  # noqa: E402


def draw(outcomes, rng: RNG) -> int:
    x, total = rng.random(), 0.0
    for action, p in outcomes:
        total += p
        if x < total:
            return action
    return outcomes[-1][0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--options", default="", help="searcher options, as in a spec: depth=8,rollout=heuristic")
    parser.add_argument("--searches", type=int, default=400, help="stop after this many searches")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reuse", choices=("yes", "no"), default="yes")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.searches < 1:
        parser.error("--iterations and --searches must be at least 1")
    try:
        _, options = parse_spec("ismcts:" + args.options if args.options else "ismcts")
        game = load_game(args.game, **({"players": args.players} if args.players else {}))
        seats = [make_searcher("ismcts", iterations=args.iterations, seed=args.seed + p, reuse=args.reuse, **options)
                 for p in range(game.num_players)]
    except (KleosError, ValueError) as e:
        parser.error(str(e))
    rng = RNG(args.seed)
    state = game.new_initial_state()
    searches = started = kept = iterations = 0
    seconds = 0.0
    while not state.is_terminal() and searches < args.searches:
        if state.is_chance_node():
            state.apply(draw(state.chance_outcomes(), rng))
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        result = seats[state.current_player()].search(state)
        searches += 1
        started += result.stats["reused_visits"] > 0
        kept += result.stats["reused_visits"]
        iterations += result.stats["iterations"]
        seconds += result.stats["seconds"]
        state.apply(result.action)
    if searches == 0:
        sys.exit("no search: the game ended on forced moves")
    print(f"{args.game} ({game.num_players} players): {searches} searches of {args.iterations} iterations; "
          f"{started} ({started / searches:.0%}) started from a kept node; {kept / searches:.0f} visits kept a "
          f"search on average ({kept / searches / args.iterations:.0%} of its own iterations); "
          f"{iterations / seconds:,.0f} iterations a second (reuse={args.reuse})")


if __name__ == "__main__":
    main()

"""What belief=particles costs (issue 20, "Speed"): a decision's time with the particle filter against plain ISMCTS
at the same positions and the same iterations, the filter's own update time amortised into each decision.

    python scripts/belief_speed.py [GAME ...] [--iterations 300] [--particles 64] [--model uniform] [--games 2]

For each game, seeded random games are played; at every decision of seat 0 that has a choice (up to --decisions
a game), a filter that has read all of seat 0's events so far (as a bot's has) is handed to an ISMCTS search of
--iterations, and the same search runs without it. The table gives both searches' iterations a second (median
over the decisions), the filter's update time a decision (the events since the last decision, aligning and
refilling; mean and largest) and the cost ratio: (belief searches + filter updates) / plain searches, summed over
the decisions. The two
searches alternate at each position, so the machine's load falls on both alike; compare the ratio, not the rates.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.chance import sample_outcome  # noqa: E402
from engine.registry import game_spec, list_games, load_game  # noqa: E402
from engine.rng import RNG  # noqa: E402
from search import make_searcher  # noqa: E402


def measure(name: str, iterations: int, particles: int, model: str, games: int, decisions: int) -> dict:
    game = load_game(name)
    defaults = game_spec(name).search_defaults
    plain_rates, belief_rates, filter_ms, ess = [], [], [], []
    spent = {"plain": 0.0, "belief": 0.0}
    for seed in range(games):
        rng = RNG(seed)
        belief = make_searcher("ismcts", iterations=iterations, seed=seed, belief="particles", particles=particles,
                               model=model, **defaults)
        plain = make_searcher("ismcts", iterations=iterations, seed=seed, **defaults)
        f = belief.new_belief(game.new_initial_state(), 0, seed)
        state, seen_seconds, taken = game.new_initial_state(), 0.0, 0
        while not state.is_terminal() and taken < decisions:
            mover = state.current_player()
            if mover == 0 and len(state.legal_actions()) > 1:
                view = state.determinize(0, rng)
                t0 = time.perf_counter()
                plain_result = plain.search(view)
                t_plain = time.perf_counter() - t0
                t0 = time.perf_counter()
                belief_result = belief.search(view)
                t_belief = time.perf_counter() - t0
                update = f.seconds - seen_seconds
                seen_seconds = f.seconds
                plain_rates.append(plain_result.stats["iterations"] / t_plain)
                belief_rates.append(belief_result.stats["iterations"] / t_belief)
                filter_ms.append(1000 * update)
                spent["plain"] += t_plain
                spent["belief"] += t_belief + update
                ess.append(belief_result.stats["belief_ess"])
                taken += 1
            action = (sample_outcome(state.chance_outcomes(), rng) if mover < 0
                      else rng.choice(state.legal_actions()))
            f.observe(mover, state.action_observation(action, 0))
            state.apply(action)
        belief.close()
        plain.close()
    return {"decisions": len(ess), "plain": statistics.median(plain_rates),
            "belief": statistics.median(belief_rates), "filter_ms": statistics.mean(filter_ms),
            "filter_max": max(filter_ms), "ratio": spent["belief"] / spent["plain"], "ess": statistics.median(ess)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--particles", type=int, default=64)
    parser.add_argument("--model", choices=("uniform", "greedy"), default="uniform")
    parser.add_argument("--games", type=int, default=2, dest="count")
    parser.add_argument("--decisions", type=int, default=30)
    args = parser.parse_args(argv)
    print(f"ISMCTS, {args.iterations} iterations a decision, belief=particles,particles={args.particles},"
          f"model={args.model} (each game's search defaults)\n")
    print("| game | decisions | plain it/s | belief it/s | filter ms a decision (largest) | (belief + filter) / plain | "
          "median ESS |\n|---|---:|---:|---:|---:|---:|---:|")
    for name in args.games or list_games():
        r = measure(name, args.iterations, args.particles, args.model, args.count, args.decisions)
        print(f"| {name} | {r['decisions']} | {r['plain']:,.0f} | {r['belief']:,.0f} | "
              f"{r['filter_ms']:.2f} ({r['filter_max']:.1f}) | {r['ratio']:.2f}x | {r['ess']:.1f} |", flush=True)


if __name__ == "__main__":
    main()

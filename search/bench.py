"""Searcher speed figures for docs/search.md: ISMCTS iterations/s, its cost over plain MCTS, the share of each
iteration spent outside the rollouts (the search overhead), and root-parallel speed-up.

    kleos bench --search [GAME ...] [--players N] [--seconds S] [--repeats R] [--no-parallel]

(or ``python -m search.bench`` with the same arguments) prints a markdown table (every registered game by default).
Each game is searched at its first decision where the player to move has something hidden (its opening decision
if there is none early on). Medians over the repeats; the machine may be shared,
so compare ratios rather than absolute rates.
"""
from __future__ import annotations

import argparse
import statistics

from engine.bench import hides_something
from engine.registry import game_spec, list_games, load_game
from engine.chance import sample_outcome
from engine.rng import RNG
from search.searchers import make_searcher


def opening(game, seed: int = 1):
    """The first decision of a game: the initial state, with any opening chance outcomes sampled (seeded)."""
    rng = RNG(seed)
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply(sample_outcome(s.chance_outcomes(), rng))
    return s


def first_hidden_decision(state, seed: int = 1, limit: int = 10):
    """From `state`, random play (seeded) to the first decision at which the player to move has something
    hidden, so that the ISMCTS figures include a real determinization (in 2-player goofspiel: the second bid
    of the first round); `state` itself if none comes within `limit` decisions or nothing is hidden there."""
    rng = RNG(seed)
    s = state.clone()
    for _ in range(limit):
        if s.is_terminal():
            break
        if s.current_player() >= 0 and hides_something(s, s.current_player()):
            return s
        s.apply(sample_outcome(s.chance_outcomes(), rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    return state


def rate(name: str, state, seconds: float, repeats: int, **options) -> dict:
    """Median iterations/s (over `repeats` searches of `seconds` each) and the median rollout share."""
    searcher = make_searcher(name, time=seconds / repeats, **options)
    try:
        searcher.search(state)                       # warm-up (and the worker pool, if any)
        runs = [searcher.search(state).stats for _ in range(repeats)]
    finally:
        searcher.close()
    return {"iterations_per_s": statistics.median(r["iterations_per_s"] for r in runs),
            "rollout_share": statistics.median(r["rollout_share"] for r in runs),
            "max_depth": max(r["max_depth"] for r in runs)}


def bench_search(game_name: str, options: dict | None = None, seconds: float = 2.0, repeats: int = 5,
                 parallel: bool = True) -> dict:
    game = load_game(game_name, **(options or {}))
    state = first_hidden_decision(opening(game))
    ismcts = rate("ismcts", state, seconds, repeats)
    mcts = rate("mcts", state, seconds, repeats)
    multi = rate("ismcts", state, seconds, repeats, keys="path", observers="multi")
    path = rate("ismcts", state, seconds, repeats, keys="path")
    sample = rate("ismcts", state, seconds, repeats, pending="sample")     # the root before c_rewind_pending
    row = {
        "game": game_name,
        "options": dict(game.options),
        "ismcts_it_s": ismcts["iterations_per_s"],
        "mcts_it_s": mcts["iterations_per_s"],
        "cost_ratio": mcts["iterations_per_s"] / ismcts["iterations_per_s"],
        "overhead_share": 1.0 - ismcts["rollout_share"],
        "mcts_overhead_share": 1.0 - mcts["rollout_share"],
        "mo_it_s": multi["iterations_per_s"],
        "path_it_s": path["iterations_per_s"],
        "sample_it_s": sample["iterations_per_s"],
    }
    if parallel:
        two = rate("ismcts", state, seconds, repeats, workers=2)
        row["ismcts_2w_it_s"] = two["iterations_per_s"]
        row["speedup_2w"] = two["iterations_per_s"] / ismcts["iterations_per_s"]
    return row


def markdown_table(rows: list[dict]) -> str:
    lines = ["| game | options | ISMCTS it/s | MCTS it/s | ISMCTS/MCTS cost | overhead share (ISMCTS) | "
             "overhead share (MCTS) | pending=sample it/s | keys=path it/s | keys=path MO it/s | "
             "ISMCTS 2 workers it/s | speed-up |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        opts = ",".join(f"{k}={v}" for k, v in r["options"].items())
        par = (f"{r['ismcts_2w_it_s']:,.0f} | {r['speedup_2w']:.2f}x" if "speedup_2w" in r else "- | -")
        lines.append(f"| {r['game']} | {opts} | {r['ismcts_it_s']:,.0f} | {r['mcts_it_s']:,.0f} | "
                     f"{r['cost_ratio']:.2f}x | {r['overhead_share']:.0%} | {r['mcts_overhead_share']:.0%} | "
                     f"{r['sample_it_s']:,.0f} | {r['path_it_s']:,.0f} | {r['mo_it_s']:,.0f} | {par} |")
    return "\n".join(lines)


def run(names: list[str], players: int | None = None, seconds: float = 2.0, repeats: int = 5,
        parallel: bool = True) -> str:
    """The markdown table for the games ``names`` (each at ``players``, or its default count)."""
    rows = []
    for name in names:
        game_spec(name)
        opts = {"players": players} if players else {}
        rows.append(bench_search(name, opts, seconds, repeats, parallel))
    return markdown_table(rows)


def main(argv=None):
    from engine.build import FLAVOUR
    parser = argparse.ArgumentParser(
        description="Searcher speed figures (docs/search.md): ISMCTS and MCTS iterations/s, the share of time "
                    "outside rollouts, multi-observer ISMCTS and the 2-worker speed-up, as a markdown table. "
                    "The same as `kleos bench --search`.")
    parser.add_argument("games", nargs="*", help="games (default: all registered)")
    parser.add_argument("--players", type=int, default=None, help="player count (default: the game's default)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of search per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="measurements per figure (medians)")
    parser.add_argument("--no-parallel", action="store_true", help="skip the 2-worker measurement")
    args = parser.parse_args(argv)
    print(f"search bench: {FLAVOUR}")
    print(run(args.games or list_games(), args.players, args.seconds, args.repeats, not args.no_parallel))


if __name__ == "__main__":
    main()

"""Searcher benchmarks (pytest-benchmark): ISMCTS and MCTS iteration rates, their cost ratio, the search overhead
share with full rollouts, and root-parallel speed-up, on every registered game at its first decision.

Not timed in the normal test run (benchmarks are disabled there: each case runs once, small). Run them with:
    python -m pytest tests/bench/test_search_bench.py --benchmark-enable --benchmark-only
and read the figures in the extra_info columns (--benchmark-json=FILE keeps them). Targets (issue 7,
docs/search.md): ISMCTS iteration <= 3x an MCTS iteration; overhead < 50% of an iteration with full rollouts;
>= 1.8x iterations/s with 2 worker processes.
"""
import pytest

from engine.registry import game_spec, list_games, load_game
from search import make_searcher
from search.bench import opening, rate

CASES = [pytest.param(name, opts, id=f"{name}-{opts.get('players')}p")
         for name in list_games() for opts in game_spec(name).test_configurations()]
ITERATIONS = 3000


def _search(name, state, **options):
    searcher = make_searcher(name, **options)
    try:
        return searcher.search(state).stats
    finally:
        searcher.close()


@pytest.mark.parametrize("searcher", ["ismcts", "mcts", "pimc"])
@pytest.mark.parametrize("game, options", CASES)
def test_iterations_per_second(benchmark, searcher, game, options):
    state = opening(load_game(game, **options))
    stats = benchmark.pedantic(_search, args=(searcher, state), kwargs={"iterations": ITERATIONS}, rounds=5,
                               warmup_rounds=1)
    assert stats["iterations"] == ITERATIONS
    if benchmark.enabled:
        median = benchmark.stats.stats.median
        benchmark.extra_info["iterations_per_s"] = ITERATIONS / median
        benchmark.extra_info["overhead_share"] = 1.0 - stats["rollout_share"]


@pytest.mark.parametrize("game, options", CASES)
def test_ismcts_over_mcts_cost(benchmark, game, options):
    """The ratio of an ISMCTS iteration's cost to a plain MCTS iteration's, same position, same budget."""
    state = opening(load_game(game, **options))
    seconds = 0.5 if benchmark.enabled else 0.05

    def ratio():
        ismcts = _search("ismcts", state, time=seconds)
        mcts = _search("mcts", state, time=seconds)
        return mcts["iterations_per_s"] / ismcts["iterations_per_s"], ismcts, mcts
    value, ismcts, mcts = benchmark.pedantic(ratio, rounds=3)
    assert value > 0
    benchmark.extra_info.update(cost_ratio=value, ismcts_overhead_share=1.0 - ismcts["rollout_share"],
                                mcts_overhead_share=1.0 - mcts["rollout_share"])


@pytest.mark.parametrize("game, options", CASES[:1])
def test_root_parallel_speedup(benchmark, game, options):
    """Iterations/s of ISMCTS with 2 worker processes over 1 (medians of 3 searches of 1 s, after a warm-up)."""
    if not benchmark.enabled:
        pytest.skip("spawns worker processes for seconds: benchmark runs only")
    state = opening(load_game(game, **options))

    def speedup():
        one = rate("ismcts", state, 3.0, 3)
        two = rate("ismcts", state, 3.0, 3, workers=2)
        return two["iterations_per_s"] / one["iterations_per_s"]
    value = benchmark.pedantic(speedup, rounds=1)
    benchmark.extra_info["speedup_2_workers"] = value
    assert value > 0

"""Engine benchmarks (pytest-benchmark), one set per registered game configuration.

Not part of the normal test run (benchmarks are disabled there). Run them with:
    python -m pytest tests/bench --benchmark-enable --benchmark-only
Targets (docs/performance.md): >= 1,000,000 playout moves/s, clone < 1 µs, determinize < 10 µs, on one core.
"""
import pytest

from engine import playout
from engine.bench import midgame_states
from engine.registry import game_spec, list_games, load_game
from engine.rng import RNG

CASES = [pytest.param(name, opts, id=f"{name}-{opts.get('players')}p")
         for name in list_games() for opts in game_spec(name).test_configurations()]


@pytest.mark.parametrize("name, options", CASES)
def test_random_playout(benchmark, name, options):
    game = load_game(name, **options)
    start = game.new_initial_state()
    rng = RNG(1)

    def one_game():
        s = start.clone()
        return playout.playout(s, rng)

    moves = benchmark(one_game)
    assert moves > 0
    if benchmark.stats:
        benchmark.extra_info["moves_per_s"] = moves / benchmark.stats.stats.median


@pytest.mark.parametrize("name, options", CASES)
def test_clone(benchmark, name, options):
    state = midgame_states(load_game(name, **options), 1, seed=2)[0]
    copy = benchmark(state.clone)
    assert copy.to_json() == state.to_json()


@pytest.mark.parametrize("name, options", CASES)
def test_determinize(benchmark, name, options):
    state = midgame_states(load_game(name, **options), 1, seed=3)[0]
    observer = max(state.current_player(), 0)
    rng = RNG(4)
    sample = benchmark(state.determinize, observer, rng)
    assert sample.info_key(observer) == state.info_key(observer)

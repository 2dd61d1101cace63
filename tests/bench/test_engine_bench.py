"""Engine benchmarks (pytest-benchmark), one set per registered game configuration.

Not part of the normal test run (benchmarks are disabled there). Run them with:
    python -m pytest tests/bench --benchmark-enable --benchmark-only
Targets (docs/performance.md): >= 1,000,000 playout moves/s, clone < 1 µs, determinize < 10 µs, on one core.
"""
import pytest

from engine import playout
from engine.bench import hidden_information_states, hides_something, midgame_states
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
    state = hidden_information_states(load_game(name, **options), 1, seed=3)[0]
    observer = max(state.current_player(), 0)
    rng = RNG(4)
    sample = benchmark(state.determinize, observer, rng)
    assert sample.info_key(observer) == state.info_key(observer)


@pytest.mark.parametrize("name, options", [("goofspiel", {"players": 2}), ("goofspiel", {"players": 4}),
                                           ("polis", {"players": 2})])
def test_determinize_is_timed_where_something_is_hidden(name, options):
    """Issue 24: the determinize figure must time a real resample. In 2-player goofspiel only the second bidder
    has something hidden; the benchmark's positions must be such decisions."""
    states = hidden_information_states(load_game(name, **options), 5, seed=1)
    assert all(hides_something(s, s.current_player()) for s in states)


def test_nothing_hidden_is_told_apart():
    """The control: at the first bidder's decision of a 2-player goofspiel round nothing is hidden."""
    s = load_game("goofspiel", players=2, cards=6).new_initial_state()
    s.apply(2)
    assert not hides_something(s, 0)
    s.apply(1)
    assert hides_something(s, 1)

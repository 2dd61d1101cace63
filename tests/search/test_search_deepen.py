"""The `deepen` option (docs/search.md, Options): the depth cut-off moves `deepen` actions away from the root once a
search has run `deepen_from` iterations and again at each doubling of them, so the horizon grows with the budget;
each search starts again at `depth`."""
import math

import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search.analysis import analyse
from search.bench import opening


def expected_cutoff(depth, deepen, deepen_from, iterations):
    """The cut-off the last of `iterations` iterations ran at, from the definition: it moves before the iteration
    that follows deepen_from, 2 x deepen_from, 4 x deepen_from ... iterations."""
    done = iterations - 1                   # iterations finished when the last one started
    moves = 0 if done < deepen_from else 1 + int(math.floor(math.log2(done / deepen_from)))
    return depth + deepen * moves


@pytest.mark.parametrize("iterations", [1, 40, 41, 80, 81, 160, 161, 700])
def test_the_cut_off_moves_at_each_doubling(iterations):
    state = opening(load_game("goofspiel"), 2)
    result = make_searcher("ismcts", iterations=iterations, seed=2, depth=4, deepen=3,
                           deepen_from=40).search(state)
    assert result.stats["cutoff"] == expected_cutoff(4, 3, 40, iterations)


def test_every_iteration_runs_to_the_cut_off_of_its_time():
    """Goofspiel (13 cards, 39 actions) ends far past these horizons, so an iteration applies exactly as many
    actions as its cut-off allows (tree descent and rollout alike, as for depth): the calls of a search are the
    sum of the cut-offs its iterations ran at."""
    state = opening(load_game("goofspiel"), 2)
    result = make_searcher("mcts", iterations=20, seed=1, depth=3, deepen=2, deepen_from=4).search(state)
    assert result.stats["calls"] == sum(expected_cutoff(3, 2, 4, n) for n in range(1, 21))     # 4x3+4x5+8x7+4x9
    assert result.stats["calls"] == 124


def test_zero_or_no_depth_is_the_search_without_it(goof13):
    plain = make_searcher("ismcts", iterations=300, seed=3, depth=5).search(goof13)
    zero = make_searcher("ismcts", iterations=300, seed=3, depth=5, deepen=0, deepen_from=7).search(goof13)
    assert plain.stats["visits"] == zero.stats["visits"] and plain.stats["calls"] == zero.stats["calls"]
    assert zero.stats["cutoff"] == 5
    full = make_searcher("ismcts", iterations=300, seed=3).search(goof13)
    moved = make_searcher("ismcts", iterations=300, seed=3, deepen=4, deepen_from=10).search(goof13)
    assert full.stats["visits"] == moved.stats["visits"] and full.stats["calls"] == moved.stats["calls"]
    assert moved.stats["cutoff"] is None               # no cut-off to move


def test_it_changes_the_search(goof13):
    a = make_searcher("ismcts", iterations=300, seed=3, depth=4).search(goof13)
    b = make_searcher("ismcts", iterations=300, seed=3, depth=4, deepen=2, deepen_from=50).search(goof13)
    assert b.stats["calls"] > a.stats["calls"]
    assert b.stats["cutoff"] == 4 + 2 * 3                # moved at 50, 100 and 200 iterations


def test_each_search_of_a_kept_tree_starts_at_depth():
    """reuse=yes carries the tree, not the cut-off: the budget that grows the horizon is this search's own."""
    state = opening(load_game("goofspiel"), 2)
    searcher = make_searcher("ismcts", iterations=100, seed=4, depth=4, deepen=2, deepen_from=30, reuse="yes")
    first = searcher.search(state)
    nxt = state.clone()
    nxt.apply(first.action)
    while nxt.current_player() != 0:                  # to seat 0's next decision (its own tree's node)
        nxt.apply(nxt.legal_actions()[0] if nxt.current_player() >= 0 else nxt.chance_outcomes()[0][0])
    second = searcher.search(nxt)
    assert second.stats["reused_visits"] > 0
    assert first.stats["cutoff"] == second.stats["cutoff"] == expected_cutoff(4, 2, 30, 100)


def test_each_of_pimcs_worlds_counts_its_own_iterations(goof13):
    """PIMC shares the budget among its worlds' trees: 8 worlds of 1,000 iterations never pass deepen_from."""
    even = make_searcher("pimc", iterations=8000, seed=1, depth=4, deepen=3).search(goof13)
    assert even.stats["cutoff"] == 4
    past = make_searcher("pimc", iterations=8016, seed=1, depth=4, deepen=3).search(goof13)
    assert past.stats["cutoff"] == 7


def test_the_analysis_shows_the_cut_off(goof13):
    searcher = make_searcher("ismcts", iterations=500, seed=1, depth=4, deepen=1, deepen_from=100)
    out = analyse(searcher, goof13)
    assert out["tree"]["cutoff"] == expected_cutoff(4, 1, 100, 500) == 7          # moved at 100, 200 and 400


def test_bad_deepen():
    with pytest.raises(SearchOptionError, match="deepen=-1 must be >= 0"):
        make_searcher("ismcts", depth=5, deepen=-1)
    with pytest.raises(SearchOptionError, match="deepen_from=0 must be >= 1"):
        make_searcher("ismcts", depth=5, deepen=2, deepen_from=0)
    with pytest.raises(SearchOptionError, match="deepen='x' is not an integer"):
        make_searcher("ismcts", deepen="x")
    with pytest.raises(SearchOptionError, match="deepen=1001 must be <= 1000"):
        make_searcher("ismcts", deepen=1001)


def test_the_console_report_names_the_cut_off():
    """`kleos analyse` prints the horizon the search ended at: the declared one without deepen, the moved one with
    it, and no row without a cut-off."""
    from test_search_analysis import run_cli
    code, out = run_cli("goofspiel", "--bot", "ismcts:iterations=500,depth=4,deepen=1,deepen_from=100")
    assert code == 0 and "7 actions from the root" in out
    code, out = run_cli("goofspiel", "--bot", "ismcts:iterations=500,depth=4")
    assert code == 0 and "4 actions from the root" in out
    code, out = run_cli("goofspiel", "--bot", "ismcts:iterations=500")
    assert code == 0 and "depth cut-off" not in out

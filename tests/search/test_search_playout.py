"""The `playout` cut-off (docs/search.md, Options): a simulation's rollout stops `playout` actions past the tree's
leaf and evaluate() scores it (early playout termination), so the horizon grows as the tree does; `depth` counts
from the root and caps the tree itself."""
import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search.bench import opening


def _one_iteration_calls(state, **options):
    """Forward-model calls of a single MCTS iteration from `state` (its expansion, then its rollout)."""
    return make_searcher("mcts", iterations=1, seed=1, **options).search(state).stats["calls"]


@pytest.mark.parametrize("k", [0, 1, 3, 7])
def test_a_rollout_stops_playout_actions_past_the_leaf(k):
    """One iteration expands one move, then rolls out exactly k actions (chance reveals count, as for depth)."""
    state = opening(load_game("goofspiel"), 2)
    assert _one_iteration_calls(state, playout=k) == 1 + k


def test_with_depth_whichever_comes_first():
    state = opening(load_game("goofspiel"), 2)
    assert _one_iteration_calls(state, playout=5, depth=3) == 3          # the root's cut-off first
    assert _one_iteration_calls(state, playout=2, depth=30) == 1 + 2     # the leaf's first


def test_the_tree_grows_past_a_cut_off_counted_from_the_root():
    """The cause it fixes: under depth=d no node lies deeper than d actions, whatever the budget; under a playout
    cut-off a larger budget grows the tree, and the horizon with it."""
    state = opening(load_game("goofspiel", cards=6), 2)

    def deepest(iterations, **options):
        return make_searcher("ismcts", iterations=iterations, seed=3, **options).search(state).stats["max_depth"]
    assert deepest(500, depth=4) == deepest(4000, depth=4) <= 4
    assert deepest(500, playout=2) < deepest(4000, playout=2)
    assert deepest(4000, playout=2) > 4


def test_none_is_the_search_without_it(goof13):
    plain = make_searcher("ismcts", iterations=300, seed=3, depth=10).search(goof13)
    unset = make_searcher("ismcts", iterations=300, seed=3, depth=10, playout=None).search(goof13)
    far = make_searcher("ismcts", iterations=300, seed=3, depth=10, playout=1000).search(goof13)
    assert plain.stats["visits"] == unset.stats["visits"] == far.stats["visits"]
    assert plain.stats["calls"] == unset.stats["calls"] == far.stats["calls"]


def test_it_changes_the_search(goof13):
    a = make_searcher("ismcts", iterations=300, seed=3).search(goof13)
    b = make_searcher("ismcts", iterations=300, seed=3, playout=2).search(goof13)
    assert b.stats["calls"] < a.stats["calls"]


def test_bad_playout():
    with pytest.raises(SearchOptionError, match="playout=-1 must be >= 0"):
        make_searcher("ismcts", playout=-1)
    with pytest.raises(SearchOptionError, match="playout='x' is not an integer"):
        make_searcher("ismcts", playout="x")

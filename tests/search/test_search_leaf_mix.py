"""`leaf_mix` (docs/search.md, Options): at a cut-off (`depth`, `playout`) that share of the leaf's value comes from
uniform moves played on from the leaf to the game's end, the rest from evaluate() (an evaluation and a rollout
mixed, as AlphaGo mixed its value network and its rollouts)."""
import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search.bench import opening


def _one_iteration(state, **options):
    """The result of a single MCTS iteration from `state`."""
    return make_searcher("mcts", iterations=1, seed=1, **options).search(state)


def test_a_mixed_leaf_plays_on_to_the_end():
    """Goofspiel lasts a fixed number of actions, so one iteration cut at depth 2 and mixed applies as many as one
    that rolls out to the end; without the mix, 2."""
    state = opening(load_game("goofspiel"), 2)
    full = _one_iteration(state)
    mixed = _one_iteration(state, depth=2, leaf_mix=0.5)
    cut = _one_iteration(state, depth=2)
    assert cut.stats["calls"] == 2
    assert mixed.stats["calls"] == full.stats["calls"] > 2


def test_the_value_is_the_share_of_the_returns_and_of_evaluate():
    """Two players' returns are 0, 1/2 or 1: with leaf_mix=1 the value of one cut-off simulation is one of them;
    with 0.5 it is half a return plus half of evaluate() at the leaf, so twice it less a return is evaluate()."""
    state = opening(load_game("goofspiel"), 2)
    whole = _one_iteration(state, depth=3, leaf_mix=1.0)
    assert whole.stats["value"] in (0.0, 0.5, 1.0)
    half = _one_iteration(state, depth=3, leaf_mix=0.5)
    cut = _one_iteration(state, depth=3)                # the same leaf: the same seed, the same first moves
    evaluated = cut.stats["value"]
    assert any(abs(2 * half.stats["value"] - r - evaluated) < 1e-12 for r in (0.0, 0.5, 1.0))


def test_none_is_the_search_without_it(goof13):
    a = make_searcher("ismcts", iterations=300, seed=3, depth=6).search(goof13)
    b = make_searcher("ismcts", iterations=300, seed=3, depth=6, leaf_mix=0.0).search(goof13)
    assert a.stats["visits"] == b.stats["visits"] and a.stats["calls"] == b.stats["calls"]


def test_it_changes_the_search_only_at_a_cut_off(goof13):
    plain = make_searcher("ismcts", iterations=300, seed=3).search(goof13)
    uncut = make_searcher("ismcts", iterations=300, seed=3, leaf_mix=0.5).search(goof13)
    assert plain.stats["visits"] == uncut.stats["visits"]           # no cut-off, nothing to mix
    cut = make_searcher("ismcts", iterations=300, seed=3, depth=6).search(goof13)
    mixed = make_searcher("ismcts", iterations=300, seed=3, depth=6, leaf_mix=0.5).search(goof13)
    assert mixed.stats["calls"] > cut.stats["calls"]


@pytest.mark.parametrize("value, message", [(-0.1, "leaf_mix=-0.1 must be >= 0.0"),
                                            (1.5, "leaf_mix=1.5 must be <= 1.0"),
                                            ("x", "leaf_mix='x' is not a number")])
def test_bad_leaf_mix(value, message):
    with pytest.raises(SearchOptionError, match=message):
        make_searcher("ismcts", leaf_mix=value)


def test_mix_at_tree_mixes_only_where_the_tree_fills_the_horizon(goof13):
    """mix_at=tree: a new leaf keeps evaluate() alone (one iteration cut at depth 2: 2 calls, as without the mix);
    a cut-off met inside the tree plays on to the end. With depth 2 the tree is full within a few hundred of 2,000
    iterations, so nearly every later one is mixed: nearly as many calls as mixing every leaf, far more than none."""
    state = opening(load_game("goofspiel"), 2)
    assert _one_iteration(state, depth=2, leaf_mix=0.5, mix_at="tree").stats["calls"] == 2

    def calls(**options):
        return make_searcher("ismcts", iterations=2000, seed=3, depth=2, **options).search(goof13).stats["calls"]
    none, tree, every = calls(), calls(leaf_mix=0.5, mix_at="tree"), calls(leaf_mix=0.5)
    assert none < tree < every and tree > 0.6 * every


def test_bad_mix_at():
    with pytest.raises(SearchOptionError, match="mix_at='leaf' is not one of cutoff, tree"):
        make_searcher("ismcts", leaf_mix=0.5, mix_at="leaf")


# mix_policy (docs/search.md, Options): who plays the moves from a cut-off leaf to the end.

def _lookahead_of_greedy_ending(state, depth):
    """What a greedy ending (rollout=heuristic,lookahead=0) looks ahead from `depth` actions below `state` to
    goofspiel's end: every decision with more than one legal move scores each of them once. In goofspiel the
    number of legal moves at each step does not depend on the path (a bid a round, each hand one card shorter), so
    any path gives it."""
    s = state.clone()
    for _ in range(depth):
        s.apply(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
    looked = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(s.chance_outcomes()[0][0])
            continue
        legal = s.legal_actions()
        looked += len(legal) if len(legal) > 1 else 0
        s.apply(legal[0])
    return looked


def test_a_rollout_policy_ending_looks_ahead_as_the_rollouts_do():
    """mix_policy=rollout with greedy rollouts: one iteration cut at depth 3 and wholly mixed plays the same moves
    to the end as the uniform ending (goofspiel lasts a fixed number of actions) plus, exactly, the greedy
    look-ahead of every decision after the cut-off; the rollout to the cut-off is the same in both."""
    state = opening(load_game("goofspiel"), 2)
    options = dict(depth=3, leaf_mix=1.0, rollout="heuristic", lookahead=0)
    uniform = _one_iteration(state, **options)
    greedy = _one_iteration(state, mix_policy="rollout", **options)
    assert greedy.stats["calls"] - uniform.stats["calls"] == _lookahead_of_greedy_ending(state, 3) > 0


def test_uniform_is_the_default_and_a_random_rollout_policy_is_uniform(goof13):
    """mix_policy=uniform is the search without the option; with rollout=random the rollout policy's ending draws
    the same uniform moves from the same stream, so the searches agree to the last visit."""
    def result(**options):
        r = make_searcher("ismcts", iterations=400, seed=5, depth=4, leaf_mix=0.5, **options).search(goof13)
        return r.stats["visits"], r.stats["calls"], r.stats["value"]
    default = result()
    assert result(mix_policy="uniform") == default
    assert result(mix_policy="rollout") == default
    assert result(mix_policy="rollout", rollout="heuristic") != result(rollout="heuristic")


def test_mast_endings_play_by_the_move_averages(goof13):
    """rollout=mast: the ending plays by the search's move averages, which its moves join, so the search differs
    from the uniform ending's; without leaf_mix the option changes nothing."""
    def result(**options):
        r = make_searcher("ismcts", iterations=400, seed=5, depth=4, rollout="mast", **options).search(goof13)
        return r.stats["visits"], r.stats["calls"], r.stats["value"]
    assert result(leaf_mix=0.5, mix_policy="rollout") != result(leaf_mix=0.5)
    assert result(mix_policy="rollout") == result()


def test_bad_mix_policy():
    with pytest.raises(SearchOptionError, match="mix_policy='greedy' is not one of uniform, rollout"):
        make_searcher("ismcts", leaf_mix=0.5, mix_policy="greedy")

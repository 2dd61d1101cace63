"""`oma` and `widen` (docs/search.md, Options): opponent move abstraction and progressive widening at the other
players' nodes (Baier and Kaisers 2020, MCTS-OMA-PW), two ways for a multiplayer tree to reach the searching
player's later moves: the abstraction pools what a move of the searcher did after the same own moves whatever the
others did between, and widening keeps the others' nodes narrow until their visits justify more moves."""
import math
from collections import Counter

import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search_helpers import after

CHANCE = -1


def _own_moves(engine, node, me):
    """{action: visits} of `me`'s edges below `node` of the last search's tree."""
    return {child["key"]: child["visits"] for child in engine.children(node) if child["mover"] == me}


def test_off_is_the_search_without_them(goof13):
    plain = make_searcher("ismcts", iterations=400, seed=3, rollout="mast", history=1.0).search(goof13)
    off = make_searcher("ismcts", iterations=400, seed=3, rollout="mast", history=1.0, oma=0.0, widen=0.0,
                        widen_power=0.25).search(goof13)
    assert plain.stats["visits"] == off.stats["visits"] and plain.stats["calls"] == off.stats["calls"]


def test_the_abstraction_pools_an_own_move_over_everything_between(goof13):
    """The abstraction's count of the searcher's second bid after its first bid `a` is the sum, over every
    opponent bid and every prize revealed between them, of that bid's visits at the tree's node there; at the
    root (a fresh tree) it is the root's own count."""
    searcher = make_searcher("ismcts", iterations=3000, seed=3, oma=20)
    searcher.search(goof13)
    engine, me = searcher.engine, goof13.current_player()
    first = engine.abstract_moves()
    assert {a: visits for a, (visits, _mean) in first.items()} == _own_moves(engine, -1, me)
    pooled = 0
    for a in first:
        expected = Counter()
        after_a = after(goof13, a)
        for b in after_a.legal_actions():
            for prize, _p in after(after_a, b).chance_outcomes():
                node = engine.descend(goof13, [a, b, prize])
                if node >= 0:
                    expected.update(_own_moves(engine, node, me))
        second = {action: visits for action, (visits, _mean) in engine.abstract_moves([a]).items()}
        assert second == dict(expected)
        pooled += sum(second.values())
    assert pooled > 0                                   # the tree reached the second bid
    assert engine.abstract_moves([99]) == {}            # a move never made: nothing


def test_the_abstraction_changes_the_searchers_choices(goof13):
    plain = make_searcher("ismcts", iterations=2000, seed=3).search(goof13)
    abstract = make_searcher("ismcts", iterations=2000, seed=3, oma=20).search(goof13)
    assert plain.stats["visits"] != abstract.stats["visits"]
    off = make_searcher("ismcts", iterations=50, seed=3)
    off.search(goof13)
    assert off.engine.abstract_moves() == {}            # without oma there is no abstraction


def _nodes(engine):
    """Every node of the last search's tree (information-set nodes are found by key, not as children)."""
    return [engine.node(i) for i in range(engine.tree_size())]


def _widest(engine, me, others):
    """The largest excess of a node's decision edges over ceil(C visits^power) (C = 1, power = 0.5), at the other
    players' nodes (`others`) or at `me`'s."""
    worst = -math.inf
    for node in _nodes(engine):
        movers = [c["mover"] for c in engine.children(node["index"])]
        if not movers or movers[0] == CHANCE or (movers[0] != me) != others:
            continue
        worst = max(worst, len(movers) - math.ceil(node["visits"] ** 0.5))
    return worst


def _five_cards_left():
    """Goofspiel with five cards left in each hand (every earlier bid the lowest card): a tree of 3,000
    iterations fills its nodes there."""
    state = load_game("goofspiel").new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) > 5:
        state.apply(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    return state


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_widening_keeps_the_others_nodes_narrow(name):
    """A node of another player has at most ceil(C x visits^power) moves tried (the opponent's hand is public in
    goofspiel, so its legal bids, and its information-set node, are the same in every world); the searcher's
    own nodes are not limited, and without widening the others' are not either."""
    state = _five_cards_left()
    me = state.current_player()
    widened = make_searcher(name, iterations=3000, seed=4, widen=1.0)
    widened.search(state)
    assert _widest(widened.engine, me, others=True) <= 0
    assert _widest(widened.engine, me, others=False) > 0
    plain = make_searcher(name, iterations=3000, seed=4)
    plain.search(state)
    assert _widest(plain.engine, me, others=True) > 0


@pytest.mark.parametrize("options, message", [({"oma": -1}, "oma=-1.0 must be >= 0.0"),
                                              ({"widen": -0.5}, "widen=-0.5 must be >= 0.0"),
                                              ({"widen_power": 1.5}, "widen_power=1.5 must be <= 1.0"),
                                              ({"oma": "x"}, "oma='x' is not a number"),
                                              ({"oma": 5, "keys": "path", "observers": "multi"},
                                               "option oma needs one tree")])
def test_bad_values(options, message):
    with pytest.raises(SearchOptionError, match=message):
        make_searcher("ismcts", **options)

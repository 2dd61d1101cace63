"""No peeking: PIMC and ISMCTS decide from the mover's information set only; the ISMCTS tree never holds a node
keyed on an opponent's hidden choice (ARCHITECTURE.md section 3; issue 7 'No peeking')."""
import pytest

from engine.registry import load_game
from search import make_searcher
from search_helpers import new, position

# P2 to bid in a 3-player, 8-card game; P0 and P1 have bid face down (P2 cannot see which cards).
BASE = {"players": 3, "cards": 8, "round": 2, "phase": "bidding", "to_bid": 2, "prize": 7,
        "prize_deck": [1, 2, 4, 6, 8], "hands": [[1, 2, 4, 5, 7, 8], [1, 3, 4, 5, 6, 8], [2, 3, 4, 5, 6, 7]],
        "bids": [8, 1, None], "last_bids": [6, 7, 1], "points": [3, 5, 0]}
OTHER = {**BASE, "bids": [2, 6, None]}          # the same information set for P2: only hidden bids differ


def test_the_two_views_are_one_information_set():
    a, b = position(BASE), position(OTHER)
    assert a.info_key(2) == b.info_key(2) and a.observation(2) == b.observation(2)
    assert a.info_key(0) != b.info_key(0)


@pytest.mark.parametrize("name", ["pimc", "ismcts", "ismcts-mo"])
@pytest.mark.parametrize("options", [{"iterations": 1500}, {"calls": 20000, "rollout": "heuristic"}])
def test_decision_ignores_hidden_cards(name, options):
    a = new(name, seed=9, **options).search(position(BASE))
    b = new(name, seed=9, **options).search(position(OTHER))
    assert a.action == b.action
    assert a.stats["visits"] == b.stats["visits"]      # the whole search is identical, not just the move


def test_oracle_does_see_hidden_cards():
    """The control: MCTS on the true state (the oracle) does use the hidden bids, so the test above can fail."""
    a = make_searcher("mcts", seed=9, iterations=1500).search(position(BASE))
    b = make_searcher("mcts", seed=9, iterations=1500).search(position(OTHER))
    assert a.stats["visits"] != b.stats["visits"]


def _walk(engine, node=0):
    for child in engine.children(node):
        yield child
        yield from _walk(engine, child["index"])


@pytest.mark.parametrize("observers", ["single", "multi"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_ismcts_tree_has_no_node_keyed_on_hidden_bids(players, observers):
    """Every opponent bid in goofspiel is face down when made: in the searcher's tree each opponent edge must be
    the merged 'hidden' observation (a negative key), one edge per opponent node, never a card."""
    game = load_game("goofspiel", players=players, cards=6)
    s = game.new_initial_state()
    s.apply(3)
    s.apply(0)                      # P0 bids; P1 searches with P0's bid hidden from it
    searcher = make_searcher("ismcts", iterations=3000, seed=1, observers=observers)
    searcher.search(s)
    me = s.current_player()
    opponents = chance = own = 0
    for node in [searcher.engine.node(0)] + list(_walk(searcher.engine)):
        kids = searcher.engine.children(node["index"])
        theirs = [k for k in kids if k["mover"] not in (me, -1)]
        assert all(k["key"] < 0 for k in theirs), theirs
        assert len(theirs) <= len({k["mover"] for k in theirs})
        opponents += len(theirs)
        chance += sum(k["mover"] == -1 for k in kids)
        own += sum(k["mover"] == me for k in kids)
    assert opponents > 100 and chance > 100 and own > 100     # the tree really goes through all three kinds


def test_mcts_tree_keys_opponent_moves_by_action():
    """The control for the test above: plain MCTS (perfect information) keys every edge by the action."""
    s = load_game("goofspiel", players=2, cards=6).new_initial_state()
    s.apply(3)
    searcher = make_searcher("mcts", iterations=2000, seed=1)
    searcher.search(s)
    keys = [c["key"] for c in _walk(searcher.engine) if c["mover"] == 1]
    assert keys and all(k >= 0 for k in keys)


def test_ismcts_availability_counts():
    """A child's availability counts the parent visits in which it existed and was legal: at the root (all moves
    always legal) it equals the root visits since the child was added, so it is at least its own visits and at
    most the root's."""
    s = load_game("goofspiel", players=2, cards=6).new_initial_state()
    s.apply(3)
    searcher = make_searcher("ismcts", iterations=2000, seed=2)
    searcher.search(s)
    root = searcher.engine.node(0)
    kids = searcher.engine.children(0)
    assert len(kids) == 6
    assert all(k["visits"] <= k["avail"] <= root["visits"] for k in kids)
    assert sum(k["avail"] for k in kids) > root["visits"]


def test_multi_observer_opponents_choose_in_their_own_trees():
    """MO-ISMCTS: each opponent's tree keys that opponent's own bids by the card (it sees them) and the searching
    player's bids as hidden (it does not)."""
    s = load_game("goofspiel", players=3, cards=6).new_initial_state()
    s.apply(3)
    searcher = make_searcher("ismcts", iterations=3000, seed=1, observers="multi")
    searcher.search(s)                      # P0 searches; P1 and P2 bid after it
    for seat in (1, 2):
        edges = list(_walk_tree(searcher.engine, seat))
        own = [e["key"] for e in edges if e["mover"] == seat]
        p0 = [e["key"] for e in edges if e["mover"] == 0]
        assert own and all(k >= 0 for k in own)
        assert p0 and all(k < 0 for k in p0)
    assert searcher.engine.total_size() > searcher.engine.tree_size()


def _walk_tree(engine, tree, node=0):
    for child in engine.children(node, tree):
        yield child
        yield from _walk_tree(engine, tree, child["index"])

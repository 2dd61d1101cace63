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


@pytest.mark.parametrize("name", ["pimc", "ismcts", "ismcts-sample", "ismcts-observer", "ismcts-path", "ismcts-mo",
                                  "ismcts-belief", "pimc-belief", "ismcts-mast", "ismcts-mo-mast",
                                  "ismcts-history", "ismcts-observer-history",
                                  "ismcts-mo-history"])
@pytest.mark.parametrize("options", [{"iterations": 1500}, {"calls": 20000, "rollout": "heuristic"}])
def test_decision_ignores_hidden_cards(name, options):
    a = new(name, seed=9, **options).search(position(BASE))
    b = new(name, seed=9, **options).search(position(OTHER))
    assert a.action == b.action
    assert a.stats["visits"] == b.stats["visits"]      # the whole search is identical, not just the move


@pytest.mark.parametrize("name", ["ismcts-mast", "ismcts-history", "ismcts-mo-mast"])
def test_carried_averages_ignore_hidden_cards(name):
    """carry: the move averages a search starts from are the searcher's own earlier searches, each made from its
    information set, so a searcher that decided twice in each view still searches identically."""
    a, b = (new(name, seed=9, iterations=800, carry=0.5) for _ in range(2))
    for _ in range(2):
        ra, rb = a.search(position(BASE)), b.search(position(OTHER))
        assert ra.action == rb.action and ra.stats["visits"] == rb.stats["visits"]
    assert a.engine.move_averages(2) == b.engine.move_averages(2)


@pytest.mark.parametrize("name", ["ismcts", "ismcts-observer", "ismcts-history"])
def test_reused_trees_ignore_hidden_cards(name):
    """reuse=yes: a search starts from the searcher's own earlier tree, every node of it grown from worlds drawn
    from its information sets, so a searcher that decided twice in each view still searches identically (and
    the second search did keep the first one's tree)."""
    a, b = (new(name, seed=9, iterations=800, reuse="yes") for _ in range(2))
    for time in range(2):
        ra, rb = a.search(position(BASE)), b.search(position(OTHER))
        assert ra.action == rb.action and ra.stats["visits"] == rb.stats["visits"]
        assert ra.stats["reused_visits"] == rb.stats["reused_visits"] == (800 if time else 0)


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
    searcher = make_searcher("ismcts", iterations=3000, seed=1, keys="path", observers=observers)
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
    searcher = make_searcher("ismcts", iterations=3000, seed=1, keys="path", observers="multi")
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


# --- issue 24: a node is an information set --------------------------------------------------------------------
# 2 players, 6 cards, round 2 of 6. In ROUND P0 is to bid first; in SECOND P0 has bid face down (a 3, or a 5 in
# SECOND_OTHER: the same information set for P1) and P1 is to bid. Histories continue by bids and prizes.
ROUND = {"players": 2, "cards": 6, "round": 1, "phase": "bidding", "to_bid": 0, "prize": 4,
         "prize_deck": [1, 2, 3, 5], "hands": [[1, 2, 3, 4, 5], [1, 2, 3, 5, 6]], "bids": [None, None],
         "last_bids": [6, 4], "points": [6, 0]}
SECOND = {**ROUND, "to_bid": 1, "bids": [3, None]}
SECOND_OTHER = {**SECOND, "bids": [5, None]}
P1_CARDS = (0, 1, 2, 4, 5)
P0_CARDS = (0, 1, 2, 3, 4)


def _searched(obj, keys, iterations=20000):
    searcher = make_searcher("ismcts", iterations=iterations, seed=3, keys=keys) if keys != "mcts" else \
        make_searcher("mcts", iterations=iterations, seed=3)
    searcher.search(position(obj))
    return searcher.engine


@pytest.mark.parametrize("keys", ["mover", "observer"])
def test_revealed_bids_never_share_a_node(keys):
    """After the reveal P0 knows P1's bid: histories that differ in it are different information sets of P0's
    next decision, so they reach different nodes (and the search visited every one of them)."""
    engine = _searched(ROUND, keys)
    s = position(ROUND)
    for bid in (0, 2, 4):                                           # P0 bids 1, 3 or 5
        nodes = [engine.descend(s, [bid, reply, 2]) for reply in P1_CARDS]     # then P1, then the prize 3
        assert all(n > 0 for n in nodes), nodes                     # visited (0 is the root)
        assert len(set(nodes)) == len(nodes), nodes                 # and all different


@pytest.mark.parametrize("keys", ["mover", "observer"])
def test_revealed_hidden_bid_of_the_root_separates_nodes(keys):
    """P1 searches with P0's bid face down. Two determinizations of that bid are one node at the root, but once
    the round is revealed they are different information sets for P1."""
    engine = _searched(SECOND, keys)
    a, b = position(SECOND), position(SECOND_OTHER)
    assert engine.descend(a, []) == engine.descend(b, []) == 0
    for reply in P1_CARDS:
        x, y = engine.descend(a, [reply, 2, 1]), engine.descend(b, [reply, 2, 1])   # prize 3, P0 bids 2
        assert x > 0 and y > 0 and x != y


@pytest.mark.parametrize("keys", ["mover", "observer"])
def test_what_the_observer_cannot_tell_apart_shares_a_node(keys):
    """One round on, P0 bids face down again before P1's decision: P1 cannot tell those bids apart, so every
    one of them leads to the same node of P1's, whatever the keys."""
    engine = _searched(SECOND, keys)
    s = position(SECOND)
    for reply in (1, 4):
        nodes = {engine.descend(s, [reply, 2, bid]) for bid in P0_CARDS if bid != 2}   # 2: P0's card 3, spent
        assert len(nodes) == 1 and min(nodes) > 0, nodes


def test_the_oracle_tells_hidden_bids_apart():
    """The control for the test above: plain MCTS keys P0's bid by the card, so the same histories part."""
    engine = _searched(SECOND, "mcts")
    s = position(SECOND)
    nodes = {engine.descend(s, [1, 2, bid]) for bid in P0_CARDS if bid != 2} - {-1}   # -1: never visited
    assert len(nodes) >= 2


def test_opponent_node_does_not_see_the_searchers_secret_bid():
    """keys=mover: P1's node after P0's face-down bid is P1's information set, the same for every bid of P0's,
    so P1's statistics there cannot respond to a bid it could not see."""
    engine = _searched(ROUND, "mover")
    s = position(ROUND)
    nodes = {engine.descend(s, [bid]) for bid in P0_CARDS}
    assert len(nodes) == 1 and min(nodes) > 0


def test_observer_keys_let_the_opponent_see_the_secret_bid():
    """The control (and one of the causes of issue 24 the experiments separate): keyed by the searching
    player's information, P1's node sits below P0's own bid, one node per bid."""
    engine = _searched(ROUND, "observer")
    s = position(ROUND)
    assert len({engine.descend(s, [bid]) for bid in P0_CARDS}) == 5


def test_path_keys_mixed_revealed_bids():
    """The defect of issue 24, kept as a control: the earlier path-keyed tree keys P1's bid as 'hidden' when it
    is made and never looks at its reveal, so P0's next decision shares one node across all of P1's replies."""
    engine = _searched(ROUND, "path")
    s = position(ROUND)
    nodes = {engine.descend(s, [2, reply, 2]) for reply in P1_CARDS}
    assert len(nodes) == 1 and min(nodes) > 0

"""Chance nodes are sampled by their probabilities, never chosen (issue 7 'Chance')."""
import pytest

from engine.registry import load_game
from search import make_searcher
from search_helpers import new


def _chance_nodes(engine, node=0):
    kids = engine.children(node)
    if kids and all(k["mover"] == -1 for k in kids):
        yield engine.node(node), kids
    for k in kids:
        yield from _chance_nodes(engine, k["index"])


@pytest.mark.parametrize("name", ["mcts", "ismcts-path", "ismcts-mo"])
def test_chance_children_visited_in_proportion(name):
    """After the first round of a 5-card game the next prize is drawn uniformly from the 4 left. The prizes
    differ a lot in value for the player to move, so a searcher that chose outcomes would concentrate its
    visits; sampling gives each outcome an equal share (a quarter, a third a round later, then a half)."""
    game = load_game("goofspiel", players=2, cards=5)
    s = game.new_initial_state()
    s.apply(2)
    searcher = new(name, iterations=6000, seed=4)
    searcher.search(s)
    checked = 0
    for parent, kids in _chance_nodes(searcher.engine):
        total = sum(k["visits"] for k in kids)
        if total < 400:
            continue
        assert len(kids) >= 2              # every prize left in the deck: 4 after round 1, 3, then 2
        for k in kids:          # expected total/n with a standard deviation under 5%: allow +-30%
            assert 0.7 * total / len(kids) < k["visits"] < 1.3 * total / len(kids), (parent, kids)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("name", ["ismcts", "ismcts-observer"])
def test_information_set_trees_sample_chance_in_proportion(name):
    """Information-set trees hold no chance nodes: the decision after a prize is drawn is found by its
    information set. After the first round of a 5-card game (P0 bids, P1 replies, then one of the 4 prizes
    left is drawn) the nodes of P0's next decision, summed over P1's replies, share the visits equally."""
    game = load_game("goofspiel", players=2, cards=5)
    s = game.new_initial_state()
    s.apply(2)
    searcher = new(name, iterations=6000, seed=4)
    searcher.search(s)
    engine = searcher.engine
    bid = max(engine.children(0), key=lambda k: k["visits"])["key"]
    prizes = [0, 1, 3, 4]
    per_prize = [0] * len(prizes)
    for reply in range(5):
        for i, prize in enumerate(prizes):
            node = engine.descend(s, [bid, reply, prize])
            if node >= 0:
                per_prize[i] += engine.node(node)["visits"]
    total = sum(per_prize)
    assert total > 400
    for v in per_prize:                    # expected total/4, standard deviation under 5%: allow +-30%
        assert 0.7 * total / 4 < v < 1.3 * total / 4, per_prize


@pytest.mark.parametrize("name", ["mcts", "pimc", "ismcts"])
def test_search_refuses_chance_node(name):
    s = load_game("goofspiel").new_initial_state()
    with pytest.raises(ValueError, match="chance node"):
        new(name).search(s)

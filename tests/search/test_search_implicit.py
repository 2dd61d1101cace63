"""Implicit minimax backups (searcher option ``implicit``; docs/search.md, "Implicit minimax backups"): every node
keeps the evaluation of the state it was made in, backed up the tree by max^n (chance outcomes and the worlds
behind an information-set edge averaged), and UCB mixes it into the value term."""
import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search.bench import opening
from search.uct import UCT

GAMES = [("goofspiel", {}), ("polis", {}), ("pantikapaion", {"players": 3})]


def _walk(engine, state, node, out):
    """(node dict, its state) for every node of a plain tree below `node` (an edge's key is its action)."""
    out.append((engine.node(node), state))
    for child in engine.children(node):
        s = state.clone()
        s.apply(child["key"])
        _walk(engine, s, child["index"], out)
    return out


def _leaf_value(state):
    return list(state.returns()) if state.is_terminal() else list(state.evaluate())


def _searched(searcher, name, options, seed):
    """The opening of `name` (random moves from `seed`) and the engine after `searcher` (with implicit=0.4) searched
    it for 400 iterations."""
    state = opening(load_game(name, **options), seed)
    s = make_searcher(searcher, iterations=400, implicit=0.4, seed=seed - 2)
    s.search(state)
    return state, s.engine


@pytest.mark.parametrize("name, options", GAMES)
def test_plain_tree_holds_evaluations_at_its_leaves_and_their_max_n_above(name, options):
    state, engine = _searched("mcts", name, options, 4)
    nodes = _walk(engine, state, 0, [])
    checked = {"leaf": 0, "decision": 0, "chance": 0}
    for node, s in nodes:
        children = engine.children(node["index"])
        if node["index"] == 0 and not children:
            continue
        if not children:                              # a leaf: the value of the state it was made in
            assert node["implicit"] == pytest.approx(_leaf_value(s)), (name, node)
            checked["leaf"] += 1
        elif children[0]["mover"] == -1:               # chance: the mean of the outcomes, by visits
            total = sum(c["visits"] for c in children)
            mean = [sum(c["visits"] * c["implicit"][q] for c in children) / total for q in range(s.num_players)]
            assert node["implicit"] == pytest.approx(mean), (name, node)
            checked["chance"] += 1
        else:                                          # a decision: the child best for the player to move
            mover = children[0]["mover"]
            best = max(c["implicit"][mover] for c in children)
            assert node["implicit"][mover] == pytest.approx(best), (name, node)
            assert node["implicit"] in [c["implicit"] for c in children]
            checked["decision"] += 1
    assert checked["leaf"] > 10 and checked["decision"] > 10, checked
    if name == "polis":
        assert checked["chance"] > 0, checked       # Polis's sieges roll a die inside the tree


@pytest.mark.parametrize("name, options", GAMES)
def test_information_set_nodes_take_the_best_edge_for_their_player(name, options):
    state, engine = _searched("ismcts", name, options, 5)
    seen = 0
    for index in range(engine.tree_size()):
        children = engine.children(index)
        node = engine.node(index)
        if children:
            mover = node["mover"]
            assert all(c["mover"] == mover for c in children)
            assert node["implicit"][mover] == pytest.approx(max(c["implicit"][mover] for c in children))
            seen += 1
        for q in range(state.num_players):
            assert 0.0 <= node["implicit"][q] <= 1.0
    assert seen > 5


def test_the_mix_changes_the_search_and_zero_is_the_plain_search():
    state = opening(load_game("polis"), 6)
    runs = {a: make_searcher("ismcts", iterations=600, seed=4, depth=20, rollout="heuristic", implicit=a).search(state)
            for a in (0.0, 0.5, 1.0)}
    plain = make_searcher("ismcts", iterations=600, seed=4, depth=20, rollout="heuristic").search(state)
    assert runs[0.0].stats["visits"] == plain.stats["visits"]
    assert runs[0.5].stats["visits"] != plain.stats["visits"]
    assert runs[1.0].stats["visits"] != runs[0.5].stats["visits"]


def test_without_the_option_nodes_carry_no_implicit_value():
    state = opening(load_game("goofspiel"), 1)
    searcher = make_searcher("ismcts", iterations=50, seed=1)
    searcher.search(state)
    assert "implicit" not in searcher.engine.node(-1)


def test_one_tree_only():
    with pytest.raises(SearchOptionError, match="implicit needs one tree"):
        make_searcher("ismcts", keys="path", observers="multi", implicit=0.5)
    with pytest.raises(ValueError, match="one tree"):
        UCT(True, 0.7, 0, -1, True, 0, False, False, 0.1, 0.0, 0.0, False, 0.5)
    with pytest.raises(ValueError, match="not in"):
        UCT(False, 0.7, 0, -1, False, 0, False, False, 0.1, 0.0, 0.0, False, 1.5)

"""`opponents=policy` (docs/search.md, Options): the other players' decisions below the root are made by the rollout
policy as the descent passes them, so the tree holds the searching player's decisions only (a self-only tree, the
extreme of opponent-move abstraction: Baier and Kaisers 2020; TAG's SelfOnly). `opponents=tree` (the default) gives
every decision a node of its own."""
import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search.bench import opening
from search_helpers import greedy_move, random_positions

CHANCE, TERMINAL = -1, -2
GAMES = [("goofspiel", {"players": 3}), ("polis", {}), ("pantikapaion", {"players": 4}), ("hellas", {}),
         ("mare_nostrum", {"players": 3})]
SEARCHERS = [("mcts", {}), ("pimc", {}), ("ismcts", {}), ("ismcts", {"keys": "observer", "rollout": "mast"}),
             ("ismcts", {"keys": "path"}), ("ismcts", {"reuse": "yes", "rollout": "heuristic", "depth": 12})]


def _greedy_reply_value(state, me):
    """`me`'s value after one greedy step by the player to move (every legal move scored by evaluate() for him, the
    first best played, as rollout=heuristic,lookahead=0 does), in Python; None where chance or `me` is next."""
    p = state.current_player()
    if p < 0 or p == me:
        return None
    s = state.clone()
    s.apply(greedy_move(state))
    return (s.returns() if s.current_player() == TERMINAL else s.evaluate())[me]


@pytest.mark.parametrize("searcher, extra", SEARCHERS, ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x.items()) or "defaults")
@pytest.mark.parametrize("name, options", GAMES, ids=lambda x: x if isinstance(x, str) else str(x.get("players", "")))
def test_the_tree_holds_the_searchers_decisions_only(name, options, searcher, extra):
    """Every node below the root is a decision of the searching player (or chance, which plain trees keep), where
    with opponents=tree the others' decisions have nodes too."""
    others_seen = 0
    for state in random_positions(name, 3, **options):
        me = state.current_player()
        for opponents in ("policy", "tree"):
            s = make_searcher(searcher, **extra, opponents=opponents, iterations=300, seed=2)
            result = s.search(state)
            assert result.action in state.legal_actions()
            engine = s.engine
            movers = {engine.node(i)["mover"] for i in range(1, engine.tree_size())}
            if opponents == "policy":
                assert movers <= {me, CHANCE}, (name, searcher, extra, movers)
            else:
                others_seen += bool(movers - {me, CHANCE})
    assert others_seen > 0          # the control: without the option the others do have nodes here


@pytest.mark.parametrize("name, options", GAMES, ids=lambda x: x if isinstance(x, str) else str(x.get("players", "")))
def test_an_opponent_in_the_tree_plays_the_rollout_policy(name, options):
    """With a greedy rollout policy and a cut-off two actions from the root, where each root move hands the decision
    to an opponent, every visit of a root move is scored after the opponent's greedy reply: its mean value is that
    reply's value exactly. With opponents=tree the opponent's node tries its other replies, and the means move."""
    checked = differs = 0
    for state in random_positions(name, 40, seed=11, **options):
        me = state.current_player()
        replies = {}
        for a in state.legal_actions():
            after = state.clone()
            after.apply(a)
            replies[a] = _greedy_reply_value(after, me)
        if None in replies.values():
            continue
        means = {}
        for opponents in ("policy", "tree"):
            s = make_searcher("mcts", opponents=opponents, rollout="heuristic", lookahead=0, depth=2,
                              iterations=30 * len(replies), seed=4)
            s.search(state)
            means[opponents] = {c["key"]: c["value"][me] for c in s.engine.children() if c["visits"] > 0}
        for a, value in means["policy"].items():
            assert value == pytest.approx(replies[a], abs=1e-12), (name, a)
        checked += 1
        differs += any(abs(means["tree"][a] - replies[a]) > 1e-9 for a in means["tree"])
    assert checked > 0 and differs > 0, (name, checked, differs)


def test_bad_values_are_refused_by_name():
    with pytest.raises(SearchOptionError, match="opponents='nobody' is not one of tree, policy"):
        make_searcher("ismcts", opponents="nobody")
    with pytest.raises(SearchOptionError, match="opponents=policy.*observers=multi"):
        make_searcher("ismcts", keys="path", observers="multi", opponents="policy")

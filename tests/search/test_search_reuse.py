"""reuse=yes: an information-set search starts from the node its root already has in the tree of the searcher's
earlier searches in the game (docs/search.md, "Keeping the tree"); only the same seat's own trees of the same
game are kept."""
import pytest

from engine.registry import load_game
from search import make_searcher
from search.options import SearchOptionError

KLEOS_LIKE = {"depth": 8, "rollout": "heuristic"}


def two_decisions_in_a_row(seed=3):
    """A Pantikapaion position where the player to move decides again right after its move (a turn of several
    decisions), reached by a seeded random game."""
    import random
    rng = random.Random(seed)
    s = load_game("pantikapaion", players=2).new_initial_state()
    while True:
        if s.is_chance_node():
            s.apply(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        legal = s.legal_actions()
        if len(legal) > 3:
            for action in legal:
                t = s.clone()
                t.apply(action)
                if not t.is_chance_node() and t.current_player() == s.current_player() and len(t.legal_actions()) > 1:
                    return s
        s.apply(rng.choice(legal))


@pytest.mark.parametrize("keys", ["mover", "observer"])
def test_a_second_decision_starts_from_the_node_the_first_search_grew(keys):
    s = two_decisions_in_a_row()
    searcher = make_searcher("ismcts", iterations=2000, seed=5, keys=keys, reuse="yes", **KLEOS_LIKE)
    first = searcher.search(s)
    assert first.stats["reused_visits"] == 0                       # nothing to keep yet
    s.apply(first.action)
    if s.is_chance_node() or s.current_player() != searcher.engine.observer:
        pytest.fail("the premise: the mover decides again at once")
    node = searcher.engine.node_of(s)
    assert node > 0
    kept = searcher.engine.node(node)["visits"]
    assert kept > 100                                               # the move played got much of the search
    second = searcher.search(s)
    assert searcher.engine.root_node == node
    assert second.stats["reused_visits"] == kept
    assert searcher.engine.node()["visits"] == kept + 2000          # the kept visits, then this search's
    assert sum(second.stats["visits"].values()) >= 2000


def test_without_reuse_every_search_is_a_fresh_tree():
    s = two_decisions_in_a_row()
    searcher = make_searcher("ismcts", iterations=2000, seed=5, **KLEOS_LIKE)
    s.apply(searcher.search(s).action)
    second = searcher.search(s)
    assert searcher.engine.root_node == 0 and second.stats["reused_visits"] == 0
    assert searcher.engine.node()["visits"] == 2000


def test_another_seats_node_is_never_reused(goof13):
    """keys=mover holds the opponents' nodes too, grown from worlds drawn from the searching seat's information
    (its own hand, truly): another seat searching with the same searcher must start afresh, or it would see it."""
    searcher = make_searcher("ismcts", iterations=2000, seed=5, reuse="yes")
    result = searcher.search(goof13)
    goof13.apply(result.action)
    assert goof13.current_player() == 1
    assert searcher.engine.node_of(goof13) >= 0                     # seat 1's node is in seat 0's tree
    again = searcher.search(goof13)
    assert searcher.engine.root_node == 0 and again.stats["reused_visits"] == 0
    assert searcher.engine.node()["visits"] == 2000


def test_a_tree_of_another_game_is_dropped_and_one_of_the_same_game_kept(goof13):
    searcher = make_searcher("ismcts", iterations=500, seed=5, reuse="yes")
    searcher.search(goof13)
    same = load_game("goofspiel").state_from_json(goof13.to_json())   # another Game object, the same game
    assert searcher.search(same).stats["reused_visits"] > 0
    other = load_game("goofspiel", players=3).new_initial_state()
    other.apply(0)
    assert searcher.search(other).stats["reused_visits"] == 0
    assert searcher.engine.root_node == 0


def test_reuse_options_are_checked():
    with pytest.raises(SearchOptionError, match="reuse=yes needs keys=mover or keys=observer"):
        make_searcher("ismcts", reuse="yes", keys="path")
    with pytest.raises(SearchOptionError, match="reuse=yes keeps the tree in this process"):
        make_searcher("ismcts", reuse="yes", workers=2)
    with pytest.raises(SearchOptionError, match="reuse='maybe' is not one of no, yes"):
        make_searcher("ismcts", reuse="maybe")
    with pytest.raises(SearchOptionError, match="unknown option 'reuse'"):
        make_searcher("pimc", reuse="yes")


def test_the_same_seed_replays_a_game_of_reused_searches():
    """Reproducible: two searchers with one seed, the same decisions in order, the same searches."""
    def play():
        s = two_decisions_in_a_row()
        searcher = make_searcher("ismcts", iterations=600, seed=8, reuse="yes", **KLEOS_LIKE)
        out = []
        for _ in range(4):
            if s.is_terminal() or s.is_chance_node():
                break
            r = searcher.search(s)
            out.append((r.action, r.stats["visits"], r.stats["reused_visits"]))
            s.apply(r.action)
        return out
    first = play()
    assert any(reused > 0 for _, _, reused in first)
    assert first == play()

"""The second mover's root (issue 24): ISMCTS (keys=mover, pending=rewind) takes back the others' pending secret
choices that the searching player has not seen (State.c_rewind_pending) and has them made again at their own
information-set nodes, so the searcher answers the opponents' strategies, not a uniformly drawn secret."""
import pytest

from engine.errors import KleosError
from engine.registry import load_game
from engine.rng import RNG
from search import make_searcher
from search_helpers import position

# Goofspiel, last two rounds, points level (7-7): the prize is 6, then 1. P0 holds 1 and 6 and has bid face down;
# P1 (2 and 5) is to bid. Bidding 6 wins the game for P0 whatever P1 does (13-8); bidding 1 loses it (8-13).
# So P0 bids 6, and P1 has lost whatever it bids; against a uniformly drawn bid it would win half the time.
LAST = {"players": 2, "cards": 6, "round": 4, "phase": "bidding", "to_bid": 1, "prize": 6, "prize_deck": [1],
        "hands": [[1, 6], [2, 5]], "bids": [6, None], "last_bids": [5, 4], "points": [7, 7]}


def _search(obj, pending, iterations=4000, seed=2):
    searcher = make_searcher("ismcts", iterations=iterations, seed=seed, pending=pending)
    result = searcher.search(position(obj))
    return searcher, result


def _root_values(searcher, seat):
    return {c["key"]: c["value"][seat] for c in searcher.engine.children(0)}


def test_second_bidder_answers_the_first_bidders_strategy():
    searcher, result = _search(LAST, "rewind")
    values = _root_values(searcher, 1)
    assert set(values) == {1, 4} and max(values.values()) < 0.1, values      # P1 knows it has lost
    assert searcher.engine.node(0)["visits"] == result.stats["iterations"]    # every iteration reached the root
    # P0 chose at its own node, before its bid (the rewound determinization), and learnt to bid 6
    before = position({**LAST, "to_bid": 0, "bids": [None, None]})
    node = searcher.engine.node_of(before)
    assert node > 0 and searcher.engine.node(node)["visits"] == result.stats["iterations"]
    bids = {c["key"]: c["visits"] for c in searcher.engine.children(node)}
    assert bids[5] > 0.9 * sum(bids.values()), bids


def test_sampled_pending_bid_is_uniform():
    """The control: with the pending bid left as the determinization drew it (uniformly), P1 believes it wins
    about half the time and P0 never chooses at a node of its own."""
    searcher, _ = _search(LAST, "sample")
    values = _root_values(searcher, 1)
    assert all(0.35 < v < 0.65 for v in values.values()), values
    assert searcher.engine.node_of(position({**LAST, "to_bid": 0, "bids": [None, None]})) == -1


@pytest.mark.parametrize("bids", [[1, None], [6, None]])
def test_rewound_search_does_not_depend_on_the_hidden_bid(bids):
    """No peeking: the rewound root is built from the determinization, so the true pending bid changes nothing."""
    a = _search(LAST, "rewind", iterations=1500)[1]
    b = _search({**LAST, "bids": bids}, "rewind", iterations=1500)[1]
    assert a.action == b.action and a.stats["visits"] == b.stats["visits"]


def test_first_bidder_has_nothing_to_rewind():
    """P0 bids first: nothing pending, so the two settings search identically."""
    first = {**LAST, "to_bid": 0, "bids": [None, None]}
    a, b = _search(first, "rewind", 1500)[1], _search(first, "sample", 1500)[1]
    assert a.stats["visits"] == b.stats["visits"]


def test_three_players_take_back_both_earlier_bids():
    game = load_game("goofspiel", players=3, cards=5)
    s = game.new_initial_state()
    for a in (2, 0, 3):                            # prize 3, P0 bids 1, P1 bids 4
        s.apply(a)
    view = s.determinize(2, RNG(1))
    rewound, k = view.rewind_pending(2)
    assert k == 2 and rewound.current_player() == 0 and rewound.to_json()["bids"] == [None, None, None]
    for a in (1, 2):                               # any bids made again lead back to P2's information set
        rewound.apply(a)
    assert rewound.current_player() == 2 and rewound.info_key(2) == s.info_key(2)
    assert view.rewind_pending(2)[0].to_json() == rewound.rewind_pending(2)[0].to_json()


def test_rewind_needs_the_observer_to_move():
    s = position(LAST)
    with pytest.raises(KleosError, match="needs seat 0 to move"):
        s.rewind_pending(0)
    assert s.rewind_pending(1)[1] == 1 and s.to_json() == LAST    # a copy: the state itself is untouched


def test_pending_option_applies_to_mover_keys_only():
    with pytest.raises(ValueError, match="pending applies to keys=mover"):
        make_searcher("ismcts", keys="observer", pending="sample")
    with pytest.raises(ValueError, match="pending"):
        make_searcher("ismcts", pending="later")

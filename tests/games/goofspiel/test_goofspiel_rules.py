"""Goofspiel rules (docs/rules/goofspiel.md), each test naming its rule."""
import pytest

from engine.errors import BadMoveError, BadStateError
from engine.registry import load_game


def position(players=2, cards=3, **fields):
    game = load_game("goofspiel", players=players, cards=cards)
    obj = game.new_initial_state().to_json()
    obj.update(fields)
    return game, game.state_from_json(obj)


def test_rule_g1_prize_revealed_by_chance_uniformly():
    game, s = position()
    assert s.is_chance_node()
    assert s.chance_outcomes() == [(0, pytest.approx(1 / 3)), (1, pytest.approx(1 / 3)), (2, pytest.approx(1 / 3))]


def test_rule_g2_bids_in_seat_order_and_secret():
    game, s = position(players=3)
    s.apply("prize:2")
    s.apply("bid:3")                                  # player 0 bids
    assert s.current_player() == 1
    obs1 = s.observation(1)
    assert obs1["has_bid"] == [True, False, False] and obs1["my_bid"] is None
    assert s.observation(0)["my_bid"] == 3
    assert "3" not in s.render(1).split("P0")[1].split("\n")[0].split(";")[1]   # shown face down
    # while player 1 bids, player 0 cannot tell which card player 1 chose
    assert s.action_observation(0, 0) == s.action_observation(2, 0) < 0


def test_rule_g3_highest_bid_wins_prize_value():
    game, s = position()
    s.apply("prize:3")
    s.apply("bid:1")
    s.apply("bid:2")
    assert s.scores() == [0, 3]
    assert s.observation(0)["last_bids"] == [1, 2]


def test_rule_g4_tied_highest_bids_discard_the_prize():
    game, s = position(players=3)
    s.apply("prize:3")
    for bid in ("bid:3", "bid:3", "bid:1"):
        s.apply(bid)
    assert s.scores() == [0, 0, 0]


def test_rule_g5_bid_cards_are_spent():
    game, s = position()
    s.apply("prize:1")
    s.apply("bid:2")
    s.apply("bid:3")
    assert s.observation(0)["hands"] == [[1, 3], [1, 2]]
    s.apply("prize:2")
    assert s.legal_actions() == [0, 2]
    with pytest.raises(BadMoveError, match="not available"):
        s.str_to_action("bid:2")


def test_rule_g6_game_ends_after_all_prizes_ranked_by_points_with_ties_shared():
    game, s = position(players=3, cards=3, round=3, phase="over", prize=3, prize_deck=[],
                       hands=[[], [], []], last_bids=[1, 2, 3], points=[3, 3, 0])
    assert s.is_terminal()
    assert s.returns() == [0.75, 0.75, 0.0]


def test_determinize_resamples_only_committed_bids_of_others():
    game, s = position(players=3, cards=5)
    s.apply("prize:5")
    s.apply("bid:5")
    s.apply("bid:4")
    seen = {s.determinize(2, seed).to_json()["bids"][0] for seed in range(40)}
    assert seen == {1, 2, 3, 4, 5}
    assert all(s.determinize(0, seed).to_json()["bids"][0] == 5 for seed in range(10))


@pytest.mark.parametrize("fields, message", [
    ({"hands": [[1, 2, 3], [1, 1, 2]]}, "holds a card twice"),
    ({"hands": [[1, 2, 3], [1, 2]]}, "must hold 3"),
    ({"points": [-1, 0]}, "non-negative"),
    ({"bids": [2, None]}, "only in the bidding phase"),
    ({"phase": "auction"}, "is not one of"),
    ({"hands": [[1, 2, 9], [1, 2, 3]]}, "cards 1..3"),
])
def test_rule_breaking_states_are_refused(fields, message):
    with pytest.raises(BadStateError, match=message):
        position(**fields)


@pytest.mark.parametrize("fields", [
    {"round": "1"}, {"round": [0]}, {"to_bid": 2 ** 64}, {"to_bid": -2 ** 63 - 1}, {"points": [2 ** 70, 0]},
    {"points": ["1", 0]}, {"prize_deck": [1, True, 3]}, {"hands": [[1, 2, 3], [1, 2, 2.0]]}, {"prize": "3"},
    {"last_bids": [1.5, None]}, {"bids": [{}, None]},
])
def test_wrong_types_and_huge_numbers_are_bad_states_not_type_errors(fields):
    """Every value is checked before any C field is set: a wrong type or a number too big for C is a
    BadStateError naming the field, never a TypeError or OverflowError."""
    with pytest.raises(BadStateError):
        position(**fields)


def test_points_only_from_prizes_already_scored():
    """Rule G4: points come only from prizes won; before any prize is scored nobody has any."""
    with pytest.raises(BadStateError, match="exceeds"):
        position(points=[3, 0])

"""Hellas: who plays which side. Spec 5.13 and rulebook L16 ("players may choose sides at random or by bidding
prestige"); the rule key SIDE_SELECTION (spec 10.5 group G): assigned (the default, seat 0 Athens), random (a fair
coin, spec 7.1 R1) and bid (the ASSUMED procedure of spec 5.13: secret bids, the higher bidder picks, the prestige
marker starts at the bid in favour of the other side, a tie goes to chance). Seat s plays side s ^ swap; the
contract (current player, information sets, observations, returns) speaks in seats.
"""
import random

import pytest
from rich.console import Console

from engine.errors import BadStateError
from engine.rng import RNG
from games.hellas.helpers import edit, game, play_random, same_view_other_truth
from search import make_searcher

ATH, SPA = 0, 1
RANDOM = 'SIDE_SELECTION="random"'
BID = 'SIDE_SELECTION="bid"'


def _names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def _bids(first, second=None):
    """A bid game after seat 0 bid `first` (and seat 1 `second`, if given)."""
    s = game("431", BID).new_initial_state()
    s.apply(f"bid:{first}")
    if second is not None:
        s.apply(f"bid:{second}")
    return s


def _swapped():
    """SIDE_SELECTION random, the coin having given seat 0 Sparta."""
    s = game("431", RANDOM).new_initial_state()
    s.apply("seat0:Sparta")
    return s


def test_spec5_13_L16_assigned_seat_0_plays_athens():
    s = game().new_initial_state()
    assert s.sides_set() and s.side_of(0) == ATH and s.side_of(1) == SPA and s.step_name() == "deal"


def test_spec5_13_L16_random_a_fair_coin_gives_either_assignment():
    """R1: one chance node before the first deal, each assignment with probability 1/2; prestige untouched."""
    s = game("431", RANDOM).new_initial_state()
    assert s.step_name() == "sides" and s.is_chance_node() and not s.sides_set()
    outcomes = s.chance_outcomes()
    assert [s.action_to_str(a) for a, _ in outcomes] == ["seat0:Athens", "seat0:Sparta"]
    assert [p for _, p in outcomes] == [0.5, 0.5]
    got = set()
    for action, _ in outcomes:
        t = s.clone()
        t.apply(action)
        assert t.sides_set() and t.step_name() == "deal" and t.side_of(1) == 1 - t.side_of(0)
        assert t.to_json()["prestige"] == s.to_json()["prestige"]
        got.add(t.side_of(0))
    assert got == {ATH, SPA}


def test_spec5_13_the_seat_playing_sparta_decides_for_sparta():
    """L40/L258: Sparta chooses its card first; with seat 0 on Sparta, seat 0 is to move, with Sparta's hand,
    and sees Athens' hand only as a count; the information sets and the returns follow the seats."""
    s = _swapped()
    while s.is_chance_node():
        s.apply(s.chance_outcomes()[0][0])
    truth = s.to_json()
    assert s.step_name() == "card" and truth["current"] == SPA and s.current_player() == 0
    own = {int(n.split(":")[1]) for n in _names(s)}
    assert own == set(truth["cards"]["Sparta"])
    seen = s.observation(0)
    assert seen["observer"] == "Sparta" and seen["cards"]["Athens"] == {"count": len(truth["cards"]["Athens"])}
    assert s.observation(1)["observer"] == "Athens"
    assert "view of Sparta (seat 0)" in s.render(0) and "seat 0 plays Sparta, seat 1 plays Athens" in s.render()
    play_random(s, 3)
    winner = s.to_json()["winner"]
    if winner in ("Athens", "Sparta"):
        seat = 0 if winner == "Sparta" else 1
        assert s.returns()[seat] == 1.0 and s.returns()[1 - seat] == 0.0
    prestige = s.to_json()["prestige"]
    assert s.scores() == [prestige, -prestige]            # seat 0's lead is Sparta's


def test_spec5_13_bids_are_secret_seat_0_first_seat_1_does_not_see_it():
    """Each seat bids a whole number 0..AUTO_VICTORY_LEAD-1 face down; the second bidder's information set, his
    view of the first bid and his determinizations do not depend on the first bid."""
    s = game("431", BID).new_initial_state()
    top = s.game.data.rules["AUTO_VICTORY_LEAD"] - 1
    assert s.step_name() == "bid" and s.current_player() == 0 and not s.sides_set()
    assert _names(s) == [f"bid:{k}" for k in range(top + 1)]
    first = s.legal_actions()
    assert {s.action_observation(a, 1) for a in first} == {-1} and s.action_observation(first[3], 0) == first[3]
    after = [_bids(k) for k in range(top + 1)]
    assert {t.current_player() for t in after} == {1}
    assert len({t.info_key(1) for t in after}) == 1 and len({t.info_key(0) for t in after}) == top + 1
    assert after[3].observation(1)["commit"]["Athens"] == "face down"
    assert after[3].observation(0)["commit"]["Athens"] == "bid:3"
    samples = [after[3].determinize(1, RNG(k)) for k in range(30)]
    assert len({t.to_json()["commit"]["Athens"] for t in samples}) > 3
    assert all(t.info_key(1) == after[3].info_key(1) for t in samples)
    rewound, k = after[3].determinize(1, RNG(0)).rewind_pending(1)
    assert k == 1 and rewound.current_player() == 0 and rewound.step_name() == "bid"


@pytest.mark.parametrize("bids, picker", [((3, 5), 1), ((7, 2), 0)])
def test_spec5_13_the_higher_bidder_picks_and_prestige_starts_at_his_bid_for_the_other_side(bids, picker):
    for side, lead in ((ATH, bids[picker]), (SPA, -bids[picker])):      # > 0: Sparta leads (spec 8.2)
        s = _bids(*bids)
        obj = s.to_json()
        assert s.step_name() == "pick" and s.current_player() == picker
        assert obj["play"] == {"Athens": f"bid:{bids[0]}", "Sparta": f"bid:{bids[1]}"}   # revealed together
        assert _names(s) == ["pick:Athens", "pick:Sparta"]
        s.apply(f"pick:{('Athens', 'Sparta')[side]}")
        assert s.sides_set() and s.side_of(picker) == side and s.side_of(1 - picker) == 1 - side
        assert s.to_json()["prestige"] == lead and s.step_name() == "deal"
        assert s.to_json()["play"] == {"Athens": None, "Sparta": None}


def test_spec5_13_tied_bids_go_to_chance():
    s = _bids(4, 4)
    assert s.step_name() == "sides" and s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert [s.action_to_str(a) for a, _ in outcomes] == ["picker:seat0", "picker:seat1"]
    assert [p for _, p in outcomes] == [0.5, 0.5]
    s.apply("picker:seat1")
    assert s.step_name() == "pick" and s.current_player() == 1
    s.apply("pick:Sparta")
    assert s.side_of(1) == SPA and s.to_json()["prestige"] == -4


@pytest.mark.parametrize("rules", [RANDOM, BID])
def test_spec5_13_random_games_play_to_the_end_under_each_alternative(rules):
    sides = set()
    for seed in range(4):
        s = game("431", rules).new_initial_state()
        play_random(s, seed)
        assert s.is_terminal() and s.to_json()["level"] != "none"
        assert s.game.state_from_json(s.to_json()).to_json() == s.to_json()
        sides.add(s.side_of(0))
        assert sum(s.returns()) == pytest.approx(1.0)
    assert sides == {ATH, SPA}


@pytest.mark.parametrize("rules, change, message", [
    ("", lambda o: o["machine"].update(swap=1), "machine.swap = 1, but SIDE_SELECTION is assigned"),
    (BID, lambda o: o["machine"].update(swap=1), "machine.swap = 1 at step bid"),
    (BID, lambda o: o["commit"].update(Athens="bid:99"), r"commit.Athens: a bid runs from 0 to 14"),
    (BID, lambda o: o["commit"].update(Athens="bid:x"), r"commit.Athens: 'bid:x' is not bid:<whole number>"),
    (BID, lambda o: o.update(step="sides", current=-1), "the coin for sides follows tied bids"),
    (RANDOM, lambda o: o.update(step="bid", current=0), "step bid: not under SIDE_SELECTION 'random'"),
    ("", lambda o: o.update(step="bid", current=0), "step bid: not under SIDE_SELECTION 'assigned'"),
])
def test_spec5_13_a_state_file_breaking_the_side_choice_is_refused(rules, change, message):
    s = game("431", rules).new_initial_state()
    if rules == BID:
        s.apply("bid:2")
    with pytest.raises(BadStateError, match=message):
        edit(s, change)


def test_spec5_13_a_state_file_carries_swap_and_the_bids():
    for s in (_swapped(), _bids(6), _bids(6, 2), _bids(5, 5)):
        t = s.game.state_from_json(s.to_json())
        assert t.to_json() == s.to_json() and t.side_of(0) == s.side_of(0) and t.info_key(1) == s.info_key(1)


@pytest.mark.parametrize("name", ["ismcts", "pimc"])
def test_no_peeking_the_second_bidder_ignores_the_first_bid(name):
    """Seat 1's whole search is the same whatever seat 0 bid face down."""
    a = make_searcher(name, seed=4, depth=30, iterations=60).search(_bids(0))
    b = make_searcher(name, seed=4, depth=30, iterations=60).search(_bids(9))
    assert a.action == b.action and a.stats["visits"] == b.stats["visits"]


@pytest.mark.parametrize("name", ["ismcts", "pimc"])
def test_no_peeking_the_seat_playing_sparta_sees_only_spartas_information(name):
    """Seat 0 on Sparta, mid-game: two truths that differ in Athens' hidden blocks and hand are one information
    set for seat 0 (not for seat 1), and seat 0's whole search is the same from either."""
    s, rng, n = _swapped(), random.Random(2), 0
    while not (n >= 150 and s.current_player() == 0 and s.step_name() == "action"):
        outcomes = s.chance_outcomes() if s.is_chance_node() else [(a, 1.0) for a in s.legal_actions()]
        s.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        n += 1
    s, t = same_view_other_truth(s)
    assert s.info_key(0) == t.info_key(0) and s.info_key(1) != t.info_key(1)
    a = make_searcher(name, seed=4, depth=40, iterations=150).search(s)
    b = make_searcher(name, seed=4, depth=40, iterations=150).search(t)
    assert a.action == b.action and a.stats["visits"] == b.stats["visits"]


def test_the_oracle_does_see_the_first_bid():
    """The control for the test above: MCTS on the true state uses seat 0's bid, so that test can fail."""
    a = make_searcher("mcts", seed=4, depth=30, iterations=200).search(_bids(0))
    b = make_searcher("mcts", seed=4, depth=30, iterations=200).search(_bids(9))
    assert a.stats["visits"] != b.stats["visits"]


def test_the_picture_says_which_side_the_seat_plays():
    from engine.games.hellas import svg
    s = _swapped()
    assert "view of Sparta (seat 0)" in svg.draw(s, 0).to_svg()
    assert "view of Athens (seat 1)" in svg.draw(s, 1).to_svg()
    assert "seat 0 plays Sparta, seat 1 Athens" in svg.draw(s).to_svg()


def test_the_terminal_view_says_which_side_the_seat_plays():
    from engine.games.hellas.console import View
    console = Console(width=200, record=True, file=open("/dev/null", "w"), color_system=None)
    s = _swapped()
    view = View(s.game)
    console.print(view.board(s, 0))
    text = console.export_text()
    assert "seat 0 plays Sparta, seat 1 plays Athens; you are seat 0, Sparta" in text
    assert "Sparta (you)" in text and view.seat_name(0) == "Sparta" and view.seat_name(1) == "Athens"
    bid = _bids(3)
    view = View(bid.game)
    console.print(view.board(bid, 1))
    text = console.export_text()
    assert "sides not chosen yet" in text and "to move: seat 1" in text and view.seat_name(1) == "seat 1"
    assert "Bids for sides: seat 0 bid face down; seat 1 has not bid" in text
    after = bid.clone()
    after.apply("bid:5")
    assert view.change(bid, after, bid.legal_actions()[5], 1) == \
        "seat 1: bid:5  (seat 0 bid 3 prestige; seat 1 bid 5 prestige)"

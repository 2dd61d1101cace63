"""`depth_unit=turns` (docs/search.md, Options): `depth` and `playout` count turns, not actions. A turn begins at a
decision of a player other than the last one to decide (chance ends no turn), and the cut-off scores where its
turn begins, so evaluate() never meets a turn half played, and every line below the root is scored after as many
turns, however many decisions each took. `depth_unit=actions` (the default) counts actions, chance included."""
import random

import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search.bench import opening
from search.rollout import greedy_cutoff_state
from search_helpers import greedy_move

CHANCE, TERMINAL = -1, -2


def _greedy_path(state, limit, turns, last):
    """The state a greedy rollout hands to its cut-off, in Python (every legal move scored by evaluate(), the first
    best played), by the rule above; None where chance acts first (its outcome is not ours to replay)."""
    s = state.clone()
    count = 0
    while True:
        p = s.current_player()
        if p == TERMINAL:
            return s
        reached = count
        if turns:
            if p == CHANCE or p == last:
                reached = -1
            else:
                count += last >= 0                 # another player's turn begins
                reached = count
        if reached >= limit:
            return s
        if p == CHANCE:
            return None
        s.apply(greedy_move(s))
        last = p
        count += not turns


def _positions(name, count, **options):
    """Positions of seeded random games, each with the seat that decided just before it (-1: no one yet)."""
    rng = random.Random(7)
    game = load_game(name, **options)
    out = []
    while len(out) < count:
        s, last = opening(game, rng.randrange(1000)), -1
        for _ in range(rng.randrange(60)):
            p = s.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                outcomes = s.chance_outcomes()
                s.apply(rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0])
            else:
                s.apply(rng.choice(s.legal_actions()))
                last = p
        if s.current_player() >= 0:
            out.append((s, last))
    return out


@pytest.mark.parametrize("name, options", [("pantikapaion", {"players": 2}), ("pantikapaion", {"players": 4}),
                                           ("hellas", {}), ("polis", {})])
def test_a_rollout_cut_in_turns_scores_where_that_turn_begins(name, options):
    """The C rollout's cut-off state equals the Python reading of the rule, greedy move for greedy move, for both
    units; the state scored is a decision of another player than the last to decide; and the two units score
    different states."""
    checked = differ = 0
    for state, last in _positions(name, 30, **options):
        for limit in (0, 1, 2, 3):
            got = {}
            for turns in (True, False):
                want = _greedy_path(state, limit, turns, last)
                if want is None:
                    continue
                got[turns] = greedy_cutoff_state(state, limit, turns=turns, last=last)
                assert got[turns].to_json() == want.to_json(), (name, limit, turns)
                checked += 1
            if True in got:
                p = got[True].current_player()
                assert p == TERMINAL or p != CHANCE
                differ += got[True].to_json() != greedy_cutoff_state(state, limit, last=last).to_json()
    assert checked >= 150 and differ >= 40, (checked, differ)


def test_chance_ends_no_turn():
    """Goofspiel: each round a prize is revealed (chance), then each player bids once, so every bid begins a turn.
    One MCTS iteration cut `d` turns in plays to the d-th bid after the root's, chance reveals included: 2d
    actions, plus one for each reveal passed."""
    state = opening(load_game("goofspiel"), 2)
    order, s = [], state.clone()
    for _ in range(16):
        order.append(s.current_player())
        s.apply(s.chance_outcomes()[0][0] if s.current_player() == CHANCE else s.legal_actions()[0])
    for d in range(1, 6):
        bids = [i for i, p in enumerate(order) if p != CHANCE]
        calls = make_searcher("mcts", iterations=1, seed=1, depth=d, depth_unit="turns").search(state)
        assert calls.stats["calls"] == bids[d], (d, order)


def test_a_tree_cut_in_turns_searches_whole_turns():
    """Under depth=2 actions no node lies deeper than 2; under depth=2 turns the tree holds the root's whole turn
    and the next player's (Pantikapaion's turns take three to five decisions)."""
    state = opening(load_game("pantikapaion", players=2), 3)

    def deepest(**options):
        return make_searcher("ismcts", iterations=3000, seed=3, depth=2, **options).search(state).stats["max_depth"]
    assert deepest() <= 2 and deepest(depth_unit="turns") >= 6


@pytest.mark.parametrize("name", ["mcts", "pimc", "ismcts"])
def test_a_simulation_cut_in_turns_stops_where_the_turn_begins(name):
    """One turn deep, a simulation ends the root's turn (three to five decisions) and stops where the next player's
    begins: a few actions each, where a random rollout to Pantikapaion's end runs a hundred and more."""
    state = opening(load_game("pantikapaion", players=2), 3)
    stats = make_searcher(name, iterations=2000, seed=4, depth=1, depth_unit="turns").search(state).stats
    assert 3 <= stats["calls"] / stats["iterations"] <= 6, stats["calls"] / stats["iterations"]


def test_actions_is_the_search_without_it():
    state = opening(load_game("pantikapaion", players=2), 3)
    plain = make_searcher("ismcts", iterations=300, seed=3, depth=5).search(state)
    actions = make_searcher("ismcts", iterations=300, seed=3, depth=5, depth_unit="actions").search(state)
    turns = make_searcher("ismcts", iterations=300, seed=3, depth=5, depth_unit="turns").search(state)
    assert plain.stats["visits"] == actions.stats["visits"] and plain.stats["calls"] == actions.stats["calls"]
    assert turns.stats["calls"] > plain.stats["calls"]


def test_bad_depth_unit():
    with pytest.raises(SearchOptionError, match="depth_unit='rounds' is not one of actions, turns"):
        make_searcher("ismcts", depth=4, depth_unit="rounds")
    with pytest.raises(ValueError, match="max_actions -1 is not >= 0"):
        greedy_cutoff_state(opening(load_game("goofspiel"), 2), -1)

"""Correctness of MCTS, PIMC and ISMCTS on goofspiel positions (speed lives in tests/bench)."""
import numpy as np
import pytest

from engine.registry import load_game
from engine.rng import RNG
from search import SEARCHERS, make_searcher
from search.rollout import mast_choice
from search_helpers import CONFIGS, ONE_AHEAD, THREE_PLAYERS, TWO_AHEAD, after, forces_win, new, position

ALL = list(CONFIGS)

@pytest.mark.parametrize("obj,winning", [(ONE_AHEAD, 4), (TWO_AHEAD, 2), (THREE_PLAYERS, 4)],
                         ids=["one-ahead", "two-ahead", "three-players"])
def test_positions_have_exactly_one_forced_win(obj, winning):
    """The premise of the forced-win tests, checked by brute force."""
    s = position(obj)
    assert [a for a in s.legal_actions() if forces_win(after(s, a), 0)] == [winning]


# Implicit minimax backs evaluate() up from the tree's frontier by max^n. In the three-player position goofspiel's
# evaluate() rates the other bids better for the opponents' replies until the frontier reaches the end, which
# PIMC's 375 iterations a world and ISMCTS's 3,000 over every world do not (MCTS on the one state does): the option
# is only as good as the game's evaluate(), so PIMC's and ISMCTS's implicit configurations are held to the
# two-player positions here (and to their tree's backups in tests/search/test_search_implicit.py). So is PIMC's
# playout cut-off: a world's tree of 375 iterations stays shallow, and 3 rollout actions past it do not reach
# the end (ISMCTS's tree over every world does; test_search_playout.py holds the cut-off itself).
FORCED_WINS = [pytest.param(name, obj, winning, id=f"{label}-{name}")
               for label, obj, winning in [("one-ahead", ONE_AHEAD, 4), ("two-ahead", TWO_AHEAD, 2),
                                           ("three-players", THREE_PLAYERS, 4)]
               for name in ALL
               if not (obj is THREE_PLAYERS and (("implicit" in name and name != "mcts-implicit")
                                                 or name == "pimc-playout"))]


@pytest.mark.parametrize("name, obj, winning", FORCED_WINS)
def test_finds_forced_win(name, obj, winning):
    options = CONFIGS[name][1]
    if options.get("observers") == "multi" and options.get("rollout", "random") == "random" and obj is TWO_AHEAD:
        # Multi-observer ISMCTS (with random rollouts) models P1 as bidding without seeing P0's bid, as in the real game. Here bids 1 and
        # 5 lose only to a P1 who guesses them; MO's P1 settles on one reply, against which every P0 bid wins, so
        # all three look won (ties). Only a P1 that refutes each bid separately makes bid 3 stand out.
        # What must hold: the forced win is valued as a sure win.
        searcher = new(name, iterations=3000, seed=0)
        searcher.search(position(obj))
        assert [c["value"][0] for c in searcher.engine.children(0) if c["key"] == winning] == [1.0]
        return
    # two-ahead is a close call for ISMCTS at 3,000 iterations (plain ISMCTS misses it at seed 5, even at 10,000);
    # a belief draws its worlds from another random stream, which misses it at seed 0: 10,000 iterations there
    iterations = 10000 if "belief" in name else 3000
    for seed in range(3):
        result = new(name, iterations=iterations, seed=seed).search(position(obj))
        assert result.action == winning, (name, seed, result.stats["visits"])
        assert result.stats["value"] > 0.9      # a forced win: every simulation through it is won


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_never_illegal_over_whole_games(name, players):
    """Whole games (searcher in seat 0, uniform random players elsewhere): every chosen action is legal."""
    game = load_game("goofspiel", players=players, cards=6)
    rng = RNG(players)
    searcher = new(name, iterations=60, seed=players, rollout="heuristic" if players == 3 else "random")
    decisions = 0
    for _ in range(2):
        s = game.new_initial_state()
        while not s.is_terminal():
            p = s.current_player()
            if p == -1:
                s.apply(rng.choice([a for a, _ in s.chance_outcomes()]))
            elif p == 0:
                view = s.determinize(0, rng)
                action = searcher.search(view).action
                assert action in s.legal_actions()
                s.apply(action)
                decisions += 1
            else:
                s.apply(rng.choice(s.legal_actions()))
    assert decisions == 12


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("iterations", [1, 7, 250])
def test_iteration_budget_is_exact(name, iterations, goof13):
    result = new(name, iterations=iterations).search(goof13)
    assert result.stats["iterations"] == iterations
    # every iteration passes through exactly one move of the root
    assert sum(result.stats["visits"].values()) == iterations


@pytest.mark.parametrize("name", ALL)
def test_time_budget(name, goof13):
    result = new(name, time=0.25).search(goof13)
    assert 0.25 <= result.stats["seconds"] < 0.25 + 0.5       # generous: the machine is shared
    assert result.stats["iterations"] > 100


@pytest.mark.parametrize("name", ALL)
def test_call_budget(name, goof13):
    """Forward-model calls: no iteration starts past the budget, so the overshoot is under one iteration each
    tree (a goofspiel game has at most 39 actions from here)."""
    budget = 5000
    result = new(name, calls=budget).search(goof13)
    trees = 8 if name.startswith("pimc") else 1
    assert budget <= result.stats["calls"] < budget + 39 * trees


@pytest.mark.parametrize("name", ALL)
def test_first_budget_met_stops(name, goof13):
    result = new(name, iterations=50, time=30.0, calls=10 ** 9).search(goof13)
    assert result.stats["iterations"] == 50


@pytest.mark.parametrize("name", ALL)
def test_depth_cutoff_scores_with_evaluate(name, goof13):
    """depth=1: every simulation stops one action below the root and is scored by evaluate()."""
    result = new(name, iterations=200, depth=1).search(goof13)
    assert result.stats["calls"] == 200
    assert result.stats["max_depth"] == 1


@pytest.mark.parametrize("name", ALL)
def test_heuristic_rollouts_look_ahead(name, goof13):
    """Heuristic rollouts apply sampled moves to score them, so they make more forward-model calls."""
    plain = new(name, iterations=200, seed=3).search(goof13)
    heuristic = new(name, iterations=200, seed=3, rollout="heuristic").search(goof13)
    assert heuristic.action in goof13.legal_actions()
    assert heuristic.stats["calls"] > 1.5 * plain.stats["calls"]


@pytest.mark.parametrize("name", ALL)
def test_chance_leaf_sample_settles_the_cut_off(name, goof13):
    """depth=2 from goof13 ends where the next prize is about to be drawn (both bids made). chance_leaf=evaluate
    scores that state as it stands: 2 forward-model calls a simulation. chance_leaf=sample draws the prize first, so
    evaluate() scores the next decision: 3 calls a simulation."""
    as_is = new(name, iterations=200, depth=2, seed=5).search(goof13)
    settled = new(name, iterations=200, depth=2, seed=5, chance_leaf="sample").search(goof13)
    assert as_is.stats["calls"] == 2 * 200
    assert settled.stats["calls"] == 3 * 200
    assert settled.action in goof13.legal_actions()


@pytest.mark.parametrize("name", ALL)
def test_chance_leaf_sample_settles_the_look_ahead(name, goof13):
    """Heuristic rollouts score each sampled move by evaluate() of the state it leads to. A second bidder's move
    leads to a prize draw; chance_leaf=sample draws it before scoring, so the look-ahead makes more calls."""
    as_is = new(name, iterations=200, seed=3, rollout="heuristic").search(goof13)
    settled = new(name, iterations=200, seed=3, rollout="heuristic", chance_leaf="sample").search(goof13)
    assert settled.stats["calls"] > 1.1 * as_is.stats["calls"]


@pytest.mark.parametrize("name", ["ismcts-mast", "ismcts-mo-mast", "pimc"])
def test_mast_counts_every_move_of_every_simulation(name, goof13):
    """rollout=mast credits each move a simulation played (tree and rollout) to its player. From goof13 with full
    rollouts every simulation plays each card left in each hand exactly once, so after N simulations every
    (player, card) pair has been played N times, and its mean return is a share of wins in [0, 1]."""
    searcher = new(name, iterations=300, seed=4, rollout="mast")
    searcher.search(goof13)
    runs = 300 if name != "pimc" else 300 // 8        # PIMC: the last determinization's tree (300 over 8)
    for player in range(2):
        averages = searcher.engine.move_averages(player)
        hand = goof13.to_json()["hands"][player]
        assert sorted(averages) == sorted(c - 1 for c in hand)
        assert all(count == runs for count, _ in averages.values())
        assert all(0.0 <= mean <= 1.0 for _, mean in averages.values())


def test_mast_rollout_move_is_the_best_average_of_the_legal_moves():
    """The rollout's choice (search/rollout.pyx, the C function the search calls): the legal move with the best mean
    return for the mover; a move never tried counts as the best possible (1); epsilon is the share of uniform
    moves."""
    sums = np.zeros((2, 6))
    counts = np.ones((2, 6))
    sums[1] = [0.9, 0.2, 0.8, 0.6, 0.1, 0.7]       # player 1's means; 0 is best but not legal
    sums[0] = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]       # player 0 would pick 5: the player's own row counts
    legal = [1, 3, 5]
    assert {mast_choice(sums, counts, legal, 1, 0.0, seed) for seed in range(50)} == {5}
    counts[1, 3] = 0.0                               # untried: optimistic
    assert {mast_choice(sums, counts, legal, 1, 0.0, seed) for seed in range(50)} == {3}
    counts[1, 3] = 1.0
    sums[1, 3] = 0.7                                 # a tie between 3 and 5: either, by the seed
    assert {mast_choice(sums, counts, legal, 1, 0.0, seed) for seed in range(50)} == {3, 5}
    uniform = [mast_choice(sums, counts, legal, 1, 1.0, seed) for seed in range(300)]
    assert {a: uniform.count(a) for a in legal} == pytest.approx({1: 100, 3: 100, 5: 100}, abs=30)


def test_mast_epsilon_is_checked():
    for bad in ("-0.1", "1.5", "nan"):
        with pytest.raises(ValueError, match="epsilon"):
            make_searcher("ismcts", rollout="mast", epsilon=bad)


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_history_keeps_the_move_averages_with_any_rollout(rollout, goof13):
    """history > 0 needs the move averages whatever the rollout: every move of a simulation is credited, as with
    rollout=mast (the count of the test above: full rollouts from goof13 play each card left once)."""
    searcher = new("ismcts", iterations=300, seed=4, rollout=rollout, history=1.0)
    searcher.search(goof13)
    assert searcher.engine.history == 1.0 and searcher.engine.averages
    averages = searcher.engine.move_averages(0)
    assert sorted(averages) == sorted(c - 1 for c in goof13.to_json()["hands"][0])
    assert all(count == 300 for count, _ in averages.values())
    assert new("ismcts", iterations=300, seed=4, rollout=rollout).search(goof13) is not None
    plain = new("ismcts", iterations=50, seed=4, rollout=rollout)
    plain.search(goof13)
    assert not plain.engine.averages and plain.engine.move_averages(0) == {}


def test_history_steers_visits_towards_moves_with_high_averages(goof13):
    """Progressive history (UCB + W x average / (visits + 1)): with a weight that dwarfs UCB's terms, selection
    picks the move whose average over (visits + 1) is highest, so each root move ends with visits in proportion to
    its average. Plain UCB (W = 0) gives the best move far more than its share, so this check can fail."""
    def spread(history):
        searcher = new("ismcts", iterations=4000, seed=6, rollout="mast", history=history)
        result = searcher.search(goof13)
        averages = searcher.engine.move_averages(goof13.current_player())
        ratios = [(visits + 1) / averages[a][1] for a, visits in result.stats["visits"].items()]
        return max(ratios) / min(ratios)
    assert spread(1e9) < 1.25
    assert spread(0.0) > 2.0


@pytest.mark.parametrize("name", ["ismcts-mast", "ismcts-history"])
def test_carry_keeps_a_share_of_the_last_searchs_averages(name, goof13):
    """carry=k: a search starts from the searcher's last move averages, every sum and count scaled by k. Two
    300-simulation searches from goof13 (each card credited once a simulation, as above) leave 0.5 x 300 + 300
    = 450 with carry=0.5, 300 without; another game (other tables) starts afresh."""
    def counts(carry, states):
        searcher = new(name, iterations=300, seed=4, carry=carry)
        for state in states:
            searcher.search(state)
        return {count for count, _ in searcher.engine.move_averages(0).values()}
    assert counts(0.5, [goof13, goof13]) == {450}
    assert counts(0.0, [goof13, goof13]) == {300}
    assert counts(1.0, [goof13, goof13, goof13]) == {900}
    three = load_game("goofspiel", players=3).new_initial_state()
    three.apply(0)
    assert counts(0.5, [three, goof13]) == {300}


def test_history_weight_is_checked():
    for bad in ("-1", "nan"):
        with pytest.raises(ValueError, match="history"):
            make_searcher("ismcts", history=bad)
    for bad in ("-0.5", "1.5", "nan"):
        with pytest.raises(ValueError, match="carry"):
            make_searcher("ismcts", rollout="mast", carry=bad)


@pytest.mark.parametrize("name", ALL)
def test_same_seed_same_move(name, goof13):
    a = new(name, iterations=400, seed=11).search(goof13)
    b = new(name, iterations=400, seed=11).search(goof13)
    c = new(name, iterations=400, seed=12).search(goof13)
    assert a.action == b.action and a.stats["visits"] == b.stats["visits"]
    assert c.stats["visits"] != a.stats["visits"]          # the seed matters (so the check above can fail)


def test_searcher_stream_is_reproducible(goof13):
    """A searcher reused for several decisions draws a new seed each time from its own seeded stream."""
    s1, s2 = make_searcher("ismcts", iterations=200, seed=5), make_searcher("ismcts", iterations=200, seed=5)
    first = [s1.search(goof13).stats["visits"] for _ in range(3)]
    assert first == [s2.search(goof13).stats["visits"] for _ in range(3)]
    assert first[0] != first[1]


@pytest.mark.parametrize("name", ALL)
def test_single_legal_move_is_returned_without_search(name):
    s = position({"players": 2, "cards": 3, "round": 2, "phase": "bidding", "to_bid": 0, "prize": 2,
                  "prize_deck": [], "hands": [[3], [1]], "bids": [None, None], "last_bids": [1, 3],
                  "points": [1, 3]})
    result = new(name, iterations=100).search(s)
    assert result.action == 2 and result.stats["forced"] and result.stats["iterations"] == 0


def test_stats_fields(goof13):
    result = make_searcher("ismcts", iterations=300).search(goof13)
    st = result.stats
    for key in ("iterations", "seconds", "iterations_per_s", "tree_size", "max_depth", "value", "visits", "calls"):
        assert key in st
    # information-set tree: the root, then each iteration one new edge, plus the node of the information set it
    # leads into when that is new (nothing is terminal yet)
    assert 301 < st["tree_size"] <= 601
    assert st["max_depth"] >= 2 and 0.0 <= st["value"] <= 1.0
    assert st["visits"][result.action] == max(st["visits"].values())
    path = make_searcher("ismcts", iterations=300, keys="path").search(goof13).stats
    assert path["tree_size"] == 301        # path tree: the root plus one node an iteration


def test_final_value_rule(goof13):
    """final=value picks the root move with the best mean value for the mover (not the most visited)."""
    searcher = make_searcher("mcts", iterations=500, final="value")
    result = searcher.search(goof13)
    means = {c["key"]: c["value"][0] for c in searcher.engine.children(0)}
    assert result.action == max(means, key=means.get)
    assert result.stats["value"] == pytest.approx(means[result.action])

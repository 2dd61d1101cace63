"""rollout=heuristic's `lookahead` (docs/search.md, Options): how many legal moves a rollout step scores by
evaluate() of their successor before playing the best for the mover; 0 scores every legal move (a greedy step)."""
import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search.bench import opening


def test_more_lookahead_scores_more_moves(goof13):
    calls = {k: make_searcher("ismcts", iterations=200, seed=3, rollout="heuristic", lookahead=k).search(goof13)
             .stats["calls"] for k in (1, 3, 6)}
    assert calls[1] < calls[3] < calls[6]


def test_the_default_is_three_samples(goof13):
    plain = make_searcher("ismcts", iterations=200, seed=3, rollout="heuristic").search(goof13)
    three = make_searcher("ismcts", iterations=200, seed=3, rollout="heuristic", lookahead=3).search(goof13)
    assert plain.stats["visits"] == three.stats["visits"] and plain.stats["calls"] == three.stats["calls"]


def test_greedy_steps_score_every_legal_move():
    """lookahead=0 scores each of a step's m legal moves once: depth=2 from the root leaves one rollout step after
    the expanded move, so a simulation applies the expansion's move, m look-ahead moves and the move played."""
    state = opening(load_game("goofspiel"), 2)
    n = len(state.legal_actions())
    result = make_searcher("mcts", iterations=1, seed=1, rollout="heuristic", lookahead=0, depth=2).search(state)
    after = state.clone()
    after.apply(next(a for a, v in result.stats["visits"].items() if v == 1))   # the one iteration's move
    assert after.current_player() >= 0              # the next bid: a decision, so the rollout step is one
    m = len(after.legal_actions())
    assert result.stats["calls"] == 1 + m + 1, (n, m, result.stats["calls"])


def test_bad_lookahead():
    with pytest.raises(SearchOptionError, match="lookahead=-1 must be >= 0"):
        make_searcher("ismcts", rollout="heuristic", lookahead=-1)


def test_lookahead_is_for_heuristic_rollouts_only(goof13):
    """Like epsilon for rollout=mast, lookahead changes nothing under another rollout (a game's search defaults
    may supply rollout=heuristic to a spec that gives only lookahead)."""
    a = make_searcher("ismcts", iterations=200, seed=3, rollout="random").search(goof13)
    b = make_searcher("ismcts", iterations=200, seed=3, rollout="random", lookahead=0).search(goof13)
    assert a.stats["visits"] == b.stats["visits"] and a.stats["calls"] == b.stats["calls"]

"""Root parallelism across processes: budgets shared exactly, root visits merged, moves legal."""
import pytest

from engine.registry import load_game
from search import make_searcher
from search_helpers import ONE_AHEAD, new, position


@pytest.mark.parametrize("name", ["mcts", "pimc", "ismcts", "ismcts-observer", "ismcts-mo"])
def test_two_workers_share_the_budget(name, goof13):
    with new(name, iterations=601, workers=2, seed=1) as searcher:
        result = searcher.search(goof13)
        assert result.stats["workers"] == 2
        assert result.stats["iterations"] == 601
        assert sum(result.stats["visits"].values()) == 601
        assert result.action in goof13.legal_actions()
        again = searcher.search(goof13)           # the pool is reused
        assert again.stats["iterations"] == 601


def test_workers_find_the_forced_win():
    with make_searcher("ismcts", iterations=3000, workers=2) as searcher:
        assert searcher.search(position(ONE_AHEAD)).action == 4


def test_workers_with_time_budget(goof13):
    with make_searcher("ismcts", time=0.3, workers=2) as searcher:
        result = searcher.search(goof13)
    assert 0.3 <= result.stats["seconds"] < 0.3 + 2.0         # includes starting the worker processes
    assert result.stats["iterations"] > 100


def test_fewer_iterations_than_workers(goof13):
    with make_searcher("mcts", iterations=1, workers=4) as searcher:
        result = searcher.search(goof13)
    assert result.stats["iterations"] == 1 and result.stats["workers"] == 1

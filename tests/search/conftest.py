"""Fixtures of the searcher tests; puts this folder on sys.path for its helpers (search_helpers.py), since the
suite runs with --import-mode=importlib."""
import os
import sys

import pytest

from engine.registry import load_game

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def goof13():
    """A 13-card two-player goofspiel state just after the first prize (the 6) is revealed."""
    s = load_game("goofspiel").new_initial_state()
    s.apply(5)
    return s

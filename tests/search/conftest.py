"""Shared helpers for the searcher tests: goofspiel positions and a brute-force 'forced win' check."""
import pytest

from engine.registry import load_game


def position(obj):
    """A goofspiel state from its to_json() form (the game's options are read from the object)."""
    return load_game("goofspiel", players=obj["players"], cards=obj["cards"]).state_from_json(obj)


def after(state, action):
    s = state.clone()
    s.apply(action)
    return s


def forces_win(state, me):
    """True when `me` wins (return 1.0) against every reply and every chance outcome, even if the opponents
    could see `me`'s secret bids: the strongest adversary, so a forced win here is forced in the real game."""
    p = state.current_player()
    if p == -2:
        return state.returns()[me] == 1.0
    if p == -1:
        return all(forces_win(after(state, a), me) for a, _ in state.chance_outcomes())
    if p == me:
        return any(forces_win(after(state, a), me) for a in state.legal_actions())
    return all(forces_win(after(state, a), me) for a in state.legal_actions())


@pytest.fixture
def goof13():
    """A 13-card two-player goofspiel state just after the first prize (the 6) is revealed."""
    s = load_game("goofspiel").new_initial_state()
    s.apply(5)
    return s

"""Who stands where (block counts and area bits per side: field, inside, fleets, land units in the field) is kept in
the Hellas state and updated by every move instead of being rebuilt from the roster at each query. These tests
check, along seeded random games, that the kept counts always equal a one-pass rebuild: after every action, after
a determinization (which reshuffles unseen enemy blocks among their slots) and after a JSON round trip."""
import pytest

from engine.games.hellas.state import HellasGame
from games.hellas.helpers import random_walk


def walk(game, seed):
    """The states of one seeded random game, the opening included."""
    s = game.new_initial_state()
    yield s
    yield from random_walk(s, seed)


@pytest.mark.parametrize("data", ["placeholder", "designer"])
def test_kept_occupancy_equals_a_rebuild_after_every_action(data):
    game = HellasGame({"data": data})
    checked = 0
    for seed in range(6):
        for n, s in enumerate(walk(game, seed)):
            assert s._occupancy_ok(), f"seed {seed}, action {n}: kept counts differ from a rebuild"
            checked += 1
    assert checked > 1000                   # the games were played, not cut short


def test_kept_occupancy_after_determinize_and_json():
    game = HellasGame({"data": "placeholder"})
    for seed in range(3):
        for n, s in enumerate(walk(game, seed)):
            if n % 25 or s.is_terminal():
                continue
            observer = max(s.current_player(), 0)
            assert s.determinize(observer, seed + n)._occupancy_ok(), f"seed {seed}, action {n}: determinize"
            assert game.state_from_json(s.to_json())._occupancy_ok(), f"seed {seed}, action {n}: from_json"

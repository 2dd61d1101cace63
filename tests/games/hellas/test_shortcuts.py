"""The Hellas engine's speed shortcuts against the plain definitions they stand for, along seeded random games.

- Who stands where (block counts and area bits per side: field, inside, fleets, land units in the field) is kept
  in the state and updated by every move, and an Action phase decision's legal actions are worked out once when
  it opens and kept until it is taken; both must always equal a rebuild from the raw state: after every action,
  after a determinization (which reshuffles unseen enemy blocks among their slots) and after a JSON round trip.
- `can_go` (may this unit start a move: an area's group move is legal when one of its units can) decides from the
  first step; it must agree with the full reach (`land_reach`, spec 5.1, 5.2, 5.8) for every block in every state.
"""
import pytest

from engine.games.hellas.state import HellasGame
from games.hellas.helpers import random_walk


def walk(game, seed):
    """The states of one seeded random game, the opening included."""
    s = game.new_initial_state()
    yield s
    yield from random_walk(s, seed)


@pytest.mark.parametrize("data", ["placeholder", "designer"])
def test_kept_derived_part_equals_a_rebuild_after_every_action(data):
    game = HellasGame({"data": data})
    checked = 0
    for seed in range(6):
        for n, s in enumerate(walk(game, seed)):
            assert s._derived_ok(), f"seed {seed}, action {n}: kept derived part differs from a rebuild"
            checked += 1
    assert checked > 1000                   # the games were played, not cut short


def test_kept_derived_part_after_determinize_and_json():
    game = HellasGame({"data": "placeholder"})
    for seed in range(3):
        for n, s in enumerate(walk(game, seed)):
            if n % 25 or s.is_terminal():
                continue
            observer = max(s.current_player(), 0)
            assert s.determinize(observer, seed + n)._derived_ok(), f"seed {seed}, action {n}: determinize"
            assert game.state_from_json(s.to_json())._derived_ok(), f"seed {seed}, action {n}: from_json"


@pytest.mark.parametrize("data", ["placeholder", "designer"])
def test_can_go_agrees_with_the_full_reach(data):
    game = HellasGame({"data": data})
    units = range(len(game.data.units))
    fleets = [u.index for u in game.data.units if u.type == "fleet"]
    moving = 0
    for seed in range(4):
        for n, s in enumerate(walk(game, seed)):
            if n % 3:
                continue
            for u in units:
                for refuge in (0, 1):
                    reach = s._reach(u, refuge)
                    assert s._can_go(u, refuge) == bool(reach), f"seed {seed}, action {n}, unit {u}, {refuge=}"
                    moving += bool(reach) and u in fleets
    assert moving > 100                     # fleets that can move were among the cases

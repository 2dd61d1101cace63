"""Bad input: illegal actions, malformed move strings, rule-breaking state files. Each raises a clear error naming
the problem, and nothing is half-applied."""
import copy

import pytest

from engine.errors import BadMoveError, BadStateError, IllegalActionError
from games.pantikapaion.helpers import board, position

CITY = [("T14", 0, "e5"), ("T01", 0, "e7"), ("T25", 0, "g5")]


def base():
    return position(boards={0: board(tiles=CITY, storage={"orange": 2})})


def test_illegal_action_is_refused_and_the_state_is_untouched():
    s = base()
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply(538)                            # build house: no brown cubes
    with pytest.raises(IllegalActionError):
        s.apply(10**6)
    with pytest.raises(IllegalActionError):
        s.apply(True)
    assert s.to_json() == before


def test_malformed_move_string_names_the_problem():
    s = base()
    before = s.to_json()
    for text in ("build palace", "at z99", "", "sell brown+brown+white", "take 3 coins"):
        with pytest.raises(BadMoveError, match="not a legal move"):
            s.apply(text)
    with pytest.raises(BadMoveError):
        s.action_to_str(-3)
    assert s.to_json() == before


def _bad(mutate, match):
    s = base()
    obj = copy.deepcopy(s.to_json())
    mutate(obj)
    with pytest.raises(BadStateError, match=match):
        s.game.state_from_json(obj)
    assert s.to_json() == base().to_json()      # the source state is never touched


def test_state_file_tile_overhanging():
    _bad(lambda o: o["boards"][0]["tiles"].append(["T16", 0, "h5"]), "overhangs")


def test_state_file_tile_on_uneven_levels():
    def m(o):
        o["boards"][0]["tiles"] += [["T17", 0, "e5"], ["T16", 0, "e6"]]
    _bad(m, "different levels")


def test_state_file_tile_not_touching():
    _bad(lambda o: o["boards"][0]["tiles"].append(["T16", 0, "a1"]), "does not touch")


def test_state_file_building_on_a_building():
    _bad(lambda o: o["boards"][0]["buildings"].extend([["house", "e6"], ["temple", "e6"]]), "building on a building")


def test_state_file_diagonal_two_cell_building():
    _bad(lambda o: o["boards"][0]["buildings"].append(["aqueduct", "e6", "f7"]), "orthogonal")


def test_state_file_more_workers_than_exist():
    _bad(lambda o: o["boards"][0].update(workers_board=5), "workers")


def test_state_file_tile_twice():
    _bad(lambda o: o["bag"].update({"T14": 1}), "T14")


def test_state_file_cube_on_a_drought_cell():
    _bad(lambda o: o["boards"][0]["cubes"].append("g5"), "not a resource cell")


def test_state_file_upgrade_tokens_that_markers_did_not_earn():
    _bad(lambda o: o["boards"][0].update(coin_discount=True), "upgrade tokens")


def test_state_file_stock_that_does_not_add_up():
    _bad(lambda o: o["stock"].update(house=3), "house")


def test_state_file_malformed_fields():
    _bad(lambda o: o.update(phase="dancing"), "phase")
    _bad(lambda o: o.update(round=9), "round")
    _bad(lambda o: o["boards"][0].update(coins=-1), "coins")
    _bad(lambda o: o["boards"][0]["tiles"].append(["T99", 0, "a1"]), "unknown tile")
    _bad(lambda o: o["boards"][0]["tiles"].append(["T16", 45, "i5"]), "rotations")
    _bad(lambda o: o.pop("ring"), "missing")


def test_state_file_phase_that_cannot_go_on():
    _bad(lambda o: o.update(phase="ring", bag={}, ring=[None] * len(o["ring"]),
                            discard={t: 1 for t in o["ring"] if t}), "nothing to draw|tile")
    _bad(lambda o: o.update(phase="over"), "over")
    _bad(lambda o: o.update(phase="paid_step"), "paid_step needs the row")
    _bad(lambda o: o.update(phase="aqueduct_cube"), "tile in hand")
    _bad(lambda o: o.update(phase="pick", ring=[None] * len(o["ring"]), discard={t: 1 for t in o["ring"] if t}),
         "no legal action")

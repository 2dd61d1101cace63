"""Render, notation and the evaluation heuristic of Pantikapaion."""
from engine.registry import load_game
from games.pantikapaion.helpers import board, position

CITY = [("T14", 0, "e5"), ("T01", 0, "e7"), ("T25", 0, "g5")]


def test_render_shows_boards_and_cities_from_a_seat():
    s = position(boards={0: board(tiles=CITY, storage={"orange": 2}, buildings=[["aqueduct", "g6", "h6"]])})
    text = s.render(0)
    assert "[view of P0]" in text and "P0 (you)" in text
    assert "Ring" in text and "Development board" in text
    assert "1DA" not in text and "1.A" in text               # the aqueduct on g6 (empty face)
    assert "1o*" in text                                     # a cube on e5
    assert s.render() != ""


def test_notation_names_tile_place_rotation_and_level():
    s = position(phase="anchor", hand="T16", boards={0: board(tiles=CITY)})
    moves = {s.action_to_str(a) for a in s.legal_actions()}
    assert "at e5 l2" in moves and "at i5 l1" in moves
    assert s.str_to_action("AT E5") == s.str_to_action("at e5 l2")


def test_evaluate_prefers_the_player_ahead():
    ahead = board(tiles=CITY, coins=20, storage={"brown": 5}, buildings=[["aqueduct", "g6", "h6"]],
                  markers={"orange": 5})
    behind = board(tiles=[("T15", 0, "e5")])
    s = position(boards={0: ahead, 1: behind})
    v = s.evaluate()
    assert len(v) == 2 and v[0] > 0.5 > v[1] and abs(sum(v) - 1) < 1e-9


def test_scores_match_the_breakdown():
    s = position(boards={0: board(tiles=CITY, coins=5)})
    b = s.score_breakdown(0)
    assert s.scores()[0] == b["total"] == sum(v for k, v in b.items() if k != "total")

"""The strength-table tooling (search/strength.py): seat rotation, duplicate deals, scoring."""
import pytest

from search.strength import Player, _seatings, markdown_table, pairing, play_game, strength_table


def test_seatings_rotate_every_seat():
    assert _seatings("A", "B", 2) == [["A", "B"], ["B", "A"]]
    assert _seatings("A", "B", 3) == [["A", "B", "B"], ["B", "B", "A"], ["B", "A", "B"]]
    assert _seatings("A", "B", 3, "alternate") == [["A", "B", "A"], ["B", "A", "A"], ["A", "A", "B"]]
    with pytest.raises(ValueError, match="seating 'x'"):
        _seatings("A", "B", 3, "x")


def test_play_game_is_reproducible_and_legal():
    a = play_game("goofspiel", {"players": 3, "cards": 5}, ["random", "greedy", "ismcts:iterations=50"], seed=4)
    b = play_game("goofspiel", {"players": 3, "cards": 5}, ["random", "greedy", "ismcts:iterations=50"], seed=4)
    assert a["returns"] == b["returns"] and a["moves"] == 15
    assert a["decisions"] == [5, 5, 5]          # each seat bids once a round, 5 rounds
    assert sorted(a["returns"]) in ([0.0, 0.5, 1.0], [0.25, 0.25, 1.0], [0.0, 0.75, 0.75], [0.5, 0.5, 0.5])


def test_pairing_scores_and_counts():
    row = pairing("goofspiel", {"players": 2, "cards": 5}, "ismcts:iterations=300", "random", games=10, seed=2)
    assert row["games"] == 10 and row["wins"] + row["draws"] + row["losses"] == 10
    assert 0.0 <= row["score"] <= 1.0 and row["ci95"] >= 0.0
    assert row["score"] > 0.5                  # a searcher beats random even at this budget on 5 cards
    assert "ismcts:iterations=300" in markdown_table("goofspiel", {"players": 2}, [row])


def test_players_by_spec():
    assert Player("oracle:mcts:iterations=10", 1).oracle
    assert Player("ismcts:iterations=10", 1).searcher.options["seed"] == 1
    assert Player("ismcts:iterations=10,seed=7", 1).searcher.options["seed"] == 7
    with pytest.raises(ValueError, match="unknown searcher"):
        Player("alphago", 1)


def test_strength_table_reports_each_row_as_it_finishes():
    seen = []
    rows = strength_table("goofspiel", [("greedy", "random"), ("random", "greedy")], {"players": 2, "cards": 4},
                          games=4, on_row=seen.append)
    assert seen == rows and [r["a"] for r in rows] == ["greedy", "random"]
    assert all(r["a_ms_per_decision"] >= 0.0 for r in rows)
    assert "ms a decision" in markdown_table("goofspiel", {"players": 2}, rows)

"""The strength-table tooling (search/strength.py): seat rotation, duplicate deals, scoring."""
import pytest

import gzip
import json

from search.strength import (Player, _seatings, main, markdown_table, pairing, play_game, read_records,
                             record_line, strength_table, summarize)


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


def _game(seed, seats, returns):
    """A record as search.strength's games write it (A is the "A" seat)."""
    return {"seed": seed, "seats": seats, "a_seats": [seats.index("A")], "returns": returns,
            "seconds": [0.5, 0.5], "decisions": [10, 10], "moves": 20}


def test_interval_is_over_deals_not_games():
    # Seat 0 wins every deal: A's two games of a deal cancel, so each deal scores exactly 0.5 and the duplicate
    # format leaves no doubt (a per-game interval would say +-0.35 on these 8 games).
    games = []
    for deal in range(4):
        games += [_game(deal, ["A", "B"], [1.0, 0.0]), _game(deal, ["B", "A"], [1.0, 0.0])]
    row = summarize("A", "B", games)
    assert (row["games"], row["deals"], row["score"], row["ci95"]) == (8, 4, 0.5, 0.0)
    assert (row["wins"], row["draws"], row["losses"]) == (4, 0, 4)
    # A wins both games of deals 0 and 1 and loses both of 2 and 3: deal means 1, 1, 0, 0 (sd 0.577)
    games = []
    for deal in range(4):
        r = [1.0, 0.0] if deal < 2 else [0.0, 1.0]
        games += [_game(deal, ["A", "B"], r), _game(deal, ["B", "A"], r[::-1])]
    row = summarize("A", "B", games)
    assert row["score"] == 0.5 and abs(row["ci95"] - 1.96 * (1 / 3) ** 0.5 / 2) < 1e-12


def test_records_round_trip_and_pool(tmp_path):
    options = {"players": 2, "cards": 4}
    first, second = tmp_path / "seed1.jsonl", tmp_path / "seed2.jsonl"
    rows = {}
    for seed, path in ((1, first), (2, second)):
        kept = []
        rows[seed] = strength_table("goofspiel", [("greedy", "random")], options, games=4, seed=seed,
                                    on_game=lambda a, b, rec: kept.append(record_line("goofspiel", options, a, b,
                                                                                      rec)))[0]
        path.write_text("\n".join(kept) + "\n")
        assert len(kept) == 4
    assert read_records([str(first)], "goofspiel", options)[0]["score"] == rows[1]["score"]
    pooled = read_records([str(first), str(second)], "goofspiel", options)[0]
    assert pooled["games"] == 8 and pooled["deals"] == 4
    assert pooled["score"] == (rows[1]["score"] + rows[2]["score"]) / 2
    assert read_records([str(first)], "goofspiel", {"players": 2, "cards": 5}) == []   # other options: not pooled
    packed = tmp_path / "seed2.jsonl.gz"
    packed.write_bytes(gzip.compress(second.read_bytes()))
    assert read_records([str(first), str(packed)], "goofspiel", options)[0]["score"] == pooled["score"]


def test_bad_records_name_the_problem(tmp_path):
    options = {"players": 2, "cards": 4}
    path = tmp_path / "games.jsonl"
    line = record_line("goofspiel", options, "A", "B", _game(7, ["A", "B"], [1.0, 0.0]))
    path.write_text(line + "\n" + line + "\n")
    with pytest.raises(ValueError, match="recorded twice"):
        read_records([str(path)], "goofspiel", options)
    path.write_text(line + "\n{not json\n")
    with pytest.raises(ValueError, match=r"games.jsonl:2: not a JSON record"):
        read_records([str(path)], "goofspiel", options)
    cut = json.loads(line)
    del cut["returns"], cut["moves"]
    path.write_text(json.dumps(cut) + "\n")
    with pytest.raises(ValueError, match=r"games.jsonl:1: the record lacks returns, moves"):
        read_records([str(path)], "goofspiel", options)
    path.write_text("[1, 2]\n")
    with pytest.raises(ValueError, match=r"games.jsonl:1: a record is a JSON object, got list"):
        read_records([str(path)], "goofspiel", options)
    with pytest.raises(ValueError, match="no games recorded"):
        summarize("A", "B", [])


def test_command_line_records_every_game_and_summarizes(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    main(["goofspiel", "--players", "2", "--option", "cards=4", "--pair", "greedy", "random", "--games", "4",
          "--record", str(path)])
    played = capsys.readouterr().out
    lines = path.read_text().splitlines()
    assert len(lines) == 4 and {json.loads(x)["a"] for x in lines} == {"greedy"}
    main(["goofspiel", "--players", "2", "--option", "cards=4", "--summarize", str(path)])
    summarized = capsys.readouterr().out
    row = [x for x in played.splitlines() if x.startswith("| `greedy`")]
    assert row and row[0] in summarized.splitlines()
    with pytest.raises(SystemExit):
        main(["goofspiel", "--pair", "greedy", "random", "--summarize", str(path)])

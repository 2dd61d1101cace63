"""Strength tables (arena/strength.py, `kleos strength`, `kleos ratings --pairs`): pairings are tournaments in pair
mode, every game a full record; the interval is over deals; runs pool; the converted docs/records reproduce the
documented tables."""
import gzip
import json
import pathlib

import pytest

from arena.strength import (StrengthError, from_legacy_line, markdown_table, pair_rows, run_pairings, summarize)
from arena.tournament import TournamentConfig, tables
from engine.records import GameRecord, read_records, verify

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


def test_pair_mode_seats_a_against_the_field_or_alternating():
    one = TournamentConfig("goofspiel", {"players": 3}, ["greedy", "random"], mode="pair")
    alternate = TournamentConfig("goofspiel", {"players": 3}, ["greedy", "random"], mode="pair", seating="alternate")
    assert tables(one) == [(0, 1, 1)] and tables(alternate) == [(0, 1, 0)]
    assert one.fingerprint() != alternate.fingerprint()
    with pytest.raises(Exception, match="seating must be one of one, alternate"):
        TournamentConfig("goofspiel", {"players": 3}, ["greedy", "random"], mode="pair", seating="x")
    with pytest.raises(Exception, match="compares exactly two bots"):
        TournamentConfig("goofspiel", {"players": 3}, ["greedy", "random", "random"], mode="pair")


def test_pairings_play_full_records_and_rows_rebuild_from_them(tmp_path):
    out = tmp_path / "s.jsonl.gz"
    seen = []
    rows = run_pairings("goofspiel", {"players": 2, "cards": 4}, [("greedy", "random"), ("random", "greedy")], out,
                        games=4, progress=False, on_row=seen.append)
    assert seen == rows and [r["a"] for r in rows] == ["greedy", "random"]
    records, problems = read_records(out)
    assert problems == [] and len(records) == 8
    for r in records:
        verify(r)                                    # full records: every game replays
        assert r.event == "strength" and r.meta["pair"] in (["greedy", "random"], ["random", "greedy"])
    assert pair_rows(records) == rows
    assert "ms a decision" in markdown_table("goofspiel", {"players": 2}, rows)
    with pytest.raises(Exception, match="already holds 4 game records"):
        run_pairings("goofspiel", {"players": 2, "cards": 4}, [("greedy", "random")], out, games=4, progress=False)


def _game(deal, seats, returns):
    """A result-only record of pairing A vs B (deal = block)."""
    return GameRecord(game="g", options={}, seed=deal, seats=seats, result={"returns": returns, "ranks": [1, 2]},
                      result_only=True, meta={"tournament": "t", "table": 0, "block": deal, "pair": ["A", "B"],
                                              "clock": [0.5, 0.5], "decisions": [10, 10], "job": f"{deal}{seats}"})


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
    assert row["a_seconds_per_game"] == 0.5 and row["a_ms_per_decision"] == 50


def test_a_game_recorded_twice_is_refused():
    game = _game(1, ["A", "B"], [1.0, 0.0])
    with pytest.raises(StrengthError, match="recorded twice"):
        pair_rows([game, game])
    with pytest.raises(StrengthError, match="no games recorded"):
        summarize("A", "B", [])


def test_runs_of_other_seeds_pool(tmp_path, kleos):
    for seed in (1, 2):
        kleos("strength", "goofspiel", "-o", "cards=4", "--pair", "greedy", "random", "-n", "4", "--seed",
              str(seed), "--out", f"s{seed}.jsonl", "-q")
    one = kleos("ratings", "--pairs", "s1.jsonl").stdout
    both = kleos("ratings", "--pairs", "s1.jsonl", "s2.jsonl").stdout
    assert "| `greedy` | `random` | 4 |" in one and "| `greedy` | `random` | 8 |" in both
    proc = kleos("ratings", "--pairs", "s1.jsonl", "s1.jsonl", check=False)
    assert proc.returncode == 1 and "recorded twice" in proc.stderr and "Traceback" not in proc.stderr


def test_one_bot_under_two_names_pools_with_same(tmp_path, kleos):
    # One configuration recorded under two names (greedy, and greedy:follow=0 spelling out its default, as
    # `kleos:...` and the searcher spec it stood for) is two rows until --same counts one name as the other;
    # the pooled row sums both runs.
    for seed, name in ((1, "greedy"), (2, "greedy:follow=0")):
        kleos("strength", "goofspiel", "-o", "cards=4", "--pair", name, "random", "-n", "4", "--seed",
              str(seed), "--out", f"s{seed}.jsonl", "-q")
    apart = kleos("ratings", "--pairs", "s1.jsonl", "s2.jsonl").stdout
    assert "| `greedy` | `random` | 4 |" in apart and "| `greedy:follow=0` | `random` | 4 |" in apart
    pooled = kleos("ratings", "--pairs", "s1.jsonl", "s2.jsonl", "--same", "greedy:follow=0", "greedy").stdout
    assert "| `greedy` | `random` | 8 |" in pooled and "follow" not in pooled
    table = kleos("ratings", "s1.jsonl", "s2.jsonl", "--same", "greedy:follow=0", "greedy").stdout
    assert "follow" not in table and "greedy" in table
    for args, problem in ((("--same", "nobody", "greedy"), "seats 'nobody'"),
                          (("--same", "greedy", "greedy"), "twice"),
                          (("--same", "greedy", "random"), "played each other")):
        proc = kleos("ratings", "--pairs", "s1.jsonl", "s2.jsonl", *args, check=False)
        assert proc.returncode == 2 and problem in proc.stderr and "Traceback" not in proc.stderr


def test_legacy_summary_lines_convert_to_result_only_records():
    line = {"game": "polis", "options": {"players": 2}, "a": "X", "b": "Y", "seed": 5, "seats": ["Y", "X"],
            "a_seats": [1], "returns": [0.0, 1.0], "seconds": [1.0, 2.0], "decisions": [3, 4], "moves": 7}
    record = from_legacy_line(line)
    assert record.seats == ["Y", "X"] and record.result_only and record.result["ranks"] == [2, 1]
    assert record.clock() == [1.0, 2.0] and record.decisions() == [3, 4]
    assert GameRecord.from_json(record.to_json()) == record
    with pytest.raises(StrengthError, match="lacks returns"):
        from_legacy_line({k: v for k, v in line.items() if k != "returns"})


@pytest.mark.parametrize("name, rows", [
    ("polis-ismcts-pimc.jsonl.gz", [
        "| `ismcts:iterations=3000` | `pimc:iterations=3000` | 2000 | 0.502 | ±0.018 | 995 / 19 / 986 | 995 | 1.08 "
        "| 41 |",
        "| `ismcts:iterations=300` | `pimc:iterations=300` | 400 | 0.614 | ±0.036 | 240 / 11 / 149 | 240 | 0.07 | 4 |"]),
    ("mare-nostrum-5p.jsonl.gz", [
        "| `ismcts:iterations=400,depth=300` | `pimc:iterations=400,depth=300` | 100 | 0.494 | ±0.045 | 19 / 0 / 81 "
        "| 19 | 7.48 | 38 |"]),
    # the kleos bot (issue 20)
    ("kleos-confirm-polis.jsonl.gz", [
        "| `ismcts:iterations=3000,c=0.514,depth=30` | `ismcts:iterations=3000` | 60 | 0.717 | ±0.121 | 43 / 0 / 17 "
        "| 43 | 8.07 | 227 |"]),
    ("kleos-polis.jsonl.gz", [
        "| `kleos:iterations=3000` | `pimc:iterations=3000` | 40 | 0.613 | ±0.157 | 23 / 3 / 14 | 23 | 4.82 | 191 |",
        "| `kleos:iterations=3000` | `kleos:iterations=1500` | 40 | 0.425 | ±0.124 | 16 / 2 / 22 | 16 | 7.82 | 246 |"]),
    ("kleos-goofspiel.jsonl.gz", [
        "| `kleos:iterations=20000` | `greedy` | 40 | 0.825 | ±0.107 | 33 / 0 / 7 | 33 | 5.84 | 449 |"]),
    ("kleos-polis-neweval-greedy.jsonl.gz", [
        "| `kleos:iterations=3000` | `greedy` | 20 | 1.000 | ±0.000 | 20 / 0 / 0 | 20 | 0.47 | 37 |"]),
    ("kleos-polis-12000.jsonl.gz", [
        "| `kleos:iterations=12000` | `ismcts:iterations=12000` | 20 | 0.750 | ±0.179 | 14 / 2 / 4 | 14 | 13.20 | 315 |"]),
])
def test_documented_tables_are_reproduced_from_docs_records(name, rows):
    records, problems = read_records(DOCS / "records" / name)
    assert problems == []
    text = markdown_table("x", {}, pair_rows(records))
    doc = (DOCS / "strength.md").read_text()
    for row in rows:
        assert row in text and row in doc


def test_gzip_records_never_traceback(tmp_path, kleos):
    good = GameRecord.from_dict(json.loads(gzip.decompress(
        (DOCS / "records" / "mare-nostrum-5p.jsonl.gz").read_bytes()).decode().splitlines()[0]))
    data = gzip.compress(((good.to_json() + "\n") * 3).encode())
    (tmp_path / "cut.jsonl.gz").write_bytes(data[: len(data) - 9])
    (tmp_path / "junk.jsonl.gz").write_bytes(b"\x1f\x8b" + b"junk" * 10)
    for name in ("cut.jsonl.gz", "junk.jsonl.gz"):
        records, problems = read_records(tmp_path / name)
        assert problems and "cannot be read" in problems[-1]
        proc = kleos("ratings", name, check=False)
        assert "Traceback" not in proc.stderr + proc.stdout

"""The human console (`kleos play`), scripted through stdin: bad input, numbers, prefixes, hint, undo, quit."""
import re

from bots.human import match_move
from engine.records import read_records, verify
from engine.registry import load_game


def test_match_move_rules():
    state = load_game("goofspiel", players=2, cards=12).new_initial_state()
    state.apply(0)
    legal = state.legal_actions()
    names = [state.action_to_str(a) for a in legal]
    assert match_move("bid:3", names, legal, state)[0] == 2
    assert match_move("BID:12", names, legal, state)[0] == 11
    assert match_move("#2", names, legal, state)[0] == 1
    assert match_move("4", names, legal, state)[0] == 3
    assert match_move("bid:1", names, legal, state)[0] == 0          # exact beats the prefix of bid:10..12
    assert match_move("bid:1", names, legal, state)[1] == ""
    action, why = match_move("bid", names, legal, state)
    assert action is None and "ambiguous" in why
    action, why = match_move("13", names, legal, state)
    assert action is None and "no move number 13" in why
    action, why = match_move("fold", names, legal, state)
    assert action is None and "no legal move" in why


def test_scripted_human_game_with_bad_input_undo_and_hint(kleos, tmp_path):
    script = "\n".join([
        "help", "xyz", "#9", "bid", "hint", "bid:1",        # round 1: bad input of every kind, a hint, a move
        "show", "undo",                                   # round 2: take it back
        "#1",                                             # round 1 again: the same prize comes again
        "legal", "history", "1", "1", "1",                # the rest of the game by number
    ]) + "\n"
    proc = kleos("play", "goofspiel", "--seat", "human", "--seat", "random", "-o", "cards=4", "--seed", 3,
                 "--hint", "ismcts:iterations=50", "--out", "g.jsonl", input=script)
    out = proc.stdout
    assert "'xyz' is no legal move here" in out
    assert "there is no move number 9" in out
    assert "'bid' is ambiguous" in out
    assert re.search(r"hint from ismcts:iterations=50: bid:\d", out)
    assert re.search(r"undo +take back your last move", out)          # help was shown
    prizes_round1 = re.findall(r"round 1/4\nPrize up for bidding: (\d+)", out)
    assert len(prizes_round1) >= 2 and len(set(prizes_round1)) == 1   # undo: same card again
    assert "game (seed 3): normal" in out
    assert "Game over:" in out
    records, _ = read_records(tmp_path / "g.jsonl")
    assert len(records) == 1 and records[0].meta.get("undos") == 1
    assert [m for m, p in zip(records[0].moves, records[0].players) if p == 0] == ["bid:1", "bid:2", "bid:3", "bid:4"]
    verify(records[0])


def test_quit_and_end_of_input_stop_the_game(kleos, tmp_path):
    out = kleos("play", "goofspiel", "--seat", "random", "--seat", "human", "-o", "cards=5", "--seed", 1,
                "--out", "q.jsonl", input="quit\n").stdout
    assert "stopped (quit)" in out and "kleos play --resume" in out
    out = kleos("play", "goofspiel", "--seat", "human", "--seat", "random", "-o", "cards=5", "--seed", 1,
                "--out", "q.jsonl", input="1\n").stdout                # input ends mid-game
    assert "stopped (quit)" in out
    records, _ = read_records(tmp_path / "q.jsonl")
    assert [r.result["reason"] for r in records] == ["unfinished", "unfinished"]      # saved, resumable


def test_rated_game_refuses_undo_and_resign_ends_it(kleos):
    out = kleos("play", "goofspiel", "--seat", "human", "--seat", "greedy", "-o", "cards=4", "--seed", 2, "--rated",
                input="1\nundo\nresign\n").stdout
    assert "undo is off in this game" in out
    assert "P0 resigned" in out and "resign:0" in out
    assert "P0 [used 0:0" in out                     # rated: the clock shows even without a time limit


def test_bots_only_game_prints_the_moves(kleos):
    out = kleos("play", "goofspiel", "--seat", "greedy", "--seat", "random", "--seat", "random", "-o", "cards=3",
                "--seed", 4).stdout
    assert "chance: prize:" in out and "P2: bid:" in out and "game (seed 4): normal" in out

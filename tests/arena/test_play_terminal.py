"""`kleos play` driven through a pseudo-terminal, as a person types, for every game: a whole game against a fast
bot, legend, hint, undo, Ctrl-C then --resume, a rated game lost on time; the screens are checked for what must be
there and for what must not (a Python repr, a line wider than the terminal)."""
import json
import os
import re

import pytest

from engine.records import read_records, verify
from tests.arena.terminal import Terminal

# every game, with options that keep a whole game short (Mare Nostrum: a round cap of 1, ASSUMED G41 option)
GAMES = {
    "goofspiel": ["-o", "cards=5"],
    "pantikapaion": [],
    "polis": [],
    "mare_nostrum": ["-p", "3", "-o", "max_rounds=1"],
    "hellas": [],
}
END = r"Game over: "


def _registered(game: str) -> bool:
    from engine.registry import list_games
    return game in list_games()


# a game of GAMES not registered yet (one being built) is skipped, saying so
PLAYED = [pytest.param(g, marks=pytest.mark.skipif(not _registered(g), reason=f"{g} is not registered yet"))
          for g in GAMES]


@pytest.fixture
def term(child_env, tmp_path):
    opened = []

    def start(*args, columns=80):
        t = Terminal(["play", *args], tmp_path, child_env, columns=columns)
        opened.append(t)
        return t
    yield start
    for t in opened:
        if t.proc.poll() is None:
            t.proc.kill()


def clean(t: Terminal) -> None:
    assert not t.too_wide(), f"lines wider than {t.columns} columns: {t.too_wide()[:3]}"
    assert not t.reprs(), f"Python reprs on the screen: {t.reprs()[:3]}"


@pytest.mark.parametrize("game", PLAYED)
def test_a_whole_game_against_a_fast_bot(term, tmp_path, game):
    t = term(game, "--seat", "human", "--seat", "random", "--seed", 5, *GAMES[game], "--save", "g.json")
    t.expect("Type help for the commands")
    t.answer_until(END)
    t.expect(r"place")                                         # the result table
    assert t.wait() == 0
    clean(t)
    assert "Everything revealed" in t.text or game == "pantikapaion"     # the final board, from the whole truth
    record = read_records(tmp_path / "g.json")[0][0]
    assert record.result["reason"] == "normal"
    verify(record)


@pytest.mark.parametrize("game", PLAYED)
def test_legend_hint_undo_then_ctrl_c_and_resume(term, tmp_path, game):
    t = term(game, "--seat", "human", "--seat", "random", "--seed", 7, *GAMES[game], "--save", "s.json",
             "--hint", "ismcts:iterations=20")
    t.type("undo")
    t.expect("nothing to undo: you have not made a move yet")      # undo at the first move says it cannot
    t.type("legend")
    t.expect(r"\n\S.*\n")
    t.type("hint")
    t.expect(r"hint from ismcts:iterations=20: ")
    t.type("1")
    t.expect("you: ")
    t.expect("> $")
    before = len(read_records(tmp_path / "s.json")[0][0].actions)
    t.send("undo")
    t.expect("taking back your last move")
    t.expect("> $")
    assert len(read_records(tmp_path / "s.json")[0][0].actions) < before
    t.send("1")
    t.expect("you: ")
    t.expect("> $")
    t.interrupt()
    t.expect(r"stopped \(interrupted \(Ctrl-C\)\)")
    t.expect(r"go on with: kleos play --resume s\.json")
    assert t.wait() == 130
    clean(t)
    saved = read_records(tmp_path / "s.json")[0][0]
    assert saved.unfinished and saved.result["stopped"].startswith("interrupted")
    moves = list(saved.actions)

    r = term("--resume", "s.json")
    r.type("quit")
    r.expect(r"stopped \(quit\)")
    assert r.wait() == 0
    again = read_records(tmp_path / "s.json")[0][0]
    assert again.actions[:len(moves)] == moves and again.unfinished and again.meta.get("resumed") == 1
    assert again.seed == saved.seed and again.seats == saved.seats


@pytest.mark.parametrize("game", PLAYED)
def test_rated_game_lost_on_time_shows_the_clock(term, tmp_path, game):
    t = term(game, "--seat", "human", "--seat", "random", "--seed", 3, *GAMES[game], "--rated", "--gametime", "1.5",
             "--save", "r.json")
    t.expect(r"rated: no hint, no undo")
    t.expect(r"\[0:0[12]\] > $")                                     # the clock in the prompt
    t.seen -= 2
    t.type("hint")
    t.expect("no hints in a rated game")
    t.expect("your time ran out", timeout=90)                       # told without typing anything
    t.expect(END + r".* ran out of time")
    assert t.wait() == 0
    clean(t)
    record = read_records(tmp_path / "r.json")[0][0]
    assert record.result["reason"].startswith("timeout:")


def test_pantikapaion_draws_tiles_rotations_anchors_and_a_preview(term):
    t = term("pantikapaion", "--seat", "human", "--seat", "random", "--seed", 3, "--save", "p.json")
    t.expect("Tiles you may take:")
    t.expect(r"1\. take T\d\d")
    t.expect(r"\n[.Dbpwog*] ")                    # a tile drawn cell by cell (faces from data/tiles.json)
    t.answer_until(r"(rotations \(clockwise\))|(Where its top-left corner may go)")     # the first tile lies alone
    if "Where its top-left" not in t.text[t.seen - 40:t.seen]:
        t.expect("> $")
        t.send("1")
        t.expect("Where its top-left corner may go")
    grid = t.expect(r"\n[^\n]*\+[^\n]*\n")        # the anchors (+) on the grid
    t.expect("> $")
    t.send("1")
    t.expect(r"After at [a-p]\d+ l\d \(the new cells marked > and reversed\)")
    t.expect(r">\d[.Dbpwog*]")                    # a new cell of the preview, marked
    t.expect(r"play it\? \[Y/n\] > $")
    t.send("n")                                   # not confirmed: asked again
    t.expect(r"> $")
    t.send("1")
    t.expect(r"play it\? \[Y/n\] > $")
    t.send("y")
    t.expect("you: at ")
    t.type("quit")
    t.wait()
    clean(t)
    assert grid


def test_the_thinking_line_and_forced_moves(term):
    t = term("mare_nostrum", "-p", "3", "--seat", "human", "--seat", "ismcts:time=0.3", "--seed", 2, "-o",
             "max_rounds=1", "--save", "m.json")
    t.answer_until(r"Greece \(ismcts:time=0\.3\) thinking: decision \d+ of its turn, \d+\.\ds of 0\.3s")
    t.type("quit")
    t.wait()
    clean(t)


def test_wide_terminal_and_no_repr_in_every_board(term):
    t = term("polis", "--seat", "human", "--seat", "random", "--seed", 4, columns=200)
    t.type("show")
    t.expect("Markets")
    t.type("text Protagoras")
    t.expect("Protagoras: project for")
    t.type("explain 1")
    t.expect(r"\n\w[^\n]*: ")
    t.type("quit")
    t.wait()
    clean(t)


@pytest.mark.skipif(not _registered("hellas"), reason="hellas is not registered yet")
@pytest.mark.parametrize("columns", [80, 200])
def test_hellas_shows_only_the_seats_own_blocks_and_hand_and_explains_itself(term, columns):
    """Athens's board (spec 7.2): his blocks by id, rating and steps; Sparta's as '?xN' where they stand, her hand
    and pool as counts; card and area texts one command away; explain and legend."""
    t = term("hellas", "--seat", "human", "--seat", "random", "--seed", 6, "--save", "h.json", columns=columns)
    t.expect("Athens to play")
    board = t.expect(r"(?s)Hellas, 431 BC, New Year.*?Named here").group(0)
    assert re.search(r"Attica LA10\b.*A1 C2 hop 4/4", board.replace("\n", " "))
    assert "?x" in board and re.search(r"hand: \d cards \(hidden\)", board)
    assert re.search(r"pool: \d+ blocks face down", board)
    assert not re.search(r"\bS\d+\b", board), "an unrevealed Spartan block is named on Athens's board"
    def wrapped(words):              # the words, wherever the terminal's width breaks the line
        return r"\s+".join(words.split(" "))
    t.type("text #30")
    t.expect(wrapped(r"#30: Civil War: \d coins? for actions, or the event"))
    t.type("text Attica")
    t.expect(wrapped(r"Attica: Attica \(LA10\), land area; Athens: port, value 5"))
    t.type("explain 1")
    t.expect(r"(event|sacrifice):\d+: #\d+ ")             # the deal is drawn afresh: either use comes first
    t.expect(wrapped("(Its event, revealed with the enemy's card|A sacrifice at the New Year)"))
    t.type("legend")
    t.expect(wrapped("Blocks: A5 A1 arc 2/2"))
    t.type("quit")
    t.expect(r"stopped \(quit\)")
    t.wait()
    clean(t)


def test_seats_are_filled_from_the_last_bot_and_errors_are_one_line(kleos, tmp_path):
    out = kleos("play", "mare_nostrum", "--seat", "random", "-o", "max_rounds=1", "--seed", 1, "--save", "x.json")
    record = read_records(tmp_path / "x.json")[0][0]
    assert record.seats == ["random"] * 5 and "Game over" in out.stdout
    bad = kleos("play", "mare_nostrum", "--seat", "human", "--seat", "ismcts:time=2", "-p", "9", check=False)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr and "3 to 5 players, not 9" in bad.stderr
    bad = kleos("play", "polis", "--seat", "human", "--seat", "human", "--seat", "human", check=False)
    assert "polis is for 2 players, not 3 (3 seats given)" in bad.stderr and "Traceback" not in bad.stderr
    # only people: Kleos's own bot at the top level (--level max) fills the seats left
    from arena.console.levels import level_spec
    from arena.console.session import fill_seats
    assert level_spec("max").startswith("kleos:")
    assert fill_seats("goofspiel", ["human"], {"players": 3}, None)[0] == ["human"] + [level_spec("max")] * 2
    assert fill_seats("polis", [], {}, None)[0] == ["human", level_spec("max")]
    assert fill_seats("polis", ["human"], {}, "easy")[0] == ["human", level_spec("easy")]


def test_start_from_a_saved_position(kleos, tmp_path):
    from engine.registry import load_game
    state = load_game("goofspiel", players=2, cards=5).new_initial_state()
    for _ in range(6):
        state.apply(state.legal_actions()[0] if not state.is_chance_node() else state.chance_outcomes()[0][0])
    (tmp_path / "pos.json").write_text(json.dumps(state.to_json()))
    kleos("play", "goofspiel", "-o", "cards=5", "--seat", "random", "--seat", "random", "--start-from", "pos.json",
          "--save", "f.json", "--seed", 2)
    record = read_records(tmp_path / "f.json")[0][0]
    assert record.start == state.to_json() and record.result["reason"] == "normal"
    verify(record)
    (tmp_path / "bad.json").write_text("{\"round\": 99}")
    bad = kleos("play", "goofspiel", "--seat", "random", "--start-from", "bad.json", check=False)
    assert "bad.json is not a goofspiel position" in bad.stderr and "Traceback" not in bad.stderr
    assert os.path.exists(tmp_path / "f.json")

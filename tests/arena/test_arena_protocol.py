"""The text protocol (docs/protocol.md): external players through cmd:, per-seat filtering, `kleos engine`."""
import json

import pytest

from arena.engine import EngineSession
from arena.referee import Policies, play_game
from bots.protocol import ProtocolError, parse_command, parse_event, parse_go, parse_reply_head
from engine.records import replay, verify


# --- wire format -------------------------------------------------------------------------------------------------
def test_parse_command_with_and_without_id():
    assert parse_command("7 go 12 movetime=500").id == 7
    cmd = parse_command("event 3 move 1 hidden -1")
    assert (cmd.id, cmd.name, cmd.args) == (None, "event", "3 move 1 hidden -1")
    with pytest.raises(ProtocolError) as e:
        parse_command("   ")
    assert e.value.code == "syntax-error"


def test_parse_reply_head_and_event_and_go():
    assert parse_reply_head("=4 bid:3").payload == "bid:3"
    err = parse_reply_head("?4 illegal-move bid:99 is not legal")
    assert (err.ok, err.id, err.code) == (False, 4, "illegal-move")
    assert parse_reply_head("info depth=3") is None
    assert parse_event("5 move 1 hidden -1").text is None
    assert parse_event("6 chance -1 prize:4").text == "prize:4"
    go = parse_go('9 time=1000 movetime=200 legal=["bid:1","bid:2"]')
    assert go == {"seq": 9, "time": 1000, "movetime": 200, "legal": ["bid:1", "bid:2"]}
    with pytest.raises(ProtocolError):
        parse_go("9 depth=3")


# --- external players through cmd: -------------------------------------------------------------------------------
@pytest.mark.parametrize("players,cards", [(2, 6), (3, 5)])
def test_scripted_external_player_plays_full_games(player, tmp_path, players, cards):
    log = tmp_path / "seen.log"
    specs = [player("--log", log, "--mode", "random")] + ["random"] * (players - 1)
    for seed in range(2):
        record = play_game("goofspiel", {"players": players, "cards": cards}, specs, seed)
        assert record.result["reason"] == "normal"
        verify(record)
    text = log.read_text()
    assert text.count("newgame goofspiel") == 2 and "gameover" in text


def test_per_seat_filtering_never_sends_another_seats_bid(player, tmp_path):
    """The external player in seat 1 is sent its own information set only: other seats' bids arrive as
    'hidden', and the obs sample's guesses of them do not follow the true bids."""
    log = tmp_path / "seat1.log"
    records = []
    for seed in range(6):
        records.append(play_game("goofspiel", {"players": 3, "cards": 8},
                                 ["random", player("--log", log, "--mode", "random"), "random"], seed))
    lines = log.read_text().splitlines()
    games = [i for i, line in enumerate(lines) if " newgame " in f" {line}"]
    assert len(games) == 6
    guesses = matches = 0
    for g, record in enumerate(records):
        end = games[g + 1] if g + 1 < len(games) else len(lines)
        states = list(replay(record))
        for line in lines[games[g]:end]:
            name, _, rest = line.split(" ", 1)[1].partition(" ")
            if name == "event":
                seq, kind, seat, what = rest.split(" ", 3)
                seq, seat = int(seq), int(seat)
                if kind == "move" and seat != 1:
                    assert what.startswith("hidden"), f"seat 1 was sent seat {seat}'s bid: {line}"
                else:
                    assert what == record.moves[seq]
            elif name == "obs":
                seq, _, payload = rest.partition(" ")
                obj = json.loads(payload)
                truth = states[int(seq)]
                assert obj["observation"] == truth.observation(1)
                true_bids = truth.to_json()["bids"]
                for p in (0, 2):
                    if true_bids[p] is not None:          # a bid already made, face down
                        guesses += 1
                        matches += obj["sample"]["bids"][p] == true_bids[p]
    assert guesses >= 20
    assert matches < guesses * 0.7, f"the samples match the hidden bids {matches}/{guesses} times: a leak"


@pytest.mark.parametrize("mode,reason", [("crash", "crash"), ("illegal", "illegal"), ("resign", "resign")])
def test_misbehaving_players_lose_by_policy(player, mode, reason):
    record = play_game("goofspiel", {"players": 2, "cards": 5}, [player("--mode", mode, "--after", 2), "random"], 1)
    assert record.result["reason"] == f"{reason}:0"
    assert record.result["returns"] == [0.0, 1.0]
    assert len([p for p in record.players if p == 0]) == 2      # two good moves were kept in the record


@pytest.mark.parametrize("mode", ["hang", "garbage"])
def test_silent_or_garbage_player_times_out(player, mode):
    from arena.referee import Referee
    from bots import make_bot
    bots = [make_bot("random"), make_bot(player("--mode", mode, "--after", 1))]
    bots[1].grace = 0.1                       # seconds it gets after `stop`
    try:
        record = Referee("goofspiel", {"players": 2, "cards": 4}, bots, 2, Policies(movetime=0.2, grace=0.1)).play()
        assert record.result["reason"] == "timeout:1"
        assert "no move within" in record.meta["error"]
        record = Referee("goofspiel", {"players": 2, "cards": 4}, bots, 2,
                         Policies(movetime=0.2, grace=0.1, timeout="random")).play()
        assert record.result["reason"] == "normal" and len(record.meta["warnings"]) == 3
    finally:
        for bot in bots:
            bot.close()


def test_mute_player_is_a_crash_at_the_start(player):
    from arena.referee import Referee
    from bots import make_bot
    bots = [make_bot(player("--mode", "mute")), make_bot("random")]
    bots[0].start_timeout = 0.3
    try:
        record = Referee("goofspiel", {"players": 2, "cards": 3}, bots, 1).play()
    finally:
        for bot in bots:
            bot.close()
    assert record.result["reason"] == "crash:0" and "at the start" in record.meta["error"]
    assert record.actions == []


def test_missing_program_is_a_crash_not_an_exception():
    record = play_game("goofspiel", {"players": 2}, ["cmd:/no/such/program --x", "random"], 0)
    assert record.result["reason"] == "crash:0" and "cannot start" in record.meta["error"]


def test_our_engine_plays_through_cmd(child_env):
    import sys
    spec = f"cmd:{sys.executable} -m arena.cli engine --bot mcts:iterations=30"
    record = play_game("goofspiel", {"players": 2, "cards": 5}, [spec, "random"], 3)
    assert record.result["reason"] == "normal"
    verify(record)


# --- kleos engine -------------------------------------------------------------------------------------------------
def _session_game(session):
    """Play one 2-player goofspiel game with `session` in seat 0, the referee's side done by hand."""
    from engine.registry import load_game
    from bots.protocol import obs_payload
    state = load_game("goofspiel", players=2, cards=4).new_initial_state()
    assert session.handle("1 newgame goofspiel players=2 seat=0 cards=4").startswith("=1")
    seq = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.chance_outcomes()[0][0]
        elif state.current_player() == 0:
            obs = obs_payload(state, 0, state.determinize(0, seq))
            assert session.handle(f"obs {seq} {obs}") == "=\n\n"
            reply = session.handle(f"go {seq} movetime=500")
            move = [line for line in reply.splitlines() if line.startswith("=")][0][2:]
            action = state.str_to_action(move)
        else:
            action = state.legal_actions()[-1]
        seen = state.action_observation(action, 0)
        what = state.action_to_str(action) if seen == action else f"hidden {seen}"
        kind = "chance" if state.is_chance_node() else "move"
        assert session.handle(f"event {seq} {kind} {state.current_player()} {what}") == "=\n\n"
        state.apply(action)
        seq += 1
    assert session.handle(f"gameover {seq} ranks=1,2 scores=1,0 reason=normal") == "=\n\n"


def test_engine_session_answers_and_survives_bad_lines():
    s = EngineSession("greedy")
    assert s.handle("protocol_version") == "= 1\n\n"
    assert s.handle("3 isready") == "=3 readyok\n\n"
    assert "goofspiel players=2-5" in s.handle("games")
    assert s.handle("fly me to the moon").startswith("? unknown-command")
    assert s.handle("4 newgame chess players=2 seat=0").startswith("?4 unsupported-game")
    assert s.handle("newgame goofspiel players=9 seat=0").startswith("? bad-value")
    assert s.handle("newgame goofspiel players=2").startswith("? syntax-error")
    assert s.handle("go 0").startswith("? out-of-sync")                       # no game yet
    assert s.handle("setoption colour blue").startswith("? unknown-option")
    assert s.handle("setoption bot nonsense").startswith("? bad-value")
    assert s.handle("newgame goofspiel players=2 seat=1 cards=4") == "=\n\n"
    assert s.handle("obs 0 {not json").startswith("? syntax-error")
    assert s.handle('obs 0 {"sample": {"players": 7}}').startswith("? bad-value")
    assert s.handle("event 5 move 0 bid:1").startswith("? out-of-sync")       # a gap in the sequence
    assert s.handle("event x").startswith("? syntax-error")
    assert s.handle("go 0").startswith("? out-of-sync")                       # no obs yet
    _session_game(s)                                                          # and the session goes on
    assert s.handle("quit") == "=\n\n" and s.done


def test_engine_session_with_search_bot_reports_info():
    s = EngineSession("ismcts:iterations=50")
    _session_game(s)


def test_kleos_engine_scripted_session(kleos):
    from engine.registry import load_game
    from bots.protocol import obs_payload
    state = load_game("goofspiel", players=2, cards=3).new_initial_state()
    state.apply(2)
    obs = obs_payload(state, 0, state.determinize(0, 1))
    session = "\n".join([
        "1 protocol_version", "2 name", "garbage line here", "3 newgame goofspiel players=2 seat=0 cards=3",
        "4 event 0 chance -1 prize:3", f"5 obs 1 {obs}", '6 go 1 movetime=1000 legal=["bid:1","bid:2","bid:3"]',
        "7 go 99", "8 quit", "9 name"]) + "\n"
    out = kleos("engine", "--bot", "greedy", input=session).stdout
    replies = [block for block in out.split("\n\n") if block.strip()]
    assert replies[0] == "=1 1"
    assert replies[1].startswith("=2 Kleos greedy")
    assert replies[2].startswith("? unknown-command")
    assert replies[3] == "=3" and replies[4] == "=4" and replies[5] == "=5"
    assert replies[6].splitlines()[-1] in ("=6 bid:1", "=6 bid:2", "=6 bid:3")
    assert replies[7].startswith("?7 out-of-sync")
    assert replies[8] == "=8" and len(replies) == 9             # quit ends the session: 9 is never answered

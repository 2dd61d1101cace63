"""`kleos engine` trusts nothing from the referee: no program started, no person's console opened, budgets bounded
and bound by the clock, game data only from the data sets a game ships, and any byte sequence answered line by line.

The protocol fuzz test runs at CI size by default; ``KLEOS_FUZZ_LINES=200000`` runs a long soak (docs/reliability.md).
"""
import io
import os
import random
import subprocess
import sys
import time

import pytest

from arena.engine import PROTOCOL_LIMITS, EngineSession
from bots.protocol import obs_payload
from engine.registry import load_game
from engine.rng import RNG

FUZZ_LINES = int(os.environ.get("KLEOS_FUZZ_LINES", "3000"))


def _obs_line(seq_text="2", cards=3):
    """A real `obs` of goofspiel for seat 0 after the first chance event (seq 1), as a referee sends it."""
    game = load_game("goofspiel", players=2, cards=cards)
    state = game.new_initial_state()
    state.apply(state.chance_outcomes()[0][0])
    view = state.determinize(0, RNG(1))
    return f"obs 1 {obs_payload(state, 0, view)}"


def _replies(text: str) -> list[str]:
    """The replies of a session's output: each ends with one empty line (info lines ride along)."""
    return [block for block in text.split("\n\n") if block]


def _session_text(lines: list[bytes], bot="greedy", max_line=None) -> str:
    session = EngineSession(bot)
    if max_line:
        session.max_line = max_line
    out = io.StringIO()
    session.serve(io.BytesIO(b"".join(line + b"\n" for line in lines)), out)
    return out.getvalue()


def test_protocol_cannot_choose_a_bot_that_runs_programs_or_talks_to_a_person():
    s = EngineSession("greedy")
    for spec in ("cmd:touch /tmp/kleos-pwned", "cmd:sh -c id", "human", "HUMAN", " cmd:ls"):
        reply = s.handle(f"1 setoption bot {spec}")
        assert reply.startswith("?1 bad-value") and "command line only" in reply, reply
    assert s.bot_spec == "greedy" and not os.path.exists("/tmp/kleos-pwned")
    assert s.handle("2 setoption bot random").startswith("=2")


@pytest.mark.parametrize("name, value", [("workers", 100000), ("iterations", 10**9), ("time", 1e6),
                                         ("calls", 10**12), ("determinizations", 10**7)])
def test_protocol_budgets_are_bounded(name, value):
    s = EngineSession("pimc")
    reply = s.handle(f"1 setoption {name} {value}")
    assert reply.startswith("?1 bad-value") and "over the protocol" in reply, reply
    reply = s.handle(f"2 setoption bot pimc:{name}={value}")
    assert reply.startswith("?2 bad-value"), reply
    assert s.handle(f"3 setoption {name} {PROTOCOL_LIMITS[name] if name != 'time' else 1}").startswith("=3")
    assert s.handle("4 setoption seed -1").startswith("?4 bad-value")
    assert s.handle(f"5 setoption seed {2**70}").startswith("?5 bad-value")


def test_go_movetime_binds_an_iteration_budget_set_with_setoption():
    s = EngineSession("ismcts")
    assert s.handle(f"1 setoption iterations {PROTOCOL_LIMITS['iterations']}").startswith("=1")
    assert s.handle("2 newgame goofspiel players=2 seat=0 cards=13").startswith("=2")
    game = load_game("goofspiel", players=2, cards=13)
    state = game.new_initial_state()
    state.apply(state.chance_outcomes()[0][0])
    assert s.handle(f"3 obs 1 {obs_payload(state, 0, state.determinize(0, RNG(2)))}").startswith("=3")
    started = time.perf_counter()
    reply = s.handle("4 go 1 movetime=200")
    elapsed = time.perf_counter() - started
    assert "=4 bid:" in reply, reply
    assert elapsed < 3.0, f"a 200 ms move took {elapsed:.1f}s: movetime did not bind iterations=10^7"


def test_stop_interrupts_a_search_without_a_clock(kleos_engine):
    """No movetime, ten million iterations chosen on the command line: `stop` still gets the move at once."""
    proc = kleos_engine("--bot", "ismcts:iterations=100000000")
    game = load_game("goofspiel", players=2, cards=13)
    state = game.new_initial_state()
    state.apply(state.chance_outcomes()[0][0])
    obs = obs_payload(state, 0, state.determinize(0, RNG(2)))
    out = b""

    def read_until(text):
        nonlocal out
        while text not in out:
            chunk = proc.stdout.read1(4096)
            assert chunk, out
            out += chunk
    proc.stdin.write(f"1 newgame goofspiel players=2 seat=0 cards=13\n2 obs 1 {obs}\n".encode())
    proc.stdin.flush()
    read_until(b"=2")                                       # the engine is up and has the position
    proc.stdin.write(b"3 go 1\n")
    proc.stdin.flush()
    time.sleep(0.5)
    started = time.perf_counter()
    proc.stdin.write(b"4 stop\n5 isready\n")
    proc.stdin.flush()
    read_until(b"=5 readyok")
    elapsed = time.perf_counter() - started
    assert b"=3 bid:" in out and b"=4" in out, out
    assert elapsed < 5.0, f"stop took {elapsed:.1f}s to answer the go"


def test_data_over_the_protocol_names_only_shipped_data_sets(tmp_path):
    s = EngineSession("random")
    secret = tmp_path / "private-folder"
    secret.mkdir()
    for value in (str(secret), "/etc", "../../etc", "engine/games/polis/data"):
        reply = s.handle(f"1 newgame polis players=2 seat=0 data={value}")
        assert reply.startswith("?1 bad-value") and "data sets the game ships" in reply, reply
        assert value not in reply and str(tmp_path) not in reply
    assert s.handle("2 newgame polis players=2 seat=0 data=ed1").startswith("=2")
    assert s.handle("3 newgame polis players=2 seat=0 data=").startswith("=3")


def test_invalid_utf8_gets_an_error_and_the_lines_around_it_are_answered(kleos):
    proc = kleos("engine", "--bot", "random", input=None, check=False, raw_input=(
        b"1 isready\n2 \xff\xfe name\n\xc3(\n3 protocol_version\n4 name \xed\xa0\x80\n5 quit\n"))
    replies = _replies(proc.stdout)
    assert len(replies) == 6, proc.stdout
    assert replies[0] == "=1 readyok" and "not UTF-8" in replies[1] and "not UTF-8" in replies[2]
    assert replies[3] == "=3 1" and "not UTF-8" in replies[4] and replies[5] == "=5"
    assert proc.returncode == 0 and "Traceback" not in proc.stderr


def test_huge_and_deeply_nested_lines_get_an_error_each():
    deep = b"[" * 200000 + b"]" * 200000
    lines = [b"1 newgame goofspiel players=2 seat=0 cards=3", b"2 obs 1 " + deep, b"3 go 1 legal=" + deep,
             b"4 " + b"x" * 5000, b"5 obs 1 {\"sample\":" + b"{\"a\":" * 50000 + b"1" + b"}" * 50001,
             b"6 isready"]
    replies = _replies(_session_text(lines, max_line=4096))
    assert len(replies) == len(lines), replies
    assert replies[0] == "=1" and replies[-1] == "=6 readyok"
    assert all(r.startswith("?") for r in replies[1:-1]), replies
    assert "longer than the 4096" in replies[1] and all(len(r) < 500 for r in replies)


def _fuzz_lines(rng: random.Random, n: int) -> list[bytes]:
    valid = [b"protocol_version", b"isready", b"name", b"version", b"list_commands", b"games",
             b"newgame goofspiel players=2 seat=0 cards=3", b"newgame goofspiel players=3 seat=2 cards=4",
             b"newgame polis players=2 seat=1 data=/etc", b"newgame nosuchgame players=2 seat=0",
             _obs_line().encode(), b"go 1", b"go 1 movetime=50 legal=[\"bid:1\",\"bid:2\",\"bid:3\"]",
             b"go 1 legal=[1,{},[]]", b"event 1 move 0 hidden -1", b"event 0 chance -1 prize:3",
             b"event x y z", b"stop", b"gameover 3 ranks=1,2 scores=0,0 reason=normal", b"setoption bot random",
             b"setoption bot greedy", b"setoption bot cmd:ls", b"setoption bot human", b"setoption seed 7",
             b"setoption workers 99999", b"setoption c nan", b"obs 1 {not json", b"obs 1 []", b"obs 1 {\"sample\":7}"]
    lines = []
    while len(lines) < n:
        kind = rng.random()
        if kind < 0.35:
            line = rng.choice(valid)
        elif kind < 0.65:                                   # a valid line with bytes flipped, cut or inserted
            line = bytearray(rng.choice(valid))
            for _ in range(rng.randint(1, 4)):
                op = rng.random()
                pos = rng.randrange(len(line) + 1)
                if op < 0.4 and line:
                    line[min(pos, len(line) - 1)] = rng.randrange(256)
                elif op < 0.7:
                    line[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 3)))
                else:
                    del line[pos:]
            line = bytes(line)
        elif kind < 0.85:                                   # random bytes
            line = bytes(rng.randrange(256) for _ in range(rng.randint(0, 120)))
        elif kind < 0.95:                                   # invalid UTF-8 sequences
            line = rng.choice([b"\xff", b"\xc3(", b"\xe2\x28\xa1", b"\xf0\x90\x28\xbc", b"\xed\xa0\x80", b"\x80"]) * \
                rng.randint(1, 5)
        else:                                               # deep nesting and long lines
            depth = rng.randint(1000, 30000)
            line = rng.choice([b"obs 1 ", b"go 1 legal=", b"obs 1 {\"sample\":"]) + b"[" * depth
        if rng.random() < 0.5:
            line = str(rng.randrange(10**6)).encode() + b" " + line
        line = line.replace(b"\n", b" ")
        words = line.split()
        if b"quit" in words[:2]:
            continue
        lines.append(line)
    return lines


def test_protocol_fuzz_every_line_gets_one_reply_and_the_session_goes_on():
    rng = random.Random(20261124)
    lines = _fuzz_lines(rng, FUZZ_LINES) + [b"999999 isready"]
    text = _session_text(lines, max_line=16384)
    expected = sum(1 for line in lines if line.strip(b" \t\r\n\f\v"))
    replies = _replies(text)
    assert len(replies) == expected
    assert replies[-1] == "=999999 readyok"
    for reply in replies:
        head = [ln for ln in reply.split("\n") if not ln.startswith("info")][0]
        assert head[0] in "=?", reply
        assert "internal-error" not in head, reply          # every bad line is named as such, none slips through


def test_protocol_fuzz_through_the_real_stdin(kleos):
    rng = random.Random(7)
    lines = _fuzz_lines(rng, max(200, FUZZ_LINES // 10)) + [b"999999 isready", b"quit"]
    proc = kleos("engine", "--bot", "greedy", check=False, raw_input=b"".join(line + b"\n" for line in lines),
                 timeout=300)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    replies = _replies(proc.stdout)
    assert replies[-2] == "=999999 readyok"
    assert len(replies) == sum(1 for line in lines if line.strip(b" \t\r\n\f\v"))


@pytest.fixture
def kleos_engine(child_env):
    procs = []

    def start(*args):
        proc = subprocess.Popen([sys.executable, "-m", "arena.cli", "engine", *args], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env)
        procs.append(proc)
        return proc
    yield start
    for proc in procs:
        proc.kill()
        proc.wait()

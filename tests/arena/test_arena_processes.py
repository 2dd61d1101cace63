"""Every process Kleos starts dies with it, and a hung player is taken out (issue: trust nothing, processes).

A `cmd:` player here starts a grandchild of its own and then hangs at its first `go`; the marker in both command
lines lets the test find any survivor in /proc.
"""
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from arena.referee import Policies
from arena.tournament import TournamentConfig, run_tournament

HERE = os.path.dirname(os.path.abspath(__file__))
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; parent-death is Linux")


def _spawning_player(tmp_path, marker: str) -> str:
    script = tmp_path / f"player-{marker}.py"
    script.write_text(
        "import os, subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}])\n"
        f"os.execv(sys.executable, [sys.executable, {os.path.join(HERE, 'scripted_player.py')!r}, '--mode', 'hang',"
        f" '--log', {str(tmp_path / (marker + '.log'))!r}])\n")
    return f"cmd:{sys.executable} {script}"


def _alive_with(marker: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(pid))
    return found


def _wait_gone(marker: str, seconds: float = 10.0) -> list[int]:
    deadline = time.time() + seconds
    while time.time() < deadline:
        alive = _alive_with(marker)
        if not alive:
            return []
        time.sleep(0.1)
    return _alive_with(marker)


def _zombie_children() -> list[int]:
    me = os.getpid()
    zombies = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] == "Z" and int(fields[1]) == me:
                zombies.append(int(pid))
    return zombies


def test_hung_players_and_their_children_end_with_the_tournament_and_are_taken_out(tmp_path, child_env):
    marker = f"kleos-test-{uuid.uuid4().hex}"
    cfg = TournamentConfig("goofspiel", {"players": 2, "cards": 3}, [_spawning_player(tmp_path, marker), "random"],
                           games=8, policies=Policies(movetime=0.2, grace=0.05))
    messages = []
    started = time.time()
    result = run_tournament(cfg, tmp_path / "h.jsonl", workers=2, progress=False, echo=messages.append)
    assert cfg.labels[0] in result.removed and "lost on time" in result.removed[cfg.labels[0]]
    assert len(result.records) < 8                        # taken out after three time losses in a row
    assert all(r.result["reason"].startswith("timeout") for r in result.records)
    assert time.time() - started < 60
    assert _wait_gone(marker) == [], "a player or a program it started outlived the tournament"
    assert _zombie_children() == []


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_killing_the_tournament_process_ends_every_child(tmp_path, child_env, how):
    marker = f"kleos-test-{uuid.uuid4().hex}"
    args = ["tournament", "goofspiel", "-o", "cards=3", "--bot", _spawning_player(tmp_path, marker), "--bot", "random",
            "--games", "8", "-j", "2", "--out", "k.jsonl", "-q", "--movetime", "30"]
    proc = subprocess.Popen([sys.executable, "-m", "arena.cli", *args], cwd=tmp_path, env=child_env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and len(_alive_with(marker)) < 2:
        time.sleep(0.1)
    assert _alive_with(marker), "the players never started"
    proc.send_signal(how)                                  # the main process only, as the OOM killer would
    proc.wait(timeout=30)
    assert _wait_gone(marker, 15) == [], f"children outlived the tournament killed by {how!r}"

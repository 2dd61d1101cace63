"""Every process Kleos starts dies with it, whatever ends Kleos (a crash, SIGTERM, a SIGKILL from the out-of-memory
killer): no orphaned player spinning on after a tournament, no pool worker blocked forever.

Two mechanisms, both needed. On Linux a child asks the kernel for a parent-death signal (``prctl(PR_SET_PDEATHSIG)``
through ctypes), which fires even when the parent is SIGKILLed and cannot clean up. And each ``cmd:`` player runs in
a process group of its own, which is killed whole when the player is closed, so the programs it started go too.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

PR_SET_PDEATHSIG = 1

try:                                   # looked up once, before any fork: nothing is imported in a child
    _LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True) \
        if sys.platform.startswith("linux") else None
except OSError:
    _LIBC = None


def die_with_parent(sig: int = signal.SIGKILL, parent: int | None = None) -> bool:
    """Ask for ``sig`` when the parent process dies (Linux; False elsewhere). ``parent``: the pid expected as the
    parent; if it already died before the request (a race at start), exit at once."""
    if _LIBC is None:
        return False
    if _LIBC.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        return False
    if parent is not None and os.getppid() != parent:
        os._exit(1)
    return True


# A player starts under this guard, the leader of the player's process group: the guard asks for SIGTERM when Kleos
# dies (even by SIGKILL), and on it kills the whole group, the programs the player started included. Standard
# library only, and started with -S: it costs a few milliseconds once per player process.
GUARD = r"""
import ctypes, ctypes.util, os, signal, sys
parent = int(sys.argv[1])
try:
    ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").prctl(1, int(signal.SIGTERM), 0, 0, 0)
except Exception:
    pass
def end(*_):
    try:
        os.killpg(0, signal.SIGKILL)
    finally:
        os._exit(137)
signal.signal(signal.SIGTERM, end)
if os.getppid() != parent:
    end()
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    except OSError as e:
        sys.stderr.write("cannot start %r: %s\n" % (sys.argv[2], e))
        os._exit(127)
while True:
    try:
        _, status = os.waitpid(pid, 0)
        break
    except InterruptedError:
        continue
code = os.waitstatus_to_exitcode(status)
os._exit(code if code >= 0 else 128 - code)
"""


def guarded(argv: list[str]) -> list[str]:
    """The command line that runs ``argv`` under the guard (its own process group; it dies with this process)."""
    if not sys.platform.startswith("linux"):
        return list(argv)
    return [sys.executable, "-S", "-c", GUARD, str(os.getpid()), *argv]


def kill_group(pid: int) -> None:
    """Kill the process group ``pid`` leads (a player and everything it started); quiet if it is gone."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def worker_init(parent: int) -> None:
    """Initializer of a pool worker: die with the tournament process, and on SIGTERM close the players it keeps
    (their groups killed) before exiting."""
    die_with_parent(signal.SIGTERM, parent)

    def on_term(signum, frame):
        try:
            from arena.referee import close_kept_players
            close_kept_players(quick=True)
        finally:
            os._exit(128 + signum)
    signal.signal(signal.SIGTERM, on_term)

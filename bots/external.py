"""``cmd:<command line>``: a bot in another process that speaks the Kleos text protocol (docs/protocol.md).

This is the referee's end of the protocol. The process is started at the first game and kept for the next ones;
a process that died is started again at the next game. Before each decision it is sent the events it missed
(each filtered for its seat by the referee), a fresh ``obs`` of its information set, and ``go``.
"""
from __future__ import annotations

import collections
import os
import queue
import shutil
import shlex
import subprocess
import threading
import time

from bots.base import (BadBotSpecError, Bot, BotCrashed, BotResigns, BotTimeout, Event, GameInfo,
                       IllegalMoveReply, RefereeError, Turn)
from arena.lifeline import guarded, kill_group
from bots.protocol import PROTOCOL_VERSION, Reply, event_args, go_args, obs_payload, parse_reply_head

_EOF = object()


class ExternalBot(Bot):
    """Any program that speaks the Kleos text protocol (docs/protocol.md): cmd:<command line>."""

    name = "cmd"
    local_only = True             # it starts a program: chosen on the command line only, never over the protocol
    OPTIONS = {"command": (str, None, "the command line that starts the player")}
    no_clock_timeout = 120.0      # seconds to wait for a move when the referee runs no clock
    start_timeout = 30.0          # seconds to wait for the answers at the start of a game
    ack_timeout = 10.0            # seconds to wait for the `=` to an event or an obs
    grace = 1.0                   # seconds after a missed deadline (and `stop`) before it counts as a time-out
    max_noise = 200               # lines that are no protocol at all, per request, before the bot is given up

    def __init__(self, spec=None, command: str | None = None):
        if not command:
            raise BadBotSpecError("cmd: needs a command line, e.g. 'cmd:python my_bot.py'")
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise BadBotSpecError(f"cmd: cannot split the command line {command!r}: {e}") from None
        super().__init__(spec or f"cmd:{command}", command=command)
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail: collections.deque = collections.deque(maxlen=20)
        self.log: collections.deque = collections.deque(maxlen=200)   # info lines and noise, for reports
        self.next_id = 1
        self.pending: list[Event] = []
        self.late = False             # it missed a deadline this game: start it afresh for the next
        self.engine_options: dict = {}   # option.NAME=VALUE of its configuration, sent with setoption at start

    # --- the process -------------------------------------------------------------------------------------------
    def _alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _start(self):
        self._kill()
        self.lines = queue.Queue()
        try:
            if shutil.which(self.argv[0]) is None:
                raise OSError(f"no such program: {self.argv[0]}")
            self.proc = subprocess.Popen(guarded(self.argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1, encoding="utf-8",
                                         errors="replace",
                                         # its own process group, killed whole; dies with us (arena.lifeline)
                                         process_group=0,
                                         # a Python player then flushes its replies line by line
                                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
        except OSError as e:
            raise BotCrashed(f"{self.spec}: cannot start {self.argv[0]!r}: {e}") from None
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr,), daemon=True).start()
        reply = self.request("protocol_version", timeout=self.start_timeout)
        if not reply.ok or reply.payload.split()[:1] != [str(PROTOCOL_VERSION)]:
            raise BotCrashed(f"{self.spec}: speaks protocol {reply.payload!r}, not {PROTOCOL_VERSION}")
        for name, value in self.engine_options.items():
            reply = self.request("setoption", f"{name} {value}", timeout=self.start_timeout)
            if not reply.ok:
                raise BotCrashed(f"{self.spec}: refused option.{name}={value}: {reply.code} {reply.payload}".rstrip())

    @staticmethod
    def _pump(stream, lines):
        for line in stream:
            lines.put(line)
        lines.put(_EOF)

    def _drain(self, stream):
        for line in stream:
            self.stderr_tail.append(line.rstrip("\n"))

    def _kill(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            kill_group(self.proc.pid)             # the player and every program it started
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            self.proc = None

    def _crash(self, what: str) -> BotCrashed:
        code = self.proc.poll() if self.proc is not None else None
        time.sleep(0.05)                       # let the stderr thread catch the last words
        tail = " | ".join(list(self.stderr_tail)[-3:])
        self._kill()
        detail = f" (exit code {code})" if code is not None else ""
        return BotCrashed(f"{self.spec}: {what}{detail}" + (f"; stderr: {tail}" if tail else ""))

    def check_starts(self) -> None:
        """Start the program and check it speaks the protocol (before a tournament); BotCrashed if not."""
        try:
            self._start()
        except BotTimeout as e:
            self._kill()
            raise BotCrashed(f"{e} (at start)") from None

    # --- requests --------------------------------------------------------------------------------------------
    def send(self, name: str, args: str = "") -> int:
        cid = self.next_id
        self.next_id += 1
        try:
            self.proc.stdin.write(f"{cid} {name} {args}".rstrip() + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError, AttributeError):
            raise self._crash(f"cannot send {name!r}: the process is gone") from None
        return cid

    def wait(self, cid: int, timeout: float) -> Reply:
        """The reply to command ``cid``; info lines are logged, replies to older commands and noise skipped."""
        deadline = time.monotonic() + timeout
        info, noise = [], 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotTimeout(f"{self.spec}: no reply within {timeout:.1f}s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is _EOF:
                raise self._crash("the process ended")
            head = parse_reply_head(line)
            if head is None:
                text = line.strip()
                if text.startswith("info"):
                    info.append(text[4:].strip())
                    self.log.append(text)
                elif text:
                    noise += 1
                    self.log.append(f"noise: {text[:200]}")
                    if noise > self.max_noise:
                        raise self._crash(f"printed {noise} lines that are not the protocol, e.g. {text[:80]!r}")
                continue
            body = [head.payload] if head.payload else []
            while True:                            # a payload may run over several lines, up to an empty one
                try:
                    more = self.lines.get(timeout=max(0.05, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if more is _EOF:
                    self.lines.put(_EOF)
                    break
                if not more.strip():
                    break
                body.append(more.rstrip("\n"))
            if head.id is not None and head.id != cid:
                continue                           # a late reply to an earlier command (after a time-out)
            head.payload = "\n".join(body)
            head.info = info
            return head

    def request(self, name: str, args: str = "", timeout: float = 30.0) -> Reply:
        return self.wait(self.send(name, args), timeout)

    # --- the Bot protocol ------------------------------------------------------------------------------------
    def new_game(self, info: GameInfo) -> None:
        super().new_game(info)
        try:
            self._new_game(info)
        except BotTimeout as e:                    # silent at the start of a game: it is not working
            self._kill()
            raise BotCrashed(f"{e} (at the start of a game)") from None

    def _new_game(self, info: GameInfo) -> None:
        if not self._alive() or self.late:
            self._start()
        self.late = False
        self.pending = []
        self.seq = 0
        reply = self.request("isready", timeout=self.start_timeout)
        if not reply.ok:
            raise self._crash(f"isready answered {reply.code} {reply.payload}")
        options = " ".join(f"{k}={v}" for k, v in info.options.items() if k != "players")
        reply = self.request("newgame", f"{info.game} players={info.num_players} seat={info.seat} {options}".strip())
        if not reply.ok:
            raise self._crash(f"refused the game: {reply.code} {reply.payload}")

    def observe(self, event: Event) -> None:
        self.pending.append(event)
        self.seq = event.seq + 1

    def resync(self, events):
        self.pending = []          # the next `obs` carries the whole information set anyway

    def act(self, view, turn: Turn) -> int:
        if not self._alive():
            raise self._crash("the process is not running")
        try:
            return self._act(view, turn)
        except BotTimeout:
            self.late = True                       # restarted at the next game; a late reply is skipped by id
            raise
        except (BotCrashed, IllegalMoveReply, BotResigns):
            raise
        except Exception as e:                     # our end of the protocol failed: not the player's fault
            raise RefereeError(f"the referee failed while asking {self.spec} for a move: "
                               f"{type(e).__name__}: {e}") from e

    def _act(self, view, turn: Turn) -> int:
        for event in self.pending:
            reply = self.request("event", event_args(event), timeout=self.ack_timeout)
            if not reply.ok and reply.code != "out-of-sync":
                self.log.append(f"event refused: {reply.code} {reply.payload}")
        self.pending = []
        seq = turn.move_number
        legal_text = [view.action_to_str(a) for a in turn.legal]
        for attempt in range(2):
            reply = self.request("obs", f"{seq} {obs_payload(view, turn.seat, view)}", timeout=self.ack_timeout)
            if not reply.ok:
                raise self._crash(f"refused obs: {reply.code} {reply.payload}")
            budget = turn.budget()
            # movetime: what is left of this turn's limit (a seat's consecutive decisions share one)
            cid = self.send("go", go_args(seq, legal_text, turn.turn_left(), turn.time_left))
            try:
                no_clock = self.info.no_clock_wait if self.info is not None else self.no_clock_timeout
                reply = self.wait(cid, budget if budget is not None else no_clock)
            except BotTimeout:
                self.send("stop")
                try:
                    reply = self.wait(cid, self.info.stop_wait if self.info is not None else self.grace)
                except BotTimeout:
                    raise BotTimeout(f"{self.spec}: no move within {budget or no_clock:.1f}s") from None
            self.last_stats = {"info": reply.info[-1]} if reply.info else {}
            if reply.ok:
                break
            if reply.code != "out-of-sync" or attempt:
                raise IllegalMoveReply(f"{self.spec}: answered go with error {reply.code} {reply.payload}")
        text = reply.payload.strip()
        if text == "resign":
            raise BotResigns()
        if text.startswith("#"):
            try:
                return turn.legal[int(text[1:])]
            except (ValueError, IndexError):
                raise IllegalMoveReply(f"{self.spec}: {text!r} is no index into the {len(turn.legal)} legal moves")
        if text in legal_text:
            return turn.legal[legal_text.index(text)]
        try:
            action = view.str_to_action(text)
        except Exception as e:
            raise IllegalMoveReply(f"{self.spec}: {text!r} is no legal move: {e}") from None
        if action not in turn.legal:
            raise IllegalMoveReply(f"{self.spec}: {text!r} is not legal here")
        return action

    def end_game(self, result: dict) -> None:
        if not self._alive() or self.late:        # a player that missed its deadline is not waited for again
            if self.late:
                self._kill()
            return
        ranks = ",".join(map(str, result.get("ranks", [])))
        scores = ",".join(str(s) for s in result.get("scores", []))
        try:
            self.request("gameover", f"{self.seq} ranks={ranks} scores={scores} "
                                     f"reason={result.get('reason', 'normal')}", timeout=10.0)
        except (BotCrashed, BotTimeout):
            pass

    def close(self) -> None:
        if self._alive():
            try:
                self.request("quit", timeout=2.0)
            except (BotCrashed, BotTimeout):
                pass
        self._kill()

    def __del__(self):
        try:
            self._kill()
        except Exception:
            pass


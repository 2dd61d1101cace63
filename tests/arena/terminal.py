"""A pseudo-terminal driver for the console tests: runs `kleos ...` with a tty of a given size, reads what it
draws, types lines. What a person would see is the raw stream with the colour codes taken out."""
from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]")
# what a Python repr looks like when it leaks into a view
# bounded waits, long enough for a machine under heavy load (a failing test still ends)
TIMEOUT = 120.0
SETTLE = 0.15                  # seconds without output after which the screen is taken as drawn
QUICK_SETTLE = 0.05            # the same while answering a whole game (a stray early answer is only read later)

REPR = re.compile(r"\{'|\['|\bNone\b|\bTrue\b|\bFalse\b|<[\w.]+ object at|Traceback|\w+=\{|\(\d+, \d+\)")


class Terminal:
    def __init__(self, args, cwd, env, columns=80, rows=50):
        self.columns = columns
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**env, "COLUMNS": str(columns), "LINES": str(rows), "TERM": "xterm-256color"}
        env.pop("NO_COLOR", None)
        # a shell gives its foreground program Ctrl-C at the default action; a test run started in the background of
        # a non-interactive shell inherits SIGINT ignored, which would leave the program deaf to the Ctrl-C sent here
        self.proc = subprocess.Popen([sys.executable, "-m", "arena.cli", *map(str, args)], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=cwd, env=env, close_fds=True,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        os.close(slave)
        self.master = master
        self.raw = ""
        self.seen = 0                  # how far expect() has read

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:                # the child closed the terminal
            return False
        if not data:
            return False
        self.raw += data.decode("utf-8", "replace")
        return True

    @property
    def text(self) -> str:
        """Everything shown so far, colour codes removed."""
        return ANSI.sub("", self.raw)

    def expect(self, pattern: str, timeout: float = TIMEOUT) -> re.Match:
        """Wait until ``pattern`` (a regex) appears after what the last expect() matched. A pattern anchored at
        the end (``> $``: the prompt) must still be at the end once the screen is quiet: under load the program's
        output arrives in pieces, and a piece may end in the middle of a board line that happens to end in '> '."""
        deadline = time.time() + timeout
        regex = re.compile(pattern)
        while True:
            m = regex.search(self.text, self.seen)
            if m and pattern.endswith("$") and self._read(SETTLE):
                continue                # more came: look again at the new end
            if m:
                self.seen = m.end()
                return m
            left = deadline - time.time()
            if left <= 0 or (not self._read(min(left, 0.5)) and self.proc.poll() is not None
                             and not self._read(0.1)):
                if left <= 0 or self.proc.poll() is not None:
                    raise AssertionError(f"{pattern!r} never appeared; the screen ends with:\n{self.text[-3000:]}")

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def type(self, line: str, timeout: float = TIMEOUT) -> None:
        """Wait for the prompt, then type ``line`` (as a person does: never ahead of the prompt)."""
        self.expect(r"> $", timeout)
        self.send(line)

    def interrupt(self) -> None:
        """Ctrl-C: the terminal sends SIGINT to the program (call it once the screen shows what the person sees
        when pressing it, e.g. after expect("> $"))."""
        self.proc.send_signal(signal.SIGINT)

    def wait(self, timeout: float = TIMEOUT) -> int:
        deadline = time.time() + timeout
        while self.proc.poll() is None and time.time() < deadline:
            self._read(0.2)
        while self._read(0.05):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            raise AssertionError(f"kleos did not end; the screen ends with:\n{self.text[-3000:]}")
        os.close(self.master)
        return self.proc.returncode

    def answer_until(self, done: str, answer: str = "1", timeout: float = 240, confirm: str = "y") -> None:
        """Answer every prompt with ``answer`` (and every 'play it?' with ``confirm``) until ``done`` appears."""
        prompt = re.compile(r"(> $)|" + done)
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = prompt.search(self.text, self.seen)
            if m and m.group(1) is not None and self._read(QUICK_SETTLE):
                continue                # more came after a '> ': not the prompt yet, or not only
            if m and m.group(1) is None:
                self.seen = m.end()
                return
            if m:
                self.seen = m.end()
                self.send(confirm if self.text[:m.start()].rstrip().endswith("[Y/n]") else answer)
                continue
            if not self._read(0.5) and self.proc.poll() is not None:
                break
        raise AssertionError(f"{done!r} never appeared; the screen ends with:\n{self.text[-3000:]}")

    # --- what must not be on the screen -----------------------------------------------------------------------
    def too_wide(self) -> list[str]:
        out = []
        for line in self.text.split("\n"):
            for part in line.split("\r"):
                if len(part.rstrip()) > self.columns:
                    out.append(part)
        return out

    def reprs(self) -> list[str]:
        return [line for line in self.text.split("\n") if REPR.search(line)]

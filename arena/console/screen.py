"""The terminal: rich output fitted to the width, a transient status line, and input with a deadline.

Colour is used where the terminal has it (rich decides; NO_COLOR and non-terminals get plain text). Every line
is wrapped or cropped by rich to the console width, so nothing is wider than the terminal.
"""
from __future__ import annotations

import os
import select
import sys
import time

from rich.console import Console


class InputTimeout(Exception):
    """The person's clock ran out while the prompt waited."""


class Screen:
    def __init__(self, inp=None, out=None, width: int | None = None):
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        env_width = os.environ.get("COLUMNS")
        if width is None and env_width and env_width.isdigit():
            width = int(env_width)
        self.console = Console(file=self.out, width=width, highlight=False, soft_wrap=False, emoji=False)
        self._status = False

    @property
    def width(self) -> int:
        return self.console.width

    @property
    def live(self) -> bool:
        return self.console.is_terminal

    def print(self, *things, **kw) -> None:
        self.clear_status()
        self.console.print(*things, **kw)

    def rule(self, title: str = "") -> None:
        self.clear_status()
        self.console.rule(title, style="dim")

    def status(self, text: str) -> None:
        """A one-line status (the thinking line): rewritten in place on a terminal, a plain line elsewhere."""
        text = text[: max(10, self.width - 1)]
        if self.live:
            self.out.write("\r\x1b[2K" + text)
            self.out.flush()
            self._status = True
        else:
            self.console.print(text)

    def clear_status(self) -> None:
        if self._status:
            self.out.write("\r\x1b[2K")
            self.out.flush()
            self._status = False

    def ask(self, prompt: str, deadline: float | None = None, warn=None) -> str:
        """One line from the person; InputTimeout when ``deadline`` (perf_counter) passes first; EOFError at the
        end of input. ``warn(seconds_left)`` is called at 60, 30 and 10 seconds left."""
        self.clear_status()
        self.console.print(prompt, end="")
        self.out.flush()
        if deadline is not None:
            alarms = [t for t in (60, 30, 10) if deadline - time.perf_counter() > t]
            while True:
                left = deadline - time.perf_counter()
                if left <= 0:
                    self.out.write("\n")
                    raise InputTimeout()
                nxt = max(a for a in alarms) if alarms else 0
                wait = left - nxt
                if not self._wait_readable(wait):
                    if alarms:
                        alarms.remove(nxt)
                        if warn:
                            warn(nxt)
                        self.console.print(prompt, end="")
                        self.out.flush()
                    continue
                break
        line = self.inp.readline()
        if not line:
            raise EOFError()
        return line.strip()

    def _wait_readable(self, seconds: float) -> bool:
        try:
            ready, _, _ = select.select([self.inp], [], [], max(0.0, seconds))
            return bool(ready)
        except (ValueError, OSError, TypeError):     # no file descriptor (a test's StringIO): it is always ready
            return True

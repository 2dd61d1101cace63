"""Time controls as cutechess and fastchess write them: ``tc=[moves/]seconds[+increment]`` and ``st=seconds``.

>>> TimeControl.parse("40/60+0.6")     # 60 s for every 40 moves, 0.6 s more after each move
TimeControl(seconds=60.0, increment=0.6, moves=40, movetime=None)
>>> TimeControl.parse("inf", movetime=2.0)
TimeControl(seconds=None, increment=0.0, moves=None, movetime=2.0)

A Clock keeps one seat's time through a game: the base time at the start, the increment after each move, and with
``moves/`` the base time again after every that many moves (the next period).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bots.base import BadBotSpecError

_TC = re.compile(r"^(?:(\d+)/)?([0-9.]+)(?::([0-9.]+))?(?:\+([0-9.]+))?$")


def _seconds(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise BadBotSpecError(f"{what}: {text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise BadBotSpecError(f"{what}: {text!r} must be a finite, non-negative number of seconds")
    return value


@dataclass(frozen=True)
class TimeControl:
    seconds: float | None = None      # base time a period (None: no game clock)
    increment: float = 0.0            # seconds added after each move
    moves: int | None = None          # moves a period (None: the whole game is one period)
    movetime: float | None = None     # a limit for every move (st=)

    @classmethod
    def parse(cls, text: str | None, movetime: float | None = None) -> "TimeControl":
        """``tc=`` text: ``60``, ``60+0.5``, ``40/60+0.6``, ``1:30+1`` (minutes:seconds), or ``inf`` (no clock)."""
        if movetime is not None and movetime <= 0:
            raise BadBotSpecError(f"st={movetime!r}: a fixed time a move must be positive seconds")
        if text is None or text.strip().lower() in ("inf", "infinite", "none", ""):
            return cls(None, 0.0, None, movetime)
        m = _TC.match(text.strip())
        if not m:
            raise BadBotSpecError(f"tc={text!r} is not a time control: write seconds[+increment] or "
                                  f"moves/seconds[+increment], e.g. tc=60+0.5, tc=40/60+0.6, tc=1:30+1, tc=inf")
        moves, base, extra, inc = m.groups()
        seconds = _seconds(base, "tc") * 60 + _seconds(extra, "tc") if extra else _seconds(base, "tc")
        if seconds <= 0:
            raise BadBotSpecError(f"tc={text!r}: the base time must be positive")
        if moves is not None and int(moves) < 1:
            raise BadBotSpecError(f"tc={text!r}: moves a period must be at least 1")
        return cls(seconds, _seconds(inc, "tc increment") if inc else 0.0, int(moves) if moves else None, movetime)

    @property
    def timed(self) -> bool:
        return self.seconds is not None or self.movetime is not None

    def __str__(self) -> str:
        parts = []
        if self.seconds is not None:
            parts.append(f"tc={self.moves}/" if self.moves else "tc=")
            parts[-1] += f"{self.seconds:g}" + (f"+{self.increment:g}" if self.increment else "")
        if self.movetime is not None:
            parts.append(f"st={self.movetime:g}")
        return " ".join(parts) or "no clock"


class Clock:
    """One seat's clock in one game: ``charge`` each try's seconds, ``moved`` once a move is accepted."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.left = control.seconds          # None: no game clock
        self.used = 0.0
        self.moves = 0

    def time_left(self) -> float | None:
        return None if self.left is None else max(0.0, self.left)

    def charge(self, seconds: float) -> None:
        self.used += seconds
        if self.left is not None:
            self.left -= seconds

    def over(self, elapsed: float, grace: float) -> bool:
        """Whether ``elapsed`` (this move, or this turn of consecutive decisions) broke the move limit, or the clock
        ran out, beyond ``grace``."""
        if self.control.movetime is not None and elapsed > self.control.movetime + grace:
            return True
        return self.left is not None and self.left < -grace

    def moved(self) -> None:
        """A move was accepted: the increment, and at the end of a period the next period's base time."""
        self.moves += 1
        if self.left is None:
            return
        self.left = max(self.left, 0.0) + self.control.increment     # a move forgiven by the grace starts at 0
        if self.control.moves and self.moves % self.control.moves == 0:
            self.left += self.control.seconds

    def describe(self) -> str:
        left = "" if self.left is None else f"; {max(self.left, 0.0):.2f}s left"
        return f"{self.control}, used {self.used:.2f}s{left}"

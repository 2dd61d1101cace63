"""Checked command-line values: every number and path of ``kleos`` is validated by these click types before any
game is played, so a bad value is a one-line message naming the option and the problem, never a traceback and
never a tournament that runs and then fails.
"""
from __future__ import annotations

import math
import os

import click

from engine.errors import KleosError


class Seconds(click.ParamType):
    """A finite number of seconds above zero (``nan``, ``inf`` and ``-1`` are refused)."""

    name = "seconds"

    def __init__(self, allow_zero: bool = False):
        self.allow_zero = allow_zero

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        if number < 0 or (number == 0 and not self.allow_zero):
            self.fail(f"{value!r} must be {'zero or more' if self.allow_zero else 'above zero'} seconds", param, ctx)
        return number


class Finite(click.ParamType):
    """A finite real number (``nan`` and ``inf`` are refused), optionally within an open interval."""

    name = "number"

    def __init__(self, above: float | None = None, below: float | None = None):
        self.above, self.below = above, below

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if self.above is not None and not number > self.above:
            self.fail(f"{value!r} must be above {self.above:g}", param, ctx)
        if self.below is not None and not number < self.below:
            self.fail(f"{value!r} must be below {self.below:g}", param, ctx)
        return number


def count(minimum: int) -> click.IntRange:
    """A whole number of at least ``minimum`` (``--games -1``, ``-j -3`` are refused)."""
    return click.IntRange(min=minimum)


class OutFile(click.ParamType):
    """A file Kleos will write: its folder must exist and be writable, and it must not be a folder.

    ``suffixes``: the extensions allowed (a chart's formats), checked too.
    """

    name = "file"

    def __init__(self, suffixes: tuple[str, ...] = ()):
        self.suffixes = suffixes

    def convert(self, value, param, ctx):
        path = os.fspath(value)
        if not path:
            self.fail("an empty path", param, ctx)
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            self.fail(f"{path!r} is a folder, not a file", param, ctx)
        if not os.path.isdir(folder):
            self.fail(f"the folder {folder!r} does not exist", param, ctx)
        if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
            self.fail(f"{path!r} cannot be written (permission denied)", param, ctx)
        if self.suffixes and os.path.splitext(path)[1].lower() not in self.suffixes:
            self.fail(f"{path!r} has an unknown format; use one of {', '.join(self.suffixes)}", param, ctx)
        return path


CHART_FORMATS = (".png", ".svg", ".pdf")


class RecordFileType(click.ParamType):
    """An existing, readable record file (JSON lines, UTF-8 text). Whether each line is a game record is checked
    as it is read (a bad line is reported with its ``file:line``); a file that is not text at all is refused."""

    name = "records"

    def convert(self, value, param, ctx):
        path = os.fspath(value)
        if not os.path.exists(path):
            self.fail(f"{path!r} does not exist", param, ctx)
        if os.path.isdir(path):
            self.fail(f"{path!r} is a folder, not a record file", param, ctx)
        if not os.access(path, os.R_OK):
            self.fail(f"{path!r} cannot be read (permission denied)", param, ctx)
        problem = text_problem(path)
        if problem:
            self.fail(f"{path!r} is no record file: {problem}", param, ctx)
        return path


def text_problem(path, sample: int = 1 << 16) -> str | None:
    """Why the start of ``path`` is not JSON-lines text (a NUL byte, bytes that are not UTF-8), or None."""
    with open(path, "rb") as f:
        head = f.read(sample)
    if head[:2] == b"\x1f\x8b":                  # a compressed record file: look at what it holds
        import gzip
        try:
            with gzip.open(path, "rb") as f:
                head = f.read(sample)
        except (OSError, EOFError) as e:
            if not head:
                return f"a damaged gzip file ({e})"
            return None                          # cut short by a kill: reading reports (and --resume mends) it
    if b"\0" in head:
        return "it holds binary data (NUL bytes), not JSON lines"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(head) - 4:            # not merely a character cut by the sample's end
            return f"byte {e.start} is not UTF-8 text"
    return None


SECONDS = Seconds()
SEED = click.IntRange(0, 2**63 - 1)          # seeds are 63-bit: every stream derives from them


class SafeGroup(click.Group):
    """The ``kleos`` group: an error no command caught becomes a one-line message, never a traceback.

    Kleos errors and OS errors (a full disk, a file that vanished) name their problem; anything else is a bug in
    Kleos and says so. ``KLEOS_DEBUG=1`` shows the traceback for a bug report.
    """

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit,
                KeyboardInterrupt):
            raise
        except KleosError as e:
            raise click.ClickException(str(e)) from None
        except OSError as e:
            where = f"{e.filename}: " if getattr(e, "filename", None) else ""
            raise click.ClickException(f"{where}{e.strerror or e}") from None
        except Exception as e:                  # noqa: BLE001 - the last line of defence
            if os.environ.get("KLEOS_DEBUG"):
                raise
            raise click.ClickException(f"internal error (a bug in Kleos; KLEOS_DEBUG=1 shows the traceback): "
                                       f"{type(e).__name__}: {e}") from None

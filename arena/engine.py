"""``kleos engine``: serve one of our bots over stdin/stdout as a player of the Kleos text protocol.

The player's end of docs/protocol.md. Each request gets exactly one reply; a bad line gets an error reply and the
session goes on. The bot decides from the ``sample`` of the latest ``obs`` (a state drawn from its information set),
so it never needs more than its seat was sent.

The referee on the other end is trusted with nothing (docs/protocol.md, "Trust model"): any byte sequence gets an
error reply for its line; over the protocol no bot that starts programs or talks to a person can be chosen, the
search budgets are bounded (``PROTOCOL_LIMITS``), game data comes only from the data sets a game ships, and
``go movetime=`` and ``stop`` bind every budget, one set with ``setoption`` included.
"""
from __future__ import annotations

import json
import os
import queue
import signal
import sys
import threading
import time

from bots import make_bot
from bots.base import BadBotSpecError, GameInfo, Turn
from bots.protocol import (PROTOCOL_VERSION, ProtocolError, format_error, format_reply, parse_command,
                           parse_event, parse_go)
from bots.spec import parse_spec
from engine import __version__
from engine.errors import BadOptionError, BadStateError, KleosError, UnknownGameError
from engine.registry import game_spec, list_games, load_game

MAX_LINE = 8 << 20                # bytes a request line may have (an obs of the largest game is ~100 KB)
# the most a referee may ask of this machine with setoption (the command line that starts the engine may ask more)
PROTOCOL_LIMITS = {"workers": os.cpu_count() or 1, "iterations": 10_000_000, "calls": 1_000_000_000,
                   "time": 3600.0, "determinizations": 10_000}
SEED_LIMIT = 2**63 - 1
STOP_POLL = 0.05                  # seconds between looks for a `stop` while a search runs


class TooLong:
    """A request line longer than the limit (read and thrown away to its end)."""

    def __init__(self, size: int, limit: int):
        self.size, self.limit = size, limit


class StopSearch(Exception):
    """``stop`` arrived while a search ran: answer now."""


COMMANDS = ("protocol_version", "name", "version", "list_commands", "games", "setoption", "isready", "newgame",
            "obs", "event", "go", "stop", "gameover", "quit")


class EngineSession:
    """The state of one protocol session: the bot spec, the game, the seat, the latest view."""

    def __init__(self, bot_spec: str = "greedy", seed: int = 0):
        make_bot(bot_spec).close()                 # a bad spec fails here, before the session starts
        self.bot_spec = bot_spec
        self.seed = seed
        self.bot = None
        self.game = None
        self.seat = None
        self.view = None
        self.view_seq = -1
        self.expected = 0                          # the seq of the next event or go
        self.games_played = 0
        self.done = False
        self.max_line = MAX_LINE
        self.searching = False                     # a go is being answered (stop may interrupt it)
        self.line_number = 0                       # of the request being answered
        self.last_stop = 0                         # of the last `stop` read

    # --- dispatch --------------------------------------------------------------------------------------------
    def handle_bytes(self, raw) -> str:
        """The reply to one raw request line (bytes, or TooLong): never raises, whatever the bytes."""
        if isinstance(raw, TooLong):
            return format_error(None, "syntax-error", f"line of {raw.size} bytes is longer than the {raw.limit} "
                                                      "a request may have")
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if not raw.strip(b" \t\r\n\f\v"):
            return ""
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return format_error(None, "syntax-error", f"the line is not UTF-8 text (byte {e.start})")
        try:
            return self.handle(line)
        except Exception as e:                      # noqa: BLE001 - a reply for every line, whatever happened
            return format_error(None, "internal-error", f"{type(e).__name__}: {e}")

    def handle(self, line: str) -> str:
        """The full reply text (ending with the empty line) to one request line; '' for a blank line."""
        if not line.strip(" \t\r\n\f\v"):
            return ""
        try:
            cmd = parse_command(line)
        except ProtocolError as e:
            return format_error(None, e.code, str(e))
        method = getattr(self, f"cmd_{cmd.name}", None) if cmd.name in COMMANDS else None
        if method is None:
            return format_error(cmd.id, "unknown-command", f"{cmd.name!r}; try list_commands")
        try:
            result = method(cmd.args)
            if isinstance(result, tuple):            # (info line, payload): info goes before the reply
                info, payload = result
                return (f"info {info}\n" if info else "") + format_reply(cmd.id, payload)
            return format_reply(cmd.id, result)
        except ProtocolError as e:
            return format_error(cmd.id, e.code, str(e))
        except Exception as e:                      # the session survives a failing bot
            return format_error(cmd.id, "internal-error", f"{type(e).__name__}: {e}")

    def serve(self, inp=None, out=None) -> None:
        """Answer request lines from ``inp`` (bytes or text; stdin by default) on ``out`` until ``quit`` or the
        end of input. A reader thread takes the lines, so a ``stop`` reaches a search that is running."""
        inp = inp if inp is not None else sys.stdin
        out = out if out is not None else sys.stdout
        stream = getattr(inp, "buffer", inp)
        lines: queue.Queue = queue.Queue()
        # a search holds the interpreter lock in C, so the reader thread cannot run by itself: while a go is being
        # answered a timer signal looks in every STOP_POLL seconds, lets the reader take what arrived, and ends the
        # search when that was a `stop`
        self.poll = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGALRM, self._on_timer) if self.poll else None

        def reader():
            try:
                for number, raw in enumerate(read_lines(stream, self.max_line), 1):
                    if _is_stop(raw):
                        self.last_stop = number           # stops every go read before it
                    lines.put((number, raw))
            finally:
                lines.put(None)
        threading.Thread(target=reader, daemon=True, name="kleos-engine-reader").start()
        try:
            while not self.done:
                item = lines.get()
                if item is None:
                    break
                self.line_number, raw = item
                reply = self.handle_bytes(raw)
                if reply:
                    out.write(reply)
                    out.flush()                     # line by line: the referee never waits on a buffer
        finally:
            if self.poll:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
            if self.bot is not None:
                self.bot.close()

    def _stop_arrived(self) -> bool:
        return self.last_stop > self.line_number   # a `stop` came after the go being answered

    def _on_timer(self, signum, frame):
        time.sleep(0.001)                           # lets the reader thread take the lines that arrived
        if self.searching and self._stop_arrived():
            raise StopSearch()

    # --- session commands ----------------------------------------------------------------------------------
    def cmd_protocol_version(self, args):
        return str(PROTOCOL_VERSION)

    def cmd_name(self, args):
        return f"Kleos {self.bot_spec}"

    def cmd_version(self, args):
        return __version__

    def cmd_list_commands(self, args):
        return "\n".join(COMMANDS)

    def cmd_games(self, args):
        lines = []
        for name in list_games():
            spec = game_spec(name)
            opts = " ".join(f"{k}={o.default}" for k, o in spec.all_options().items() if k != "players")
            lines.append(f"{name} players={spec.min_players}-{spec.max_players} {opts}".rstrip())
        return "\n".join(lines)

    def cmd_isready(self, args):
        return "readyok"

    def cmd_quit(self, args):
        self.done = True
        return ""

    def cmd_setoption(self, args):
        words = args.split(None, 1)
        if len(words) != 2:
            raise ProtocolError("syntax-error", "setoption needs a name and a value")
        name, value = words[0], words[1].strip()
        if name == "bot":
            spec = value
        elif name == "seed":
            try:
                self.seed = int(value)
            except ValueError:
                raise ProtocolError("bad-value", f"seed must be an integer, got {value!r}") from None
            if not 0 <= self.seed <= SEED_LIMIT:
                raise ProtocolError("bad-value", f"seed must be in 0..{SEED_LIMIT}")
            return ""
        else:                                       # any other name is an option of the bot
            bot_name, options = parse_spec(self.bot_spec)
            options[name] = value
            spec = bot_name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
        try:
            check_protocol_spec(spec)
            make_bot(spec).close()
        except BadBotSpecError as e:
            code = "unknown-option" if "unknown option" in str(e) and name != "bot" else "bad-value"
            raise ProtocolError(code, str(e)) from None
        self.bot_spec = spec
        return ""

    # --- game commands -------------------------------------------------------------------------------------
    def cmd_newgame(self, args):
        words = args.split()
        if not words:
            raise ProtocolError("syntax-error", "newgame needs a game name")
        options, seat = {}, None
        for word in words[1:]:
            key, eq, value = word.partition("=")
            if not eq:
                raise ProtocolError("syntax-error", f"newgame: {word!r} is not name=value")
            if key == "seat":
                try:
                    seat = int(value)
                except ValueError:
                    raise ProtocolError("bad-value", f"seat must be an integer, got {value!r}") from None
            else:
                options[key] = value
        if seat is None:
            raise ProtocolError("syntax-error", "newgame needs seat=<k>")
        try:
            options = shipped_data_only(words[0], options)
            game = load_game(words[0], **options)
        except UnknownGameError as e:
            raise ProtocolError("unsupported-game", str(e)) from None
        except BadOptionError as e:
            raise ProtocolError("bad-value", str(e)) from None
        if not 0 <= seat < game.num_players:
            raise ProtocolError("bad-value", f"seat {seat} is out of range 0..{game.num_players - 1}")
        if self.bot is not None:
            self.bot.close()
        self.bot = make_bot(self.bot_spec)
        self.game, self.seat, self.view, self.view_seq, self.expected = game, seat, None, -1, 0
        self.games_played += 1
        self.bot.new_game(GameInfo(game.name, dict(game.options), game.num_players, seat,
                                   self.seed + 1000 * self.games_played + seat))
        return ""

    def _need_game(self):
        if self.game is None:
            raise ProtocolError("out-of-sync", "no game: send newgame first")

    def cmd_obs(self, args):
        self._need_game()
        seq_text, _, payload = args.partition(" ")
        try:
            seq = int(seq_text)
        except ValueError:
            raise ProtocolError("syntax-error", f"obs needs '<seq> <json>', got {args[:40]!r}") from None
        try:
            obj = json.loads(payload)
        except (ValueError, RecursionError) as e:   # bad JSON, a 5,000-digit number, nesting too deep
            raise ProtocolError("syntax-error", f"obs payload is not JSON: {e}") from None
        if not isinstance(obj, dict) or "sample" not in obj:
            raise ProtocolError("bad-value", "obs payload needs a 'sample' state")
        try:
            view = self.game.state_from_json(obj["sample"])
        except (BadStateError, KleosError, ValueError, TypeError) as e:
            raise ProtocolError("bad-value", f"obs sample is no state of {self.game.name}: {e}") from None
        self.view, self.view_seq, self.expected = view, seq, seq
        return ""

    def cmd_event(self, args):
        self._need_game()
        event = parse_event(args)
        if event.seq != self.expected:
            raise ProtocolError("out-of-sync", f"expected event {self.expected}, got {event.seq}")
        self.expected = event.seq + 1
        self.view = None                            # the sample is stale until the next obs
        self.bot.observe(event)
        return ""

    def cmd_go(self, args):
        self._need_game()
        go = parse_go(args)
        if self.view is None or go["seq"] != self.view_seq:
            raise ProtocolError("out-of-sync", f"no obs for position {go['seq']}; send obs first")
        view = self.view
        if view.current_player() != self.seat:
            raise ProtocolError("out-of-sync", f"it is not seat {self.seat}'s turn in the last obs")
        legal = view.legal_actions()
        if go["legal"] is not None:
            names = {view.action_to_str(a): a for a in legal}
            unknown = [m for m in go["legal"] if m not in names]
            if unknown:
                raise ProtocolError("out-of-sync", f"legal moves {unknown[:3]} are not legal in the last obs")
            legal = [names[m] for m in go["legal"]]
        movetime = go.get("movetime")
        time_left = go.get("time")
        turn = Turn(self.seat, legal, go["seq"], movetime / 1000 if movetime is not None else None,
                    time_left / 1000 if time_left is not None else None)
        self.searching = True
        if getattr(self, "poll", False):
            signal.setitimer(signal.ITIMER_REAL, STOP_POLL, STOP_POLL)
        try:
            if self._stop_arrived():
                raise StopSearch()
            action = self.bot.act(view.clone(), turn)
        except StopSearch:                          # stop: the move is late already; answer at once
            action = legal[0]
            self.bot.last_stats = {"stopped": 1}
        finally:
            self.searching = False
            if getattr(self, "poll", False):
                signal.setitimer(signal.ITIMER_REAL, 0)
        stats = " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in self.bot.last_stats.items()
                         if isinstance(v, (int, float, str)) and " " not in str(v))
        text = view.action_to_str(action)
        return stats, text

    def cmd_stop(self, args):
        return ""                                   # a running search was interrupted when the line arrived

    def cmd_gameover(self, args):
        if self.bot is not None:
            self.bot.end_game({"raw": args})
        self.view = None
        return ""


def read_lines(stream, limit: int = MAX_LINE):
    """Raw request lines of a byte (or text) stream; a line over ``limit`` bytes is read to its end and thrown away
    as it comes (memory stays bounded) and given as TooLong."""
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if len(raw) <= limit or raw.endswith(b"\n"):
            yield raw
            continue
        size = len(raw)
        while raw and not raw.endswith(b"\n"):
            raw = stream.readline(limit + 1)
            size += len(raw) if raw else 0
        yield TooLong(size, limit)


def _is_stop(raw) -> bool:
    if not isinstance(raw, bytes):
        return False
    words = raw.split()
    return bool(words) and (words[0] == b"stop" or (len(words) > 1 and words[0].isdigit() and words[1] == b"stop"))


def check_protocol_spec(spec: str) -> None:
    """A bot a referee may choose over the protocol: no bot that starts programs or talks to a person (those are
    chosen on the command line only), and budgets within PROTOCOL_LIMITS. BadBotSpecError otherwise."""
    from bots import bot_class
    name, options = parse_spec(spec)
    cls = bot_class(name)
    if getattr(cls, "local_only", False):
        raise BadBotSpecError(f"bot {name!r} can be chosen on the command line only (it starts programs or talks "
                              "to a person); over the protocol: " + ", ".join(protocol_bots()))
    for key, limit in PROTOCOL_LIMITS.items():
        if key in options:
            try:
                value = float(options[key])
            except ValueError:
                continue                            # not a number: the bot's own check names the problem
            if value > limit:
                raise BadBotSpecError(f"{name}: option {key}={options[key]} is above {limit:g}, the most a referee "
                                      "may ask over the protocol")


def protocol_bots() -> list[str]:
    from bots import BOTS, bot_class
    return [name for name in BOTS if not getattr(bot_class(name), "local_only", False)]


def shipped_data_only(game: str, options: dict) -> dict:
    """Over the protocol, an option that names files (``data=``) may only name a data set the game ships: the
    name is replaced by its folder; a path is refused, and not echoed."""
    try:
        spec = game_spec(game)
    except UnknownGameError:
        return options                              # load_game names the problem
    out = dict(options)
    for key, option in spec.all_options().items():
        if key in out and getattr(option, "names_files", False):
            value = out[key]
            if value == "":
                continue
            if value not in spec.datasets:
                names = ", ".join(spec.datasets) or "none"
                raise ProtocolError("bad-value", f"{game}: option {key} names one of the data sets the game ships "
                                                 f"({names}); paths are not accepted over the protocol")
            out[key] = str(spec.datasets[value])
    return out

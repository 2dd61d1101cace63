"""``kleos engine``: serve one of our bots over stdin/stdout as a player of the Kleos text protocol.

The player's end of docs/protocol.md. Each request gets exactly one reply; a bad line gets an error reply and the
session goes on. The bot decides from the ``sample`` of the latest ``obs`` (a state drawn from its information set),
so it never needs more than its seat was sent.
"""
from __future__ import annotations

import json
import sys

from bots import make_bot
from bots.base import BadBotSpecError, GameInfo, Turn
from bots.protocol import (PROTOCOL_VERSION, ProtocolError, format_error, format_reply, parse_command,
                           parse_event, parse_go)
from bots.spec import parse_spec
from engine import __version__
from engine.errors import BadOptionError, BadStateError, KleosError, UnknownGameError
from engine.registry import game_spec, list_games, load_game

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

    # --- dispatch --------------------------------------------------------------------------------------------
    def handle(self, line: str) -> str:
        """The full reply text (ending with the empty line) to one request line; '' for a blank line."""
        if not line.strip():
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
        inp, out = inp or sys.stdin, out or sys.stdout
        for line in inp:
            reply = self.handle(line)
            if reply:
                out.write(reply)
                out.flush()
            if self.done:
                break

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
            return ""
        else:                                       # any other name is an option of the bot
            bot_name, options = parse_spec(self.bot_spec)
            options[name] = value
            spec = bot_name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
        try:
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
        except json.JSONDecodeError as e:
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
        action = self.bot.act(view.clone(), turn)
        stats = " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in self.bot.last_stats.items()
                         if isinstance(v, (int, float, str)) and " " not in str(v))
        text = view.action_to_str(action)
        return stats, text

    def cmd_stop(self, args):
        return ""                                   # moves are answered within their budget: nothing pending

    def cmd_gameover(self, args):
        if self.bot is not None:
            self.bot.end_game({"raw": args})
        self.view = None
        return ""

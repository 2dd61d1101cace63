"""The referee: plays one game of any registered game between 2 to 5 bots.

It owns the true state and the chance RNG, asks each seat for a move with that seat's view (never the true state,
unless the bot is an oracle), checks and applies the move, tells every seat only what it may see, keeps the clocks,
applies the policies for illegal moves, time-outs and crashes, and writes the game record.

Chance is drawn from its own stream, keyed by the game seed and a secret salt (``engine.chance``): the k-th chance
event of a game always uses the k-th number of that stream, whatever the bots do. So games with the same seed and
salt share their luck (duplicate format), a move taken back with ``undo`` brings the same dice and cards again, and
no bot can work out the dice to come from the seed or the dice so far. The salt is written to the record when the
game is over, so ``replay --verify`` re-derives every outcome.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass

from bots.base import (Bot, BotResigns, BotTimeout, Event, GameInfo, IllegalMoveReply, QuitRequest,
                       RefereeError, Turn, UndoRequest)
from arena.adjudication import Adjudicator
from bots.timecontrol import Clock, TimeControl
from engine.chance import ChanceStream, derive_seed, public_salt  # noqa: F401  (derive_seed: used here first)
from engine.errors import KleosError
from engine.records import GameRecord, forfeit_returns
from engine.registry import load_game
from engine.rng import RNG

CHANCE = -1


@dataclass
class Policies:
    """What the referee does when a seat breaks the rules of play (written into every record)."""

    illegal: str = "forfeit"        # forfeit | retry (ask again, up to `retries` times, then forfeit)
    timeout: str = "forfeit"        # forfeit | random (a random legal move is played for the seat)
    retries: int = 2
    movetime: float | None = None   # seconds a move may take
    gametime: float | None = None   # seconds one seat may use in the whole game
    grace: float = 0.25             # seconds over a limit that are forgiven (process start, scheduling)
    stop_wait: float = 1.0          # seconds a cmd: player has to answer after `stop` before it is late
    no_clock_wait: float = 120.0    # seconds a cmd: player may take for a move when no clock runs
    takeout: int = 3                # games in a row a bot may crash, or lose on time, before it is taken out
    undo: bool = False              # casual play: the human console may take moves back
    max_moves: int | None = None    # adjudication (arena/adjudication.py): a draw after this many decisions
    draw: dict | None = None        # {movenumber, movecount, score}: a draw when the movers agree it is even
    resign: dict | None = None      # {movecount, score, twosided}: a seat that reports itself lost, loses

    def __post_init__(self):
        if self.illegal not in ("forfeit", "retry"):
            raise ValueError(f"illegal-move policy must be forfeit or retry, got {self.illegal!r}")
        if self.timeout not in ("forfeit", "random"):
            raise ValueError(f"time-out policy must be forfeit or random, got {self.timeout!r}")
        for name in ("movetime", "gametime", "grace", "stop_wait", "no_clock_wait"):
            value = getattr(self, name)
            if value is None and name in ("movetime", "gametime"):
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or value < 0 or (value == 0 and name not in ("grace", "stop_wait")):
                raise ValueError(f"{name} must be a finite number of seconds above zero, got {value!r}")
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise ValueError(f"retries must be a whole number >= 0, got {self.retries!r}")
        if isinstance(self.takeout, bool) or not isinstance(self.takeout, int) or self.takeout < 1:
            raise ValueError(f"takeout must be a whole number >= 1, got {self.takeout!r}")
        from arena.adjudication import check_draw, check_resign
        if self.max_moves is not None and (isinstance(self.max_moves, bool) or not isinstance(self.max_moves, int)
                                           or self.max_moves < 1):
            raise ValueError(f"max_moves must be a whole number >= 1, got {self.max_moves!r}")
        if self.draw is not None:
            check_draw(self.draw)
        if self.resign is not None:
            check_resign(self.resign)

    def identity(self) -> dict:
        """The policies as a tournament's fingerprint sees them (rules left unset are left out, so fingerprints of
        runs from before adjudication existed stay the same)."""
        quiet = {"max_moves": None, "draw": None, "resign": None, "stop_wait": 1.0, "no_clock_wait": 120.0,
                 "takeout": 3}
        return {k: v for k, v in asdict(self).items() if not (k in quiet and v == quiet[k])}

    @classmethod
    def casual(cls, **kw) -> "Policies":
        return cls(illegal="retry", timeout="random", undo=True, **kw)


class GameAborted(KleosError):
    """The person at the console quit: the game was resigned and no further game should start."""

    def __init__(self, record):
        super().__init__("the game was quit")
        self.record = record


class Referee:
    """Runs one game. ``bots`` has one Bot per seat (distinct objects); ``labels`` name them in the record."""

    def __init__(self, game: str, options: dict, bots: list[Bot], seed: int, policies: Policies | None = None,
                 labels: list[str] | None = None, meta: dict | None = None, on_event=None, event: str = "game",
                 salt: int | None = None):
        self.game = load_game(game, **options)
        if len(bots) != self.game.num_players:
            raise ValueError(f"{game} with {self.game.num_players} players needs {self.game.num_players} bots, "
                             f"got {len(bots)}")
        if len({id(b) for b in bots}) != len(bots):
            raise ValueError("each seat needs its own bot object")
        self.bots = bots
        self.seed = int(seed)
        # the secret half of the dice (the kleos commands draw it from the OS; a duplicate block's rotations share
        # one); it goes into the record only when the game is over, so no seat learns the dice to come from the
        # seed. None: a public salt from the seed alone, for tests and experiments that replay by seed
        self.salt = public_salt(self.seed) if salt is None else int(salt)
        self.policies = policies or Policies()
        self.labels = labels or [b.spec for b in bots]
        self.meta = dict(meta or {})
        self.on_event = on_event          # callback(event_for_the_true_state) for logs and live views
        self.event = event                # what the record says played it (tournament, sprt, strength, play)
        self.on_ask = None                # callback(seat, turn) before a seat is asked (the console's thinking line)
        self.on_move = None               # callback(record, state_before, action, state_after) after every action
        self.record: GameRecord | None = None     # the game so far (readable when play() is interrupted)
        self.state = None                 # the true state so far

    # --- helpers -----------------------------------------------------------------------------------------
    def _event_for(self, state, action: int, seq: int, seat: int) -> Event:
        mover = state.current_player()
        kind = "chance" if mover == CHANCE else "move"
        seen = state.action_observation(action, seat)
        if seen == action:
            return Event(seq, kind, mover, state.action_to_str(action), action)
        return Event(seq, kind, mover, None, None, int(seen))

    def _broadcast(self, state, action: int, seq: int):
        for seat, bot in enumerate(self.bots):
            event = self._event_for(state, action, seq, seat)
            self.seen[seat].append(event)
            try:
                bot.observe(event)
            except Exception:          # a bot that cannot take news fails when asked to move, not here
                pass
        if self.on_event is not None:
            mover = state.current_player()
            self.on_event(Event(seq, "chance" if mover == CHANCE else "move", mover, state.action_to_str(action),
                                action))

    def _forfeit_returns(self, loser: int) -> list[float]:
        return forfeit_returns(self.game.num_players, loser)

    # --- the game ----------------------------------------------------------------------------------------
    def play(self, start=None, resume: GameRecord | None = None) -> GameRecord:
        """Play the game to its end and return its record.

        ``start``: a position (a state of this game) to begin from instead of the setup; it is kept in the record.
        ``resume``: the record of an unfinished game of these seats: its actions are replayed (the same chance
        stream, so the dice to come are those the game would have had) and the game goes on from there.
        If the person at the console quits, GameAborted carries the record marked unfinished; on any other
        interruption (Ctrl-C) ``self.record`` and ``self.state`` hold the game so far.
        """
        n = self.game.num_players
        options = dict(self.game.options)
        record = GameRecord(game=self.game.name, options=options, seed=self.seed, seats=list(self.labels),
                            event=self.event, bots=[b.spec for b in self.bots],
                            meta={**self.meta, "policies": asdict(self.policies)})
        if resume is not None:
            record.start = resume.start
            record.meta["resumed"] = resume.meta.get("resumed", 0) + 1
            record.meta["clock"] = resume.meta.get("clock")
        elif start is not None:
            record.start = start.to_json()
        state = record.new_state()
        self.record, self.state = record, state
        if resume is not None and resume.salt is not None:
            self.salt = resume.salt                 # the dice it would have had
        chance = ChanceStream(self.seed, self.salt)
        view_rng = RNG(derive_seed(self.seed, 0x51E3, self.salt))
        self.seen: list[list[Event]] = [[] for _ in range(n)]
        # each seat's clock: the bot's own time control (tc=, st=), else the policies' movetime and gametime
        default = TimeControl(self.policies.gametime, 0.0, None, self.policies.movetime)
        clocks = [Clock(bot.time_control or default) for bot in self.bots]
        reason, loser, aborted = "normal", None, False
        for seat, bot in enumerate(self.bots):
            control = clocks[seat].control
            info = GameInfo(self.game.name, options, n, seat, derive_seed(self.seed, 0xB07, seat),
                            control.movetime, control.seconds, self.policies.undo)
            info.stop_wait, info.no_clock_wait = self.policies.stop_wait, self.policies.no_clock_wait
            try:
                bot.new_game(info)
            except Exception as e:           # it cannot even start: the game is lost by that seat
                reason, loser = f"crash:{seat}", seat
                record.meta["error"] = str(e)
                break
        if resume is not None and loser is None:
            state = self._replay_into(record, resume, chance)
            for mover, seconds in zip(record.players, record.times):     # the clocks as they stood
                if 0 <= mover < n:
                    clocks[mover].charge(float(seconds))
                    clocks[mover].moved()
        turn_seat, turn_used, turn_step = None, 0.0, 0   # a turn: consecutive decisions of one seat
        adjudicator = Adjudicator(self.policies.max_moves, self.policies.draw, self.policies.resign)
        adjudicated = None

        while loser is None and not aborted and not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = chance.draw(state.chance_outcomes())
                self._play_action(record, state, action, 0.0)
                continue
            bot = self.bots[player]
            legal = state.legal_actions()
            if player != turn_seat:
                turn_seat, turn_used, turn_step = player, 0.0, 0
            clock = clocks[player]
            turn = Turn(player, list(legal), len(record.actions), clock.control.movetime, clock.time_left(),
                        list(self.seen[player]), turn_step, turn_used)
            if self.on_ask is not None:
                self.on_ask(player, turn)
            tries = 0
            while True:
                view = state.clone() if bot.oracle else state.determinize(player, view_rng)
                started = time.perf_counter()
                problem = None
                bot.last_stats = {}            # what it reports now, never a stale report of an earlier move
                try:
                    action = bot.act(view, turn)
                    if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
                        problem = ("illegal", f"{bot.spec} chose {action!r}, which is not a legal move here")
                except IllegalMoveReply as e:
                    problem = ("illegal", str(e))
                except BotTimeout as e:
                    problem = ("timeout", str(e))
                except BotResigns:
                    problem = ("resign", f"{bot.spec} resigned")
                except QuitRequest:
                    problem, aborted = ("quit", f"{bot.spec} quit"), True
                except UndoRequest as e:
                    problem = ("undo", e)
                except RefereeError:         # our own code failed, not the bot: no one is charged
                    raise
                except Exception as e:       # BotCrashed, or a bug in an in-process bot: it lost, the game ends
                    problem = ("crash", f"{bot.spec}: {type(e).__name__}: {e}")
                elapsed = time.perf_counter() - started
                clock.charge(elapsed)
                turn_used += elapsed
                if problem is None and clock.over(turn_used, self.policies.grace):
                    problem = ("timeout", f"{bot.spec} took {turn_used:.2f}s this turn ({clock.describe()})")
                if problem is None or problem[0] == "quit":
                    break
                kind, message = problem
                if kind == "undo":
                    state = self._undo(record, player, chance, getattr(message, "to", None))
                    turn_seat = None
                    break
                if kind == "illegal" and self.policies.illegal == "retry" and tries < self.policies.retries:
                    tries += 1
                    record.meta.setdefault("warnings", []).append(message)
                    continue
                if kind == "timeout" and self.policies.timeout == "random":
                    record.meta.setdefault("warnings", []).append(message + "; a random move was played")
                    action = view_rng.choice(legal)
                    problem = None
                    break
                reason, loser = f"{kind}:{player}", player
                record.meta["error"] = message
                break
            if loser is not None or aborted:
                break
            if problem is not None:        # an undo: the position changed, ask again
                continue
            turn_step += 1
            clock.moved()
            self._play_action(record, state, action, elapsed, bot.last_stats)
            if adjudicator.active and not state.is_terminal():
                adjudicated = adjudicator.after(player, bot.last_stats.get("value"))
                if adjudicated is not None:
                    break

        if aborted:
            record.suspend(state, "quit")
        elif adjudicated is not None:
            rule, seat = adjudicated
            if rule == "resign":
                record.finish(state, f"adjudicated:resign:{seat}", self._forfeit_returns(seat))
            else:                          # a draw: every seat shares first place
                record.finish(state, f"adjudicated:{rule}", [0.5] * n)
        elif loser is None:
            record.finish(state)
        else:
            record.finish(state, reason, self._forfeit_returns(loser))
        record.salt = self.salt                     # revealed now that the game is over (or stopped for good)
        record.meta["clock"] = [round(c.used, 4) for c in clocks]
        self.clock = [c.used for c in clocks]
        for bot in self.bots:
            try:
                bot.end_game(record.result)
            except Exception:
                pass
        if aborted:
            raise GameAborted(record)
        return record

    def _play_action(self, record: GameRecord, state, action: int, seconds: float, stats=None) -> None:
        before = state.clone() if self.on_move is not None else None
        record.add(state, action, seconds, stats)
        self._broadcast(state, action, len(record.actions) - 1)
        state.apply(action)
        if self.on_move is not None:
            self.on_move(record, before, action, state)

    def _undo(self, record: GameRecord, player: int, chance: ChanceStream, to: int | None = None):
        """Take back ``player``'s last move (or its decision number ``to``) and everything after it; the same
        chance outcomes come again."""
        mine = [i for i, p in enumerate(record.players) if p == player]
        if to is not None and to in mine:
            return self._rebuild(record, to, chance)
        if not self.policies.undo or not mine:
            return self._rebuild(record, len(record.actions), chance)
        return self._rebuild(record, mine[-1], chance)

    def _replay_into(self, record: GameRecord, old: GameRecord, chance: ChanceStream):
        """Rebuild the game of ``old`` into ``record`` (resume): its actions, notations, players and times."""
        for name in ("actions", "moves", "players", "times", "evals"):
            getattr(record, name)[:] = list(getattr(old, name))[:len(old.actions)]
        for name, blank in (("times", 0.0), ("evals", None)):
            while len(getattr(record, name)) < len(record.actions):
                getattr(record, name).append(blank)
        state = self._rebuild(record, len(record.actions), chance)
        record.meta["undos"] = old.meta.get("undos", 0)      # a resume is no undo
        return state

    def _rebuild(self, record: GameRecord, keep: int, chance: ChanceStream):
        record.truncate(keep)
        state = record.new_state()
        self.seen = [[] for _ in self.bots]
        for i, action in enumerate(record.actions):
            if state.is_terminal() or (state.is_chance_node() and action not in dict(state.chance_outcomes())) \
                    or (not state.is_chance_node() and action not in state.legal_actions()):
                raise KleosError(f"the record's action #{i} ({action}) is not legal where it stands; "
                                 "the record does not belong to this game")
            for seat in range(len(self.bots)):
                self.seen[seat].append(self._event_for(state, action, i, seat))
            state.apply(action)
        chance.used = sum(1 for p in record.players if p == CHANCE)
        record.meta["undos"] = record.meta.get("undos", 0) + 1
        for seat, bot in enumerate(self.bots):
            bot.resync(list(self.seen[seat]))
        self.state = state
        return state


def play_game(game: str, options: dict, specs: list[str], seed: int, policies: Policies | None = None,
              labels: list[str] | None = None, meta: dict | None = None, keep_players: bool = False,
              event: str = "game", salt: int | None = None) -> GameRecord:
    """Build the bots from spec strings, play one game, close the bots; the record.

    ``keep_players``: external players (``cmd:``) stay running for the next game of this process (tournaments),
    rather than being started for every game; ``close_kept_players()`` ends them.
    """
    from bots import make_bot
    from bots.spec import is_external
    bots = [_kept(spec, seat) if keep_players and is_external(spec) else make_bot(spec)
            for seat, spec in enumerate(specs)]
    try:
        return Referee(game, options, bots, seed, policies, labels, meta, event=event, salt=salt).play()
    finally:
        for bot in bots:
            if not (keep_players and is_external(bot.spec)):
                bot.close()


_KEPT: dict = {}


def _kept(spec: str, seat: int):
    """The running player for ``spec`` in ``seat`` in this process (a forked child never reuses its parent's)."""
    import os
    from bots import make_bot
    key = (os.getpid(), spec, seat)
    if key not in _KEPT:
        _KEPT[key] = make_bot(spec)
    return _KEPT[key]


def close_kept_players(quick: bool = False) -> None:
    """End the players this process keeps; ``quick``: kill them without the polite ``quit`` (on SIGTERM)."""
    import os
    for key in [k for k in _KEPT if k[0] == os.getpid()]:
        bot = _KEPT.pop(key)
        if quick and hasattr(bot, "_kill"):
            bot._kill()
        else:
            bot.close()

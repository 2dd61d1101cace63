"""``kleos play``: one or more games at the terminal between people and bots, recorded from the first move.

The record is rewritten to the save file after every move, so Ctrl-C, ``quit``, a time loss or a crash never
loses a game: a stopped game is saved with the result ``unfinished`` and ``kleos play --resume FILE`` goes on
from where it stopped (same seats, same seed, so the same dice and cards to come).
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from arena.console.levels import DEFAULT_LEVEL, level_spec
from arena.console.screen import Screen
from arena.console.view import load_view
from engine.errors import KleosError
from engine.records import GameRecord, append_record, read_records


class PlayError(KleosError):
    """A `kleos play` request that cannot be played (bad seats, files, positions): a one-line message."""


@dataclass
class PlayRequest:
    game: str
    seats: list[str]
    options: dict
    seed: int | None = None
    games: int = 1
    rated: bool = False
    movetime: float | None = None
    gametime: float | None = None
    hint: str = "auto"
    out: str | None = None
    save: str | None = None
    level: str | None = None
    resume: str | None = None
    start_from: str | None = None
    auto: bool = True
    human_options: dict = field(default_factory=dict)


def fill_seats(game: str, seats: list[str], options: dict, level: str | None) -> tuple[list[str], dict]:
    """The seat specs for every seat of the game: too few are filled from the last bot given (or the level's bot,
    else the top level's: Kleos's own bot);
    the player count follows the seats unless ``options`` names it. PlayError for what cannot be seated."""
    from engine.registry import game_spec
    spec = game_spec(game)
    seats = [s.strip() for s in seats if s.strip()]
    if level is not None:
        seats = [level_spec(level, game) if s.lower() in ("ai", "bot", "level") else s for s in seats]
    if not seats:
        seats = ["human"]
    count = options.get("players")
    if count is None:
        count = max(len(seats), spec.default_players or spec.min_players)
    try:
        count = int(count)
    except (TypeError, ValueError):
        raise PlayError(f"{game}: the player count {count!r} is not a number") from None
    if not spec.min_players <= count <= spec.max_players:
        span = f"{spec.min_players}" if spec.min_players == spec.max_players else \
            f"{spec.min_players} to {spec.max_players}"
        raise PlayError(f"{game} is for {span} players, not {count}"
                        + (f" ({len(seats)} seats given)" if len(seats) > spec.max_players else ""))
    if len(seats) > count:
        raise PlayError(f"{len(seats)} seats given for {count} players; give at most {count} --seat")
    bots = [s for s in seats if s.split(":")[0].lower() != "human"]
    # with neither a bot nor a level, Kleos's own bot at the top level fills the seats
    filler = level_spec(level, game) if level is not None else (bots[-1] if bots else level_spec(DEFAULT_LEVEL, game))
    seats += [filler] * (count - len(seats))
    return seats, {**options, "players": count}


def _policies(rated: bool, movetime, gametime):
    from arena.referee import Policies
    if rated:
        return Policies(movetime=movetime, gametime=gametime)
    return Policies.casual(movetime=movetime, gametime=gametime)


def _load_position(game, path: str):
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
    except OSError as e:
        raise PlayError(f"cannot read the position {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise PlayError(f"{path} is not JSON: {e}") from None
    try:
        state = game.state_from_json(obj)
    except Exception as e:
        raise PlayError(f"{path} is not a {game.name} position: {e}") from None
    if state.is_terminal():
        raise PlayError(f"{path}: that position is the end of the game; there is nothing to play")
    return state


def _load_unfinished(path: str) -> GameRecord:
    try:
        records, problems = read_records(path)
    except OSError as e:
        raise PlayError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise PlayError(f"{path} is not a game record file") from None
    if not records:
        raise PlayError(f"{path} holds no game record" + (f" ({problems[0]})" if problems else ""))
    record = records[-1]
    if record.result is not None and not record.unfinished:
        raise PlayError(f"the game in {path} is finished ({record.result.get('reason')}); there is nothing to resume")
    return record


def save_record(path: str, record: GameRecord) -> None:
    """Write ``record`` as the one line of ``path``, atomically (a crash mid-write keeps the previous save)."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(record.to_json() + "\n")
    os.replace(tmp, path)


class PlaySession:
    def __init__(self, request: PlayRequest, inp=None, out=None):
        self.req = request
        self.screen = Screen(inp, out)
        self.chance: list[str] = []

    # --- seats and bots ---------------------------------------------------------------------------------------
    def _bots(self, seats: list[str]):
        from bots import make_bot
        bots = []
        for s in seats:
            if s.split(":")[0].strip().lower() == "human":
                bot = make_bot(s, screen=self.screen)
                bot.options.setdefault("auto", self.req.auto)
                if self.req.hint != "auto":
                    bot.options["hint"] = self.req.hint
                bot.options.update(self.req.human_options)
            else:
                bot = make_bot(s)
            bots.append(bot)
        return bots

    def run(self) -> int:
        from arena.referee import Referee
        from engine.chance import new_salt
        from engine.registry import load_game
        req = self.req
        resume = _load_unfinished(req.resume) if req.resume else None
        if resume is not None:
            game_name, seats, options, seed = resume.game, list(resume.seats), dict(resume.options), resume.seed
            policies = _resumed_policies(resume)
            games = 1
            save = req.save or req.resume
        else:
            game_name = req.game
            seats, options = fill_seats(req.game, req.seats, req.options, req.level)
            seed = req.seed if req.seed is not None else int(time.time()) % 1_000_000
            policies = _policies(req.rated, req.movetime, req.gametime)
            games = req.games
            save = req.save or f"kleos-play-{req.game}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        game = load_game(game_name, **options)
        from arena.tournament import check_game_and_bots     # a cmd: seat that cannot start fails before any game
        check_game_and_bots(game_name, options, [s for s in seats if s.split(":")[0].strip().lower() != "human"])
        start = _load_position(game, req.start_from) if req.start_from and resume is None else None
        self.view = load_view(game)
        for g in range(games):
            bots = self._bots(seats)
            self.humans = {i: b for i, b in enumerate(bots) if b.name == "human"}
            referee = Referee(game_name, options, bots, seed + g, policies, labels=list(seats), event="play",
                              salt=new_salt())           # secret dice: no bot works them out from the seed
            referee.on_ask = self._thinking
            self.referee, self.save, self.saved = referee, save, -1
            referee.on_move = lambda record, before, action, after, path=save: self._moved(record, before,
                                                                                           action, after, path)
            self.bots = bots
            if len(seats) > 1 or games > 1:
                self.screen.print(Text(f"recording to {save}" + (f" (game {g + 1} of {games})" if games > 1 else "")
                                       , style="dim"))
            try:
                record = referee.play(start=start, resume=resume)
            except KeyboardInterrupt:
                self._stop(referee, save, "interrupted (Ctrl-C)")
                return 130
            except Exception as e:
                from arena.referee import GameAborted
                if isinstance(e, GameAborted):
                    self._stop(referee, save, "quit", record=e.record)
                    return 0
                if referee.record is None or referee.state is None:
                    raise
                self._stop(referee, save, f"crash: {type(e).__name__}: {e}")
                raise PlayError(f"the console failed ({type(e).__name__}: {e}); the game so far is saved in "
                                f"{save}") from e
            finally:
                for b in bots:
                    b.close()
            save_record(save, record)
            if req.out:
                append_record(req.out, record)
            self._end(referee, record, seed + g)
            resume = None
        return 0

    # --- hooks ------------------------------------------------------------------------------------------------
    def _thinking(self, seat: int, turn) -> None:
        record = self.referee.record
        if len(record.actions) != self.saved:          # moves were taken back: the save follows at once
            save_record(self.save, record)
            self.saved = len(record.actions)
        bot = self.bots[seat]
        if bot.name == "human" or not self.humans:
            return
        if len(turn.legal) == 1:
            return
        name = self.view.seat_name(seat)
        limit = f" of {turn.movetime:g}s" if turn.movetime else ""
        budget = bot.options.get("time")
        limit = limit or (f" of {budget:g}s" if isinstance(budget, (int, float)) else "")
        self.screen.status(f"  {name} ({bot.spec}) thinking: decision {turn.turn_step + 1} of its turn, "
                           f"{turn.turn_used:.1f}s{limit}")

    def _moved(self, record, before, action, after, save: str) -> None:
        save_record(save, record)
        self.saved = len(record.actions)
        if not self.humans:                      # bots only: the moves as the referee sees them
            mover = before.current_player()
            who = "chance" if mover < 0 else f"P{mover}"
            self.screen.print(Text(f"{len(record.actions):4d}. {who}: {record.moves[-1]}"))
            return
        # the first person's seat sees the news (with several people at one terminal the first one's view)
        seat, human = next(iter(self.humans.items()))
        mover = before.current_player()
        if mover < 0:                            # chance: gathered into one line, shown before the next move
            seen = before.action_observation(action, seat)
            self.chance.append(before.action_to_str(action) if seen == action else "(hidden)")
            if after.current_player() >= 0 or after.is_terminal():
                self._flush_chance(human)
            return
        if mover == seat:
            line = self.view.change(before, after, action, seat)
            human.history.append(line)
            self.screen.print(Text("  you: " + line.split(": ", 1)[-1], style="dim"))
            return
        line = self.view.change(before, after, action, seat)
        style = "dim" if mover < 0 else self.view.seat_style(mover)
        human.moved(Text("  " + line, style=style))

    def _flush_chance(self, human) -> None:
        if self.chance:
            line = "chance: " + ", ".join(self.chance)
            self.chance = []
            human.moved(Text("  " + line, style="dim"))

    # --- the end ----------------------------------------------------------------------------------------------
    def _stop(self, referee, save: str, why: str, record=None) -> None:
        record = record or referee.record
        if record.result is None or not record.unfinished:
            record.suspend(referee.state, why)
        record.result["stopped"] = why
        save_record(save, record)
        if self.req.out:
            append_record(self.req.out, record)
        self.screen.print(Text(f"\nstopped ({why}) after {len(record.actions)} actions; the game is saved in {save}.\n"
                               f"go on with: kleos play --resume {save}", style="bold"))

    def _end(self, referee, record, seed: int) -> None:
        from engine.records import final_state
        state = final_state(record)
        res = record.result
        reason = res["reason"]
        if reason == "normal":
            why = self.view.end_reason(state)
        else:
            kind, _, who = reason.partition(":")
            name = self.view.seat_name(int(who)) if who.isdigit() else "a seat"
            why = {"timeout": f"{name} ran out of time", "resign": f"{name} resigned",
                   "crash": f"{name}'s bot failed", "illegal": f"{name} made an illegal move"}.get(kind, reason)
            why += "; the game was scored as a loss for that seat"
        self.screen.rule("game over")
        if self.humans:
            self.screen.print(self.view.final(state))
        table = Table(title=escape(f"Game over: {why}"), title_justify="left", expand=False)
        for col in ("seat", "player", "score", "place"):
            table.add_column(col)
        ranks = res["ranks"]
        for p, spec in enumerate(record.seats):
            tied = sum(1 for r in ranks if r == ranks[p]) > 1
            table.add_row(Text(self.view.seat_name(p), style=self.view.seat_style(p)), escape(spec),
                          str(res["scores"][p]) if p < len(res["scores"]) else "-",
                          ("tied " if tied else "") + _ordinal(ranks[p]))
        self.screen.print(table)
        for seat in self.humans:
            tied = [self.view.seat_name(q) for q in range(len(ranks)) if q != seat and ranks[q] == ranks[seat]]
            if tied:
                self.screen.print(f"You tied for {_ordinal(ranks[seat])} place with {escape(', '.join(tied))}.")
            else:
                self.screen.print(f"You finished {_ordinal(ranks[seat])}" +
                                  (" [bold green]- you won![/bold green]" if ranks[seat] == 1 else "."))
        self.screen.print(f"game (seed {seed}): {escape(reason)}; scores {' '.join(map(str, res['scores']))}; "
                          f"places {' '.join(_ordinal(r) for r in ranks)}")


def _resumed_policies(record: GameRecord):
    from arena.referee import Policies
    kept = record.meta.get("policies") or {}
    try:
        return Policies(**{k: v for k, v in kept.items() if k in Policies.__dataclass_fields__})
    except (TypeError, ValueError) as e:
        raise PlayError(f"the record's policies cannot be used: {e}") from None


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"

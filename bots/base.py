"""The Bot protocol: what the referee calls, and what a bot may see.

A bot is told once per game who it is (``new_game``), is shown what happens as it happens, filtered for its seat
(``observe``), and is asked for a move with its **view** (``act``): ``state.determinize(seat, rng)``, a copy of the
game in which everything the seat cannot see has been replaced by a consistent sample. So a bot cannot peek at
hidden cards by construction; only a bot whose class says ``oracle = True`` (an experiment's ceiling) is handed
the true state.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import KleosError


class BadBotSpecError(KleosError, ValueError):
    """A bot spec string names no bot, or an option the bot does not have, or a bad value."""


class BotCrashed(KleosError):
    """The bot failed: its process died, it raised, or it broke the protocol beyond repair."""


class BotTimeout(KleosError):
    """The bot did not answer within its time."""


class IllegalMoveReply(KleosError):
    """The bot answered with something that is no legal move here (the text is kept for the message)."""


class BotResigns(Exception):
    """Raised by ``act`` to resign the game."""


class UndoRequest(Exception):
    """Raised by ``act`` (the human console) to take back the seat's last move; casual games only."""


class QuitRequest(Exception):
    """Raised by ``act`` (the human console) to stop playing: the game is resigned and no further game starts."""


@dataclass
class GameInfo:
    """What a bot is told when a game starts."""

    game: str                     # registered game name
    options: dict                 # the game's options, complete (players included)
    num_players: int
    seat: int
    seed: int                     # for the bot's own randomness: games replay exactly when bots are seeded
    movetime: float | None = None     # seconds a move may take (None: no limit)
    gametime: float | None = None     # seconds the whole game may take this seat (None: no limit)
    can_undo: bool = False        # casual game: the human console may take moves back


@dataclass
class Event:
    """One thing that happened, as one seat sees it.

    ``kind`` is ``move`` (a seat's decision) or ``chance``; ``seat`` who acted (-1 for chance); ``text`` the move's
    notation when the receiving seat may see it, else ``None``; ``action`` the action id, also only when visible;
    ``hidden_class`` the game's ``action_observation`` class (< 0) when it is not.
    """

    seq: int
    kind: str
    seat: int
    text: str | None
    action: int | None = None
    hidden_class: int | None = None

    @property
    def visible(self) -> bool:
        return self.text is not None

    def describe(self) -> str:
        who = "chance" if self.seat < 0 else f"P{self.seat}"
        return f"{who}: {self.text if self.visible else '(hidden)'}"


@dataclass
class Turn:
    """The question ``act`` answers: the legal moves and the clock."""

    seat: int
    legal: list[int]
    move_number: int                  # index of this decision in the game's action list
    movetime: float | None = None     # seconds for this move (None: no limit)
    time_left: float | None = None    # seconds left on this seat's game clock (None: no limit)
    events: list[Event] = field(default_factory=list)   # everything this seat has been shown, in order

    def budget(self) -> float | None:
        """The seconds this move should take at most (the tighter of the two clocks), or None."""
        limits = [t for t in (self.movetime, self.time_left) if t is not None]
        return min(limits) if limits else None

    def suggested_time(self, moves_to_go: int = 20) -> float | None:
        """The seconds a bot without a budget of its own should think: 80% of the move limit, and no more than
        a ``moves_to_go``-th of what is left on the game clock. None when neither clock runs."""
        limits = []
        if self.movetime is not None:
            limits.append(0.8 * self.movetime)
        if self.time_left is not None:
            limits.append(self.time_left / moves_to_go)
        return max(0.001, min(limits)) if limits else None


class Bot:
    """Base of every bot. Subclasses set ``name``/``OPTIONS`` and implement ``act``."""

    name = "bot"
    oracle = False                    # True: receives the true state instead of a determinized view
    OPTIONS: dict = {}                # option name -> (type, default, help)

    def __init__(self, spec: str | None = None, **options):
        self.spec = spec or self.name
        self.options = options
        self.info: GameInfo | None = None
        self.last_stats: dict = {}    # what the bot reports about its last decision (iterations, value ...)

    def new_game(self, info: GameInfo) -> None:
        self.info = info

    def observe(self, event: Event) -> None:
        """Called for every action of the game, filtered for this bot's seat."""

    def resync(self, events: list[Event]) -> None:
        """Called after moves were taken back: ``events`` is all this seat has seen of the game so far."""

    def act(self, view, turn: Turn) -> int:
        raise NotImplementedError

    def end_game(self, result: dict) -> None:
        """Called once at the end with the record's result (returns, scores, ranks, reason)."""

    def close(self) -> None:
        """Release what the bot holds (processes, pools)."""

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec!r}>"

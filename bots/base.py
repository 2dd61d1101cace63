"""The Bot protocol: what the referee calls, and what a bot may see.

A bot is told once per game who it is (``new_game``), is shown what happens as it happens, filtered for its seat
(``observe``), and is asked for a move with its **view** (``act``): ``state.determinize(seat, rng)``, a copy of the
game in which everything the seat cannot see has been replaced by a consistent sample. So a bot cannot peek at
hidden cards by construction; only a bot whose class says ``oracle = True`` (an experiment's ceiling) is handed
the true state.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import State, turn_ends
from engine.errors import KleosError
from engine.rng import RNG


class BadBotSpecError(KleosError, ValueError):
    """A bot spec string names no bot, or an option the bot does not have, or a bad value."""


class BotCrashed(KleosError):
    """The bot failed: its process died, it raised, or it broke the protocol beyond repair."""


class BotTimeout(KleosError):
    """The bot did not answer within its time."""


class IllegalMoveReply(KleosError):
    """The bot answered with something that is no legal move here (the text is kept for the message)."""


class RefereeError(KleosError):
    """The referee's own side failed while talking to a bot (a bug in Kleos, not the bot's fault): the game is
    abandoned unrecorded and no seat is charged a loss."""


class BotResigns(Exception):
    """Raised by ``act`` to resign the game."""


class UndoRequest(Exception):
    """Raised by ``act`` (the human console) to take back the seat's last move; casual games only.

    ``to``: the move number of the seat's decision to take back (with everything after it); None: its last one.
    """

    def __init__(self, to: int | None = None):
        super().__init__("undo")
        self.to = to


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
    stop_wait: float = 1.0        # seconds a player has to answer after `stop` (the referee's policy)
    no_clock_wait: float = 120.0  # seconds a player may take for a move when no clock runs


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
    movetime: float | None = None     # seconds for this seat's whole turn (None: no limit)
    time_left: float | None = None    # seconds left on this seat's game clock (None: no limit)
    events: list[Event] = field(default_factory=list)   # everything this seat has been shown, in order
    turn_step: int = 0                # decisions this seat already took in this turn (a turn: its consecutive ones)
    turn_used: float = 0.0            # seconds this seat already used in this turn

    def budget(self) -> float | None:
        """The seconds this decision may take at most (what is left of the turn and of the game clock), or None."""
        limits = [t for t in (self.turn_left(), self.time_left) if t is not None]
        return max(0.0, min(limits)) if limits else None

    def turn_left(self) -> float | None:
        return None if self.movetime is None else max(0.0, self.movetime - self.turn_used)

    def suggested_time(self, moves_to_go: int = 20, decisions_left: float = 1.0) -> float | None:
        """The seconds a bot without a budget of its own should think on this decision: 80% of what is left of the
        turn, shared among the ``decisions_left`` it expects to take in this turn, and no more than a
        ``moves_to_go``-th of what is left on the game clock. None when neither clock runs."""
        limits = []
        if self.movetime is not None:
            limits.append(0.8 * self.turn_left() / max(1.0, decisions_left))
        if self.time_left is not None:
            limits.append(self.time_left / moves_to_go)
        return max(0.001, min(limits)) if limits else None


DEFAULT_PACE = "last"                 # the search bots' pace (TurnPace's rules), theirs and OpenSpiel's bots'


class TurnPace:
    """How many real decisions (more than one legal move) a seat takes in a turn, learnt as the game goes: a turn
    budget is shared among the decisions still expected, so ``time=T`` is the time of a whole turn.

    Call ``start`` for every decision the bot is asked (forced ones too), then, for a real one, ``decided`` as it
    begins and ``share`` for its seconds. Rules (the search bots' ``pace`` option; ``last`` their default):

    - ``even``: this decision's share is the turn time left over the decisions expected from this one on, this one
      included, given how many the turn has taken so far: over the turns seen that were at least as long, the mean
      of what they had left (a prior turn of ``PRIOR`` decisions counts as ``PRIOR_WEIGHT`` turns): every decision
      of a turn is meant to get the same time, whatever the turn's length; past every length seen, each takes half
      of what is left. A turn that ends sooner than its share expected keeps the rest unused.
    - ``front``: the turn time left over the mean turn length less the decisions taken, this one counted, at least
      one: the first decisions get more (half a 3-decision turn to the first, the rest to the second) and a turn
      longer than the mean leaves its last ones the floor (2% of the turn). Kleos's pace before ``even``, kept to
      compare with and to rerun the measurements made with it.
    - ``last``: as ``even``, and a decision after which the turn surely ends gets all that is left of the turn,
      instead of keeping a share for decisions the turn will not take. Surely: every legal move ends the turn
      (``engine.core.turn_ends``) in each of ``SAMPLES`` fresh determinizations of the bot's view from its seat,
      drawn with the pace's own seeded stream. Whether a turn goes on can hang on what the seat cannot see (where
      cards chosen in secret decide who acts first), so the view alone, one sample, is not asked: the answer
      depends on the seat's information set and the stream only.
    """

    PRIOR, PRIOR_WEIGHT = 3.0, 1.0    # before any turn was seen: expect about 3 decisions
    RULES = ("even", "front", "last")
    SAMPLES = 4                       # ``last``: the worlds of the information set that must all end the turn

    def __init__(self, rule: str = DEFAULT_PACE, seed: int = 0):
        if rule not in self.RULES:
            raise ValueError(f"pace: {rule!r} is not one of {', '.join(self.RULES)}")
        self.rule = rule
        self.seed = seed
        self.rng = None               # made on the first question (the rules that never ask need no stream)
        self.sizes: list[int] = []
        self.current = 0

    def start(self, turn: Turn) -> None:
        """Call once for each decision the bot is asked (forced ones too)."""
        if turn.turn_step == 0 and self.current:
            self.sizes.append(self.current)
            self.current = 0

    def decided(self) -> None:
        """A real decision begins: it counts in this turn from now on."""
        self.current += 1

    def decisions_left(self, last: bool = False) -> float:
        """The real decisions this turn is expected to take from the one being decided on, that one included;
        ``last``: this decision is known to end the turn (heeded by the ``last`` rule)."""
        if last and self.rule == "last":
            return 1.0
        if self.rule == "front":
            mean = (sum(self.sizes) + self.PRIOR * self.PRIOR_WEIGHT) / (len(self.sizes) + self.PRIOR_WEIGHT)
            return max(1.0, mean - self.current)
        taken = self.current - 1          # before this one
        left, weight = 0.0, 0.0
        for size in self.sizes:
            if size > taken:
                left += size - taken
                weight += 1.0
        if self.PRIOR > taken:
            left += (self.PRIOR - taken) * self.PRIOR_WEIGHT
            weight += self.PRIOR_WEIGHT
        return max(1.0, left / weight) if weight else 2.0

    def share(self, total: float, turn: Turn, last: bool = False) -> float:
        """Seconds for this decision out of a turn budget of ``total`` seconds (at least 2% of it); ``last`` as in
        ``decisions_left``."""
        left = max(0.0, total - turn.turn_used)
        return max(0.02 * total, left / self.decisions_left(last), 0.001)

    @classmethod
    def for_game(cls, rule: str, game_seed: int) -> "TurnPace":
        """A bot's pace for one game: its stream drawn from the game's seed, apart from the bot's other streams."""
        return cls(rule, (game_seed ^ 0x9ACE) & (2 ** 64 - 1))

    def ends_turn(self, view) -> bool:
        """For the ``last`` rule: whether this decision surely ends the turn (see the class), else False."""
        if self.rule != "last" or not isinstance(view, State):   # a game outside the C contract cannot be asked
            return False
        if self.rng is None:
            self.rng = RNG(self.seed)
        seat = view.current_player()
        return all(turn_ends(view.determinize(seat, self.rng)) is True for _ in range(self.SAMPLES))


class Bot:
    """Base of every bot. Subclasses set ``name``/``OPTIONS`` and implement ``act``."""

    name = "bot"
    oracle = False                    # True: receives the true state instead of a determinized view
    local_only = False                # True: starts programs or talks to a person; never chosen over the protocol
    OPTIONS: dict = {}                # option name -> (type, default, help)

    def __init__(self, spec: str | None = None, **options):
        self.spec = spec or self.name
        self.options = options
        self.info: GameInfo | None = None
        self.last_stats: dict = {}    # what the bot reports about its last decision (iterations, value ...)
        self.time_control = None      # its own clock (tc=, st=), else the referee's policies

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

"""``human``: the console. A person plays one seat at the terminal.

At each turn it shows what happened since the last one (as this seat saw it), the board from this seat, and the
numbered legal moves. A move is typed in the game's notation, as a unique prefix of it, or as its number
(``3`` or ``#3``). Commands: help, legal, show, history, hint, undo, resign, quit. Bad input gets a one-line
reason and the prompt again; it never ends the game.
"""
from __future__ import annotations

import sys

from bots.base import Bot, BotResigns, GameInfo, QuitRequest, Turn, UndoRequest

HELP = """\
  <move>      a move in the game's notation, a unique prefix of one, or its number from 'legal' (3 or #3)
  legal       list the legal moves, numbered
  show        show the board from your seat
  history     everything you have seen happen this game
  hint        ask the hint bot for a move (it searches from your own view only)
  undo        take back your last move (casual games; the same dice and cards come again)
  resign      give up this game
  quit        resign and stop playing
  help        this list"""


class HumanBot(Bot):
    """A person at the terminal (the console: board from their seat, numbered moves, hint, undo)."""

    name = "human"
    OPTIONS = {
        "hint": (str, "auto", "bot that answers 'hint' (a bot name; auto: ismcts when available, else greedy)"),
        "hint_time": (float, 1.0, "seconds the hint bot may think"),
    }

    def __init__(self, spec=None, inp=None, out=None, **options):
        super().__init__(spec, **options)
        self.inp = inp
        self.out = out
        self.history: list[str] = []
        self.unseen: list[str] = []

    # streams are looked up late, so a test (or click's runner) can swap sys.stdin / sys.stdout
    def _say(self, text: str = "") -> None:
        out = self.out or sys.stdout
        out.write(text + "\n")
        out.flush()

    def _ask(self, prompt: str) -> str:
        out = self.out or sys.stdout
        out.write(prompt)
        out.flush()
        line = (self.inp or sys.stdin).readline()
        if not line:
            self._say("")
            raise QuitRequest()            # end of input: the person has gone
        return line.strip()

    def new_game(self, info: GameInfo) -> None:
        super().new_game(info)
        self.history, self.unseen = [], []
        self._say(f"New game of {info.game} ({info.num_players} players, {_options(info.options)}); "
                  f"you are P{info.seat}. Type 'help' for the commands.")

    def observe(self, event) -> None:
        line = f"{len(self.history) + 1:3d}. {event.describe()}"
        self.history.append(line)
        if event.seat != (self.info.seat if self.info else None):
            self.unseen.append(line)

    def resync(self, events) -> None:
        self.history, self.unseen = [], []
        for event in events:
            self.observe(event)
        self.unseen = []

    def end_game(self, result: dict) -> None:
        for line in self.unseen:
            self._say(line)
        self.unseen = []
        seat = self.info.seat
        ranks = result.get("ranks", [])
        self._say(f"Game over ({result.get('reason', 'normal')}): scores {result.get('scores')}, ranks {ranks}; "
                  f"you (P{seat}) finished {_ordinal(ranks[seat]) if seat < len(ranks) else '?'}.")

    def _legal_listing(self, names: list[str]) -> str:
        return "\n".join(f"  {i:3d}. {name}" for i, name in enumerate(names, 1))

    def act(self, view, turn: Turn) -> int:
        seat = turn.seat
        names = [view.action_to_str(a) for a in turn.legal]
        if self.unseen:
            self._say("Since your last move:")
            for line in self.unseen:
                self._say(line)
            self.unseen = []
        self._say(view.render(seat))
        self._say("Legal moves:\n" + self._legal_listing(names))
        clock = f", {turn.time_left:.0f}s left" if turn.time_left is not None else ""
        while True:
            text = self._ask(f"P{seat} to move{clock} > ")
            word = text.lower()
            if not word:
                continue
            if word in ("help", "?"):
                self._say(HELP)
            elif word == "legal":
                self._say(self._legal_listing(names))
            elif word == "show":
                self._say(view.render(seat))
            elif word == "history":
                self._say("\n".join(self.history) or "  (nothing yet)")
            elif word == "hint":
                self._hint(view, turn)
            elif word == "undo":
                if not (self.info and self.info.can_undo):
                    self._say("undo is off in this game (rated play)")
                else:
                    raise UndoRequest()
            elif word == "resign":
                raise BotResigns()
            elif word in ("quit", "exit"):
                raise QuitRequest()
            else:
                action, problem = match_move(text, names, turn.legal, view)
                if action is not None:
                    return action
                self._say(problem)

    def _hint(self, view, turn: Turn) -> None:
        from bots import default_hint_spec, make_bot
        spec = self.options.get("hint", "auto")
        if spec == "auto":
            spec = default_hint_spec(self.options.get("hint_time", 1.0))
        try:
            helper = make_bot(spec)
            helper.new_game(GameInfo(**{**self.info.__dict__, "seed": self.info.seed + 7919 * (turn.move_number + 1)}))
            action = helper.act(view.clone(), Turn(turn.seat, list(turn.legal), turn.move_number))
            shown = [(k, v) for k, v in helper.last_stats.items() if k in ("iterations", "value", "ties")
                     and isinstance(v, (int, float))]
            stats = f" ({', '.join(f'{k}={v:,}' if isinstance(v, int) else f'{k}={v:.3g}' for k, v in shown)})" \
                if shown else ""
            self._say(f"hint from {spec}: {view.action_to_str(action)}{stats}")
        except Exception as e:      # a hint must never end the game
            self._say(f"no hint: {e}")


def match_move(text: str, names: list[str], legal: list[int], view) -> tuple[int | None, str]:
    """The legal action ``text`` names (exact notation, number, unique prefix), or None and the reason."""
    low = text.strip().lower()
    lowered = [n.lower() for n in names]
    if low in lowered:
        return legal[lowered.index(low)], ""
    number = low[1:] if low.startswith("#") else low
    if number.isdigit():
        k = int(number)
        if 1 <= k <= len(legal):
            return legal[k - 1], ""
        return None, f"there is no move number {k}; the moves are numbered 1 to {len(legal)}"
    try:
        action = view.str_to_action(text)
        if action in legal:
            return action, ""
    except Exception:
        pass
    matches = [i for i, n in enumerate(lowered) if n.startswith(low)]
    if len(matches) == 1:
        return legal[matches[0]], ""
    if matches:
        shown = ", ".join(names[i] for i in matches[:8]) + (" ..." if len(matches) > 8 else "")
        return None, f"{text!r} is ambiguous: {shown}"
    return None, f"{text!r} is no legal move here (type 'legal' for the list, 'help' for the commands)"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _options(options: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items() if k != "players") or "default options"

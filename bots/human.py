"""``human``: a person at the terminal (the console).

At the start of each of the person's turns it draws the board from their seat (the game's view,
``arena.console.view``); at each decision it shows the panel of that decision and the numbered moves. What others
do appears as one short line a move, as it happens. A move is typed in the game's notation, as a unique prefix of
it, or as its number (``3`` or ``#3``). A decision with a single legal move plays itself (option ``auto=false``
turns that off). Bad input gets a one-line reason and the prompt again; it never ends the game.
"""
from __future__ import annotations

import time

from rich.markup import escape

from bots.base import Bot, BotResigns, BotTimeout, GameInfo, QuitRequest, Turn, UndoRequest

HELP = [
    ("<move>", "a move in the game's notation, a unique prefix of one, or its number (3 or #3)"),
    ("legal", "list the legal moves, numbered"),
    ("show", "draw the board from your seat"),
    ("legend", "what the symbols and colours of the board mean"),
    ("explain <move>", "what a move does and what it costs"),
    ("preview <move>", "the board as it would be after a move"),
    ("text <name>", "the text of a card, tile, project, hero or wonder ('text' alone lists them)"),
    ("history", "every move you have seen this game"),
    ("hint", "ask the hint bot for a move (it searches from your own view; not in rated games)"),
    ("undo", "take back your last move (not in rated games)"),
    ("resign", "give up this game"),
    ("quit", "stop now; the game is saved and can be resumed (kleos play --resume FILE)"),
    ("help", "this list"),
]


class HumanBot(Bot):
    """A person at the terminal: the board from their seat, numbered moves, legend, explain, hint, undo."""

    name = "human"
    local_only = True             # it talks to a person: chosen on the command line only, never over the protocol
    OPTIONS = {
        "hint": (str, "auto", "bot that answers 'hint' (a bot name; auto: ismcts when available, else greedy)"),
        "hint_time": (float, 1.0, "seconds the hint bot may think"),
        "auto": (bool, True, "a decision with a single legal move plays itself"),
        "confirm": (bool, True, "show a preview and ask before a placement that has one (Pantikapaion tiles)"),
    }

    def __init__(self, spec=None, inp=None, out=None, screen=None, **options):
        super().__init__(spec, **options)
        from arena.console.screen import Screen
        self.screen = screen or Screen(inp, out)
        self.view = None
        self.history: list[str] = []
        self.choices: list[int] = []       # move numbers of the decisions this person chose (undo goes back to them)
        self.board_due = True
        self.used = 0.0                    # seconds this person has spent on decisions this game

    # --- what the referee and the session tell the console ---------------------------------------------------
    def new_game(self, info: GameInfo) -> None:
        super().new_game(info)
        from arena.console.view import load_view
        from engine.registry import load_game
        self.view = load_view(load_game(info.game, **info.options))
        self.history, self.choices, self.board_due, self.used = [], [], True, 0.0
        rated = "" if info.can_undo else "; rated: no hint, no undo"
        name = self.view.seat_name(info.seat)
        seat = "" if name == f"P{info.seat}" else f" (P{info.seat})"
        self.screen.print(f"[bold]{escape(self.view.title())}[/bold], {info.num_players} players; you are "
                          f"[{self.view.seat_style(info.seat)}]{escape(name)}[/]{seat}{rated}. "
                          "Type [bold]help[/bold] for the commands, [bold]legend[/bold] for the symbols.")

    def moved(self, line) -> None:
        """A move was played: the session's line of what changed, from this seat's view (a rich Text)."""
        self.history.append(str(line))
        self.screen.print(line)

    def resync(self, events) -> None:
        self.board_due = True
        self.history.append("(moves taken back)")

    # --- a decision -----------------------------------------------------------------------------------------
    def act(self, view, turn: Turn) -> int:
        seat = turn.seat
        names = [view.action_to_str(a) for a in turn.legal]
        if len(turn.legal) == 1 and self.options.get("auto", True):
            self.screen.print(f"  [dim]only move: {escape(names[0])} (played for you)[/dim]")
            return turn.legal[0]
        if self.board_due or turn.turn_step == 0:
            self.screen.rule(escape(f"{self.view.seat_name(seat)} to play"))
            self.screen.print(self.view.board(view, seat))
            self.board_due = False
        panel = self.view.decision(view, seat, list(turn.legal))
        if panel is not None:
            self.screen.print(panel)
        self.screen.print(escape(self._listing(names)))
        started = time.perf_counter()
        budget = turn.budget()
        deadline = started + budget if budget is not None else None
        while True:
            clock = ""
            if deadline is not None:
                clock = f" [{_clock(deadline - time.perf_counter())}]"
            elif not self.info.can_undo:          # rated without a limit: the clock still shows the time used
                clock = f" [used {_clock(self.used + time.perf_counter() - started)}]"
            prompt = f"[{self.view.seat_style(seat)}]{escape(self.view.seat_name(seat))}[/]{escape(clock)} > "
            text = self._read(prompt, deadline)
            word, _, rest = text.partition(" ")
            word, rest = word.lower(), rest.strip()
            if not word:
                continue
            if word in ("help", "?"):
                self.screen.print("\n".join(f"  [bold]{escape(c):15s}[/bold] {h}" for c, h in HELP))
            elif word == "legal":
                self.screen.print(escape(self._listing(names)))
            elif word == "show":
                self.screen.print(self.view.board(view, seat))
                if panel is not None:
                    self.screen.print(panel)
            elif word == "legend":
                self.screen.print(escape(self.view.legend()))
            elif word in ("explain", "preview") and rest:
                action, problem = match_move(rest, names, turn.legal, view)
                if action is None:
                    self.screen.print(escape(problem))
                elif word == "explain":
                    self.screen.print(escape(self.view.explain(view, seat, action)))
                else:
                    self.screen.print(self.view.preview(view, seat, action)
                                      or escape(self.view.explain(view, seat, action)))
            elif word in ("explain", "preview"):
                self.screen.print(escape(f"{word} which move? e.g. '{word} 1' or '{word} {names[0]}'"))
            elif word in ("text", "card", "texts"):
                self.screen.print(escape(self._text(rest)))
            elif word == "history":
                self.screen.print(escape("\n".join(self.history[-60:]) or "  (nothing yet)"))
            elif word == "hint":
                if not self.info.can_undo:
                    self.screen.print("no hints in a rated game")
                else:
                    self._hint(view, turn)
            elif word == "undo":
                if not self.info.can_undo:
                    self.screen.print("undo is off in this game (rated play)")
                    continue
                earlier = [m for m in self.choices if m < turn.move_number]
                if not earlier:
                    self.screen.print("nothing to undo: you have not made a move yet")
                    continue
                self.choices = earlier[:-1]
                self.screen.print("  taking back your last move...")
                raise UndoRequest(earlier[-1])
            elif word == "resign":
                raise BotResigns()
            elif word in ("quit", "exit"):
                raise QuitRequest()
            else:
                action, problem = match_move(text, names, turn.legal, view)
                if action is None:
                    self.screen.print(escape(problem))
                    continue
                if self.options.get("confirm", True) and not self._confirmed(view, seat, action, deadline):
                    continue
                self.choices.append(turn.move_number)
                self.used += time.perf_counter() - started
                return action

    def _read(self, prompt: str, deadline: float | None) -> str:
        from arena.console.screen import InputTimeout
        try:
            return self.screen.ask(prompt, deadline, warn=lambda s: self.screen.print(
                f"\n  [bold red]{s} seconds left[/bold red]"))
        except InputTimeout:
            self.screen.print("[bold red]your time ran out[/bold red]")
            raise BotTimeout("the person's time ran out") from None
        except EOFError:
            self.screen.print("")
            raise QuitRequest() from None       # end of input: the person has gone

    def _confirmed(self, view, seat: int, action: int, deadline) -> bool:
        shown = self.view.preview(view, seat, action)
        if shown is None:
            return True
        self.screen.print(shown)
        answer = self._read("play it? [Y/n] > ", deadline).lower()
        return answer in ("", "y", "yes")

    def _listing(self, names: list[str]) -> str:
        width = max(len(n) for n in names) + 6
        per_line = max(1, (self.screen.width - 2) // width)
        rows = []
        for i in range(0, len(names), per_line):
            rows.append("  " + "".join(f"{k:3d}. {n}".ljust(width) for k, n in enumerate(names[i:i + per_line], i + 1))
                        .rstrip())
        return "\n".join(rows)

    def _text(self, name: str) -> str:
        texts = self.view.texts()
        if not texts:
            return "this game has no card texts"
        if not name:
            return "texts: " + ", ".join(sorted(texts))
        low = name.lower()
        hits = [k for k in texts if k.lower() == low] or [k for k in texts if k.lower().startswith(low)]
        if len(hits) == 1:
            return f"{hits[0]}: {texts[hits[0]]}"
        if hits:
            return f"{name!r} could be: {', '.join(sorted(hits)[:12])}"
        return f"no text named {name!r}; 'text' alone lists them"

    def _hint(self, view, turn: Turn) -> None:
        from bots import default_hint_spec, make_bot
        spec = self.options.get("hint", "auto")
        if spec == "auto":
            spec = default_hint_spec(self.options.get("hint_time", 1.0))
        try:
            helper = make_bot(spec)
            helper.new_game(GameInfo(**{**self.info.__dict__, "seed": self.info.seed + 7919 * (turn.move_number + 1)}))
            self.screen.status(f"hint: {spec} is thinking...")
            action = helper.act(view.clone(), Turn(turn.seat, list(turn.legal), turn.move_number))
            helper.close()
            shown = [(k, v) for k, v in helper.last_stats.items() if k in ("iterations", "value")
                     and isinstance(v, (int, float))]
            stats = f" ({', '.join(f'{k} {v:,}' if isinstance(v, int) else f'{k} {v:.3g}' for k, v in shown)})" \
                if shown else ""
            self.screen.print(f"hint from {escape(spec)}: [bold]{escape(view.action_to_str(action))}[/bold]{stats}")
        except Exception as e:      # a hint must never end the game
            self.screen.print(escape(f"no hint: {e}"))


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
        return None, f"'{text}' is ambiguous: {shown}"
    return None, f"'{text}' is no legal move here (type 'legal' for the list, 'help' for the commands)"


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"

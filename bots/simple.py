"""The two baseline bots: ``random`` (uniform over the legal moves) and ``greedy`` (best ``evaluate()`` one move on)."""
from __future__ import annotations

from bots.base import BadBotSpecError, Bot, GameInfo, Turn
from engine.rng import RNG


class RandomBot(Bot):
    """Plays a uniformly random legal move (seeded: the same game seed gives the same moves)."""

    name = "random"
    OPTIONS = {"seed": (int, None, "fixed seed (default: from the game seed and seat)")}

    def new_game(self, info: GameInfo) -> None:
        super().new_game(info)
        self.rng = RNG(self.options.get("seed", info.seed))

    def act(self, view, turn: Turn) -> int:
        return self.rng.choice(turn.legal)


class GreedyBot(Bot):
    """Plays the move whose resulting position the game's ``evaluate()`` likes best for this seat.

    It looks one decision ahead on its own view (so never at hidden cards); ties are broken at random. With
    ``follow=N`` it values a move by the line it starts: after the move it keeps taking its own best one-decision
    move, up to N more, while it is still the one to decide. That is for games that split one move into several
    decisions (choose an action, then where, then how much): the first decision alone changes nothing that
    ``evaluate()`` can see. A chance event on the line is valued as the average over its outcomes.
    """

    name = "greedy"
    OPTIONS = {"seed": (int, None, "fixed seed for tie-breaking (default: from the game seed and seat)"),
               "follow": (int, 0, "after each move, follow up to N more of the bot's own decisions greedily and "
                                  "value the line's end (0: one decision)")}

    def __init__(self, spec: str | None = None, **options):
        super().__init__(spec, **options)
        self.follow = options.get("follow", 0)
        if self.follow < 0:
            raise BadBotSpecError(f"greedy: follow must be 0 or more, got {self.follow}")

    def new_game(self, info: GameInfo) -> None:
        super().new_game(info)
        self.rng = RNG(self.options.get("seed", info.seed))

    def act(self, view, turn: Turn) -> int:
        best, best_value = [], -1.0
        for action in turn.legal:
            child = view.clone()
            child.apply(action)
            value = self._line_value(child, turn.seat, self.follow)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        self.last_stats = {"value": round(best_value, 4), "ties": len(best)}
        return self.rng.choice(best)

    def _line_value(self, state, seat: int, follow: int) -> float:
        """The seat's evaluation where its greedy line from ``state`` ends (``follow`` more own decisions)."""
        for _ in range(follow):
            if state.is_terminal():
                break
            if state.is_chance_node():
                return sum(p * _evaluated(state, a)[seat] for a, p in state.chance_outcomes())
            if state.current_player() != seat:
                break
            best, best_value = None, -1.0
            for action in state.legal_actions():
                value = _evaluated(state, action)[seat]
                if value > best_value + 1e-12:      # first best: the line is one line, not a random one
                    best, best_value = action, value
            state.apply(best)
        return state.evaluate()[seat]


def _evaluated(state, action):
    child = state.clone()
    child.apply(action)
    return child.evaluate()

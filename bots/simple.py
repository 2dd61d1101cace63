"""The two baseline bots: ``random`` (uniform over the legal moves) and ``greedy`` (best ``evaluate()`` one move on)."""
from __future__ import annotations

from bots.base import Bot, GameInfo, Turn
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

    It looks one decision ahead on its own view (so never at hidden cards); ties are broken at random.
    """

    name = "greedy"
    OPTIONS = {"seed": (int, None, "fixed seed for tie-breaking (default: from the game seed and seat)")}

    def new_game(self, info: GameInfo) -> None:
        super().new_game(info)
        self.rng = RNG(self.options.get("seed", info.seed))

    def act(self, view, turn: Turn) -> int:
        best, best_value = [], -1.0
        for action in turn.legal:
            child = view.clone()
            child.apply(action)
            value = child.evaluate()[turn.seat]
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        self.last_stats = {"value": round(best_value, 4), "ties": len(best)}
        return self.rng.choice(best)

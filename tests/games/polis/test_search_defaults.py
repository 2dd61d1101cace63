"""Polis's tuned search defaults (GameSpec.search_defaults: a cut-off scored by evaluate()) and no peeking: the
bots decide from the mover's information set only, so two positions that differ only in the opponent's battle hand
(spec 7.2 H1) get the same decision, searched the same way."""
import pytest

from bots import make_bot
from bots.base import GameInfo, Turn
from engine.registry import game_spec
from search import make_searcher

from .helpers import battle

SPARTA = ["A2", "C1", "D0", "D0"]


def _attack(athens_hand):
    """Sparta to play its first pair in Boeotia; Athens's hand is hidden from Sparta."""
    return battle("Boeotia", 4, 4, {"sparta": SPARTA, "athens": athens_hand}, "sparta")


A, B = _attack(["M0", "B1", "A1", "C0"]), _attack(["A1", "A1", "A2", "S-1"])


def test_the_two_positions_are_one_information_set_for_sparta():
    assert A.info_key(1) == B.info_key(1) and A.observation(1) == B.observation(1)
    assert A.info_key(0) != B.info_key(0)


def test_polis_search_defaults_cut_rollouts_and_score_with_evaluate():
    defaults = game_spec("polis").search_defaults
    assert defaults.get("depth", 0) > 0
    bot = make_bot("ismcts:iterations=20")
    bot.new_game(GameInfo("polis", {"players": 2}, 2, 1, 1))
    assert all(bot.game_options[k] == v for k, v in defaults.items())
    bot.close()


@pytest.mark.parametrize("spec", ["ismcts:iterations=600", "pimc:iterations=600,determinizations=3",
                                  "greedy:follow=8"])
def test_the_decision_ignores_the_opponents_hidden_hand(spec):
    """With the game's defaults filled in (the cut-off and evaluate() of a determinized state), the whole decision
    is the same in both positions: the same move and, for the searchers, the same visit counts."""
    stats, moves = [], []
    for position in (A, B):
        bot = make_bot(spec)
        bot.new_game(GameInfo("polis", {"players": 2}, 2, 1, 4))
        legal = position.legal_actions()
        moves.append(bot.act(position.clone(), Turn(1, legal, 9)))       # the true state: nothing hidden is resampled here
        stats.append(bot.last_stats)
        bot.close()
    assert moves[0] == moves[1]
    assert stats[0].get("visits") == stats[1].get("visits")
    assert stats[0].get("value") == stats[1].get("value")


def test_the_control_an_oracle_search_does_see_the_hand():
    """The same search on the true states (MCTS sees everything) does differ, so the test above can fail."""
    defaults = game_spec("polis").search_defaults
    a = make_searcher("mcts", seed=4, iterations=600, **defaults).search(A)
    b = make_searcher("mcts", seed=4, iterations=600, **defaults).search(B)
    assert a.stats["visits"] != b.stats["visits"]

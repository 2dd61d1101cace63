"""The search bots' ``pace=last`` (their default): a turn's time=T shared as ``even`` shares it, except that a
decision after which the turn surely ends gets all that is left of the turn (bots/base.py TurnPace; docs/play.md)."""
import pytest

from arena.referee import play_game
from bots import make_bot
from bots.base import GameInfo, Turn, TurnPace
from engine.core import turn_ends
from engine.records import verify
from tests.unit.test_turn_ends import real_decisions


def test_the_last_rule_hands_a_turn_ending_decision_all_that_is_left():
    for rule in ("even", "last"):
        pace = TurnPace(rule)
        turn = Turn(0, [0, 1], 0, turn_step=0, turn_used=0.0)
        pace.start(turn)
        pace.decided()
        assert pace.decisions_left(last=False) == pytest.approx(3.0)       # the prior: about 3 decisions a turn
        assert pace.share(1.0, turn, last=False) == pytest.approx(1 / 3)
        # only the last rule heeds the news that this decision ends the turn
        assert pace.decisions_left(last=True) == (1.0 if rule == "last" else pytest.approx(3.0))
        assert pace.share(1.0, turn, last=True) == pytest.approx(1.0 if rule == "last" else 1 / 3)
    later = Turn(0, [0, 1], 5, turn_step=1, turn_used=0.4)
    assert TurnPace("last").share(1.0, later, last=True) == pytest.approx(0.6)   # what the turn has left, no more
    assert TurnPace("front").ends_turn(None) is False and TurnPace("even").ends_turn(None) is False


def _searched_seconds(spec, game, options, state, turn_used=0.0, total=None):
    """The seconds the bot's searcher was given for its decision at ``state``."""
    me = state.current_player()
    bot = make_bot(spec)
    bot.new_game(GameInfo(game, dict(options), options["players"], me, 1))
    bot.act(state.clone(), Turn(me, state.legal_actions(), 0, turn_step=0, turn_used=turn_used))
    seconds = bot._game_searcher.options["time"]
    bot.close()
    return seconds


def test_a_search_bot_spends_the_whole_turn_only_where_the_turn_surely_ends():
    goofspiel = {"players": 2}
    bid = real_decisions("goofspiel", 2, 3)[0]                 # a bid always hands the move on
    assert _searched_seconds("ismcts:time=0.03,pace=last", "goofspiel", goofspiel, bid) == pytest.approx(0.03)
    assert _searched_seconds("ismcts:time=0.03", "goofspiel", goofspiel, bid) == pytest.approx(0.03)  # the default
    assert _searched_seconds("ismcts:time=0.03,pace=even", "goofspiel", goofspiel, bid) == pytest.approx(0.01)
    polis = {"players": 2}
    goes_on = next(s for s in real_decisions("polis", 2, 3) if turn_ends(s) is False)
    # Polis keeps the even share where some move lets the seat decide again (spec: an action's several choices)
    assert _searched_seconds("ismcts:time=0.03,pace=last", "polis", polis, goes_on) == pytest.approx(0.01)
    ends = next(s for s in real_decisions("polis", 2, 3) if TurnPace("last", 1).ends_turn(s))
    assert _searched_seconds("kleos:time=0.03,pace=last", "polis", polis, ends) == pytest.approx(0.03)


def test_games_with_pace_last_are_refereed_and_replay():
    record = play_game("polis", {"players": 2}, ["kleos:time=0.02,pace=last", "ismcts:time=0.02"], 4)
    verify(record)
    assert record.bots[0] == "kleos:time=0.02,pace=last"


def test_without_a_budget_of_its_own_the_bot_hands_the_referees_turn_left_to_a_turn_ending_decision():
    """No iterations, time or calls: the bot thinks for Turn.suggested_time(), 80% of what the referee's turn limit
    has left shared among the decisions it expects; a bid that ends the turn expects no more after it."""
    bid = real_decisions("goofspiel", 2, 3)[0]
    for pace, expected in (("last", 0.8 * 0.8), ("even", 0.8 * 0.8 / 3)):
        bot = make_bot(f"ismcts:pace={pace}")
        bot.new_game(GameInfo("goofspiel", {"players": 2}, 2, 0, 1))
        bot.act(bid.clone(), Turn(0, bid.legal_actions(), 0, movetime=0.1, turn_used=0.02))
        assert bot._game_searcher.options["time"] == pytest.approx(expected / 10), pace
        bot.close()

"""Bots: spec strings, the baseline bots, the search bots, and that no bot is shown the true state."""
import pytest

from arena.referee import Referee, play_game
from bots import BOTS, BadBotSpecError, Bot, describe_bots, make_bot
from bots.base import Turn
from bots.spec import parse_spec
from engine.records import replay, verify
from engine.registry import load_game


def test_parse_spec():
    assert parse_spec("random") == ("random", {})
    assert parse_spec(" ISMCTS:time=1.0, c=0.7 ") == ("ismcts", {"time": "1.0", "c": "0.7"})
    assert parse_spec("cmd:python x.py --a=1,2") == ("cmd", {"command": "python x.py --a=1,2"})
    for bad in ("", "mcts:iterations", "mcts:c=1,c=2", "cmd:"):
        with pytest.raises(BadBotSpecError):
            parse_spec(bad)


def test_unknown_bot_and_option_errors_list_what_exists():
    with pytest.raises(BadBotSpecError) as e:
        make_bot("alphazero")
    assert all(name in str(e.value) for name in BOTS)
    with pytest.raises(BadBotSpecError) as e:
        make_bot("random:depth=3")
    assert "unknown option 'depth'" in str(e.value) and "seed" in str(e.value)
    with pytest.raises(BadBotSpecError) as e:
        make_bot("ismcts:speed=3")
    assert "speed" in str(e.value) and "iterations" in str(e.value)
    with pytest.raises(BadBotSpecError) as e:
        make_bot("mcts:iterations=-5")
    assert "iterations" in str(e.value)
    with pytest.raises(BadBotSpecError):
        make_bot("random:seed=abc")
    assert len(describe_bots()) == len(BOTS)


@pytest.mark.parametrize("spec", ["ismcts:rollout=maybe", "pimc:iterations=0", "ismcts:chance_leaf=later"])
def test_a_search_bot_error_names_the_searcher_once(spec):
    """The searchers name themselves in their errors; the bot does not add the name again ("ismcts: ismcts: ...")."""
    kind = spec.split(":")[0]
    with pytest.raises(BadBotSpecError) as e:
        make_bot(spec)
    assert str(e.value).startswith(f"{kind}: ") and str(e.value).count(f"{kind}:") == 1, str(e.value)


def test_random_bot_is_reproducible_from_the_game_seed():
    a = play_game("goofspiel", {"players": 3, "cards": 6}, ["random"] * 3, 11)
    b = play_game("goofspiel", {"players": 3, "cards": 6}, ["random"] * 3, 11)
    assert a.actions == b.actions


def test_greedy_plays_a_best_evaluated_move():
    state = load_game("goofspiel", players=2, cards=6).new_initial_state()
    state.apply(5)                       # the 6 is up
    state.apply(0)                       # P0 bid 1
    bot = make_bot("greedy")
    from bots.base import GameInfo
    bot.new_game(GameInfo("goofspiel", {"players": 2, "cards": 6}, 2, 1, 0))
    legal = state.legal_actions()
    values = {}
    for a in legal:
        child = state.clone()
        child.apply(a)
        values[a] = child.evaluate()[1]
    choice = bot.act(state.clone(), Turn(1, legal, 2))
    assert values[choice] == max(values.values())


def test_greedy_follow_values_the_line_a_move_starts():
    """In Polis an action is several decisions: choosing `trade` changes nothing evaluate() sees, so one-decision
    greedy ties every first move but `pass` (Sparta starts unfed, and after a pass it can no longer fetch wheat:
    the projected death weighs in full, not `food_open` times); with follow=8 it values each by its own greedy line
    and picks a line that gains."""
    from bots.base import GameInfo
    from games.polis.helpers import fresh
    state = fresh()                                    # Sparta to choose its first action
    legal = state.legal_actions()
    plain, follow = make_bot("greedy"), make_bot("greedy:follow=8")
    for bot in (plain, follow):
        bot.new_game(GameInfo("polis", {"players": 2}, 2, 1, 3))
    plain.act(state.clone(), Turn(1, legal, 1))
    assert plain.last_stats["ties"] == len(legal) - 1  # one decision on: all alike but pass
    passed = state.clone()
    passed.apply("pass")
    assert passed.evaluate()[1] < plain.last_stats["value"]
    choice = follow.act(state.clone(), Turn(1, legal, 1))
    assert follow.last_stats["ties"] < len(legal)
    assert follow.last_stats["value"] > state.evaluate()[1] + 0.01
    line = state.clone()
    line.apply(choice)
    assert follow.last_stats["value"] == pytest.approx(follow._line_value(line, 1, 8), abs=1e-4)
    with pytest.raises(BadBotSpecError):
        make_bot("greedy:follow=-1")


@pytest.mark.parametrize("spec", ["mcts:iterations=40", "pimc:iterations=40,determinizations=4",
                                  "ismcts:iterations=40", "ismcts:time=0.01,rollout=heuristic",
                                  "mcts:iterations=30,oracle=true"])
def test_search_bots_play_whole_games(spec):
    record = play_game("goofspiel", {"players": 3, "cards": 5}, [spec, "random", "greedy"], 4)
    assert record.result["reason"] == "normal"
    verify(record)
    assert make_bot(spec).oracle == ("oracle=true" in spec)


def test_ismcts_beats_random_clearly():
    wins = 0
    for seed in range(8):
        for seats in (["ismcts:iterations=300", "random"], ["random", "ismcts:iterations=300"]):
            r = play_game("goofspiel", {"players": 2, "cards": 8}, seats, seed)
            wins += r.result["returns"][seats.index("ismcts:iterations=300")]
    assert wins >= 11, f"ismcts scored only {wins}/16 against random"


class Spy(Bot):
    """Keeps every view it is handed."""

    name = "spy"

    def __init__(self, oracle=False):
        super().__init__("spy")
        self.oracle = oracle
        self.views = []

    def act(self, view, turn):
        self.views.append((turn.move_number, view.to_json(), view.info_key(turn.seat)))
        return turn.legal[0]


@pytest.mark.parametrize("players", [2, 4])
def test_a_bot_sees_its_information_set_never_the_hidden_bids(players):
    """The view keeps the bot's info_key, and other seats' face-down bids in it are samples, not the truth."""
    guesses = matches = 0
    for seed in range(8):
        spy = Spy()
        bots = [make_bot("random") for _ in range(players - 1)] + [spy]
        record = Referee("goofspiel", {"players": players, "cards": 8}, bots, seed).play()
        states = list(replay(record))
        me = players - 1
        for move, view, key in spy.views:
            truth = states[move]
            assert key == truth.info_key(me)
            true_bids = truth.to_json()["bids"]
            for p in range(players - 1):
                if true_bids[p] is not None:
                    guesses += 1
                    matches += view["bids"][p] == true_bids[p]
    assert guesses > 40
    assert matches < 0.6 * guesses, f"views match the hidden bids {matches}/{guesses} times"


def test_an_oracle_sees_the_true_state():
    spy = Spy(oracle=True)
    record = Referee("goofspiel", {"players": 2, "cards": 6}, [make_bot("random"), spy], 3).play()
    states = list(replay(record))
    assert all(view == states[move].to_json() for move, view, _ in spy.views)


def test_search_bot_without_a_budget_keeps_to_the_referee_clock():
    from arena.referee import Policies
    record = play_game("goofspiel", {"players": 2, "cards": 4}, ["ismcts", "random"], 1,
                       Policies(movetime=0.15, grace=0.2))
    assert record.result["reason"] == "normal"
    mine = [t for t, p in zip(record.times, record.players) if p == 0]
    assert 0.05 < max(mine) < 0.35, mine            # it used its time (80% of 0.15 s), and no more


def test_a_game_tuned_search_default_fills_only_what_the_spec_left_out():
    """GameSpec.search_defaults: Mare Nostrum's search bots cut rollouts at 300 actions and Polis's at 24
    (docs/strength.md) unless the spec says otherwise; "depth=none" turns the cut-off off."""
    from bots.base import GameInfo
    from engine.registry import game_spec
    assert game_spec("mare_nostrum").search_defaults == {"depth": 300}
    seen = {}
    for spec in ("ismcts:iterations=20", "pimc:iterations=20", "ismcts:iterations=20,depth=40",
                 "ismcts:iterations=20,depth=none"):
        for game, n in (("mare_nostrum", 3), ("polis", 2)):
            bot = make_bot(spec)
            bot.new_game(GameInfo(game, {"players": n}, n, 0, 1))
            seen[spec, game] = bot.game_options.get("depth")
            bot.close()
    assert seen == {("ismcts:iterations=20", "mare_nostrum"): 300, ("ismcts:iterations=20", "polis"): 24,
                    ("pimc:iterations=20", "mare_nostrum"): 300, ("pimc:iterations=20", "polis"): 24,
                    ("ismcts:iterations=20,depth=40", "mare_nostrum"): 40,
                    ("ismcts:iterations=20,depth=40", "polis"): 40,
                    ("ismcts:iterations=20,depth=none", "mare_nostrum"): None,
                    ("ismcts:iterations=20,depth=none", "polis"): None}
    # and the tuned bot plays refereed Mare Nostrum games like any other
    record = play_game("mare_nostrum", {"players": 3, "max_rounds": 2}, ["ismcts:iterations=20", "random", "random"],
                       5)
    verify(record)
    assert record.result["reason"] == "normal"

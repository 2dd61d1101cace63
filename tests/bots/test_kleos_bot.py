"""The `kleos` bot: each game's strongest measured configuration (GameSpec.kleos_bot), game-agnostic code, a search
bot like the others (budget, time a turn, seeds, no peeking), fielded by `kleos play`, `bots`, `tournament`,
`strength` and `engine`."""
import pytest

from arena.referee import play_game
from bots import BadBotSpecError, describe_bots, make_bot
from bots.base import GameInfo, Turn
from bots.kleos import kleos_configuration, kleos_spec
from bots.searchbot import SearchBot
from engine.records import verify
from engine.registry import game_spec, list_games, load_game
from engine.rng import RNG

SMALL = {"goofspiel": {"players": 2, "cards": 5}, "mare_nostrum": {"players": 3, "max_rounds": 1}}
NO_PEEK_OPTIONS = {"goofspiel": {"players": 2, "cards": 8}, "mare_nostrum": {"players": 3}}


@pytest.fixture
def declare(redeclare_game):
    """Let a registered game declare another kleos_bot for one test."""
    return lambda game, spec: redeclare_game(game, kleos_bot=spec)


def _first_decision(game_name: str, options: dict, seed: int = 3):
    state = load_game(game_name, **options).new_initial_state()
    rng = RNG(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply(outcomes[rng.next_u64() % len(outcomes)][0])
    return state


def _decision_in_a_turn(game_name: str, options: dict, seed: int = 3, limit: int = 400):
    """The first decision, along a seeded random game, whose mover has a move after which it decides again at once
    (the first decision if none comes within `limit` actions)."""
    state = _first_decision(game_name, options, seed)
    first, rng = state.clone(), RNG(seed)
    for _ in range(limit):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.next_u64() % len(outcomes)][0])
            continue
        me, legal = state.current_player(), state.legal_actions()
        for action in legal:
            after = state.clone()
            after.apply(action)
            if len(legal) > 1 and not after.is_terminal() and after.current_player() == me:
                return state
        state.apply(legal[rng.next_u64() % len(legal)])
    return first


def test_kleos_is_listed_first_and_is_a_search_bot():
    assert describe_bots()[0].startswith("kleos ")
    bot = make_bot("kleos:iterations=30,c=0.5")
    assert isinstance(bot, SearchBot) and bot.own_options == {"iterations": 30, "c": 0.5}
    bot.close()


@pytest.mark.parametrize("game", list_games())
def test_every_game_declares_a_usable_configuration_and_the_bot_plays_it(game):
    for players in (None, *game_spec(game).kleos_bot_players):   # its kleos_bot, then each count's own
        kind, options = kleos_configuration(game, players)         # a searcher, no budget, every option valid
        assert kind in ("mcts", "pimc", "ismcts") and not set(options) & {"iterations", "time", "calls"}
        if game_spec(game).has_hidden_information:
            assert kind != "mcts", "plain MCTS searches one determinization as if it were the truth"
    n = SMALL.get(game, {}).get("players", game_spec(game).default_players or game_spec(game).min_players)
    kind, options = kleos_configuration(game, n)
    bot = make_bot("kleos:iterations=20")
    bot.new_game(GameInfo(game, {"players": n}, n, 0, 1))
    assert bot.kind == kind and all(bot.game_options[k] == v for k, v in options.items())
    assert bot.game_options["iterations"] == 20
    bot.close()


def test_the_bot_plays_the_declared_searcher_with_its_own_options_over_it(declare):
    declare("goofspiel", "pimc:determinizations=3,c=1.1")
    bot = make_bot("kleos:iterations=40,c=0.3,seed=9")
    bot.new_game(GameInfo("goofspiel", {"players": 2}, 2, 0, 1))
    assert bot.kind == "pimc" and type(bot._game_searcher).__name__ == "PIMC"
    assert bot._game_searcher.options["determinizations"] == 3
    assert bot._game_searcher.options["c"] == 0.3 and bot._game_searcher.options["seed"] == 9    # its own wins
    assert kleos_spec("goofspiel", "kleos:iterations=40,c=0.3,seed=9") == \
        "pimc:determinizations=3,c=0.3,iterations=40,seed=9"
    bot.close()


def test_a_player_count_may_declare_its_own_configuration(redeclare_game):
    """GameSpec.kleos_bot_players: the count named plays its own spec, every other count the game's kleos_bot."""
    redeclare_game("goofspiel", kleos_bot="ismcts:c=0.9", kleos_bot_players={3: "pimc:determinizations=2"})
    assert kleos_configuration("goofspiel", 3) == ("pimc", {"determinizations": 2})
    assert kleos_configuration("goofspiel", 2) == ("ismcts", {"c": 0.9}) == kleos_configuration("goofspiel")
    assert kleos_spec("goofspiel", "kleos:iterations=10", 3) == "pimc:determinizations=2,iterations=10"
    bot = make_bot("kleos:iterations=20")
    for players, kind in ((3, "pimc"), (2, "ismcts"), (3, "pimc")):           # one bot, games of either count
        bot.new_game(GameInfo("goofspiel", {"players": players, "cards": 5}, players, 0, 1))
        assert bot.kind == kind and type(bot._game_searcher).__name__ == kind.upper()
    bot.close()
    redeclare_game("goofspiel", kleos_bot_players={3: "ismcts:iterations=5"})
    with pytest.raises(BadBotSpecError, match=r"goofspiel \(3 players\) declares .*budget"):
        make_bot("kleos:iterations=5").new_game(GameInfo("goofspiel", {"players": 3}, 3, 0, 1))


def test_the_game_search_defaults_apply_and_its_own_options_override_them(declare):
    declare("mare_nostrum", "ismcts:c=0.5")
    bot = make_bot("kleos:iterations=20")
    bot.new_game(GameInfo("mare_nostrum", {"players": 3}, 3, 0, 1))
    assert bot.game_options["depth"] == game_spec("mare_nostrum").search_defaults["depth"]
    assert bot.game_options["c"] == 0.5
    bot = make_bot("kleos:iterations=20,depth=none")
    bot.new_game(GameInfo("mare_nostrum", {"players": 3}, 3, 0, 1))
    assert bot.game_options["depth"] is None


def test_it_decides_as_the_spec_it_resolves_to():
    """kleos:OPTIONS in a game is exactly the searcher spec kleos_spec() names (same seed, same move)."""
    for game, options in (("polis", {"players": 2}), ("goofspiel", {"players": 3, "cards": 6})):
        state = _first_decision(game, options)
        me = state.current_player()
        view = state.determinize(me, RNG(5))
        moves = []
        for spec in ("kleos:iterations=200,seed=4", kleos_spec(game, "kleos:iterations=200,seed=4")):
            bot = make_bot(spec)
            bot.new_game(GameInfo(game, dict(options), options["players"], me, 1))
            moves.append(bot.act(view, Turn(me, state.legal_actions(), 0)))
            bot.close()
        assert moves[0] == moves[1]


def _declarations():
    """Every configuration a game declares: its kleos_bot, then each player count's own, as (game, options)."""
    for game in list_games():
        yield game, game_spec(game).resolve(NO_PEEK_OPTIONS.get(game, {}))   # every option, the defaults filled in
        for players in game_spec(game).kleos_bot_players:
            yield game, game_spec(game).resolve({"players": players})


def test_no_peeking_the_decision_is_the_same_from_any_state_of_the_seat_information_set():
    """Each world decides twice where the seat moves again at once (a turn of several decisions), so whatever the
    bot keeps between its decisions (a kept tree, carried averages) is covered too."""
    for game, options in _declarations():                     # every configuration a registered game declares
        kind, declared = kleos_configuration(game, options["players"])
        state = _decision_in_a_turn(game, options)
        me = state.current_player()
        worlds = [state.determinize(me, RNG(seed)) for seed in (1, 2, 3)]
        lines = set()
        for world in worlds:
            bot = make_bot("kleos:iterations=60,seed=2")
            bot.new_game(GameInfo(game, dict(options), options["players"], me, 1))
            assert bot.kind == kind
            line = []
            for _ in range(2):
                line.append(bot.act(world, Turn(me, world.legal_actions(), 0)))
                world.apply(line[-1])
                if world.is_terminal() or world.current_player() != me:
                    break
            if declared.get("reuse") == "yes" and len(line) == 2:
                assert bot.last_stats["reused_visits"] > 0     # the kept tree was really used, and is covered
            lines.add(tuple(line))
            bot.close()
        assert len(lines) == 1, f"{game}, {options['players']} players: the kleos bot's moves depend on hidden state"


def test_bad_options_and_bad_declarations_are_clear_errors(declare):
    with pytest.raises(BadBotSpecError, match="unknown option 'determinizations'"):
        make_bot("kleos:determinizations=3")           # only the options every searcher has
    with pytest.raises(BadBotSpecError, match="oracle"):
        make_bot("kleos:oracle=true")
    with pytest.raises(BadBotSpecError, match="iterations"):
        make_bot("kleos:iterations=0")
    for spec, problem in (("ismcts:time=2", "budget"), ("greedy", "not a searcher"),
                          ("ismcts:keys=banana", "keys"), ("ismcts:c", "name=value")):
        declare("goofspiel", spec)
        bot = make_bot("kleos:iterations=5")
        with pytest.raises(BadBotSpecError, match=problem):
            bot.new_game(GameInfo("goofspiel", {"players": 2}, 2, 0, 1))


def test_refereed_games_and_the_engine_protocol():
    record = play_game("goofspiel", {"players": 2, "cards": 5}, ["kleos:iterations=50", "random"], 2)
    verify(record)
    # the protocol engine serves it (and serves it by default: `kleos engine` without --bot)
    from arena.engine import EngineSession
    from bots import default_hint_spec
    from bots.protocol import obs_payload
    assert default_hint_spec(1.0) == "kleos:time=1"
    session = EngineSession("kleos:iterations=50")
    assert session.handle("1 newgame goofspiel players=2 seat=0 cards=5").startswith("=1")
    state = load_game("goofspiel", players=2, cards=5).new_initial_state()
    state.apply(state.chance_outcomes()[0][0])
    assert session.handle(f"2 obs 1 {obs_payload(state, 0, state.determinize(0, RNG(2)))}").startswith("=2")
    assert "=3 bid:" in session.handle("3 go 1")


def test_time_is_for_a_whole_turn():
    """kleos:time=T shares T among the decisions of a turn, as the other search bots do (bots/searchbot.py)."""
    state = _decision_in_a_turn("polis", {"players": 2})   # some move lets the seat decide again at once
    me = state.current_player()
    bot = make_bot("kleos:time=0.4")
    bot.new_game(GameInfo("polis", {"players": 2}, 2, me, 1))
    view = state.determinize(me, RNG(1))
    bot.pace.sizes = [4]                              # an earlier turn took 4 decisions
    bot.act(view, Turn(me, state.legal_actions(), 0))
    assert bot._game_searcher.options["time"] < 0.4 / 2    # a share of the turn's 0.4 s, not all of it
    bot.close()


@pytest.mark.parametrize("spec", ["kleos:time=0.6", "ismcts:time=0.6"])
def test_the_first_decision_of_a_turn_gets_its_share_by_the_pace(spec):
    """With no turn seen yet a turn is expected to take 3 decisions: the first gets a third of time=T (pace=even),
    half of it under pace=front (the earlier rule); a goofspiel bid always ends the turn, so under pace=last (the
    default) it gets the whole of time=T."""
    state = _first_decision("goofspiel", {"players": 2, "cards": 6})
    view = state.determinize(0, RNG(1))
    for pace, share in (("", 0.6), (",pace=last", 0.6), (",pace=even", 0.2), (",pace=front", 0.3)):
        bot = make_bot(spec + pace)
        bot.new_game(GameInfo("goofspiel", {"players": 2}, 2, 0, 1))
        bot.act(view, Turn(0, state.legal_actions(), 0))
        assert bot._game_searcher.options["time"] == pytest.approx(share), pace
        bot.close()


@pytest.mark.parametrize("spec", ["kleos:pace=late", "ismcts:pace=late", "mcts:pace=late"])
def test_a_bad_pace_is_refused_by_name(spec):
    with pytest.raises(BadBotSpecError, match="pace='late' is not one of even, front, last"):
        make_bot(spec)


def test_kleos_analyse_searches_the_resolved_configuration():
    from arena.analyse import run_analysis
    out = run_analysis("mare_nostrum", {"players": 3}, "kleos:iterations=60", plies=30)
    assert out["bot"] == "kleos:iterations=60"
    assert sum(c["visits"] for c in out["candidates"]) == 60
    assert "depth=300" in out["searcher"]           # the game's search_defaults, as the bot plays it

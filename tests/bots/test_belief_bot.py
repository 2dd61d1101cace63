"""The search bots with belief=particles: the filter follows the refereed game's events for the bot's seat (observe,
resync, a new game), reports its effective sample size and refills, refills when the bot joins mid-game, and the
decisions depend on the seat's information only (docs/search.md, "Belief from the opponents' moves")."""
import pytest

from arena.referee import Referee
from arena.replay import replay, verify
from bots import make_bot
from bots.base import Event, GameInfo, Turn
from engine.registry import load_game
from engine.rng import RNG

SPEC = "ismcts:iterations=60,belief=particles,particles=32,seed=3"


class Recorder:
    """Wraps a bot: keeps the stats it reported at each real decision."""

    def __init__(self, bot):
        self.bot, self.stats = bot, []

    def __getattr__(self, name):
        return getattr(self.bot, name)

    def act(self, view, turn):
        action = self.bot.act(view, turn)
        if not self.bot.last_stats.get("forced"):
            self.stats.append(dict(self.bot.last_stats))
        return action


def _events_for(history, seat):
    """The Events the referee gives `seat` for the (state before, action) pairs of a game."""
    out = []
    for i, (before, action) in enumerate(history):
        mover = before.current_player()
        seen = before.action_observation(action, seat)
        kind = "chance" if mover < 0 else "move"
        out.append(Event(i, kind, mover, before.action_to_str(action), action) if seen == action
                   else Event(i, kind, mover, None, None, int(seen)))
    return out


def _history(game, seed, plies, seat):
    """A random game's (state before, action) pairs until `seat`'s first decision after `plies` actions."""
    rng, s, out = RNG(seed), game.new_initial_state(), []
    while not s.is_terminal() and (len(out) < plies or s.current_player() != seat):
        a = (rng.choice([o for o, _ in s.chance_outcomes()]) if s.is_chance_node()
             else rng.choice(s.legal_actions()))
        out.append((s.clone(), a))
        s.apply(a)
    return out, s


@pytest.mark.parametrize("game, options", [("goofspiel", {"players": 3, "cards": 6}), ("polis", {"players": 2})])
@pytest.mark.parametrize("spec", [SPEC, "pimc:iterations=60,determinizations=4,belief=particles,particles=16,"
                                        "model=greedy,temp=0.2"])
def test_refereed_games_with_belief_bots(game, options, spec):
    bot = Recorder(make_bot(spec))
    others = [make_bot("random") for _ in range(options["players"] - 1)]
    record = Referee(game, options, [bot] + others, 5).play()
    verify(record)
    assert record.result["reason"] == "normal" and bot.stats
    for stats in bot.stats:
        assert 0 < stats["belief_ess"] <= stats["belief_particles"] == int(spec.split("particles=")[1].split(",")[0])
        assert stats["belief_refills"] >= 0 and stats["belief_seconds"] >= 0
    assert bot.stats[-1]["belief_refills"] < len(bot.stats)     # the filter followed the game, not one refill a move


def test_the_filter_sees_every_event_and_the_plain_bot_none():
    bot = make_bot(SPEC)
    record = Referee("goofspiel", {"players": 2, "cards": 5}, [bot, make_bot("random")], 2).play()
    assert bot._belief().events == len(record.actions)
    plain = make_bot("ismcts:iterations=60")
    plain.new_game(GameInfo("goofspiel", {"players": 2, "cards": 5}, 2, 0, 1))
    assert plain._belief() is None


def test_a_bot_that_starts_mid_game_refills_from_its_view():
    """A --start-from position: the filter's particles start at the setup, so they cannot follow the events;
    the first decision refills from the view and says so."""
    game = load_game("polis", players=2)
    history, start = _history(game, 8, 25, 0)
    bot = Recorder(make_bot(SPEC))
    record = Referee("polis", {"players": 2}, [bot, make_bot("random")], 5).play(start=start)
    verify(record)
    assert bot.stats[0]["belief_refills"] >= 1


@pytest.mark.parametrize("game, options, plies", [("goofspiel", {"players": 2, "cards": 8}, 5),
                                                  ("polis", {"players": 2}, 20), ("hellas", {}, 40)])
def test_no_peeking_the_decision_depends_on_the_seat_events_and_information_set_only(game, options, plies):
    """The same events for the seat and two different states of its information set as the view (what the true
    game hides differs between them): the same move and the same statistics."""
    g = load_game(game, **options)
    seat = 1
    history, truth = _history(g, 4, plies, seat)
    events = _events_for(history, seat)
    views = [truth.determinize(seat, RNG(s)) for s in (21, 22)]
    assert views[0].info_key(seat) == views[1].info_key(seat)
    runs = []
    for view in views:
        bot = make_bot(SPEC)
        bot.new_game(GameInfo(game, dict(g.options), g.num_players, seat, 9))
        for event in events:
            bot.observe(event)
        action = bot.act(view, Turn(seat, view.legal_actions(), len(events)))
        stats = {k: v for k, v in bot.last_stats.items()
                 if "seconds" not in k and k not in ("iterations_per_s", "rollout_share")}     # timings differ
        runs.append((action, stats))
    assert runs[0] == runs[1]
    assert runs[0][1]["belief_refills"] == 0 or game != "polis"   # the filter followed the events


def test_no_peeking_two_true_games_that_differ_in_a_hidden_bid():
    """Goofspiel: P0's face-down bid differs between two true games; P1's events are the same (the bid's hidden
    class), so P1's belief bot decides the same, with the same statistics."""
    g = load_game("goofspiel", players=2, cards=8)
    outcomes = []
    for bid in (2, 6):
        s = g.new_initial_state()
        history = []
        for a in (s.chance_outcomes()[4][0], 7, 7, s.chance_outcomes()[0][0], bid):
            if s.is_chance_node():
                a = [o for o, _ in s.chance_outcomes()][min(2, len(s.chance_outcomes()) - 1)]
            history.append((s.clone(), a))
            s.apply(a)
        assert s.current_player() == 1
        bot = make_bot("ismcts:iterations=200,belief=particles,particles=32,pending=sample,seed=1")
        bot.new_game(GameInfo("goofspiel", dict(g.options), 2, 1, 4))
        for event in _events_for(history, 1):
            bot.observe(event)
        view = s.determinize(1, RNG(7))
        action = bot.act(view, Turn(1, view.legal_actions(), len(history)))
        outcomes.append((action, bot.last_stats["visits"], bot.last_stats["belief_ess"]))
    assert outcomes[0] == outcomes[1]


def test_resync_replays_the_events_from_the_start():
    """After an undo the referee resyncs the bot with everything the seat has seen: the filter starts over from
    the setup and reads them again (no refill needed), as a bot that saw them one by one."""
    g = load_game("polis", players=2)
    history, truth = _history(g, 6, 10, 0)
    assert not truth.is_terminal()
    events = _events_for(history, 0)
    bot = make_bot(SPEC)
    bot.new_game(GameInfo("polis", dict(g.options), 2, 0, 9))
    for event in events[:5]:
        bot.observe(event)
    bot.resync(events)
    assert bot._belief().events == 5 + len(events)
    view = truth.determinize(0, RNG(1))
    bot.act(view, Turn(0, view.legal_actions(), len(events)))
    assert bot.last_stats["belief_refills"] == 0
    bot.observe(Event(len(events), "move", 1, None, None, None))     # an event with nothing to read: refill later
    assert bot._belief().dead


def test_the_protocol_engine_feeds_the_filter_by_notation():
    """`kleos engine` hands a bot visible moves by their notation (no action id): the filter reads them in its
    particles and follows the game without a refill."""
    from arena.engine import EngineSession
    from bots.protocol import obs_payload
    session = EngineSession("ismcts:iterations=40,belief=particles,particles=16")
    assert session.handle("1 newgame goofspiel players=2 seat=1 cards=5").startswith("=1")
    state = load_game("goofspiel", players=2, cards=5).new_initial_state()
    n = 2
    for i, action in enumerate((state.chance_outcomes()[3][0], 2)):
        seen = state.action_observation(action, 1)
        what = state.action_to_str(action) if seen == action else f"hidden {seen}"
        kind = "chance" if state.current_player() < 0 else "move"
        assert session.handle(f"{n} event {i} {kind} {state.current_player()} {what}").startswith(f"={n}")
        state.apply(action)
        n += 1
    assert session.handle(f"{n} obs 2 {obs_payload(state, 1, state.determinize(1, RNG(2)))}").startswith(f"={n}")
    reply = session.handle(f"{n + 1} go 2")
    assert "belief_refills=0" in reply and "belief_ess=16" in reply, reply
    assert session.bot._belief().events == 2


def test_bad_belief_options_in_a_bot_spec_are_clear_errors():
    from bots.base import BadBotSpecError
    for spec, problem in (("ismcts:belief=maybe", "belief='maybe'"), ("ismcts:particles=8", "belief=particles"),
                          ("pimc:belief=particles,model=smart", "model='smart'")):
        with pytest.raises(BadBotSpecError, match=problem):
            make_bot(spec)

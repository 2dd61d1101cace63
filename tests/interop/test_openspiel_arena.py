"""OpenSpiel games and bots in Kleos's arena (interop/openspiel/state.pyx, games.py, bots.py). Skipped where the
optional extra is not installed."""
import pytest

pyspiel = pytest.importorskip("pyspiel", reason='OpenSpiel is not installed (pip install "kleos[openspiel]")')

from arena.referee import play_game  # noqa: E402
from bots import make_bot  # noqa: E402
from bots.base import BadBotSpecError  # noqa: E402
from engine.errors import UnknownGameError  # noqa: E402
from engine.registry import load_game  # noqa: E402
from search import make_searcher  # noqa: E402

GOOF = "openspiel:goofspiel(num_cards=5,points_order=random,imp_info=False)"


def test_openspiel_game_loads_under_a_kleos_name():
    game = load_game(GOOF)
    assert game.num_players == 2 and game.num_distinct_actions == 5
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 5
    with pytest.raises(UnknownGameError, match="no_such_game"):
        load_game("openspiel:no_such_game")


def test_simultaneous_bids_are_hidden_from_the_other_seat_until_revealed():
    state = load_game(GOOF).new_initial_state()
    state.apply(2)                                   # the prize
    assert state.current_player() == 0
    seen_by_1 = {state.action_observation(a, 1) for a in state.legal_actions()}
    assert len(seen_by_1) == 1 and seen_by_1.pop() < 0         # player 1 cannot tell player 0's bids apart
    assert [state.action_observation(a, 0) for a in state.legal_actions()] == state.legal_actions()
    state.apply(4)
    worlds = {tuple(state.determinize(1, seed).os_state.history()) for seed in range(30)}
    assert len(worlds) > 1 and all(w[0] == 2 for w in worlds)   # the bid varies, the public prize does not


def test_state_json_round_trip_and_bad_history():
    game = load_game(GOOF)
    state = game.new_initial_state()
    for a in (1, 3, 0):
        state.apply(a)
    again = game.state_from_json(state.to_json())
    assert again.os_state.history() == state.os_state.history()
    with pytest.raises(Exception, match="not legal"):
        game.state_from_json({"history": [1, 1, 1, 1]})


def test_kleos_ismcts_searches_an_openspiel_game():
    state = load_game(GOOF).new_initial_state()
    state.apply(4)
    result = make_searcher("ismcts", iterations=200, seed=3).search(state.determinize(0, 1))
    assert result.action in state.legal_actions() and result.stats["iterations"] == 200


def test_perfect_information_game_is_its_own_view():
    state = load_game("openspiel:tic_tac_toe").new_initial_state()
    state.apply(4)
    assert state.determinize(0, 7).os_state.history() == [4]
    result = make_searcher("mcts", iterations=300, seed=1).search(state)
    assert result.action in state.legal_actions()


def test_openspiel_bots_on_an_openspiel_game_in_a_referee():
    record = play_game(GOOF, {}, ["os-ismcts:iterations=30", "ismcts:iterations=200"], seed=5)
    assert record.result["reason"] == "normal"
    assert sorted(record.result["returns"]) in ([0.0, 1.0], [0.5, 0.5])
    record = play_game("openspiel:tic_tac_toe", {}, ["os-mcts:iterations=50", "os-random"], seed=2)
    assert record.result["reason"] == "normal"
    again = play_game("openspiel:tic_tac_toe", {}, ["os-mcts:iterations=50", "os-random"], seed=2)
    assert again.actions == record.actions                      # seeded bots replay exactly


def test_openspiel_bots_on_a_kleos_game():
    record = play_game("goofspiel", {"cards": 4}, ["os-ismcts:time=0.01", "os-random"], seed=1)
    assert record.result["reason"] == "normal"
    record = play_game("pantikapaion", {}, ["os-random", "random"], seed=1)
    assert record.result["reason"] == "normal"


def test_cfr_policy_bot_plays_kuhn_poker():
    record = play_game("openspiel:kuhn_poker", {}, ["os-cfr:iterations=200", "os-random"], seed=4)
    assert record.result["reason"] == "normal"


def test_bad_bot_specs_name_the_problem():
    with pytest.raises(BadBotSpecError, match="final"):
        make_bot("os-ismcts:final=best")
    with pytest.raises(BadBotSpecError, match="unknown option"):
        make_bot("os-mcts:time=1")
    bot = make_bot("os-ismcts:iterations=10")
    record = play_game("openspiel:tic_tac_toe", {}, ["os-ismcts:iterations=10", "os-random"], seed=1)
    assert record.result["reason"] == "crash:0" and "perfect information" in record.meta["error"]
    bot.close()


TWIN = "goofspiel(num_cards=5,points_order=random,imp_info=False)"


def test_twin_plays_on_openspiels_own_goofspiel():
    record = play_game("goofspiel", {"cards": 5}, [f"os-ismcts:iterations=20,twin={TWIN}", "ismcts:iterations=100"],
                       seed=3)
    assert record.result["reason"] == "normal"
    assert any(e and e.get("iterations") == 20 for e in record.evals)


def test_twin_that_is_another_game_is_named():
    record = play_game("goofspiel", {"cards": 5}, ["os-random:twin=kuhn_poker", "random"], seed=3)
    assert record.result["reason"] == "crash:0" and "kuhn_poker" in record.meta["error"]


def test_consistent_history_fits_the_seat_and_never_copies_the_hidden_bid():
    from bots.base import Event
    from engine.rng import RNG
    from interop.openspiel.twin import consistent_history

    game = load_game("goofspiel", cards=5)
    state = game.new_initial_state()
    events = []
    for action in (2, 4, 0, 1, 3):        # prize 3; bids 5 and 1; prize 2; seat 0 bids 4 face down
        seen = state.action_observation(action, 1)
        mover = state.current_player()
        kind = "chance" if mover < 0 else "move"
        events.append(Event(len(events), kind, mover, state.action_to_str(action), action) if seen == action
                      else Event(len(events), kind, mover, None, None, seen))
        state.apply(action)
    key = state.info_key(1)
    rng = RNG(1)
    drawn = {tuple(consistent_history(game, 1, events, {len(events): key}, rng)) for _ in range(40)}
    assert len(drawn) > 1                                   # the pending bid of seat 0 is drawn, not copied
    for h in drawn:
        assert h[:4] == (2, 4, 0, 1)     # what seat 1 saw (the first bids revealed at the round end) stays
        replay = game.new_initial_state()
        for a in h:
            replay.apply(a)
        assert replay.info_key(1) == key                     # seat 1 cannot tell the history from the real one


def test_returns_by_rank_or_by_utility():
    by_rank = load_game("openspiel:kuhn_poker").new_initial_state()
    by_utility = load_game("openspiel:kuhn_poker", returns="utility").new_initial_state()
    for state in (by_rank, by_utility):
        for action in (0, 1, 1, 1):     # deal J and Q; player 0 bets, player 1 calls: Q wins 2 chips
            state.apply(action)
    assert by_rank.returns() == [0.0, 1.0] and by_rank.scores() == [-2.0, 2.0]
    assert by_utility.returns() == [0.0, 1.0]          # -2 and +2 are kuhn_poker's utility bounds
    state = load_game("openspiel:kuhn_poker", returns="utility").new_initial_state()
    for action in (0, 1, 0, 0):         # both pass: Q wins 1 chip
        state.apply(action)
    assert state.returns() == [0.25, 0.75]
    with pytest.raises(Exception, match="returns"):
        load_game("openspiel:kuhn_poker", returns="chips")


def test_a_game_that_cannot_be_determinized_is_refused_not_shown():
    from interop.openspiel.bridge import NotDeterminizable
    game = load_game(GOOF)
    state = game.new_initial_state()
    state.apply(0)
    saved = game.bridge.why_not
    game.bridge.why_not = "openspiel: this game hides information and cannot resample it"
    try:
        with pytest.raises(NotDeterminizable, match="cannot resample"):
            state.determinize(1, 5)
        with pytest.raises(NotDeterminizable, match="cannot resample"):
            play_game(GOOF, {}, ["random", "random"], seed=1)        # refused before any move
    finally:
        game.bridge.why_not = saved


class _FakeState:
    """An OpenSpiel-like state whose resampler returns a state that tells itself apart first (as phantom
    tic-tac-toe's can: hidden stones that already end the game)."""

    def __init__(self, terminal=False, samples=None):
        self.terminal, self.samples = terminal, samples or []

    def is_terminal(self):
        return self.terminal

    def current_player(self):
        return -4 if self.terminal else 0

    def information_state_string(self, player):
        return "over" if self.terminal else "mine"

    def legal_actions(self):
        return [] if self.terminal else [1, 2]

    def resample_from_infostate(self, player, uniform):
        return self.samples.pop(0)


def test_resamples_the_player_could_tell_apart_are_drawn_again():
    from interop.openspiel.bridge import NotDeterminizable
    bridge = load_game("openspiel:kuhn_poker").bridge              # a game with OpenSpiel's own resampler
    assert bridge.native_resample
    good = _FakeState()
    state = _FakeState(samples=[_FakeState(terminal=True), _FakeState(terminal=True), good])
    assert bridge.resample(state, 0, lambda: 0.5) is good
    never = _FakeState(samples=[_FakeState(terminal=True)] * bridge.RESAMPLE_TRIES)
    with pytest.raises(NotDeterminizable, match="tell apart"):
        bridge.resample(never, 0, lambda: 0.5)


def test_phantom_views_never_show_a_finished_game_or_other_moves():
    # phantom tic-tac-toe has no resampler of its own: consistent histories are drawn, and those whose hidden
    # stones already ended the game are rejected
    from engine.rng import RNG
    game = load_game("openspiel:phantom_ttt")
    rng = RNG(4)
    for seed in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            me = state.current_player()
            for _ in range(15):
                view = state.determinize(me, rng)
                assert not view.is_terminal() and view.current_player() == me
                assert view.legal_actions() == state.legal_actions()
                assert view.os_state.information_state_string(me) == state.os_state.information_state_string(me)
            state.apply(RNG(seed + 10 * len(state.os_state.history())).choice(state.legal_actions()))


def test_speed_rows_count_searched_decisions_only():
    from interop.openspiel.speed import markdown, speed_rows
    record = play_game(GOOF, {}, ["os-ismcts:iterations=15", "ismcts:iterations=40"], seed=2)
    rows = {r["bot"]: r for r in speed_rows([record])}
    assert rows["os-ismcts:iterations=15"]["iterations"] == 15
    assert rows["ismcts:iterations=40"]["iterations"] == 40
    # the last round is forced: 4 searched decisions a seat in a 5-card game
    assert rows["ismcts:iterations=40"]["decisions"] == 4 == rows["os-ismcts:iterations=15"]["decisions"]
    assert "| `ismcts:iterations=40` | 4 | 40 |" in markdown(speed_rows([record]))

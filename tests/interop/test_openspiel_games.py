"""Kleos games as OpenSpiel games (interop/openspiel/kleos_games.py): OpenSpiel's own checks and consistency with
Kleos. Skipped where the optional extra is not installed."""
import os
import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel", reason='OpenSpiel is not installed (pip install "kleos[openspiel]")')

from engine.registry import game_spec, list_games, load_game  # noqa: E402
from interop.openspiel import kleos_games  # noqa: E402

# The quick run simulates short configurations (a random Mare Nostrum game runs to about a thousand actions);
# KLEOS_OPENSPIEL_FULL=1 runs every game with its default options, five games each (a few minutes).
FULL = os.environ.get("KLEOS_OPENSPIEL_FULL", "") not in ("", "0")
SIMS = {} if FULL else {"mare_nostrum": 1, "pantikapaion": 1}
OPTIONS = {} if FULL else {"goofspiel": "kleos_goofspiel(players=3,cards=6)",
                           "mare_nostrum": "kleos_mare_nostrum(players=3,max_rounds=2)"}


def test_every_kleos_game_is_registered():
    assert sorted(kleos_games.GAMES) == sorted(f"kleos_{n}" for n in list_games())
    for name in list_games():
        assert f"kleos_{name}" in pyspiel.registered_names()


@pytest.mark.parametrize("name", list_games())
def test_game_type_tells_the_truth(name):
    spec = game_spec(name)
    game = pyspiel.load_game(f"kleos_{name}")
    gtype = game.get_type()
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    hidden = gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert hidden == spec.has_hidden_information
    assert (gtype.min_num_players, gtype.max_num_players) == (spec.min_players, spec.max_players)
    assert gtype.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    n = game.num_players()
    assert game.utility_sum() == n / 2 and (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert set(gtype.parameter_specification) == set(spec.all_options())


@pytest.mark.parametrize("name", list_games())
def test_openspiel_random_simulation_and_serialization(name):
    game = pyspiel.load_game(OPTIONS.get(name, f"kleos_{name}"))
    pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 5 if FULL else 3), serialize=True, verbose=False)


def test_player_count_and_options_reach_kleos():
    game = pyspiel.load_game("kleos_goofspiel(players=4,cards=5)")
    assert game.num_players() == 4 and game.num_distinct_actions() == 5
    assert game.max_game_length() == 5 * 5
    with pytest.raises(Exception, match="cards"):
        pyspiel.load_game("kleos_goofspiel(cards=99)")


def test_play_matches_kleos_and_resample_keeps_the_information_set():
    game = pyspiel.load_game("kleos_goofspiel(players=2,cards=5)")
    native = load_game("goofspiel", players=2, cards=5).new_initial_state()
    state = game.new_initial_state()
    sampler = iter([0.1, 0.6, 0.3, 0.9, 0.5] * 100)
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.chance_outcomes()[-1][0]
            assert state.chance_outcomes() == native.chance_outcomes()
        else:
            assert state.legal_actions() == native.legal_actions()
            action = state.legal_actions()[0]
            me = state.current_player()
            other = state.resample_from_infostate(me, lambda: next(sampler))
            assert other.information_state_string(me) == state.information_state_string(me)
        assert state.action_to_string(state.current_player(), action) == native.action_to_str(action)
        state.apply_action(action)
        native.apply(action)
    assert state.returns() == native.returns()


def test_resampling_varies_what_is_hidden():
    game = pyspiel.load_game("kleos_goofspiel(players=2,cards=6)")
    state = game.new_initial_state()
    state.apply_action(0)        # the prize
    state.apply_action(5)        # player 0 bids its highest card, face down
    seen = set()
    for u in (0.05, 0.25, 0.45, 0.65, 0.85):
        world = state.resample_from_infostate(1, lambda u=u: u)
        seen.add(world.kleos.to_json()["bids"][0])
        assert world.information_state_string(1) == state.information_state_string(1)
    assert len(seen) > 1         # player 1 cannot know player 0's bid: the samples differ


def test_serialization_round_trip_and_pickle():
    game = pyspiel.load_game("kleos_polis")
    state = game.new_initial_state()
    for _ in range(12):
        if state.is_terminal():
            break
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(actions[len(actions) // 2])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and state2.history() == state.history()
    assert state2.kleos.to_json() == state.kleos.to_json()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)

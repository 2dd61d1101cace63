"""The conformance suite: every registered game, every configuration, the contract of ARCHITECTURE.md section 2.

No test here names a game; a new game is checked as soon as it is registered.
"""
import json
import pickle

import pytest

from engine import playout
from engine.errors import BadMoveError, BadOptionError, BadStateError, IllegalActionError, UnknownGameError
from engine.records import GameRecord, play_random_game, replay, verify
from engine.registry import game_spec, load_game
from engine.rng import RNG

from conformance.walk import MAX_ACTIONS_PER_GAME, random_step, sample_every, walk

C_PLAYOUTS = 1000       # playouts in C per configuration
PY_GAMES = 3            # games walked step by step with every check of the Python API


def _game(case):
    name, options = case
    return load_game(name, **options)


def test_random_playouts_end_with_rank_returns(case):
    """Thousands of seeded random playouts (in C) all end, with returns in [0, 1] that sum to n/2 (ranks)."""
    game = _game(case)
    start = game.new_initial_state()
    n = game.num_players
    rng = RNG(12345)
    for i in range(C_PLAYOUTS):
        state = start.clone()
        moves = playout.playout(state, rng, MAX_ACTIONS_PER_GAME)
        assert state.is_terminal(), f"playout {i} did not end within {MAX_ACTIONS_PER_GAME} actions"
        assert moves > 0
        returns = state.returns()
        assert len(returns) == n
        assert all(0.0 <= r <= 1.0 for r in returns), returns
        assert sum(returns) == pytest.approx(n / 2), f"rank returns must sum to n/2: {returns}"
        assert len(state.scores()) == n


def test_every_decision_is_well_formed(case):
    """Along random games: a player to move has legal actions (sorted, unique, in range); chance probabilities are
    positive and sum to 1; evaluate() is a vector in [0, 1]; the mover always sees its own action."""
    game = _game(case)
    for seed in range(PY_GAMES):
        for state, action in walk(game, seed):
            player = state.current_player()
            if action is None:
                assert player == -2 and state.legal_actions() == [] and state.chance_outcomes() == []
                continue
            if player == -1:
                outcomes = state.chance_outcomes()
                assert outcomes, "a chance node without outcomes"
                actions = [a for a, _ in outcomes]
                assert len(set(actions)) == len(actions), "duplicate chance outcomes"
                assert all(p > 0 for _, p in outcomes)
                assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-9)
                assert state.legal_actions() == []
            else:
                assert 0 <= player < game.num_players
                legal = state.legal_actions()
                assert legal, "a player to move with no legal action before the end"
                assert legal == sorted(set(legal))
                assert 0 <= legal[0] and legal[-1] < game.num_distinct_actions
                assert state.action_observation(action, player) == action
                values = state.evaluate()
                assert len(values) == game.num_players and all(0.0 <= v <= 1.0 for v in values)


def test_clone_is_independent(case):
    """Mutating a clone never touches the original."""
    game = _game(case)
    rng = RNG(7)
    seed = 1
    for state, action in walk(game, seed, every=sample_every(game, seed, 40)):
        if action is None:
            break
        before = json.dumps(state.to_json(), sort_keys=True)
        copy = state.clone()
        copy.apply(action)
        while not copy.is_terminal() and rng.below(4):
            copy.apply(random_step(copy, rng))
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert state.legal_actions() == state.clone().legal_actions()


def test_json_round_trip(case):
    """from_json(to_json(s)) is the same state: same JSON, same legal moves, same info keys; pickling too."""
    game = _game(case)
    for seed in range(PY_GAMES):
        for state, _ in walk(game, seed, every=sample_every(game, seed)):
            obj = state.to_json()
            text = json.dumps(obj)                       # JSON-ready
            back = game.state_from_json(json.loads(text))
            assert back.to_json() == obj
            assert back.current_player() == state.current_player()
            assert back.legal_actions() == state.legal_actions()
            assert back.chance_outcomes() == state.chance_outcomes()
            for p in range(game.num_players):
                assert back.info_key(p) == state.info_key(p)
            assert pickle.loads(pickle.dumps(state)).to_json() == obj


def test_notation_round_trip(case):
    """action_to_str / str_to_action round-trip for every legal action and chance outcome; names are unique."""
    game = _game(case)
    for seed in range(PY_GAMES):
        for state, _ in walk(game, seed, every=sample_every(game, seed)):
            if state.is_terminal():
                continue
            actions = [a for a, _ in state.chance_outcomes()] or state.legal_actions()
            names = [state.action_to_str(a) for a in actions]
            assert len(set(names)) == len(names), f"two actions share a name: {names}"
            for a, s in zip(actions, names):
                assert isinstance(s, str) and s.strip() == s and "\n" not in s and s
                assert state.str_to_action(s) == a


def test_record_replays_exactly(case):
    """A game record, written as JSON and read back, replays to the same states and the same result."""
    game = _game(case)
    for seed in (11, 12):
        record = play_random_game(game, seed)
        again = GameRecord.from_json(record.to_json())
        verify(again)
        originals = [s.to_json() for s in replay(record)]
        replayed = [s.to_json() for s in replay(again)]
        assert originals == replayed
        assert len(originals) == len(record.actions) + 1
        # and the same seed gives the same game
        assert play_random_game(game, seed).actions == record.actions


def test_determinize_keeps_what_the_observer_sees(case):
    """determinize(p) keeps info_key(p), observation(p) and p's legal moves; the sample is a valid state
    (it passes from_json's checks and plays to the end)."""
    game = _game(case)
    rng = RNG(99)
    for seed in range(PY_GAMES):
        for state, _ in walk(game, seed, every=sample_every(game, seed, 30)):
            for p in range(game.num_players):
                sample = state.determinize(p, rng)
                assert sample.info_key(p) == state.info_key(p)
                assert sample.observation(p) == state.observation(p)
                assert sample.current_player() == state.current_player()
                if state.current_player() == p:
                    assert sample.legal_actions() == state.legal_actions()
                game.state_from_json(sample.to_json())          # the sample breaks no rule
                playout.playout(sample, rng, MAX_ACTIONS_PER_GAME)
                assert sample.is_terminal()


def test_determinize_varies_only_hidden_state(case):
    """With hidden information, determinizations actually vary what the observer cannot see (over many samples);
    without it, determinize is the identity. States that differ only in what p cannot see share info_key(p)."""
    name, _ = case
    game = _game(case)
    hidden = game_spec(name).has_hidden_information
    rng = RNG(5)
    varied = 0
    checked = 0
    for seed in range(6):
        for state, _ in walk(game, seed, every=sample_every(game, seed, 20)):
            truth = state.to_json()
            for p in range(game.num_players):
                samples = [state.determinize(p, rng) for _ in range(8)]
                checked += 1
                if any(s.to_json() != truth for s in samples):
                    varied += 1
                for s in samples:
                    assert s.info_key(p) == state.info_key(p)
                if not hidden:
                    assert all(s.to_json() == truth for s in samples), "determinize changed an open-information game"
    if hidden:
        assert varied > 0, f"determinize never varied anything in {checked} (state, observer) pairs"


def test_determinize_is_reproducible(case):
    game = _game(case)
    for state, _ in walk(game, 3, every=sample_every(game, 3, 10)):
        for p in range(game.num_players):
            assert state.determinize(p, 42).to_json() == state.determinize(p, 42).to_json()


def test_rewind_pending_leads_back_to_the_observers_information_set(case):
    """c_rewind_pending (optional): on a determinization at p's decision, the others' pending secret choices are
    taken back; the result is a valid state at another player's decision, and making those k decisions again
    with any legal choices returns to p's decision in p's information set, with p's legal moves. Without hidden
    information nothing is ever taken back."""
    name, _ = case
    game = _game(case)
    hidden = game_spec(name).has_hidden_information
    rng = RNG(8)
    for seed in range(2):
        for state, _ in walk(game, seed):
            p = state.current_player()
            if p < 0:
                continue
            rewound, k = state.determinize(p, rng).rewind_pending(p)
            if k == 0:
                continue
            assert hidden, "a game without hidden information took back a pending choice"
            assert rewound.current_player() not in (p, -1, -2)
            game.state_from_json(rewound.to_json())                 # the rewound state breaks no rule
            for _ in range(k):
                assert rewound.current_player() >= 0                # decisions only, no chance in between
                rewound.apply(rng.choice(rewound.legal_actions()))
            assert rewound.current_player() == p and rewound.info_key(p) == state.info_key(p)
            assert rewound.legal_actions() == state.legal_actions()


# --- bad input -------------------------------------------------------------------------------------------------

def test_illegal_action_is_refused_and_nothing_changes(case):
    game = _game(case)
    for state, _ in walk(game, 4, every=sample_every(game, 4, 20)):
        if state.is_terminal():
            with pytest.raises(IllegalActionError, match="over"):
                state.apply(0)
            continue
        allowed = set(a for a, _ in state.chance_outcomes()) | set(state.legal_actions())
        before = state.to_json()
        for bad in (-1, game.num_distinct_actions, next(a for a in range(game.num_distinct_actions + 1)
                                                        if a not in allowed)):
            with pytest.raises(IllegalActionError, match="not legal"):
                state.apply(bad)
            assert state.to_json() == before
        with pytest.raises(IllegalActionError):
            state.apply(1.5)


def test_garbage_move_string_is_refused(case):
    game = _game(case)
    state = game.new_initial_state()
    for text in ("", "@@ no such move @@", "bid:9999", "\x00"):
        with pytest.raises(BadMoveError):
            state.str_to_action(text)


def test_malformed_state_json_is_refused(case):
    game = _game(case)
    state = game.new_initial_state()
    good = state.to_json()
    for bad in ({}, [], "text", None, {**good, **{k: "garbage" for k in list(good)[:1]}}):
        with pytest.raises(BadStateError):
            game.state_from_json(bad)
    for key in list(good):
        broken = {k: v for k, v in good.items() if k != key}
        with pytest.raises(BadStateError):
            game.state_from_json(broken)


def test_bad_game_options_are_refused(case):
    name, options = case
    spec = game_spec(name)
    with pytest.raises(BadOptionError, match="unknown option"):
        load_game(name, no_such_option=1)
    with pytest.raises(BadOptionError, match="players"):
        load_game(name, players=spec.max_players + 1)
    with pytest.raises(BadOptionError, match="players"):
        load_game(name, players=spec.min_players - 1)
    with pytest.raises(UnknownGameError, match="unknown game"):
        load_game(name + "_nope")

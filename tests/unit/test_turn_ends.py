"""engine.core.turn_ends: does every legal move of the seat to move end its turn (a turn: a seat's consecutive
decisions, chance between them not ending it, as the referee times ``time=T``)? The search bots' ``pace=last``
spends what is left of a turn on a decision it says ends it (docs/play.md)."""
import pytest

from bots.base import TurnPace
from engine.core import turn_ends
from engine.registry import game_spec, list_games, load_game
from engine.rng import RNG

CHANCE, TERMINAL = -1, -2
SETTINGS = [(game, players) for game in sorted(list_games())
            for players in sorted({game_spec(game).resolve({})["players"], *game_spec(game).kleos_bot_players})]
SETTINGS += [("mare_nostrum", 3)] if ("mare_nostrum", 3) not in SETTINGS else []


def decides_again(state, seat) -> bool:
    """The plain reading, every branch walked: after one of ``seat``'s moves, does some line of chance outcomes and
    the seat's own forced moves reach another decision of ``seat`` with a choice before any other seat moves?"""
    player = state.current_player()
    if player == TERMINAL or (player >= 0 and player != seat):
        return False
    if player == seat:
        legal = state.legal_actions()
        if len(legal) > 1:
            return True
        after = state.clone()
        after.apply(legal[0])
        return decides_again(after, seat)
    for outcome, _ in state.chance_outcomes():
        after = state.clone()
        after.apply(outcome)
        if decides_again(after, seat):
            return True
    return False


def every_move_ends_the_turn(state) -> bool:
    seat = state.current_player()
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        if decides_again(after, seat):
            return False
    return True


def real_decisions(game: str, players: int, seed: int, most: int = 40):
    """Up to ``most`` decisions with a choice along a seeded random game, spread over the whole game."""
    state = load_game(game, players=players).new_initial_state()
    rng = RNG(seed)
    decisions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.next_u64() % len(outcomes)][0])
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            decisions.append(state.clone())
        state.apply(legal[rng.next_u64() % len(legal)])
    step = max(1, len(decisions) // most)
    return decisions[::step][:most]


@pytest.mark.parametrize("game,players", SETTINGS)
def test_turn_ends_agrees_with_the_plain_reading_in_every_game(game, players):
    """Where it answers within the bots' budget (512 states) the answer is the plain reading's; it says None (the
    bot then keeps the even share) only where the lines fan out past it, as a whole deal of cards does in Hellas."""
    answers = []
    for state in real_decisions(game, players, seed=7):
        found = turn_ends(state)
        if found is not None:
            # both walk the moves and outcomes in the same order and stop at the first line that goes on, so the
            # plain reading ends within about as many states as turn_ends() did
            assert found == every_move_ends_the_turn(state), f"{game}: turn_ends() disagrees at {state.to_json()}"
        answers.append(found)
    assert answers.count(None) <= len(answers) // 10, f"{game}: {answers.count(None)} of {len(answers)} unsettled"
    if game == "goofspiel":
        assert set(answers) == {True}          # every bid hands the move to another seat or to chance's prize
    else:
        # the four board games all have turns of several decisions and turns that end with a choice
        assert set(answers) - {None} == {True, False}, f"{game}: turn_ends() gave only {set(answers)}"


@pytest.mark.parametrize("game,players", SETTINGS)
def test_no_peeking_pace_last_asks_only_worlds_drawn_from_the_information_set(game, players):
    """The bot's question (TurnPace.ends_turn) gets the same answer from every world of the seat's information set:
    it asks fresh determinizations of its view, never the view itself, so the time it spends cannot depend on
    what it cannot see."""
    for state in real_decisions(game, players, seed=11, most=25):
        me = state.current_player()
        worlds = [state] + [state.determinize(me, RNG(seed)) for seed in (1, 2, 3)]
        answers = {TurnPace("last", seed=5).ends_turn(world) for world in worlds}
        assert len(answers) == 1, f"{game}: the answer depends on hidden state"


def test_in_hellas_whether_a_turn_goes_on_can_hang_on_the_other_sides_secret_card():
    """Why the pace asks several drawn worlds and not its view: two worlds of one information set can disagree
    (Hellas: after both sides chose their cards in secret, the higher card acts first, rulebook 'Initiative')."""
    split = 0
    for state in real_decisions("hellas", 2, seed=11, most=25):
        me = state.current_player()
        split += len({turn_ends(state.determinize(me, RNG(seed))) for seed in (1, 2, 3, 4)} - {None}) > 1
    assert split > 0


def test_a_small_budget_says_it_cannot_tell_and_chance_or_the_end_is_refused():
    state = next(s for s in real_decisions("polis", 2, seed=7) if len(s.legal_actions()) > 2)
    assert turn_ends(state, budget=1) is None          # one state is less than its first move's line
    assert turn_ends(state) is not None
    chance = load_game("pantikapaion", players=2).new_initial_state()
    assert chance.is_chance_node()
    with pytest.raises(ValueError, match="pantikapaion: turn_ends\\(\\) is asked at a seat's decision, not at a "
                                         "chance node"):
        turn_ends(chance)

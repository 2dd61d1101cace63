"""Shared helpers of the conformance suite: seeded random walks through a game with the Python API."""
from engine.chance import sample_outcome
from engine.rng import RNG

MAX_ACTIONS_PER_GAME = 200_000   # a game that random play cannot finish in this many actions is a bug


def random_step(state, rng):
    """Pick a random legal action (or chance outcome by its probability) for ``state``."""
    if state.is_chance_node():
        return sample_outcome(state.chance_outcomes(), rng)
    return rng.choice(state.legal_actions())


def walk(game, seed, every=1):
    """Yield (state, action) along one random game, every ``every``-th decision, ending with (final, None)."""
    rng = RNG(seed)
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        assert n < MAX_ACTIONS_PER_GAME, f"{game}: random play did not end within {MAX_ACTIONS_PER_GAME} actions"
        action = random_step(state, rng)
        if n % every == 0:
            yield state, action
        state.apply(action)
        n += 1
    yield state, None


def sample_every(game, seed, target=60):
    """A stride that visits about ``target`` decisions of a typical game (long games are sampled sparsely)."""
    from engine import playout
    length = playout.playout(game.new_initial_state(), seed)
    return max(1, length // target)

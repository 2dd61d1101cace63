"""Every registered game (no per-game code, like the conformance suite): each searcher returns a legal move with
an exact budget at the first decision and a few random moves later, and PIMC / ISMCTS decisions depend only on the
mover's information set (two determinizations of one view give the same search, bit for bit)."""
import pytest

from engine.registry import game_spec, list_games, load_game
from engine.rng import RNG
from search.bench import opening
from search_helpers import CONFIGS, CUTOFF_CONFIGS, new

CASES = [pytest.param(name, opts, id=f"{name}-{opts.get('players')}p")
         for name in list_games() for opts in game_spec(name).test_configurations()[:2]]


def _positions(game, seed=3, after=(6, 7, 40)):
    """The first decision, and the decisions after 6, 7 and 40 random actions (those the game lasts to)."""
    rng = RNG(seed)
    s = opening(game, seed)
    out = [s.clone()]
    done = 0
    for target in after:
        while done < target and not s.is_terminal():
            if s.is_chance_node():
                s.apply(rng.choice([a for a, _ in s.chance_outcomes()]))
            else:
                s.apply(rng.choice(s.legal_actions()))
            done += 1
        while s.is_chance_node():
            s.apply(rng.choice([a for a, _ in s.chance_outcomes()]))
        if not s.is_terminal():
            out.append(s.clone())
    return out


@pytest.mark.parametrize("label", list(CONFIGS) + list(CUTOFF_CONFIGS))
@pytest.mark.parametrize("name, options", CASES)
def test_legal_move_exact_budget(name, options, label):
    for state in _positions(load_game(name, **options)):
        result = new(label, iterations=40, seed=1).search(state)
        assert result.action in state.legal_actions()
        assert result.stats["iterations"] in (40, 0) and (result.stats["iterations"] == 0) == result.stats["forced"]


@pytest.mark.parametrize("label", ["pimc", "ismcts", "ismcts-sample", "ismcts-observer", "ismcts-path", "ismcts-mo",
                                  "ismcts-belief", "pimc-belief", "ismcts-mast", "ismcts-mo-mast",
                                  "ismcts-history", "ismcts-observer-history",
                                  "ismcts-mo-history", "pimc-implicit", "ismcts-implicit", "ismcts-path-implicit",
                                  "ismcts-reuse-implicit", "pimc-playout", "ismcts-playout",
                                  "ismcts-reuse-playout", *CUTOFF_CONFIGS])
@pytest.mark.parametrize("name, options", [c for c in CASES if game_spec(c.values[0]).has_hidden_information])
def test_decision_depends_only_on_the_information_set(name, options, label):
    hidden = 0
    for state in _positions(load_game(name, **options)):
        me = state.current_player()
        views = [state.determinize(me, RNG(seed)) for seed in (11, 12)]
        assert views[0].info_key(me) == views[1].info_key(me)
        a, b = (new(label, iterations=150, seed=5).search(v) for v in views)
        assert a.action == b.action and a.stats["visits"] == b.stats["visits"], (name, label)
        hidden += views[0].to_json() != views[1].to_json()
    assert hidden > 0          # at least one position where the two views really differ in hidden information

"""Belief from the opponents' moves (search/belief.pyx, the searchers' belief=particles): the particle filter's
weights against a likelihood computed here from the public State API, observation matching, resampling, the
death / refill path, the opponent models, drawing worlds by weight, option errors, and no peeking (docs/search.md,
"Belief from the opponents' moves")."""
import math

import pytest

from engine.registry import load_game
from engine.rng import RNG
from search import make_searcher
from search.belief import MODEL_GREEDY, MODEL_UNIFORM, ParticleFilter
from search.options import SearchOptionError

CHANCE = -1


def _seen(state, action, seat):
    """What `seat` sees of `action` played in `state` (the referee's Event: the action, or its hidden class)."""
    return state.action_observation(action, seat)


def _random_history(game, seed, plies):
    """(state before, action) pairs of a uniformly random game."""
    rng, s, out = RNG(seed), game.new_initial_state(), []
    while len(out) < plies and not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            u, a = rng.random(), outcomes[-1][0]
            for action, p in outcomes:
                if u < p:
                    a = action
                    break
                u -= p
        else:
            a = rng.choice(s.legal_actions())
        out.append((s.clone(), a))
        s.apply(a)
    return out, s


def _softmax(s, mover, temp):
    values = []
    for a in s.legal_actions():
        t = s.clone()
        t.apply(a)
        values.append((t.returns() if t.is_terminal() else t.evaluate())[mover] / temp)
    top = max(values)
    e = [math.exp(v - top) for v in values]
    return {a: x / sum(e) for a, x in zip(s.legal_actions(), e)}


def _greedy_probs(s, mover, temp, samples=1):
    """The greedy model: the softmax of evaluate() over the moves' successors, scored on a determinization from
    the mover's seat (it knows only what it knows); averaged over `samples` determinizations."""
    total = {}
    for i in range(samples):
        for a, p in _softmax(s.determinize(mover, RNG(i)), mover, temp).items():
            total[a] = total.get(a, 0.0) + p / samples
    return total


def _likelihood(s, mover, seen, seat, model, temp):
    """The factor a particle's weight takes for the event (mover, seen): the model's total probability of the
    actions `seat` cannot tell from the one it saw (its own move and chance: the outcomes' probability)."""
    if s.current_player() != mover:
        return 0.0
    if mover == CHANCE:
        probs = dict(s.chance_outcomes())
    elif mover == seat:
        probs = {a: 1.0 for a in s.legal_actions()}
    else:                                  # the greedy model's own draws are checked in the sampling test
        probs = {a: 1.0 / len(s.legal_actions()) for a in s.legal_actions()}
    total = sum(p for a, p in probs.items() if _seen(s, a, seat) == seen)
    return min(total, 1.0) if mover == seat else total


@pytest.mark.parametrize("game_name, options, seat", [("polis", {"players": 2}, 0), ("goofspiel", {"players": 3}, 2),
                                                      ("mare_nostrum", {"players": 3}, 1), ("hellas", {}, 0)])
@pytest.mark.parametrize("model", [MODEL_UNIFORM, MODEL_GREEDY])
def test_weights_are_the_likelihood_of_what_the_seat_saw(game_name, options, seat, model):
    """Each event multiplies every particle's weight by the likelihood computed here from the public API
    (chance: the matching outcomes' probability; an opponent: the model's probability of the matching moves; its
    own move: 1), then normalises; compared event by event until the filter resamples. The greedy model scores an
    opponent's moves on its own random determinization, so there only the particles it must kill are checked."""
    game = load_game(game_name, **options)
    history, _ = _random_history(game, 3, 80)
    f = ParticleFilter(game.new_initial_state(), seat, 24, model, 0.2, 7)
    checked = informative = 0
    for before, action in history:
        mover = before.current_player()
        seen = _seen(before, action, seat)
        particles = [f.particle(i) for i in range(f.size)]
        old = f.weight_list()
        expected = [w * _likelihood(p, mover, seen, seat, model, 0.2) if w > 0 else 0.0
                    for w, p in zip(old, particles)]
        resamples = f.resamples
        f.observe(mover, seen)
        total = sum(expected)
        if f.dead or f.resamples != resamples:
            assert f.dead == (total == 0)   # it dies exactly when no particle could follow the event
            break
        if model == MODEL_GREEDY and mover not in (CHANCE, seat):
            assert [w == 0 for w in f.weight_list()] == [e == 0 for e in expected]
            continue
        assert f.weight_list() == pytest.approx([e / total for e in expected], rel=1e-9, abs=1e-12)
        checked += 1
        informative += len({round(e, 12) for e in expected}) > 1
    assert checked >= 5
    if game_name == "hellas":
        assert informative > 0            # the hidden blocks and hands set different odds in different particles


def test_particles_follow_the_observations_and_hidden_moves_are_sampled():
    """Goofspiel, 2 players: P1's particles apply the public prize exactly and sample P0's face-down bid; every
    particle stays in P1's information set, and the hidden bids differ across particles."""
    game = load_game("goofspiel", players=2, cards=8)
    s = game.new_initial_state()
    f = ParticleFilter(s, 1, 64, MODEL_UNIFORM, 0.1, 3)
    for _ in range(2):                     # the prize, then P0's bid (hidden from P1)
        a = s.chance_outcomes()[2][0] if s.is_chance_node() else s.legal_actions()[5]
        f.observe(s.current_player(), _seen(s, a, 1))
        s.apply(a)
    assert s.current_player() == 1 and not f.dead
    keys = {f.particle(i).info_key(1) for i in range(f.size)}
    assert keys == {s.info_key(1)}
    assert len({f.particle(i).to_json()["bids"][0] for i in range(f.size)}) > 4
    assert f.ess() == pytest.approx(64)    # a uniform opponent's hidden bid tells nothing: equal weights
    assert f.align(s) == 64 and f.refills == 0


@pytest.mark.parametrize("seat", [0, 1])
def test_opponent_models_sample_the_hidden_move_by_their_probabilities(seat):
    """At the first opponent move hidden from the seat whose successors the greedy model scores differently,
    particles that all stood at the same state draw the move in proportion to the model's probabilities among the
    moves the seat cannot tell apart: uniformly under model=uniform, under model=greedy by the softmax scored on
    determinizations from the mover's seat (here averaged over 300 of them; each particle draws its own)."""
    game = load_game("hellas")            # hidden blocks: an unseen block's move shows where, not which
    history, _ = _random_history(game, 4, 3000)
    temp = 0.02
    for before, action in history:
        mover, seen = before.current_player(), _seen(before, action, seat)
        if mover < 0 or mover == seat or seen >= 0:
            continue
        probs = _greedy_probs(before, mover, temp, 300)
        matching = {a: p for a, p in probs.items() if _seen(before, a, seat) == seen}
        if len(matching) > 1 and max(matching.values()) > 2 * min(matching.values()):
            break
    else:
        pytest.fail("no hidden opponent move with differently scored successors")
    successors = {}
    for a in matching:
        t = before.clone()
        t.apply(a)
        successors[str(t.to_json())] = a
    for model in (MODEL_UNIFORM, MODEL_GREEDY):
        f = ParticleFilter(before, seat, 600, model, temp, 5)
        f.observe(mover, seen)
        drawn = [successors[str(f.particle(i).to_json())] for i in range(f.size)]
        total = sum(matching.values())
        for a, p in matching.items():
            want = p / total if model == MODEL_GREEDY else 1 / len(matching)
            assert drawn.count(a) / f.size == pytest.approx(want, abs=0.07), (model, a)


def test_resampling_keeps_the_likely_particles_and_equal_weights():
    """A visible opponent move that the greedy model finds likely in some particles and unlikely in others drops
    the effective sample size under K/2: the filter resamples (systematic) to equal weights."""
    game = load_game("hellas")
    history, _ = _random_history(game, 11, 400)
    f = ParticleFilter(game.new_initial_state(), 0, 64, MODEL_UNIFORM, 0.1, 2)
    for before, action in history:
        f.observe(before.current_player(), _seen(before, action, 0))
        if f.dead:
            break
        assert f.ess() >= 32 - 1e-9        # resampled whenever it fell under K/2
        assert len(set(f.weight_list())) > 1 or f.weight_list()[0] == pytest.approx(1 / 64)
    assert f.resamples > 0


def test_a_contradiction_kills_the_filter_and_the_next_decision_refills_it():
    game = load_game("goofspiel", players=2, cards=6)
    s = game.new_initial_state()
    f = ParticleFilter(s, 1, 16, MODEL_UNIFORM, 0.1, 1)
    f.observe(0, 3)                        # P0 'moves' at a chance node: no particle can follow
    assert f.dead and f.ess() == 0
    f.observe(CHANCE, 0)                   # ignored while dead
    s.apply(s.chance_outcomes()[0][0])
    s.apply(s.legal_actions()[2])
    assert f.align(s) == 0 and not f.dead and f.refills == 1
    assert all(f.particle(i).info_key(1) == s.info_key(1) for i in range(16))
    assert f.ess() == pytest.approx(16)
    with pytest.raises(ValueError, match="not at seat 0"):
        ParticleFilter(s, 0, 4).align(s)


def test_a_seat_that_joins_mid_game_is_refilled_from_its_view():
    """Particles still at the start (no events read) are in another information set than a mid-game view:
    align drops them all and refills from determinizations of the view."""
    game = load_game("polis", players=2)
    history, s = _random_history(game, 5, 30)
    while s.current_player() < 0:
        s.apply(s.chance_outcomes()[0][0])
    me = s.current_player()
    f = ParticleFilter(game.new_initial_state(), me, 8, MODEL_UNIFORM, 0.1, 1)
    assert f.align(s.determinize(me, RNG(1))) == 0 and f.refills == 1
    assert {f.particle(i).info_key(me) for i in range(8)} == {s.info_key(me)}


def test_worlds_are_drawn_by_weight():
    """draw (through sample, PIMC's path) returns particles in proportion to their weights."""
    game = load_game("goofspiel", players=2, cards=8)
    s = game.new_initial_state()
    s.apply(s.chance_outcomes()[0][0])
    f = ParticleFilter(s, 1, 8, MODEL_UNIFORM, 0.1, 1)
    f.observe(0, _seen(s, 0, 1))           # P0's hidden bid: 8 particles, 8 samples
    rng = RNG(3)
    bids = [f.particle(i).to_json()["bids"][0] for i in range(8)]
    counts = {}
    for _ in range(4000):
        b = f.sample(rng).to_json()["bids"][0]
        counts[b] = counts.get(b, 0) + 1
    for b in set(bids):
        assert counts[b] / 4000 == pytest.approx(bids.count(b) / 8, abs=0.04)


def test_bad_filter_arguments():
    s = load_game("goofspiel", players=2).new_initial_state()
    for args, problem in (((s, 0, 0), "at least 1 particle"), ((s, 2, 4), "seat 2"), ((s, 0, 4, 9), "model"),
                          ((s, 0, 4, MODEL_GREEDY, 0.0), "temperature")):
        with pytest.raises(ValueError, match=problem):
            ParticleFilter(*args)


@pytest.mark.parametrize("options, problem", [
    ({"belief": "maybe"}, "belief='maybe' is not one of none, particles"),
    ({"belief": "particles", "particles": 0}, "particles=0 must be >= 1"),
    ({"belief": "particles", "model": "clever"}, "model='clever' is not one of uniform, greedy"),
    ({"belief": "particles", "model": "greedy", "temp": 0}, "temp=0.0 must be > 0"),
    ({"belief": "particles", "belief_mix": 1.5}, "belief_mix=1.5 must be <= 1.0"),
    ({"belief": "particles", "belief_mix": -0.1}, "belief_mix=-0.1 must be >= 0.0"),
    ({"particles": 32}, "option particles applies to belief=particles only"),
    ({"belief": "particles", "temp": 0.5}, "option temp applies to model=greedy only"),
    ({"belief": "particles", "workers": 2}, "workers=2 is not supported"),
])
@pytest.mark.parametrize("name", ["ismcts", "pimc"])
def test_bad_belief_options_are_one_line_errors(name, options, problem):
    with pytest.raises(SearchOptionError, match=problem.replace("(", r"\(")):
        make_searcher(name, **options)
    with pytest.raises(SearchOptionError, match="unknown option 'belief'"):
        make_searcher("mcts", belief="particles")


def test_spec_strings_parse_the_belief_options():
    from search import from_spec
    s = from_spec("ismcts:belief=particles,particles=32,model=greedy,temp=0.05,belief_mix=0.25")
    assert {k: s.options[k] for k in ("belief", "particles", "model", "temp", "belief_mix")} == \
        {"belief": "particles", "particles": 32, "model": "greedy", "temp": 0.05, "belief_mix": 0.25}
    assert "belief=particles" in repr(s) and "belief" not in repr(from_spec("ismcts"))


def test_the_searcher_reports_the_belief_and_draws_its_worlds_from_it():
    """belief_mix=1 is the plain search, iteration for iteration (and reports a filter refilled from the view);
    with belief_mix=0 every world is a particle: a one-particle filter makes the search depend on the hidden bid
    that particle drew (two filters that drew different bids search differently), so the draw is really used."""
    game = load_game("goofspiel", players=2, cards=6)
    s = game.new_initial_state()
    prize = s.chance_outcomes()[5][0]
    s.apply(prize)
    hidden_bid = _seen(s, s.legal_actions()[5], 1)
    s.apply(s.legal_actions()[5])           # P0 bids face down
    plain = make_searcher("ismcts", iterations=400, seed=2, pending="sample").search(s)
    mixed = make_searcher("ismcts", iterations=400, seed=2, pending="sample", belief="particles",
                          belief_mix=1.0).search(s)
    assert mixed.stats["visits"] == plain.stats["visits"]
    assert mixed.stats["belief_refills"] == 1 and mixed.stats["belief_ess"] == pytest.approx(64)
    searches = {}
    for seed in range(12):
        searcher = make_searcher("ismcts", iterations=400, seed=2, pending="sample", belief="particles",
                                 belief_mix=0.0, particles=1)
        f = searcher.new_belief(game.new_initial_state(), 1, seed)
        f.observe(CHANCE, prize)
        f.observe(0, hidden_bid)
        bid = f.particle(0).to_json()["bids"][0]
        result = searcher.search(s)
        assert result.stats["belief_refills"] == 0 and result.stats["belief_particles"] == 1
        assert searcher.engine.belief_draws == 400
        searches[bid] = result.stats["visits"]
    assert len(searches) >= 2 and len({tuple(sorted(v.items())) for v in searches.values()}) == len(searches)

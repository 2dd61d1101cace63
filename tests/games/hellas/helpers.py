"""Positions for the Hellas rules tests: dealt on purpose, then edited through to_json / from_json."""
import random

from engine.games.hellas.state import HellasGame

GAMES = {}
ATHENS_HAND = (3, 7, 16, 19, 25, 36)       # spec 10.6.3 ids
SPARTA_HAND = (5, 9, 22, 28, 34, 38)


def game(data="431", rules=""):
    """The game on data set `data` with the option `rules` (rule keys set over the data set: KEY=VALUE;...)."""
    if (data, rules) not in GAMES:
        GAMES[data, rules] = HellasGame({"data": data, "rules": rules})
    return GAMES[data, rules]


def dealt(athens=ATHENS_HAND, sparta=SPARTA_HAND, data="431", rules=""):
    """The first New Year after the deal: Athens holds `athens`, Sparta `sparta`; Sparta chooses first."""
    s = game(data, rules).new_initial_state()
    for a, b in zip(athens, sparta):
        s.apply(f"deal:{a}")
        s.apply(f"deal:{b}")
    assert s.step_name() == "card" and s.current_player() == 1
    return s


def spring(athens=ATHENS_HAND, sparta=SPARTA_HAND, ny=("sacrifice:38", "sacrifice:36"), data="431", rules=""):
    """Spring of the first year: both have played their New Year card (Sparta's, then Athens')."""
    s = dealt(athens, sparta, data, rules)
    s.apply(ny[0])
    s.apply(ny[1])
    assert s.step_name() == "card" and s.to_json()["season"] == "Spring"
    return s


def edit(state, change):
    """A new state: state's JSON changed in place by `change(obj)`, then validated by from_json."""
    obj = state.to_json()
    change(obj)
    return state.game.state_from_json(obj)


def random_walk(state, seed):
    """Play state to the end in place with seeded random actions (chance outcomes by their probabilities),
    yielding it after each action."""
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        yield state


def play_random(state, seed, limit=100_000):
    n = 0
    for _ in random_walk(state, seed):
        n += 1
        assert n < limit
    return n


def unseen(obj, enemy):
    """The ids of `enemy`'s blocks that obj shows as not revealed."""
    return sorted(b for b, v in obj["blocks"].items() if b.startswith(enemy[0]) and not v["revealed"])


def same_view_other_truth(s):
    """The same information set for Sparta, another truth: two unseen Athenian land blocks swap places (and
    steps change), and Athens holds other cards from the unseen ones."""
    obj = s.to_json()
    data = s.game.data
    units = {u.id: u for u in data.units}
    areas = {a.id: a for a in data.areas}
    cand = [b for b in unseen(obj, "Athens") if obj["blocks"][b]["area"] != "pool"
            and units[b].type != "fleet" and not units[b].barbarian and not areas[obj["blocks"][b]["area"]].sea]
    pair = None
    for i, a in enumerate(cand):
        for b in cand[i + 1:]:
            if obj["blocks"][a]["area"] != obj["blocks"][b]["area"]:
                pair = (a, b)
                break
        if pair:
            break
    assert pair, "no two unseen Athenian land blocks in different areas"

    def change(o):
        a, b = pair
        va, vb = o["blocks"][a], o["blocks"][b]
        o["blocks"][a], o["blocks"][b] = {**vb, "steps": 1}, {**va, "steps": 1}
        hand, deck = o["cards"]["Athens"], o["cards"]["deck"]
        if hand and deck:
            hand[0], deck[0] = deck[0], hand[0]
            hand.sort()
            deck.sort()
    return edit(s, change)

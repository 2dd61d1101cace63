"""Positions for the Hellas rules tests: dealt on purpose, then edited through to_json / from_json."""
import copy
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
    """A new state: state's JSON changed in place by `change(obj)`, then validated by from_json. A block the change
    edits (other than its "known") loses what the enemy tracked of it: from_json gives it the least knowledge (a
    revealed block itself, an unseen one any block of its side), since its old mask may not fit its new place."""
    obj = state.to_json()
    before = copy.deepcopy(obj["blocks"])
    change(obj)
    for bid, v in obj["blocks"].items():
        old = before.get(bid)
        if isinstance(v, dict) and "known" in v and old is not None and v.get("known") == old["known"] and \
                {k: x for k, x in v.items() if k != "known"} != {k: x for k, x in old.items() if k != "known"}:
            del v["known"]
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
    """The same information set for Sparta, two truths: two unseen Athenian land blocks in different areas, which
    the tracker is told Sparta cannot tell apart (each may be either, at any strength), stand as they are in the
    first and swap places (steps changed) in the second, where Athens also holds other cards from the unseen
    ones. Returns (first, second)."""
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
    a, b = pair
    either = sorted(set(obj["blocks"][a]["known"]["could_be"]) | set(obj["blocks"][b]["known"]["could_be"]),
                    key=lambda x: units[x].index)

    def blur(o):
        for x in pair:
            o["blocks"][x]["known"] = {"could_be": either, "steps": [-8, 8], "steps_from": "absolute"}
    first = s.game.state_from_json(_changed(obj, blur))

    def swap(o):
        blur(o)
        va, vb = o["blocks"][a], o["blocks"][b]
        o["blocks"][a], o["blocks"][b] = {**vb, "steps": 1}, {**va, "steps": 1}
        hand, deck = o["cards"]["Athens"], o["cards"]["deck"]
        if hand and deck:
            hand[0], deck[0] = deck[0], hand[0]
            hand.sort()
            deck.sort()
    return first, s.game.state_from_json(_changed(obj, swap))


def _changed(obj, change):
    obj = copy.deepcopy(obj)
    change(obj)
    return obj

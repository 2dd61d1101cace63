"""Building Polis test positions: a fresh game past the chance set-up, JSON edits with the piece supplies
recomputed, and ready-made battles."""
from __future__ import annotations

import copy

from engine.registry import load_game

G = load_game("polis")
PLAYERS = ("athens", "sparta")
CODES = ["A2", "A1", "B1", "B0", "C1", "C0", "D0", "M0", "S-1"]
COUNTS = [3, 5, 4, 2, 3, 2, 3, 1, 1]


def fresh(tiles=("Myron", "Protagoras", "Aphrodite"), events=("alpha-1", "sigma-1", "omega-1"), game=G):
    """The set-up of spec section 3 with a fixed display and event stack; Sparta to move (L167)."""
    s = game.new_initial_state()
    for t in tiles:
        s.apply(f"draw:{t}")
    for e in events:
        s.apply(f"event:{e}")
    return s


def fix(j, game=G):
    """Recompute both supplies (cubes, discs, merchants) from the board so the accounting of L189 holds."""
    t = game.tables
    for p, name in enumerate(PLAYERS):
        on = sum(v["pop"] for v in j["poleis"].values() if v["owner"] == name)
        on += sum(v[name] for v in j["regions"].values()) + sum(v[name] for v in j["seas"].values())
        j["players"][name]["cubes"] = t["cubes"] - on
        discs = sum(1 for v in j["poleis"].values() if v["owner"] == name)
        discs += sum(1 for v in j["regions"].values() if v["tribute"] == name)
        discs += sum(v["siege"][name] for v in j["poleis"].values())
        j["players"][name]["discs"] = t["discs"] - discs
        cells = sum(1 for c in j["market"]["cells"] if c["merchant"] == name)
        pl = j["players"][name]
        pl["merchants"] = t["merchants"] - pl["merchants_on_port"] - cells
    return j


def edit(state, fn, game=G):
    j = copy.deepcopy(state.to_json())
    fn(j)
    fix(j, game)
    return game.state_from_json(j)


def set_round(j, rnd):
    j["round"] = rnd
    for c in j["market"]["cells"]:
        c["blocked"] = c["rate"] > {"alpha": 3, "sigma": 4, "omega": 5}[rnd]


def clear_units(j):
    for v in j["regions"].values():
        v["athens"] = v["sparta"] = 0
    for v in j["seas"].values():
        v["athens"] = v["sparta"] = 0


def battle(area, athens, sparta, hands, attacker, rnd="sigma", prestige=(5, 5), discard=(), game=G):
    """A battle in `area` at the attacker's choice of two cards; hands as lists of card codes."""
    s = fresh(game=game)

    def fn(j):
        set_round(j, rnd)
        clear_units(j)
        where = "regions" if area in j["regions"] else "seas"
        j[where][area]["athens"] = athens
        j[where][area]["sparta"] = sparta
        j["phase"] = "attack"
        j["active"] = attacker
        j["players"]["athens"]["prestige"], j["players"]["sparta"]["prestige"] = prestige
        used = list(hands["athens"]) + list(hands["sparta"]) + list(discard)
        deck = []
        for code, n in zip(CODES, COUNTS):
            deck += [code] * (n - used.count(code))
        j["battle"] = {"area": area, "attacker": attacker, "retreat_order": [attacker, PLAYERS[1 - PLAYERS.index(attacker)]],
                       "played": [], "deck": deck, "discard": list(discard),
                       "hands": {"athens": list(hands["athens"]), "sparta": list(hands["sparta"])},
                       "need": {"athens": 0, "sparta": 0}}
        j["flow"]["check_ctx"] = 0
        j["flow"]["chooser"] = PLAYERS.index(attacker)
    return edit(s, fn, game)


def names(state):
    return [state.action_to_str(a) for a in state.legal_actions()]


def play(state, *moves):
    for m in moves:
        state.apply(m)
    return state


def player(state, name):
    return state.to_json()["players"][name]

"""Building Pantikapaion test positions through from_json.

``position()`` starts from a set-up game (first player P0, resource tokens dealt in board order, a known ring),
applies the overrides, and fills in what follows from them (bag = tiles not placed anywhere, building stock,
upgrade tokens and stacks from the markers, workers in supply), so a test names only what it is about.
"""
from __future__ import annotations

import copy

from engine.registry import load_game

COLOURS = ("brown", "purple", "white", "orange", "green")
RING = [f"T{i}" for i in range(52, 66)]     # cities in tests use the other tiles


def game(players=2):
    return load_game("pantikapaion", players=players)


def setup(players=2, ring=None):
    """A game right after setup: P0 first, tokens dealt as the first outcome each time, ring drawn as given."""
    g = game(players)
    s = g.new_initial_state()
    s.apply("first p0")
    while s.phase == "resource_token":
        s.apply(s.chance_outcomes()[0][0])
    for name in (ring or RING)[:g.data["ring_size"][players]]:
        s.apply(f"draw {name}")
    return s


def board(coins=0, storage=None, markers=None, workers_board=1, tiles=(), cubes=None, workers=(), buildings=(),
          **extra):
    """One player's board; storage / markers as {colour: n} (missing colours 0). cubes=None: a cube on every top
    resource cell not under a building or a worker (as freshly laid tiles have)."""
    b = {"coins": coins, "storage": {c: (storage or {}).get(c, 0) for c in COLOURS},
         "markers": {c: (markers or {}).get(c, 0) for c in COLOURS}, "workers_board": workers_board,
         "tiles": [list(t) for t in tiles], "cubes": cubes, "workers": list(workers),
         "buildings": [list(x) for x in buildings]}
    b.update(extra)
    return b


def fresh_cubes(D, b):
    """Cells of the top resource cells of a city (after its tiles) that no building or worker covers."""
    from engine.games.pantikapaion.notation import G, cell_name, parse_cell
    names = {t["id"]: t for t in D["tiles"]}
    face = {}
    for entry in b["tiles"]:
        t = names[entry[0]]
        rot = dict(t["rotations"])[entry[1]]
        a = parse_cell(entry[2])
        for dy, dx, typ in rot:
            face[a + dy * G + dx] = typ
    covered = {parse_cell(c) for x in b["buildings"] for c in x[1:]} | {parse_cell(c) for c in b["workers"]}
    return [cell_name(c) for c in sorted(face) if 3 <= face[c] <= 8 and c not in covered]


def position(players=2, boards=None, ring=None, phase="development", current=0, pending=None, hand=None, **top):
    """A state from JSON. boards: {seat: board(...)}; hand: the tile id in hand (rotation / anchor phases)."""
    base = setup(players)
    g = base.game
    D = g.data
    obj = base.to_json()
    obj["phase"] = phase
    obj["current"] = current
    obj.update(top)
    if pending:
        obj["pending"].update(pending)
    if ring is not None:
        obj["ring"] = list(ring) + [None] * (D["ring_size"][players] - len(ring))
    placed = {}
    built = {b["name"]: 0 for b in D["buildings"]}
    for p, b in (boards or {}).items():
        full = copy.deepcopy(obj["boards"][p])
        full.update(b)
        if full["cubes"] is None:
            full["cubes"] = fresh_cubes(D, full)
        got = [0, 0, 0]
        for c, row in enumerate(D["dev"]):
            for pos, (kind, arg) in enumerate(row, 1):
                if kind == 6 and full["markers"][COLOURS[c]] >= pos:
                    got[D["upgrade_cells"][arg]] += 1
        if "substitution_tokens" not in b:
            full["substitution_tokens"] = got[0]
        if "resource_discount" not in b:
            full["resource_discount"] = bool(got[1])
        if "coin_discount" not in b:
            full["coin_discount"] = bool(got[2])
        if "workers_supply" not in b:
            full["workers_supply"] = D["workers"] - full["workers_board"] - len(full["workers"])
        for t in full["tiles"]:
            placed[t[0]] = placed.get(t[0], 0) + 1
        for x in full["buildings"]:
            built[x[0]] += 1
        obj["boards"][p] = full
    for name, k in placed.items():
        if name.startswith("AQ-"):
            obj["aqueduct_tiles"][name] -= k
    if hand is not None:
        obj["pending"]["ptile"] = [t["id"] for t in D["tiles"]].index(hand)
        placed[hand] = placed.get(hand, 0) + 1
        if hand.startswith("AQ-"):
            obj["aqueduct_tiles"][hand] -= 1
    in_ring = {t for t in obj["ring"] if t}
    obj["bag"] = {t["id"]: t["count"] for t in D["tiles"][:D["n_terrain"]]
                  if t["id"] not in in_ring and t["id"] not in placed}
    obj["discard"] = {}
    pieces = D["pieces_2p"] if players == 2 else D["pieces"]
    obj["stock"] = {name: pieces - k for name, k in built.items()}
    stacks = []
    for c, row in enumerate(D["dev"]):
        for pos, (kind, arg) in enumerate(row, 1):
            if kind == 6:
                stacks.append(players - sum(1 for q in obj["boards"] if q["markers"][COLOURS[c]] >= pos))
    obj["upgrade_stacks"] = stacks
    return g.state_from_json(obj)


def markers(**m):
    return {c: m.get(c, 0) for c in COLOURS}


def finish_turn(s):
    """Decline everything optional until the player to move changes (or chance / the end comes)."""
    p = s.current_player()
    while s.current_player() == p:
        moves = [s.action_to_str(a) for a in s.legal_actions()]
        s.apply("skip" if "skip" in moves else "done" if "done" in moves else moves[0])
    return s


def bj(state, p=0):
    return state.to_json()["boards"][p]

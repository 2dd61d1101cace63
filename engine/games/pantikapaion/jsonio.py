"""Pantikapaion states as JSON: ``state_to_json`` and the checking ``state_from_json``.

A city is written as the tiles in the order they were placed (face, rotation, anchor cell, chosen cube colour of an
aqueduct tile), then the cubes, workers and buildings lying on it. Reading replays the tiles, so a file whose tile
overhangs, floats or stacks on uneven ground is refused, as is a building on a building, a worker count that does
not add up to 5, a tile that exists twice, and so on: BadStateError names the problem, and no state is returned.
"""
from __future__ import annotations

from engine.core import dead_end
from engine.errors import BadStateError
from engine.games.pantikapaion.notation import G, cell_name, parse_cell

from engine.games.pantikapaion.state import MAX_BUILDINGS, MAX_TILES, PHASES  # noqa: E402  (from the C core)

PENDING = ("ptile", "psrc", "prot", "pcell", "wnext", "wlast", "chain", "paid", "coin_used", "sell_rows", "btype",
           "bmode", "bslot", "sub_left", "sub_min", "opt", "opt_arg", "seq", "dlast")
CUBE, WORKER, TYPE = 0x10, 0x20, 0x0F


def _counts(arr, names, limit):
    return {names[i]: int(arr[i]) for i in range(limit) if arr[i]}


def state_to_json(state) -> dict:
    d = state._raw()
    D = state.game.data
    n = d["players"]
    tiles, colours, builds = D["tiles"], D["colours"], D["buildings"]
    names = [t["id"] for t in tiles]
    nt = D["n_terrain"]
    out = {
        "game": "pantikapaion", "players": n, "round": d["round"], "turns_taken": d["tturn"],
        "first_player": d["first"], "current": d["cur"], "phase": PHASES[d["phase"]],
        "ring": [names[t] if t >= 0 else None for t in d["ring"][:D["ring_size"][n]]],
        "ring_filled": d["ring_fill"], "trireme": d["tri"],
        "bag": _counts(d["bag"], names, nt), "discard": _counts(d["disc"], names, nt),
        "stock": {builds[t]["name"]: d["stock"][t] for t in range(5)},
        "upgrade_stacks": d["upg_left"][:len(D["upgrade_cells"])],
        "aqueduct_tiles": {names[nt + i]: d["aq_left"][i] for i in range(len(tiles) - nt)},
        "resource_tokens": [("+".join(colours[c][0] for c in D["tokens"][k]) if k >= 0 else None)
                            for k in d["tok_at"][:D["n_res1"] + D["n_res2"]]],
        "pending": {k: d[k] for k in PENDING},
        "boards": [],
    }
    for p in range(n):
        P = d["pl"][p]
        city_tiles = []
        for i in range(P["ntiles"]):
            tt, r = P["h_tile"][i], P["h_rot"][i]
            entry = [names[tt], tiles[tt]["rotations"][r][0], cell_name(P["h_at"][i])]
            if tt >= nt:
                entry.append(colours[P["h_col"][i]] if P["h_col"][i] >= 0 else None)
            city_tiles.append(entry)
        blds = []
        for k in range(P["nb"]):
            b = [builds[P["btype"][k]]["name"], cell_name(P["bc0"][k])]
            if P["bc1"][k] >= 0:
                b.append(cell_name(P["bc1"][k]))
            blds.append(b)
        out["boards"].append({
            "coins": P["coins"],
            "storage": {colours[c]: P["store"][c] for c in range(5)},
            "markers": {colours[c]: P["marker"][c] for c in range(5)},
            "workers_board": P["w_board"], "workers_supply": P["w_supply"],
            "substitution_tokens": P["n_sub"], "resource_discount": bool(P["has_res"]),
            "coin_discount": bool(P["has_coin"]),
            "tiles": city_tiles,
            "cubes": [cell_name(c) for c in range(G * G) if P["top"][c] & CUBE],
            "workers": [cell_name(c) for c in range(G * G) if P["top"][c] & WORKER],
            "buildings": blds,
        })
    return out


def state_from_json(game, obj):
    def fail(msg):
        raise BadStateError(f"pantikapaion state: {msg}")

    D = game.data
    tiles, colours, builds = D["tiles"], D["colours"], D["buildings"]
    names = {t["id"]: i for i, t in enumerate(tiles)}
    nt = D["n_terrain"]
    if not isinstance(obj, dict):
        fail(f"expected a JSON object, got {type(obj).__name__}")
    need = ("players", "round", "turns_taken", "first_player", "current", "phase", "ring", "ring_filled", "trireme",
            "bag", "discard", "stock", "upgrade_stacks", "aqueduct_tiles", "resource_tokens", "pending", "boards")
    missing = [k for k in need if k not in obj]
    if missing:
        fail(f"missing field(s) {', '.join(missing)}")
    if obj.get("game") != "pantikapaion":
        fail(f"game is {obj.get('game')!r}, expected 'pantikapaion'")
    n = obj["players"]
    if n != game.num_players:
        fail(f"players={n!r} does not match the game ({game.num_players})")

    def integer(v, what, lo=None, hi=None):
        if isinstance(v, bool) or not isinstance(v, int):
            fail(f"{what} must be an integer, got {v!r}")
        if lo is not None and v < lo or hi is not None and v > hi:
            fail(f"{what}={v} out of range {lo}..{hi}")
        return v

    def cell(text, what):
        try:
            return parse_cell(text) if isinstance(text, str) else fail(f"{what}: a cell is a string like 'f7'")
        except ValueError as e:
            fail(f"{what}: {e}")

    def colour_index(name, what):
        if name not in colours:
            fail(f"{what}: unknown colour {name!r} (one of {', '.join(colours)})")
        return colours.index(name)

    s = game.new_initial_state()
    d = s._raw()
    rounds = D["rounds"]
    d["round"] = integer(obj["round"], "round", 1, rounds)
    d["tturn"] = integer(obj["turns_taken"], "turns_taken", 0, D["turns"] * n)
    d["first"] = integer(obj["first_player"], "first_player", 0, n - 1)
    d["cur"] = integer(obj["current"], "current", 0, n - 1)
    if obj["phase"] not in PHASES:
        fail(f"phase {obj['phase']!r} is not one of {', '.join(PHASES)}")
    d["phase"] = PHASES.index(obj["phase"])
    pend = obj["pending"]
    if not isinstance(pend, dict) or set(pend) != set(PENDING):
        fail(f"pending must hold exactly the fields {', '.join(PENDING)}")
    ranges = {"ptile": (-1, len(tiles) - 1), "psrc": (0, 1), "prot": (0, 3), "pcell": (-1, G * G - 1),
              "wnext": (0, 2), "wlast": (-1, G * G - 1), "chain": (-1, 4), "paid": (0, 3), "coin_used": (0, 1),
              "sell_rows": (0, 31), "btype": (-1, 4), "bmode": (0, 2), "bslot": (-1, MAX_BUILDINGS - 1), "sub_left": (0, 2),
              "sub_min": (0, 4), "opt": (0, 1), "opt_arg": (0, 4), "seq": (-1, 4), "dlast": (0, 4)}
    for k in PENDING:
        d[k] = integer(pend[k], f"pending.{k}", *ranges[k])
    phase = obj["phase"]
    if phase == "paid_step" and d["chain"] < 0:
        fail("phase paid_step needs the row of the build (pending.chain)")
    if phase in ("substitution", "building_placement") and d["btype"] < 0:
        fail(f"phase {phase} needs a building type (pending.btype)")
    if phase == "substitution" and d["sub_left"] < 1:
        fail("phase substitution needs substitutions left (pending.sub_left)")
    if phase == "option" and d["opt"] == 0 and d["opt_arg"] >= len(tiles) - nt:
        fail("phase option: pending.opt_arg names no aqueduct tile")
    if d["ptile"] >= len(tiles) or d["btype"] >= 5:
        fail("pending tile or building out of range")
    if d["phase"] in (5, 6, 7) and d["ptile"] < 0:
        fail(f"phase {obj['phase']} needs a tile in hand (pending.ptile)")
    if d["phase"] in (6, 7) and d["prot"] >= len(tiles[d["ptile"]]["rotations"]):
        fail("pending rotation out of range for the tile in hand")

    # ring, bag, discard: every terrain tile is in exactly one place
    ring_size = D["ring_size"][n]
    ring = obj["ring"]
    if not isinstance(ring, list) or len(ring) != ring_size:
        fail(f"ring must list {ring_size} slots (tile id or null)")
    seen = [0] * len(tiles)
    for i, t in enumerate(ring):
        if t is not None:
            if not isinstance(t, str) or t not in names or names[t] >= nt:
                fail(f"ring slot {i}: unknown terrain tile {t!r}")
            d["ring"][i] = names[t]
            seen[names[t]] += 1
    d["ring_fill"] = integer(obj["ring_filled"], "ring_filled", 0, ring_size)
    d["tri"] = integer(obj["trireme"], "trireme", -1, ring_size - 1)
    for key, arr in (("bag", "bag"), ("discard", "disc")):
        d[arr] = [0] * len(d[arr])
        if not isinstance(obj[key], dict):
            fail(f"{key} must map tile ids to counts")
        total = 0
        for t, k in obj[key].items():
            if not isinstance(t, str) or t not in names or names[t] >= nt:
                fail(f"{key}: unknown terrain tile {t!r}")
            d[arr][names[t]] = integer(k, f"{key}[{t}]", 0, 255)
            seen[names[t]] += k
            total += k
        d["bag_n" if key == "bag" else "disc_n"] = total
    if d["ptile"] >= 0 and d["phase"] in (5, 6):
        seen[d["ptile"]] += 1            # the tile in hand (placed by the time its aqueduct cube is chosen)

    stock = obj["stock"]
    if not isinstance(stock, dict) or set(stock) != {b["name"] for b in builds}:
        fail("stock must give the pieces left of every building type")
    pieces = D["pieces_2p"] if n == 2 else D["pieces"]
    for t, b in enumerate(builds):
        d["stock"][t] = integer(stock[b["name"]], f"stock[{b['name']}]", 0, pieces)
    ups = obj["upgrade_stacks"]
    if not isinstance(ups, list) or len(ups) != len(D["upgrade_cells"]):
        fail(f"upgrade_stacks must list {len(D['upgrade_cells'])} stacks")
    for i, k in enumerate(ups):
        d["upg_left"][i] = integer(k, f"upgrade_stacks[{i}]", 0, n)
    aqs = obj["aqueduct_tiles"]
    aq_names = [t["id"] for t in tiles[nt:]]
    if not isinstance(aqs, dict) or set(aqs) != set(aq_names):
        fail(f"aqueduct_tiles must give the count left of {', '.join(aq_names)}")
    for i, name in enumerate(aq_names):
        d["aq_left"][i] = integer(aqs[name], f"aqueduct_tiles[{name}]", 0, tiles[nt + i]["count"])
        seen[nt + i] += aqs[name]
    toks = obj["resource_tokens"]
    nres = D["n_res1"] + D["n_res2"]
    if not isinstance(toks, list) or len(toks) != nres:
        fail(f"resource_tokens must list {nres} cells (token or null)")
    tok_names = ["+".join(colours[c][0] for c in tok) for tok in D["tokens"]]
    used = set()
    dealt = 0
    for i, tk in enumerate(toks):
        if tk is None:
            continue
        if tk not in tok_names:
            fail(f"resource_tokens[{i}]: unknown token {tk!r}")
        k = tok_names.index(tk)
        if k in used:
            fail(f"resource token {tk} is dealt twice")
        if (i < D["n_res1"]) != (k < D["n_single_tokens"]):
            fail(f"resource_tokens[{i}]: a {'single' if i < D['n_res1'] else 'double'}-resource cell holds {tk}")
        used.add(k)
        d["tok_at"][i] = k
        dealt = i + 1
    if len(used) != dealt:
        fail("resource tokens are dealt in board order; a cell before the last dealt one is empty")
    d["tok_dealt"] = dealt
    if d["phase"] > 1 and dealt != nres:
        fail("resource tokens not all dealt after setup")

    boards = obj["boards"]
    if not isinstance(boards, list) or len(boards) != n:
        fail(f"boards must hold one entry per player ({n})")
    built = [0] * 5
    cities = []
    for p, b in enumerate(boards):
        where = f"player {p}"
        if not isinstance(b, dict):
            fail(f"{where}: board must be an object")
        for key in ("coins", "storage", "markers", "workers_board", "workers_supply", "substitution_tokens",
                    "resource_discount", "coin_discount", "tiles", "cubes", "workers", "buildings"):
            if key not in b:
                fail(f"{where}: missing {key}")
        P = d["pl"][p]
        P["coins"] = integer(b["coins"], f"{where} coins", 0, 10000)
        for key, arr, hi in (("storage", "store", 200), ("markers", "marker", None)):
            if not isinstance(b[key], dict) or set(b[key]) != set(colours):
                fail(f"{where} {key} must give a value for each colour")
            for c, name in enumerate(colours):
                top = hi if hi is not None else len(D["dev"][c])
                P[arr][c] = integer(b[key][name], f"{where} {key}[{name}]", 0, top)
        P["w_board"] = integer(b["workers_board"], f"{where} workers_board", 0, D["workers"])
        P["w_supply"] = integer(b["workers_supply"], f"{where} workers_supply", 0, D["workers"])
        P["n_sub"] = integer(b["substitution_tokens"], f"{where} substitution_tokens", 0, D["max_sub"])
        P["has_res"] = int(bool(b["resource_discount"]))
        P["has_coin"] = int(bool(b["coin_discount"]))
        # upgrade tokens follow from the markers: one token per upgrade cell reached (L372)
        got = [0, 0, 0]
        for c, row in enumerate(D["dev"]):
            for pos, (kind, arg) in enumerate(row, 1):
                if kind == 6 and P["marker"][c] >= pos:
                    got[D["upgrade_cells"][arg]] += 1
        if got != [P["n_sub"], P["has_res"], P["has_coin"]]:
            fail(f"{where}: upgrade tokens {[P['n_sub'], P['has_res'], P['has_coin']]} (substitution, resource, "
                 f"coin) do not match the upgrade cells the markers reached {got}")
        cities.append(b)
    # the upgrade stacks: one token a player, taken by those who reached the cell
    k = 0
    for c, row in enumerate(D["dev"]):
        for pos, (kind, arg) in enumerate(row, 1):
            if kind == 6:
                takers = sum(1 for p in range(n) if d["pl"][p]["marker"][c] >= pos)
                if d["upg_left"][arg] != n - takers:
                    fail(f"upgrade stack {arg} holds {d['upg_left'][arg]} tokens; {n} - {takers} players who "
                         f"reached it = {n - takers}")
    s._set_raw(d)

    # cities: replay the tiles, then lay cubes, workers and buildings
    for p, b in enumerate(cities):
        where = f"player {p} city"
        heights = {}
        if not isinstance(b["tiles"], list) or not isinstance(b["buildings"], list):
            fail(f"{where}: tiles and buildings must be lists")
        if len(b["tiles"]) > MAX_TILES or len(b["buildings"]) > MAX_BUILDINGS:
            fail(f"{where}: more than {MAX_TILES} tiles or {MAX_BUILDINGS} buildings, which no game reaches")
        for i, entry in enumerate(b["tiles"]):
            what = f"{where} tile #{i + 1}"
            if not isinstance(entry, list) or len(entry) not in (3, 4):
                fail(f"{what}: expected [tile, rotation, cell] or [tile, rotation, cell, cube colour]")
            name, deg, at = entry[:3]
            if not isinstance(name, str) or name not in names:
                fail(f"{what}: unknown tile {name!r}")
            tt = names[name]
            seen[tt] += 1
            rots = [r[0] for r in tiles[tt]["rotations"]]
            if deg not in rots:
                fail(f"{what}: {name} has rotations {rots}, not {deg!r}")
            r = rots.index(deg)
            anchor = cell(at, what)
            shape = tiles[tt]["rotations"][r][1]
            ay, ax = divmod(anchor, G)
            cells = []
            for dy, dx, _ in shape:
                if ay + dy >= G or ax + dx >= G:
                    fail(f"{what}: {name} at {at} leaves the {G}x{G} city grid")
                cells.append((ay + dy) * G + ax + dx)
            hs = [heights.get(c, 0) for c in cells]
            if i > 0:
                if all(h == 0 for h in hs):
                    touch = any(heights.get(c2, 0) > 0 for c in cells
                                for c2 in ((c - G) if c >= G else -1, c + G, c - 1 if c % G else -1,
                                           c + 1 if c % G < G - 1 else -1))
                    if not touch:
                        fail(f"{what}: {name} at {at} does not touch the city by a side (L203)")
                elif any(h == 0 for h in hs):
                    fail(f"{what}: {name} at {at} overhangs: part lies on tiles, part on the table (L209)")
                elif len(set(hs)) > 1:
                    fail(f"{what}: {name} at {at} lies on tiles of different levels {sorted(set(hs))} (L209)")
                elif hs[0] >= 15:
                    fail(f"{what}: {name} at {at} would make a stack of 16 tiles (engine limit: 15)")
            for c in cells:
                heights[c] = heights.get(c, 0) + 1
            wild = s._place_tile(p, tt, r, anchor)
            if tt >= nt:
                col = entry[3] if len(entry) == 4 else None
                if col is None:
                    last = i == len(b["tiles"]) - 1 and d["phase"] == 7 and d["cur"] == p
                    if not last:
                        fail(f"{what}: the aqueduct tile's cube colour is missing")
                    d["pcell"] = wild
                else:
                    ci = colour_index(col, what)
                    s._set_top(p, wild, 3 + ci)
                    s._set_h_col(p, i, ci)
            elif len(entry) == 4:
                fail(f"{what}: only aqueduct tiles carry a chosen cube colour")
        # cubes: the replay seeded every resource cell; keep only the listed ones
        for c in range(G * G):
            s._set_top(p, c, s._top(p, c) & TYPE)
        if not isinstance(b["cubes"], list) or not isinstance(b["workers"], list):
            fail(f"{where}: cubes and workers must be lists of cells")
        for name in b["cubes"]:
            c = cell(name, f"{where} cube")
            t = s._top(p, c) & TYPE
            if s._height(p, c) == 0:
                fail(f"{where}: cube on {name}, which has no tile")
            if not 3 <= t <= 7:
                fail(f"{where}: cube on {name}, which is not a resource cell")
            s._set_top(p, c, t | CUBE)
        nworkers = 0
        for name in b["workers"]:
            c = cell(name, f"{where} worker")
            if s._height(p, c) == 0:
                fail(f"{where}: worker on {name}, which has no tile")
            if s._top(p, c) & (WORKER | CUBE):
                fail(f"{where}: worker on {name} shares the cell with another worker or a cube")
            s._set_top(p, c, s._top(p, c) | WORKER)
            nworkers += 1
        P = d["pl"][p]
        total = nworkers + P["w_board"] + P["w_supply"]
        if total != D["workers"]:
            fail(f"player {p} has {total} workers (city {nworkers}, board {P['w_board']}, supply "
                 f"{P['w_supply']}); exactly {D['workers']} exist (L35, L119)")
        for j, entry in enumerate(b["buildings"]):
            what = f"{where} building #{j + 1}"
            bnames = [x["name"] for x in builds]
            if not isinstance(entry, list) or not entry or entry[0] not in bnames:
                fail(f"{what}: expected [type, cell(s)] with a type of {', '.join(bnames)}")
            t = bnames.index(entry[0])
            cs = [cell(x, what) for x in entry[1:]]
            if len(cs) != builds[t]["cells"]:
                fail(f"{what}: a {entry[0]} takes {builds[t]['cells']} cell(s), got {len(cs)}")
            for c in cs:
                if s._height(p, c) == 0:
                    fail(f"{what}: {cell_name(c)} has no tile")
                if s._bld(p, c):
                    fail(f"{what}: {cell_name(c)} already holds a building (a building on a building)")
                if s._top(p, c) & (WORKER | CUBE):
                    fail(f"{what}: {cell_name(c)} also holds a worker or a cube")
            if len(cs) == 2:
                a, z = sorted(cs)
                if not (z - a == G or (z - a == 1 and a % G < G - 1)):
                    fail(f"{what}: the two cells {entry[1]} and {entry[2]} are not orthogonal neighbours (L264)")
                if s._height(p, a) != s._height(p, z):
                    fail(f"{what}: the two cells lie on different levels (L262)")
                s._put_building(p, t, a, z)
            else:
                s._put_building(p, t, cs[0], -1)
            built[t] += 1
    if phase == "building_placement" and d["bmode"] == 2:
        if not 0 <= d["bslot"] < len(cities[d["cur"]]["buildings"]):
            fail("phase building_placement (move) names no building of the player (pending.bslot)")
        moved = cities[d["cur"]]["buildings"][d["bslot"]][0]
        if builds[d["btype"]]["name"] != moved:
            fail(f"phase building_placement moves the player's {moved}, not a {builds[d['btype']]['name']} "
                 "(pending.btype)")
    # pending.seq walks the seats from the first player at the end of a round: the storage discards (L400), then
    # in the last round the final worker placement (L422, pending.wnext 2); otherwise it rests at -1 or n
    if d["seq"] > n:
        fail(f"pending.seq = {d['seq']} is past the {n} seats")
    if 0 <= d["seq"] < n and (d["cur"] != (d["first"] + d["seq"]) % n or not (phase == "discard" or d["wnext"] == 2)):
        fail("pending.seq is a seat only while the players discard or place their final workers, in seat order")
    if (phase == "discard" or phase == "workers" and d["wnext"] == 2) and not 0 <= d["seq"] < n:
        fail(f"phase {phase} needs the seat in turn (pending.seq)")
    if phase == "workers" and d["wnext"] == 2 and d["round"] != rounds:
        fail("the final worker placement (pending.wnext 2) comes only in the last round (L422)")
    if phase == "aqueduct_cube" and not (d["pcell"] >= 0 and s._top(d["cur"], d["pcell"]) & TYPE == 8):
        fail("phase aqueduct_cube needs the player's last tile to be an aqueduct tile without its cube colour")
    for t, b in enumerate(builds):
        pending_piece = 1 if d["phase"] == 11 and d["bmode"] in (0, 1) and d["btype"] == t else 0
        if d["stock"][t] + built[t] + pending_piece != pieces:
            fail(f"{b['name']}: {d['stock'][t]} in stock + {built[t]} built + {pending_piece} in hand != {pieces}")
    for i, t in enumerate(tiles):
        if seen[i] != t["count"]:
            fail(f"tile {t['id']} is in {seen[i]} places (bag, discard, ring, cities, hand); the set has {t['count']}")
    # scalars that the replay disturbed (covered cubes, returned workers) come back from the file
    raw = s._raw()
    for p in range(n):
        for key in ("coins", "store", "marker", "w_board", "w_supply", "n_sub", "has_res", "has_coin"):
            raw["pl"][p][key] = d["pl"][p][key]
        raw["pl"][p]["w_city"] = sum(1 for c in range(G * G) if raw["pl"][p]["top"][c] & WORKER)
    raw["pcell"] = d["pcell"]
    s._set_raw(raw)
    if obj["phase"] == "over":
        if d["round"] != rounds:
            fail(f"the game can only be over after round {rounds}, not in round {d['round']}")
    problem = dead_end(s)
    if problem:
        fail(problem)
    return s

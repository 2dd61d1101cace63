"""Polis states as JSON: ``to_json``, ``state_from_json`` (validating every rule-bound invariant) and
``observation`` (what one seat sees: the opponent's battle hand and the deck order only as counts)."""
from __future__ import annotations

from engine.core import dead_end
from engine.errors import BadStateError
from engine.games.polis.data import ACTION_NAMES, PLAYERS, RESOURCES

PHASES = ("setup-tiles", "event-stack", "action", "surcharge", "train-polis", "train-count", "build-polis", "build-count",
          "hire-polis", "hire-count", "pay-split", "develop-tile", "develop-polis", "develop-mask", "move-dest",
          "move-from", "siege-target", "siege-roll", "tribute-region", "tribute-alloc", "trade-cell", "trade-pay",
          "trade-roll", "proxenos-dest", "battle-order", "retreat", "deal", "attack", "defend", "food", "growth",
          "phoros", "tile-draw", "tile-remove", "over")
CHANCE_PHASES = {"setup-tiles", "event-stack", "siege-roll", "trade-roll", "deal", "tile-draw"}
BATTLE_PHASES = {"retreat", "deal", "attack", "defend"}
ROUNDS = ("alpha", "sigma", "omega")
WINNERS = {-1: None, 0: "athens", 1: "sparta", 2: "draw", 3: "score"}
FLOW_FIELDS = ("first_passer", "last_passer", "acts", "first_type", "solo_acts", "cur", "sel_polis", "sel_n",
               "sel_n2", "sel_tile", "sel_area", "sel_cell", "moved", "pay_res", "pay_n", "rise_mask", "check_ctx",
               "chooser", "eor_step", "eor_idx", "draws_left", "event_cur", "stack_delta", "first_override",
               "b_lost", "b_rounds", "b_initial", "ret_cursor")
MAXR, MAXS, NPOL, MAXCELL, NTILE, NK = 16, 8, 18, 16, 14, 9


def _who(p):
    return None if p < 0 else PLAYERS[p]


def to_json(state) -> dict:
    d = state.raw()
    t = state.static()
    regions, seas, poleis, tiles = t["regions"], t["seas"], t["poleis"], [x[0] for x in t["tiles"]]
    areas, codes = t["areas"], t["card_codes"]
    out = {
        "game": "polis",
        "round": ROUNDS[d["round"]],
        "phase": PHASES[d["phase"]],
        "active": PLAYERS[d["active"]],
        "winner": WINNERS[d["winner"]],
        "flow": {k: d[k] for k in FLOW_FIELDS},
        "passed": [bool(x) for x in d["passed"]],
        "turns": list(d["turns"]),
        "pending_battles": [areas[a] for a in range(len(areas)) if d["pending"] >> a & 1],
        "started_this_round": [poleis[i] for i in range(NPOL) if d["started"] >> i & 1],
        "grown": {poleis[i]: d["grown"][i] for i in range(NPOL) if d["grown"][i]},
        "blocked": {PLAYERS[p]: [ACTION_NAMES[a - 1] for a in range(1, 12) if d["blocked"][p] >> a & 1]
                    for p in range(2)},
        "players": {},
        "regions": {regions[r]: {"athens": d["hop"][r][0], "sparta": d["hop"][r][1], "tribute": _who(d["trib"][r])}
                    for r in range(len(regions))},
        "seas": {seas[s]: {"athens": d["gal"][s][0], "sparta": d["gal"][s][1]} for s in range(len(seas))},
        "poleis": {poleis[i]: {"owner": _who(d["owner"][i]), "pop": d["pop"][i],
                               "siege": {"athens": d["siege"][i][0], "sparta": d["siege"][i][1]}}
                   for i in range(NPOL)},
        "projects": {"pile": [], "display": [], "removed": [], "started": {}, "completed": {}},
        "market": {
            "prices": {RESOURCES[r]: d["ppos"][r] + 1 for r in range(3)},
            "cells": [{"market": t["markets"][c[0]], "rate": c[1], "merchant": _who(d["cell_occ"][i]),
                       "blocked": bool(d["cell_block"][i])} for i, c in enumerate(t["cells"])],
        },
        "events": {"stack": [t["events"][e][1] if e >= 0 else None for e in d["ev_stack"]],
                   "revealed": d["ev_shown"]},
        "battle": None,
    }
    for p in range(2):
        pl = {"prestige": d["prestige"][p]}
        pl.update({RESOURCES[r]: d["res"][p][r] for r in range(5)})
        pl.update({"cubes": d["cubes"][p], "discs": d["discs"][p], "merchants": d["msup"][p],
                   "merchants_on_port": d["mport"][p],
                   "proxenos": "captured" if d["prox"][p] < 0 else poleis[d["prox"][p]]})
        out["players"][PLAYERS[p]] = pl
    for k in range(NTILE):
        w = d["tile_where"][k]
        if w == -1:
            out["projects"]["pile"].append(tiles[k])
        elif w == -2:
            out["projects"]["display"].append(tiles[k])
        elif w == -3:
            out["projects"]["removed"].append(tiles[k])
        else:
            key = "completed" if d["tile_done"][k] else "started"
            out["projects"][key].setdefault(poleis[w], []).append(tiles[k])
    if d["b_area"] >= 0:
        def cards(counts):
            return [codes[k] for k in range(NK) for _ in range(counts[k])]
        out["battle"] = {
            "area": areas[d["b_area"]], "attacker": PLAYERS[d["b_att"]],
            "retreat_order": [PLAYERS[d["ret_who"][0]], PLAYERS[d["ret_who"][1]]],
            "played": [codes[c] for c in (d["a1"], d["a2"]) if c >= 0],
            "deck": cards(d["deck"]), "discard": cards(d["disc"]),
            "hands": {PLAYERS[p]: cards(d["hand"][p]) for p in range(2)},
            "need": {PLAYERS[p]: d["need"][p] for p in range(2)},
        }
    return out


def observation(state, player: int) -> dict:
    """to_json without what ``player`` cannot see: the opponent's hand and the deck become counts."""
    obs = to_json(state)
    obs["you"] = PLAYERS[player]
    ev = obs["events"]
    ev["stack"] = [name if i < ev["revealed"] or name is None else "face-down" for i, name in enumerate(ev["stack"])]
    b = obs["battle"]
    if b is not None:
        opp = PLAYERS[1 - player]
        b["hands"][opp] = len(b["hands"][opp])
        b["deck"] = len(b["deck"])
    return obs


def state_from_json(game, obj):
    """Rebuild a state from ``to_json`` output, checking every field and the rules that tie them together.

    Raises BadStateError naming the problem; nothing is built from a state that fails any check."""
    try:
        return _from_json(game, obj)
    except BadStateError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as e:
        raise BadStateError(f"polis state: malformed field ({type(e).__name__}: {e})") from None


def _units(d, area, p, nregions):
    return d["hop"][area][p] if area < nregions else d["gal"][area - nregions][p]


def _check_battle(d, phase, areas, nregions, fail):
    """The hand sizes and turn order the battle code relies on (spec 6, L579-606). Each side is dealt one card a
    unit (L579); an exchange spends two cards a side and the defender's losses; the refill deals the attacker 2
    and the defender 2 less its losses (L600-602), so outside the deal a hand is its unit count less the cards
    on the table, and the attacker to move always holds a pair."""
    area, att = d["b_area"], d["b_att"]
    dfn = 1 - att
    u = [_units(d, area, p, nregions) for p in range(2)]
    hand = [sum(d["hand"][p]) for p in range(2)]
    where = areas[area]
    if min(u) < 2:
        fail(f"a battle in {where} needs 2 or more units a side (L575), not {u[0]} and {u[1]}")
    if d["pending"] >> area & 1:
        fail(f"the battle in {where} is being fought and still pending")
    if (d["a1"] >= 0) != (phase == "defend"):
        fail("two attacking cards lie on the table exactly while the defender answers")
    if any(d["need"]) and phase != "deal":
        fail("cards are still to be dealt only in the deal phase")
    if d["b_lost"] and (phase != "retreat" or d["b_initial"]):
        fail("units lost in an exchange are counted only in the retreat window after it")
    if d["b_initial"] and phase != "retreat":
        fail("a battle not yet dealt is in its first retreat window")
    if phase == "retreat":
        first = d["ret_who"][0]
        if d["ret_who"][1] != 1 - first or d["ret_cursor"] > 1 or d["active"] != d["ret_who"][d["ret_cursor"]]:
            fail("the retreat window asks each player once, the active player being the one asked")
        if d["prestige"][d["active"]] < 1:
            fail("a player with no prestige cannot retreat and is never asked (L604)")
        want = [0, 0] if d["b_initial"] else [u[att] - 2, u[dfn] - 2 + d["b_lost"]]
        want = [want[0], want[1]] if att == 0 else [want[1], want[0]]
    elif phase == "deal":
        want = [u[p] - d["need"][p] for p in range(2)]
        if not any(d["need"]) or sum(d["deck"]) < sum(d["need"]):
            fail(f"the deal needs {sum(d['need'])} cards and the deck holds {sum(d['deck'])}")
    elif phase == "attack":
        want = u
        if d["active"] != att:
            fail("the attacker plays first (L585)")
    else:
        want = [u[p] - (2 if p == att else 0) for p in range(2)]
        if d["active"] != dfn:
            fail("the defender answers the attacking cards (L587)")
    for p in range(2):
        if hand[p] != want[p]:
            fail(f"{PLAYERS[p]} holds {hand[p]} battle cards with {u[p]} units in {where} at phase {phase}; "
                 f"the rules deal exactly {want[p]} (a card a unit, L579; refills L600-602)")


T_TRAIN, T_BUILD, T_HIRE = 1, 2, 3
IRON, WOOD = RESOURCES.index("iron"), RESOURCES.index("wood")


def _check_recruiting(d, t, phase, limit, fail):
    """Training, building and hiring (spec 5.1-5.3) part-way: the polis chosen is the mover's and gives up at
    least one population cube, and a split payment pays for the units the count chose, within the stacking
    limit (L259) and the supply, so that completing it never leaves a count below zero."""
    p, pol, kind = d["active"], d["sel_polis"], d["cur"]
    name = t["poleis"][pol]
    if kind not in (T_TRAIN, T_BUILD, T_HIRE):
        fail(f"phase {phase} belongs to training, building or hiring, not action {kind}")
    if phase != {T_TRAIN: "train-count", T_BUILD: "build-count", T_HIRE: "hire-count"}[kind] and phase != "pay-split":
        fail(f"phase {phase} does not belong to action {ACTION_NAMES[kind - 1]}")
    if d["owner"][pol] != p or d["pop"][pol] < 2:
        fail(f"{name} must be the mover's with 2 or more population to give units (L269)")
    if kind == T_HIRE and not t["trade_poleis"][p] >> pol & 1:
        fail(f"{name} is no trade polis of the mover (L287)")
    ports = t["ports"][pol]
    if kind == T_BUILD and (not ports or (d["sel_n"] >= 0 and phase == "build-count" and len(ports) < 2)):
        fail(f"{name}: galleys are built into its port sea, a second count only for a second port (L279)")
    if phase != "pay-split":
        return
    n = d["pay_n"]
    if not 1 <= n <= d["pop"][pol] - 1 or d["pay_res"] != (IRON if kind == T_TRAIN else WOOD):
        fail(f"a split payment of {n} x {RESOURCES[d['pay_res']]} does not pay for {ACTION_NAMES[kind - 1]}ing "
             f"from {name}")
    if kind == T_TRAIN and d["hop"][t["polis_region"][pol]][p] + n > limit:
        fail(f"training {n} hoplites in the region of {name} would pass the stacking limit {limit} (L259)")
    if kind == T_BUILD:
        counts = [d["sel_n"], d["sel_n2"]]
        if min(counts) < 0 or sum(counts) != n or (len(ports) < 2 and counts[1]) or \
                any(d["gal"][s][p] + c > limit for s, c in zip(ports, counts)):
            fail(f"building {counts} galleys from {name} does not fit the payment of {n} or the stacking limit "
                 f"{limit} (L259, L279)")
    if kind == T_HIRE and d["msup"][p] < n:
        fail(f"hiring {n} merchants with {d['msup'][p]} in supply")


def _from_json(game, obj):
    def fail(msg):
        raise BadStateError(f"polis state: {msg}")

    if not isinstance(obj, dict):
        fail(f"expected a JSON object, got {type(obj).__name__}")
    if obj.get("game") != "polis":
        fail(f"game must be 'polis', got {obj.get('game')!r}")
    need = ("round", "phase", "active", "winner", "flow", "passed", "turns", "pending_battles", "started_this_round",
            "grown", "blocked", "players", "regions", "seas", "poleis", "projects", "market", "events", "battle")
    missing = [k for k in need if k not in obj]
    if missing:
        fail(f"missing field(s) {', '.join(missing)}")
    t = game.tables
    regions, seas, poleis, areas = t["regions"], t["seas"], t["poleis"], t["areas"]
    tiles = [x[0] for x in t["tiles"]]
    codes = t["card_codes"]
    base = game.new_initial_state()
    d = base.raw()

    def pick(value, options, what):
        if value not in options:
            fail(f"{what} {value!r} is not one of {list(options)}")
        return list(options).index(value)

    def integer(value, lo, hi, what):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            fail(f"{what} = {value!r} must be an integer in {lo}..{hi}")
        return value

    def player(value, what, allow_none=True):
        if value is None and allow_none:
            return -1
        return pick(value, PLAYERS, what)

    d["round"] = pick(obj["round"], ROUNDS, "round")
    d["phase"] = pick(obj["phase"], PHASES, "phase")
    d["active"] = player(obj["active"], "active", False)
    winners = {v: k for k, v in WINNERS.items()}
    if obj["winner"] not in winners:
        fail(f"winner {obj['winner']!r} is not one of {list(winners)}")
    d["winner"] = winners[obj["winner"]]
    if (d["winner"] >= 0) != (obj["phase"] == "over"):
        fail("a winner is set exactly when the phase is 'over'")
    flow = obj["flow"]
    if not isinstance(flow, dict) or set(flow) != set(FLOW_FIELDS):
        fail(f"flow must hold exactly the fields {', '.join(FLOW_FIELDS)}")
    nareas, ncells, nev = len(areas), len(t["cells"]), len(t["events"])
    bounds = {"first_passer": (-1, 1), "last_passer": (-1, 1), "acts": (0, 2), "first_type": (-1, 11),
              "solo_acts": (0, 100), "cur": (-1, 11), "sel_polis": (-1, NPOL - 1), "sel_n": (-1, 10),
              "sel_n2": (-1, 10), "sel_tile": (-1, NTILE - 1), "sel_area": (-1, nareas - 1),
              "sel_cell": (-1, ncells - 1), "moved": (0, 10), "pay_res": (-1, 4), "pay_n": (-1, 10),
              "rise_mask": (0, 7), "check_ctx": (0, 1), "chooser": (0, 1), "eor_step": (0, 10), "eor_idx": (0, 2),
              "draws_left": (0, NTILE), "event_cur": (-1, nev - 1), "stack_delta": (-3, 3),
              "first_override": (-1, 1), "b_lost": (0, 2), "b_rounds": (0, 30), "b_initial": (0, 1),
              "ret_cursor": (0, 2)}
    for k in FLOW_FIELDS:
        d[k] = integer(flow[k], *bounds[k], f"flow.{k}")
    # the context each sub-decision needs (so no decision reads an unset choice)
    needs = {"train-count": ("sel_polis",), "hire-count": ("sel_polis",), "build-count": ("sel_polis",),
             "pay-split": ("pay_res", "pay_n", "cur"), "develop-polis": ("sel_tile",),
             "develop-mask": ("sel_tile", "sel_polis"), "move-from": ("sel_area", "cur"),
             "move-dest": ("cur",), "siege-roll": ("sel_polis",), "tribute-alloc": ("sel_area",),
             "trade-pay": ("sel_cell",), "surcharge": ("cur",)}
    for k in needs.get(obj["phase"], ()):
        if d[k] < 0:
            fail(f"phase {obj['phase']} needs flow.{k} to be set")
    owner_action = {"train-polis": (1,), "train-count": (1,), "build-polis": (2,), "build-count": (2,),
                    "hire-polis": (3,), "hire-count": (3,), "pay-split": (1, 2, 3), "develop-tile": (4,),
                    "develop-polis": (4,), "develop-mask": (4,), "move-dest": (5, 6), "move-from": (5, 6),
                    "siege-target": (7,), "siege-roll": (7,), "tribute-region": (8,), "tribute-alloc": (8,),
                    "trade-cell": (9,), "trade-pay": (9,), "proxenos-dest": (10,)}
    if d["cur"] not in owner_action.get(obj["phase"], (d["cur"],)):
        fail(f"phase {obj['phase']} is a step of another action than flow.cur = {d['cur']}")
    if obj["phase"] == "move-from" and (d["cur"] not in (5, 6) or (d["cur"] == 5) != (d["sel_area"] < len(regions))):
        fail("phase move-from needs a hoplite move to a region or a galley move to a sea")
    if obj["phase"] in ("tribute-alloc",):
        if d["sel_area"] >= len(regions):
            fail("tribute is collected in a region")
    if obj["phase"] in ("build-count", "siege-roll", "train-count", "hire-count") and d["sel_polis"] >= 0:
        pol = d["sel_polis"]
        if obj["phase"] == "build-count" and not t["ports"][pol]:
            fail(f"{poleis[pol]} has no port to build galleys")
        if obj["phase"] in ("siege-roll", "train-count") and t["polis_region"][pol] < 0:
            fail(f"{poleis[pol]} lies in no region")
    if obj["phase"] == "trade-roll" and d["rise_mask"] == 0 and not 0 <= d["pay_res"] <= 2:
        fail("a trade roll moves the price of iron, wood or wine")
    if not (isinstance(obj["passed"], list) and len(obj["passed"]) == 2):
        fail("passed must list 2 booleans")
    d["passed"] = [1 if x else 0 for x in obj["passed"]]
    d["turns"] = [integer(x, 0, 100, "turns") for x in obj["turns"]] if len(obj["turns"]) == 2 else fail("turns: 2 ints")
    d["pending"] = sum(1 << pick(a, areas, "pending battle area") for a in obj["pending_battles"])
    d["started"] = sum(1 << pick(p, poleis, "started_this_round polis") for p in obj["started_this_round"])
    d["grown"] = [0] * NPOL
    for name, n in obj["grown"].items():
        d["grown"][pick(name, poleis, "grown polis")] = integer(n, 0, 12, f"grown[{name}]")
    d["blocked"] = [0, 0]
    for p in range(2):
        for a in obj["blocked"].get(PLAYERS[p], []):
            d["blocked"][p] |= 1 << (pick(a, ACTION_NAMES, "blocked action") + 1)
    rcap, pcap = t["resource_cap"], t["prestige_cap"]
    for p, name in enumerate(PLAYERS):
        pl = obj["players"].get(name)
        if not isinstance(pl, dict):
            fail(f"players.{name} is missing")
        d["prestige"][p] = integer(pl.get("prestige"), 0, pcap, f"{name} prestige")
        d["res"][p] = [integer(pl.get(r), 0, rcap, f"{name} {r}") for r in RESOURCES]
        d["cubes"][p] = integer(pl.get("cubes"), 0, t["cubes"], f"{name} cubes in supply")
        d["discs"][p] = integer(pl.get("discs"), 0, t["discs"], f"{name} discs in supply")
        d["msup"][p] = integer(pl.get("merchants"), 0, t["merchants"], f"{name} merchants in supply")
        d["mport"][p] = integer(pl.get("merchants_on_port"), 0, t["merchants"], f"{name} merchants on port")
        prox = pl.get("proxenos")
        d["prox"][p] = -1 if prox == "captured" else pick(prox, poleis, f"{name} proxenos")
    if d["prox"][0] >= 0 and d["prox"][0] == d["prox"][1]:
        fail("both proxenoi stand in the same polis (one proxenos per polis, L533)")
    limit = max(1, d["round"] + 3 + d["stack_delta"])
    d["hop"] = [[0, 0] for _ in range(MAXR)]
    d["trib"] = [-1] * MAXR
    for name, v in obj["regions"].items():
        r = pick(name, regions, "region")
        for p in range(2):
            d["hop"][r][p] = integer(v.get(PLAYERS[p]), 0, 20, f"{PLAYERS[p]} hoplites in {name}")
            if d["hop"][r][p] > limit:
                fail(f"{PLAYERS[p]} has {d['hop'][r][p]} hoplites in {name}, over the stacking limit {limit} (L259)")
        d["trib"][r] = player(v.get("tribute"), f"tribute disc in {name}")
    d["gal"] = [[0, 0] for _ in range(MAXS)]
    for name, v in obj["seas"].items():
        s = pick(name, seas, "sea")
        for p in range(2):
            d["gal"][s][p] = integer(v.get(PLAYERS[p]), 0, 20, f"{PLAYERS[p]} galleys in {name}")
            if d["gal"][s][p] > limit:
                fail(f"{PLAYERS[p]} has {d['gal'][s][p]} galleys in {name}, over the stacking limit {limit} (L259)")
    if set(obj["poleis"]) != set(poleis):
        fail("poleis must list all 18 poleis")
    for name, v in obj["poleis"].items():
        i = poleis.index(name)
        d["owner"][i] = player(v.get("owner"), f"owner of {name}")
        d["pop"][i] = integer(v.get("pop"), 0, t["max_pop"][i], f"population of {name}")
        if (d["owner"][i] >= 0) != (d["pop"][i] > 0):
            fail(f"{name}: an owned polis has 1..max population and a neutral one none (pop {d['pop'][i]})")
        sg = v.get("siege", {})
        d["siege"][i] = [integer(sg.get(PLAYERS[p], 0), 0, 10, f"siege discs on {name}") for p in range(2)]
    for p in range(2):
        if d["owner"][t["capital"][p]] != p:
            fail(f"{poleis[t['capital'][p]]} must belong to {PLAYERS[p]} (a capital cannot be lost)")
    # project tiles: each exactly once
    where = {}
    pr = obj["projects"]

    def place(name, spot):
        if name not in tiles:
            fail(f"unknown project tile {name!r}")
        if name in where:
            fail(f"project tile {name} is in two places ({where[name]} and {spot})")
        where[name] = spot
    for key, code in (("pile", -1), ("display", -2), ("removed", -3)):
        for name in pr.get(key, []):
            place(name, key)
            d["tile_where"][tiles.index(name)] = code
            d["tile_done"][tiles.index(name)] = 0
    for key, done in (("started", 0), ("completed", 1)):
        for pol, names in pr.get(key, {}).items():
            i = pick(pol, poleis, f"polis of {key} projects")
            for name in names:
                place(name, f"{key} on {pol}")
                k = tiles.index(name)
                if not t["tiles"][k][1] >> i & 1:
                    fail(f"project {name} cannot be developed in {pol}")
                d["tile_where"][k] = i
                d["tile_done"][k] = done
    if len(where) != NTILE:
        fail(f"project tiles missing: {', '.join(sorted(set(tiles) - set(where)))}")
    if obj["phase"] == "tribute-alloc":
        # the column being filled (sel_n2) is not the last one, which takes the rest; the hoplites placed so far
        # (sel_n) and those still to place fit in the columns from it on (L454)
        cols = [len(v) for _, v in t["trib"][d["sel_area"]]]
        hop = d["hop"][d["sel_area"]][d["active"]] if 0 <= d["active"] <= 1 else 0
        if not (0 <= d["sel_n2"] < len(cols) - 1 and 0 <= d["sel_n"] <= hop
                and sum(cols[:d["sel_n2"]]) >= d["sel_n"] and hop - d["sel_n"] <= sum(cols[d["sel_n2"]:])):
            fail("tribute-alloc: flow.sel_n (hoplites placed) and flow.sel_n2 (the column being filled) do not "
                 "fit the region's tribute columns")
    mk = obj["market"]
    for r in range(3):
        d["ppos"][r] = integer(mk["prices"].get(RESOURCES[r]), 1, len(t["price"][0]), f"price of {RESOURCES[r]}") - 1
    if len(mk["cells"]) != len(t["cells"]):
        fail(f"market.cells must list {len(t['cells'])} cells")
    for i, c in enumerate(mk["cells"]):
        d["cell_occ"][i] = player(c.get("merchant"), f"merchant on cell {i}")
        d["cell_block"][i] = 1 if c.get("blocked") else 0
        if d["cell_occ"][i] >= 0 and d["cell_block"][i]:
            fail(f"market cell {i} holds both a merchant and a black cube")
    for i, (m, rate) in enumerate((c[0], c[1]) for c in t["cells"]):
        if d["cell_block"][i] and any(c[0] == m and c[1] > rate and not d["cell_block"][j]
                                      for j, c in enumerate(t["cells"])):
            fail(f"market cell {i} is blocked while a dearer cell of its market is free; black cubes leave each "
                 "market lowest rate first (L682)")
    # the event stack: one card of each letter, dealt in order, revealed one a round
    ev = obj["events"]
    if not isinstance(ev, dict) or not isinstance(ev.get("stack"), list) or len(ev["stack"]) != 3:
        fail("events must hold a stack of 3 entries and a revealed count")
    d["ev_stack"] = [-1, -1, -1]
    ev_names = [e[1] for e in t["events"]]
    for i, name in enumerate(ev["stack"]):
        if name is None:
            if i < 2 and ev["stack"][i + 1] is not None:
                fail("the event stack is dealt alpha, sigma, omega in that order")
            continue
        e = pick(name, ev_names, "event card")
        if t["events"][e][0] != i:
            fail(f"event card {name} belongs to another pile than stack slot {ROUNDS[i]}")
        d["ev_stack"][i] = e
    d["ev_shown"] = integer(ev.get("revealed"), 0, 3, "events.revealed")
    if d["ev_shown"] > sum(1 for e in d["ev_stack"] if e >= 0):
        fail("more events revealed than dealt")
    # battle
    b = obj["battle"]
    d["hand"] = [[0] * NK, [0] * NK]
    d["deck"] = [0] * NK
    d["disc"] = [0] * NK
    d["need"] = [0, 0]
    d["a1"] = d["a2"] = -1
    d["b_area"] = -1
    if (b is not None) != (obj["phase"] in BATTLE_PHASES):
        fail("a battle is described exactly when the phase is a battle phase (retreat, deal, attack, defend)")
    if b is not None:
        d["b_area"] = pick(b.get("area"), areas, "battle area")
        d["b_att"] = player(b.get("attacker"), "attacker", False)
        d["ret_who"] = [player(x, "retreat order", False) for x in b.get("retreat_order", ["athens", "sparta"])]

        def counts(cards, what):
            c = [0] * NK
            for x in cards:
                c[pick(x, codes, f"battle card in {what}")] += 1
            return c
        d["deck"] = counts(b.get("deck", []), "deck")
        d["disc"] = counts(b.get("discard", []), "discard")
        played = b.get("played", [])
        if len(played) not in (0, 2):
            fail("battle.played holds 0 or 2 cards")
        if played:
            d["a1"], d["a2"] = sorted(codes.index(x) if x in codes else fail(f"unknown card {x!r}") for x in played)
        for p in range(2):
            d["hand"][p] = counts(b["hands"].get(PLAYERS[p], []), f"{PLAYERS[p]} hand")
            d["need"][p] = integer(b.get("need", {}).get(PLAYERS[p], 0), 0, 10, "need")
        _check_battle(d, obj["phase"], areas, len(regions), fail)
        for k in range(NK):
            total = d["deck"][k] + d["disc"][k] + d["hand"][0][k] + d["hand"][1][k] + \
                (d["a1"] == k) + (d["a2"] == k)
            if total != t["card_count"][k]:
                fail(f"battle card {codes[k]} appears {total} times across deck, hands, discard and table; "
                     f"the deck has exactly {t['card_count'][k]} (a card in two places, or one missing)")
    # accounting of pieces (L189)
    for p in range(2):
        name = PLAYERS[p]
        on_map = sum(d["pop"][i] for i in range(NPOL) if d["owner"][i] == p)
        on_map += sum(d["hop"][r][p] for r in range(MAXR)) + sum(d["gal"][s][p] for s in range(MAXS))
        if on_map + d["cubes"][p] != t["cubes"]:
            fail(f"{name} cubes do not add up: {on_map} on the board + {d['cubes'][p]} in supply != {t['cubes']}")
        discs = sum(1 for i in range(NPOL) if d["owner"][i] == p) + sum(1 for r in range(MAXR) if d["trib"][r] == p)
        discs += sum(d["siege"][i][p] for i in range(NPOL))
        if discs + d["discs"][p] != t["discs"]:
            fail(f"{name} discs do not add up: {discs} in play + {d['discs'][p]} in supply != {t['discs']}")
        merch = d["msup"][p] + d["mport"][p] + sum(1 for c in d["cell_occ"] if c == p)
        if merch != t["merchants"]:
            fail(f"{name} merchants do not add up: {merch} != {t['merchants']}")
    if obj["phase"] in ("train-count", "build-count", "hire-count", "pay-split"):
        _check_recruiting(d, t, obj["phase"], limit, fail)
    if obj["phase"] == "tile-draw" and not 1 <= d["draws_left"] <= len(pr.get("pile", [])):
        fail(f"phase tile-draw draws {d['draws_left']} project tiles from a pile of {len(pr.get('pile', []))}")
    c = d["sel_cell"]
    if obj["phase"] == "trade-pay" and (d["cell_block"][c] or d["cell_occ"][c] >= 0 or t["cells"][c][1] > d["round"] + 3):
        fail(f"the merchant goes to market cell {c}, which is blocked, taken or not yet open this round (L486-490)")
    state = base
    state.set_raw(d)
    problem = dead_end(state)
    if problem:
        fail(problem)
    return state

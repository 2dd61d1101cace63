"""State <-> JSON for Mare Nostrum, the checks of from_json, and each player's observation.

The JSON names things (empires, provinces, seas, goods, cards); the phase machinery's counters sit under
"machine" as plain numbers. from_json checks every rule a state must keep and raises BadStateError naming the
first one broken; nothing is applied until all checks pass.
"""
from engine.core import dead_end
from engine.errors import BadStateError
from engine.games.mare_nostrum.state import MareNostrumState, SIZES, _NAMES

FORMAT = 1
TITLES = ("trade", "culture", "military")
READABLE = {"players", "emp", "ctrl", "cap_by", "cap_round", "leg", "fort", "tri", "built", "occ", "circe", "res",
            "rare", "rknown", "cards", "cpt", "title", "round", "step", "cur", "winners", "reason"}
TOP_KEYS = ("format", "players", "round", "step", "current", "winners", "reason", "empires", "provinces", "machine")
PLAYER_KEYS = ("empire", "resources", "rare", "rare_shown", "cards", "castor_target", "titles", "legions",
               "triremes", "fortresses")
REASONS = ("none", "pyramids", "glory", "conquest", "primacy", "perseus", "round-cap")


def _bits(mask, names):
    return [names[i] for i in range(len(names)) if (mask >> i) & 1]


def _json(raw, n, observer=None):
    emp = [_NAMES["empires"][e] for e in raw["emp"][:n]]
    goods, kinds, cards = _NAMES["goods"], _NAMES["kinds"], _NAMES["cards"]

    def who(i):
        return emp[i] if 0 <= i < n else None

    players = []
    for p in range(n):
        rec = {
            "empire": emp[p],
            "resources": {kinds[t]: raw["res"][p][t] for t in range(SIZES["NR"])},
            "rare": _bits(raw["rare"][p], goods),
            "rare_shown": _bits(raw["rknown"][p], goods),
            "cards": _bits(raw["cards"][p], cards),
            "castor_target": cards[raw["cpt"][p]] if raw["cpt"][p] >= 0 else None,
            "titles": [TITLES[t] for t in range(3) if raw["title"][t] == p],
            "legions": {_NAMES["provinces"][i]: raw["leg"][i][p] for i in range(len(_NAMES["provinces"]))
                        if raw["leg"][i][p]},
            "triremes": {_NAMES["seas"][s]: raw["tri"][s][p] for s in range(len(_NAMES["seas"])) if raw["tri"][s][p]},
            "fortresses": [_NAMES["provinces"][i] for i in range(len(_NAMES["provinces"])) if raw["fort"][i] == p],
        }
        if observer is not None and p != observer:
            rec["rare_hidden"] = raw["view_hidden"][p]
            rec["rare"] = list(rec["rare_shown"])
        players.append(rec)
    provinces = {}
    for i, name in enumerate(_NAMES["provinces"]):
        spaces = []
        for k, pk in enumerate(_NAMES["slot_prov"]):
            if pk == i:
                spaces.append([_NAMES["slots"][k], bool(raw["built"][k]), who(raw["occ"][k]), who(raw["circe"][k])])
        provinces[name] = {
            "control": who(raw["ctrl"][i]),
            "capture": {"by": who(raw["cap_by"][i]), "round": raw["cap_round"][i]} if raw["cap_by"][i] >= 0 else None,
            "spaces": spaces,
        }
    machine = {k: v for k, v in raw.items() if k not in READABLE}
    if observer is not None:
        machine["stack"] = None
    return {
        "format": FORMAT,
        "players": n,
        "round": raw["round"],
        "step": _NAMES["steps"][raw["step"]],
        "current": raw["cur"],
        "winners": [emp[p] for p in range(n) if (raw["winners"] >> p) & 1],
        "reason": REASONS[raw["reason"]],
        "empires": players,
        "provinces": provinces,
        "machine": machine,
    }


def to_json(state):
    return _json(state._raw(), state.num_players)


def observation(state, player):
    obs = _json(state._raw_view(player), state.num_players, observer=player)
    obs["observer"] = player
    obs["to_move"] = state.current_player()
    return obs


def from_json(game, obj):
    def fail(msg):
        raise BadStateError(f"mare_nostrum state: {msg}")

    if not isinstance(obj, dict):
        fail(f"expected a JSON object, got {type(obj).__name__}")
    missing = [k for k in TOP_KEYS if k not in obj]
    if missing:
        fail(f"missing field(s) {', '.join(missing)}")
    if obj["format"] != FORMAT:
        fail(f"format {obj['format']!r} is not {FORMAT}")
    n = obj["players"]
    if n != game.num_players:
        fail(f"players={n!r} does not match the game ({game.num_players})")
    base = game.new_initial_state()
    raw = base._raw()
    seats = [_NAMES["empires"][e] for e in raw["emp"][:n]]
    provs, seas, goods, kinds, cards = (_NAMES[k] for k in ("provinces", "seas", "goods", "kinds", "cards"))
    machine = obj["machine"]
    if not isinstance(machine, dict):
        fail("machine must be an object")
    for k in raw:
        if k not in READABLE:
            if k not in machine:
                fail(f"machine is missing {k!r}")
            if not _same_shape(machine[k], raw[k]):
                fail(f"machine.{k} is out of shape: it must be {_shape_text(raw[k])}, got {str(machine[k])[:80]}")
            raw[k] = machine[k]

    def num(v, what, lo=None, hi=None):
        if isinstance(v, bool) or not isinstance(v, int):
            fail(f"{what} must be an integer, got {v!r}")
        if lo is not None and v < lo:
            fail(f"{what} = {v} is below {lo}")
        if hi is not None and v > hi:
            fail(f"{what} = {v} is above {hi}")
        return v

    def seat(name, what, allow_none=False):
        if name is None and allow_none:
            return -1
        if name not in seats:
            fail(f"{what}: {name!r} is not an empire in play ({', '.join(seats)})")
        return seats.index(name)

    if machine.get("view_hidden") != [0] * 6:
        fail("machine.view_hidden must be six zeros (it is used only in observations)")
    raw["round"] = num(obj["round"], "round", 1, 1000)
    if obj["step"] not in _NAMES["steps"]:
        fail(f"step {obj['step']!r} is not one of {_NAMES['steps']}")
    raw["step"] = _NAMES["steps"].index(obj["step"])
    raw["cur"] = num(obj["current"], "current", -2, n - 1)
    if not isinstance(obj["winners"], list):
        fail("winners must be a list")
    raw["winners"] = sum(1 << seat(w, "winners") for w in obj["winners"])
    if obj["reason"] not in REASONS:
        fail(f"reason {obj['reason']!r} is not one of {REASONS}")
    raw["reason"] = REASONS.index(obj["reason"])

    # --- empires: holdings and units
    players = obj["empires"]
    if not isinstance(players, list) or len(players) != n:
        fail(f"empires must list the {n} empires in play")
    title_holders = {t: [] for t in TITLES}
    card_owner = {}
    rare_owner = {}
    fort_at = {}
    for p, rec in enumerate(players):
        if not isinstance(rec, dict):
            fail(f"empires[{p}] must be an object")
        miss = [k for k in PLAYER_KEYS if k not in rec]
        if miss:
            fail(f"empires[{p}] is missing {', '.join(miss)}")
        if rec["empire"] != seats[p]:
            fail(f"empires[{p}] is {rec['empire']!r}; seat {p} plays {seats[p]}")
        e = rec["empire"]
        res = rec["resources"]
        if not isinstance(res, dict) or set(res) != set(kinds):
            fail(f"{e}: resources must give a count for each of {', '.join(kinds)}")
        for t, kind in enumerate(kinds):
            v = res[kind]
            if isinstance(v, int) and not isinstance(v, bool) and v < 0:
                fail(f"{e}: resources below zero: {kind} = {v}")
            raw["res"][p][t] = num(v, f"{e}: {kind}", 0, 99)
        for field in ("rare", "rare_shown"):
            if not isinstance(rec[field], list) or any(g not in goods for g in rec[field]):
                fail(f"{e}: {field} must list goods")
        if not set(rec["rare_shown"]) <= set(rec["rare"]):
            fail(f"{e}: rare_shown must be a subset of rare")
        for g in rec["rare"]:
            if g in rare_owner:
                fail(f"rare {g} is held by both {rare_owner[g]} and {e} (there is one tile of each)")
            rare_owner[g] = e
        raw["rare"][p] = sum(1 << goods.index(g) for g in set(rec["rare"]))
        raw["rknown"][p] = sum(1 << goods.index(g) for g in set(rec["rare_shown"]))
        if not isinstance(rec["cards"], list) or any(c not in cards for c in rec["cards"]):
            fail(f"{e}: cards must list card names")
        for c in rec["cards"]:
            if c in card_owner:
                fail(f"card {c} is owned by both {card_owner[c]} and {e}")
            card_owner[c] = e
        raw["cards"][p] = sum(1 << cards.index(c) for c in rec["cards"])
        ct = rec["castor_target"]
        if ct is not None and ct not in cards:
            fail(f"{e}: castor_target {ct!r} is not a card")
        raw["cpt"][p] = cards.index(ct) if ct is not None else -1
        if not isinstance(rec["titles"], list) or any(t not in TITLES for t in rec["titles"]):
            fail(f"{e}: titles must be among {TITLES}")
        for t in rec["titles"]:
            title_holders[t].append(e)
        # units: legions and fortresses stand in provinces, triremes in seas
        for kind_name, where, names in (("legions", "province", provs), ("triremes", "sea", seas)):
            units = rec[kind_name]
            if not isinstance(units, dict):
                fail(f"{e}: {kind_name} must map a {where} to a count")
            for loc, cnt in units.items():
                if loc not in names:
                    other = "a sea" if loc in seas else ("a province" if loc in provs else "not on the map")
                    fail(f"{e}: {kind_name[:-1]} placed in {loc!r}, which is {other}; {kind_name} stand in a {where}")
                num(cnt, f"{e}: {kind_name} in {loc}", 0, 99)
        total_leg = sum(rec["legions"].values())
        total_tri = sum(rec["triremes"].values())
        if not isinstance(rec["fortresses"], list):
            fail(f"{e}: fortresses must list provinces")
        for loc in rec["fortresses"]:
            if loc not in provs:
                other = "a sea" if loc in seas else "not on the map"
                fail(f"{e}: fortress placed in {loc!r}, which is {other}; fortresses stand in a province")
            if loc in fort_at:
                fail(f"{loc} holds two fortresses ({fort_at[loc]} and {e}); at most one per province (L378)")
            fort_at[loc] = e
        limits = game._limits()
        for what, have, cap in (("legions", total_leg, limits["legions"]), ("triremes", total_tri, limits["triremes"]),
                                ("fortresses", len(rec["fortresses"]), limits["fortresses"])):
            if have > cap:
                fail(f"{e} has {have} {what}; the set holds {cap} (L122-126, L650)")
    for t, holders in title_holders.items():
        if len(holders) > 1:
            fail(f"the {t} title is held by two players: {', '.join(holders)}")
        if not holders:
            fail(f"the {t} title is held by nobody")
    raw["title"] = [seats.index(title_holders[t][0]) for t in TITLES]
    for i in range(len(provs)):
        for p in range(5):
            raw["leg"][i][p] = 0
        raw["fort"][i] = -1
    for s in range(len(seas)):
        for p in range(5):
            raw["tri"][s][p] = 0
    live = raw["live"]
    for p, rec in enumerate(players):
        for loc, cnt in rec["legions"].items():
            i = provs.index(loc)
            if cnt and not (live >> i) & 1:
                fail(f"{rec['empire']}: legions in {loc}, a province out of play with {n} players")
            raw["leg"][i][p] = cnt
        for loc, cnt in rec["triremes"].items():
            raw["tri"][seas.index(loc)][p] = cnt
        for loc in rec["fortresses"]:
            raw["fort"][provs.index(loc)] = p

    # --- provinces
    pv = obj["provinces"]
    if not isinstance(pv, dict) or set(pv) != set(provs):
        fail("provinces must give every province of the map")
    for i, name in enumerate(provs):
        rec = pv[name]
        if not isinstance(rec, dict) or any(k not in rec for k in ("control", "capture", "spaces")):
            fail(f"province {name} must give control, capture and spaces")
        raw["ctrl"][i] = seat(rec["control"], f"{name}: control", allow_none=True)
        cap = _NAMES["capital_of"][i]
        if cap >= 0 and _NAMES["empires"][cap] in seats and rec["control"] != _NAMES["empires"][cap]:
            fail(f"{name} is the capital province of {_NAMES['empires'][cap]} and never changes owner (L553)")
        c = rec["capture"]
        if c is None:
            raw["cap_by"][i] = -1
            raw["cap_round"][i] = 0
        else:
            if not isinstance(c, dict) or "by" not in c or "round" not in c:
                fail(f"{name}: capture must be null or {{by, round}}")
            raw["cap_by"][i] = seat(c["by"], f"{name}: capture")
            raw["cap_round"][i] = num(c["round"], f"{name}: capture round", 1, 1000)
        mine = [k for k, pk in enumerate(_NAMES["slot_prov"]) if pk == i]
        sp = rec["spaces"]
        if not isinstance(sp, list) or len(sp) != len(mine):
            fail(f"{name}: spaces must list its {len(mine)} building spaces")
        for k, entry in zip(mine, sp):
            if not isinstance(entry, list) or len(entry) != 4 or entry[0] != _NAMES["slots"][k]:
                fail(f"{name}: space entry {entry!r} must be [{_NAMES['slots'][k]!r}, built, occupier, circe]")
            if not isinstance(entry[1], bool):
                fail(f"{name}: built must be true or false")
            raw["built"][k] = int(entry[1])
            raw["occ"][k] = seat(entry[2], f"{name}: occupier", allow_none=True)
            raw["circe"][k] = seat(entry[3], f"{name}: circe", allow_none=True)
            if raw["occ"][k] >= 0 and not entry[1]:
                fail(f"{name}: an empty space cannot be occupied")
            if raw["circe"][k] >= 0 and (entry[1] or not entry[0].startswith("caravan")):
                fail(f"{name}: Circe's legions stand only on empty caravan spaces")

    # --- reserves and the rare tiles
    for t, kind in enumerate(kinds):
        total = raw["supply"][t] + sum(raw["res"][p][t] for p in range(n))
        if raw["supply"][t] < 0:
            fail(f"the reserve of {kind} is below zero")
        if total != game._supply0(t):
            fail(f"{kind}: reserve {raw['supply'][t]} + holdings make {total}, not the {game._supply0(t)} tokens")
    held = 0
    for p in range(n):
        held |= raw["rare"][p]
    if not all(isinstance(machine.get(k), int) for k in ("stack", "discard")):
        fail("machine.stack and machine.discard must be bit masks")
    if held & raw["stack"] or held & raw["discard"] or raw["stack"] & raw["discard"]:
        fail("a rare good is in two places (a hand, the stack, the discard)")
    if held | raw["stack"] | raw["discard"] != (1 << len(goods)) - 1:
        fail("the 13 rare goods must each be in a hand, the stack or the discard")
    for k in ("live", "max_rounds", "cap_bld", "pad_"):         # the game's options, not the position's
        if raw[k] != base._raw()[k]:
            fail(f"machine.{k} = {raw[k]!r} is fixed by the game's options ({base._raw()[k]!r})")
    _check_machine(raw, n, fail)
    _check_holdings(game, raw, n, fail)
    s = game.new_initial_state()
    try:
        s._set_raw(raw)
    except (TypeError, ValueError, OverflowError, IndexError, KeyError) as exc:
        fail(f"machine field out of shape or range: {exc}")
    if (obj["step"] == "over") != (raw["cur"] == -2):
        fail("current is -2 exactly when the step is 'over'")
    problem = dead_end(s)
    if problem:
        fail(problem)
    return s


def _same_shape(value, template):
    """Is ``value`` an integer (not a bool) where ``template`` is one, and a list of the same length and shape
    where it is a list?"""
    if isinstance(template, list):
        return isinstance(value, list) and len(value) == len(template) and \
            all(_same_shape(v, t) for v, t in zip(value, template))
    return isinstance(value, int) and not isinstance(value, bool) and -2 ** 31 <= value < 2 ** 31


def _shape_text(template, plural=False):
    if isinstance(template, list):
        inner = _shape_text(template[0], True) if template else "items"
        return f"{'lists' if plural else 'a list'} of {len(template)} {inner}"
    return "integers" if plural else "an integer"


# Steps inside a movement turn in which a province may hold two players' units while an occupation there lasts:
# occupations end only once the turn's land battles are over (L476, phases.pxi to_land_battles).
IN_MOVEMENT = ("move-legions", "land-battle", "hits-attacker", "hits-defender", "casualty-attacker",
               "casualty-defender")


def _check_holdings(game, raw, n, fail):
    """The rules the move code relies on for what legions hold, the buildings, cards and trade offers."""
    provs, slot_prov, slot_type = _NAMES["provinces"], _NAMES["slot_prov"], _NAMES["slot_type"]
    emp = [_NAMES["empires"][e] for e in raw["emp"][:n]]
    step = _NAMES["steps"][raw["step"]]
    for i, name in enumerate(provs):
        spaces = [k for k, pk in enumerate(slot_prov) if pk == i]
        owners = {p for p in range(n) if raw["leg"][i][p] > 0} | ({raw["fort"][i]} if raw["fort"][i] >= 0 else set())
        at_war = len(owners) >= 2
        for x in range(n):
            held = sum(1 for k in spaces if raw["occ"][k] == x) + sum(1 for k in spaces if raw["circe"][k] == x)
            held += 1 if raw["cap_by"][i] == x else 0
            if held > raw["leg"][i][x]:
                fail(f"{name}: {emp[x]} holds {held} buildings, caravan spaces or markers with "
                     f"{raw['leg'][i][x]} legion(s); each needs a legion of its own there (L470-474)")
            if held and at_war and step not in IN_MOVEMENT:
                fail(f"{name} is at war, so {emp[x]}'s legions no longer occupy or capture there (L476)")
        for k in spaces:
            if raw["occ"][k] >= 0 and raw["occ"][k] == raw["ctrl"][i]:
                fail(f"{name}: {emp[raw['occ'][k]]} occupies a building of its own province (L470)")
        by = raw["cap_by"][i]
        if by >= 0:
            if _NAMES["capital_of"][i] >= 0:
                fail(f"{name} is a capital province; its marker is never captured (L553)")
            if raw["ctrl"][i] < 0 or raw["ctrl"][i] == by:
                fail(f"{name}: {emp[by]} captures a marker that is not an opponent's (L519)")
            if raw["cap_round"][i] > raw["round"]:
                fail(f"{name}: captured in round {raw['cap_round'][i]}, after the current round {raw['round']}")
    limits = game._limits()
    for t, cap in enumerate(limits["buildings"]):
        built = sum(1 for k in range(len(slot_type)) if raw["built"][k] and slot_type[k] == t)
        if built > cap:
            fail(f"{built} buildings of kind {t} stand on the map; the reserve holds {cap} (L122-126)")
    markers = [sum(1 for i in range(len(provs)) if raw["ctrl"][i] == x and _NAMES["capital_of"][i] < 0)
               for x in range(n)]
    for x in range(n):
        if markers[x] > limits["markers"]:
            fail(f"{emp[x]} has {markers[x]} control markers on the map; the set holds {limits['markers']}")
        if bin(raw["cards"][x]).count("1") > limits["cards"]:
            fail(f"{emp[x]} owns more than {limits['cards']} heroes and wonders (L603)")
    owned = 0
    for x in range(n):
        owned |= raw["cards"][x]
    if (owned >> 5) & (raw["row"] | raw["facedown"]):
        fail("a hero or wonder is both owned and on the display or face-down pile")
    # trade offers: only while offering and taking, never more than one holds
    for x in range(n):
        items = raw["offer"][x]
        if any(items) and step not in ("offer", "take"):
            fail(f"{emp[x]} has an offer on the table at step {step}")
        for t, cnt in enumerate(items):
            have = raw["res"][x][t] if t < len(_NAMES["kinds"]) else (raw["rare"][x] >> (t - len(_NAMES["kinds"]))) & 1
            if cnt > have:
                fail(f"{emp[x]} offers {cnt} x {_NAMES['items'][t]} but holds {have}")
        if step == "offer" and (sum(items) != raw["odone"][x] or raw["odone"][x] > raw["nofs"][x]):
            fail(f"{emp[x]}: {sum(items)} items offered, {raw['odone'][x]} counted, {raw['nofs'][x]} due")
        hand = sum(raw["res"][x]) + bin(raw["rare"][x]).count("1")
        if step == "offer" and raw["nofs"][x] > hand:
            fail(f"{emp[x]} must offer {raw['nofs'][x]} items but holds {hand}; too few resources take no part "
                 "(L293)")


def _check_machine(raw, n, fail):
    """Range checks of the phase machinery's numbers, so that no index can leave its C array."""
    nprov, nsea, nslot = len(_NAMES["provinces"]), len(_NAMES["seas"]), len(_NAMES["slots"])
    steps = _NAMES["steps"]
    step = steps[raw["step"]]

    def rng(name, value, lo, hi):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            fail(f"machine.{name} = {value!r} is outside {lo}..{hi}")

    for name in ("mover", "builder", "pending_b", "taker", "first_taker", "la", "lb", "pa", "pb", "b_att", "b_def",
                 "peace_a", "peace_b", "tok_owner"):
        rng(name, raw[name], -1, n - 1)
    for name in ("zeus_last",):
        for v in raw[name][:n]:
            rng(name, v, -1, n - 1)
    for name, hi in (("N", 5), ("tokens", 7), ("pay_left", 12), ("pay_mode", 3), ("pay_lastg", 12),
                     ("pay_cheapg", 12), ("keep_n", 2), ("keep_rare", (1 << 13) - 1), ("b_kind", 1),
                     ("b_hits_a", 31), ("b_hits_d", 31), ("bought", 17), ("done", (1 << n) - 1),
                     ("ntakes", 999), ("draw_ret", 1), ("perseus_mode", 1), ("cas_a", 1), ("cas_d", 1),
                     ("stack", (1 << 13) - 1), ("discard", (1 << 13) - 1), ("pay_lastrare", 1), ("pay_dbl", 1),
                     ("pay_for", 1)):
        rng(name, raw[name], -1 if name in ("pay_lastg", "pay_cheapg") else 0, hi)
    for name in ("row", "facedown"):
        rng(name, raw[name], 0, (1 << 17) - 1)
    for name in ("destroyed", "landfought"):
        rng(name, raw[name], 0, (1 << nprov) - 1)
    rng("seafought", raw["seafought"], 0, (1 << nsea) - 1)
    for v in raw["start_ctrl"]:
        rng("start_ctrl", v, 0, (1 << nprov) - 1)
    for v in raw["supply"]:
        rng("supply", v, 0, 999)
    rng("lastmv", raw["lastmv"], 0, 4095)
    if raw["mover"] >= 0:       # units that already moved this turn are the mover's units
        for i in range(nprov):
            if raw["legmv"][i] > raw["leg"][i][raw["mover"]]:
                fail(f"machine.legmv: {raw['legmv'][i]} legions moved into province {i}, which holds fewer")
        for i in range(nsea):
            if raw["trimv"][i] > raw["tri"][i][raw["mover"]]:
                fail(f"machine.trimv: {raw['trimv'][i]} triremes moved into sea {i}, which holds fewer")
    if raw["row"] & raw["facedown"]:
        fail("a card is both face up and face down")
    for name in ("nofs", "odone", "rare_owed", "once"):
        for v in raw[name][:n]:
            rng(name, v, 0, 99)
    for row in raw["offer"][:n]:
        for v in row:
            rng("offer", v, 0, 99)
    for v in raw["keep_res"]:
        rng("keep_res", v, 0, 2)
    for v in raw["legmv"]:
        rng("legmv", v, 0, 99)
    for v in raw["trimv"]:
        rng("trimv", v, 0, 99)
    rng("b_loc", raw["b_loc"], 0, (nsea if raw["b_kind"] == 0 else nprov) - 1)
    rng("occ_prov", raw["occ_prov"], 0, nprov - 1)
    # the cursors index by step
    if step in ("rare-draw", "colossus"):
        rng("c_p", raw["c_p"], 0 if step == "rare-draw" else -1, n - 1)
    elif step == "title":
        rng("c_p", raw["c_p"], 1, (1 << n) - 1)
        rng("c_k", raw["c_k"], 0, 2)
    else:
        rng("c_p", raw["c_p"], -1, (1 << n) - 1)
    if step == "legendary-choice":
        rng("c_k", raw["c_k"], 0, nslot - 1)
    elif step in ("capture", "occupy", "loot"):
        rng("c_k", raw["c_k"], 0, nprov - 1)
    else:
        rng("c_k", raw["c_k"], -1, max(nslot, nprov))
    if step == "pay":
        from engine.games.mare_nostrum.state import ACTIONS as A
        if not A["SLOT"] <= raw["item"] < A["CPT"]:
            fail(f"machine.item = {raw['item']} is no build action")
    for name in ("mover",) if step in ("move-triremes", "sea-battle", "move-legions", "land-battle", "capture",
                                       "occupy", "loot", "circe") else ():
        rng(name, raw[name], 0, n - 1)
    if step in ("build", "pay", "keep", "castor-target"):
        rng("builder", raw["builder"], 0, n - 1)
    if step in ("hits-attacker", "hits-defender", "casualty-attacker", "casualty-defender"):
        rng("b_att", raw["b_att"], 0, n - 1)
        rng("b_def", raw["b_def"], 0, n - 1)
    if step == "gift":
        rng("lb", raw["lb"], 0, n - 1)

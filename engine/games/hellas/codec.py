"""State <-> JSON for Hellas, the checks of from_json, and each player's observation.

The JSON names things (card ids, area ids, block ids, sides); the turn machinery's counters sit under "machine"
as plain numbers. from_json checks every rule a state must keep and raises BadStateError naming the first one
broken; nothing is applied until all checks pass.

Everything is in sides (Athens, Sparta; "current" is the side to move); machine.swap says which side each seat
plays (seat s plays side s ^ swap: SIDE_SELECTION, spec 5.13). While the sides are chosen (steps sides, bid, pick:
swap still 0, seats stand in for sides) commit and play hold the bids, as "bid:N".
"""
from engine.errors import BadStateError, NoLegalActionError
from engine.games.hellas.state import ACTIONS, SIZES, STEP_NAMES

FORMAT = 1
SIDES = ("Athens", "Sparta")
LEVELS = ("none", "draw", "minor", "major", "automatic", "truce")
TOP_KEYS = ("format", "data", "year", "season", "step", "current", "prestige", "winner", "level", "cards",
            "commit", "play", "leaders", "favours", "blocks", "cities", "control", "machine")
MACHINE = ("turn", "first", "tix", "wstage", "active", "actions", "refuge", "group", "unit", "free_move", "dealt",
           "quake_vs", "omen_vs", "famine", "plague_struck", "ev_side", "ev_card", "ev_left", "ev_opt", "ny_next",
           "truce_side", "att_area", "att_dice", "atr_next", "sieged", "supplied", "asked", "fought", "b_area",
           "b_att", "b_round", "b_letter", "b_side", "b_last", "b_firer", "b_lost", "b_routs", "b_rout_side",
           "b_stage", "b_retreat", "wd_area", "wd_unit", "r_unit", "mv_dest", "storm_n", "cargo",
           "b_kind", "b_bank", "treach", "g_fired", "march_to", "full_speed", "reroll", "swap")
UNIT_REFS = ("unit", "wd_unit", "r_unit", "cargo", "b_firer", "b_last")     # machine fields naming a block
CHANCE_STEPS = ("deal", "truce-roll", "attrition", "fire", "storm", "march", "sides")
SIDE_STEPS = {"sides": ("random", "bid"), "bid": ("bid",), "pick": ("bid",)}    # step: the SIDE_SELECTION it needs
BLOCK_KEYS = ["area", "came", "inside", "moved", "raised", "revealed", "routed", "steps", "strait"]
TRACKER_KEYS = ["could_be", "steps", "steps_from"]    # a block's "known": what the enemy can know of it
STEPS_FROM = ("absolute", "prior")                      # the bounds as steps, or as offsets from the prior strength
STEP_BOUND = SIZES["STEP_BOUND"]
MOVING = ("move-unit", "move-dest", "withdraw", "storm", "cargo", "forced", "march")   # a group move under way
TURN = MOVING + ("favour", "action", "place", "siege", "attrition", "battle", "fire", "hit", "rout", "continue",
                "retreat", "sally")                     # a player's turn (its actions and battles) under way
BATTLE = ("fire", "hit", "rout", "continue", "retreat")  # a battle or assault under way
# The turn machinery's fields that belong to some steps only (phases.pxi and apply.pxi reset them on leaving):
# field, its value outside them, the steps it may differ at (None: any), the steps it must differ at. A stale one
# would steer the step it is not checked at (an att_area outside a siege attrites a city nobody besieges).
STEP_FIELDS = (
    ("active", -1, TURN + ("event-target",), TURN),
    ("att_area", -1, ("attrition", "hit"), ("attrition",)),
    ("wd_area", -1, ("withdraw",), ("withdraw",)),
    ("wd_unit", -1, ("withdraw",), ("withdraw",)),
    ("r_unit", -1, ("retreat",), ("retreat",)),
    ("ev_side", -1, ("event-target",), ("event-target",)),
    ("ev_card", -1, ("event-target",), ("event-target",)),
    ("ev_left", 0, ("event-target",), ()),
    ("ev_opt", 0, ("event-target",), ()),
    ("ny_next", -1, ("event-target",), ()),
    ("atr_next", -1, ("taxes-keep",), ("taxes-keep",)),
    ("truce_side", -1, ("truce", "truce-roll", "over"), ("truce", "truce-roll")),
    ("march_to", -1, ("march",), ("march",)),
    ("storm_n", 0, ("storm", "cargo", "forced", "march"), ("storm",)),
    ("b_routs", 0, ("hit", "rout"), ("rout",)),
    ("b_firer", -1, BATTLE, ()),
    ("b_area", -1, BATTLE + ("sally",), ("fire", "rout", "continue", "retreat")),
    ("b_att", -1, None, ("fire", "rout", "continue", "retreat")),
    ("b_kind", 0, BATTLE, ()),
    ("group", -1, MOVING, ("move-unit", "storm", "cargo", "forced", "march")),
    ("unit", -1, MOVING + ("place",), ("move-dest", "place", "withdraw", "storm", "cargo", "forced", "march")),
    ("free_move", 0, ("move-dest", "withdraw"), ()),
)
MAXA, MAXU = SIZES["MAXA"], SIZES["MAXU"]


def _side(i):
    return SIDES[i] if i in (0, 1) else None


def _cards(mask, data):
    return [c.id for i, c in enumerate(data.cards) if (mask >> i) & 1]


def _play(code, data, bids=False):
    if code is None or code < 0:
        return None
    if bids:
        return f"bid:{code}"
    return f"{'actions' if code & 1 else 'event'}:{data.cards[code >> 1].id}"


def season_names(data):
    return ["New Year"] + list(data.rules["SEASONS"])


def to_json(state):
    return _json(state._raw(), state.game.data)


def _side_rosters(data):
    """Each side's blocks in roster order: the tracker's side-local index is the position here."""
    rosters = {}
    for u in data.units:
        rosters.setdefault(u.side, []).append(u)
    return rosters


def _known(raw, roster, u):
    i = u.index
    return {"could_be": [v.id for k, v in enumerate(roster) if (raw["poss"][i] >> k) & 1],
            "steps": [raw["slo"][i], raw["shi"][i]], "steps_from": STEPS_FROM[raw["srel"][i]]}


def _json(raw, data):
    land = [a for a in data.areas if not a.sea]
    rosters = _side_rosters(data)
    blocks = {}
    for u in data.units:
        i = u.index
        blocks[u.id] = {"area": data.areas[raw["loc"][i]].id if raw["loc"][i] >= 0 else "pool",
                        "steps": raw["steps"][i], "inside": bool(raw["incity"][i]), "moved": bool(raw["moved"][i]),
                        "raised": bool(raw["raised"][i]), "revealed": bool(raw["revealed"][i]),
                        "routed": bool(raw["routed"][i]), "strait": bool(raw["strait_in"][i]),
                        "came": data.areas[raw["came"][i]].id if raw["came"][i] >= 0 else None,
                        "known": _known(raw, rosters[u.side], u)}
    cities = {a.id: {"held_by": _side(raw["occ"][a.index]), "garrison": _side(raw["garrison"][a.index]),
                     "pillaged": bool(raw["pillaged"][a.index]), "civil_war": bool(raw["civil"][a.index])}
              for a in land if a.is_city}
    control = {a.id: {"area": _side(raw["ctrl"][a.index]), "city": _side(raw["cctrl"][a.index]),
                      "besieged": bool(raw["besieged"][a.index]), "fresh": bool(raw["fresh"][a.index])}
               for a in data.areas}
    winner = raw["winner"]
    bids = STEP_NAMES[raw["step"]] in SIDE_STEPS
    return {
        "format": FORMAT,
        "data": data.name,
        "year": data.scenario["first_year"] - raw["year"],
        "season": season_names(data)[raw["season"]],
        "step": STEP_NAMES[raw["step"]],
        "current": raw["cur"],
        "prestige": raw["prestige"],
        "winner": None if winner < 0 else "draw" if winner == 2 else SIDES[winner],
        "level": LEVELS[raw["level"]],
        "cards": {"Athens": _cards(raw["hand"][0], data), "Sparta": _cards(raw["hand"][1], data),
                  "deck": _cards(raw["deck"], data), "played": _cards(raw["played"], data),
                  "in_play": _cards(raw["inplay"], data)},
        "commit": {s: _play(raw["commit"][i], data, bids) for i, s in enumerate(SIDES)},
        "play": {s: _play(raw["play"][i], data, bids) for i, s in enumerate(SIDES)},
        "leaders": {s: data.cards[raw["leader"][i]].id if raw["leader"][i] >= 0 else None
                    for i, s in enumerate(SIDES)},
        "favours": {s: raw["favour"][i] for i, s in enumerate(SIDES)},
        "blocks": blocks,
        "cities": cities,
        "control": control,
        "machine": {k: raw[k] for k in MACHINE},
    }


def observation(state, player):
    """What seat ``player`` sees: his own hand and blocks, the public record, the other hand as a count, the other's
    face-down card (or bid) as committed, and each unrevealed enemy block only as one of a count per area, with
    what he can know of it (unseen_known: where it stands, the identities it may be and its step bounds). Its
    "observer" is the side the seat plays."""
    data = state.game.data
    raw = state._raw_view(player)
    truth = state._raw()
    obj = _json(raw, data)
    side = state.side_of(player)
    other = SIDES[1 - side]
    obj["cards"][other] = {"count": bin(truth["hand"][1 - side]).count("1")}
    obj["cards"]["unseen"] = obj["cards"].pop("deck")
    if raw["commit"][1 - side] == -2:
        obj["commit"][other] = "face down"
    if not data.rules["OPEN_BLOCKS"] and state.sides_set():
        unseen_ids, known = set(), []
        for u in data.units:
            if u.side == other and not raw["revealed"][u.index]:
                v = obj["blocks"].pop(u.id)
                known.append({"area": v["area"], "inside": v["inside"], **v["known"]})
                unseen_ids.add(u.index)
        for key in UNIT_REFS:                       # the turn machinery pointing at an unseen block names none
            if obj["machine"][key] in unseen_ids:
                obj["machine"][key] = "unseen"
        unseen = {}
        for a in data.areas:
            field, inside = raw["vcount"][2 * a.index], raw["vcount"][2 * a.index + 1]
            if field or inside:
                unseen[a.id] = {"field": field, "inside": inside}
        obj["unseen_blocks"] = unseen
        obj["unseen_known"] = known                 # what he can know of each (the tracker), in the view's order
    obj["observer"] = SIDES[side]
    return obj


# --- from_json ----------------------------------------------------------------------------------------------------

def _fail(msg):
    raise BadStateError(f"hellas state: {msg}")


def _int(obj, key, lo, hi, where=""):
    v = obj.get(key) if isinstance(obj, dict) else None
    if isinstance(v, bool) or not isinstance(v, int):
        _fail(f"{where}{key} must be an integer, got {v!r}")
    if not lo <= v <= hi:
        _fail(f"{where}{key} = {v} is out of range {lo}..{hi}")
    return v


def _bool(obj, key, where):
    v = obj.get(key)
    if not isinstance(v, bool):
        _fail(f"{where}{key} must be true or false, got {v!r}")
    return int(v)


def _side_or_none(v, where):
    if v is None:
        return -1
    if v not in SIDES:
        _fail(f"{where} must be Athens, Sparta or null, got {v!r}")
    return SIDES.index(v)


def from_json(game, obj):
    data = game.data
    if not isinstance(obj, dict):
        _fail(f"a state is a JSON object, got {type(obj).__name__}")
    missing = [k for k in TOP_KEYS if k not in obj]
    if missing:
        _fail(f"field {missing[0]!r} is missing")
    extra = sorted(set(obj) - set(TOP_KEYS))
    if extra:
        _fail(f"unknown field {extra[0]!r}")
    if obj["format"] != FORMAT:
        _fail(f"format {obj['format']!r} is not {FORMAT}")
    if obj["data"] != data.name:
        _fail(f"data set {obj['data']!r} is not this game's ({data.name})")
    raw = game.new_initial_state()._raw()          # the fields beyond the data set's sizes keep their set-up values
    raw["ds"] = game.slot
    first, years = data.scenario["first_year"], data.scenario["first_year"] - data.scenario["last_year"] + 1
    raw["year"] = first - _int(obj, "year", first - years, first)
    seasons = season_names(data)
    if obj["season"] not in seasons:
        _fail(f"season {obj['season']!r} is not one of {', '.join(seasons)}")
    raw["season"] = seasons.index(obj["season"])
    if obj["step"] not in STEP_NAMES:
        _fail(f"step {obj['step']!r} is not one of {', '.join(STEP_NAMES)}")
    raw["step"] = STEP_NAMES.index(obj["step"])
    cur = _int(obj, "current", -2, 1)
    if (obj["step"] == "over") != (cur == -2) or (obj["step"] in CHANCE_STEPS) != (cur == -1):
        _fail(f"current {cur} does not fit step {obj['step']}")
    raw["cur"] = cur
    raw["prestige"] = _int(obj, "prestige", -99, 99)
    winner = obj["winner"]
    if winner not in (None, "draw") + SIDES:
        _fail(f"winner {winner!r} is not Athens, Sparta, draw or null")
    raw["winner"] = -1 if winner is None else 2 if winner == "draw" else SIDES.index(winner)
    if obj["level"] not in LEVELS:
        _fail(f"level {obj['level']!r} is not one of {', '.join(LEVELS)}")
    raw["level"] = LEVELS.index(obj["level"])
    if (winner is None) != (obj["step"] != "over") or (winner is None) != (obj["level"] == "none"):
        _fail("winner, level and step disagree (a winner and a level exactly when the game is over)")
    _cards_in(obj, data, raw)
    _blocks_in(obj, data, raw)
    _cities_in(obj, data, raw)
    machine = obj["machine"]
    if not isinstance(machine, dict) or sorted(machine) != sorted(MACHINE):
        _fail(f"machine must hold exactly {', '.join(MACHINE)}")
    limits = {k: (0, 2 ** 64 - 1) for k in ("sieged", "supplied", "asked", "fought")}
    limits.update(reroll=(-1, ACTIONS["NUM"] - 1))
    limits.update(turn=(0, 10 ** 6), b_lost=(0, 3), b_retreat=(0, 3), storm_n=(0, 8), b_kind=(0, 3), b_bank=(0, 9),
                  g_fired=(0, 1), b_firer=(-2, 1000), swap=(0, 1))
    for k in MACHINE:
        lo, hi = limits.get(k, (-1, 1000))
        raw[k] = _int(machine, k, lo, hi, "machine.")
    for k in ("active", "first", "ev_side", "ny_next", "truce_side", "quake_vs", "omen_vs", "b_att", "b_rout_side"):
        if raw[k] not in (-1, 0, 1):
            _fail(f"machine.{k} = {raw[k]} is not a side (0, 1) or -1")
    for k in ("group", "att_area", "famine", "b_area", "wd_area", "mv_dest", "treach", "march_to"):
        if not -1 <= raw[k] < len(data.areas):
            _fail(f"machine.{k} = {raw[k]} is not an area index or -1")
    for k in ("unit", "b_firer", "b_last", "wd_unit", "r_unit", "cargo"):
        if not -1 <= raw[k] < len(data.units) and not (k == "b_firer" and raw[k] == -2):
            _fail(f"machine.{k} = {raw[k]} is not a block index or -1")
    if raw["step"] == STEP_NAMES.index("fire") and raw["b_firer"] != -2 and \
            (raw["b_firer"] < 0 or raw["loc"][raw["b_firer"]] < 0):
        _fail("machine.b_firer: a firing unit must be on the map (or -2, the garrison)")
    _reroll_in(raw)
    if raw["step"] == STEP_NAMES.index("sally") and raw["b_area"] >= 0:
        a = raw["b_area"]
        here = [(data.units[u].side == SIDES[cur], raw["incity"][u]) for u in range(len(data.units))
                if raw["loc"][u] == a]
        if not ((True, 1) in here and (True, 0) in here and (False, 0) in here):
            _fail(f"machine.b_area: a relief sally at {data.areas[a].id} needs the player's units inside and in "
                  "the field, and the enemy's in the field")
    if not -1 <= raw["ev_card"] < len(data.cards) or not -1 <= raw["atr_next"] < len(data.cards):
        _fail("machine.ev_card / atr_next must be card indices or -1")
    _step_fields_in(raw, data)
    _sides_in(raw, data, cur)
    if raw["step"] == STEP_NAMES.index("card"):
        if cur >= 0 and raw["commit"][cur] >= 0:
            _fail(f"{SIDES[cur]} is to choose a card but has committed one already")
    state = game.new_initial_state()
    state._set_raw(raw)
    try:
        stuck = (cur >= 0 and not state.legal_actions()) or (cur == -1 and not state.chance_outcomes())
    except NoLegalActionError:                  # the contract raises where nothing is legal
        stuck = True
    if stuck:
        _fail(f"player {cur} is to move at step {obj['step']} but has no legal action" if cur >= 0 else
              f"a chance step {obj['step']} with no outcome")
    return state


def _cards_in(obj, data, raw):
    ids = [c.id for c in data.cards]
    cards = obj["cards"]
    if not isinstance(cards, dict) or sorted(cards) != sorted(["Athens", "Sparta", "deck", "played", "in_play"]):
        _fail("cards must hold Athens, Sparta, deck, played and in_play")
    seen = {}
    masks = {}
    for k in ("Athens", "Sparta", "deck", "played", "in_play"):
        if not isinstance(cards[k], list):
            _fail(f"cards.{k} must be a list of card ids")
        m = 0
        for cid in cards[k]:
            if cid not in ids:
                _fail(f"cards.{k}: {cid!r} is not a card of the deck")
            if cid in seen:
                _fail(f"card {cid} is in two places ({seen[cid]} and {k})")
            seen[cid] = k
            m |= 1 << ids.index(cid)
        masks[k] = m
    lost = [c for c in ids if c not in seen]
    if lost:
        _fail(f"card {lost[0]} is nowhere (every card is in a hand, the deck, the played pile or in play)")
    hand = data.rules["HAND_SIZE"]
    for k in SIDES:
        if len(cards[k]) > hand:
            _fail(f"cards.{k}: {len(cards[k])} cards, more than HAND_SIZE {hand}")
    raw["hand"] = [masks["Athens"], masks["Sparta"]]
    raw["deck"], raw["played"], raw["inplay"] = masks["deck"], masks["played"], masks["in_play"]
    bids = STEP_NAMES[raw["step"]] in SIDE_STEPS
    for key, field in (("commit", "commit"), ("play", "play")):
        val = obj[key]
        if not isinstance(val, dict) or sorted(val) != sorted(SIDES):
            _fail(f"{key} must name Athens and Sparta")
        codes = []
        for i, side in enumerate(SIDES):
            v = val[side]
            if v is None:
                codes.append(-1)
                continue
            if bids:                                # range checked with the sides (_sides_in)
                if not isinstance(v, str) or not v.startswith("bid:") or not v[4:].isdigit():
                    _fail(f"{key}.{side}: {v!r} is not bid:<whole number> (sides are being chosen)")
                codes.append(int(v[4:]))
                continue
            if not isinstance(v, str) or ":" not in v or v.split(":")[0] not in ("event", "actions"):
                _fail(f"{key}.{side}: {v!r} is not event:<card> or actions:<card>")
            use, cid = v.split(":", 1)
            try:
                cid = int(cid)
            except ValueError:
                _fail(f"{key}.{side}: {v!r} names no card")
            if cid not in ids:
                _fail(f"{key}.{side}: card {cid} is not in the deck")
            where = seen[cid]
            if key == "commit" and where != side:
                _fail(f"commit.{side}: card {cid} is not in {side}'s hand")
            if key == "play" and where not in ("played", "in_play"):
                _fail(f"play.{side}: card {cid} has not been played")
            codes.append(ids.index(cid) * 2 + (use == "actions"))
        raw[field] = codes
    leaders = obj["leaders"]
    if not isinstance(leaders, dict) or sorted(leaders) != sorted(SIDES):
        _fail("leaders must name Athens and Sparta")
    lead = []
    for side in SIDES:
        cid = leaders[side]
        if cid is None:
            lead.append(-1)
            continue
        if cid not in ids or data.cards[ids.index(cid)].event != "leader":
            _fail(f"leaders.{side}: {cid!r} is not a leader card")
        card = data.cards[ids.index(cid)]
        if card.params["side"] != side:
            _fail(f"leaders.{side}: card {cid} is a leader of {card.params['side']}")
        if seen[cid] != "in_play":
            _fail(f"leaders.{side}: card {cid} is not in play")
        lead.append(ids.index(cid))
    raw["leader"] = lead
    for c in data.cards:
        if c.event == "leader" and seen[c.id] == "in_play" and lead[SIDES.index(c.params["side"])] != ids.index(c.id):
            _fail(f"leader card {c.id} is in play but is not {c.params['side']}'s leader")
    fav = obj["favours"]
    if not isinstance(fav, dict) or sorted(fav) != sorted(SIDES):
        _fail("favours must name Athens and Sparta")
    raw["favour"] = [_int(fav, s, 0, 1, "favours.") for s in SIDES]


def _blocks_in(obj, data, raw):
    blocks = obj["blocks"]
    if not isinstance(blocks, dict):
        _fail("blocks must map block ids to their state")
    known = {u.id for u in data.units}
    for bid in blocks:
        if bid not in known:
            _fail(f"blocks: {bid!r} is not a block of the roster")
    area_ids = {a.id: a for a in data.areas}
    local = {side: {v.id: k for k, v in enumerate(roster)} for side, roster in _side_rosters(data).items()}
    raw["loc"] = [-1] * MAXU
    inside_count = {}
    for u in data.units:
        if u.id not in blocks:
            _fail(f"blocks: block {u.id} is missing (every block is on the map or in the pool)")
        b = blocks[u.id]
        where = f"blocks.{u.id}."
        if not isinstance(b, dict) or sorted(set(b) - {"known"}) != BLOCK_KEYS:
            _fail(f"blocks.{u.id} must hold {', '.join(BLOCK_KEYS)} (and may hold known)")
        area = b["area"]
        if area == "pool":
            raw["loc"][u.index] = -1
            raw["steps"][u.index] = _int(b, "steps", 0, 0, where)
            if b["inside"]:
                _fail(f"{where}inside: a block in the pool is in no city")
        else:
            if not isinstance(area, str) or area not in area_ids:
                _fail(f"{where}area: {area!r} is no area of the map (nor 'pool')")
            a = area_ids[area]
            if a.neutral:
                _fail(f"{where}area: {area} is neutral; no block may enter it")
            if a.sea and u.type != "fleet":
                _fail(f"{where}area: a land unit cannot stand at sea ({area}) without transport")
            if u.type == "fleet" and not a.sea and not a.coasts:
                _fail(f"{where}area: a fleet cannot stand in {area}, which has no coast")
            raw["loc"][u.index] = a.index
            raw["steps"][u.index] = _int(b, "steps", 1, u.max_steps, where)
            if b["inside"]:
                if not a.is_city:
                    _fail(f"{where}inside: {area} has no city")
                if u.type == "fleet" and a.site_type != "port":
                    _fail(f"{where}inside: a fleet goes inside a port only")
                inside_count.setdefault(a.index, {}).setdefault(u.side, 0)
                inside_count[a.index][u.side] += 1
        raw["incity"][u.index] = _bool(b, "inside", where)
        raw["moved"][u.index] = _bool(b, "moved", where)
        raw["raised"][u.index] = _bool(b, "raised", where)
        if raw["raised"][u.index] and not u.barbarian:
            _fail(f"{where}raised: only a barbarian is raised (L170); {u.id} is not one")
        if u.barbarian and area != "pool" and not raw["raised"][u.index]:
            _fail(f"{where}raised: a barbarian on the map has been raised this year (L170)")
        raw["revealed"][u.index] = _bool(b, "revealed", where)
        raw["routed"][u.index] = _bool(b, "routed", where)
        raw["strait_in"][u.index] = _bool(b, "strait", where)
        came = b["came"]
        if came is not None and (not isinstance(came, str) or came not in area_ids or area_ids[came].neutral):
            _fail(f"{where}came: {came!r} is no area a block can come from")
        raw["came"][u.index] = area_ids[came].index if came is not None else -1
        _known_in(b.get("known"), data, raw, u, local[u.side], where)
    for ai, sides in inside_count.items():
        a = data.areas[ai]
        if len(sides) > 1:
            _fail(f"blocks: both sides have blocks inside the city of {a.id}")
        n = sum(sides.values())
        if n > a.capacity:
            _fail(f"blocks: {n} blocks inside the city of {a.id}, over its capacity {a.capacity}")


def prior_steps(data, u):
    """The strength the tracker's relative bounds start from (tracker.pxi, u_ref): set-up steps, else a barbarian's
    full strength, else a new recruit's."""
    if u.start_area != "pool":
        return u.start_steps
    return u.max_steps if u.barbarian else data.rules["NEW_GREEK_UNIT_STEPS"]


def _known_in(known, data, raw, u, local, where):
    """The tracker's fields of block u (tracker.pxi) from its "known" (local: its side's block ids -> side-local
    index); without one, the least the enemy may know: a revealed block itself at its steps, an unseen one any
    block of its side at any strength."""
    i = u.index
    revealed = raw["revealed"][i]
    if known is None:
        raw["poss"][i] = (1 << local[u.id]) if revealed else (1 << len(local)) - 1
        raw["slo"][i], raw["shi"][i] = (raw["steps"][i],) * 2 if revealed else (1, STEP_BOUND)
        raw["srel"][i] = 0
        return
    where += "known."
    if not isinstance(known, dict) or sorted(known) != TRACKER_KEYS:
        _fail(f"{where[:-1]} must hold {', '.join(TRACKER_KEYS)}")
    ids = known["could_be"]
    if not isinstance(ids, list) or not ids:
        _fail(f"{where}could_be: a non-empty list of block ids (the identities the enemy holds possible)")
    mask = 0
    for bid in ids:
        if not isinstance(bid, str) or bid not in local:
            _fail(f"{where}could_be: {bid!r} is not a block of {u.side}")
        mask |= 1 << local[bid]
    if u.id not in ids:
        _fail(f"{where}could_be: does not name {u.id} itself (the enemy cannot have ruled out the truth)")
    if revealed and ids != [u.id]:
        _fail(f"{where}could_be: a revealed block is known to be itself only")
    steps = known["steps"]
    if (not isinstance(steps, list) or len(steps) != 2
            or any(isinstance(x, bool) or not isinstance(x, int) or abs(x) > STEP_BOUND for x in steps)
            or steps[0] > steps[1]):
        _fail(f"{where}steps: [low, high], two whole numbers from -{STEP_BOUND} to {STEP_BOUND}, low <= high")
    if known["steps_from"] not in STEPS_FROM:
        _fail(f"{where}steps_from: {known['steps_from']!r} is not one of {', '.join(STEPS_FROM)}")
    rel = STEPS_FROM.index(known["steps_from"])
    base = prior_steps(data, u) if rel else 0
    lo, hi = max(1, base + steps[0]), min(u.max_steps, base + steps[1])
    n = raw["steps"][i]
    if raw["loc"][i] >= 0 and not revealed and not (lo <= n <= hi or (lo > hi and n == max(hi, 1))):
        _fail(f"{where}steps: its {n} steps are outside the bounds the enemy holds ({lo} to {hi})")
    raw["poss"][i] = mask
    raw["slo"][i], raw["shi"][i] = steps
    raw["srel"][i] = rel


def _sides_in(raw, data, cur):
    """Spec 5.13: swap only where SIDE_SELECTION lets the sides be chosen, and 0 while they are; the side-choosing
    steps only before the first New Year and under the SIDE_SELECTION they belong to; bids in 0..the largest."""
    rule, step = data.rules["SIDE_SELECTION"], STEP_NAMES[raw["step"]]
    if raw["swap"] and rule == "assigned":
        _fail("machine.swap = 1, but SIDE_SELECTION is assigned (seat 0 plays Athens)")
    if step not in SIDE_STEPS:
        return
    if rule not in SIDE_STEPS[step]:
        _fail(f"step {step}: not under SIDE_SELECTION {rule!r}")
    if raw["swap"]:
        _fail(f"machine.swap = 1 at step {step}: the sides are not set yet")
    if raw["year"] != 0 or raw["season"] != 0:
        _fail(f"step {step}: sides are chosen before the first New Year only")
    top = data.rules["AUTO_VICTORY_LEAD"] - 1
    for key in ("commit", "play"):
        for i, side in enumerate(SIDES):
            if not -1 <= raw[key][i] <= top:
                _fail(f"{key}.{side}: a bid runs from 0 to {top} (AUTO_VICTORY_LEAD - 1)")
    bids_in = [b >= 0 for b in raw["play"]]
    if step == "bid" and (any(bids_in) or (cur == 0 and raw["commit"][0] >= 0) or (cur == 1 and raw["commit"][0] < 0)
                          or raw["commit"][1] >= 0):
        _fail("commit: at step bid seat 0 bids first (commit.Athens), then seat 1; play holds no bid yet")
    if step == "pick" and (not all(bids_in) or any(b >= 0 for b in raw["commit"])):
        _fail("play: at step pick both bids are shown (play) and none waits face down (commit)")
    if step == "pick" and raw["play"][0] != raw["play"][1] and raw["play"][cur] < raw["play"][1 - cur]:
        _fail(f"current: the higher bidder picks (play.{SIDES[1 - cur]} bid more)")
    if step == "sides" and (any(b >= 0 for b in raw["commit"]) or bids_in[0] != bids_in[1]
                            or (all(bids_in) and raw["play"][0] != raw["play"][1])
                            or (rule == "random" and any(bids_in)) or (rule == "bid" and not all(bids_in))):
        _fail("play: the coin for sides follows tied bids (play, equal) under bid, no bids under random")


def _reroll_in(raw):
    """A reroll waits (step reroll) exactly when machine.reroll holds the outcome of a roll its player may roll
    again: one firing unit's (its firer valid), an attrition roll's, a storm's or a forced march's (its unit)."""
    pending, at = raw["reroll"], raw["step"] == STEP_NAMES.index("reroll")
    if not at:
        if pending != -1:
            _fail("machine.reroll: an outcome waits only at the reroll step (-1 otherwise)")
        return
    if ACTIONS["FIRE"] <= pending < ACTIONS["FIRE"] + 25:
        if raw["b_firer"] != -2 and (raw["b_firer"] < 0 or raw["loc"][raw["b_firer"]] < 0):
            _fail("machine.b_firer: a firing unit must be on the map (or -2, the garrison)")
    elif ACTIONS["HITS"] <= pending < ACTIONS["HITS"] + 64 or ACTIONS["MARCH"] <= pending < ACTIONS["MARCH"] + 2:
        if raw["att_area"] < 0 and (raw["unit"] < 0 or raw["loc"][raw["unit"]] < 0):
            _fail("machine.unit: the storm or forced march waiting on a reroll needs its unit on the map")
    else:
        _fail(f"machine.reroll = {pending} is no roll a favour can roll again")


def _chance_step(raw):
    """The step whose fields the state holds: a reroll waits on the chance node its outcome came from
    (apply.pxi, reroll_step)."""
    step = STEP_NAMES[raw["step"]]
    if step != "reroll":
        return step
    pending = raw["reroll"]
    if ACTIONS["FIRE"] <= pending < ACTIONS["FIRE"] + 25:
        return "fire"
    if ACTIONS["MARCH"] <= pending < ACTIONS["MARCH"] + 2:
        return "march"
    return "attrition" if raw["att_area"] >= 0 else "storm"



def _may_be_routed(raw: dict, unit, step: str) -> bool:
    """Whether a block in the combat being fought can carry a rout (battle.pxi): a field battle routs field blocks
    (spec 6.4); an assault ignores routs (6.11, ASSAULT_ROUTS) except that a failed Treachery assault sends the
    attacker's field blocks back (L294); a sally routs the besieged attacker's blocks inside or out and the
    defender's in the field (6.12)."""
    inside = raw["incity"][unit.index]
    attacker = raw["b_att"] >= 0 and unit.side == SIDES[raw["b_att"]]
    kind = raw["b_kind"]
    if kind == 1:
        return False
    if kind == 2:
        return attacker and not inside and step == "retreat"
    if kind == 3:
        return attacker or not inside
    return not inside

def _step_fields_in(raw, data):
    """Each field of STEP_FIELDS set exactly where its step needs it; the siege att_area names is one the active
    player is attriting (spec 6.10), with its dice or hits still due; the blocks the withdrawal, retreat and
    movement name are on the map (where they stand)."""
    step = _chance_step(raw)
    for key, reset, allowed, needed in STEP_FIELDS:
        if raw[key] != reset and allowed is not None and step not in allowed:
            _fail(f"machine.{key} = {raw[key]} at step {step}: it is set only at {', '.join(allowed)} ({reset} "
                  "elsewhere)")
        if raw[key] == reset and step in needed:
            _fail(f"machine.{key} = {reset} at step {step}, which needs it set")
    a = raw["att_area"]
    if a >= 0:
        area, active = data.areas[a], raw["active"]
        if not area.is_city or not raw["besieged"][a] or active < 0 or raw["ctrl"][a] != active:
            _fail(f"machine.att_area: {area.id} is no siege of the active player's (a besieged city he surrounds "
                  "and the enemy holds)")
        if not (raw["sieged"] >> a) & 1:
            _fail(f"machine.sieged: the siege of {area.id} under attrition is not marked as fought this phase")
        if not 1 <= raw["att_dice"] <= len(data.units) + 1:
            _fail(f"machine.att_dice = {raw['att_dice']}: the siege of {area.id} rolls or takes 1 to "
                  f"{len(data.units) + 1} (its besieged blocks and garrison)")
    b = raw["b_area"]
    if raw["b_kind"] in (1, 2) and (b < 0 or not data.areas[b].is_city or not raw["besieged"][b]):
        _fail(f"machine.b_kind = {raw['b_kind']} (an assault) needs machine.b_area to be a besieged city")
    for u in (u for u in data.units if raw["routed"][u.index]):
        if step not in BATTLE or raw["loc"][u.index] != raw["b_area"]:
            _fail(f"blocks.{u.id}.routed: a block is routed only in the battle being fought (machine.b_area), "
                  f"here at step {step}")
        if not _may_be_routed(raw, u, step):
            _fail(f"blocks.{u.id}.routed: no block can be routed there in this combat "
                  f"(machine.b_kind = {raw['b_kind']}, inside = {bool(raw['incity'][u.index])}, step {step})")
    if raw["wd_unit"] >= 0 and raw["loc"][raw["wd_unit"]] != raw["wd_area"]:
        _fail("machine.wd_unit: the block asked to withdraw is not in machine.wd_area")
    if raw["r_unit"] >= 0 and raw["loc"][raw["r_unit"]] < 0:
        _fail("machine.r_unit: the retreating block is not on the map")
    if raw["unit"] >= 0 and step in ("move-dest", "storm", "cargo", "forced", "march") and raw["loc"][raw["unit"]] < 0:
        _fail(f"machine.unit: the block moving at step {step} is not on the map")


def _cities_in(obj, data, raw):
    land = [a for a in data.areas if not a.sea]
    cities, control = obj["cities"], obj["control"]
    if not isinstance(cities, dict) or sorted(cities) != sorted(a.id for a in land if a.is_city):
        _fail("cities must list every city of the map exactly")
    if not isinstance(control, dict) or sorted(control) != sorted(a.id for a in data.areas):
        _fail("control must list every area of the map exactly")
    for a in data.areas:
        raw["occ"][a.index] = raw["garrison"][a.index] = -1
        where = f"control.{a.id}."
        c = control[a.id]
        if not isinstance(c, dict) or sorted(c) != ["area", "besieged", "city", "fresh"]:
            _fail(f"control.{a.id} must hold area, city, besieged, fresh")
        raw["ctrl"][a.index] = _side_or_none(c["area"], where + "area")
        raw["cctrl"][a.index] = _side_or_none(c["city"], where + "city")
        raw["besieged"][a.index] = _bool(c, "besieged", where)
        raw["fresh"][a.index] = _bool(c, "fresh", where)
        if not a.is_city and (raw["cctrl"][a.index] >= 0 or raw["besieged"][a.index]):
            _fail(f"{where}: {a.id} has no city to control or besiege")
        holder = raw["cctrl"][a.index]
        if raw["besieged"][a.index] and (holder < 0 or raw["ctrl"][a.index] != 1 - holder):
            _fail(f"{where}besieged: a besieged city is held by one side (city) inside an area the other controls "
                  "(area; spec 6.9.1)")
        if raw["fresh"][a.index] and not raw["besieged"][a.index]:
            _fail(f"{where}fresh: only a besieged city has a siege begun this turn")
    for a in land:
        if not a.is_city:
            continue
        where = f"cities.{a.id}."
        c = cities[a.id]
        if not isinstance(c, dict) or sorted(c) != ["civil_war", "garrison", "held_by", "pillaged"]:
            _fail(f"cities.{a.id} must hold held_by, garrison, pillaged, civil_war")
        occ = _side_or_none(c["held_by"], where + "held_by")
        gar = _side_or_none(c["garrison"], where + "garrison")
        loyal = SIDES.index(a.loyalty) if a.loyalty in SIDES else -1
        if occ >= 0 and occ == loyal:
            _fail(f"{where}held_by: {a.id} is loyal to {a.loyalty}; only the enemy can hold it as a captor")
        if gar >= 0 and gar == loyal:
            _fail(f"{where}garrison: {a.loyalty}'s own city keeps its inherent garrison; no recruited one")
        if gar >= 0 and occ != gar:
            _fail(f"{where}garrison: a {SIDES[gar]} garrison holds the city for {SIDES[gar]} (held_by)")
        if a.neutral and (occ >= 0 or gar >= 0):
            _fail(f"{where}: neutral {a.id} cannot be held")
        raw["occ"][a.index], raw["garrison"][a.index] = occ, gar
        raw["pillaged"][a.index] = _bool(c, "pillaged", where)
        raw["civil"][a.index] = _bool(c, "civil_war", where)
        holder = occ if occ >= 0 else loyal
        for u in data.units:
            if raw["loc"][u.index] == a.index and raw["incity"][u.index] and SIDES.index(u.side) != holder:
                _fail(f"blocks.{u.id}: inside {a.id}, a city its side does not hold")

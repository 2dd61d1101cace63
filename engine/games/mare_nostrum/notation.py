"""Move notation of Mare Nostrum: readable, unique within a state, round-trips (see docs/rules/mare_nostrum.md)."""
from engine.errors import BadMoveError
from engine.games.mare_nostrum.state import ACTIONS as A, SIZES, _NAMES

NI = SIZES["NI"]
ITEM_VERB = {"offer": "offer", "gift": "gift", "pay": "pay", "keep": "keep", "colossus": "colossus"}
PLAYER_VERB = {"choose-builder": "builder", "choose-mover": "mover", "zeus": "peace", "title": "title"}


def _slot(k):
    prov = _NAMES["provinces"][_NAMES["slot_prov"][k]]
    same = [j for j, p in enumerate(_NAMES["slot_prov"]) if p == _NAMES["slot_prov"][k]
            and _NAMES["slots"][j] == _NAMES["slots"][k]]
    tail = f"#{same.index(k) + 1}" if len(same) > 1 else ""
    return f"{prov}:{_NAMES['slots'][k]}{tail}"


def action_to_str(state, int_action):
    a = int(int_action)
    step = state.step_name()
    emp = [_NAMES["empires"][e] for e in state._raw()["emp"][:state.num_players]]
    prov, seas, items, cards = _NAMES["provinces"], _NAMES["seas"], _NAMES["items"], _NAMES["cards"]
    if not 0 <= a < A["NUM"]:
        raise BadMoveError(f"mare_nostrum: action {a} is out of range 0..{A['NUM'] - 1}")

    def inr(base, n):
        return base <= a < base + n

    if inr(A["ITEM"], NI):
        return f"{ITEM_VERB.get(step, step)}:{items[a - A['ITEM']]}"
    if inr(A["EXCH"], 6):
        from engine.games.mare_nostrum.state import _exchange_value
        return f"exchange:{_exchange_value(a - A['EXCH'])}"
    if inr(A["COUNT"], 6):
        return f"antigone:{a - A['COUNT']}"
    if inr(A["TAKE"], 5 * NI):
        v, t = divmod(a - A["TAKE"], NI)
        return f"take:{emp[v] if v < len(emp) else v}:{items[t]}"
    if inr(A["PLAYER"], 5):
        q = a - A["PLAYER"]
        return f"{PLAYER_VERB.get(step, 'player')}:{emp[q] if q < len(emp) else q}"
    if a == A["PASS"]:
        return "pass"
    if a == A["YES"]:
        return "perseus:jump"
    if a == A["COIN"]:
        return "coin"
    if a == A["RARE"]:
        return "rare"
    if inr(A["SLOT"], 128):
        return f"build:{_slot(a - A['SLOT'])}"
    for key, word, names in (("MARKER", "marker", prov), ("LEGION", "legion", prov), ("FORT", "fortress", prov),
                             ("SPARTACUS", "spartacus", prov), ("GILGAMESH", "gilgamesh", prov),
                             ("HAMMURABI", "hammurabi", prov), ("CAPTURE", "capture", prov),
                             ("SHEBA", "sheba", prov)):
        if inr(A[key], 32):
            return f"{word}:{names[a - A[key]]}"
    for key, word in (("TRIREME", "trireme"), ("PHAROS", "pharos")):
        if inr(A[key], 16):
            return f"{word}:{seas[a - A[key]]}"
    if inr(A["CARD"], 23):
        return f"buy:{cards[a - A['CARD']]}"
    if a == A["PENTH"]:
        return "penthesilea"
    if inr(A["CPT"], 23):
        return f"copy:{cards[a - A['CPT']]}"
    if inr(A["MOVETRI"], 256):
        s, t = divmod(a - A["MOVETRI"], 16)
        return f"sail:{seas[s]}>{seas[t]}"
    if inr(A["SEABATTLE"], 80):
        s, q = divmod(a - A["SEABATTLE"], 5)
        return f"seabattle:{seas[s]}:{emp[q]}"
    if inr(A["LANDBATTLE"], 160):
        p, q = divmod(a - A["LANDBATTLE"], 5)
        return f"battle:{prov[p]}:{emp[q]}"
    if inr(A["MOVELEG"], 1024):
        p, q = divmod(a - A["MOVELEG"], 32)
        return f"march:{prov[p]}>{prov[q]}"
    for key, word in (("DESTROY", "destroy"), ("OCCUPY", "occupy"), ("CIRCE", "circe")):
        if inr(A[key], 128):
            return f"{word}:{_slot(a - A[key])}"
    if a == A["CAS_KEEP"]:
        return "casualty:legions"
    if a == A["CAS_FORT"]:
        return "casualty:fortress"
    if inr(A["HITS"], 32):
        return f"hits:{a - A['HITS']}"
    if inr(A["RAREK"], 13):
        return f"draw:{_NAMES['goods'][a - A['RAREK']]}"
    if inr(A["CARDK"], 17):
        return f"reveal:{cards[5 + a - A['CARDK']]}"
    raise BadMoveError(f"mare_nostrum: action {a} has no name")


def str_to_action(state, text):
    if not isinstance(text, str):
        raise BadMoveError(f"mare_nostrum: a move is a string, got {type(text).__name__}")
    if state.is_terminal():
        raise BadMoveError(f"mare_nostrum: the game is over; {text!r} is no move")
    wanted = text.strip()
    legal = state._legal_raw()
    names = {}
    for a in legal:
        names[action_to_str(state, a)] = a
    if wanted in names:
        return names[wanted]
    lowered = {k.lower(): v for k, v in names.items()}
    if wanted.lower() in lowered:
        return lowered[wanted.lower()]
    shown = ", ".join(list(names)[:15]) + (" ..." if len(names) > 15 else "")
    raise BadMoveError(f"mare_nostrum: {text!r} is no legal move at step {state.step_name()}; legal: {shown}")

"""Hellas move notation: one short word and a name per action, e.g. ``actions:17``, ``move:LA01``, ``unit:S3``,
``to:LA05``, ``recruit:A3``, ``pillage:LA11``, ``attrition:LA18``, ``battle:LA10``, ``deal:30``, ``hits:1``,
``fire:1h0r`` (one unit's roll: 1 hit, no rout); choosing sides (spec 5.13): ``bid:3``, ``pick:Sparta``, and the
coin ``seat0:Athens`` (SIDE_SELECTION random: the side seat 0 plays) or ``picker:seat1`` (after tied bids).

Cards are named by their id, areas by their map id, blocks by their roster id (all from the data files).
"""
from engine.errors import BadMoveError
from engine.games.hellas.state import ACTIONS as A, SIZES

SIDES = ("Athens", "Sparta")
_RANGES = (  # (first id, size, word, what names the offset)
    (A["MOVE"], 64, "move", "area"), (A["UNIT"], 120, "unit", "block"), (A["DEST"], 64, "to", "area"),
    (A["RNEW"], 120, "recruit", "block"), (A["RSTEP"], 120, "step", "block"), (A["PILLAGE"], 64, "pillage", "area"),
    (A["SUPPLY"], 64, "supply", "area"), (A["GARRISON"], 64, "garrison", "area"), (A["PLACE"], 64, "place", "area"),
    (A["SIEGE"], 64, "attrition", "area"), (A["TARGET"], 64, "target", "area"), (A["SIDE"], 2, "ostracize", "side"),
    (A["DRAW"], 64, "deal", "card"), (A["SUM"], 13, "dice", "number"), (A["HITS"], 64, "hits", "number"),
    (A["BATTLE"], 64, "battle", "area"), (A["FIRE"], 25, "fire", "roll"), (A["ASSAULT"], 64, "assault", "area"),
    (A["MARCH"], 2, "march", "outcome"), (A["SALLY"], 64, "sally", "area"),
    (A["BID"], SIZES["MAXBID"], "bid", "number"),
)


def action_to_str(state, action):
    data = state.game.data
    if 0 <= action < A["PASS"]:
        card = data.cards[action >> 1].id
        if action & 1:
            return f"{'sacrifice' if state.step_name() == 'card' and _new_year(state) else 'actions'}:{card}"
        return f"event:{card}"
    if action == A["PASS"]:
        return "pass"
    if action == A["YES"]:
        return "into-city" if state.step_name() == "retreat" else "yes"
    if A["COIN"] <= action < A["COIN"] + 2:
        i = action - A["COIN"]
        return f"picker:seat{i}" if state._raw()["play"][0] >= 0 else f"seat0:{SIDES[i]}"
    if A["SIDE"] <= action < A["SIDE"] + 2 and state.step_name() == "pick":
        return f"pick:{SIDES[action - A['SIDE']]}"
    for first, size, word, what in _RANGES:
        if first <= action < first + size:
            i = action - first
            try:
                name = {"area": lambda: data.areas[i].id, "block": lambda: data.units[i].id,
                        "card": lambda: data.cards[i].id, "side": lambda: SIDES[i],
                        "number": lambda: i, "roll": lambda: f"{i // 5}h{i % 5}r",
                        "outcome": lambda: ("fails", "succeeds")[i]}[what]()
            except IndexError:
                raise BadMoveError(f"hellas: action {action} names no {what}") from None
            return f"{word}:{name}"
    raise BadMoveError(f"hellas: action {action} is outside 0..{A['NUM'] - 1}")


def _new_year(state):
    return state._raw()["season"] == 0


def str_to_action(state, text):
    if not isinstance(text, str):
        raise BadMoveError(f"hellas: a move is a string, got {type(text).__name__}")
    want = text.strip().lower()
    if state.is_chance_node():
        options = [a for a, _ in state.chance_outcomes()]
    else:
        options = state.legal_actions()
    for a in options:
        if action_to_str(state, a).lower() == want:
            return a
    shown = ", ".join(action_to_str(state, a) for a in options[:12]) + (" ..." if len(options) > 12 else "")
    raise BadMoveError(f"hellas: {text!r} is not a legal move here; legal: {shown or 'none (the game is over)'}")

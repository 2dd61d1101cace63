"""Move notation of Pantikapaion: short lower-case phrases a person can read and type.

Cells are named like a chess board: column letter a..p (left to right) and row 1..16 (top to bottom) of the
player's 16x16 city grid. One decision, one phrase (see docs/rules/pantikapaion.md, "How a turn is split"):

  take T17              pick that tile from the 3 after the trireme
  rot 90                rotate the tile in hand (0 / 90 / 180 / 270 degrees clockwise)
  at f7 l2              put its top-left box corner on f7; it lands on level 2 (the level may be left out)
  cube orange           colour of the cube on an aqueduct tile's resource cell
  worker f7 / done      place a worker / stop placing workers
  build aqueduct | sell brown+white+green | take coins | take purple
  substitute green      one cube paid through a substitution token
  place f7 | place f7-g7 | place f7-f8      put the building (2-cell buildings name both cells)
  move house@f7 | free winery | advance purple | use | pay step | skip | discard brown
  chance: first p2 | token b+p | draw T17
"""
from __future__ import annotations

from engine.errors import BadMoveError

G = 16
# action ranges (state.pxd)
A_PICK, A_ROT, A_ANCHOR, A_AQCOL, A_WORK, A_WDONE = 0, 16, 20, 276, 281, 537
A_BUILD, A_SELL, A_TCOIN, A_TCUBE, A_PAYSUB = 538, 543, 575, 576, 581
A_BPLACE, A_BPLACEV, A_MOVESEL, A_FREESEL, A_ADVROW = 586, 842, 1098, 1134, 1139
A_USE, A_PAID, A_DISC, A_SKIP, A_DRAW, A_TOKEN, A_FIRST, NUM = 1144, 1145, 1146, 1151, 1152, 1224, 1240, 1244


def cell_name(c: int) -> str:
    return f"{chr(97 + c % G)}{c // G + 1}"


def parse_cell(text: str) -> int:
    text = text.strip().lower()
    if len(text) < 2 or not "a" <= text[0] <= chr(96 + G) or not text[1:].isdigit() or not 1 <= int(text[1:]) <= G:
        raise ValueError(f"{text!r} is not a cell a1..{chr(96 + G)}{G}")
    return (int(text[1:]) - 1) * G + ord(text[0]) - 97


def action_to_str(state, a: int) -> str:
    if not isinstance(a, int) or not 0 <= a < NUM:
        raise BadMoveError(f"pantikapaion: action {a!r} is out of range 0..{NUM - 1}")
    D = state.game.data
    colours, tiles, builds = D["colours"], D["tiles"], D["buildings"]
    phase, cur, ptile, prot, btype, bslot = state._ctx()
    if a < A_ROT:
        t = state._ring_tile(a - A_PICK)
        return f"take {tiles[t]['id']}" if t >= 0 else f"take slot{a - A_PICK}"
    if a < A_ANCHOR:
        r = a - A_ROT
        if 0 <= ptile < len(tiles) and r < len(tiles[ptile]["rotations"]):
            return f"rot {tiles[ptile]['rotations'][r][0]}"
        return f"rot #{r}"
    if a < A_AQCOL:
        c = a - A_ANCHOR
        if 0 <= ptile < len(tiles) and 0 <= cur < state.num_players and prot < len(tiles[ptile]["rotations"]):
            how = state._fits(cur, ptile, prot, c)
            if how == 1:
                return f"at {cell_name(c)} l1"
            if how == 2:
                return f"at {cell_name(c)} l{state._height(cur, c + _first_offset(state, ptile, prot)) + 1}"
        return f"at {cell_name(c)}"
    if a < A_WORK:
        return f"cube {colours[a - A_AQCOL]}"
    if a < A_WDONE:
        return f"worker {cell_name(a - A_WORK)}"
    if a == A_WDONE:
        return "done"
    if a < A_SELL:
        return f"build {builds[a - A_BUILD]['name']}"
    if a < A_TCOIN:
        m = a - A_SELL
        return "sell " + "+".join(colours[c] for c in range(5) if m >> c & 1)
    if a == A_TCOIN:
        return "take coins"
    if a < A_PAYSUB:
        return f"take {colours[a - A_TCUBE]}"
    if a < A_BPLACE:
        return f"substitute {colours[a - A_PAYSUB]}"
    if a < A_MOVESEL:
        vertical = a >= A_BPLACEV
        c = a - (A_BPLACEV if vertical else A_BPLACE)
        two = vertical or (0 <= btype < 5 and builds[btype]["cells"] == 2)
        if not two:
            return f"place {cell_name(c)}"
        return f"place {cell_name(c)}-{cell_name(c + (G if vertical else 1))}"
    if a < A_FREESEL:
        k = a - A_MOVESEL
        if 0 <= cur < state.num_players:
            t, c0, _ = state._building(cur, k)
            if c0 >= 0:
                return f"move {builds[t]['name']}@{cell_name(c0)}"
        return f"move #{k}"
    if a < A_ADVROW:
        return f"free {builds[a - A_FREESEL]['name']}"
    if a < A_USE:
        return f"advance {colours[a - A_ADVROW]}"
    if a == A_USE:
        return "use"
    if a == A_PAID:
        return "pay step"
    if a < A_SKIP:
        return f"discard {colours[a - A_DISC]}"
    if a == A_SKIP:
        return "skip"
    if a < A_TOKEN:
        t = a - A_DRAW
        return f"draw {tiles[t]['id']}" if t < D["n_terrain"] else f"draw #{t}"
    if a < A_FIRST:
        k = a - A_TOKEN
        return "token " + ("+".join(colours[c][0] for c in D["tokens"][k]) if k < len(D["tokens"]) else f"#{k}")
    return f"first p{a - A_FIRST}"


def _first_offset(state, tt, r):
    dy, dx, _ = state._rot_info(tt, r)["cells"][0]
    return dy * G + dx


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().replace(",", "+").split())


def str_to_action(state, text: str) -> int:
    if not isinstance(text, str):
        raise BadMoveError(f"pantikapaion: a move is a string, got {type(text).__name__}")
    if state.is_terminal():
        raise BadMoveError(f"pantikapaion: the game is over; {text!r} is no move")
    options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    want = _norm(text)
    table = {}
    for a in options:
        s = _norm(action_to_str(state, a))
        table[s] = a
        if s.startswith("at ") and " l" in s:
            table[s.rsplit(" ", 1)[0]] = a        # the level may be left out
    aliases = {"take 2 coins": "take coins", "stop": "skip", "pass": "skip", "no": "skip", "workers done": "done"}
    want = aliases.get(want, want)
    if want in table:
        return table[want]
    shown = ", ".join(sorted(table)[:15]) + (" ..." if len(table) > 15 else "")
    raise BadMoveError(f"pantikapaion: {text!r} is not a legal move here ({state.phase}); legal: {shown}")

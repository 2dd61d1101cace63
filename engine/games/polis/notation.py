"""Move notation for Polis: every action id, read in the decision it answers, has one readable name.

Examples: ``pass``, ``train``, ``at:Pylos``, ``count:2``, ``silver:1``, ``to:Attica``, ``from:Boeotia``, ``stop``,
``project:Myron``, ``silver-for:wood``, ``alloc:wine=3,wheat=2``, ``cell:Persia-4``, ``pay:wine``,
``attack:A2+C0``, ``defend:B1,M0``, ``retreat``, ``release:Chios``, ``grow:Athens``, ``phoros:2``;
chance: ``d4:3``, ``drop:2``, ``deal:A2``, ``draw:Myron``, ``event:alpha-3``.
"""
from __future__ import annotations

from engine.errors import BadMoveError
from engine.games.polis.codec import PHASES
from engine.games.polis.data import ACTION_NAMES, RESOURCES

A_PASS, A_RANSOM, A_START, A_SURCH, A_POLIS, A_COUNT, A_SILVER, A_AREA, A_STOP = 0, 1, 2, 13, 20, 40, 52, 64, 88
A_TILE, A_MASK, A_ALLOC, A_CELL, A_PAYRES, A_RETREAT, A_STAY = 90, 106, 114, 126, 142, 148, 149
A_ATTACK, A_DEFEND, A_RELEASE, A_GROW, A_PHOROS = 150, 200, 290, 310, 330
C_D4, C_DROP, C_CARD, C_TILE, C_EVENT, NUM = 340, 346, 350, 360, 380, 430
PAIRS = [(i, j) for i in range(9) for j in range(i, 9)]
POLIS_LABEL = {"train-polis": "at", "build-polis": "at", "hire-polis": "at", "develop-polis": "at",
               "siege-target": "siege", "proxenos-dest": "proxenos-to"}
AREA_LABEL = {"move-dest": "to", "move-from": "from", "tribute-region": "tribute", "battle-order": "battle"}


def action_to_str(state, a: int) -> str:
    if not isinstance(a, int) or not 0 <= a < NUM:
        raise BadMoveError(f"polis: action {a!r} is out of range 0..{NUM - 1}")
    t = state.static()
    d = state.raw()
    phase = PHASES[d["phase"]]
    codes = t["card_codes"]
    if a == A_PASS:
        return "pass"
    if a == A_RANSOM:
        return "ransom"
    if A_START <= a < A_SURCH:
        return ACTION_NAMES[a - A_START]
    if A_SURCH <= a < A_SURCH + 5:
        return f"surcharge:{RESOURCES[a - A_SURCH]}"
    if A_POLIS <= a < A_POLIS + 18:
        return f"{POLIS_LABEL.get(phase, 'polis')}:{t['poleis'][a - A_POLIS]}"
    if A_COUNT <= a <= A_COUNT + 10:
        n = a - A_COUNT
        if phase == "build-count" and d["sel_polis"] >= 0:
            ports = t["ports"][d["sel_polis"]]
            sea = ports[0] if d["sel_n"] < 0 or len(ports) < 2 else ports[1]
            return f"galleys:{n}>{t['seas'][sea]}"
        return f"count:{n}"
    if A_SILVER <= a <= A_SILVER + 10:
        return f"silver:{a - A_SILVER}"
    if A_AREA <= a < A_AREA + len(t["areas"]):
        return f"{AREA_LABEL.get(phase, 'area')}:{t['areas'][a - A_AREA]}"
    if a == A_STOP:
        return "stop" if phase == "move-from" else "done"
    if A_TILE <= a < A_TILE + 14:
        return f"{'discard' if phase == 'tile-remove' else 'project'}:{t['tiles'][a - A_TILE][0]}"
    if A_MASK <= a < A_MASK + 8:
        mask = a - A_MASK
        tile = d["sel_tile"]
        comps = t["tiles"][tile][2] if tile >= 0 else []
        names = [RESOURCES[comps[i][0]] for i in range(len(comps)) if mask >> i & 1] if comps else \
            [str(i) for i in range(3) if mask >> i & 1]
        return f"silver-for:{'+'.join(names) or 'none'}"
    if A_ALLOC <= a <= A_ALLOC + 10:
        # k hoplites into the column being filled; naming the last column too when it takes the rest
        k = a - A_ALLOC
        r, c = d["sel_area"], d["sel_n2"]
        if 0 <= r < len(t["regions"]) and 0 <= c < len(t["trib"][r]) - 1 and 0 <= d["active"] <= 1:
            cols = t["trib"][r]
            text = f"alloc:{RESOURCES[cols[c][0]]}={k}"
            if c == len(cols) - 2:
                rest = d["hop"][r][d["active"]] - max(d["sel_n"], 0) - k
                text += f",{RESOURCES[cols[-1][0]]}={rest}"
            return text
        return f"alloc:{k}"
    if A_CELL <= a < A_CELL + 16:
        c = a - A_CELL
        if c < len(t["cells"]):
            m, rate, _, _ = t["cells"][c]
            return f"cell:{t['markets'][m]}-{rate}"
        return f"cell:{c}"
    if A_PAYRES <= a < A_PAYRES + 5:
        return f"pay:{RESOURCES[a - A_PAYRES]}"
    if a == A_RETREAT:
        return "retreat"
    if a == A_STAY:
        return "stay"
    if A_ATTACK <= a < A_ATTACK + 45:
        i, j = PAIRS[a - A_ATTACK]
        return f"attack:{codes[i]}+{codes[j]}"
    if A_DEFEND <= a < A_DEFEND + 81:
        x, y = divmod(a - A_DEFEND, 9)
        return f"defend:{codes[x]},{codes[y]}"
    if A_RELEASE <= a < A_RELEASE + 18:
        return f"release:{t['poleis'][a - A_RELEASE]}"
    if A_GROW <= a < A_GROW + 18:
        return f"grow:{t['poleis'][a - A_GROW]}"
    if A_PHOROS <= a < A_PHOROS + 3:
        return f"phoros:{a - A_PHOROS}"
    if C_D4 <= a < C_D4 + 4:
        return f"d4:{a - C_D4 + 1}"
    if C_DROP <= a < C_DROP + 4:
        return f"drop:{a - C_DROP + 1}"
    if C_CARD <= a < C_CARD + 9:
        return f"deal:{codes[a - C_CARD]}"
    if C_TILE <= a < C_TILE + 14:
        return f"draw:{t['tiles'][a - C_TILE][0]}"
    if C_EVENT <= a < C_EVENT + len(t["events"]):
        return f"event:{t['events'][a - C_EVENT][1]}"
    return f"#{a}"


def str_to_action(state, text: str) -> int:
    if not isinstance(text, str):
        raise BadMoveError(f"polis: a move is a string, got {type(text).__name__}")
    want = text.strip().lower()
    if state.is_terminal():
        raise BadMoveError(f"polis: the game is over; {text!r} is no move")
    options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    names = {action_to_str(state, a).lower(): a for a in options}
    if want in names:
        return names[want]
    shown = ", ".join(list(names)[:20]) + (" ..." if len(names) > 20 else "")
    raise BadMoveError(f"polis: {text!r} is no legal move here (phase {PHASES[state.raw()['phase']]}); "
                       f"legal: {shown}")

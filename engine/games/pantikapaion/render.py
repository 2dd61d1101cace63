"""Text view of a Pantikapaion position: the shared boards, then every city (open information: the observer
changes only the heading). Each city cell shows three characters: level, face and what lies on it.

  face: . empty  D drought  b p w o g resource cell  * aqueduct cell not yet coloured
  on it: * cube  W worker  H house  V winery  F fortress  A aqueduct  T temple
"""
from __future__ import annotations

from engine.games.pantikapaion.jsonio import CUBE, TYPE, WORKER
from engine.games.pantikapaion.notation import G

FACE = {1: ".", 2: "D", 3: "b", 4: "p", 5: "w", 6: "o", 7: "g", 8: "*"}
CELL_SHORT = ("", "+W", "VP", "VP/", "R1", "R2", "U", "MOVE", "FREE", "AQ", "RAND", "ADV")


def city_lines(state, p) -> list[str]:
    D = state.game.data
    letters = [b["letter"] for b in D["buildings"]]
    cells = [c for c in range(G * G) if state._height(p, c)]
    if not cells:
        return ["    (no tiles yet)"]
    ys = [c // G for c in cells]
    xs = [c % G for c in cells]
    y0, y1, x0, x1 = min(ys), max(ys), min(xs), max(xs)
    lines = ["     " + "".join(f" {chr(97 + x)}  " for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        row = []
        for x in range(x0, x1 + 1):
            c = y * G + x
            h = state._height(p, c)
            if not h:
                row.append("    ")
                continue
            top, b = state._top(p, c), state._bld(p, c)
            on = " "
            if b:
                on = letters[state._building(p, b - 1)[0]]
            elif top & WORKER:
                on = "W"
            elif top & CUBE:
                on = "*"
            row.append(f"{h}{FACE[top & TYPE]}{on} ")
        lines.append(f"  {y + 1:2d} " + "".join(row).rstrip())
    return lines


def render(state, observer=None) -> str:
    j = state.to_json()
    D = state.game.data
    colours = D["colours"]
    n = j["players"]
    who = {-1: "chance", -2: "nobody (game over)"}.get(state.current_player(), f"P{state.current_player()}")
    head = f"Pantikapaion, {n} players, round {j['round']}/{D['rounds']}, turn {j['turns_taken'] + 1}, " \
           f"first player P{j['first_player']}; to move: {who} ({state.phase})"
    if observer is not None:
        head += f"  [view of P{observer}]"
    lines = [head]
    tri = j["trireme"]
    ring = " ".join(("[" + (t or "--") + "]") if i == tri else (t or "--") for i, t in enumerate(j["ring"]))
    lines.append(f"Ring (clockwise, trireme {'before slot 0' if tri < 0 else 'in slot ' + str(tri)}): {ring}")
    lines.append(f"Bag: {sum(j['bag'].values())} tiles; discard: {sum(j['discard'].values())}")
    costs = D["costs"]
    pieces = D["pieces_2p"] if n == 2 else D["pieces"]
    stock = ", ".join(f"{k} {v} left" + (f" (next costs {costs[pieces - v]})" if v else "")
                      for k, v in j["stock"].items())
    lines.append(f"Buildings: {stock}")
    lines.append("Development board (markers after the cell they reached):")
    tokens = j["resource_tokens"]
    for r, row in enumerate(D["dev"]):
        cells = []
        for pos, (kind, arg) in enumerate(row, 1):
            label = CELL_SHORT[kind]
            if kind in (2, 3):
                label += str(arg)
            elif kind in (4, 5):
                k = arg if kind == 4 else D["n_res1"] + arg
                label += f"({tokens[k] or '?'})"
            here = "".join(str(p) for p in range(n) if j["boards"][p]["markers"][colours[r]] == pos)
            cells.append(label + (f"<{here}>" if here else ""))
        start = "".join(str(p) for p in range(n) if j["boards"][p]["markers"][colours[r]] == 0)
        lines.append(f"  {colours[r]:7s} start<{start}> " + " ".join(cells))
    for p in range(n):
        b = j["boards"][p]
        me = " (you)" if observer == p else ""
        store = " ".join(f"{c[0]}{b['storage'][c]}" for c in colours)
        ups = f"sub x{b['substitution_tokens']}" + (" res-discount" if b["resource_discount"] else "") + \
              (" coin-discount" if b["coin_discount"] else "")
        score = state.score_breakdown(p)
        lines.append(f"P{p}{me}: coins {b['coins']}, storage {store}, workers {b['workers_board']} on board / "
                     f"{len(b['workers'])} in city / {b['workers_supply']} in supply, upgrades {ups}; "
                     f"score now {score['total']}")
        lines += city_lines(state, p)
    return "\n".join(lines)

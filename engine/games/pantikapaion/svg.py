"""Pantikapaion as a picture: the ring of tiles with the trireme, the development board with every player's
markers, the supply, and each player's city in isometric 3-D: every cell a column as tall as the tiles stacked
there (a line per level), its top coloured by its face, with the cube, worker or building lying on it.

Everything in Pantikapaion is open (only the bag's order is unknown and is never drawn), so a seat's view differs
from the whole truth only in its heading.
"""
from __future__ import annotations

import math

from engine.games.pantikapaion.jsonio import CUBE, TYPE, WORKER
from engine.games.pantikapaion.notation import G
from engine.games.pantikapaion.render import CELL_SHORT
from engine.svg import INK, MUTED, Canvas, seat_colour

# top-face colours: 1 empty ground, 2 drought, 3..7 the five resources, 8 aqueduct cell not yet coloured
FACE_FILL = {1: "#e9dcc0", 2: "#b9a27e", 3: "#8d5a3b", 4: "#8e5ea2", 5: "#f4f4f0", 6: "#e8892b", 7: "#5aa55a",
             8: "#9fd3e6"}
FACE_NAME = {1: "empty", 2: "drought", 3: "brown", 4: "purple", 5: "white", 6: "orange", 7: "green", 8: "aqueduct"}
RESOURCE_FILL = {"brown": FACE_FILL[3], "purple": FACE_FILL[4], "white": FACE_FILL[5], "orange": FACE_FILL[6],
                 "green": FACE_FILL[7]}
BUILDING_FILL = "#d9c7a0"
TW, TH, LH = 28.0, 14.0, 7.0      # isometric cell width, height, and the rise of one level
CITY_W, CITY_H = 440.0, 330.0
TOP_H = 330.0


def _shade(hex_colour: str, factor: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{max(0, min(255, int(v * factor))):02x}" for v in (r, g, b))


def draw(state, seat=None) -> Canvas:
    j = state.to_json() if seat is None else state.observation(seat)
    D = state.game.data
    n = j["players"]
    cols = 2 if n > 1 else 1
    rows = math.ceil(n / cols)
    width = max(900.0, cols * (CITY_W + 10) + 10)
    c = Canvas(width, TOP_H + rows * (CITY_H + 10) + 10, title=f"Pantikapaion, {n} players")
    who = {-1: "chance", -2: "nobody (game over)"}.get(state.current_player(), f"P{state.current_player()}")
    c.heading([f"Pantikapaion: round {j['round']}/{D['rounds']}, turn {j['turns_taken'] + 1}",
               f"to move: {who} ({j['phase']}); first player P{j['first_player']}"
               + (f"  |  view of P{seat}" if seat is not None else "  |  all")])
    _ring(c, j, D, 150, 190)
    _development(c, j, D, 320, 70, n)
    for p in range(n):
        r, k = divmod(p, cols)
        _city(c, state, j, D, p, 10 + k * (CITY_W + 10), TOP_H + r * (CITY_H + 10), seat)
    return c


def _tile_cells(D, tile_id: str):
    for t in D["tiles"]:
        if t["id"] == tile_id:
            return t["cells"]
    return []


def _mini_tile(c: Canvas, D, tile_id: str, cx: float, cy: float, cell: float, **attrs):
    cells = _tile_cells(D, tile_id)
    rows = 1 + max(r for r, _, _ in cells)
    cols = 1 + max(k for _, k, _ in cells)
    x0, y0 = cx - cols * cell / 2, cy - rows * cell / 2
    with c.group(cls="tile", tip=tile_id, **attrs):
        for r, k, face in cells:
            c.rect(x0 + k * cell, y0 + r * cell, cell, cell, fill=FACE_FILL.get(face, "#ccc"), stroke=INK,
                   stroke_width=0.6)


def _ring(c: Canvas, j, D, cx, cy):
    ring = j["ring"]
    size = len(ring)
    radius = 118
    c.circle(cx, cy, radius, fill="none", stroke="#9fb7c4", stroke_width=14, stroke_opacity=0.45)
    c.text(cx, cy - 6, "ring", size=12, anchor="middle", fill=MUTED)
    c.text(cx, cy + 10, f"bag {sum(j['bag'].values())}, discard {sum(j['discard'].values())}", size=10,
           anchor="middle", fill=MUTED)
    for i, tile in enumerate(ring):
        a = -math.pi / 2 + 2 * math.pi * i / size
        x, y = cx + radius * math.cos(a), cy + radius * math.sin(a)
        c.circle(x, y, 24, fill="#ffffff", stroke="#9fb7c4", stroke_width=1.2, cls="ring-slot")
        c.text(x, y + 36, str(i), size=8, anchor="middle", fill=MUTED)
        if tile:
            _mini_tile(c, D, tile, x, y, 9, data_slot=i)
    tri = j["trireme"]
    a = -math.pi / 2 + 2 * math.pi * (tri + (0.5 if tri >= 0 else -0.5)) / size
    x, y = cx + radius * math.cos(a), cy + radius * math.sin(a)
    c.piece(x, y, "#5d4037", "trireme", shape="boat", size=16,
            tip="the trireme " + ("before slot 0" if tri < 0 else f"after slot {tri}"))


def _development(c: Canvas, j, D, x0, y0, n):
    colours = D["colours"]
    cell_w, cell_h = 56, 30
    c.text(x0, y0 - 8, "development board", size=11, fill=MUTED)
    tokens = j["resource_tokens"]
    for r, row in enumerate(D["dev"]):
        y = y0 + r * (cell_h + 4)
        fill = RESOURCE_FILL[colours[r]]
        c.rect(x0, y, 34, cell_h, fill=fill, stroke=INK, stroke_width=0.6, rx=3)
        c.text(x0 + 17, y + 19, "start", size=8, anchor="middle", fill=INK if colours[r] == "white" else "#fff")
        for pos, (kind, arg) in enumerate(row, 1):
            x = x0 + 38 + (pos - 1) * (cell_w + 2)
            label = CELL_SHORT[kind]
            if kind in (2, 3):
                label += str(arg)
            elif kind in (4, 5):
                label += " " + (tokens[arg if kind == 4 else D["n_res1"] + arg] or "?")
            c.rect(x, y, cell_w, cell_h, fill="#ffffff", stroke=fill if colours[r] != "white" else MUTED,
                   stroke_width=1.5, rx=3, cls="dev-cell")
            c.text(x + cell_w / 2, y + 12, label, size=9, anchor="middle", fill=INK)
        for p in range(n):
            reached = j["boards"][p]["markers"][colours[r]]
            x = x0 + 17 if reached == 0 else x0 + 38 + (reached - 1) * (cell_w + 2) + cell_w / 2
            c.piece(x - (n - 1) * 5 + p * 10, y + cell_h - 7, seat_colour(p), "marker", shape="circle", size=8,
                    tip=f"P{p} on the {colours[r]} row, cell {reached}", data_owner=p)
    y = y0 + len(D["dev"]) * (cell_h + 4) + 14
    stock = "  ".join(f"{k} {v}" for k, v in j["stock"].items())
    c.text(x0, y, f"buildings left: {stock}", size=10.5, fill=INK)
    aq = "  ".join(f"{k} {v}" for k, v in j["aqueduct_tiles"].items())
    c.text(x0, y + 15, f"aqueduct tiles: {aq};  upgrade stacks: {j['upgrade_stacks']}", size=10.5, fill=INK)


def _iso(ox, oy, x, y, h):
    return ox + (x - y) * TW / 2, oy + (x + y) * TH / 2 - h * LH


def _city(c: Canvas, state, j, D, p, x0, y0, seat):
    b = j["boards"][p]
    colour = seat_colour(p)
    c.rect(x0, y0, CITY_W, CITY_H, fill=colour, fill_opacity=0.05, stroke=colour, rx=6, cls="city", data_owner=p)
    score = state.score_breakdown(p)
    you = " (you)" if seat == p else ""
    c.text(x0 + 8, y0 + 17, f"P{p}{you}", size=13, weight="bold", fill=colour)
    c.text(x0 + 80, y0 + 17, f"score {score['total']}   coins {b['coins']}   workers: {b['workers_board']} board, "
                             f"{len(b['workers'])} city, {b['workers_supply']} supply", size=10.5)
    for i, (name, count) in enumerate(b["storage"].items()):
        x = x0 + 10 + i * 36
        c.rect(x, y0 + 25, 12, 12, fill=RESOURCE_FILL[name], stroke=INK, stroke_width=0.6, rx=2, tip=name)
        c.text(x + 15, y0 + 35, str(count), size=10)
    ups = [f"sub x{b['substitution_tokens']}"] + (["res-discount"] if b["resource_discount"] else []) \
        + (["coin-discount"] if b["coin_discount"] else [])
    c.text(x0 + 195, y0 + 35, "upgrades: " + ", ".join(ups), size=10, fill=MUTED)

    cells = [cell for cell in range(G * G) if state._height(p, cell)]
    if not cells:
        c.text(x0 + CITY_W / 2, y0 + CITY_H / 2, "no tiles yet", size=12, anchor="middle", fill=MUTED)
        return
    xs, ys = [cell % G for cell in cells], [cell // G for cell in cells]
    top_h = max(state._height(p, cell) for cell in cells)
    # fit the city's bounding box into the panel below the header
    span_w = (max(xs) - min(ys) - (min(xs) - max(ys)) + 2) * TW / 2
    span_h = (max(xs) + max(ys) - min(xs) - min(ys) + 2) * TH / 2 + (top_h + 2) * LH
    area_w, area_h = CITY_W - 20, CITY_H - 55
    scale = min(1.6, area_w / span_w, area_h / span_h)
    ox = -(min(xs) - max(ys) - 1) * TW / 2
    oy = (top_h + 1) * LH - (min(xs) + min(ys)) * TH / 2
    tx = x0 + 10 + (area_w - span_w * scale) / 2
    ty = y0 + 45 + (area_h - span_h * scale) / 2
    letters = {bd["name"]: bd["letter"] for bd in D["buildings"]}
    names = [bd["name"] for bd in D["buildings"]]
    with c.group(transform=f"translate({tx:.1f},{ty:.1f}) scale({scale:.3f})", cls="city-map", data_owner=p):
        for cell in sorted(cells, key=lambda k: (k % G + k // G, k % G)):
            _column(c, state, p, cell, ox, oy, letters, names)


def _column(c: Canvas, state, p, cell, ox, oy, letters, names):
    x, y = cell % G, cell // G
    h = state._height(p, cell)
    top = state._top(p, cell)
    face = top & TYPE
    fill = FACE_FILL.get(face, "#cccccc")
    n_, e_, s_, w_ = (_iso(ox, oy, x, y, h), _iso(ox, oy, x + 1, y, h), _iso(ox, oy, x + 1, y + 1, h),
                      _iso(ox, oy, x, y + 1, h))
    drop = h * LH
    name = f"{chr(97 + x)}{y + 1}"
    with c.group(cls="cell", data_cell=name, data_level=h, tip=f"{name}: level {h}, {FACE_NAME.get(face, '?')}"):
        # the two visible sides (south-west and south-east), one band per level
        c.polygon([w_, s_, (s_[0], s_[1] + drop), (w_[0], w_[1] + drop)], fill=_shade(fill, 0.72), stroke=INK,
                  stroke_width=0.5)
        c.polygon([s_, e_, (e_[0], e_[1] + drop), (s_[0], s_[1] + drop)], fill=_shade(fill, 0.55), stroke=INK,
                  stroke_width=0.5)
        for level in range(1, h):
            d = level * LH
            c.path(f"M{w_[0]:.1f},{w_[1] + d:.1f} L{s_[0]:.1f},{s_[1] + d:.1f} L{e_[0]:.1f},{e_[1] + d:.1f}",
                   stroke=INK, stroke_width=0.4, stroke_opacity=0.6)
        c.polygon([n_, e_, s_, w_], fill=fill, stroke=INK, stroke_width=0.6)
    cx, cy = (n_[0] + s_[0]) / 2, (n_[1] + s_[1]) / 2
    slot = state._bld(p, cell)
    if slot:
        btype, c0, _ = state._building(p, slot - 1)
        if c0 == cell:                 # a two-cell building is drawn once, on its first cell
            _house(c, cx, cy, letters[names[btype]], names[btype])
    elif top & WORKER:
        c.circle(cx, cy - 9, 3.5, fill=seat_colour(p), stroke=INK, stroke_width=0.6, cls="worker")
        c.path(f"M{cx - 5:.1f},{cy + 1:.1f} L{cx:.1f},{cy - 7:.1f} L{cx + 5:.1f},{cy + 1:.1f} Z",
               fill=seat_colour(p), stroke=INK, stroke_width=0.6, cls="worker-body")
    elif top & CUBE:
        s = 4.5
        cube = [(cx, cy - 2 * s), (cx + s * 1.2, cy - 1.4 * s), (cx + s * 1.2, cy), (cx, cy + 0.6 * s),
                (cx - s * 1.2, cy), (cx - s * 1.2, cy - 1.4 * s)]
        c.polygon(cube, fill=_shade(FACE_FILL.get(face, "#ccc"), 1.05), stroke=INK, stroke_width=0.7, cls="cube")


def _house(c: Canvas, cx, cy, letter: str, name: str):
    w, h = 9, 10
    with c.group(cls="building", tip=name):
        c.polygon([(cx - w, cy - 2), (cx - w, cy - h - 2), (cx, cy - h - 10), (cx + w, cy - h - 2), (cx + w, cy - 2),
                   (cx, cy + 3)], fill=BUILDING_FILL, stroke=INK, stroke_width=0.8)
        c.text(cx, cy - 6, letter, size=9, anchor="middle", weight="bold")

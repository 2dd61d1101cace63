"""Polis as a picture: a schematic area graph (regions, seas, poleis, markets; geometry in data/layout.json) with
hoplites, galleys, polis owners and population, sieges, tribute discs, merchants on the trade routes, and a side
panel with both player boards, the projects (the buildings of the game), market prices, events and any battle.

Drawn from ``state.observation(seat)`` for a seat (the opponent's battle hand and the deck as counts, events not yet
revealed face down), from ``state.to_json()`` for the whole truth.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from engine.games.polis.data import read_data
from engine.svg import INK, LAND, MUTED, SEA, Canvas, links, load_layout

DATA = Path(__file__).parent / "data"
PANEL_W = 330


@lru_cache(maxsize=4)
def board(data: str | None = None):
    """The map of the data set ``data`` (the game's option) and the drawing's layout (geometry only: the same for
    every data set of the 12 regions and 5 seas)."""
    m = read_data(data, "map.json")
    regions, seas = m["regions"]["names"], m["seas"]["names"]
    poleis = {row[0]: dict(zip(m["poleis"]["columns"], row)) for row in m["poleis"]["rows"]}
    layout = load_layout(DATA / "layout.json", {"regions": regions, "seas": seas, "poleis": list(poleis),
                                                "markets": m["markets"]["names"]})
    return m, layout, poleis


def draw(state, seat=None) -> Canvas:
    from engine.games.polis.codec import observation, to_json
    m, layout, poleis = board(state.game.options.get("data"))
    j = to_json(state) if seat is None else observation(state, seat)
    colours = layout["colours"]
    sides = list(j["players"])
    W, H = layout["width"], layout["height"]
    c = Canvas(W + PANEL_W, max(H, 760), title="Polis")
    pos = {**layout["regions"], **layout["seas"], **layout["poleis"], **layout["markets"]}

    # the graph: sea lanes, land borders, coasts, then the areas on top
    links(c, pos, m["sea_adjacency"]["edges"], stroke="#8fb8cf", dash="7 5", width=3, cls="sea-lane")
    links(c, pos, m["land_adjacency"]["edges"], stroke="#b79f6e", width=4, cls="border")
    coasts = [(r, s) for r, ss in m["coast"]["seas"].items() for s in ss]
    links(c, pos, coasts, stroke="#a9c9da", dash="2 4", width=1.5, cls="coast")
    links(c, pos, [(name, p["region"]) for name, p in poleis.items() if p["region"]], stroke="#c9b68a", width=1.2,
          cls="polis-link")
    market_links = [(mk, s) for mk, ss in m["markets"]["seas"].items() for s in ss]
    market_links += list(m["markets"]["land"].items())
    links(c, pos, market_links, stroke="#d4a373", dash="4 3", width=1.5, cls="route")

    for name, sea in j["seas"].items():
        x, y = pos[name]
        with c.group(cls="sea", data_area=name, tip=f"{name}: galleys " + ", ".join(
                f"{s} {sea[s]}" for s in sides)):
            c.circle(x, y, 46, fill=SEA, stroke="#7aa6bf", stroke_width=1.5)
            c.text(x, y - 24, name, size=11, anchor="middle", fill="#3c6e8f", font_style="italic")
        for k, side in enumerate(sides):
            c.tokens(x, y + (k - 0.5) * 18 + 4, sea[side], colours[side], "unit", shape="boat", size=10, per_row=4,
                     data_kind="galley", data_owner=side, data_area=name)

    for name, reg in j["regions"].items():
        x, y = pos[name]
        trib = reg["tribute"]
        with c.group(cls="region", data_area=name, tip=f"{name}: hoplites " + ", ".join(
                f"{s} {reg[s]}" for s in sides) + (f"; tribute disc of {trib}" if trib else "")):
            c.rect(x - 52, y - 26, 104, 52, fill=LAND, stroke="#a8915f", stroke_width=1.5, rx=14)
            c.text(x, y - 12, name, size=11, anchor="middle", weight="bold", fill="#6b5836")
        for k, side in enumerate(sides):
            c.tokens(x, y + k * 13 + 2, reg[side], colours[side], "unit", size=9, per_row=6,
                     data_kind="hoplite", data_owner=side, data_area=name)
        if trib:
            c.piece(x + 44, y - 18, colours[trib], "tribute", shape="disc", size=12, data_owner=trib)

    for name, p in j["poleis"].items():
        x, y = pos[name]
        owner = p["owner"]
        fill = colours[owner] if owner else "#ffffff"
        info = poleis[name]
        tip = (f"{name}: " + (f"{owner}, population {p['pop']}" if owner else "neutral")
               + f" (base {info['base']}, max {info['max_pop']})")
        with c.group(cls="polis", data_area=name, data_owner=owner or "", tip=tip):
            c.circle(x, y, 13, fill=fill, stroke=INK, stroke_width=1.2)
            c.text(x, y + 4, str(p["pop"] if owner else info["base"]), size=11, anchor="middle", weight="bold",
                   fill="#ffffff" if owner else MUTED)
            c.text(x, y + 25, name, size=9.5, anchor="middle", fill=INK)
        for k, side in enumerate(sides):
            if p["siege"][side]:
                c.tokens(x + 20, y - 8 + k * 10, p["siege"][side], colours[side], "siege", shape="circle", size=6,
                         data_owner=side)
        built = j["projects"]["completed"].get(name, []) + j["projects"]["started"].get(name, [])
        for k, tile in enumerate(built):
            done = tile in j["projects"]["completed"].get(name, [])
            c.piece(x - 20 - k * 10, y - 10, "#f1c40f" if done else "#fdf2c4", "building", shape="diamond", size=9,
                    tip=f"{tile} ({'completed' if done else 'started'})")

    by_market: dict = {}
    for cell in j["market"]["cells"]:
        by_market.setdefault(cell["market"], []).append(cell)
    for name, cells in by_market.items():
        x, y = pos[name]
        w = 24 * len(cells) + 8
        with c.group(cls="market", data_area=name):
            c.rect(x - w / 2, y - 22, w, 42, fill="#f7e1c4", stroke="#b5835a", rx=6)
            c.text(x, y - 9, name, size=10, anchor="middle", weight="bold", fill="#7a4e2d")
        for i, cell in enumerate(cells):
            cx = x - w / 2 + 6 + i * 24
            tip = f"{name} route, rate {cell['rate']}" + (" (blocked)" if cell["blocked"] else "")
            c.rect(cx, y - 4, 20, 18, fill="#dcdcdc" if cell["blocked"] else "#ffffff", stroke="#b5835a", rx=2,
                   cls="route-cell", tip=tip)
            if cell["merchant"]:
                c.piece(cx + 10, y + 5, colours[cell["merchant"]], "unit", shape="circle", size=12,
                        data_kind="merchant", data_owner=cell["merchant"], data_area=name)
            else:
                c.text(cx + 10, y + 10, str(cell["rate"]), size=10, anchor="middle", fill=MUTED)

    _panel(c, j, W + 8, colours, sides, state, seat)
    return c


def _panel(c: Canvas, j: dict, x: float, colours: dict, sides: list, state, seat):
    over = f"  winner: {j['winner']}" if j["winner"] else ""
    view = f"view of {j['you']}" if seat is not None else "all"
    c.text(x, 24, f"Polis: round {j['round']}, {j['phase']}", size=15, weight="bold", cls="heading")
    c.text(x, 42, f"to move: {j['active']}{over}  |  {view}", size=11, fill=MUTED, cls="heading")
    y = 54
    for p, side in enumerate(sides):
        pl = j["players"][side]
        you = " (you)" if j.get("you") == side else ""
        passed = ", passed" if j["passed"][p] else ""
        lines = [f"prestige {pl['prestige']}   score {state.score(p)}{passed}",
                 f"iron {pl['iron']}  wood {pl['wood']}  wine {pl['wine']}  silver {pl['silver']}  wheat {pl['wheat']}",
                 f"in stock: {pl['cubes']} cubes, {pl['discs']} discs, {pl['merchants']} merchants",
                 f"merchants on port {pl['merchants_on_port']}; proxenos in {pl['proxenos']}"]
        y = c.panel(x, y, PANEL_W - 16, lines, title=side.capitalize() + you, colour=colours[side]) + 8
    pr = j["projects"]
    started = [f"{t} @ {p}" for p, ts in pr["started"].items() for t in ts]
    completed = [f"{t} @ {p}" for p, ts in pr["completed"].items() for t in ts]
    lines = [f"on display: {', '.join(pr['display']) or '-'}", f"face down: {len(pr['pile'])}",
             f"started: {', '.join(started) or '-'}", f"completed: {', '.join(completed) or '-'}"]
    y = c.panel(x, y, PANEL_W - 16, lines, title="Projects", colour="#a67c00") + 8
    prices = j["market"]["prices"]
    ev = j["events"]
    stack = ", ".join(e or "-" for e in ev["stack"])
    y = c.panel(x, y, PANEL_W - 16, ["prices: " + "  ".join(f"{k} {v}" for k, v in prices.items()),
                                     f"events: {stack}"], title="Market and events", colour="#7a4e2d") + 8
    b = j["battle"]
    if b:
        hands = [f"{k}: {v} cards" if isinstance(v, int) else f"{k}: {' '.join(v) or '-'}"
                 for k, v in b["hands"].items()]
        deck = b["deck"] if isinstance(b["deck"], int) else len(b["deck"])
        y = c.panel(x, y, PANEL_W - 16, [f"in {b['area']}, attacker {b['attacker']}",
                                         f"on the table: {' '.join(b['played']) or '-'}", *hands,
                                         f"deck: {deck} cards"], title="Battle", colour="#b03a2e") + 8
    for p, side in enumerate(sides):
        c.piece(x + 8, y + 10 + p * 18, colours[side], "legend", size=10)
        c.text(x + 20, y + 14 + p * 18, f"{side}: hoplites, galleys, merchants, poleis", size=10)

"""Mare Nostrum as a picture: a schematic area graph of provinces and seas (geometry in data/layout.json) with each
province's control, its building spaces (caravans, markets, cities, temples; filled when built), legions,
fortresses, triremes, captures, and a side panel with the three leadership tracks, titles, cards and holdings.

Drawn from ``state.observation(seat)`` for a seat (another empire's rare resources stay face down), from
``state.to_json()`` for the whole truth. The track values are public (buildings, units and cards on the table).
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from engine.svg import INK, LAND, MUTED, SEA, Canvas, links, load_layout

DATA = Path(__file__).parent / "data"
PANEL_W = 360
BOX_W, BOX_H = 112, 60
SPACE_LETTER = {"market": "M", "city": "C", "capital": "K", "temple": "T", "legendary": "L"}


@lru_cache(maxsize=1)
def board():
    m = tomllib.loads((DATA / "map.toml").read_text(encoding="utf-8"))
    provinces = {p["name"]: p for p in m["province"]}
    seas = {s["name"]: s for s in m["sea"]}
    layout = load_layout(DATA / "layout.json", {"provinces": list(provinces), "seas": list(seas)})
    land = {tuple(sorted((p, q))) for p, rec in provinces.items() for q in rec["adj"]}
    lanes = {tuple(sorted((s, t))) for s, rec in seas.items() for t in rec["adj"]}
    coasts = [(p, s) for p, rec in provinces.items() for s in rec["seas"]]
    return layout, sorted(land), sorted(lanes), coasts


def _space_label(kind: str) -> str:
    if kind.startswith("caravan:"):
        return kind.split(":", 1)[1][:2]
    return SPACE_LETTER.get(kind.split(":", 1)[0], kind[:1].upper())


def draw(state, seat=None) -> Canvas:
    from engine.games.mare_nostrum.codec import to_json
    layout, land, lanes, coasts = board()
    j = to_json(state) if seat is None else state.observation(seat)
    colours = layout["colours"]
    emp = [e["empire"] for e in j["empires"]]
    W, H = layout["width"], layout["height"]
    c = Canvas(W + PANEL_W, max(H, 780), title="Mare Nostrum")
    pos = {**layout["provinces"], **layout["seas"]}

    links(c, pos, lanes, stroke="#8fb8cf", dash="7 5", width=3, cls="sea-lane")
    links(c, pos, coasts, stroke="#a9c9da", dash="2 4", width=1.5, cls="coast")
    links(c, pos, land, stroke="#b79f6e", width=4, cls="border")

    ships: dict = {}
    legions: dict = {}
    forts: dict = {}
    for e in j["empires"]:
        for sea, n in e["triremes"].items():
            ships.setdefault(sea, []).append((e["empire"], n))
        for prov, n in e["legions"].items():
            legions.setdefault(prov, []).append((e["empire"], n))
        for prov in e["fortresses"]:
            forts.setdefault(prov, []).append(e["empire"])

    for name, (x, y) in layout["seas"].items():
        with c.group(cls="sea", data_area=name):
            c._element("ellipse", {"cx": x, "cy": y, "rx": 62, "ry": 36, "fill": SEA, "stroke": "#7aa6bf",
                                   "stroke-width": 1.5})
            c.text(x, y - 16, name, size=10.5, anchor="middle", fill="#3c6e8f", font_style="italic")
        fleet = ships.get(name, [])
        for k, (owner, n) in enumerate(fleet):
            c.tokens(x, y + 2 + (k - (len(fleet) - 1) / 2) * 12, n, colours[owner], "unit", shape="boat", size=9,
                     per_row=5, data_kind="trireme", data_owner=owner, data_area=name)

    for name, rec in j["provinces"].items():
        x, y = layout["provinces"][name]
        ctrl = rec["control"]
        edge = colours[ctrl] if ctrl else "#a8915f"
        cap = rec["capture"]
        tip = f"{name}: " + (f"controlled by {ctrl}" if ctrl else "uncontrolled")
        if cap:
            tip += f"; captured by {cap['by']} in round {cap['round']}"
        with c.group(cls="province", data_area=name, data_control=ctrl or "", tip=tip):
            c.rect(x - BOX_W / 2, y - BOX_H / 2, BOX_W, BOX_H, fill=LAND, stroke=edge,
                   stroke_width=3 if ctrl else 1.2, rx=10)
            if ctrl:
                c.rect(x - BOX_W / 2, y - BOX_H / 2, BOX_W, 15, fill=edge, fill_opacity=0.85, rx=8)
            c.text(x, y - BOX_H / 2 + 11.5, name, size=10, anchor="middle", weight="bold",
                   fill="#ffffff" if ctrl else "#6b5836")
            if cap:
                c.piece(x + BOX_W / 2 - 6, y - BOX_H / 2 + 6, colours[cap["by"]], "capture", shape="diamond", size=10)
        spaces = rec["spaces"]
        sx = x - (len(spaces) * 19 - 2) / 2
        for i, (kind, built, occ, circe) in enumerate(spaces):
            bx = sx + i * 19
            fill = colours[ctrl] if built and ctrl else ("#9c8f7a" if built else "#ffffff")
            label = _space_label(kind)
            what = f"{kind} ({'built' if built else 'empty'})" + (f", occupied by {occ}" if occ else "") + \
                   (f", Circe's legion of {circe}" if circe else "")
            with c.group(cls="building" if built else "space", data_kind=kind, data_area=name, tip=what):
                c.rect(bx, y - 11, 17, 15, fill=fill, stroke=INK, stroke_width=0.7, rx=2,
                       fill_opacity=1 if built else 0.9)
                c.text(bx + 8.5, y, label, size=8, anchor="middle", fill="#ffffff" if built else MUTED)
            if occ:
                c.piece(bx + 14, y - 10, colours[occ], "occupation", shape="circle", size=6)
            if circe:
                c.piece(bx + 3, y - 10, colours[circe], "circe", shape="circle", size=6)
        army = legions.get(name, [])
        ux = x - BOX_W / 2 + 10
        for owner, n in army:
            for _ in range(n):
                c.piece(ux, y + 17, colours[owner], "unit", size=9, data_kind="legion", data_owner=owner,
                        data_area=name)
                ux += 11
        for owner in forts.get(name, []):
            c.piece(ux + 2, y + 16, colours[owner], "fortress", shape="tower", size=12, data_owner=owner,
                    data_area=name)
            ux += 14

    _panel(c, j, W + 8, colours, emp, state, seat)
    return c


def _panel(c: Canvas, j: dict, x: float, colours: dict, emp: list, state, seat):
    from engine.games.mare_nostrum.state import _NAMES
    who = j.get("to_move", j["current"])
    to_move = {-1: "chance", -2: "nobody (over)"}.get(who, emp[who] if 0 <= who < len(emp) else "?")
    view = f"view of {emp[seat]}" if seat is not None else "all"
    c.text(x, 24, f"Mare Nostrum: round {j['round']}, {j['step']}", size=15, weight="bold", cls="heading")
    c.text(x, 42, f"to move: {to_move}  |  {view}", size=11, fill=MUTED, cls="heading")
    y = 54
    if j["winners"]:
        c.text(x, y + 8, f"WINNER: {', '.join(j['winners'])} ({j['reason']})", size=13, weight="bold",
               fill="#b03a2e")
        y += 20
    tracks = state.track_values()
    top = max(12, max(v for row in tracks for v in row))
    w = PANEL_W - 16
    for p, e in enumerate(j["empires"]):
        colour = colours[e["empire"]]
        you = " (you)" if seat == p else ""
        held = ", ".join(f"{k} {v}" for k, v in e["resources"].items() if v) or "-"
        rare = ", ".join(e["rare"])
        hidden = e.get("rare_hidden", 0)
        if hidden:
            rare = (rare + ", " if rare else "") + f"{hidden} face down"
        lines = [f"titles: {', '.join(e['titles']) or '-'}", f"cards: {', '.join(e['cards']) or '-'}",
                 f"holds: {held}"[:62]]
        if rare:
            lines.append(f"rare: {rare}")
        bottom = c.panel(x, y, w, [""] + lines, title=e["empire"] + you, colour=colour, size=10)
        for t, name in enumerate(("trade", "culture", "military")):
            c.bar(x + 6 + t * (w - 12) / 3, y + 20, (w - 12) / 3 - 4, 11, tracks[p][t], top, colour,
                  label=f"{name} {tracks[p][t]}")
        y = bottom + 6
    row = [_NAMES["cards"][5 + k] for k in range(17) if (j["machine"]["row"] >> k) & 1]
    c.panel(x, y, w, [", ".join(row[:4]) or "-", ", ".join(row[4:8]), ", ".join(row[8:])],
            title="Heroes and wonders on offer", colour="#a67c00", size=10)

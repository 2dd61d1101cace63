"""Hellas as a picture: the map (land areas as boxes, seas as ovals, placed by data/layout.json) with its borders by
kind (land borders, nation borders, sea borders, hazard borders, straits, coasts), each city with its nationality,
loyalty rim, value and kind (square city, hexagon port, circle settlement), area and city control, sieges, pillage
and Civil War markers, garrisons, and the blocks as blocks; beside it the prestige track, the year and season,
both sides' leaders, favours, hands, committed cards and pools, the cards in play and the cards played this year.

Drawn from ``state.observation(seat)`` for a seat: the seat's own blocks face up (nationality, type, rating,
steps), the enemy's revealed blocks as they were revealed, every other enemy block face down (its side's colour and
where it stands, nothing else: spec 7.2 H4), the enemy hand and pool as counts, his committed card face down. From
``state.to_json()`` for the whole truth (seat None). The map, roster and deck are the game's data (public); where
areas stand on the picture is data too (layout.json), so a real map needs new data files, not code.
"""
from __future__ import annotations

import math
from pathlib import Path

from engine.games.hellas.words import TYPE_SHORT, city_marks, play_words, walls_words
from engine.svg import INK, LAND, MUTED, SEA, Canvas, PictureError, load_layout

DATA = Path(__file__).parent / "data"
PANEL_W = 420
SIDES = ("Athens", "Sparta")
MARKER = "#e67e22"             # pillage and Civil War markers are orange blocks (spec 2.7)


_LAYOUTS: dict = {}           # (scenario, its folder) -> (layout, its path), checked once


def board(game):
    """The game's data set (map and roster) and the layout of its areas, checked to place every area and colour
    every nationality: ``layout_<scenario>.json`` or ``layout.json`` in the data set's folder, else the shipped
    ``data/layout.json`` (a data set of one's own that keeps the placeholder map needs no layout of its own)."""
    data = game.data
    folder = data_folder(game)
    key = (data.name, str(folder))
    if key not in _LAYOUTS:
        candidates = [folder / f"layout_{data.name}.json", folder / "layout.json", DATA / "layout.json"]
        _LAYOUTS[key] = _checked_layout(data, next(p for p in candidates if p.is_file()))
    return (data, *_LAYOUTS[key])


def data_folder(game) -> Path:
    """The folder the game's data option reads its scenario from."""
    from engine.games.hellas import loader
    return Path(loader.option_source(game.options.get("data", "placeholder"))[1])


def _checked_layout(data, path: Path):
    land = [a.id for a in data.areas if not a.sea]
    seas = [a.id for a in data.areas if a.sea]
    layout = load_layout(path, {"land": land, "seas": seas})
    nat = layout.get("nationalities")
    if not isinstance(nat, dict):
        raise PictureError(f"layout {path}: lacks the table 'nationalities'")
    wanted = {a.nationality for a in data.areas if a.nationality} | {u.nationality for u in data.units}
    missing = sorted(wanted - set(nat))
    if missing:
        raise PictureError(f"layout {path}: nationalities lacks {', '.join(missing)}")
    for key in ("colours", "loyalty_rim"):
        if not isinstance(layout.get(key), dict):
            raise PictureError(f"layout {path}: lacks the table {key!r}")
    absent = [s for s in SIDES if s not in layout["colours"]]
    if absent:
        raise PictureError(f"layout {path}: colours lacks {', '.join(absent)}")
    box = layout.get("box", [150, 102])
    if not (isinstance(box, list) and len(box) == 2 and all(isinstance(v, (int, float)) and v > 40 for v in box)):
        raise PictureError(f"layout {path}: box must be [width, height], each over 40, got {box!r}")
    return layout, path


def _sea_size(layout, sea_id):
    sizes = layout.get("sea_size", {})
    return sizes.get(sea_id, sizes.get("default", [64, 30]))


def _toward(layout, a, b, pos):
    """Where a border line from area ``a`` toward area ``b`` starts: a long sea's nearest point, else its centre."""
    x, y = pos[a]
    if a in layout["seas"]:
        rx, ry = _sea_size(layout, a)
        bx, by = pos[b]
        if ry > rx:
            y = min(max(by, y - ry * 0.85), y + ry * 0.85)
        elif rx > ry * 2:
            x = min(max(bx, x - rx * 0.85), x + rx * 0.85)
    return x, y


def _borders(c: Canvas, data, layout, pos):
    """Every border, drawn by kind (under the areas)."""
    land = {a.id: a for a in data.areas if not a.sea}
    drawn = set()
    for a in data.areas:
        if a.sea:
            for other, kind in sorted(a.borders.items()):
                key = tuple(sorted((a.id, other)))
                if key in drawn:
                    continue
                drawn.add(key)
                (x1, y1), (x2, y2) = _toward(layout, a.id, other, pos), _toward(layout, other, a.id, pos)
                tip = f"{a.id}-{other}: {kind} sea border"
                if kind == "strait":            # a double line (spec 2.3)
                    dx, dy = x2 - x1, y2 - y1
                    n = math.hypot(dx, dy) or 1
                    ox, oy = -dy / n * 2.6, dx / n * 2.6
                    with c.group(cls="border", data_kind="strait", tip=tip):
                        for s in (1, -1):
                            c.line(x1 + s * ox, y1 + s * oy, x2 + s * ox, y2 + s * oy, stroke="#2e6f9e",
                                   stroke_width=1.6)
                else:
                    c.line(x1, y1, x2, y2, stroke="#2e6f9e" if kind == "hazard" else "#8fb8cf",
                           stroke_width=6 if kind == "hazard" else 3, stroke_dasharray=None if kind == "hazard"
                           else "8 5", stroke_linecap="round", cls="border", data_kind=kind, tip=tip)
            for land_id in a.coasts:
                (x1, y1), (x2, y2) = _toward(layout, a.id, land_id, pos), pos[land_id]
                c.line(x1, y1, x2, y2, stroke="#a9c9da", stroke_width=1.5, stroke_dasharray="2 4", cls="border",
                       data_kind="coast")
    for a in land.values():
        for other in a.neighbours:
            key = tuple(sorted((a.id, other)))
            if key in drawn:
                continue
            drawn.add(key)
            b = land[other]
            # a nation border (thick) divides nationalities; a province border (dashed) divides one nation's areas
            nation = a.nationality != b.nationality or not a.nationality
            (x1, y1), (x2, y2) = pos[a.id], pos[other]
            c.line(x1, y1, x2, y2, stroke="#6b5836" if nation else "#b79f6e", stroke_width=5 if nation else 3,
                   stroke_dasharray=None if nation else "6 4", stroke_linecap="round", cls="border",
                   data_kind="nation" if nation else "province", tip=f"{a.id}-{other}: land border")


def _flow(n: int, x0: float, y0: float, w: float, h: float, size: float):
    """Centres for ``n`` blocks in rows inside the rectangle, and the block size (smaller when they do not fit)."""
    if n <= 0:
        return [], size
    while True:
        gap = size * 1.1
        per_row = max(1, int((w + gap - size) // gap))
        rows = math.ceil(n / per_row)
        if rows * gap - (gap - size) <= h or size <= 8:
            break
        size -= 1
    out = []
    for i in range(n):
        row, col = divmod(i, per_row)
        out.append((x0 + size / 2 + col * gap, y0 + size / 2 + row * gap))
    return out, size


def _hexagon(cx, cy, r):
    return [(cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)]


class _Pieces:
    """The blocks the view shows, per area: face up ones with their unit, then a count of face-down ones."""

    def __init__(self, j, data, seat):
        self.up: dict = {}            # (area, inside) -> [unit]
        self.down: dict = {}          # (area, inside) -> count of the enemy's unseen blocks
        self.pool: dict = {s: [] for s in SIDES}
        self.seen = {}
        by_id = {u.id: u for u in data.units}
        for uid, b in j["blocks"].items():
            u = by_id[uid]
            self.seen[uid] = b
            if b["area"] == "pool":
                self.pool[u.side].append(u)
            else:
                self.up.setdefault((b["area"], b["inside"]), []).append(u)
        for area, rec in j.get("unseen_blocks", {}).items():
            for inside, key in ((False, "field"), (True, "inside")):
                if rec[key]:
                    self.down[(area, inside)] = rec[key]
        enemy = self.enemy = None if seat is None else SIDES[1 - seat]
        on_map = sum(j.get("unseen_blocks", {}).get(a, {}).get(k, 0) for a in j.get("unseen_blocks", {})
                     for k in ("field", "inside"))
        # the enemy's pool, as a count: his roster less his blocks seen on the map and those counted unseen there
        self.enemy_pool = None
        if enemy is not None and "unseen_blocks" in j:
            known = sum(1 for uid in j["blocks"] if by_id[uid].side == enemy)
            self.enemy_pool = sum(1 for u in data.units if u.side == enemy) - known - on_map + \
                len(self.pool[enemy])


def draw(state, seat=None) -> Canvas:
    from engine.games.hellas import codec
    data, layout, _ = board(state.game)
    j = codec.to_json(state) if seat is None else codec.observation(state, seat)
    seat = None if seat is None else state.side_of(seat)    # from here on the side the seat plays (spec 5.13)
    pos = {**layout["land"], **layout["seas"]}
    W, H = layout["width"], layout["height"]
    c = Canvas(W + PANEL_W, max(H, 1100), title="Hellas")
    c.rect(0, 0, W, H, fill="#eef5f8", cls="sea-ground")
    _borders(c, data, layout, pos)
    pieces = _Pieces(j, data, seat)
    colours = layout["colours"]
    battle = j["machine"]["b_area"]
    battle_id = data.areas[battle].id if isinstance(battle, int) and 0 <= battle < len(data.areas) else None
    for a in data.areas:
        if a.sea:
            _sea(c, a, layout, pos, pieces, colours, seat, j, battle_id)
    for a in data.areas:
        if not a.sea:
            _land(c, a, layout, pos, pieces, colours, seat, j, battle_id, data.rules)
    _panel(c, j, data, layout, pieces, W + 10, seat)
    return c


def _block(c: Canvas, u, b, x, y, size, layout, sea: bool):
    colours, nat = layout["colours"], layout["nationalities"]
    rating = u.naval_rating if sea and u.naval_rating else u.land_rating
    steps = b["steps"]
    flags = [w for w, on in (("elite", u.elite), ("barbarian", u.barbarian), ("inside the city", b["inside"]),
                             ("routed", b.get("routed")), ("moved this turn", b.get("moved"))) if on]
    tip = (f"{u.id} {u.name}: {u.nationality.replace('_', ' ')} {u.type}, rating {rating}"
           + (f" (at sea {u.naval_rating})" if u.naval_rating and not sea else "")
           + f", {steps} of {u.max_steps} steps" + (", " + ", ".join(flags) if flags else ""))
    c.block(x, y, size, colours[u.side], u.id, rating=f"{rating} {TYPE_SHORT.get(u.type, u.type[:3])}",
            steps=steps, max_steps=u.max_steps, badge=nat[u.nationality], tip=tip, data_owner=u.side,
            data_area=b["area"], data_unit=u.id, data_inside="yes" if b["inside"] else "no")


def _blocks(c, area_id, inside, x0, y0, w, h, size, pieces, layout, sea):
    ups = sorted(pieces.up.get((area_id, inside), []), key=lambda u: (u.side, u.index))
    down = pieces.down.get((area_id, inside), 0)
    spots, size = _flow(len(ups) + down, x0, y0, w, h, size)
    for (x, y), u in zip(spots, ups):
        _block(c, u, pieces.seen[u.id], x, y, size, layout, sea)
    for x, y in spots[len(ups):]:          # the unseen blocks are the viewer's enemy's
        c.block(x, y, size, layout["colours"][pieces.enemy], None, data_owner=pieces.enemy, data_area=area_id,
                data_inside="yes" if inside else "no")


def _sea(c, a, layout, pos, pieces, colours, seat, j, battle_id):
    x, y = pos[a.id]
    rx, ry = _sea_size(layout, a.id)
    ctrl = j["control"][a.id]["area"]
    tip = f"{a.id} {a.name}" + (f": controlled by {ctrl}" if ctrl else "")
    with c.group(cls="sea", data_area=a.id, data_control=ctrl or "", tip=tip):
        c._element("ellipse", {"cx": x, "cy": y, "rx": rx, "ry": ry, "fill": SEA,
                               "stroke": colours[ctrl] if ctrl else "#7aa6bf", "stroke-width": 3 if ctrl else 1.5})
        ty = y - ry + 13 if ry > rx else y - ry + 12
        c.text(x, ty, a.name, size=10.5, anchor="middle", fill="#3c6e8f", font_style="italic")
    bw = min(2 * rx - 30, 140)
    bh = 2 * ry - 22 if ry > rx else 2 * ry - 16
    _blocks(c, a.id, False, x - bw / 2, y - ry + 17, bw, bh, 26, pieces, layout, True)
    if battle_id == a.id:
        _battle_mark(c, x + rx * 0.7, y - ry * 0.6)


def _land(c, a, layout, pos, pieces, colours, seat, j, battle_id, rules):
    x, y = pos[a.id]
    bw, bh = layout["box"]
    x0, y0 = x - bw / 2, y - bh / 2
    ctl = j["control"][a.id]
    ctrl = ctl["area"]
    neutral = a.neutral
    tip = f"{a.id} {a.name}" + (": neutral, no entry" if neutral else
                                 f": area controlled by {ctrl}" if ctrl else ": area uncontrolled")
    with c.group(cls="area", data_area=a.id, data_control=ctrl or "", tip=tip):
        c.rect(x0, y0, bw, bh, fill="#e4e0d8" if neutral else LAND, stroke=colours[ctrl] if ctrl else "#a8915f",
               stroke_width=3 if ctrl else 1.2, rx=9)
        band = colours[ctrl] if ctrl else "#d9ccab"
        c.rect(x0, y0, bw, 15, fill=band, fill_opacity=0.9, rx=8)
        c.text(x0 + 7, y0 + 11.5, a.name, size=10, weight="bold", fill="#ffffff" if ctrl else "#5a4a2c")
        c.text(x0 + bw - 6, y0 + 11.5, a.id, size=8, anchor="end", fill="#ffffff" if ctrl else MUTED)
    top = y0 + 18
    if a.site_type != "none":
        _site(c, a, j, layout, x0 + 15, top + 15, rules)
    inside = bool(pieces.up.get((a.id, True))) or pieces.down.get((a.id, True), 0)
    if a.is_city:
        # the city's walls: the blocks inside it (besieged ones when the city is under siege)
        wall_x = x0 + 30
        besieged = ctl["besieged"]
        with c.group(cls="walls", data_area=a.id, tip=f"inside {a.site_name}" + (" (besieged)" if besieged else "")):
            c.rect(wall_x, top, bw - 36, 31, fill="#f6efe0", stroke="#b03a2e" if besieged else "#a8915f",
                   stroke_width=2 if besieged else 0.8, stroke_dasharray="4 2" if besieged else None, rx=3)
        if inside:
            _blocks(c, a.id, True, wall_x + 2, top + 2, bw - 40, 27, 26, pieces, layout, False)
        else:
            c.text(wall_x + 5, top + 13, a.site_name, size=9, fill=MUTED, cls="site-name")
            c.text(wall_x + 5, top + 24, f"{a.site_type}, {a.loyalty}" + (" capital" if a.capital else ""), size=7,
                   fill=MUTED, cls="site-name")
    elif a.site_type == "settlement":
        c.text(x0 + 30, top + 16, f"{a.site_name} (settlement)", size=8, fill=MUTED, cls="site-name")
    field_y = top + 35
    _blocks(c, a.id, False, x0 + 6, field_y, bw - 12, y0 + bh - field_y - 3, 26, pieces, layout, False)
    if battle_id == a.id:                   # on the header, over everything else
        _battle_mark(c, x0 + bw - 46, y0 + 8)


def _battle_mark(c, x, y):
    with c.group(cls="battle-mark", tip="a battle is being fought here"):
        c.circle(x, y, 8, fill="#b03a2e", stroke="#ffffff", stroke_width=1.2)
        c.line(x - 4, y - 4, x + 4, y + 4, stroke="#ffffff", stroke_width=1.8)
        c.line(x + 4, y - 4, x - 4, y + 4, stroke="#ffffff", stroke_width=1.8)


def _site(c, a, j, layout, x, y, rules):
    """The city (square), port (hexagon) or settlement (circle): nationality inside, loyalty on the rim, value."""
    nat = layout["nationalities"].get(a.nationality, "#cccccc")
    rim = layout["loyalty_rim"].get(a.loyalty, INK)
    city = j["cities"].get(a.id) if a.is_city else None
    ctl = j["control"][a.id]
    held = city and city["held_by"]
    parts = [f"{a.site_name}: {a.site_type}"]
    if a.is_city:
        parts.append(f"value {a.value}, capacity {a.capacity}, nationality {a.nationality.replace('_', ' ')}, "
                     f"loyal to {a.loyalty}" + (", capital" if a.capital else "") + (", neutral" if a.neutral else ""))
        parts.append(walls_words(rules))
        parts.append(f"city controlled by {ctl['city']}" if ctl["city"] else "city uncontrolled")
        parts += [long for _, long in city_marks(city, ctl)]
    else:
        parts.append(f"home of the {a.nationality.replace('_', ' ')} barbarians")
    with c.group(cls="city" if a.is_city else "settlement", data_area=a.id, data_site=a.site_type,
                 data_control=ctl["city"] or "", tip="; ".join(parts)):
        if a.site_type == "port":
            c.polygon(_hexagon(x, y, 12), fill=nat, stroke=rim, stroke_width=3)
        elif a.site_type == "settlement":
            c.circle(x, y, 10, fill=nat, stroke=INK, stroke_width=1)
        else:
            c.rect(x - 10.5, y - 10.5, 21, 21, fill=nat, stroke=rim, stroke_width=3, rx=1.5)
        if a.is_city:
            c.text(x, y + 4, str(a.value), size=11, anchor="middle", weight="bold",
                   fill="#ffffff" if a.nationality not in ("yellow", "light_blue", "grey") else INK)
        if ctl["besieged"]:
            c.circle(x, y, 15, stroke="#b03a2e", stroke_width=2, stroke_dasharray="3 2", cls="siege")
    colours = layout["colours"]
    if held:
        c.polygon([(x + 9, y - 17), (x + 19, y - 13), (x + 9, y - 9)], fill=colours[held], stroke=INK,
                  stroke_width=0.6, cls="held", data_owner=held, tip=f"held by {held}")
    if city and city["garrison"]:
        g = city["garrison"]
        with c.group(cls="garrison", data_owner=g, data_area=a.id, tip=f"{g} garrison (1 step, never leaves)"):
            c.rect(x - 14, y + 10, 9, 9, fill=colours[g], stroke=INK, stroke_width=0.6, rx=1.5)
            c.text(x - 9.5, y + 17, "g", size=7, anchor="middle", fill="#ffffff")
    marks = [("P", "pillaged this year")] if city and city["pillaged"] else []
    if city and city["civil_war"]:
        marks.append(("CW", "Civil War marker"))
    for k, (label, what) in enumerate(marks):
        with c.group(cls="marker", data_kind=label, data_area=a.id, tip=what):
            c.rect(x + 1 + k * 14, y + 10, 13, 9, fill=MARKER, stroke=INK, stroke_width=0.6, rx=1.5)
            c.text(x + 7.5 + k * 14, y + 17, label, size=6.5, anchor="middle", fill="#ffffff", weight="bold")


def _panel(c: Canvas, j, data, layout, pieces, x, seat):
    colours = layout["colours"]
    w = PANEL_W - 20
    swap = j["machine"]["swap"]
    view = f"view of {SIDES[seat]} (seat {seat ^ swap})" if seat is not None else \
        f"all; seat 0 plays {SIDES[swap]}, seat 1 {SIDES[1 - swap]}"
    cur = j["current"]
    to_move = SIDES[cur] if cur in (0, 1) else "chance" if cur == -1 else "nobody (game over)"
    c.text(x, 26, f"Hellas: {j['year']} BC, {j['season']}", size=17, weight="bold", cls="heading")
    c.text(x, 45, f"step {j['step']}, to move: {to_move}  |  {view}", size=11, fill=MUTED, cls="heading")
    y = 58
    if j["winner"]:
        how = {"draw": "a draw", "truce": "a truce", "automatic": "automatic victory"}.get(j["level"],
                                                                                       f"{j['level']} victory")
        result = "a draw" if j["winner"] == "draw" else f"{j['winner']} wins ({how})"
        c.text(x, y + 10, f"RESULT: {result}", size=14, weight="bold", fill="#b03a2e", cls="result")
        y += 22
    y = _prestige(c, j, data, colours, x, y, w) + 8
    y = _calendar(c, j, data, x, y, w) + 10
    cards = {card.id: card for card in data.cards}
    for i, side in enumerate(SIDES):
        y = _side_panel(c, j, data, cards, pieces, layout, side, i, seat, x, y, w) + 8
    y = _cards_row(c, "Continuing events in play", j["cards"]["in_play"], cards, x, y, w, "#6d4c41") + 6
    y = _cards_row(c, "Played this year", j["cards"]["played"], cards, x, y, w, "#7a6a55") + 6
    unseen = j["cards"].get("unseen", j["cards"].get("deck", []))
    c.text(x, y + 12, f"{'Cards unseen by this side' if seat is not None else 'Deck'}: {len(unseen)}", size=10.5,
           fill=MUTED)
    _legend(c, layout, x, y + 26, w)


def _prestige(c, j, data, colours, x, y, w):
    """The net prestige track: Athens' lead to the left, Sparta's to the right (spec 8.2)."""
    lead = data.rules["AUTO_VICTORY_LEAD"]
    levels = data.rules["VICTORY_LEVELS"]
    p = j["prestige"]
    c.text(x, y + 12, "Prestige (net track)", size=11, weight="bold")
    who = "even" if p == 0 else f"Sparta leads by {p}" if p > 0 else f"Athens leads by {-p}"
    c.text(x + w, y + 12, who, size=11, anchor="end", weight="bold",
           fill=colours["Sparta"] if p > 0 else colours["Athens"] if p < 0 else INK, cls="prestige")
    n = 2 * lead + 1
    cell = w / n
    ty = y + 18
    with c.group(cls="track", data_kind="prestige", data_value=p):
        for k in range(n):
            v = k - lead
            fill = colours["Sparta"] if v > 0 else colours["Athens"] if v < 0 else "#ffffff"
            c.rect(x + k * cell, ty, cell, 14, fill=fill, fill_opacity=0.12 + 0.5 * abs(v) / lead,
                   stroke="#ffffff", stroke_width=0.5)
        for v in (levels["minor"], levels["major"]):
            for s in (-1, 1):
                cx = x + (s * v + lead + 0.5) * cell
                c.line(cx, ty - 2, cx, ty + 16, stroke=INK, stroke_width=0.8, stroke_dasharray="2 1")
        shown = max(-lead, min(lead, p))
        cx = x + (shown + lead + 0.5) * cell
        c.circle(cx, ty + 7, 6.5, fill="#111111", stroke="#ffffff", stroke_width=1.2, cls="prestige-marker")
    c.text(x, ty + 26, f"Athens wins at {lead}", size=8, fill=MUTED)
    c.text(x + w / 2, ty + 26, f"victory levels: minor {levels['minor']}, major {levels['major']}", size=8,
           anchor="middle", fill=MUTED)
    c.text(x + w, ty + 26, f"Sparta wins at {lead}", size=8, anchor="end", fill=MUTED)
    return ty + 28


def _calendar(c, j, data, x, y, w):
    first, last = data.scenario["first_year"], data.scenario["last_year"]
    years = list(range(first, last - 1, -1))
    cell = w / len(years)
    with c.group(cls="track", data_kind="year"):
        for k, yr in enumerate(years):
            now = yr == j["year"]
            c.rect(x + k * cell, y, cell - 2, 16, fill="#333333" if now else "#eeeae0", stroke=MUTED,
                   stroke_width=0.5, rx=2)
            c.text(x + k * cell + (cell - 2) / 2, y + 11.5, str(yr), size=8.5, anchor="middle",
                   fill="#ffffff" if now else INK)
    seasons = ["New Year", *data.rules["SEASONS"]]
    cell = w / len(seasons)
    with c.group(cls="track", data_kind="season"):
        for k, s in enumerate(seasons):
            now = s == j["season"]
            c.rect(x + k * cell, y + 20, cell - 2, 16, fill="#333333" if now else "#eeeae0", stroke=MUTED,
                   stroke_width=0.5, rx=2)
            c.text(x + k * cell + (cell - 2) / 2, y + 31.5, s, size=8.5, anchor="middle",
                   fill="#ffffff" if now else INK)
    return y + 36


def _card_tip(card) -> str:
    extra = ""
    if card.event == "leader":
        extra = f" {card.params.get('name', '')} [{card.params.get('side', '')} {int(card.params.get('rating', 0)):+d}]"
    elif card.event == "revolt":
        extra = f" in {card.params.get('region', '')}" + (" (may spread)" if str(card.params.get("spread")) == "1"
                                                           else "")
    kind = "continuing" if card.continuing else "one season"
    return (f"#{card.id} {card.event.replace('_', ' ')}{extra}; {card.colour} ({kind}); {card.actions} actions"
            + (f"; only if {card.condition.replace('_', ' ')}" if card.condition else ""))


SHORT_EVENT = {"leader_ostracized": "ostracism", "plague_strikes": "plague", "plague_returns": "plague again",
               "helot_uprising": "helots", "athens_raises_taxes": "taxes", "persian_aid": "Persian aid",
               "peace_faction": "peace party", "war_faction": "war party"}
CARD_COLOURS = {"red": "#f5d0cb", "blue": "#cfdcf2", "green": "#d6efd9"}


def _card(c, card, x, y, cls, owner=None):
    """One card face up: its id, its event word and its coins."""
    with c.group(cls=cls, data_face="up", data_card=card.id, data_owner=owner or "", tip=_card_tip(card)):
        c.rect(x, y, 44, 40, fill=CARD_COLOURS.get(card.colour, "#fffdf7"), stroke=INK, stroke_width=0.8, rx=3)
        if card.continuing:
            c.rect(x + 3, y + 3, 38, 2, fill=INK)
            c.rect(x + 3, y + 35, 38, 2, fill=INK)
        c.text(x + 22, y + 15, f"#{card.id}", size=10, anchor="middle", weight="bold")
        c.text(x + 22, y + 25, SHORT_EVENT.get(card.event, card.event.replace("_", " "))[:12], size=6.5,
               anchor="middle")
        c.text(x + 22, y + 33, "●" * card.actions, size=6.5, anchor="middle", fill="#a67c00")


def _cards_row(c, title, ids, cards, x, y, w, colour, cls="card", owner=None):
    c.text(x, y + 12, f"{title}: {len(ids) or 'none'}", size=10.5, weight="bold", fill=colour)
    per_row = int(w // 47)
    for k, cid in enumerate(ids):
        row, col = divmod(k, per_row)
        _card(c, cards[cid], x + col * 47, y + 18 + row * 44, cls, owner)
    rows = math.ceil(len(ids) / per_row) if ids else 0
    return y + 18 + rows * 44


def _side_panel(c, j, data, cards, pieces, layout, side, i, seat, x, y, w):
    colour = layout["colours"][side]
    you = " (you)" if seat == i else ""
    leader = j["leaders"][side]
    lead = "none" if leader is None else (f"#{leader} {cards[leader].params.get('name', '')} "
                                          f"[{int(cards[leader].params.get('rating', 0)):+d}]")
    committed = j["commit"][side]
    played = j["play"][side]
    hand = j["cards"][side]
    lines = [f"leader {lead}; Olympian favour {j['favours'][side]}"]
    if committed:
        lines.append(f"card chosen: {play_words(committed, j['season'])}")
    if played:
        lines.append(f"played this season: {play_words(played, j['season'])}")
    top = y
    h = 20 + 14 * len(lines) + 54 + (44 if seat is not None and i != seat else 50)
    with c.group(cls="side-panel", data_owner=side):
        c.rect(x, y, w, h, fill="#ffffff", stroke=colour, stroke_width=1.5, rx=5, fill_opacity=0.9)
        c.text(x + 8, y + 15, side + you, size=12.5, weight="bold", fill=colour)
        ty = y + 30
        for line in lines:
            c.text(x + 8, ty, line, size=10)
            ty += 14
    ty -= 4
    if isinstance(hand, dict):               # the enemy's hand: a count, face down
        c.text(x + 8, ty + 8, f"hand: {hand['count']} cards", size=10, fill=MUTED)
        for k in range(hand["count"]):
            c.card(x + 8 + k * 30, ty + 12, 26, 36, None, cls="card", data_owner=side, data_kind="hand")
    else:
        c.text(x + 8, ty + 8, f"hand: {len(hand)} cards", size=10, fill=MUTED)
        for k, cid in enumerate(hand):
            _card(c, cards[cid], x + 8 + k * 47, ty + 12, "card", owner=side)
    ty += 54
    pool = sorted(pieces.pool[side], key=lambda u: u.index)
    enemy_pool = pieces.enemy_pool if seat is not None and i != seat else None
    if enemy_pool is not None:
        c.text(x + 8, ty + 10, f"pool: {enemy_pool} blocks face down", size=10, fill=MUTED)
        spots, size = _flow(enemy_pool, x + 160, ty, w - 168, 36, 18)
        for px, py in spots:
            c.block(px, py, size, colour, None, cls="pool", data_owner=side)
    else:
        c.text(x + 8, ty + 10, f"pool: {len(pool)} blocks", size=10, fill=MUTED)
        spots, size = _flow(len(pool), x + 8, ty + 15, w - 16, 26, 24)
        for (px, py), u in zip(spots, pool):
            b = pieces.seen[u.id]
            rating = u.land_rating
            c.block(px, py, size, colour, u.id, rating=f"{rating} {TYPE_SHORT.get(u.type, u.type[:3])}", steps=0,
                    max_steps=u.max_steps, badge=layout["nationalities"][u.nationality], cls="pool",
                    tip=f"{u.id} {u.name} (in the pool)", data_owner=side, data_unit=u.id, data_area=b["area"])
    return top + h


def _legend(c, layout, x, y, w):
    colours = layout["colours"]
    with c.group(cls="legend"):
        c.text(x, y + 10, "Legend", size=10.5, weight="bold")
        rows = [("Athens blocks", colours["Athens"]), ("Sparta blocks", colours["Sparta"])]
        for k, (what, col) in enumerate(rows):
            c.rect(x + k * 120, y + 16, 12, 12, fill=col, rx=2)
            c.text(x + 16 + k * 120, y + 26, what, size=9)
        notes = ["a face-down block: the enemy's, position only; a face-up block: id, rating and type, a pip a "
                 "step,", "its nationality as the stripe. Square city, hexagon port, circle settlement; rim white: "
                 "loyal to", "Athens, black: Sparta, grey: neutral (no entry); the number is its value. Dashed red "
                 "ring: besieged;", "P pillaged, CW Civil War, g a garrison, a flag: held against its loyalty. "
                 "Thick brown: nation", "border, dashed: province border; blue dashed: sea border, thick blue: "
                 "hazard (storms), double:", "strait; dotted: a coast. Cards: coloured by who may play the event, "
                 "bars: continuing, dots: actions."]
        for k, line in enumerate(notes):
            c.text(x, y + 42 + k * 12, line, size=8, fill=MUTED)

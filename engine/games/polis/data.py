"""Load and check the Polis data files (data/*.json) into plain Python tables for the C core.

Every number the rulebook lost lives in these files, marked ASSUMED or RULE; replacing a file changes the game
without touching code. ``load_tables(directory)`` raises ``BadOptionError`` naming the file and the entry at fault.
"""
from __future__ import annotations

import json
from pathlib import Path

from engine.errors import BadOptionError
from engine.weights import check_weights

DATA_DIR = Path(__file__).parent / "data"
PLAYERS = ("athens", "sparta")
RESOURCES = ("iron", "wood", "wine", "silver", "wheat")
ACTION_NAMES = ("train", "build", "hire", "develop", "move-hoplites", "move-galleys", "siege", "tribute",
                "trade", "proxenos", "civil-war")
EVENT_OPS = ("none", "resource", "prestige", "population", "units", "first_player", "stacking", "block_action")
SIDES = ("athens", "sparta", "both")
MAX_EFFECTS = 8
MAX_TRIBUTE_COLUMNS = 3      # the C core's room (state.pxd)
MAX_PRICE_COLUMNS = 12


# The data sets the game ships: the board files (map, tribute, markets) of each; the rest of data/ is shared.
DATA_SETS = {
    "ed1": "the first-edition board (spec 10.10, SRC_ED1), filled where the Devir text decides (the default)",
    "assumed": "the spec's placeholders for the lost board pictures (spec 10.1-10.3, ASSUMED)",
}
DEFAULT_DATA_SET = "ed1"
FILES = ("map.json", "tribute.json", "markets.json", "projects.json", "events.json", "rules.json", "setup.json",
         "evaluate.json")


def search_path(data: str | None) -> list[Path]:
    """Where each data file is looked for, first match wins: for a shipped data set its folder, then data/; for any
    other value, that directory (whose files replace the built-in ones), then the default data set and data/."""
    name = data or DEFAULT_DATA_SET
    if name in DATA_SETS:
        return [DATA_DIR / name, DATA_DIR]
    folder = Path(name)
    if not folder.is_dir():
        raise BadOptionError(f"polis: data={name!r} is neither a data set ({', '.join(DATA_SETS)}) nor a directory")
    return [folder, DATA_DIR / DEFAULT_DATA_SET, DATA_DIR]


def read_data(data: str | None, name: str):
    """One data file of the data set ``data`` (the option's value), parsed."""
    for folder in search_path(data):
        path = folder / name
        if path.is_file():
            try:
                return json.loads(path.read_text(encoding="utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise BadOptionError(f"polis data: {path} is not valid JSON: {e}") from None
    raise BadOptionError(f"polis data: no file {name} for data={data or DEFAULT_DATA_SET!r}")


def load_tables(data: str | None = None) -> dict:
    """The tables of the data set ``data`` (see search_path), checked."""
    d = data or DEFAULT_DATA_SET
    m, trib, mk, pr, ev, ru, su, evw = (read_data(data, f) for f in FILES)

    def fail(msg):
        raise BadOptionError(f"polis data ({d}): {msg}")

    regions = list(m["regions"]["names"])
    seas = list(m["seas"]["names"])
    if len(regions) > 16 or len(seas) > 8:
        fail("at most 16 regions and 8 seas")
    area_names = regions + seas

    def region(n):
        if n not in regions:
            fail(f"unknown region {n!r}")
        return regions.index(n)

    def sea(n):
        if n not in seas:
            fail(f"unknown sea {n!r}")
        return seas.index(n)

    rows = m["poleis"]["rows"]
    poleis = [r[0] for r in rows]
    if len(poleis) != 18:
        fail(f"expected 18 poleis, got {len(poleis)}")

    def polis(n):
        if n not in poleis:
            fail(f"unknown polis {n!r}")
        return poleis.index(n)

    t = {"regions": regions, "seas": seas, "areas": area_names, "poleis": poleis}
    t["land_adj"] = [0] * len(regions)
    for a, b in m["land_adjacency"]["edges"]:
        t["land_adj"][region(a)] |= 1 << region(b)
        t["land_adj"][region(b)] |= 1 << region(a)
    t["sea_only"] = sum(1 << region(n) for n in m["sea_only_regions"]["names"])
    for r in range(len(regions)):
        if t["sea_only"] >> r & 1 and t["land_adj"][r]:
            fail(f"sea-only region {regions[r]} has land neighbours")
    t["sea_adj"] = [0] * len(seas)
    for a, b in m["sea_adjacency"]["edges"]:
        t["sea_adj"][sea(a)] |= 1 << sea(b)
        t["sea_adj"][sea(b)] |= 1 << sea(a)
    dk = m["diolkos"]
    t["diolkos"] = (polis(dk["polis"]), sea(dk["seas"][0]), sea(dk["seas"][1]))
    t["coast"] = [sum(1 << sea(s) for s in m["coast"]["seas"].get(r, [])) for r in regions]
    t["polis_region"], t["base"], t["max_growth"], t["max_pop"], t["ports"] = [], [], [], [], []
    for name, reg, base, grow, maxp, ports in rows:
        t["polis_region"].append(-1 if reg is None else region(reg))
        if not (1 <= base <= maxp <= 12 and 1 <= grow <= maxp):
            fail(f"polis {name}: bad base/max_growth/max_pop {base}/{grow}/{maxp}")
        t["base"].append(base)
        t["max_growth"].append(grow)
        t["max_pop"].append(maxp)
        if len(ports) > 2:
            fail(f"polis {name}: at most 2 ports")
        t["ports"].append([sea(s) for s in ports])
    t["capital"] = [polis(m["capitals"][p]) for p in PLAYERS]
    t["trade_poleis"] = [sum(1 << polis(n) for n in m["trade_poleis"][p]) for p in PLAYERS]
    t["trade_port_seas"] = [sum(1 << sea(s) for s in m["trade_ports"][p]) for p in PLAYERS]
    markets = list(m["markets"]["names"])
    if len(markets) > 8:
        fail("at most 8 markets")
    t["markets"] = markets
    t["market_seas"] = [sum(1 << sea(s) for s in m["markets"]["seas"].get(n, [])) for n in markets]
    t["market_land"] = [polis(m["markets"]["land"][n]) if n in m["markets"]["land"] else -1 for n in markets]

    # tribute columns
    t["trib"] = []
    for r in regions:
        if r not in trib["regions"]:
            fail(f"tribute.json: no columns for region {r}")
        cols = trib["regions"][r]["columns"]
        if not 1 <= len(cols) <= MAX_TRIBUTE_COLUMNS:
            fail(f"tribute.json: region {r} needs 1 to {MAX_TRIBUTE_COLUMNS} columns")
        out = []
        for res, values in cols:
            if res not in RESOURCES:
                fail(f"tribute.json: region {r}: unknown resource {res!r}")
            if not 1 <= len(values) <= 8:
                fail(f"tribute.json: region {r}: a column has 1 to 8 cells")
            out.append((RESOURCES.index(res), list(values)))
        if len({res for res, _ in out}) != len(out):
            fail(f"tribute.json: region {r}: two columns of the same resource")
        if any(v < 1 for _, values in out for v in values):
            fail(f"tribute.json: region {r}: column values are positive")
        # (a region of fewer cells than a player's hoplites yields no tribute to him: all must be placed, L454)
        t["trib"].append(out)

    # markets
    t["cells"] = []
    for c in mk["cells"]:
        if c["market"] not in markets or c["rate"] not in (3, 4, 5) or c["gives"] not in ("wheat", "silver"):
            fail(f"markets.json: bad cell {c}")
        if not c["accepts"] or any(a not in RESOURCES[:4] for a in c["accepts"]):
            fail(f"markets.json: a cell accepts iron, wood, wine or silver: {c}")
        acc = [RESOURCES.index(a) for a in c["accepts"]]
        if c["gives"] == "silver" and RESOURCES.index("silver") in acc:
            fail(f"markets.json: a silver cell cannot accept silver: {c}")
        t["cells"].append((markets.index(c["market"]), c["rate"], RESOURCES.index(c["gives"]), sum(1 << a for a in acc)))
    if len(t["cells"]) > 16:
        fail("markets.json: at most 16 cells")
    grid = mk["price_grid"]["rows"]
    t["price"] = [list(grid[str(r)]) for r in (3, 4, 5)]
    columns = len(t["price"][0])
    if not 2 <= columns <= MAX_PRICE_COLUMNS or any(len(row) != columns for row in t["price"]):
        fail(f"markets.json: the three price rows have the same length, 2 to {MAX_PRICE_COLUMNS} columns")
    if any(not isinstance(v, int) or v < 1 for row in t["price"] for v in row):
        fail("markets.json: prices are positive whole numbers")

    # projects
    tiles = pr["tiles"]
    if len(tiles) != 14:
        fail("projects.json: expected 14 tiles")
    t["tiles"] = []
    for tile in tiles:
        comps = [(RESOURCES.index(k), v) for k, v in tile["cost"].items()]
        if not 1 <= len(comps) <= 3 or any(v < 1 for _, v in comps):
            fail(f"projects.json: tile {tile['name']}: 1 to 3 positive cost components")
        t["tiles"].append((tile["name"], sum(1 << polis(p) for p in tile["poleis"]), comps, tile["round"], tile["end"]))

    # events
    t["events"] = []       # (letter index, name, [(side, op, a, b)])
    for li, letter in enumerate(("alpha", "sigma", "omega")):
        pile = ev["piles"][letter]
        if not 1 <= len(pile) <= 16:
            fail(f"events.json: pile {letter} needs 1 to 16 cards")
        for card in pile:
            effs = []
            for e in card.get("effects", []):
                side, op = e.get("side"), e.get("op")
                if side not in SIDES or op not in EVENT_OPS[1:]:
                    fail(f"events.json: card {card['name']}: bad effect {e}")
                a = b = 0
                if op == "resource":
                    a, b = RESOURCES.index(e["resource"]), int(e["amount"])
                elif op in ("prestige", "stacking"):
                    b = int(e["amount"])
                elif op == "population":
                    a, b = polis(e["polis"]), int(e["amount"])
                elif op == "units":
                    if e["area"] not in area_names:
                        fail(f"events.json: unknown area {e['area']!r}")
                    a, b = area_names.index(e["area"]), int(e["amount"])
                elif op == "block_action":
                    a = int(e["action"])
                    if not 1 <= a <= 11:
                        fail(f"events.json: block_action needs action 1..11: {e}")
                effs.append((SIDES.index(side), EVENT_OPS.index(op), a, b))
            if len(effs) > MAX_EFFECTS:
                fail(f"events.json: card {card['name']} has more than {MAX_EFFECTS} effects")
            t["events"].append((li, card["name"], effs))
    if len(t["events"]) > 48:
        fail("events.json: at most 48 cards")

    # rules
    t["resource_cap"] = ru["resource_cap"]["value"]
    t["prestige_cap"] = ru["prestige_cap"]["value"]
    t["cubes"] = ru["cubes"]["value"]
    t["discs"] = ru["discs"]["value"]
    t["merchants"] = ru["merchants"]["value"]
    t["display_sizes"] = ru["display_sizes"]["value"]
    t["turn_cap"] = ru["safety_turn_cap"]["value"]
    if not (t["resource_cap"] <= 100 and t["prestige_cap"] <= 100 and t["cubes"] <= 100 and t["discs"] <= 100):
        fail("rules.json: caps must stay below 100 (stored in 8 bits)")
    kinds = ru["battle_cards"]["kinds"]
    if len(kinds) != 9:
        fail("rules.json: 9 battle-card kinds")
    t["card_codes"] = [k["code"] for k in kinds]
    t["card_unit"] = ["ABCDMS".index(k["unit"]) for k in kinds]
    t["card_strength"] = [k["strength"] for k in kinds]
    t["card_count"] = [k["count"] for k in kinds]
    t["card_names"] = [(k["land"], k["sea"]) for k in kinds]
    if sum(t["card_count"]) != 24:
        fail("rules.json: the battle deck has 24 cards")

    t["eval"] = eval_weights(evw, fail)

    # setup
    t["setup"] = []
    for p in PLAYERS:
        s = su[p]
        t["setup"].append({
            "poleis": {polis(k): v for k, v in s["poleis"].items()},
            "hoplites": {region(k): v for k, v in s["hoplites"].items()},
            "galleys": {sea(k): v for k, v in s["galleys"].items()},
            "merchants": s["merchants_on_port"], "proxenos": polis(s["proxenos"]), "prestige": s["prestige"],
            "resources": [s["resources"][r] for r in RESOURCES],
        })
    return t


EVAL_SCALARS = ("resources_last_round", "hoplite", "galley", "merchant", "growth", "lost_polis", "death", "scale",
                "market", "region", "sea", "siege", "food_open", "tie_break")


def eval_weights(evw, fail) -> dict:
    """evaluate.json checked by the engine's one weights checker (engine/weights.py): every weight a finite number
    in [0, 100], the scale above 0, no name it does not know; ``resources`` holds one weight a resource."""
    try:
        scalars = {k: v for k, v in evw.items() if k != "resources"} if isinstance(evw, dict) else evw
        out = check_weights(scalars, EVAL_SCALARS)            # refuses a file that is not an object, too
        entry = evw.get("resources")
        res = entry.get("value") if isinstance(entry, dict) else None
        if not isinstance(res, dict):
            raise ValueError(f"evaluate.json: resources must be an entry whose value names "
                             f"{', '.join(RESOURCES)}, got {entry!r}")
        each = check_weights({r: {"value": v} for r, v in res.items()}, RESOURCES, positive=(),
                             file="evaluate.json: resources")
    except ValueError as e:
        fail(str(e))
    out["resources"] = [each[r] for r in RESOURCES]
    return out

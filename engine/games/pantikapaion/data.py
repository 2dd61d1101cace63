"""Read and check the Pantikapaion data files (data/*.json) into plain Python tables for the C core.

Every number the rulebook lost lives in these files, marked ASSUMED, INFERRED or RULE; the engine reads them once.
Malformed data raises ValueError naming the file and the entry, so a replacement set cannot be half-loaded.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from engine.weights import check_weights

DATA = Path(__file__).parent / "data"

# Cell types of a tile face (also the C core's top-cell codes): 1 empty, 2 drought, 3+c resource of colour c, 8 the
# aqueduct tile's resource cell whose colour the player chooses.
EMPTY, DROUGHT, RES0, WILD = 1, 2, 3, 8

CELL_KINDS = ("none", "worker", "vp", "vp_per_cells", "res1", "res2", "upgrade", "move", "free", "aqueduct_tile",
              "random_tile", "advance")
UPGRADE_KINDS = ("substitution", "resource_discount", "coin_discount")
BUILDING_KINDS = ("house", "winery", "fortress", "aqueduct", "temple")
# evaluate.json's weights, in the order the C core's Tables hold them
EVALUATE_WEIGHTS = ("building", "development_step", "worker", "coin", "scale")


def _load(name):
    with open(DATA / name, encoding="utf-8") as f:
        return json.load(f)


def parse_layout(layout: str, letters: dict, where: str):
    """'o_/D_/.w' -> [(dy, dx, code)] (rows top to bottom)."""
    cells = []
    for dy, row in enumerate(layout.split("/")):
        for dx, ch in enumerate(row):
            if ch == "_":
                continue
            if ch == ".":
                code = EMPTY
            elif ch == "D":
                code = DROUGHT
            elif ch == "*":
                code = WILD
            elif ch in letters:
                code = RES0 + letters[ch]
            else:
                raise ValueError(f"{where}: unknown cell {ch!r} in layout {layout!r}")
            cells.append((dy, dx, code))
    if not cells:
        raise ValueError(f"{where}: layout {layout!r} has no cell")
    if not _connected(cells):
        raise ValueError(f"{where}: layout {layout!r} is not one connected polyomino")
    return cells


def _connected(cells):
    pos = {(y, x) for y, x, _ in cells}
    seen, todo = set(), [next(iter(pos))]
    while todo:
        y, x = todo.pop()
        if (y, x) in seen:
            continue
        seen.add((y, x))
        todo += [n for n in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)) if n in pos]
    return seen == pos


def _normal(cells):
    my = min(c[0] for c in cells)
    mx = min(c[1] for c in cells)
    return tuple(sorted((y - my, x - mx, t) for y, x, t in cells))


def rotations(cells):
    """The distinct 90-degree clockwise rotations (0, 90, 180, 270 in that order), deduplicated only when the cells
    and their contents coincide (spec §9.4). Returns [(degrees, cells)]."""
    out, seen = [], set()
    cur = _normal(cells)
    for k in range(4):
        if cur not in seen:
            seen.add(cur)
            out.append((90 * k, list(cur)))
        h = max(c[0] for c in cur) + 1
        cur = _normal([(x, h - 1 - y, t) for y, x, t in cur])     # (y, x) -> (x, h-1-y): clockwise
    return out


@lru_cache(maxsize=None)
def load() -> dict:
    rules = _load("rules.json")
    bdoc = _load("buildings.json")
    board = _load("dev_board.json")
    colours = list(bdoc["colours"]["value"])
    if len(colours) != 5 or len(set(colours)) != 5:
        raise ValueError("buildings.json: exactly five distinct colours are needed")
    rows = board["rows"]
    if sorted(r["colour"] for r in rows) != sorted(colours):
        raise ValueError("dev_board.json: one row per colour is needed")
    # Internal colour / row / building index = the row's place on the development board, top to bottom.
    order = [r["colour"] for r in rows]
    letters = {c[0]: order.index(c) for c in order}
    if len(letters) != 5:
        raise ValueError("colour names must start with five different letters (tile notation)")
    bmap = {b["colour"]: b for b in bdoc["buildings"]}
    buildings = []
    for r in rows:
        b = bmap.get(r["colour"])
        if b is None or b["name"] != r["building"]:
            raise ValueError(f"dev_board.json row {r['colour']} names building {r['building']!r}, "
                             f"buildings.json disagrees")
        if b["name"] not in BUILDING_KINDS:
            raise ValueError(f"buildings.json: unknown building {b['name']!r}")
        if b["cells"] not in (1, 2):
            raise ValueError(f"buildings.json: {b['name']} takes {b['cells']} cells; the engine knows 1 or 2")
        buildings.append({"name": b["name"], "letter": b["letter"], "cells": b["cells"]})
    costs = list(bdoc["costs"]["value"])
    pieces = bdoc["pieces_per_type"]["value"]
    pieces2 = bdoc["pieces_per_type_2_players"]["value"]
    if len(costs) < pieces or pieces2 > pieces or any(not isinstance(c, int) or c < 0 for c in costs):
        raise ValueError("buildings.json: costs must give a non-negative cost for each of the pieces of a column")

    tiles = []
    for kind, doc in (("terrain", _load("tiles.json")), ("aqueduct", _load("aqueduct_tiles.json"))):
        for t in doc["tiles"]:
            where = f"{kind} tile {t.get('id')}"
            cells = parse_layout(t["layout"], letters, where)
            wild = sum(1 for c in cells if c[2] == WILD)
            if kind == "terrain" and wild:
                raise ValueError(f"{where}: '*' is only for aqueduct tiles")
            if kind == "aqueduct" and wild != 1:
                raise ValueError(f"{where}: an aqueduct tile has exactly one '*' resource cell (L358)")
            if len(cells) > 5:
                raise ValueError(f"{where}: at most 5 cells a tile")
            rots = rotations(cells)
            if max(max(c[0] for c in cs) for _, cs in rots) >= 5 or max(max(c[1] for c in cs) for _, cs in rots) >= 5:
                raise ValueError(f"{where}: a tile fits in 5x5 cells")
            tiles.append({"id": t["id"], "kind": kind, "layout": t["layout"], "count": int(t["count"]),
                          "cells": cells, "rotations": rots})
    names = [t["id"] for t in tiles]
    if len(set(names)) != len(names):
        raise ValueError("tile ids must be unique")

    singles = [[order.index(c) for c in tok] for tok in _load("resource_tokens.json")["single"]]
    doubles = [[order.index(c) for c in tok] for tok in _load("resource_tokens.json")["double"]]

    dev = []
    aq_names = [t["id"] for t in tiles if t["kind"] == "aqueduct"]
    n_res1 = n_res2 = 0
    upgrade_cells = []
    for ri, r in enumerate(rows):
        cells = []
        for pi, c in enumerate(r["cells"], 1):
            kind = c["type"]
            if kind not in CELL_KINDS[1:]:
                raise ValueError(f"dev_board.json row {r['colour']} cell {pi}: unknown type {kind!r}")
            arg = 0
            if kind in ("vp", "vp_per_cells"):
                arg = int(c["value"])
            elif kind == "res1":
                arg, n_res1 = n_res1, n_res1 + 1
            elif kind == "res2":
                arg, n_res2 = n_res2, n_res2 + 1
            elif kind == "upgrade":
                if c["kind"] not in UPGRADE_KINDS:
                    raise ValueError(f"dev_board.json: unknown upgrade kind {c['kind']!r}")
                arg = len(upgrade_cells)
                upgrade_cells.append(UPGRADE_KINDS.index(c["kind"]))
            elif kind == "aqueduct_tile":
                if c["shape"] not in aq_names:
                    raise ValueError(f"dev_board.json: unknown aqueduct tile {c['shape']!r}")
                arg = aq_names.index(c["shape"])
            if kind == "vp_per_cells" and r["building"] != "winery" or kind == "vp" and r["building"] == "winery":
                raise ValueError(f"dev_board.json row {r['colour']}: 'vp_per_cells' is the winery's VP cell type")
            cells.append((CELL_KINDS.index(kind), arg))
        if not 1 <= len(cells) <= 12:
            raise ValueError(f"dev_board.json row {r['colour']}: 1 to 12 cells")
        dev.append(cells)
    if n_res1 > len(singles) or n_res2 > len(doubles):
        raise ValueError("dev_board.json: more resource cells than resource tokens (L126 says some are left over)")

    grid = rules["grid_size"]["value"]
    if grid != 16:
        raise ValueError("rules.json grid_size: the C core is compiled for a 16x16 city grid")
    return {
        "colours": order, "letters": "".join(c[0] for c in order), "buildings": buildings,
        "costs": costs, "pieces": pieces, "pieces_2p": pieces2,
        "tiles": tiles, "n_terrain": sum(1 for t in tiles if t["kind"] == "terrain"),
        "tokens": singles + doubles, "n_single_tokens": len(singles),
        "dev": dev, "n_res1": n_res1, "n_res2": n_res2, "upgrade_cells": upgrade_cells,
        "rounds": rules["rounds"]["value"], "turns": rules["turns_per_round"]["value"],
        "ring_size": {int(k): v for k, v in rules["ring_size"]["value"].items()},
        "choices": rules["choices_after_trireme"]["value"],
        "workers": rules["workers_per_player"]["value"], "workers_start": rules["workers_available_at_start"]["value"],
        "storage_limit": rules["storage_limit"]["value"], "paid_costs": rules["paid_step_costs"]["value"],
        "sell_min": rules["sell_min"]["value"], "sell_max": rules["sell_max"]["value"],
        "take_coins": rules["take_coins"]["value"], "coins_per_vp": rules["coins_per_vp"]["value"],
        "max_sub": rules["max_substitution_tokens"]["value"],
        "start_coins": rules["start_coins"]["value"], "start_cubes": rules["start_cubes"]["value"],
        "grid": grid, "evaluate": evaluate_weights(_load("evaluate.json")),
        **{k: bool(v) for k, v in rules["readings"]["value"].items()},
    }


def evaluate_weights(doc: dict) -> dict:
    """evaluate.json checked: each weight a finite number in [0, 100], the scale above 0; {name: value}."""
    return check_weights(doc, EVALUATE_WEIGHTS)

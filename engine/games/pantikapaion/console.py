"""Pantikapaion at the terminal (the console's view, see arena/console/view.py): the ring of tiles drawn as tiles,
the tile in hand in each offered rotation, a city grid that covers every legal anchor, a preview of a placement
before it is confirmed, the development board, and each city. Open information: every seat sees everything
except the bag's order, and the view draws from the state's JSON and the tile data only.

A city cell is three characters: level (1-9), face, and what lies on it:
  face  .  empty    D drought    b p w o g  resource cell of that colour    *  aqueduct cell not yet coloured
  on it *  cube     W worker     H house  V winery  F fortress  A aqueduct  T temple
"""
from __future__ import annotations

from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text

from arena.console.view import GameView
from engine.games.pantikapaion.jsonio import CUBE, TYPE, WORKER
from engine.games.pantikapaion.notation import A_ANCHOR, A_AQCOL, A_BPLACE, A_MOVESEL, A_PICK, A_ROT, G, cell_name

FACE = {1: ".", 2: "D", 3: "b", 4: "p", 5: "w", 6: "o", 7: "g", 8: "*"}
COLOUR_STYLE = {"brown": "bold rgb(190,120,60)", "purple": "bold magenta", "white": "bold bright_white",
                "orange": "bold dark_orange", "green": "bold green"}
FACE_STYLE = {1: "dim", 2: "bold red", 3: COLOUR_STYLE["brown"], 4: COLOUR_STYLE["purple"],
              5: COLOUR_STYLE["white"], 6: COLOUR_STYLE["orange"], 7: COLOUR_STYLE["green"], 8: "bold cyan"}
CELL_WORDS = {  # the development board's cell labels (render.CELL_SHORT) in words, for the legend
    "+W": "take a worker from your supply (and 1 coin at each round end)",
    "VP": "victory-point cell: the rate of the row's building (the furthest reached counts)",
    "VP/": "winery VP: 1 VP per N neighbouring cells without a building",
    "+b": "a resource token (+b+w: a double one): take its cubes (? not yet dealt)",
    "U": "an upgrade (substitution token, resource discount or coin discount)",
    "MOVE": "move one of your buildings", "FREE": "build a non-fortress building for free",
    "AQ": "take an aqueduct tile and place it", "RAND": "draw a random tile from the bag and place it",
    "ADV": "advance one cell in another row"}
SEATS = ("bold cyan", "bold magenta", "bold yellow", "bold green")


def tile_picture(cells, title: str = "", style: str = "") -> Text:
    """A tile as rows of 2-character cells (cells: [(dy, dx, face)])."""
    h = max(dy for dy, _, _ in cells) + 1
    w = max(dx for _, dx, _ in cells) + 1
    at = {(dy, dx): f for dy, dx, f in cells}
    out = Text(title + "\n" if title else "", style=style)
    for y in range(h):
        for x in range(w):
            f = at.get((y, x))
            if f is None:
                out.append("  ")
            else:
                out.append(FACE[f] + " ", style=FACE_STYLE[f] if f != 1 else "")
        if y < h - 1:
            out.append("\n")
    return out


class View(GameView):
    QUIET_KEYS = ("pending", "bag", "to_move", "ring_filled", "turns_taken", "current")

    def __init__(self, game):
        super().__init__(game)
        self.data = game.data

    def seat_style(self, seat: int) -> str:
        return SEATS[seat % 4]

    # --- pieces -----------------------------------------------------------------------------------------------
    def _tile(self, t: int):
        return self.data["tiles"][t]

    def _city(self, state, p: int, marks: dict | None = None, highlight: set | None = None,
              cover: set | None = None) -> Text:
        """City ``p`` as a grid whose box covers its tiles and the ``cover`` cells; ``marks`` {cell: char} draw on
        empty ground (anchors), ``highlight`` cells are shown reversed (a preview)."""
        marks, highlight, cover = marks or {}, highlight or set(), set(cover or ())
        letters = [b["letter"] for b in self.data["buildings"]]
        cells = {c for c in range(G * G) if state._height(p, c)} | set(marks) | cover | highlight
        if not cells:
            return Text("  (no tiles yet)", style="dim")
        ys, xs = [c // G for c in cells], [c % G for c in cells]
        y0, y1, x0, x1 = min(ys), max(ys), min(xs), max(xs)
        out = Text("    " + "".join(f"  {chr(97 + x)} " for x in range(x0, x1 + 1)) + "\n", style="dim")
        for y in range(y0, y1 + 1):
            out.append(f" {y + 1:2d} ", style="dim")
            for x in range(x0, x1 + 1):
                c = y * G + x
                h = state._height(p, c)
                hl = " reverse" if c in highlight else ""
                out.append(">" if c in highlight else " ", style="bold")    # seen without colour too
                if not h:
                    mark = marks.get(c)
                    if mark:
                        out.append(f" {mark} ", style="bold yellow" + hl)
                    else:
                        out.append(" · " if c in highlight else "   ", style="dim" + hl)
                    continue
                top, b = state._top(p, c), state._bld(p, c)
                face = top & TYPE
                on = letters[state._building(p, b - 1)[0]] if b else "W" if top & WORKER else "*" if top & CUBE \
                    else marks.get(c, " ")
                out.append(str(h), style="dim" + hl)
                out.append(FACE[face], style=FACE_STYLE[face] + hl)
                out.append(on, style=("bold" if on != " " else "") + (" yellow" if c in marks else "") + hl)
            out.append("\n")
        out.rstrip()
        return out

    def _ring(self, state, j) -> Columns:
        tri = j["trireme"]
        n = len(j["ring"])
        pickable = {(tri + k) % n for k in range(1, self.data["choices"] + 1)} if tri >= 0 else set(range(3))
        pictures = []
        for slot, tid in enumerate(j["ring"]):
            t = state._ring_tile(slot)
            if slot == tri:
                pictures.append(Text(f"slot {slot}\ntrireme", style="bold"))
            elif t < 0 or tid is None:
                pictures.append(Text(f"slot {slot}\n(empty)", style="dim"))
            else:
                title = f"{tid}" + (" take" if slot in pickable else "")
                pictures.append(tile_picture(self._tile(t)["cells"], title, "bold" if slot in pickable else "dim"))
        return Columns(pictures, padding=(0, 2))

    def _dev_board(self, j) -> Table:
        from engine.games.pantikapaion.render import CELL_SHORT
        D = self.data
        table = Table(box=None, padding=(0, 1), show_header=False, pad_edge=False)
        table.add_column("row", no_wrap=True)
        for _ in range(max(len(r) for r in D["dev"]) + 1):
            table.add_column(no_wrap=True)
        tokens = j["resource_tokens"]
        n = j["players"]
        for r, row in enumerate(D["dev"]):
            colour = D["colours"][r]
            here = lambda pos: "".join(str(p) for p in range(n) if j["boards"][p]["markers"][colour] == pos)  # noqa
            cells = [Text(f"<{here(0)}>" if here(0) else "", style="bold yellow")]
            for pos, (kind, arg) in enumerate(row, 1):
                label = CELL_SHORT[kind]
                if kind in (2, 3):
                    label += str(arg)
                elif kind in (4, 5):
                    k = arg if kind == 4 else D["n_res1"] + arg
                    label = f"+{tokens[k] if k < len(tokens) and tokens[k] else '?'}"
                cell = Text(label)
                if here(pos):
                    cell.append(f"<{here(pos)}>", style="bold yellow")
                cells.append(cell)
            table.add_row(Text(colour, style=COLOUR_STYLE[colour]), *cells)
        return table

    def _players(self, state, j, seat) -> Table:
        D = self.data
        table = Table(box=None, padding=(0, 1), pad_edge=False)
        for col in ("player", "coins", *[c[0] for c in D["colours"]], "workers b/c/s", "upgrades", "score"):
            table.add_column(col, no_wrap=True)
        for p in range(j["players"]):
            b = j["boards"][p]
            ups = [f"sub x{b['substitution_tokens']}"] if b["substitution_tokens"] else []
            ups += (["res-discount"] if b["resource_discount"] else []) + (["coin-discount"] if b["coin_discount"]
                                                                           else [])
            name = f"P{p}" + (" (you)" if p == seat else "")
            table.add_row(Text(name, style=self.seat_style(p)), str(b["coins"]),
                          *[Text(str(b["storage"][c]), style=COLOUR_STYLE[c]) for c in D["colours"]],
                          f"{b['workers_board']}/{len(b['workers'])}/{b['workers_supply']}", " ".join(ups) or "-",
                          str(state.score_breakdown(p)["total"]))
        return table

    # --- the contract -----------------------------------------------------------------------------------------
    def board(self, state, seat):
        j = state.to_json()
        D = self.data
        who = {-1: "chance", -4: "nobody (game over)"}.get(state.current_player(), f"P{state.current_player()}")
        if state.is_terminal():
            who = "nobody (game over)"
        head = Text(f"Pantikapaion, round {j['round']}/{D['rounds']}, turn {j['turns_taken'] + 1}, first player "
                    f"P{j['first_player']}; to move: {who} ({state.phase.replace('_', ' ')})", style="bold")
        costs = D["costs"]
        pieces = D["pieces_2p"] if j["players"] == 2 else D["pieces"]
        stock = ", ".join(f"{k} {v} left" + (f" (next costs {costs[pieces - v]})" if v else "")
                          for k, v in j["stock"].items())
        parts = [head, Text("Ring (clockwise from slot 0; take one of the 3 after the trireme):"),
                 self._ring(state, j),
                 Text(f"Bag {sum(j['bag'].values())} tiles, discard {sum(j['discard'].values())}. Buildings: {stock}"),
                 Text("Development board (<01>: the markers of P0 and P1 on that cell):"), self._dev_board(j),
                 self._players(state, j, seat)]
        for p in range(j["players"]):
            parts.append(Text(f"City of P{p}" + (" (you)" if p == seat else ""), style=self.seat_style(p)))
            parts.append(self._city(state, p))
        return Group(*parts)

    def decision(self, state, seat, legal):
        phase, cur, ptile, prot, _, _ = state._ctx()
        if legal and legal[0] < A_ROT:                          # pick: the tiles on offer, as tiles
            pics = [tile_picture(self._tile(state._ring_tile(a - A_PICK))["cells"],
                                 f"{k}. {state.action_to_str(a)}", "bold") for k, a in enumerate(legal, 1)]
            return Group(Text("Tiles you may take:"), Columns(pics, padding=(0, 3)))
        if legal and A_ROT <= legal[0] < A_ANCHOR:              # rotation: each offered one, drawn
            tile = self._tile(ptile)
            pics = [tile_picture(tile["rotations"][a - A_ROT][1], f"{k}. {state.action_to_str(a)}", "bold")
                    for k, a in enumerate(legal, 1)]
            return Group(Text(f"Tile in hand {tile['id']}; its rotations (clockwise):"), Columns(pics, padding=(0, 3)))
        if legal and A_ANCHOR <= legal[0] < A_AQCOL:            # anchor: every legal place on one grid
            rot = self._tile(ptile)["rotations"][prot][1]
            cover = set()
            for a in legal:
                c = a - A_ANCHOR
                cover |= {c + dy * G + dx for dy, dx, _ in rot}
            marks = {a - A_ANCHOR: "+" for a in legal}
            return Group(Text(f"Tile in hand {self._tile(ptile)['id']}:"), tile_picture(rot),
                         Text("Where its top-left corner may go (+), on your city; 'preview <move>' shows one:"),
                         self._city(state, cur, marks=marks, cover=cover))
        if legal and A_BPLACE <= legal[0] < A_MOVESEL:          # building placement: the free cells
            marks = {}
            for a in legal:
                name = state.action_to_str(a).split()[-1]
                marks[_cell(name.split("-")[0])] = "+"
            return Group(Text("Where the building may go (+):"), self._city(state, cur, marks=marks))
        return None

    def preview(self, state, seat, action):
        phase, cur, *_ = state._ctx()
        if not (A_ANCHOR <= action < A_AQCOL or A_BPLACE <= action < A_MOVESEL):
            return None
        after = state.clone()
        after.apply(action)
        changed = {c for c in range(G * G) if (state._height(cur, c), state._top(cur, c), state._bld(cur, c))
                   != (after._height(cur, c), after._top(cur, c), after._bld(cur, c))}
        title = f"After {state.action_to_str(action)} (the new cells marked > and reversed):"
        return Group(Text(title, style="bold"),
                     self._city(after, cur, highlight=changed))

    def legend(self) -> str:
        from engine.games.pantikapaion.render import CELL_SHORT  # noqa: F401  (the labels explained below)
        lines = ["Tiles: each cell is a letter: . empty   D drought   b p w o g resource cell (brown purple white "
                 "orange green)   * aqueduct cell (its colour is chosen when placed)",
                 "City grid: columns a-p, rows 1-16; each cell is level, face, what lies on it:",
                 "  on it: * cube   W worker   H house   V winery   F fortress   A aqueduct (2 cells)   T temple",
                 "  + a cell where the tile's top-left corner (or the building) may go; >cell (reversed): a preview",
                 "Ring: the trireme's slot, then clockwise; you may take one of the 3 tiles after it ('take').",
                 "Development board cells:"]
        lines += [f"  {k:5s} {v}" for k, v in CELL_WORDS.items()]
        lines += ["  <01>: the markers of P0 and P1 on that cell (start: before the first cell)",
                  "Players: coins, cubes of each colour in storage, workers on the board / in the city / in supply."]
        return "\n".join(lines)

    def texts(self) -> dict[str, str]:
        D = self.data
        out = {}
        for t in D["tiles"]:
            layout = t.get("layout", "")
            rows = " / ".join(layout.split("/")) if layout else ""
            out[t["id"]] = f"{t.get('kind', 'terrain')} tile, {len(t['cells'])} cells, faces {rows} " \
                           "(. empty, D drought, b p w o g resource, * aqueduct)"
        pieces = D["pieces_2p"]
        for b in D["buildings"]:
            out[b["name"]] = f"building '{b['letter']}', {b['cells']} cell(s); costs by piece {D['costs'][:pieces]}" \
                             " cubes of its row's colour (with 2 players only 6 pieces)"
        for k, v in CELL_WORDS.items():
            out[k] = v
        return out

    def explain(self, state, seat, action):
        name = state.action_to_str(action)
        base = super().explain(state, seat, action)
        if A_ANCHOR <= action < A_AQCOL:
            return base + " ('preview " + name + "' draws it)"
        return base

    def differences(self, before, after, seat: int) -> list[str]:
        """What a move changed on the players' boards: coins, cubes, markers, workers, score (open information)."""
        a, b = before.to_json(), after.to_json()
        out = []
        for p in range(a["players"]):
            x, y = a["boards"][p], b["boards"][p]
            bits = []
            if x["coins"] != y["coins"]:
                bits.append(f"coins {x['coins']}->{y['coins']}")
            for c in self.data["colours"]:
                d = y["storage"][c] - x["storage"][c]
                if d:
                    bits.append(f"{d:+d} {c}")
                if x["markers"][c] != y["markers"][c]:
                    bits.append(f"{c} marker {x['markers'][c]}->{y['markers'][c]}")
            if x["workers_supply"] != y["workers_supply"]:
                bits.append(f"workers in supply {x['workers_supply']}->{y['workers_supply']}")
            s0, s1 = before.score_breakdown(p)["total"], after.score_breakdown(p)["total"]
            if s0 != s1:
                bits.append(f"score {s0}->{s1}")
            if bits:
                out.append(f"P{p} " + ", ".join(bits))
        return out

    def end_reason(self, state) -> str:
        parts = []
        for p in range(state.num_players):
            s = state.score_breakdown(p)
            shown = ", ".join(f"{k} {v}" for k, v in s.items() if k != "total" and v)
            parts.append(f"P{p} {s['total']} ({shown or 'nothing'})")
        return f"final scoring after round {self.data['rounds']}: " + "; ".join(parts)

    def final(self, state):
        return self.board(state, None)


def _cell(name: str) -> int:
    from engine.games.pantikapaion.notation import parse_cell
    return parse_cell(name)


__all__ = ["View", "tile_picture", "cell_name"]

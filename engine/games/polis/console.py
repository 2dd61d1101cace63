"""Polis at the terminal (the console's view, see arena/console/view.py): both player boards, the map by area with
its neighbours, the poleis, the markets and the price track, projects, events and any battle, from one seat's
observation only (the opponent's battle hand is a count; the face-down project pile and event cards are counts).
"""
from __future__ import annotations

import json
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from arena.console.view import GameView
from engine.games.polis.data import RESOURCES, read_data

SIDES = ("athens", "sparta")
STYLE = {"athens": "bold cyan", "sparta": "bold red"}
MARK = {"athens": "A", "sparta": "S"}


class View(GameView):
    QUIET_KEYS = ("flow", "to_move", "turns", "grown", "game", "you", "pile")

    def __init__(self, game):
        super().__init__(game)
        read = lambda name: read_data(game.options.get("data"), name)  # noqa: E731
        self.map, self.markets, self.projects = read("map.json"), read("markets.json"), read("projects.json")
        self.events = read("events.json")
        self.tables = game.tables
        self.land = _neighbours(self.map["land_adjacency"]["edges"])
        self.sea = _neighbours(self.map["sea_adjacency"]["edges"])
        self.poleis = {row[0]: dict(zip(self.map["poleis"]["columns"], row)) for row in self.map["poleis"]["rows"]}

    def seat_name(self, seat: int) -> str:
        return SIDES[seat].capitalize()

    def seat_style(self, seat: int) -> str:
        return STYLE[SIDES[seat]]

    # --- drawing --------------------------------------------------------------------------------------------
    def _obs(self, state, seat):
        from engine.games.polis.codec import observation, to_json
        return to_json(state) if seat is None else observation(state, seat)

    def board(self, state, seat):
        j = self._obs(state, seat)
        head = Text(f"Polis, round {j['round']}, phase {j['phase']}; to move: {j['active'].capitalize()}",
                    style="bold")
        if j["winner"]:
            head.append(f"   result: {j['winner']}", style="bold yellow")
        return Group(head, self._players(state, j, seat), self._map(j), self._market(j), self._projects(j),
                     *self._battle(j))

    def _players(self, state, j, seat):
        lines = []
        for i, side in enumerate(SIDES):
            p = j["players"][side]
            line = Text(side.capitalize() + (" (you)" if seat == i else ""), style=STYLE[side])
            line.append(f"  prestige {p['prestige']}  score {state.score(i)}" + ("  passed" if j["passed"][i] else ""),
                        style="bold")
            line.append(" | " + " ".join(f"{r} {p[r]}" for r in RESOURCES))
            line.append(f" | reserve {p['cubes']} hoplite cubes, {p['discs']} discs | merchants {p['merchants']} "
                        f"(+{p['merchants_on_port']} on port) | proxenos {p['proxenos'] or '-'}")
            lines.append(line)
        return Group(*lines)

    def _map(self, j):
        t = Table(title="Map (hoplites / galleys: Athens-Sparta)", title_justify="left", box=None, padding=(0, 1),
                  pad_edge=False)
        for col in ("area", "A-S", "tribute", "poleis (owner, population, sieges)", "next to"):
            t.add_column(col, overflow="fold")
        by_region: dict = {}
        for name, p in j["poleis"].items():
            region = self.poleis.get(name, {}).get("region")
            by_region.setdefault(region, []).append(self._polis(name, p))
        coast = self.map["coast"]["seas"]
        for name, r in j["regions"].items():
            trib = Text(f"{r['tribute']}", style=STYLE[r["tribute"]]) if r["tribute"] else Text("-")
            near = sorted(self.land.get(name, [])) + [f"~{s}" for s in coast.get(name, [])]
            t.add_row(name, f"{r['athens']}-{r['sparta']}", trib, Text(" ").join(by_region.get(name, [])) or "-",
                      ", ".join(near) or "-")
        for name, s in j["seas"].items():
            markets = [m for m, seas in self.map["markets"]["seas"].items() if name in seas]
            near = sorted(self.sea.get(name, [])) + [f"market {m}" for m in markets]
            t.add_row(Text(f"~{name}", style="blue"), f"{s['athens']}-{s['sparta']}", "", "", ", ".join(near) or "-")
        return t

    def _polis(self, name, p) -> Text:
        owner = p["owner"]
        out = Text(name, style=STYLE.get(owner, "dim"))
        out.append(f"[{MARK.get(owner, '-')}{p['pop'] or ''}]")
        for side, n in p["siege"].items():
            if n:
                out.append(f" siege {MARK[side]}{n}", style="bold yellow")
        return out

    def _market(self, j):
        m = j["market"]
        cells = {(c["market"], c["rate"]): c for c in self.markets["cells"]}
        t = Table(title="Markets (rate: what one good gives; # blocked; A/S a merchant there)", title_justify="left",
                  box=None, padding=(0, 1), pad_edge=False)
        t.add_column("market")
        t.add_column("cells", overflow="fold")
        rows: dict = {}
        for c in m["cells"]:
            data = cells.get((c["market"], c["rate"]), {})
            text = Text(f"{c['rate']}:{data.get('gives', '?')} for {'/'.join(data.get('accepts', []))}")
            if c["blocked"]:
                text.append("#", style="bold red")
            if c["merchant"]:
                text.append(f"({MARK[c['merchant']]})", style=STYLE[c["merchant"]])
            rows.setdefault(c["market"], []).append(text)
        for name, texts in rows.items():
            t.add_row(name, Text("  ").join(texts))
        prices = ", ".join(f"{k} {v}" for k, v in m["prices"].items())
        return Group(t, Text(f"Price track positions: {prices}"))

    def _projects(self, j):
        pr = j["projects"]
        started = ", ".join(f"{k} ({_words(v)})" for k, v in pr["started"].items()) or "-"
        completed = ", ".join(f"{k} ({_words(v)})" for k, v in pr["completed"].items()) or "-"
        events = j.get("events") or {}
        stack = ", ".join(events.get("stack", [])) or "-"
        return Text(f"Projects on display: {', '.join(pr['display']) or '-'} ('text NAME' for one); started: "
                    f"{started}; completed: {completed}; {len(pr['pile'])} face down.\nEvents: {stack}")

    def _battle(self, j):
        b = j["battle"]
        if not b:
            return []
        hands = []
        for side, h in b["hands"].items():
            hands.append(f"{side.capitalize()} {h} cards" if isinstance(h, int) else
                         f"{side.capitalize()} {' '.join(h) or 'no cards'}")
        deck = b["deck"] if isinstance(b["deck"], int) else len(b["deck"])
        return [Text(f"BATTLE in {b['area']}: attacker {b['attacker']}; on the table {_words(b['played'])}; hands: "
                     f"{'; '.join(hands)}; {deck} cards in the deck", style="bold yellow")]

    # --- words ----------------------------------------------------------------------------------------------
    def legend(self) -> str:
        return "\n".join([
            "Players: prestige, resources (iron wood wine silver wheat), hoplite cubes and discs in reserve,",
            "  merchants (+ those on a port), the proxenos' polis, score (prestige with the end-game bonuses).",
            "Map: each region with its hoplites Athens-Sparta, tribute (who took it this round), its poleis and",
            "  what it borders (~Sea: a sea on its coast). Seas (~) with their galleys and markets they reach.",
            "Polis: Name[A5] owned by Athens (A) or Sparta (S) with population 5; [-] free; 'siege S2': Sparta has",
            "  2 siege discs on it. Colours: Athens cyan, Sparta red.",
            "Markets: '3:wheat for iron/wine' a cell where one of those goods buys 3 wheat; # blocked by a black",
            "  cube; (A)/(S) a merchant of Athens/Sparta stands there. Price track: a good's price position.",
            "Battle cards: A2 A1 B1 B0 C1 C0 D0 M0 S-1 (unit letter and strength); 'text A2' names one.",
            "Commands: 'text Protagoras' shows a project, 'text Athens' a polis, 'text Persia' a market.",
        ])

    def texts(self) -> dict[str, str]:
        out = {}
        for p in self.projects["tiles"]:
            cost = ", ".join(f"{v} {k}" for k, v in p["cost"].items())
            out[p["name"]] = (f"project for {', '.join(p['poleis'])}; costs {cost} (any whole part payable in silver);"
                              f" {p['round']} prestige at each round end, {p['end']} at the game's end")
        for name, p in self.poleis.items():
            out[name] = (f"polis in {p['region']}: population {p['base']} at first, grows up to +{p['max_growth']} a "
                         f"round, at most {p['max_pop']}; ports: {', '.join(p['ports']) or 'none'}")
        for cell in self.markets["cells"]:
            key = cell["market"]
            line = f"rate {cell['rate']}: {cell['gives']} for one of {'/'.join(cell['accepts'])}"
            reached = ", ".join(self.map["markets"]["seas"].get(key, []))
            out[key] = (out[key] + "; " if key in out else f"market (reached from {reached}): ") + line
        codes, names = self.tables["card_codes"], self.tables["card_names"]
        for i, code in enumerate(codes):
            out[code] = (f"battle card, strength {self.tables['card_strength'][i]}, {self.tables['card_count'][i]} in "
                         f"the deck; on land {names[i][0]}, at sea {names[i][1]}")
        for pile, cards in self.events.get("piles", {}).items():
            for c in cards:
                effects = "; ".join(_words(e) for e in c.get("effects", [])) or "no effect (texts lost: ASSUMED blank)"
                out[c["name"]] = f"event card of {pile}: {effects}"
        return out

    def differences(self, before, after, seat: int) -> list[str]:
        """What a move changed, in the game's words: holdings, units, poleis, tribute, projects, passing."""
        a, b = self._obs(before, seat), self._obs(after, seat)
        out = []
        for i, side in enumerate(SIDES):
            x, y = a["players"][side], b["players"][side]
            bits = [f"{y[k] - x[k]:+d} {k}" for k in ("prestige", *RESOURCES, "discs", "merchants")
                    if isinstance(x[k], int) and x[k] != y[k]]
            if x["proxenos"] != y["proxenos"]:
                bits.append(f"proxenos to {y['proxenos']}")
            if b["passed"][i] and not a["passed"][i]:
                bits.append("passed")
            if bits:
                out.append(f"{side.capitalize()} " + ", ".join(bits))
        for kind in ("regions", "seas"):
            for name, y in b[kind].items():
                x = a[kind][name]
                if (x["athens"], x["sparta"]) != (y["athens"], y["sparta"]):
                    out.append(f"{name} {x['athens']}-{x['sparta']} -> {y['athens']}-{y['sparta']}")
                if x.get("tribute") != y.get("tribute") and y.get("tribute"):
                    out.append(f"{name} tribute to {y['tribute'].capitalize()}")
        for name, y in b["poleis"].items():
            x = a["poleis"][name]
            if x != y:
                out.append(f"{self._polis(name, x).plain} -> {self._polis(name, y).plain}")
        for key in ("started", "completed"):
            for name in set(b["projects"][key]) - set(a["projects"][key]):
                out.append(f"project {name} {key}")
        return out

    def end_reason(self, state) -> str:
        from engine.games.polis.codec import to_json
        j = to_json(state)
        w = j["winner"]
        if w == "score":
            return "final scoring after the omega round: prestige with end-game bonuses"
        if w == "draw":
            return "sudden death for both sides at once: a draw"
        if w in SIDES:
            loser = SIDES[1 - SIDES.index(w)]
            p = j["players"][loser]["prestige"]
            how = ("its prestige fell below 0" if p < 0 else "it had 0 prestige after the round's end" if p == 0
                   else "it was left with only its capital, unfed")
            return f"sudden death: {loser.capitalize()} lost because {how}; {w.capitalize()} wins"
        return "the game reached its end"


def _neighbours(edges) -> dict:
    out: dict = {}
    for a, b in edges:
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    return out


def _words(value) -> str:
    """A JSON value as plain words (never a Python repr)."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        return " ".join(_words(v) for v in value) or "-"
    return "-" if value is None else str(value)

"""Mare Nostrum at the terminal (the console's view, see arena/console/view.py): the empires with their leadership
tracks, titles, cards and holdings; every province with its owner, buildings, units and neighbours; the seas; the
heroes and wonders on offer. Drawn from one seat's observation only: other empires' face-down rare goods are counts.
Card texts (`text Caesar`) come from data/card_texts.toml.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from arena.console.view import ByWidth, GameView

DATA = Path(__file__).parent / "data"
STYLES = {"Rome": "bold red", "Greece": "bold blue", "Carthage": "bold magenta", "Babylon": "bold yellow",
          "Egypt": "bold green"}
REASONS = {"pyramids": "built the Pyramids", "glory": "owns 5 heroes and wonders", "conquest": "holds 4 capitals",
           "primacy": "holds 3 leadership titles", "perseus": "announced the Pyramids or a 5th card with Perseus",
           "round-cap": "the round cap was reached (a draw for everyone; ASSUMED for bot play)"}


class View(GameView):
    QUIET_KEYS = ("machine", "format", "observer", "to_move", "castor_target", "rare_shown")

    def __init__(self, game):
        super().__init__(game)
        world = tomllib.loads((DATA / "map.toml").read_text(encoding="utf-8"))
        self.provinces = {p["name"]: p for p in world["province"]}
        self.seas = {s["name"]: s for s in world["sea"]}
        rules = tomllib.loads((DATA / "rules.toml").read_text(encoding="utf-8"))
        self.cards = {c["name"]: c for c in rules["card"]}
        texts = tomllib.loads((DATA / "card_texts.toml").read_text(encoding="utf-8"))
        self.card_texts = {c["name"]: c for c in texts["card"]}
        self.empires = None

    def _obs(self, state, seat):
        j = state.to_json() if seat is None else state.observation(seat)
        self.empires = [e["empire"] for e in j["empires"]]
        return j

    def seat_name(self, seat: int) -> str:
        if self.empires is None:
            self._obs(self.game.new_initial_state(), 0)
        return self.empires[seat]

    def seat_style(self, seat: int) -> str:
        return STYLES.get(self.seat_name(seat), "bold")

    # --- drawing --------------------------------------------------------------------------------------------
    def board(self, state, seat):
        j = self._obs(state, seat)
        cur = j["current"]
        who = self.empires[cur] if cur >= 0 else ("chance" if cur == -1 else "nobody (game over)")
        head = Text(f"Mare Nostrum, {j['players']} players, round {j['round']}, phase step {j['step']}; to move: {who}",
                    style="bold")
        parts = [head, self._empires(state, j, seat), self._map(j), self._offer(j)]
        if j["winners"]:
            parts.insert(1, Text(f"WINNER: {', '.join(j['winners'])} ({REASONS.get(j['reason'], j['reason'])})",
                                 style="bold yellow"))
        return Group(*parts)

    def _empires(self, state, j, seat):
        tracks = state.track_values()
        lines = [Text("Empires (leadership trade / culture / military):", style="bold")]
        for p, e in enumerate(j["empires"]):
            line = Text(e["empire"] + (" (you)" if p == seat else ""), style=STYLES.get(e["empire"], "bold"))
            line.append(f"  {tracks[p][0]} / {tracks[p][1]} / {tracks[p][2]}", style="bold")
            line.append(f"  titles {', '.join(e['titles']) or '-'}; cards {', '.join(e['cards']) or '-'}")
            goods = ", ".join(f"{k} {v}" for k, v in e["resources"].items() if v) or "nothing"
            line.append(f"; holds {goods}")
            if e["rare"]:
                line.append(f"; rare {', '.join(e['rare'])}")
            if e.get("rare_hidden"):
                line.append(f"; {e['rare_hidden']} face-down rare")
            legions = sum(e["legions"].values())
            triremes = sum(e["triremes"].values())
            line.append(f"; {legions} legions, {triremes} triremes, {len(e['fortresses'])} fortresses", style="dim")
            lines.append(line)
        return Group(*lines)

    def _map(self, j):
        units: dict = {}
        for e in j["empires"]:
            for prov, n in e["legions"].items():
                units.setdefault(prov, []).append((f"{n}L", e["empire"]))
            for prov in e["fortresses"]:
                units.setdefault(prov, []).append(("F", e["empire"]))
            for sea, n in e["triremes"].items():
                units.setdefault(sea, []).append((f"{n}T", e["empire"]))
        title = "Provinces (built spaces; units: L legions, F fortress, T triremes; ~ a sea)"
        t = Table(title=title, title_justify="left", box=None, padding=(0, 1), pad_edge=False)
        for col in ("province", "owner", "built", "units", "next to"):
            t.add_column(col, overflow="fold")
        lines = [Text(title, style="italic")]
        for name, rec in j["provinces"].items():
            built = [_space(s) for s in rec["spaces"] if s[1]]
            circe = [f"{s[0].split(':')[-1]} (Circe {s[3]})" for s in rec["spaces"] if s[3]]
            owner = Text(rec["control"] or "-", style=STYLES.get(rec["control"], "dim"))
            if rec["capture"]:
                owner.append(f" captured by {rec['capture'].get('by')}", style="bold yellow")
            prov = self.provinces.get(name, {})
            near = ", ".join(list(prov.get("adj", [])) + [f"~{_sea(s)}" for s in prov.get("seas", [])]) or "-"
            what = ", ".join(built + circe) or "-"
            here = _units(units.get(name, []))
            t.add_row(name, owner, what, here, near)
            line = Text(f"{name}: ", style="bold")
            line.append_text(owner)
            line.append(f" | {what} | ")
            line.append_text(here)
            line.append(f" | next to {near}", style="dim")
            lines.append(line)
        for name, sea in self.seas.items():
            near = ", ".join(f"~{_sea(s)}" for s in sea.get("adj", [])) or "-"
            here = _units(units.get(name, []))
            t.add_row(Text(f"~{_sea(name)}", style="blue"), "", "", here, near)
            line = Text(f"~{_sea(name)}: ", style="bold blue")
            line.append_text(here)
            line.append(f" | next to {near}", style="dim")
            lines.append(line)
        return ByWidth(t, Group(*lines))

    def _offer(self, j):
        from engine.games.mare_nostrum.state import _NAMES
        row = [_NAMES["cards"][5 + c] for c in range(17) if (j["machine"]["row"] >> c) & 1]
        return Text(f"Heroes and wonders on offer: {', '.join(row) or '-'} (+ the Pyramids); 'text NAME' for a card")

    # --- words ----------------------------------------------------------------------------------------------
    def legend(self) -> str:
        return "\n".join([
            "Empires: leadership values trade / culture / military, titles held, hero and wonder cards owned, the",
            "  goods and coins held (rare goods of others are face-down counts), and the pieces on the map.",
            "Provinces: owner (control marker), built spaces (caravan:GOOD, market, city, capital, temple,",
            "  'occupied by X'), units (2L Rome: two Roman legions; F: fortress), neighbours (~Sea: its coast).",
            "Seas (~) with triremes (T) and the seas next to them.",
            "Victory: the Pyramids, 5 heroes and wonders, 4 capitals, or all 3 titles.",
            "Commands: 'text Caesar' (any hero or wonder) shows what the card does.",
        ])

    def texts(self) -> dict[str, str]:
        out = {}
        for name, card in self.cards.items():
            t = self.card_texts.get(name, {})
            influence = card.get("influence", [0, 0, 0])
            out[name] = (f"{t.get('type', card.get('kind'))}, phase {t.get('phase', '?')}: {t.get('text', '-')} "
                         f"Influence trade/culture/military {influence[0]}/{influence[1]}/{influence[2]} "
                         f"(rulebook {t.get('refs', '-')})")
        return out

    def differences(self, before, after, seat: int) -> list[str]:
        """What a move changed, in the game's words: holdings, cards, titles, units, control."""
        a, b = self._obs(before, seat), self._obs(after, seat)
        out = []
        for x, y in zip(a["empires"], b["empires"]):
            bits = [f"{y['resources'][k] - v:+d} {k}" for k, v in x["resources"].items() if y["resources"][k] != v]
            bits += [f"+{c}" for c in y["cards"] if c not in x["cards"]]
            bits += [f"{t} title" for t in y["titles"] if t not in x["titles"]]
            bits += [f"lost the {t} title" for t in x["titles"] if t not in y["titles"]]
            if len(y["rare"]) != len(x["rare"]) or y.get("rare_hidden") != x.get("rare_hidden"):
                bits.append("rare goods changed")
            for kind, word in (("legions", "L"), ("triremes", "T")):
                for where in sorted(set(x[kind]) | set(y[kind])):
                    if x[kind].get(where, 0) != y[kind].get(where, 0):
                        bits.append(f"{_sea(where)} {x[kind].get(where, 0)}{word}->{y[kind].get(where, 0)}{word}")
            bits += [f"fortress in {f}" for f in y["fortresses"] if f not in x["fortresses"]]
            if bits:
                out.append(f"{y['empire']} " + ", ".join(bits))
        for name, y in b["provinces"].items():
            x = a["provinces"][name]
            if x["control"] != y["control"]:
                out.append(f"{name} now {y['control'] or 'free'}")
            built = [_space(s) for s, t in zip(y["spaces"], x["spaces"]) if s[1] and not t[1]]
            if built:
                out.append(f"{name} +{', '.join(built)}")
        return out

    def end_reason(self, state) -> str:
        j = state.to_json()
        winners = ", ".join(j["winners"]) or "nobody"
        why = REASONS.get(j["reason"], j["reason"])
        if j["reason"] == "round-cap":
            return f"round {j['round']}: {why}"
        return f"{winners} won: {why}"


def _sea(name: str) -> str:
    return name[:-4] if name.endswith(" Sea") else name


def _space(space) -> str:
    kind, _, occupied, _ = space
    text = kind.split(":")[-1] if kind.startswith("caravan:") else kind.replace(":", " ")
    return text + (f" (occupied by {occupied})" if occupied else "")


def _units(items) -> Text:
    out = Text()
    for i, (what, empire) in enumerate(items):
        if i:
            out.append(", ")
        out.append(f"{what} {empire}", style=STYLES.get(empire, ""))
    return out or Text("-", style="dim")

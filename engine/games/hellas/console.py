"""Hellas at the terminal (the console's view, see arena/console/view.py): the year and season, the prestige track,
both sides' leaders, hands and pools, the cards in play and played this year, every area holding blocks or a marker
(its city, control, siege, the blocks inside the walls and in the field, its neighbours), any battle being fought,
and for each decision what its moves name.

Drawn from one seat's observation only (spec 7.2): the seat's own blocks with their identity and steps, the
enemy's revealed blocks as they were revealed, every other enemy block as '?' where it stands, the enemy's hand
and pool as counts, his face-down card as 'chosen'. Card texts (`text #30`) come from data/event_texts.toml and
the cards file; `text LA10` or `text Attica` shows an area, `text S5` a block of the roster (public).
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from arena.console.view import ByWidth, GameView
from engine.games.hellas.words import TYPE_SHORT, city_marks, play_words, seats_words, walls_words

DATA = Path(__file__).parent / "data"
SIDES = ("Athens", "Sparta")
STYLE = {"Athens": "bold blue", "Sparta": "bold red"}
LEVEL_WORDS = {"minor": "a minor victory", "major": "a major victory", "automatic": "an automatic victory",
               "truce": "a truce", "draw": "a draw"}
STEP_HELP = {
    "truce": "You lead by enough to offer a truce: yes to roll the truce dice, pass to fight on.",
    "card": "Choose a card face down: event:N plays its event, actions:N plays it for its coins "
            "(at the New Year actions:N is a sacrifice for Olympian favour).",
    "event-target": "Pick the target of the event.",
    "favour": "Spend your Olympian favour for one more action this turn (yes), or keep it (pass).",
    "action": "Spend an action: move:AREA starts a group move from an area, recruit:/step: raise a block or a "
              "step, pillage:/supply:/garrison: as named; pass ends your action phase.",
    "move-unit": "Group move: pick the next unit of the group (in roster order), or pass when the group is done.",
    "move-dest": "Where does this unit go?",
    "place": "Where does the new unit appear?",
    "siege": "Battle phase, the smallest combats first: siege attrition (attrition:AREA) or an assault "
             "(assault:AREA) on one of your sieges, or pass to leave these sieges alone.",
    "taxes-keep": "End of the year: keep this Athens Raises Taxes card in play (pass) or remove it (yes).",
    "withdraw": "Enemy blocks entered this area: does this unit go inside the city (yes) or stay in the field?",
    "battle": "Which of the smallest combats is fought next (battle:, attrition: or assault:AREA)? "
              "pass leaves the sieges among them alone.",
    "hit": "A hit falls on your blocks tied for the most steps: which one takes it?",
    "reroll": "Spend your Olympian favour to roll those dice again (yes), or keep the roll (pass)?",
    "rout": "Which of your units routs?",
    "continue": "After the round: fight on (yes) or break off and retreat (pass).",
    "retreat": "Where does this unit retreat?",
    "cargo": "The fleet has landed: which land unit did it carry?",
    "forced": "The unit used its full speed: try one more area (forced march or rowing), or stop.",
    "sally": "Sally out of this besieged city (in Winter, or to join the relief battle), or stay inside.",
    "bid": "Bid prestige, face down, for the right to pick your side (bid:N); the higher bid picks, and the "
           "prestige track starts that many points toward the other side; a tie is settled by a coin.",
    "pick": "You bid higher (or won the coin): pick the side you play (pick:Athens or pick:Sparta).",
}
SIDE_STEPS = ("sides", "bid", "pick")           # before the first New Year: the seats are not sides yet

# what an enemy's move that the seat may not see is, by the step it was made at
HIDDEN_MOVES = {"card": "chooses a card face down", "move-unit": "picks an unseen block for the group",
                "move-dest": "moves an unseen block", "action": "recruits or reinforces an unseen block",
                "cargo": "names the block its fleet carried", "rout": "picks which block routs",
                "retreat": "retreats an unseen block", "withdraw": "decides whether a block goes inside",
                "hit": "takes a siege hit on an unseen block", "bid": "bids face down"}

# what a yes and a pass mean, by the step they answer
YES_PASS = {"truce": ("offers a truce", "no truce"), "favour": ("spends the Olympian favour", "keeps the favour"),
            "withdraw": ("goes inside the city", "stays in the field"), "continue": ("fights on", "breaks off"),
            "taxes-keep": ("removes the taxes card", "keeps the taxes card"), "forced": ("tries one more area",
                                                                                     "stops"),
            "sally": ("sallies", "stays inside"), "action": ("", "ends the action phase"),
            "move-unit": ("", "the group is complete"), "siege": ("", "leaves these sieges alone"),
            "battle": ("", "leaves the sieges among them alone"),
            "reroll": ("spends the Olympian favour to roll again", "keeps the roll")}


class View(GameView):
    QUIET_KEYS = ("machine", "format", "observer", "data", "unseen")

    def __init__(self, game):
        super().__init__(game)
        # which side seat 0 plays, from the last state drawn (None: not chosen yet; spec 5.13)
        self.swap = 0 if game.data.rules["SIDE_SELECTION"] == "assigned" else None
        self.data = game.data
        self.units = {u.id: u for u in self.data.units}
        self.cards = {c.id: c for c in self.data.cards}
        self.areas = {a.id: a for a in self.data.areas}
        self.by_name = {a.name.lower(): a for a in self.data.areas}
        texts = tomllib.loads((DATA / "event_texts.toml").read_text(encoding="utf-8"))
        self.event_texts = {k: v for k, v in texts.items() if isinstance(v, dict)}

    def seat_name(self, seat: int) -> str:
        return f"seat {seat}" if self.swap is None else SIDES[seat ^ self.swap]

    def seat_style(self, seat: int) -> str:
        return "bold" if self.swap is None else STYLE[SIDES[seat ^ self.swap]]

    def _follow(self, state) -> None:
        """Remember which side each seat plays (SIDE_SELECTION may swap them, spec 5.13) for seat_name."""
        self.swap = state.side_of(0) if state.sides_set() else None

    # --- names ----------------------------------------------------------------------------------------------
    def _obs(self, state, seat):
        from engine.games.hellas import codec
        self._follow(state)
        return codec.to_json(state) if seat is None else codec.observation(state, seat)

    @staticmethod
    def _bids(j) -> list:
        """While the sides are chosen, the seats' bids (held in the sides' commit and play slots, seat i in side
        i's: spec 5.13)."""
        if j["step"] not in SIDE_STEPS:
            return []
        bids = [j["play"][side] or j["commit"][side] for side in SIDES]
        words = [f"seat {i} " + ("has not bid" if b is None else "bid face down" if b == "face down" else
                                 f"bid {b.split(':')[1]} prestige") for i, b in enumerate(bids)]
        return [Text("Bids for sides: " + "; ".join(words), style="bold")]

    def _area(self, area_id: str) -> str:
        a = self.areas.get(area_id)
        return a.name if a else area_id

    def _event(self, card) -> str:
        name = self.event_texts.get(card.event, {}).get("name", card.event.replace("_", " "))
        if card.event == "leader":
            name += f" ({card.params.get('name', '?')}, {card.params.get('side', '?')} "\
                    f"{int(card.params.get('rating', 0)):+d})"
        elif card.event == "revolt":
            name += f" ({card.params.get('region', '?')}" + (", may spread)" if str(card.params.get("spread")) == "1"
                                                             else ")")
        return name

    def _card(self, cid) -> str:
        card = self.cards[cid]
        return f"#{cid} {self._event(card)} [{card.actions}]"

    def _block(self, uid: str, b: dict, sea: bool = False) -> str:
        u = self.units[uid]
        rating = u.naval_rating if sea and u.naval_rating else u.land_rating
        return f"{uid} {rating} {TYPE_SHORT.get(u.type, u.type)} {b['steps']}/{u.max_steps}"

    def _play(self, play, season) -> str:
        return play_words(play, season)

    # --- the board ------------------------------------------------------------------------------------------
    def board(self, state, seat):
        j = self._obs(state, seat)
        cur = j["current"]
        who = (f"seat {cur}" if j["step"] in SIDE_STEPS else SIDES[cur]) if cur in (0, 1) else \
            "chance" if cur == -1 else "nobody (game over)"
        head = Text(f"Hellas, {j['year']} BC, {j['season']}; step {j['step']}; to move: {who}", style="bold")
        you = f"; you are seat {seat}" + (f", {SIDES[state.side_of(seat)]}" if state.sides_set() else "") \
            if seat is not None else ""
        parts = [head, Text(seats_words(state) + you, style="bold"), *self._bids(j)]
        seat = state.side_of(seat) if seat is not None and state.sides_set() else None     # the side it plays
        if j["winner"]:
            result = "a draw" if j["winner"] == "draw" else \
                f"{j['winner']} wins ({LEVEL_WORDS.get(j['level'], j['level'])})"
            parts.append(Text(f"RESULT: {result}", style="bold yellow"))
        parts += [self._prestige(j), self._calendar(j), *self._sides(j, seat), self._cards_line(j, seat),
                  *self._battle(j), self._map(j, seat)]
        return Group(*parts)

    def _prestige(self, j) -> Text:
        lead = self.data.rules["AUTO_VICTORY_LEAD"]
        levels = self.data.rules["VICTORY_LEVELS"]
        p = j["prestige"]
        out = Text("Prestige ")
        out.append("Athens ", style=STYLE["Athens"])
        for v in range(-lead, lead + 1):
            if v == max(-lead, min(lead, p)):
                out.append("@", style="bold yellow")
            else:
                out.append("|" if v == 0 else ":" if abs(v) in (levels["minor"], levels["major"]) else ".",
                           style="blue" if v < 0 else "red" if v > 0 else "")
        out.append(" Sparta", style=STYLE["Sparta"])
        words = "even" if p == 0 else f"Sparta leads by {p}" if p > 0 else f"Athens leads by {-p}"
        out.append(f"  {words}", style="bold")
        out.append(f" (wins at {lead}; minor {levels['minor']}, major {levels['major']})", style="dim")
        return out

    def _calendar(self, j) -> Text:
        first, last = self.data.scenario["first_year"], self.data.scenario["last_year"]
        out = Text("Years ")
        for y in range(first, last - 1, -1):
            out.append(str(y), style="reverse bold" if y == j["year"] else "dim")
            out.append(" ")
        out.append(" Seasons ")
        for s in ["New Year", *self.data.rules["SEASONS"]]:
            out.append(s, style="reverse bold" if s == j["season"] else "dim")
            out.append(" ")
        return out

    def _sides(self, j, seat) -> list:
        lines = []
        for i, side in enumerate(SIDES):
            leader = j["leaders"][side]
            line = Text(side + (" (you)" if seat == i else ""), style=STYLE[side])
            line.append(f"  leader {self._card(leader) if leader is not None else 'none'}; "
                        f"Olympian favour {j['favours'][side]}")
            if j["commit"][side] and j["step"] not in SIDE_STEPS:
                line.append(f"; card chosen: {self._play(j['commit'][side], j['season'])}", style="bold")
            if j["play"][side] and j["step"] not in SIDE_STEPS:
                line.append(f"; played this season: {self._play(j['play'][side], j['season'])}")
            lines.append(line)
            hand = j["cards"][side]
            if isinstance(hand, dict):
                lines.append(Text(f"  hand: {hand['count']} cards (hidden)", style="dim"))
            else:
                lines.append(Text("  hand: " + (", ".join(self._card(c) for c in hand) or "empty")
                                  + ("  ('text #N' for a card)" if hand else "")))
            pool = [uid for uid, b in j["blocks"].items() if b["area"] == "pool" and self.units[uid].side == side]
            if seat is not None and i != seat and "unseen_blocks" in j:
                on_map = sum(r["field"] + r["inside"] for r in j["unseen_blocks"].values())
                known = sum(1 for uid in j["blocks"] if self.units[uid].side == side)
                count = sum(1 for u in self.data.units if u.side == side) - known - on_map + len(pool)
                lines.append(Text(f"  pool: {count} blocks face down", style="dim"))
            else:
                lines.append(Text("  pool: " + (", ".join(f"{uid} {self.units[uid].land_rating} "
                                                          f"{TYPE_SHORT.get(self.units[uid].type, '')}"
                                                          for uid in pool) or "empty"), style="dim"))
        return lines

    def _cards_line(self, j, seat) -> Text:
        inplay = ", ".join(self._card(c) for c in j["cards"]["in_play"]) or "none"
        played = ", ".join(f"#{c}" for c in j["cards"]["played"]) or "none"
        unseen = len(j["cards"].get("unseen", j["cards"].get("deck", [])))
        return Text(f"In play: {inplay}. Played this year: {played}. "
                    f"{'Unseen' if seat is not None else 'Deck'}: {unseen} cards.")

    def _battle(self, j) -> list:
        b = j["machine"]["b_area"]
        if not (isinstance(b, int) and 0 <= b < len(self.data.areas)):
            return []
        area = self.data.areas[b]
        m = j["machine"]
        kind = ("battle", "assault", "Treachery assault", "battle")[m["b_kind"]] if 0 <= m["b_kind"] < 4 else "battle"
        attacker = SIDES[m["b_att"]] if m["b_att"] in (0, 1) else "?"
        return [Text(f"{kind.upper()} in {area.name} ({area.id}), round {m['b_round'] + 1}, attacker {attacker}",
                     style="bold yellow")]

    def _here(self, j, area_id: str, inside: bool, sea: bool) -> Text:
        out = Text()
        for uid, b in j["blocks"].items():
            if b["area"] == area_id and b["inside"] == inside:
                side = self.units[uid].side
                if out:
                    out.append(", ")
                out.append(self._block(uid, b, sea), style=STYLE[side].replace("bold ", ""))
        hidden = j.get("unseen_blocks", {}).get(area_id, {}).get("inside" if inside else "field", 0)
        if hidden:
            enemy = SIDES[1 - SIDES.index(j["observer"])]
            if out:
                out.append(", ")
            out.append(f"?x{hidden}", style=STYLE[enemy])
        return out

    def _site(self, j, a) -> Text:
        if a.site_type == "none":
            return Text("-", style="dim")
        if a.site_type == "settlement":
            return Text(f"{a.site_name} (settlement)", style="dim")
        city = j["cities"][a.id]
        ctl = j["control"][a.id]
        owner = ctl["city"]
        out = Text(f"{a.site_name} {a.site_type} {a.value}", style=STYLE.get(owner, "dim").replace("bold ", ""))
        out.append(f" [{'A' if a.loyalty == 'Athens' else 'S' if a.loyalty == 'Sparta' else 'n'}]")
        marks = [short for short, _ in city_marks(city, ctl)]
        if marks:
            out.append(" " + " ".join(marks), style="bold yellow")
        return out

    def _near(self, a) -> str:
        names = [self._area(n) for n in a.neighbours]
        names += [f"~{self._area(s)}" for s in a.coasts] if not a.sea else [f"({self._area(s)})" for s in a.coasts]
        return ", ".join(names) or "-"

    def _shown(self, j, a) -> bool:
        """An area worth a row: blocks there, or a city marker (siege, pillage, garrison, held, Civil War)."""
        if any(b["area"] == a.id for b in j["blocks"].values()) or a.id in j.get("unseen_blocks", {}):
            return True
        city = j["cities"].get(a.id)
        return bool(city and (city["held_by"] or city["garrison"] or city["pillaged"] or city["civil_war"]
                              or j["control"][a.id]["besieged"]))

    def _map(self, j, seat):
        title = ("Areas with blocks or markers (blocks: id rating type steps/max; ?xN unseen enemy blocks; "
                 "inside: in the city)")
        t = Table(title=title, title_justify="left", box=None, padding=(0, 1), pad_edge=False)
        for col in ("area", "control", "city", "inside", "field", "next to"):
            t.add_column(col, overflow="fold")
        lines = [Text(title, style="italic")]
        rest = []
        for a in self.data.areas:
            if not self._shown(j, a):
                rest.append(a)
                continue
            ctrl = j["control"][a.id]["area"]
            name = Text(f"{'~' if a.sea else ''}{a.name} {a.id}", style="blue" if a.sea else "bold")
            control = Text(ctrl or "-", style=STYLE.get(ctrl, "dim"))
            site = self._site(j, a) if not a.sea else Text("")
            inside = self._here(j, a.id, True, False)
            field = self._here(j, a.id, False, a.sea)
            t.add_row(name, control, site, inside or Text("-", style="dim"), field or Text("-", style="dim"),
                      Text(self._near(a), style="dim"))
            line = name.copy()
            line.append(": ")
            line.append_text(control)
            if not a.sea:
                line.append(" | ")
                line.append_text(site)
            if inside:
                line.append(" | inside: ")
                line.append_text(inside)
            if field:
                line.append(" | " + ("fleets" if a.sea else "field") + ": ")
                line.append_text(field)
            line.append(f" | next to {self._near(a)}", style="dim")
            lines.append(line)
        empty = Text("No blocks: " + ", ".join(f"{'~' if a.sea else ''}{a.name}" for a in rest)
                     + " ('text NAME' for an area)", style="dim")
        return Group(ByWidth(t, Group(*lines)), empty)

    # --- the decision ---------------------------------------------------------------------------------------
    def decision(self, state, seat, legal):
        step = state.step_name()
        j = self._obs(state, seat)
        lines = []
        help_ = STEP_HELP.get(step)
        m = j["machine"]
        unit = {"move-dest": m["unit"], "withdraw": m["wd_unit"], "retreat": m["r_unit"],
                "forced": m["unit"]}.get(step)
        if help_:
            text = help_
            if isinstance(unit, int) and 0 <= unit < len(self.data.units):
                u = self.data.units[unit]
                b = j["blocks"].get(u.id)
                text += f" The unit: {u.id} {u.name}" + (f" ({self._block(u.id, b).split(' ', 1)[1]})" if b
                                                          else "") + "."
            if step in ("move-unit", "move-dest") and isinstance(m["group"], int) and \
                    0 <= m["group"] < len(self.data.areas):
                text += f" The group moves from {self.data.areas[m['group']].name}."
            if step == "action":
                text += f" Actions left: {m['actions']}."
            lines.append(Text(text, style="italic"))
        gloss = self._gloss(state, legal)
        kinds = [(what, [g for g in gloss if g[0] == what]) for what in ("areas", "blocks", "cards")]
        named = "; ".join(f"{what}: {', '.join(g[1] for g in these)}" for what, these in kinds if these)
        if named:
            lines.append(Text("Named here: " + named, style="dim"))
        return Group(*lines) if lines else None

    def _gloss(self, state, legal) -> list[tuple[str, str]]:
        """What the names in the legal moves are, each once: ("areas" | "blocks" | "cards", words)."""
        out, seen = [], set()
        for a in legal:
            word, _, name = state.action_to_str(a).partition(":")
            if not name or name in seen or word in ("bid", "pick"):
                continue
            seen.add(name)
            if name in self.areas:
                out.append(("areas", f"{name} {self._area(name)}"))
            elif name in self.units:
                out.append(("blocks", f"{name} {self.units[name].name}"))
            elif name.isdigit() and int(name) in self.cards:
                out.append(("cards", self._card(int(name))))
        return out

    # --- words ----------------------------------------------------------------------------------------------
    def legend(self) -> str:
        return "\n".join([
            "Prestige: one net track; @ marks the lead, blue to the left Athens, red to the right Sparta, ':' the",
            "  minor and major victory levels, the ends an automatic victory.",
            "Blocks: A5 A1 arc 2/2 = block A5, rating A1 (letter: who fires first; digit: hits on that or less),",
            "  archers, 2 steps of 2. Types: hop hoplites, arc archers, cav cavalry, inf infantry, flt fleet",
            "  (its rating at sea when at sea). ?x3: three enemy blocks you have not seen (position only); an",
            "  enemy block shown by id was revealed in combat, as it was then.",
            "Areas: control (whose area), its city: name, city/port, value, [A]/[S] loyal to Athens/Sparta,",
            "  [n] neutral (no entry); 'held by' captured against its loyalty; BESIEGED; g:A/g:S a garrison;",
            "  P pillaged this year; CW Civil War. inside: blocks in the city; field: blocks outside it.",
            "  ~Sea: a sea the area coasts on; (Area): the coasts of a sea.",
            "Cards: #N event [coins]; 'text #N' for what the event does; hands of the enemy are counts.",
            "Moves: move:LA10 a group move from Attica, unit:A5 the next unit, to:LA09 its destination,",
            "  event:N / actions:N a card's use, yes / pass. 'Named here' under a decision names its areas.",
            "Commands: 'text #30' a card, 'text Attica' or 'text LA10' an area, 'text S5' a roster block.",
        ])

    def texts(self) -> dict[str, str]:
        out = {}
        for card in self.data.cards:
            ev = self.event_texts.get(card.event, {})
            who = {"red": "Sparta only", "blue": "Athens only", "green": "either side"}.get(card.colour, card.colour)
            cond = f" Condition: {card.condition.replace('_', ' ')}." if card.condition else ""
            coins = f"{card.actions} coin{'s' if card.actions != 1 else ''}"
            out[f"#{card.id}"] = (f"{self._event(card)}: {coins} for actions, or the event ({who}"
                                  f"{', continuing' if card.continuing else ''}"
                                  f"{', not at the New Year' if card.ny_forbidden else ''}).{cond} "
                                  f"{ev.get('text', '')}")
        for a in self.data.areas:
            if a.sea:
                kinds = ", ".join(f"{self._area(n)} ({k})" for n, k in sorted(a.borders.items()))
                text = f"sea area; next to {kinds or '-'}; coasts: {', '.join(self._area(c) for c in a.coasts)}"
            else:
                site = "no city" if a.site_type == "none" else (
                    f"{a.site_name}, a {a.nationality.replace('_', ' ')} barbarian settlement"
                    if a.site_type == "settlement" else
                    f"{a.site_name}: {a.site_type}, value {a.value}, capacity {a.capacity}, nationality "
                    f"{a.nationality.replace('_', ' ')}, loyal to {a.loyalty}" + (", capital" if a.capital else "")
                    + (", NEUTRAL: no entry" if a.neutral else "")
                    + (f", subject region {a.subject_region}" if a.subject_region else "")
                    + (f", offshore sea {self._area(a.offshore_sea)}" if a.offshore_sea else "")
                    + (f"; {walls_words(self.data.rules)}" if a.is_city else ""))
                text = f"land area; {site}; next to {self._near(a)}"
            out[a.id] = out[a.name] = f"{a.name} ({a.id}), {text}"
        for u in self.data.units:
            out[u.id] = (f"{u.name} ({u.side}): {u.nationality.replace('_', ' ')} {u.type}, land rating "
                         f"{u.land_rating}" + (f", sea rating {u.naval_rating}" if u.naval_rating else "")
                         + f", up to {u.max_steps} steps, speed "
                         + (f"{u.sea_speed} at sea" if u.type == "fleet" else f"{u.land_speed}")
                         + (", elite" if u.elite else "") + (", barbarian" if u.barbarian else "")
                         + (f", starts in {self._area(u.start_area)}" if u.start_area != "pool" else
                            ", starts in the pool"))
        return out

    def explain(self, state, seat: int, action: int) -> str:
        """What the move names and does; what it changes in the seat's view (the enemy's hidden blocks stay
        unknown: the state here is a sample of them, so nothing learnt about them is said)."""
        name = state.action_to_str(action)
        gloss = self._gloss(state, [action])
        step = state.step_name()
        out = f"{name}: " + (f"{gloss[0][1]}. " if gloss else "")
        if step == "card":
            # the card is revealed with the enemy's, which this (sampled) state only guesses: say what it does
            use, _, cid = name.partition(":")
            card = self.cards[int(cid)]
            if use == "event":
                return out + f"Its event, revealed with the enemy's card: {self.texts()['#' + cid]}"
            if state.observation(seat)["season"] == "New Year":
                return out + "A sacrifice at the New Year: the card is spent for Olympian favour."
            return out + f"For actions: {card.actions} coin{'s' if card.actions != 1 else ''}, plus your leader's " \
                         "and events' bonuses."
        after = state.clone()
        after.apply(action)
        changes = self.differences(state, after, seat, identities=False)
        help_ = STEP_HELP.get(step, "")
        out += help_.split(":")[0] + ". " if help_ else ""
        return out + ("Then: " + "; ".join(changes[:10]) if changes
                      else "Nothing you can see changes yet (a step of a longer move).")

    def change(self, before, after, action: int, seat: int) -> str:
        """One line for a move, as ``seat`` saw it: its name (a yes or pass with what it meant), or, for a move the
        seat may not see, what kind of move it was, never its name; then what changed."""
        mover = before.current_player()
        if mover < 0:
            return super().change(before, after, action, seat)
        self._follow(before)
        name = self.seat_name(mover)
        step = before.step_name()
        changes = self.differences(before, after, seat)
        if before.action_observation(action, seat) != action or self._names_an_unseen_block(before, after, action,
                                                                                            seat):
            text = f"({HIDDEN_MOVES.get(step, 'a move you cannot see')})"
            changes = [c for c in changes if c not in (f"{name} chose a card", f"{name} made a bid")]
        else:
            text = before.action_to_str(action)
            meaning = YES_PASS.get(step, ("", ""))[text == "pass"] if text in ("yes", "pass") else ""
            if meaning:
                text += f" ({meaning})"
        more = f"  ({'; '.join(changes[:4])}{' ...' if len(changes) > 4 else ''})" if changes else ""
        return f"{name}: {text}{more}"

    def _names_an_unseen_block(self, before, after, action: int, seat: int) -> bool:
        """The move names an enemy block the seat has not seen (before or after it): its name stays unsaid even
        where the engine's action_observation would pass it on."""
        name = before.action_to_str(action).partition(":")[2]
        if name not in self.units or self.units[name].side == SIDES[before.side_of(seat)]:
            return False
        return name not in self._obs(before, seat)["blocks"] and name not in self._obs(after, seat)["blocks"]

    def differences(self, before, after, seat: int, identities: bool = True) -> list[str]:
        """What a move changed, in the game's words: prestige, season, cards, blocks, control, sieges, markers."""
        a, b = self._obs(before, seat), self._obs(after, seat)
        out = []
        if (a["year"], a["season"]) != (b["year"], b["season"]):
            out.append(f"{b['season']} {b['year']} BC")
        if a["prestige"] != b["prestige"]:
            p = b["prestige"]
            out.append(f"prestige {'even' if p == 0 else f'Sparta +{p}' if p > 0 else f'Athens +{-p}'}")
        if a["step"] in SIDE_STEPS:                 # the bids (seat i in side i's slots), then the sides set
            if b["step"] not in SIDE_STEPS:
                swap = b["machine"]["swap"]
                return out + [f"sides set: seat 0 plays {SIDES[swap]}, seat 1 plays {SIDES[1 - swap]}"]
            for i, side in enumerate(SIDES):
                if a["commit"][side] != b["commit"][side] and b["commit"][side]:
                    out.append(f"seat {i} made a bid")
                if a["play"][side] != b["play"][side] and b["play"][side]:
                    out.append(f"seat {i} bid {b['play'][side].split(':')[1]} prestige")
            return out
        for side in SIDES:
            if a["play"][side] != b["play"][side] and b["play"][side]:
                out.append(f"{side} plays {self._play(b['play'][side], b['season'])}")
            if a["commit"][side] != b["commit"][side] and b["commit"][side]:
                out.append(f"{side} chose a card")
            if a["leaders"][side] != b["leaders"][side]:
                out.append(f"{side} leader {self._card(b['leaders'][side]) if b['leaders'][side] else 'none'}")
            if a["favours"][side] != b["favours"][side]:
                out.append(f"{side} favour {b['favours'][side]}")
            ha, hb = a["cards"][side], b["cards"][side]
            if isinstance(hb, dict):
                if ha != hb:
                    out.append(f"{side} hand {hb['count']} cards")
            elif ha != hb:
                came = [c for c in hb if c not in ha]
                if came:
                    out.append(f"{side} hand +" + " +".join(f"#{c}" for c in came))
        for c in b["cards"]["in_play"]:
            if c not in a["cards"]["in_play"]:
                out.append(f"#{c} in play")
        for uid, y in b["blocks"].items():
            x = a["blocks"].get(uid)
            if x is None:
                if identities and y["area"] == "pool":
                    out.append(f"{uid} {self.units[uid].name} back to the pool")
                elif identities:
                    out.append(f"{uid} revealed in {self._area(y['area'])} ({self._block(uid, y)})")
                continue
            if x["area"] != y["area"]:
                out.append(f"{uid} {self._area(x['area']) if x['area'] != 'pool' else 'pool'} -> "
                           f"{self._area(y['area']) if y['area'] != 'pool' else 'pool'}")
            elif x["inside"] != y["inside"]:
                out.append(f"{uid} {'into' if y['inside'] else 'out of'} the city")
            if x["steps"] != y["steps"] and y["area"] != "pool":
                out.append(f"{uid} {x['steps']}->{y['steps']} steps")
        ua, ub = a.get("unseen_blocks", {}), b.get("unseen_blocks", {})
        moved = {area: sum(ub.get(area, {}).values()) - sum(ua.get(area, {}).values())
                 for area in sorted(set(ua) | set(ub))}
        gone = [area for area, d in moved.items() if d < 0]
        came = [area for area, d in moved.items() if d > 0]
        if len(gone) == 1 and len(came) == 1 and moved[gone[0]] == -moved[came[0]]:
            n = moved[came[0]]
            out.append(f"{n} unseen enemy block{'s' if n > 1 else ''} {self._area(gone[0])} -> "
                       f"{self._area(came[0])}")
        else:
            for area, d in moved.items():
                if d:
                    before_n = sum(ua.get(area, {}).values())
                    out.append(f"unseen enemy blocks in {self._area(area)} {before_n}->{before_n + d}")
        for area, d in moved.items():
            went_in = ub.get(area, {}).get("inside", 0) - ua.get(area, {}).get("inside", 0)
            if not d and went_in:
                out.append(f"{abs(went_in)} unseen enemy block{'s' if abs(went_in) > 1 else ''} "
                           f"{'into' if went_in > 0 else 'out of'} the city of {self._area(area)}")
        for area, y in b["control"].items():
            x = a["control"][area]
            if x["area"] != y["area"]:
                out.append(f"{self._area(area)} now {y['area'] or 'uncontrolled'}")
            if x["city"] != y["city"]:
                out.append(f"{self.areas[area].site_name or area} city now {y['city'] or 'uncontrolled'}")
            if x["besieged"] != y["besieged"]:
                out.append(f"{self._area(area)} {'besieged' if y['besieged'] else 'siege lifted'}")
        for area, y in b["cities"].items():
            x = a["cities"][area]
            for key, word in (("pillaged", "pillaged"), ("civil_war", "Civil War"), ("garrison", "garrison"),
                              ("held_by", "held by")):
                if x[key] != y[key] and y[key]:
                    out.append(f"{self._area(area)} {word}" + (f" {y[key]}" if isinstance(y[key], str) else ""))
        return out

    def end_reason(self, state) -> str:
        from engine.games.hellas import codec
        self._follow(state)
        j = codec.to_json(state)
        p = j["prestige"]
        lead = "even" if p == 0 else f"Sparta leads by {p}" if p > 0 else f"Athens leads by {-p}"
        level = j["level"]
        rules = self.data.rules
        if level == "automatic":
            return (f"{j['winner']} wins an automatic victory in {j['year']} BC ({lead}; the automatic lead is "
                    f"{rules['AUTO_VICTORY_LEAD']}, or a capital fell)")
        if level == "truce":
            return f"a truce ended the war in {j['year']} BC ({lead}): {j['winner']} wins"
        levels = rules["VICTORY_LEVELS"]
        if level == "draw" or j["winner"] == "draw":
            return (f"the last year ended with prestige {lead}, under the minor victory level "
                    f"({levels['minor']}): a draw")
        return (f"{j['winner']} wins {LEVEL_WORDS.get(level, level)} at the end of the scenario ({lead}; minor "
                f"from {levels['minor']}, major from {levels['major']})")

"""A text view of Hellas for one seat: own blocks shown, unrevealed enemy blocks as '?' (spec 7.2); which side each
seat plays (spec 5.13)."""
from engine.games.hellas.codec import SIDES, season_names
from engine.games.hellas.words import seats_words


def render(state, observer=None):
    data = state.game.data
    raw = state._raw() if observer is None else state._raw_view(observer)
    truth = state._raw()
    me = None if observer is None else state.side_of(observer)          # the side the observer's seat plays
    lead = raw["prestige"]
    who = "nobody" if lead == 0 else f"Sparta by {lead}" if lead > 0 else f"Athens by {-lead}"
    year = data.scenario["first_year"] - raw["year"]
    lines = [f"Hellas {year} BC, {season_names(data)[raw['season']]} - step {state.step_name()}"
             f" - prestige: {who}" + (f" - view of {SIDES[me]} (seat {observer})" if observer is not None else ""),
             "  " + seats_words(state)]
    ids = [c.id for c in data.cards]
    for i, side in enumerate(SIDES):
        leader = raw["leader"][i]
        hand = [ids[c] for c in range(len(ids)) if (raw["hand"][i] >> c) & 1]
        if me is not None and i != me:
            shown = f"{bin(truth['hand'][i]).count('1')} cards (hidden)"
        else:
            shown = " ".join(f"#{c}" for c in hand) or "-"
        lines.append(f"  {side}: leader {'#%d' % ids[leader] if leader >= 0 else 'none'}, favour "
                     f"{raw['favour'][i]}, hand {shown}")
    inplay = [ids[c] for c in range(len(ids)) if (raw["inplay"] >> c) & 1]
    lines.append("  in play: " + (" ".join(f"#{c} {data.cards[ids.index(c)].event}" for c in inplay) or "-"))
    for a in data.areas:
        i = a.index
        own = []
        for u in data.units:
            if truth["loc"][u.index] != i:
                continue
            seen = me is None or u.side == SIDES[me] or raw["revealed"][u.index] or \
                data.rules["OPEN_BLOCKS"] or not state.sides_set()
            if seen:
                rating = u.naval_rating if a.sea else u.land_rating
                own.append(f"{u.id}{'*' if truth['incity'][u.index] else ''} {rating} "
                           f"{truth['steps'][u.index]}/{u.max_steps}")
        hidden = raw["vcount"][2 * i] + raw["vcount"][2 * i + 1]
        if hidden:
            own.append(f"? x{raw['vcount'][2 * i]} field, x{raw['vcount'][2 * i + 1]} inside")
        site = ""
        if a.is_city:
            holder = raw["cctrl"][i]
            marks = [m for m, on in (("besieged", raw["besieged"][i]), ("pillaged", raw["pillaged"][i]),
                                     ("civil war", raw["civil"][i])) if on]
            gar = raw["garrison"][i]
            site = (f" [{a.site_name} {a.value}, {a.loyalty}"
                    + (f", held by {SIDES[holder]}" if holder >= 0 and SIDES[holder] != a.loyalty else "")
                    + (f", {SIDES[gar]} garrison" if gar >= 0 else "")
                    + ("".join(", " + m for m in marks)) + "]")
        if own or site and (raw["besieged"][i] or raw["occ"][i] >= 0 or raw["pillaged"][i]):
            lines.append(f"  {a.id} {a.name}{site}: " + ("; ".join(own) or "-"))
    return "\n".join(lines)

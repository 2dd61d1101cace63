"""Hellas in words, shared by the picture (svg.py) and the terminal view (console.py): block types, card plays and
city markers said the same way in both."""

TYPE_SHORT = {"hoplite": "hop", "archers": "arc", "cavalry": "cav", "infantry": "inf", "fleet": "flt"}


def city_marks(city: dict, control: dict) -> list[tuple[str, str]]:
    """A city's markers, each as (short, long) words: held against its loyalty, besieged, garrison, pillaged,
    Civil War (the picture's tooltips and the console's map say the same things)."""
    out = []
    if city["held_by"]:
        out.append((f"held by {city['held_by']}", f"held by {city['held_by']} against its loyalty"))
    if control["besieged"]:
        out.append(("BESIEGED", "besieged"))
    if city["garrison"]:
        out.append((f"g:{city['garrison'][0]}", f"{city['garrison']} garrison"))
    if city["pillaged"]:
        out.append(("P", "pillaged this year"))
    if city["civil_war"]:
        out.append(("CW", "Civil War: no double defence this year"))
    return out


def play_words(play: str, season: str) -> str:
    """'actions:44' -> '#44 for actions' (at the New Year: 'as a sacrifice'); 'event:36' -> '#36 as its event';
    'bid:3' (for sides, spec 5.13) -> 'a bid of 3 prestige'."""
    use, _, card = play.partition(":")
    if not card:
        return play
    if use == "bid":
        return f"a bid of {card} prestige"
    if use == "actions" and season == "New Year":
        return f"#{card} as a sacrifice"
    return f"#{card} " + ("as its event" if use == "event" else "for actions")


def walls_words(rules: dict) -> str:
    """What a city's walls do in an assault (spec 6.11, from the rule keys in force)."""
    hits = rules["DOUBLE_DEFENCE_HITS_PER_STEP"]
    return (f"walls: its defenders fire as {rules['FORTIFIED_RATING']} and lose a step to every "
            f"{hits['normal']} hits ({hits['civil_war_or_treachery']} under Civil War or Treachery)")


def seats_words(state) -> str:
    """Which side each seat plays (spec 5.13), or, while SIDE_SELECTION's coin or bids are under way, that they are
    not chosen yet."""
    if not state.sides_set():
        return "sides not chosen yet (a coin or the seats' bids decide them, spec 5.13)"
    sides = ("Athens", "Sparta")
    return f"seat 0 plays {sides[state.side_of(0)]}, seat 1 plays {sides[state.side_of(1)]}"

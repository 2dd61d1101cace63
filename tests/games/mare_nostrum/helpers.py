"""Positions for the Mare Nostrum rules tests, built through to_json / from_json edits."""
from engine.registry import load_game

GAMES = {}


def game(players=5, **options):
    key = (players, tuple(sorted(options.items())))
    if key not in GAMES:
        GAMES[key] = load_game("mare_nostrum", players=players, **options)
    return GAMES[key]


def names():
    return game().names()


def opening(players=5, row=("Hercules", "Circe", "Perseus", "Antigone", "Spartacus"), **options):
    """Round 1 after the heroes display is laid out: the trade leader chooses the exchange value."""
    s = game(players, **options).new_initial_state()
    for card in row:
        s.apply(f"reveal:{card}")
    assert s.step_name() == "exchange"
    return s


def seat(s, empire):
    return [e["empire"] for e in s.to_json()["empires"]].index(empire)


class Pos:
    """A JSON position being edited; .state() validates it through from_json."""

    def __init__(self, s):
        self.g = s.game
        self.obj = s.to_json()
        self.n = names()

    def emp(self, name):
        return next(e for e in self.obj["empires"] if e["empire"] == name)

    def seat(self, name):
        return [e["empire"] for e in self.obj["empires"]].index(name)

    def res(self, name, **res):
        """Set an empire's ordinary resources (the reserve gives or takes the difference)."""
        kinds = self.n["kinds"]
        e = self.emp(name)
        for t, kind in enumerate(kinds):
            new = res.get(kind, 0)
            self.obj["machine"]["supply"][t] += e["resources"][kind] - new
            e["resources"][kind] = new
        return self

    def rare(self, name, goods, shown=()):
        e = self.emp(name)
        m = self.obj["machine"]
        for g in goods:
            bit = 1 << self.n["goods"].index(g)
            m["stack"] &= ~bit
            m["discard"] &= ~bit
        e["rare"] = sorted(set(e["rare"]) | set(goods), key=self.n["goods"].index)
        e["rare_shown"] = sorted(set(e["rare_shown"]) | set(shown), key=self.n["goods"].index)
        return self

    def units(self, name, legions=None, triremes=None, fortresses=None):
        e = self.emp(name)
        if legions is not None:
            e["legions"] = dict(legions)
        if triremes is not None:
            e["triremes"] = dict(triremes)
        if fortresses is not None:
            e["fortresses"] = list(fortresses)
        return self

    def control(self, prov, name):
        self.obj["provinces"][prov]["control"] = name
        return self

    def space(self, prov, space, built=True, occupier=None, circe=None):
        for entry in self.obj["provinces"][prov]["spaces"]:
            if entry[0] == space:
                entry[1], entry[2], entry[3] = built, occupier, circe
                return self
        raise KeyError(space)

    def cards(self, name, cards, target=None):
        self.emp(name)["cards"] = list(cards)
        self.emp(name)["castor_target"] = target
        row = self.obj["machine"]["row"]
        fd = self.obj["machine"]["facedown"]
        for c in cards:
            i = self.n["cards"].index(c) - 5
            if 0 <= i < 17:
                row &= ~(1 << i)
                fd &= ~(1 << i)
        self.obj["machine"]["row"], self.obj["machine"]["facedown"] = row, fd
        return self

    def face_up(self, *cards):
        """Put cards on the heroes and wonders display (taken from the face-down pile)."""
        for c in cards:
            i = self.n["cards"].index(c) - 5
            self.obj["machine"]["row"] |= 1 << i
            self.obj["machine"]["facedown"] &= ~(1 << i)
        return self

    def titles(self, trade, culture, military):
        for e in self.obj["empires"]:
            e["titles"] = [t for t, who in (("trade", trade), ("culture", culture), ("military", military))
                           if who == e["empire"]]
        return self

    def machine(self, **fields):
        self.obj["machine"].update(fields)
        return self

    def state(self):
        return self.g.state_from_json(self.obj)


def play(s, *moves):
    for m in moves:
        s.apply(m)
    return s


def pass_on(s, stop_at=None):
    """Play on with everyone passing (first chance outcome; where passing is not offered, as when choosing the
    next builder or mover, the first legal action) until the game ends or the step `stop_at` comes up."""
    while not s.is_terminal() and s.step_name() != stop_at:
        if s.is_chance_node():
            s.apply(s.chance_outcomes()[0][0])
        else:
            legal = s.legal_actions()
            s.apply("pass" if "pass" in [s.action_to_str(a) for a in legal] else legal[0])
    return s


def res_of(s, empire):
    return {k: v for k, v in s.to_json()["empires"][seat(s, empire)]["resources"].items() if v}


def empty_hands(p):
    for e in p.obj["empires"]:
        p.res(e["empire"])
    return p


def to_build(p, builder):
    """From an edited position: start the build phase and let the culture leader name `builder`."""
    s = p.state()
    s._enter("build")
    while s.step_name() == "choose-builder" and s.current_player() != seat(s, builder):
        s.apply(f"builder:{builder}")
    if s.step_name() == "choose-builder":
        s.apply(f"builder:{builder}")
    if s.step_name() == "perseus":
        s.apply("pass")
    assert s.step_name() == "build" and s.current_player() == seat(s, builder), s.step_name()
    return s


def to_move(p, mover):
    """Start the movement phase; the military leader names `mover` first (a Zeus owner declares no peace)."""
    s = p.state()
    s._enter("move")
    if s.step_name() == "zeus":
        s.apply("pass")
    while s.step_name() == "choose-mover":
        s.apply(f"mover:{mover}")
    return s

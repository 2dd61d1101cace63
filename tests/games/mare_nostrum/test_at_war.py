"""Mare Nostrum rules: occupations end as soon as a province is at war, wherever that happens (spec 5.0 "Building
control" and "At war", rulebook L464-466 and L476: the invader's legions "no longer occupy"), not only after the
battles of a movement turn: also when legions are built in one's own occupied capital province (spec 5.3.4, the
capital exception, L202, L362, L466), when Penthesilea's free legions arrive there (spec 9, L754-762) and when the
Statue of Zeus sends legions home into it (spec 5.4.0, L897-907)."""
from games.mare_nostrum.helpers import Pos, empty_hands, opening, play, to_build


def base():
    return empty_hands(Pos(opening(5)))


def space(s, prov, name):
    return next(e for e in s.to_json()["provinces"][prov]["spaces"] if e[0] == name)


def test_spec5_3_4_L466_L476_building_a_legion_in_ones_occupied_capital_ends_the_occupation():
    p = base().res("Rome", Coin=9).units("Rome", legions={"Dalmatia": 1}, fortresses=[])
    p.units("Greece", legions={"Macedonia": 1, "Achaea": 1, "Italia": 1}).space("Italia", "market", occupier="Greece")
    s = to_build(p, "Rome")
    assert space(s, "Italia", "market")[2] == "Greece"
    play(s, "legion:Italia")
    while s.step_name() == "pay":
        s.apply(s.legal_actions()[0])
    assert s.to_json()["empires"][0]["legions"]["Italia"] == 1
    assert space(s, "Italia", "market")[2] is None           # at war: Greece no longer occupies (L476)
    s.game.state_from_json(s.to_json())                      # and the state stays one from_json accepts


def test_spec5_3_4_L466_L476_a_fortress_in_ones_occupied_capital_ends_the_occupation():
    p = base().res("Rome", Coin=9).units("Rome", legions={"Dalmatia": 1}, fortresses=[])
    p.units("Greece", legions={"Macedonia": 1, "Achaea": 1, "Italia": 1}).space("Italia", "market", occupier="Greece")
    s = to_build(p, "Rome")
    play(s, "fortress:Italia")
    while s.step_name() == "pay":
        s.apply(s.legal_actions()[0])
    assert space(s, "Italia", "market")[2] is None


def test_spec9_L754_762_penthesilea_legions_arriving_in_an_occupied_capital_end_the_occupation():
    p = base().cards("Rome", ["Caesar", "Penthesilea"]).units("Rome", legions={"Dalmatia": 1}, fortresses=[])
    p.units("Greece", legions={"Achaea": 1, "Gallia": 1, "Italia": 1}).space("Italia", "market", occupier="Greece")
    s = to_build(p, "Rome")
    s.apply("penthesilea")
    assert s.to_json()["empires"][0]["legions"]["Italia"] >= 1
    assert space(s, "Italia", "market")[2] is None


def test_spec5_4_0_L897_907_zeus_sending_legions_home_into_an_occupied_capital_ends_the_occupation():
    # Greece declares peace with Rome: its legion in Roman Dalmatia goes home to Achaea, where Carthage occupies
    # the temple; Achaea is then at war and Carthage's occupation ends.
    p = base().cards("Greece", ["Pericles", "Statue of Zeus"])
    p.units("Greece", legions={"Macedonia": 1, "Dalmatia": 1}, fortresses=[])
    p.units("Carthage", legions={"Hispania": 1, "Achaea": 1}).space("Achaea", "temple", occupier="Carthage")
    s = p.state()
    s._enter("move")
    assert s.step_name() == "zeus"
    s.apply("peace:Rome")
    assert s.to_json()["empires"][1]["legions"] == {"Macedonia": 1, "Achaea": 1}
    assert space(s, "Achaea", "temple")[2] is None
    s.game.state_from_json(s.to_json())

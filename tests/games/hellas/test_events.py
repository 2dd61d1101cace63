"""Hellas rules: revolts (spec 9.3), Helot Uprising and plague (9.4), Winter supply (4.5, 5.7) and the End of Year
(4.5 W5, 5.12).

Each test names its rule: spec section and rulebook line (Lnn of the Russian text) where there is one.
"""
from games.hellas.helpers import edit, spring
from games.hellas.test_year import _winter

ATH, SPA = 0, 1


def _names(s):
    return [s.action_to_str(a) for a in s.legal_actions()]


def test_spec9_3_L272_L280_revolt_then_an_optional_tax_revolt_garrison():
    s = spring(sparta=(5, 12, 22, 28, 34, 38), ny=("sacrifice:38", "event:36"))   # Athens Raises Taxes in play
    s.apply("event:12")                                                 # Revolt: Ionia (may spread)
    s.apply("actions:7")
    assert s.step_name() == "event-target" and s.current_player() == SPA
    assert _names(s) == ["target:LA24", "target:LA25"]                  # vacant subject cities of Ionia
    s.apply("target:LA24")
    assert _names(s) == ["pass", "target:LA25"]                         # L280: one more per ATR card, "may"
    s.apply("target:LA25")
    cities = s.to_json()["cities"]
    assert cities["LA24"] == {"held_by": "Sparta", "garrison": "Sparta", "pillaged": False, "civil_war": False}
    assert cities["LA25"]["garrison"] == "Sparta"


def test_spec9_4_L286_helot_uprising_takes_a_vacant_spartan_city():
    s = spring(athens=(3, 7, 16, 19, 25, 11), ny=("sacrifice:38", "sacrifice:3"))
    s.apply("actions:22")
    s.apply("event:11")                                                 # Helot Uprising
    assert _names(s) == ["target:LA02"]                                 # Messenia: Sparta (S1-S5), Pylos (S17) are not vacant
    s.apply("target:LA02")
    assert s.to_json()["cities"]["LA02"]["held_by"] == "Athens"


def test_spec9_4_L290_plague_strikes_the_besieged_but_spares_cadres():
    s = spring(athens=(3, 7, 16, 19, 25, 36), sparta=(5, 9, 22, 28, 34, 38))

    def change(o):
        o["blocks"]["A1"]["area"] = "LA11"
        o["blocks"]["A1"]["inside"] = True                              # 4 steps, shut in Plataea with ...
        o["blocks"]["A11"]["inside"] = True                             # ... a cadre (1 step)
        o["blocks"]["S11"]["area"] = "LA11"
        o["control"]["LA11"] = {"area": "Sparta", "city": "Athens", "besieged": True, "fresh": False}
        o["cards"]["Sparta"][0] = 7                                     # Sparta holds Plague Strikes ...
        o["cards"]["Athens"][1] = 5                                     # ... and Athens card 5
    s = edit(s, change)
    s.apply("event:7")
    s.apply("actions:5")
    assert _names(s) == ["target:LA11"]
    s.apply("target:LA11")
    blocks = s.to_json()["blocks"]
    assert blocks["A1"]["steps"] == 3 and blocks["A11"]["steps"] == 1


def _to_sparta_winter_actions(s):
    while not (s.step_name() == "action" and s.current_player() == SPA):
        assert s.to_json()["season"] == "Winter"
        s.apply("pass" if "pass" in _names(s) else s.legal_actions()[0])
    return s


def test_spec5_7_unsupplied_units_lose_a_step_in_winter():
    def change(o):
        o["blocks"]["S1"]["area"] = "LA07"                              # Achaea: no city
    s = _to_sparta_winter_actions(edit(_winter(431), change))
    assert "supply:LA07" in _names(s)
    assert "move:LA07" in _names(s)                                    # a free refuge move is open (spec 5.8)
    assert not any(n.startswith("pillage:") for n in _names(s))         # no pillage in Winter (WINTER_ACTIONS)
    starved, fed = s.clone(), s
    starved.apply("pass")
    assert starved.to_json()["blocks"]["S1"]["steps"] == 3              # UNSUPPLIED_LOSS: one step
    fed.apply("supply:LA07")
    while fed.current_player() == SPA and fed.step_name() == "action":
        fed.apply("pass")
    assert fed.to_json()["blocks"]["S1"]["steps"] == 4


def test_spec4_5_W5_end_of_year_clears_markers_sends_barbarians_home_and_athens_may_keep_taxes():
    def change(o):
        o["cities"]["LA14"]["pillaged"] = True
        o["blocks"]["S19"].update(area="LA16", steps=3, raised=True)     # a Macedonian barbarian raised this year
        for pile in ("Athens", "Sparta", "deck", "played"):
            if 36 in o["cards"][pile]:
                o["cards"][pile].remove(36)
        o["cards"]["in_play"].append(36)                                # Athens Raises Taxes in play
    s = edit(_winter(431), change)
    while s.step_name() != "taxes-keep":
        s.apply("pass" if "pass" in _names(s) else s.legal_actions()[0])
    obj = s.to_json()
    assert not obj["cities"]["LA14"]["pillaged"] and obj["blocks"]["S19"]["area"] == "pool"
    assert s.current_player() == ATH and _names(s) == ["pass", "yes"]   # L312: at any Year End
    s.apply("yes")
    assert 36 not in s.to_json()["cards"]["in_play"] and s.to_json()["year"] == 430

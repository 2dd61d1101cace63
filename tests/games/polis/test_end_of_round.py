"""Spec 4.4 (end of round, steps 1-7) and section 8 (sudden death, scoring, tie-breaks)."""
from .helpers import G, edit, fresh, names, play, player, set_round


def _fed(j, sparta_wheat=7, athens_wheat=8):
    j["players"]["sparta"]["wheat"] = sparta_wheat
    j["players"]["athens"]["wheat"] = athens_wheat


def _end(fn):
    s = edit(fresh(), fn)
    play(s, "pass", "pass")                 # Sparta passes first (first passer), then Athens
    return s


def test_4_4_step1_projects_complete_for_controller_L626_L630():
    """Spec 4.4 step 1 (L626-634): started projects complete; the controller gains round prestige; a project on
    a neutral polis completes but scores nobody."""
    def fn(j):
        _fed(j)
        j["projects"]["display"].remove("Myron")
        j["projects"]["display"].remove("Aphrodite")
        j["projects"]["started"] = {"Athens": ["Myron"], "Gela": ["Aphrodite"]}
    s = _end(fn)
    j = s.to_json()
    assert j["projects"]["completed"] == {"Athens": ["Myron"], "Gela": ["Aphrodite"]}
    assert j["players"]["athens"]["prestige"] == 3 + 2 and j["players"]["sparta"]["prestige"] == 3


def test_4_4_step2_food_paid_in_wheat_L636():
    """Spec 4.4 step 2 (L636-638): each player spends wheat equal to its population."""
    s = _end(lambda j: _fed(j, 9, 8))
    j = s.to_json()
    assert j["phase"] == "growth" and j["active"] == "sparta"        # 2 wheat left: Sparta may grow
    assert j["players"]["athens"]["wheat"] == 0 and j["players"]["sparta"]["wheat"] == 2


def test_4_4_step2_food_deficit_release_or_prestige_L640_A19():
    """Spec 4.4 step 2 (L640-642, A19): release non-capital poleis and/or pay 1 prestige per missing wheat."""
    s = _end(lambda j: _fed(j, 3, 8))
    assert s.to_json()["phase"] == "food" and s.current_player() == 1
    assert names(s) == ["release:Gytheion", "release:Pylos"]          # 3 prestige cannot cover a deficit of 4
    s.apply("release:Pylos")
    j = s.to_json()
    assert j["poleis"]["Pylos"] == {"owner": None, "pop": 0, "siege": {"athens": 0, "sparta": 0}}
    assert names(s) == ["done", "release:Gytheion"]
    s.apply("done")
    j = s.to_json()
    assert j["players"]["sparta"]["prestige"] == 1 and j["players"]["sparta"]["wheat"] == 0


def test_8_1_only_capital_unfed_loses_L700():
    """Spec 8.1.3 (L700): controlling only the capital and unable to feed it with wheat and prestige loses."""
    def fn(j):
        _fed(j, 0, 8)
        for p in ("Pylos", "Gytheion"):
            j["poleis"][p].update(owner=None, pop=0)
    s = _end(fn)
    assert s.is_terminal() and s.returns() == [1.0, 0.0]


def test_4_4_step3_growth_limits_L644_L652():
    """Spec 4.4 step 3 (L644-652): 1 wheat per cube; per polis at most max growth and never above max pop."""
    s = _end(lambda j: _fed(j, 7, 14))
    assert s.current_player() == 0 and s.to_json()["phase"] == "growth"
    assert names(s) == ["done", "grow:Athens", "grow:Chalcis", "grow:Chios"]
    play(s, "grow:Athens", "grow:Athens", "grow:Athens")
    assert "grow:Athens" not in names(s)                             # Athens max growth 3 (L652)
    play(s, "grow:Chalcis")
    assert "grow:Chalcis" not in names(s)                            # Chalcis max population 2
    s.apply("done")
    j = s.to_json()
    assert j["poleis"]["Athens"]["pop"] == 8 and j["poleis"]["Chalcis"]["pop"] == 2
    # step 4, megalopolis (L654-660): Athens 8 > 5 and Chalcis 2 > 1 -> +2 prestige
    assert j["players"]["athens"]["prestige"] == 5


def test_4_4_step5_spoilage_halves_wine_and_wheat_up_L664():
    """Spec 4.4 step 5 (L664-672): wine and wheat become ceil(x/2); other resources stay."""
    def fn(j):
        _fed(j, 12, 8)
        j["players"]["sparta"].update(wine=5, iron=5)
    s = _end(fn)
    play(s, "done")                                                  # Sparta declines to grow
    sp = player(s, "sparta")
    assert (sp["wine"], sp["wheat"], sp["iron"]) == (3, 3, 5)


def test_4_4_step6_phoros_L674_L680():
    """Spec 4.4 step 6 (L674-680): 1 prestige -> 1 silver or 2 prestige -> 3 silver, first passer first."""
    s = _end(_fed)
    assert s.to_json()["phase"] == "phoros" and s.current_player() == 1
    assert names(s) == ["phoros:0", "phoros:1", "phoros:2"]
    s.apply("phoros:2")
    assert (player(s, "sparta")["prestige"], player(s, "sparta")["silver"]) == (1, 7)
    assert s.current_player() == 0


def test_4_4_step7_preparation_L682_L692():
    """Spec 4.4 step 7 (L682-692): discs off, one black cube off each market, merchants home, display replaced by
    5 new tiles of which the least-prestige player removes one; then sigma starts with its event revealed."""
    def fn(j):
        _fed(j)
        j["regions"]["Laconia"]["tribute"] = "sparta"
        j["poleis"]["Thebes"]["siege"]["athens"] = 1
        j["regions"]["Boeotia"]["athens"] = 1
        j["regions"]["Attica"]["athens"] = 2
        j["market"]["cells"][0]["merchant"] = "athens"
        j["players"]["athens"]["merchants_on_port"] = 0
    s = _end(fn)
    play(s, "phoros:1", "phoros:0")
    j = s.to_json()
    assert j["phase"] == "tile-draw" and j["projects"]["display"] == [] and len(j["projects"]["removed"]) == 3
    assert j["regions"]["Laconia"]["tribute"] is None and j["poleis"]["Thebes"]["siege"]["athens"] == 0
    assert j["market"]["cells"][0]["merchant"] is None and j["players"]["athens"]["merchants_on_port"] == 1
    cells = {(c["market"], c["rate"]): c["blocked"] for c in j["market"]["cells"]}
    assert cells[("Persia", 4)] is False and cells[("Persia", 5)] is True and cells[("Illyria", 4)] is False
    assert len(s.chance_outcomes()) == 11
    play(s, "draw:Zeus", "draw:Apollo", "draw:Skene", "draw:Orchestra", "draw:Socrates")
    assert s.to_json()["phase"] == "tile-remove" and s.current_player() == 1     # Sparta 2 < Athens 3 prestige
    s.apply("discard:Zeus")
    j = s.to_json()
    assert sorted(j["projects"]["display"]) == ["Apollo", "Orchestra", "Skene", "Socrates"]
    assert j["round"] == "sigma" and j["events"]["revealed"] == 2 and s.current_player() == 1   # less prestige


def test_4_4_end_of_sigma_draws_the_remaining_six_R4():
    """Spec 7.1 R4 / 4.4 step 7 (L690-692): after sigma the last 6 tiles are all drawn, then one is removed."""
    def fn(j):
        set_round(j, "sigma")
        _fed(j)
        pr = j["projects"]
        pr["removed"] = pr["display"] + pr["pile"][:5]
        pr["display"] = []
        pr["pile"] = pr["pile"][5:]
        j["events"]["revealed"] = 2
    s = _end(fn)
    play(s, "phoros:0", "phoros:0")
    j = s.to_json()
    assert j["phase"] == "tile-remove" and len(j["projects"]["display"]) == 6 and j["projects"]["pile"] == []


def test_8_1_exactly_zero_prestige_after_round_loses_L698():
    """Spec 8.1.2 (L698): a player with exactly 0 prestige after the end-of-round steps loses."""
    s = _end(lambda j: _fed(j) or j["players"]["sparta"].update(prestige=0))
    play(s, "phoros:0")
    play(s, "draw:Zeus", "draw:Apollo", "draw:Skene", "draw:Orchestra", "draw:Socrates", "discard:Zeus")
    assert s.is_terminal() and s.returns() == [1.0, 0.0]


def test_8_1_both_at_zero_is_a_draw_A22():
    """Spec 8.1 (ASSUMED A22): both at 0 prestige after the steps: a draw."""
    s = _end(lambda j: _fed(j) or j["players"]["sparta"].update(prestige=0) or j["players"]["athens"].update(prestige=0))
    play(s, "draw:Zeus", "draw:Apollo", "draw:Skene", "draw:Orchestra", "draw:Socrates", "discard:Zeus")
    assert s.is_terminal() and s.returns() == [0.5, 0.5]


def _omega(fn):
    def g(j):
        set_round(j, "omega")
        j["events"]["revealed"] = 3
        pr = j["projects"]
        pr["removed"] += pr["pile"]
        pr["pile"] = []
        _fed(j)
        fn(j)
    return _end(g)


def test_8_2_omega_ends_after_megalopolis_and_scores_L701_L711():
    """Spec 8.2-8.3 (L662, L701-711): omega stops after step 4; score = population + prestige + end-game project
    prestige of completed projects on own poleis (Myron: +2 now, +3 at the end)."""
    def fn(j):
        j["projects"]["display"].remove("Myron")
        j["projects"]["started"] = {"Athens": ["Myron"]}
        j["players"]["athens"]["wine"] = 9                       # no spoilage in omega
    s = _omega(fn)
    assert s.is_terminal()
    j = s.to_json()
    assert j["players"]["athens"]["wine"] == 9 and j["winner"] == "score"
    assert s.scores() == [8 + (3 + 2) + 3, 7 + 3]
    assert s.returns() == [1.0, 0.0]


def test_8_3_tie_broken_by_resources_then_draw_L711_A24():
    """Spec 8.3 (L711, A24): equal scores: more resources (sum) wins; still equal: a shared draw."""
    def fn(j, extra):
        j["players"]["sparta"]["prestige"] = 4                   # 7 + 4 = 11 = 8 + 3
        for r in ("iron", "wood", "wine", "silver"):
            j["players"]["athens"][r] = j["players"]["sparta"][r] = 2
        j["players"]["athens"]["iron"] += extra
    s = _omega(lambda j: fn(j, 1))
    assert s.scores() == [11, 11] and s.returns() == [1.0, 0.0]
    s = _omega(lambda j: fn(j, 0))
    assert s.returns() == [0.5, 0.5]

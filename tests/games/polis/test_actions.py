"""Spec section 5: the eleven actions, ransom and their preconditions, costs and limits."""
import pytest

from .helpers import G, clear_units, edit, fresh, names, play, player, set_round


# --- 5.0 / 5.1 train hoplites, stacking limit ---------------------------------------------------------------------
def test_5_1_train_example_pylos_sigma_L267():
    """Spec 5.1 (L267): sigma, Pylos at 3, 2 Spartan hoplites in Messenia (limit 4) -> may train at most 2."""
    def fn(j):
        set_round(j, "sigma")
        j["poleis"]["Pylos"]["pop"] = 3
        j["regions"]["Messenia"]["sparta"] = 2
    s = play(edit(fresh(), fn), "train", "at:Pylos")
    assert names(s) == ["count:1", "count:2"]
    play(s, "count:2", "silver:0")
    j = s.to_json()
    assert j["regions"]["Messenia"]["sparta"] == 4 and j["poleis"]["Pylos"]["pop"] == 1
    assert j["players"]["sparta"]["iron"] == 2


def test_5_0_stacking_limit_alpha_3_blocks_training_L259():
    """Spec 5.0 (L259): alpha limit 3: Laconia already holds 3 Spartan hoplites, so no training in Sparta."""
    s = play(fresh(), "train")
    assert names(s) == ["at:Pylos"]          # Sparta/Gytheion are in full Laconia; Gytheion also has pop 1


def test_5_1_train_payment_mixes_iron_and_silver_A33():
    """Spec 5.1 (ASSUMED A33): each hoplite costs 1 iron or 1 silver, mixed as the player chooses."""
    s = edit(fresh(), lambda j: j["players"]["sparta"].update(iron=1, silver=4) or j["poleis"]["Pylos"].update(pop=3))
    play(s, "train", "at:Pylos", "count:2")
    assert names(s) == ["silver:1", "silver:2"]
    s.apply("silver:1")
    assert (player(s, "sparta")["iron"], player(s, "sparta")["silver"]) == (0, 3)


# --- 5.2 build galleys ----------------------------------------------------------------------------------------
def test_5_2_build_example_chalcis_sigma_L283():
    """Spec 5.2 (L283): sigma, Chalcis at 2 with 3 Athenian galleys in the Cyclades -> 1 galley for 1 wood."""
    def fn(j):
        set_round(j, "sigma")
        j["poleis"]["Chalcis"]["pop"] = 2
        j["seas"]["Cyclades"]["athens"] = 3
        j["active"] = "athens"
    s = play(edit(fresh(), fn), "build", "at:Chalcis")
    assert names(s) == ["galleys:1>Cyclades"]
    s.apply("galleys:1>Cyclades")
    j = s.to_json()
    assert j["seas"]["Cyclades"]["athens"] == 4 and j["players"]["athens"]["wood"] == 3


def test_5_2_no_port_no_galleys_sparta_thebes_L279():
    """Spec 5.2 (L279): Sparta has no port, so it never appears as a place to build galleys."""
    s = play(fresh(), "build")
    assert "at:Sparta" not in names(s) and "at:Pylos" in names(s)


def test_5_2_corinth_builds_to_either_sea_L279():
    """Spec 5.2 (L279): Corinth's two ports: galleys may go to the Cyclades and the Ionian Sea in one action."""
    def fn(j):
        j["poleis"]["Corinth"].update(owner="sparta", pop=4)
    s = play(edit(fresh(), fn), "build", "at:Corinth")
    assert "galleys:0>Cyclades" in names(s)
    play(s, "galleys:1>Cyclades")
    assert names(s) == ["galleys:0>Ionian", "galleys:1>Ionian", "galleys:2>Ionian"]
    play(s, "galleys:2>Ionian", "silver:0")
    j = s.to_json()
    assert j["seas"]["Cyclades"]["sparta"] == 1 and j["seas"]["Ionian"]["sparta"] == 3
    assert j["poleis"]["Corinth"]["pop"] == 1 and j["players"]["sparta"]["wood"] == 1


# --- 5.3 hire merchants -------------------------------------------------------------------------------------------
def test_5_3_hire_merchants_cost_and_effect_L287_L297():
    """Spec 5.3 (L287-297): only in an own trade polis; cubes go to supply, merchants to the port; pop >= 1."""
    s = play(fresh(), "hire")
    assert names(s) == ["at:Pylos"]              # Gytheion has pop 1: must keep a cube (L297)
    play(s, "at:Pylos", "count:1", "silver:1")
    j = s.to_json()
    sp = j["players"]["sparta"]
    assert (sp["merchants"], sp["merchants_on_port"], sp["silver"], j["poleis"]["Pylos"]["pop"]) == (6, 2, 3, 1)
    assert sp["cubes"] == 27


def test_5_3_athens_hires_only_in_athens_L289():
    """Spec 5.3 (L289): Athens may hire only in Athens, never in a captured Spartan trade polis."""
    def fn(j):
        j["active"] = "athens"
        j["poleis"]["Pylos"]["owner"] = "athens"
    s = play(edit(fresh(), fn), "hire")
    assert names(s) == ["at:Athens"]


# --- 5.4 develop project --------------------------------------------------------------------------------------
def test_5_4_develop_myron_with_whole_silver_substitution_L305_L311():
    """Spec 5.4 (L305, L311): Myron costs 2 wood + 3 silver; wood may be replaced by silver entirely, not partly."""
    def fn(j):
        j["active"] = "athens"
        j["players"]["athens"].update(wood=2, silver=5)
    s = play(edit(fresh(), fn), "develop", "project:Myron", "at:Athens")
    assert names(s) == ["silver-for:none", "silver-for:wood"]
    s.apply("silver-for:wood")
    j = s.to_json()
    assert j["players"]["athens"]["silver"] == 0 and j["players"]["athens"]["wood"] == 2
    assert j["projects"]["started"] == {"Athens": ["Myron"]} and "Myron" not in j["projects"]["display"]


def test_5_4_one_project_per_polis_per_round_L303():
    """Spec 5.4 (L303): no second project in a polis that started one this round."""
    def fn(j):
        j["active"] = "athens"
        j["players"]["athens"].update(wood=6, silver=10)
        j["started_this_round"] = ["Athens"]
    s = edit(fresh(), fn)
    assert "develop" not in names(s)


def test_5_4_project_only_from_display_in_listed_controlled_polis_L303():
    """Spec 5.4 (L303): the tile must be face up and list a polis the player controls."""
    def fn(j):
        j["players"]["sparta"].update(wood=5, iron=5, silver=5)
    s = play(edit(fresh(), fn), "develop")
    assert names(s) == ["project:Aphrodite"]      # Myron/Protagoras list no Spartan polis


# --- 5.5 / 5.6 movement ---------------------------------------------------------------------------------------
def _move_setup(j):
    clear_units(j)
    j["active"] = "athens"
    j["regions"]["Attica"]["athens"] = 2
    j["regions"]["Boeotia"]["sparta"] = 1


def test_5_5_land_path_blocked_by_enemy_control_L358():
    """Spec 5.5 (L358): a crossed region controlled by the opponent blocks a land path (Attica-Boeotia-Thessaly);
    the sea path is open unless its seas are enemy-controlled (L357)."""
    def fn(j):
        _move_setup(j)
        j["seas"]["Cyclades"]["sparta"] = 1        # also blocks the sea route Attica-Cyclades-Thessaly
    s = play(edit(fresh(), fn), "move-hoplites")
    assert "to:Thessaly" not in names(s) and "to:Boeotia" in names(s)   # destination may be enemy-held
    s2 = play(edit(fresh(), _move_setup), "move-hoplites")
    assert "to:Thessaly" in names(s2)                 # by sea through the free Cyclades


def test_5_5_cross_region_at_stacking_limit_forbidden_L359():
    """Spec 5.5 (L359): a region where the mover already has L hoplites cannot be crossed."""
    def fn(j, boeotia):
        clear_units(j)
        j["active"] = "athens"
        j["regions"]["Attica"]["athens"] = 1
        j["regions"]["Boeotia"]["athens"] = boeotia    # 3 = the alpha limit
        j["seas"]["Cyclades"]["sparta"] = 1            # and no sea path
    s = play(edit(fresh(), lambda j: fn(j, 3)), "move-hoplites", "to:Thessaly")
    assert names(s) == ["from:Boeotia"]
    s2 = play(edit(fresh(), lambda j: fn(j, 2)), "move-hoplites", "to:Thessaly")
    assert names(s2) == ["from:Attica", "from:Boeotia"]


def test_5_5_units_move_one_by_one_control_reevaluated_L363_L376():
    """Spec 5.5 (L363, L370-376): after one hoplite leaves Boeotia, Sparta controls it and the next Athenian
    hoplite cannot cross it; the origin itself may still be left."""
    def fn(j):
        clear_units(j)
        j["active"] = "athens"
        j["regions"]["Attica"]["athens"] = 1
        j["regions"]["Boeotia"]["athens"] = 2
        j["regions"]["Boeotia"]["sparta"] = 2          # a tie: Boeotia may be crossed
        j["seas"]["Cyclades"]["sparta"] = 1
    s = play(edit(fresh(), fn), "move-hoplites", "to:Thessaly")
    assert names(s) == ["from:Attica", "from:Boeotia"]
    play(s, "from:Boeotia")
    assert names(s) == ["from:Boeotia", "stop"]     # Attica's hoplite is now blocked; Boeotia is an origin
    play(s, "from:Boeotia")
    assert s.to_json()["regions"]["Thessaly"]["athens"] == 2 and player(s, "athens")["prestige"] == 2


def test_5_5_sicily_reached_only_by_sea_L366():
    """Spec 5.5 (L366): Sicily has no land path; hoplites reach it over the Ionian Sea unless Athens holds it."""
    def fn(j):
        clear_units(j)
        j["regions"]["Messenia"]["sparta"] = 1
    s = play(edit(fresh(), fn), "move-hoplites")
    assert "to:Sicily" in names(s)
    s2 = play(edit(fresh(), lambda j: fn(j) or j["seas"]["Ionian"].update(athens=1)), "move-hoplites")
    assert "to:Sicily" not in names(s2)


def test_5_5_diolkos_for_corinths_controller_L364():
    """Spec 5.5 (L364): the controller of Corinth may link the Cyclades and the Ionian Sea for sea paths."""
    def fn(j, own):
        clear_units(j)
        j["active"] = "athens"
        j["regions"]["Attica"]["athens"] = 1
        j["seas"]["Myrtoan"]["sparta"] = 1             # the long way round is blocked
        if own:
            j["poleis"]["Corinth"].update(owner="athens", pop=4)
    s = play(edit(fresh(), lambda j: fn(j, False)), "move-hoplites")
    assert "to:Sicily" not in names(s)
    s = play(edit(fresh(), lambda j: fn(j, True)), "move-hoplites")
    assert "to:Sicily" in names(s)


def test_5_6_galley_crossing_blocked_by_control_and_limit_L386_L387():
    """Spec 5.6 (L386-387): a galley crosses no enemy-controlled sea and no sea where it is at the limit. On the
    first-edition map (spec 10.10) every way from the Ionian Sea to the Sporades crosses the Myrtoan Sea (the
    diolkos needs Corinth, neutral here)."""
    def fn(j, myrtoan_sparta, myrtoan_athens):
        clear_units(j)
        j["active"] = "athens"
        j["seas"]["Ionian"]["athens"] = 1
        j["seas"]["Myrtoan"]["sparta"] = myrtoan_sparta
        j["seas"]["Myrtoan"]["athens"] = myrtoan_athens
    assert "to:Sporades" not in names(play(edit(fresh(), lambda j: fn(j, 1, 0)), "move-galleys"))
    s = play(edit(fresh(), lambda j: fn(j, 0, 3)), "move-galleys", "to:Sporades")
    assert names(s) == ["from:Myrtoan"]                # the Ionian galley cannot cross the full Myrtoan Sea
    s = play(edit(fresh(), lambda j: fn(j, 0, 2)), "move-galleys", "to:Sporades")
    assert names(s) == ["from:Ionian", "from:Myrtoan"]


def test_5_5_move_needs_prestige_A40():
    """Spec 5.0 (ASSUMED A40): moving costs 1 prestige; at 0 prestige no move is offered."""
    s = edit(fresh(), lambda j: j["players"]["sparta"].update(prestige=0))
    assert "move-hoplites" not in names(s) and "move-galleys" not in names(s)


# --- 5.7 siege ------------------------------------------------------------------------------------------------
def _siege_setup(j, hop=3, round_="alpha"):
    set_round(j, round_)
    clear_units(j)
    j["active"] = "athens"
    j["regions"]["Boeotia"]["athens"] = hop


def test_5_7_siege_needs_control_and_fortification_L397_L401():
    """Spec 5.7 (L397-401): region control and hoplites >= fortification; never a capital or Epidamnos/Abdera."""
    s = play(edit(fresh(), _siege_setup), "siege")
    assert names(s) == ["siege:Thebes"]
    s = edit(fresh(), lambda j: _siege_setup(j, hop=2))
    assert "siege" not in names(s)
    s = edit(fresh(), lambda j: _siege_setup(j) or j["regions"]["Boeotia"].update(sparta=3))
    assert "siege" not in names(s)                       # a tie: no control


def test_5_7_siege_success_takes_neutral_polis_L411():
    """Spec 5.7 (L411): success places base population, gains prestige = fortification, costs 1 prestige."""
    s = play(edit(fresh(), _siege_setup), "siege", "siege:Thebes")
    assert s.is_chance_node() and [p for _, p in s.chance_outcomes()] == [0.25] * 4
    s.apply("d4:3")
    j = s.to_json()
    assert j["poleis"]["Thebes"]["owner"] == "athens" and j["poleis"]["Thebes"]["pop"] == 3
    assert j["players"]["athens"]["prestige"] == 3 - 1 + 3


def test_5_7_siege_failure_disc_and_retry_bonus_L407_L409():
    """Spec 5.7 (L407-409, example L436-440): failure loses 1 hoplite and leaves a siege disc; the disc adds +1
    to the next roll (2 + 1 = 3 succeeds against Thebes)."""
    def fn(j):
        _siege_setup(j, hop=3)
        j["players"]["athens"]["prestige"] = 5
    s = play(edit(fresh(), fn), "siege", "siege:Thebes", "d4:2")
    j = s.to_json()
    assert j["poleis"]["Thebes"]["owner"] is None and j["poleis"]["Thebes"]["siege"]["athens"] == 1
    assert j["regions"]["Boeotia"]["athens"] == 2 and j["players"]["athens"]["prestige"] == 4
    s = edit(s, lambda j: j["regions"]["Boeotia"].update(athens=3) or j.update(active="athens")
             or j["flow"].update(acts=0, first_type=-1))
    play(s, "siege", "siege:Thebes", "d4:2")
    j = s.to_json()
    assert j["poleis"]["Thebes"]["owner"] == "athens" and j["poleis"]["Thebes"]["siege"]["athens"] == 0
    assert j["players"]["athens"]["prestige"] == 4 - 1 + 3


def test_5_7_failed_siege_of_enemy_polis_costs_population_and_revolt_L407():
    """Spec 5.7 (L407): on failure an owned polis loses a cube; its last cube lost -> revolt to neutral."""
    def fn(j):
        _siege_setup(j, hop=3)
        j["poleis"]["Thebes"].update(owner="sparta", pop=1)
    s = play(edit(fresh(), fn), "siege", "siege:Thebes", "d4:1")
    j = s.to_json()
    assert j["poleis"]["Thebes"] == {"owner": None, "pop": 0, "siege": {"athens": 1, "sparta": 0}}


def test_5_7_siege_of_enemy_polis_swaps_population_and_captures_proxenos_L411_L413():
    """Spec 5.7 (L411-413, example L444): the owner's cubes go home, as many of the besieger's come in; an enemy
    proxenos inside is captured."""
    def fn(j):
        _siege_setup(j, hop=3)
        j["poleis"]["Thebes"].update(owner="sparta", pop=2)
        j["players"]["sparta"]["proxenos"] = "Thebes"
    s = play(edit(fresh(), fn), "siege", "siege:Thebes", "d4:4")
    j = s.to_json()
    assert j["poleis"]["Thebes"]["owner"] == "athens" and j["poleis"]["Thebes"]["pop"] == 2
    assert j["players"]["sparta"]["proxenos"] == "captured"


def test_5_7_siege_discs_leave_with_the_last_hoplite_L425():
    """Spec 5.7 (L425): the besieger's discs come off when it has no hoplites left in the region."""
    def fn(j):
        _siege_setup(j, hop=1)
        j["poleis"]["Thebes"]["siege"]["athens"] = 1
        j["regions"]["Attica"]["athens"] = 0
    s = play(edit(fresh(), fn), "move-hoplites", "to:Attica", "from:Boeotia")
    assert s.to_json()["poleis"]["Thebes"]["siege"]["athens"] == 0


def test_5_7_other_besieger_discs_removed_on_neutral_L428():
    """Spec 5.7 (L428, A5): besieging a neutral polis removes the other player's siege discs there."""
    def fn(j):
        _siege_setup(j, hop=3)
        j["poleis"]["Thebes"]["siege"]["sparta"] = 1
        j["regions"]["Boeotia"]["sparta"] = 1
    s = play(edit(fresh(), fn), "siege", "siege:Thebes")
    assert s.to_json()["poleis"]["Thebes"]["siege"]["sparta"] == 0


# --- 5.8 tribute ----------------------------------------------------------------------------------------------
def test_5_8_tribute_sicily_columns_L456_L466():
    """Spec 5.8 (L456, L466): Sicily: 3 on wine (6) + 2 on wheat (3) versus all 5 on wine (15)."""
    def fn(j):
        set_round(j, "omega")
        clear_units(j)
        j["regions"]["Sicily"]["sparta"] = 5
        j["poleis"]["Gela"].update(owner="sparta", pop=3)
    s = play(edit(fresh(), fn), "tribute", "tribute:Sicily")
    assert names(s) == ["alloc:wine=2,wheat=3", "alloc:wine=3,wheat=2", "alloc:wine=4,wheat=1", "alloc:wine=5,wheat=0"]
    s2 = s.clone()
    s.apply("alloc:wine=3,wheat=2")
    assert (player(s, "sparta")["wine"], player(s, "sparta")["wheat"], player(s, "sparta")["prestige"]) == (10, 3, 2)
    s2.apply("alloc:wine=5,wheat=0")
    assert player(s2, "sparta")["wine"] == 4 + 15


def test_5_8_tribute_free_at_home_once_per_round_L458_L460():
    """Spec 5.8 (L458-460): Laconia is free for Sparta; a taxed region cannot be taxed again this round."""
    s = play(fresh(), "tribute", "tribute:Laconia", "alloc:iron=3,silver=0")
    j = s.to_json()
    assert j["players"]["sparta"]["prestige"] == 3 and j["regions"]["Laconia"]["tribute"] == "sparta"
    assert j["players"]["sparta"]["iron"] == 4 + 6


def test_5_8_tribute_needs_polis_except_achaea_L462():
    """Spec 5.8 (L462): tribute needs a controlled polis in the region, except in Achaea (no poleis)."""
    def fn(j):
        clear_units(j)
        j["regions"]["Achaea"]["sparta"] = 1
        j["regions"]["Boeotia"]["sparta"] = 2
    s = play(edit(fresh(), fn), "tribute")
    assert names(s) == ["tribute:Achaea"]


# --- 5.9 trade ------------------------------------------------------------------------------------------------
def _trade(j, active="athens"):
    j["active"] = active


def test_5_9_trade_with_goods_pays_grid_price_and_price_falls_L496_L498():
    """Spec 5.9 (L496-498): pay the grid price in iron, get 3 wheat, then the iron cube moves right by min(2d4)."""
    s = play(edit(fresh(), _trade), "trade")
    assert names(s) == ["cell:Persia-3", "cell:Pontus-3", "cell:Egypt-3", "cell:Thrace-3"]   # Illyria: Myrtoan is Spartan
    play(s, "cell:Persia-3")
    assert names(s) == ["pay:iron", "pay:wine"]               # silver too, but Athens has none
    s.apply("pay:iron")
    probs = dict((s.action_to_str(a), p) for a, p in s.chance_outcomes())
    assert probs == {"drop:1": 7 / 16, "drop:2": 5 / 16, "drop:3": 3 / 16, "drop:4": 1 / 16}
    s.apply("drop:2")
    j = s.to_json()
    assert j["players"]["athens"]["iron"] == 1 and j["players"]["athens"]["wheat"] == 7
    assert j["market"]["prices"]["iron"] == 3 and j["market"]["cells"][0]["merchant"] == "athens"


def test_5_9_trade_with_silver_raises_listed_prices_L500():
    """Spec 5.9 (L500, L512): N silver for N wheat; then one d4 per other listed good moves its price left."""
    def fn(j):
        _trade(j)
        j["players"]["athens"]["silver"] = 3
        j["market"]["prices"].update(iron=5, wine=4)
    s = play(edit(fresh(), fn), "trade", "cell:Persia-3", "pay:silver", "d4:3", "d4:4")
    j = s.to_json()
    assert j["players"]["athens"]["silver"] == 0 and j["players"]["athens"]["wheat"] == 7
    assert j["market"]["prices"]["iron"] == 2 and j["market"]["prices"]["wine"] == 1


def test_5_9_price_grid_example_L506_L508():
    """Spec 2.10 (L506-508): rate 4 at column 4 costs 5; rate 5 at column 4 costs 7."""
    t = G.tables
    assert t["price"][1][3] == 5 and t["price"][2][3] == 7


def test_5_9_cells_open_by_round_and_black_cubes_L494_L688():
    """Spec 5.9 (L494, L130, L688): rate-4 cells open in sigma, after a black cube leaves each market."""
    def fn(j):
        _trade(j)
        set_round(j, "sigma")
        j["players"]["athens"]["wine"] = 10
    s = play(edit(fresh(), fn), "trade")
    assert "cell:Persia-4" in names(s) and "cell:Persia-5" not in names(s)


def test_5_9_sea_route_blocked_by_enemy_sea_L482():
    """Spec 5.9 (L482, L223): no market is reachable when the Cyclades are enemy-controlled (Athens' only exit)."""
    s = edit(fresh(), lambda j: _trade(j) or j["seas"]["Cyclades"].update(sparta=3))
    assert "trade" not in names(s)


def test_5_9_land_route_epidamnos_to_illyria_L486():
    """Spec 5.9 (L486): the controller of Epidamnos reaches Illyria directly, whatever the seas."""
    def fn(j):
        _trade(j)
        j["seas"]["Cyclades"]["sparta"] = 3
        j["poleis"]["Epidamnos"].update(owner="athens", pop=1)
    s = play(edit(fresh(), fn), "trade")
    assert names(s) == ["cell:Illyria-3"]


def test_5_9_sparta_needs_a_trade_polis_L474():
    """Spec 5.9 (L474): Sparta trades only while it controls Pylos or Gytheion."""
    def fn(j):
        j["poleis"]["Pylos"].update(owner=None, pop=0)
        j["poleis"]["Gytheion"].update(owner=None, pop=0)
    assert "trade" in names(fresh())
    assert "trade" not in names(edit(fresh(), fn))


# --- 5.10 proxenos, 5.11 civil war, 5.13 ransom ---------------------------------------------------------------
def test_5_10_proxenos_bribe_example_L538():
    """Spec 5.10 (L538): Athens -> Potidaea by land past 4 Spartan hoplites costs 4; by sea past 1 galley costs 1."""
    def fn(j):
        clear_units(j)
        j["active"] = "athens"
        for r in ("Attica", "Boeotia", "Thessaly", "Macedonia"):
            j["regions"][r]["sparta"] = 1
        j["seas"]["Thracian"]["sparta"] = 1
        j["players"]["athens"]["silver"] = 1
    s = edit(fresh(), fn)
    assert s.proxenos_cost_table(0)[G.tables["poleis"].index("Potidaea")] == 1
    play(s, "proxenos", "proxenos-to:Potidaea")
    assert player(s, "athens")["proxenos"] == "Potidaea" and player(s, "athens")["silver"] == 0


def test_5_10_proxenos_not_into_enemy_capital_or_occupied_polis_L533_A25():
    """Spec 5.10 (L533, ASSUMED A25): never into the opponent's capital or a polis holding the other proxenos."""
    s = play(edit(fresh(), lambda j: j["players"]["athens"].update(proxenos="Pylos")), "proxenos")
    assert "proxenos-to:Athens" not in names(s) and "proxenos-to:Pylos" not in names(s)


def test_5_11_civil_war_neutral_costs_twice_base_L546_L551():
    """Spec 5.11 (L546, L551): neutral polis: 2 x base silver; the polis joins with base population; prestige +base."""
    def fn(j):
        j["players"]["sparta"].update(proxenos="Argos", silver=6)
    s = play(edit(fresh(), fn), "civil-war")
    j = s.to_json()
    assert j["poleis"]["Argos"]["owner"] == "sparta" and j["poleis"]["Argos"]["pop"] == 3
    assert j["players"]["sparta"]["silver"] == 0 and j["players"]["sparta"]["prestige"] == 6


def test_5_11_civil_war_enemy_costs_three_times_population_L547():
    """Spec 5.11 (L547-549): an enemy polis costs 3 x current population; cubes swap; projects go with it."""
    def fn(j):
        j["players"]["sparta"].update(proxenos="Chios", silver=6)
    s = play(edit(fresh(), fn), "civil-war")
    j = s.to_json()
    assert j["poleis"]["Chios"]["owner"] == "sparta" and j["poleis"]["Chios"]["pop"] == 2
    assert j["players"]["athens"]["cubes"] == 25 and j["players"]["sparta"]["prestige"] == 5
    s = edit(fresh(), lambda j: j["players"]["sparta"].update(proxenos="Chios", silver=5))
    assert "civil-war" not in names(s)


def test_5_11_no_civil_war_in_enemy_capital_L553():
    """Spec 5.11 (L553): never in the opponent's capital (the proxenos cannot even stand there, A25)."""
    s = edit(fresh(), lambda j: j["players"]["sparta"].update(proxenos="Sparta", silver=20))
    assert "civil-war" not in names(s)


def test_5_13_ransom_pays_opponent_and_returns_home_L413():
    """Spec 5.13 (L413): a captured proxenos is ransomed for 2 silver paid to the opponent; not an action."""
    def fn(j):
        j["players"]["sparta"].update(proxenos="captured", silver=3)
        j["players"]["athens"]["silver"] = 0
    s = edit(fresh(), fn)
    assert "ransom" in names(s) and "proxenos" not in names(s)
    s.apply("ransom")
    j = s.to_json()
    assert j["players"]["sparta"]["proxenos"] == "Sparta" and j["players"]["sparta"]["silver"] == 1
    assert j["players"]["athens"]["silver"] == 2 and j["flow"]["acts"] == 0


def _cells():
    t = G.tables
    res = ("iron", "wood", "wine", "silver", "wheat")
    for c, (m, rate, gives, acc) in enumerate(t["cells"]):
        for r in range(4):
            if acc >> r & 1:
                yield pytest.param(c, r, id=f"{t['markets'][m]}-{rate}-pays-{res[r]}")


@pytest.mark.parametrize("cell,pay", list(_cells()))
def test_5_9_every_market_trade_and_its_price_change_L492_L512(cell, pay):
    """Spec 5.9 / 10.3 (L492-512): every cell with every accepted payment: the price paid (grid column or N silver),
    the N goods received, the merchant left on the cell, and the price-track move by the dice."""
    t = G.tables
    res = ("iron", "wood", "wine", "silver", "wheat")
    m, rate, gives, acc = t["cells"][cell]

    def fn(j):
        set_round(j, "omega")
        clear_units(j)
        j["active"] = "athens"
        j["players"]["athens"].update(iron=12, wood=12, wine=12, silver=12, wheat=0)
        j["market"]["prices"].update(iron=4, wood=4, wine=4)
    s = edit(fresh(), fn)
    play(s, "trade", f"cell:{t['markets'][m]}-{rate}")
    s.apply(f"pay:{res[pay]}")                                            # every cell takes 2+ payments
    j = s.to_json()
    price = rate if pay == 3 else t["price"][rate - 3][3]
    got = j["players"]["athens"][res[gives]]
    assert j["players"]["athens"][res[pay]] == 12 - price
    assert got == (0 if gives == 4 else 12) + rate
    assert j["market"]["cells"][cell]["merchant"] == "athens"
    if pay == 3:                                                          # silver: each listed good rises by a d4
        for r in range(3):
            if acc >> r & 1:
                s.apply("d4:2")
        prices = s.to_json()["market"]["prices"]
        for r in range(3):
            assert prices[res[r]] == (2 if acc >> r & 1 else 4)
    else:                                                                 # goods: that good falls by min(2d4)
        s.apply("drop:3")
        prices = s.to_json()["market"]["prices"]
        assert prices[res[pay]] == 7 and all(prices[res[r]] == 4 for r in range(3) if r != pay)
    assert s.to_json()["phase"] == "action"


def test_5_4_projects_follow_the_polis_on_capture_L313_L411():
    """Spec 5.4 (L313, L411): a completed project passes with the polis to the besieger and scores for it."""
    def fn(j):
        _siege_setup(j, hop=3)
        j["poleis"]["Thebes"].update(owner="sparta", pop=3)
        j["projects"]["pile"].remove("Orchestra")
        j["projects"]["completed"] = {"Thebes": ["Orchestra"]}
    s = edit(fresh(), fn)
    sparta_before = s.scores()[1]
    play(s, "siege", "siege:Thebes", "d4:4")
    j = s.to_json()
    assert j["projects"]["completed"] == {"Thebes": ["Orchestra"]} and j["poleis"]["Thebes"]["owner"] == "athens"
    assert s.scores()[1] == sparta_before - 3 - 2          # Sparta loses 3 population and Orchestra's 2


def test_5_11_civil_war_in_epidamnos_L255():
    """Spec 5.11 (L255): Epidamnos (no region, no siege) can be taken by civil war."""
    s = edit(fresh(), lambda j: j["players"]["sparta"].update(proxenos="Epidamnos", silver=2))
    s.apply("civil-war")
    assert s.to_json()["poleis"]["Epidamnos"] == {"owner": "sparta", "pop": 1, "siege": {"athens": 0, "sparta": 0}}


def test_2_5_gains_beyond_track_maximum_are_lost_A_track_caps():
    """Spec 2.5 / 10.6 (L197, ASSUMED caps 20/40): a resource gain beyond the track's maximum is lost."""
    s = edit(fresh(), lambda j: j["players"]["sparta"].update(iron=18))
    play(s, "tribute", "tribute:Laconia", "alloc:iron=3,silver=0")
    assert player(s, "sparta")["iron"] == 20


def test_5_10_proxenos_reaches_and_leaves_portless_sparta_and_thebes_by_land_only_L524_L532():
    """Spec 5.10 (L524-532): land paths run over regions, sea paths over seas from a port; Sparta and Thebes have
    no port, so a proxenos reaches them, and leaves them, only by land (issue 19)."""
    poleis = G.tables["poleis"]
    s = edit(fresh(), lambda j: j["players"]["sparta"].update(proxenos="Syracuse", silver=9))
    cost = s.proxenos_cost_table(1)
    assert cost[poleis.index("Sparta")] == -1 and cost[poleis.index("Thebes")] == -1   # Sicily: by sea only
    s = edit(fresh(), lambda j: j["players"]["sparta"].update(proxenos="Thebes", silver=9))
    assert s.proxenos_cost_table(1)[poleis.index("Syracuse")] == -1                  # Thebes: no way out by sea

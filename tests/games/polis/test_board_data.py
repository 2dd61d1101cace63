"""The board's data sets (spec 10.10 and 10.1-10.3): the first-edition board (ed1, the default) checked against every
path the rulebook describes, its tribute columns (up to three a region) and its 11-column price track; the
placeholder board (assumed) still selectable; a directory whose files replace the built-in ones."""
import json

import pytest

from engine.errors import BadOptionError
from engine.registry import load_game

from .helpers import G, clear_units, edit, fresh, names, play, player, set_round

ASSUMED = load_game("polis", data="assumed")


def _athens(j):
    clear_units(j)
    j["active"] = "athens"


# --- the map against the text's paths (spec 10.10) -----------------------------------------------------------------
def test_L355_macedonia_to_attica_by_the_thracian_sea_and_the_cyclades():
    """L355: a hoplite may start in Macedonia, cross the Thracian Sea and the Cyclades and land in Attica (the land
    way is shut here by Spartan Thessaly and Boeotia)."""
    def fn(j):
        _athens(j)
        j["regions"]["Macedonia"]["athens"] = 1
        j["regions"]["Thessaly"]["sparta"] = 1
        j["regions"]["Boeotia"]["sparta"] = 1
    assert "to:Attica" in names(play(edit(fresh(), fn), "move-hoplites"))
    # ... and not once the Cyclades are Spartan: the Thracian Sea touches no other sea on Attica's coast
    blocked = edit(fresh(), lambda j: fn(j) or j["seas"]["Cyclades"].update(sparta=1))
    assert "to:Attica" not in names(play(blocked, "move-hoplites"))


def test_L361_megaris_and_boeotia_are_neighbours_by_land():
    """L361: Megaris -> Boeotia -> Thessaly -> Macedonia by land (Megaris-Boeotia is the text's, not the first
    edition's); Boeotia has no coast, so with Attica Spartan the only way in is that border."""
    def fn(j):
        _athens(j)
        j["regions"]["Megaris"]["athens"] = 1
        j["regions"]["Attica"]["sparta"] = 1
    assert "to:Boeotia" in names(play(edit(fresh(), fn), "move-hoplites"))
    assert G.tables["land_adj"][G.tables["regions"].index("Megaris")] >> G.tables["regions"].index("Boeotia") & 1


def test_L361_the_same_trip_by_sea_when_the_land_regions_are_full():
    """L361: in omega a hoplite cannot go Megaris -> Macedonia through Boeotia and Thessaly when 5 of its side stand
    in one of them, but it can make the trip by sea (Cyclades, Thracian Sea) even with 5 galleys there."""
    def fn(j):
        _athens(j)
        set_round(j, "omega")
        j["regions"]["Megaris"]["athens"] = 1
        j["regions"]["Boeotia"]["athens"] = 5
        j["seas"]["Cyclades"]["athens"] = 5
        j["seas"]["Thracian"]["athens"] = 5
    s = play(edit(fresh(), fn), "move-hoplites", "to:Macedonia")
    assert "from:Megaris" in names(s)


def test_L372_ionia_to_thessaly_over_the_sporades_and_the_cyclades():
    """L372: a hoplite leaves Ionia (by sea only), crosses the free Southern Sporades and the Athenian Cyclades and
    lands in Thessaly: Thessaly has a Cyclades coast (the text's; absent in the first edition). The other way round,
    over the Myrtoan and Ionian Seas, is shut by a Spartan galley."""
    def fn(j):
        _athens(j)
        j["regions"]["Ionia"]["athens"] = 1
        j["seas"]["Cyclades"]["athens"] = 1
        j["seas"]["Myrtoan"]["sparta"] = 1
    assert "to:Thessaly" in names(play(edit(fresh(), fn), "move-hoplites"))
    assert G.tables["coast"][G.tables["regions"].index("Thessaly")] >> G.tables["seas"].index("Cyclades") & 1


def test_L534_chios_to_samos():
    """L534: a proxenos goes from Chios to Samos (both in Ionia, over the Southern Sporades) for nothing."""
    def fn(j):
        _athens(j)
        j["players"]["athens"]["proxenos"] = "Chios"
    s = edit(fresh(), fn)
    assert s.proxenos_cost_table(0)[G.tables["poleis"].index("Samos")] == 0
    assert "proxenos-to:Samos" in names(play(s, "proxenos"))


def test_L538_potidaea_lies_on_the_thracian_sea():
    """L538: Athens -> Potidaea by sea over the Cyclades and the Thracian Sea costs 1 silver for one Spartan galley,
    cheaper than 4 Spartan hoplites by land."""
    def fn(j):
        _athens(j)
        for r in ("Boeotia", "Thessaly"):
            j["regions"][r]["sparta"] = 2
        j["seas"]["Thracian"]["sparta"] = 1
        j["players"]["athens"]["silver"] = 1
    s = edit(fresh(), fn)
    assert s.proxenos_cost_table(0)[G.tables["poleis"].index("Potidaea")] == 1
    potidaea = G.tables["poleis"].index("Potidaea")
    assert G.tables["ports"][potidaea] == [G.tables["seas"].index("Thracian")]


def test_first_edition_sea_graph_and_coasts_spec_10_10():
    """Spec 10.10: the first edition adds Thracian-Sporades and Sporades-Myrtoan, moves Naupaktos's port to the
    Ionian Sea, gives Thessaly an Ionian coast and leaves Achaea landlocked; the placeholder board has none of it."""
    def has(game, a, b):
        seas = game.tables["seas"]
        return bool(game.tables["sea_adj"][seas.index(a)] >> seas.index(b) & 1)
    assert has(G, "Thracian", "Sporades") and has(G, "Sporades", "Myrtoan")
    assert not has(ASSUMED, "Thracian", "Sporades") and not has(ASSUMED, "Sporades", "Myrtoan")
    achaea = G.tables["regions"].index("Achaea")
    assert G.tables["coast"][achaea] == 0 and ASSUMED.tables["coast"][achaea] != 0
    naupaktos = G.tables["poleis"].index("Naupaktos")
    assert [G.tables["seas"][s] for s in G.tables["ports"][naupaktos]] == ["Ionian"]


# --- tribute with three columns (spec 10.10, L454) ----------------------------------------------------------------
def test_tribute_fills_three_columns_one_decision_each_L454():
    """L454 with the first-edition Attica (wine 1/3/6/10, silver 1/3/6, wheat 1): 4 hoplites are placed column by
    column; the last column takes the rest, and each column pays its value for the cubes in it."""
    def fn(j):
        _athens(j)
        set_round(j, "sigma")                          # a stacking limit of 4 (L259)
        j["regions"]["Attica"]["athens"] = 4
    s = play(edit(fresh(), fn), "tribute", "tribute:Attica")
    assert names(s) == ["alloc:wine=0", "alloc:wine=1", "alloc:wine=2", "alloc:wine=3", "alloc:wine=4"]
    before = {r: player(s, "athens")[r] for r in ("wine", "silver", "wheat")}
    play(s, "alloc:wine=2")
    # 2 left for silver (3 cells) and wheat (1 cell): silver 1 (then wheat 1) or silver 2 (wheat 0)
    assert names(s) == ["alloc:silver=1,wheat=1", "alloc:silver=2,wheat=0"]
    play(s, "alloc:silver=1,wheat=1")
    after = player(s, "athens")
    assert (after["wine"] - before["wine"], after["silver"] - before["silver"], after["wheat"] - before["wheat"]) \
        == (3, 1, 1)
    assert s.to_json()["regions"]["Attica"]["tribute"] == "athens"


def test_a_region_with_fewer_cells_than_hoplites_yields_no_tribute_L454():
    """L454: all of a player's hoplites must be placed; first-edition Messenia has 3 cells (wheat 1/3/6), so 4
    Spartan hoplites there take no tribute, 3 do (Sparta holding Pylos, its only other units away)."""
    def fn(j, n):
        clear_units(j)
        set_round(j, "sigma")
        j["regions"]["Messenia"]["sparta"] = n
        j["poleis"]["Pylos"]["owner"] = "sparta"
        j["players"]["sparta"]["prestige"] = 3
    assert "tribute" not in names(edit(fresh(), lambda j: fn(j, 4)))
    s = play(edit(fresh(), lambda j: fn(j, 3)), "tribute", "tribute:Messenia")
    assert player(s, "sparta")["prestige"] == 2       # a region away from home costs 1 prestige (L458)
    assert s.to_json()["regions"]["Messenia"]["tribute"] == "sparta"


# --- the 11-column price track (spec 10.10) -----------------------------------------------------------------------
def test_price_track_has_eleven_positions_spec_10_10():
    """Spec 10.10: the price grid has 11 columns; a price can stand at 11, and a cell of rate 5 then costs 13."""
    assert len(G.tables["price"][0]) == 11 and G.tables["price"][2][10] == 13
    assert len(ASSUMED.tables["price"][0]) == 8
    s = edit(fresh(), lambda j: j["market"]["prices"].update(iron=11))
    assert s.to_json()["market"]["prices"]["iron"] == 11
    with pytest.raises(Exception, match="price of iron"):
        edit(fresh(), lambda j: j["market"]["prices"].update(iron=12))
    with pytest.raises(Exception, match="price of iron"):
        edit(fresh(), lambda j: j["market"]["prices"].update(iron=9), game=ASSUMED)


# --- choosing the data -------------------------------------------------------------------------------------------
def test_the_default_is_the_first_edition_board_and_both_sets_are_shipped():
    assert G.options["data"] == "ed1"
    from engine.registry import game_spec
    spec = game_spec("polis")
    assert spec.options["data"].names_files and set(spec.datasets) == {"ed1", "assumed"}
    # what the protocol sends for a data set's name (its folder) gives the same game as the name
    assert load_game("polis", data=str(spec.datasets["assumed"])).tables == ASSUMED.tables


def test_a_directory_replaces_only_the_files_it_holds(tmp_path):
    """The data option may name a directory: its files replace the built-in ones, the rest stay the default's."""
    from engine.games.polis.data import DATA_DIR
    markets = json.loads((DATA_DIR / "ed1" / "markets.json").read_text())
    markets["price_grid"]["rows"] = {k: v[:9] for k, v in markets["price_grid"]["rows"].items()}
    (tmp_path / "markets.json").write_text(json.dumps(markets))
    game = load_game("polis", data=str(tmp_path))
    assert len(game.tables["price"][0]) == 9 and game.tables["sea_adj"] == G.tables["sea_adj"]


def test_an_unknown_data_set_or_a_bad_file_is_a_clear_error(tmp_path):
    with pytest.raises(BadOptionError, match="neither a data set .*ed1, assumed.* nor a directory"):
        load_game("polis", data="third-edition")
    (tmp_path / "tribute.json").write_text(json.dumps({"regions": {"Sicily": {"columns": [
        ["wine", [1]], ["wheat", [1]], ["iron", [1]], ["wood", [1]]]}}}))
    with pytest.raises(BadOptionError, match="tribute.json: no columns for region|1 to 3 columns"):
        load_game("polis", data=str(tmp_path))


# --- the proxenos and the ports (rule fix, L526, L531) ---------------------------------------------------------------
@pytest.mark.parametrize("start", ["Epidamnos", "Syracuse", "Samos", "Chios"])
def test_L531_a_proxenos_reaches_sparta_only_by_land(start):
    """L531: Sparta and Thebes have no port, so a proxenos reaches them only across regions. From a polis reached
    only by sea (Epidamnos, Sicily, Ionia) there is no way to Sparta at all; a sea path ends at the destination's
    port sea (L526), never on a region's coast."""
    def fn(j):
        clear_units(j)
        j["players"]["sparta"]["proxenos"] = start
        j["players"]["athens"]["proxenos"] = "Athens"
    for game in (G, ASSUMED):
        s = edit(fresh(game=game), fn, game=game)
        costs = s.proxenos_cost_table(1)
        assert costs[game.tables["poleis"].index("Sparta")] == -1
        assert costs[game.tables["poleis"].index("Thebes")] == -1
        assert "proxenos-to:Sparta" not in names(play(s, "proxenos"))


def test_L531_a_proxenos_in_sparta_leaves_only_by_land():
    """L531: no port, so a proxenos in Sparta cannot sail: Sicily (sea only, L366) is out of its reach, Argos is not."""
    def fn(j):
        clear_units(j)
        j["players"]["sparta"]["proxenos"] = "Sparta"
    s = edit(fresh(), fn)
    costs = s.proxenos_cost_table(1)
    assert costs[G.tables["poleis"].index("Syracuse")] == -1 and costs[G.tables["poleis"].index("Argos")] == 0

"""The data files fit every count the rulebook gives (spec §2, §9; rulebook lines named in each test)."""
import json
from pathlib import Path

import pytest

from engine.games.pantikapaion import data as data_mod
from engine.registry import load_game

D = data_mod.load()
DATA = Path(data_mod.__file__).parent / "data"
TERRAIN = [t for t in D["tiles"] if t["kind"] == "terrain"]
AQUEDUCT = [t for t in D["tiles"] if t["kind"] == "aqueduct"]


def cells_of(kind):
    return [(r, pos, arg) for r, row in enumerate(D["dev"]) for pos, (k, arg) in enumerate(row, 1)
            if k == data_mod.CELL_KINDS.index(kind)]


def test_L19_65_terrain_tiles_polyominoes_with_empty_resource_drought_cells():
    assert sum(t["count"] for t in TERRAIN) == 65
    for t in TERRAIN:
        assert all(code in (1, 2, 3, 4, 5, 6, 7) for _, _, code in t["cells"])


def test_L23_L358_12_aqueduct_tiles_each_with_one_chosen_resource_cell():
    assert sum(t["count"] for t in AQUEDUCT) == 12
    for t in AQUEDUCT:
        assert sum(1 for c in t["cells"] if c[2] == data_mod.WILD) == 1


def test_L27_L67_five_colours_100_cubes_30_coins_and_the_tiles_use_the_colours_evenly():
    assert len(D["colours"]) == 5 and len(set(D["colours"])) == 5
    rules = json.loads((DATA / "rules.json").read_text(encoding="utf-8"))
    assert rules["cubes_per_colour"]["value"] * 5 == 100 and rules["coin_tokens"]["value"] == 30
    assert rules["supply_unlimited"]["status"] == "ASSUMED"
    per = [sum(1 for t in TERRAIN for c in t["cells"] if c[2] == 3 + k) for k in range(5)]
    assert per == [23] * 5                      # spec §9.4 machine-checked totals
    assert sum(1 for t in TERRAIN for c in t["cells"] if c[2] == 2) == 50


def test_L31_L35_L119_five_rows_five_workers_one_available():
    assert len(D["dev"]) == 5
    assert D["workers"] == 5 and D["workers_start"] == 1


def test_L93_L111_L153_seven_of_each_building_six_with_two_players():
    assert len(D["buildings"]) == 5 and D["pieces"] == 7 and D["pieces_2p"] == 6
    assert {b["name"] for b in D["buildings"]} == {"house", "winery", "fortress", "aqueduct", "temple"}
    assert len(D["costs"]) >= 7
    assert load_game("pantikapaion", players=2).new_initial_state().to_json()["stock"]["house"] == 6
    assert load_game("pantikapaion", players=3).new_initial_state().to_json()["stock"]["house"] == 7


def test_L264_some_building_takes_two_cells():
    assert any(b["cells"] == 2 for b in D["buildings"])


def test_L75_L126_fifteen_resource_tokens_more_than_cells():
    singles = D["tokens"][:D["n_single_tokens"]]
    doubles = D["tokens"][D["n_single_tokens"]:]
    assert len(singles) == 5 and len(doubles) == 10
    assert all(len(t) == 1 for t in singles) and all(len(t) == 2 for t in doubles)
    assert D["n_res1"] + D["n_res2"] < 15       # some tokens go back to the box (L126)
    assert len(cells_of("res1")) == D["n_res1"] and len(cells_of("res2")) == D["n_res2"]


def test_L85_L128_L378_sixteen_upgrade_tokens_two_substitutions():
    assert len(D["upgrade_cells"]) * 4 == 16    # one token per player on each cell, 4 players
    assert D["upgrade_cells"].count(data_mod.UPGRADE_KINDS.index("substitution")) == D["max_sub"] == 2
    assert set(D["upgrade_cells"]) == {0, 1, 2}


def test_L140_L183_L274_L278_L295_L400_L450_numbers_of_the_text():
    assert D["ring_size"] == {2: 8, 3: 11, 4: 14}
    assert D["rounds"] == 5 and D["turns"] == 3 and D["choices"] == 3
    assert D["paid_costs"] == [1, 2, 3]
    assert (D["sell_min"], D["sell_max"]) == (3, 5)
    assert D["take_coins"] == 2 and D["storage_limit"] == 5 and D["coins_per_vp"] == 2


def test_L468_first_aqueduct_costs_two_and_costs_rise():
    assert D["costs"][0] == 2
    assert all(a <= b for a, b in zip(D["costs"], D["costs"][1:]))


def test_L478_L488_the_known_cells_of_the_example():
    colours = D["colours"]
    orange = D["dev"][colours.index("orange")]
    kinds = [data_mod.CELL_KINDS[k] for k, _ in orange[:3]]
    assert kinds == ["vp", "aqueduct_tile", "upgrade"] and orange[0][1] == 1
    assert D["upgrade_cells"][orange[2][1]] == data_mod.UPGRADE_KINDS.index("substitution")
    row_kinds = {c: {data_mod.CELL_KINDS[k] for k, _ in D["dev"][colours.index(c)]} for c in colours}
    assert "worker" in row_kinds["brown"] and "free" in row_kinds["white"] and "advance" in row_kinds["green"]
    assert "res2" in row_kinds["purple"]
    # brown above white above green: the sale of L488 resolves them in that order (L280)
    assert colours.index("brown") < colours.index("white") < colours.index("green")


def test_every_data_value_is_marked_rule_inferred_or_assumed():
    marks = ("RULE", "INFERRED", "ASSUMED")
    for path in sorted(DATA.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        obj = json.loads(text)
        assert any(m in text for m in marks), path.name
        if path.name == "rules.json":
            for key, value in obj.items():
                if isinstance(value, dict):
                    assert value["status"] in marks, key


def test_bad_data_is_refused_with_a_message():
    letters = {"b": 0, "p": 1, "w": 2, "o": 3, "g": 4}
    with pytest.raises(ValueError, match="unknown cell"):
        data_mod.parse_layout("..x.", letters, "tile X")
    with pytest.raises(ValueError, match="connected"):
        data_mod.parse_layout("._/_.", letters, "tile Y")


def test_rotations_are_distinct_and_keep_the_cells():
    for t in D["tiles"]:
        shapes = [tuple(sorted(c)) for _, c in t["rotations"]]
        assert len(set(shapes)) == len(shapes)
        assert all(sorted(c[2] for c in cs) == sorted(c[2] for c in t["cells"]) for _, cs in t["rotations"])

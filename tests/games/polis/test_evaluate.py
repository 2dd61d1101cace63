"""Polis's evaluate(): the points each side would hold once the round's end is scored (engine/games/polis/evaluate.pxi),
its terms against the rulebook's round end (L626-L660) and sudden death (L698-L700), and its weights read from
data/evaluate.json (ASSUMED, never in code)."""
import json
import math

import pytest

from engine.errors import BadOptionError
from engine.registry import load_game

from .helpers import G, edit, fresh, set_round

W = G.tables["eval"]


def _rich(j):
    """Athens with prestige to spare, so no deficit below is paid by releasing poleis or ends in sudden death."""
    j["players"]["athens"]["prestige"] = 10


def _wheat(n):
    def fn(j):
        _rich(j)
        j["players"]["athens"]["wheat"] = n
    return fn


def test_food_each_missing_wheat_costs_a_point_L636_L642():
    """Athens feeds 8 population (L636): below that, every wheat held is one point less of deficit (paid in prestige,
    L640), so 4 and 5 wheat differ by exactly one point."""
    s = fresh()
    a, b = edit(s, _wheat(4)), edit(s, _wheat(5))
    assert b.projected_points(0) - a.projected_points(0) == pytest.approx(1.0)


def test_wheat_left_after_food_grows_population_and_megalopolis_L644_L654():
    """Wheat beyond the food grows population (L644-L652, worth `growth`), and Athens, at its base population 5,
    grown to 6 scores megalopolis (L654): one wheat more than the demand is worth growth + 1."""
    s = fresh()
    a, b = edit(s, _wheat(8)), edit(s, _wheat(9))
    assert b.projected_points(0) - a.projected_points(0) == pytest.approx(W["growth"] + 1.0)


def test_a_project_under_way_counts_its_round_and_end_prestige_L626_L634():
    """Myron started in Athens brings 2 prestige at the round's end and 3 at the game's end (L311, L634)."""
    s = fresh()

    def started(j):
        _rich(j)
        j["projects"]["display"].remove("Myron")
        j["projects"]["started"] = {"Athens": ["Myron"]}
        j["started_this_round"] = ["Athens"]
    a, b = edit(s, _rich), edit(s, started)
    assert b.projected_points(0) - a.projected_points(0) == pytest.approx(2 + 3)


def _short_of_food(n, passed):
    """Athens with 1 prestige, n wheat and only its capital (nothing to release, L700); ``passed``: it passed first
    and Sparta acts alone (L175)."""
    def fn(j):
        j["players"]["athens"]["prestige"] = 1
        j["players"]["athens"]["wheat"] = n
        for polis in ("Chios", "Chalcis"):
            j["poleis"][polis]["owner"] = None
            j["poleis"][polis]["pop"] = 0
        if passed:
            j["passed"] = [True, False]
            j["flow"]["first_passer"] = 0
            j["active"] = "sparta"
    return fn


def test_a_round_end_at_zero_prestige_is_sudden_death_L698():
    """Athens has passed, 1 prestige and one wheat short of its demand: the round's end would leave it at 0 prestige,
    which loses (L698); one wheat more and it survives. The difference is the death weight plus the wheat's point."""
    s = fresh()
    dead, alive = edit(s, _short_of_food(4, True)), edit(s, _short_of_food(5, True))
    assert alive.projected_points(0) - dead.projected_points(0) == pytest.approx(W["death"] + 1.0)


def test_a_side_still_to_act_weighs_its_projected_death_by_food_open_L175_L624():
    """The same shortage while Athens has not passed: it may still fetch the wheat before the round ends (it passes
    when it chooses, L175; the round ends when both have passed, L624), so the projected death weighs `food_open`
    times the death weight. The wheat's point is counted in full either way."""
    s = fresh()
    dead, alive = edit(s, _short_of_food(4, False)), edit(s, _short_of_food(5, False))
    assert W["food_open"] < 1.0
    assert alive.projected_points(0) - dead.projected_points(0) == pytest.approx(W["food_open"] * W["death"] + 1.0)


def _lead(state):
    """The lead evaluate() squashed (its inverse)."""
    v = state.evaluate()[0]
    return W["scale"] * math.log(v / (1.0 - v))


def _stock(sparta_silver):
    def fn(j):
        set_round(j, "omega")
        for side in ("athens", "sparta"):
            for r in ("iron", "wood", "wine", "silver", "wheat"):
                j["players"][side][r] = 0
        j["players"]["athens"]["wine"] = 4            # wine is not eaten: Athens's stock is 4 after food
        j["players"]["sparta"]["silver"] = sparta_silver
    return fn


@pytest.mark.parametrize("sparta_silver, sign", [(0, 1), (9, -1)])
def test_in_omega_the_larger_stock_is_worth_the_tie_break_L711(sparta_silver, sign):
    """In omega a tie on points goes to the larger stock of resources (L711): evaluate()'s lead is the projections'
    difference plus `tie_break` for the side whose stock (after this round's food) is larger."""
    s = edit(fresh(), _stock(sparta_silver))
    assert _lead(s) == pytest.approx(s.projected_points(0) - s.projected_points(1) + sign * W["tie_break"])


def test_before_omega_the_stock_breaks_no_tie():
    """Resources left after alpha or sigma pay the next rounds' actions; the tie-break (L711) is omega's alone."""
    def sigma(j):
        _stock(0)(j)
        set_round(j, "sigma")
    s = edit(fresh(), sigma)
    assert _lead(s) == pytest.approx(s.projected_points(0) - s.projected_points(1))


def test_evaluate_is_the_squashed_lead_of_the_projections():
    s = edit(fresh(), _wheat(6))
    lead = s.projected_points(0) - s.projected_points(1)
    v = s.evaluate()
    assert v[0] == pytest.approx(1.0 / (1.0 + math.exp(-lead / W["scale"])))
    assert v[0] + v[1] == pytest.approx(1.0)
    # the side short of food is the one behind: Sparta starts with no wheat for 7 population (L79-L91)
    assert fresh().evaluate()[0] > 0.5


def test_evaluate_of_a_finished_game_is_its_result():
    s = fresh()
    s.apply("pass")
    s.apply("pass")
    while not s.is_terminal():
        s.apply(s.legal_actions()[0]) if not s.is_chance_node() else s.apply(s.chance_outcomes()[0][0])
    assert s.evaluate() == s.returns()


def test_the_weights_come_from_the_data_file(tmp_path):
    """A data directory with another evaluate.json changes evaluate() and nothing else (no weight lives in code)."""
    from engine.games.polis.data import read_data
    weights = read_data(None, "evaluate.json")
    weights["death"]["value"] = 0.0
    weights["scale"]["value"] = 8.0
    (tmp_path / "evaluate.json").write_text(json.dumps(weights))
    other = load_game("polis", data=str(tmp_path))
    assert other.tables["eval"]["death"] == 0.0
    a, b = fresh(), fresh(game=other)
    assert a.to_json() == b.to_json()
    # Sparta starts unfed, but has not passed yet: its projected death weighs food_open times the death weight
    assert a.projected_points(1) == pytest.approx(b.projected_points(1) - W["food_open"] * W["death"])
    lead = b.projected_points(0) - b.projected_points(1)
    assert b.evaluate()[0] == pytest.approx(1.0 / (1.0 + math.exp(-lead / 8.0)))


@pytest.mark.parametrize("change, message", [
    (lambda w: w["scale"].update(value=0), "scale must be above 0"),
    (lambda w: w["death"].update(value="lots"), r"death must be an entry whose value is a number in \[0, 100\]"),
    (lambda w: w["death"].update(value=float("nan")), "death must be an entry whose value is a number"),
    (lambda w: w["resources"]["value"].pop("wine"), "resources: wine must be an entry whose value is a number"),
    (lambda w: w["resources"]["value"].update(gold=0.4), r"resources: unknown weight\(s\) gold"),
    (lambda w: w["resources"].update(value=0.3), "resources must be an entry whose value names iron"),
    (lambda w: w.pop("hoplite"), "hoplite must be an entry whose value is a number"),
    (lambda w: w.update(hoplites={"value": 0.5}), r"unknown weight\(s\) hoplites; known: resources_last_round"),
])
def test_a_bad_weights_file_is_refused_by_name(tmp_path, change, message):
    """engine/weights.py's checks, as Hellas's, Mare Nostrum's and Pantikapaion's weights have them: a misspelt
    weight is refused by name rather than left out of evaluate() unseen."""
    from engine.games.polis.data import read_data
    weights = read_data(None, "evaluate.json")
    change(weights)
    (tmp_path / "evaluate.json").write_text(json.dumps(weights))
    with pytest.raises(BadOptionError, match=message):
        load_game("polis", data=str(tmp_path))


def test_hoplites_ready_for_a_siege_count_a_share_of_its_expected_gain_L397_L411():
    """One Athenian hoplite controlling Thessaly can besiege neutral Naupaktos (fortification 1, L397-L401): the d4
    always reaches 1 (L405), and success brings 1 prestige and 1 population (L411, L415). A Spartan hoplite beside
    it takes the control, and with it the siege, away: the difference is the region's control and that share."""
    from .helpers import clear_units

    def hoplites(sparta):
        def fn(j):
            clear_units(j)
            j["regions"]["Thessaly"]["athens"] = 1
            j["regions"]["Thessaly"]["sparta"] = sparta
        return fn
    s = fresh()
    ready, contested = edit(s, hoplites(0)), edit(s, hoplites(1))
    assert ready.projected_points(0) - contested.projected_points(0) == pytest.approx(W["region"] + W["siege"] * 2)

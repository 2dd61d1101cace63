"""evaluate(), the position score of search cut-offs, heuristic rollouts and the greedy bot, follows the formula
(written out in Python in engine/games/pantikapaion/evaluation.py) and the weights of data/evaluate.json
(docs/rules/pantikapaion.md, "Evaluation heuristic"); a bad weights file is refused with an error that names the
weight."""
import copy
import json
import random

import pytest

from engine.games.pantikapaion import data as data_mod
from engine.games.pantikapaion.evaluation import values as expected_values
from engine.games.pantikapaion.state import PantikapaionGame

D = data_mod.load()


def played_states(game, seed, every=5, limit=600):
    """States along one seeded game of uniform moves (chance by its probabilities)."""
    rng, state, out = random.Random(seed), game.new_initial_state(), []
    for n in range(limit):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply(rng.choices(actions, probs)[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
        if n % every == 0 and not state.is_terminal():
            out.append(state.clone())
    return out


def with_weights(players, **weights):
    data = dict(D, evaluate=dict(D["evaluate"], **weights))
    return PantikapaionGame({"players": players}, data)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluate_is_the_documented_projection_with_the_shipped_weights(players):
    game = with_weights(players)
    states = played_states(game, seed=players)
    assert len(states) > 20
    for state in states:
        assert state.evaluate() == pytest.approx(expected_values(state, D["evaluate"]), abs=1e-12)


def test_evaluate_reads_its_weights_from_the_data_not_the_code():
    # other weights give other values, each as the formula says: nothing of the shipped set is compiled in
    other = {"building": 4.0, "development_step": 0.1, "worker": 0.0, "coin": 2.5, "scale": 2.0}
    shipped, varied = with_weights(2), with_weights(2, **other)
    changed = 0
    for state in played_states(shipped, seed=11):
        twin = varied.state_from_json(state.to_json())
        assert twin.evaluate() == pytest.approx(expected_values(twin, other), abs=1e-12)
        changed += twin.evaluate() != pytest.approx(state.evaluate(), abs=1e-9)
    assert changed > 10


def test_the_shipped_weights_are_marked_assumed_and_documented():
    doc = json.loads((data_mod.DATA / "evaluate.json").read_text(encoding="utf-8"))
    for name in data_mod.EVALUATE_WEIGHTS:
        assert doc[name]["status"].startswith("ASSUMED"), name
    assert "_doc" in doc


@pytest.mark.parametrize("change, words", [
    ({"coin": {"value": -1}}, "coin must be"),
    ({"scale": {"value": 0}}, "scale must be above 0"),
    ({"worker": {"value": float("nan")}}, "worker must be"),
    ({"building": {"value": "1.5"}}, "building must be"),
    ({"building": {"value": True}}, "building must be"),
    ({"development_step": None}, "development_step must be"),
    ({"bonus": {"value": 1.0}}, "unknown weight(s) bonus"),
])
def test_a_bad_weights_file_is_refused_naming_the_weight(change, words):
    doc = json.loads((data_mod.DATA / "evaluate.json").read_text(encoding="utf-8"))
    doc = copy.deepcopy(doc)
    for name, entry in change.items():
        if entry is None:
            del doc[name]
        else:
            doc[name] = entry
    with pytest.raises(ValueError) as err:
        data_mod.evaluate_weights(doc)
    assert words in str(err.value) and "evaluate.json" in str(err.value)

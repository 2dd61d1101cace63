"""Hellas's evaluate() weights live in data/evaluate.json (ASSUMED search heuristics, not rules): checked on load,
and the C code follows them. The formula (docs/rules/hellas.md, "Evaluation heuristic"): Sparta's value is the
logistic of (prestige lead + tribute of the cities held against their loyalty + step x the steps' difference) / scale."""
import json
import math
import random
import shutil

import pytest

from engine.errors import BadDataError
from engine.games.hellas import loader
from engine.registry import load_game

SPARTA = 1


def with_weights(tmp_path, name, **weights):
    """Hellas from a copy of its data folder with these weights (a folder each: a data set's tables are loaded once a
    process per folder)."""
    folder = tmp_path / name
    folder.mkdir()
    for f in loader.DATA_DIR.iterdir():
        shutil.copy(f, folder / f.name)
    doc = json.loads((folder / "evaluate.json").read_text())
    for weight, value in weights.items():
        doc[weight] = dict(doc[weight], value=value) if weight in doc else {"value": value}
    (folder / "evaluate.json").write_text(json.dumps(doc))
    return folder


def positions(game, seed=3, plies=120):
    """The states of a seeded random game (the same actions under any weights: evaluate() changes no rule)."""
    rng, state, out = random.Random(seed), game.new_initial_state(), []
    for ply in range(plies):
        if state.is_terminal():
            break
        acts = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply(rng.choice(acts))
        if ply % 10 == 9:
            out.append(state.clone())
    return out


def lead(state, scale):
    """The sum evaluate() squashed: scale x logit(Sparta's value)."""
    p = state.evaluate()[SPARTA]
    return scale * math.log(p / (1.0 - p))


def test_the_shipped_weights_are_marked_assumed_and_documented():
    doc = json.loads((loader.DATA_DIR / "evaluate.json").read_text(encoding="utf-8"))
    assert set(doc) - {"_doc"} == set(loader.EVALUATE_WEIGHTS) and "_doc" in doc
    for name in loader.EVALUATE_WEIGHTS:
        assert doc[name]["status"].startswith("ASSUMED"), name
    assert loader.load().evaluate == {name: doc[name]["value"] for name in loader.EVALUATE_WEIGHTS}


@pytest.mark.parametrize("edit, words", [
    ({"step": {"value": -0.1}}, "step must be"),
    ({"scale": {"value": 0}}, "scale must be above 0"),
    ({"step": {"value": "0.1"}}, "step must be"),
    ({"bonus": {"value": 1.0}}, "unknown weight(s) bonus"),
])
def test_a_bad_weights_file_is_refused_naming_the_weight(tmp_path, edit, words):
    folder = with_weights(tmp_path, "bad")
    doc = json.loads((folder / "evaluate.json").read_text())
    doc.update(edit)
    (folder / "evaluate.json").write_text(json.dumps(doc))
    with pytest.raises(BadDataError) as err:
        loader.load(directory=folder)
    assert words in str(err.value) and "evaluate.json" in str(err.value)


def test_evaluate_follows_the_weights_of_the_file(tmp_path):
    # scale only divides the sum; the sum is linear in step, with the steps' difference as its slope
    shipped = positions(load_game("hellas"))                                    # step 0.1, scale 5
    games = {(step, scale): load_game("hellas", data=str(with_weights(tmp_path, f"w{step}", step=step, scale=scale)
                                                          / "scenario_431.toml"))
             for step, scale in ((0.3, 2.0), (0.6, 5.0))}
    third, sixth = positions(games[0.3, 2.0]), positions(games[0.6, 5.0])
    slopes = []
    for a, b, c in zip(shipped, third, sixth, strict=True):
        x1, x3, x6 = lead(a, 5.0), lead(b, 2.0), lead(c, 5.0)
        assert x6 - x1 == pytest.approx(2.5 * (x3 - x1), abs=1e-6)
        slopes.append(x3 - x1)
    assert any(abs(s) > 0.05 for s in slopes)                # the steps' difference moved the value somewhere

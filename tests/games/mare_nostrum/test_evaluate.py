"""Mare Nostrum's evaluate() weights live in data/evaluate.json (ASSUMED search heuristics, not rules), checked
when the game loads; a bad file is refused naming the weight."""
import json
from pathlib import Path

import pytest

from engine.games.mare_nostrum import state as mn

DATA = Path(mn.__file__).resolve().parent / "data"


def test_the_shipped_weights_are_marked_assumed_and_documented():
    doc = json.loads((DATA / "evaluate.json").read_text(encoding="utf-8"))
    assert set(doc) - {"_doc"} == set(mn.EVALUATE_WEIGHTS) and "_doc" in doc
    for name in mn.EVALUATE_WEIGHTS:
        assert doc[name]["status"].startswith("ASSUMED"), name
    assert mn.evaluate_weights(DATA / "evaluate.json") == {"all_paths": 0.25, "pyramids": 0.5, "coin": 0.5}


@pytest.mark.parametrize("edit, words", [
    ({"coin": {"value": -0.5}}, "coin must be"),
    ({"pyramids": {"value": 1e9}}, "pyramids must be"),
    ({"all_paths": {"value": None}}, "all_paths must be"),
    ({"bonus": {"value": 1.0}}, "unknown weight(s) bonus"),
])
def test_a_bad_weights_file_is_refused_naming_the_weight(tmp_path, edit, words):
    doc = json.loads((DATA / "evaluate.json").read_text(encoding="utf-8"))
    doc.update(edit)
    (tmp_path / "evaluate.json").write_text(json.dumps(doc))
    with pytest.raises(ValueError) as err:
        mn.evaluate_weights(tmp_path / "evaluate.json")
    assert words in str(err.value) and "mare_nostrum data: evaluate.json" in str(err.value)

"""engine/weights.py: a game's evaluate() weights file, checked (each game's own tests hold its C code to them)."""
import pytest

from engine.weights import check_weights, load_weights

NAMES = ("step", "scale")


def doc(**values):
    return {"_doc": "a comment", **{name: {"value": v, "status": "ASSUMED"} for name, v in values.items()}}


def test_good_weights_are_read_as_floats():
    assert check_weights(doc(step=1, scale=2.5), NAMES) == {"step": 1.0, "scale": 2.5}
    assert check_weights(doc(step=0, scale=100), NAMES) == {"step": 0.0, "scale": 100.0}


@pytest.mark.parametrize("bad, words", [
    (doc(step=-1, scale=1), "step must be an entry whose value is a number in [0, 100]"),
    (doc(step=101, scale=1), "step must be"),
    (doc(step=float("nan"), scale=1), "step must be"),
    (doc(step=float("inf"), scale=1), "step must be"),
    (doc(step=True, scale=1), "step must be"),
    (doc(step="1", scale=1), "step must be"),
    (doc(scale=1), "step must be"),
    ({"step": 1, "scale": {"value": 1}}, "step must be"),
    (doc(step=1, scale=0), "scale must be above 0"),
    (doc(step=1, scale=1, bonus=2), "unknown weight(s) bonus; known: step, scale"),
    ([1, 2], "must be a JSON object of weights, got list"),
])
def test_a_bad_file_is_refused_naming_the_weight(bad, words):
    with pytest.raises(ValueError) as err:
        check_weights(bad, NAMES, file="w.json")
    assert words in str(err.value) and str(err.value).startswith("w.json: ")


def test_only_the_named_weights_must_be_positive():
    assert check_weights(doc(step=1, scale=0), NAMES, positive=()) == {"step": 1.0, "scale": 0.0}


def test_a_file_that_is_not_json_is_refused_by_name(tmp_path):
    (tmp_path / "evaluate.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"^evaluate.json: cannot be read as JSON"):
        load_weights(tmp_path / "evaluate.json", NAMES)
    with pytest.raises(ValueError, match=r"^missing.json: cannot be read as JSON"):
        load_weights(tmp_path / "missing.json", NAMES)

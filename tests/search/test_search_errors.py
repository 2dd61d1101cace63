"""Bad input: a clear error naming the problem (issue 7 'Bad input')."""
import pytest

from engine.registry import load_game
from search import SEARCHERS, SearchOptionError, SearchStateError, from_spec, make_searcher, parse_spec
from search_helpers import position


@pytest.mark.parametrize("options,needle", [
    ({"iterations": 0}, "iterations=0"),
    ({"iterations": -5}, "iterations=-5"),
    ({"time": 0.0}, "time=0.0"),
    ({"time": "-1"}, "time=-1.0"),
    ({"calls": 0}, "calls=0"),
    ({"iterations": "ten"}, "'ten' is not an integer"),
    ({"iterations": 2.5}, "iterations must be int"),
    ({"c": -0.1}, "c=-0.1"),
    ({"c": "nan"}, "finite"),
    ({"rollout": "smart"}, "rollout='smart' is not one of random, heuristic"),
    ({"final": "robust"}, "final='robust'"),
    ({"depth": 0}, "depth=0"),
    ({"workers": 0}, "workers=0"),
    ({"iterations": True}, "iterations must be int"),
    ({"bogus": 1}, "unknown option 'bogus'"),
    ({"implicit": -0.1}, "implicit=-0.1 must be >= 0"),
    ({"implicit": 1.5}, "implicit=1.5 must be <= 1"),
])
@pytest.mark.parametrize("name", sorted(SEARCHERS))
def test_bad_options(name, options, needle):
    with pytest.raises(SearchOptionError, match=needle.replace("(", r"\(").replace(".", r"\.")) as err:
        make_searcher(name, **options)
    assert name in str(err.value) and isinstance(err.value, ValueError)


def test_budget_error_says_it_is_a_budget():
    with pytest.raises(ValueError, match="budget must be positive"):
        make_searcher("ismcts", time=-1)


def test_determinizations_is_pimc_only():
    assert make_searcher("pimc", determinizations="3").options["determinizations"] == 3
    with pytest.raises(SearchOptionError, match="unknown option 'determinizations'"):
        make_searcher("ismcts", determinizations=3)
    with pytest.raises(SearchOptionError, match="determinizations=0"):
        make_searcher("pimc", determinizations=0)


def test_unknown_searcher():
    with pytest.raises(SearchOptionError, match="unknown searcher 'alphazero'; known searchers: mcts, pimc, ismcts"):
        make_searcher("alphazero")


def test_spec_strings():
    s = from_spec("ismcts:time=1.0,c=0.7,rollout=heuristic,depth=40")
    assert s.options["time"] == 1.0 and s.options["c"] == 0.7 and s.options["depth"] == 40
    assert parse_spec("pimc") == ("pimc", {})
    with pytest.raises(SearchOptionError, match="unknown option 'speed'"):
        from_spec("ismcts:speed=3")
    with pytest.raises(SearchOptionError, match="not of the form name=value"):
        from_spec("ismcts:time")
    with pytest.raises(SearchOptionError, match="given twice"):
        from_spec("ismcts:time=1,time=2")


def test_default_budget_and_options_table():
    s = make_searcher("mcts")
    assert s.options["iterations"] == 1000
    for cls in SEARCHERS.values():
        for name, (kind, _default, text) in cls.OPTIONS.items():
            assert kind in (int, float, str) and text


@pytest.mark.parametrize("name", sorted(SEARCHERS))
def test_terminal_state(name):
    s = position({"players": 2, "cards": 3, "round": 3, "phase": "over", "to_bid": 0, "prize": 1,
                  "prize_deck": [], "hands": [[], []], "bids": [None, None], "last_bids": [1, 3],
                  "points": [3, 3]})
    with pytest.raises(SearchStateError, match="terminal"):
        make_searcher(name).search(s)


def test_not_a_state():
    with pytest.raises(SearchStateError, match="needs an engine State, got dict"):
        make_searcher("mcts").search({"players": 2})

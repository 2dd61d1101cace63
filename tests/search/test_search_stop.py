"""`stop=decided` (docs/search.md, Options): a search ends as soon as its most visited root move cannot be
overtaken in the budget left (its lead in visits over the next move is more than the iterations left at the rate so
far), so it chooses what the whole budget would have, sooner, and a bot's turn time goes to its later decisions."""
import pytest

from engine.registry import load_game
from search import SearchOptionError, make_searcher
from search.analysis import analyse
from search.bench import opening
from search_helpers import random_positions

GAMES = [("goofspiel", {"players": 3}), ("polis", {}), ("pantikapaion", {"players": 2}), ("hellas", {}),
         ("mare_nostrum", {"players": 3})]
SEARCHERS = [("mcts", {}), ("ismcts", {}), ("ismcts", {"keys": "observer", "rollout": "mast"}),
             ("ismcts", {"keys": "path", "observers": "multi"}),
             ("ismcts", {"rollout": "heuristic", "depth": 12, "opponents": "policy"})]
BUDGET = 600


def _lead(visits: dict) -> int:
    ranked = sorted(visits.values(), reverse=True) + [0]
    return ranked[0] - ranked[1]


@pytest.mark.parametrize("name, options", GAMES)
def test_an_iteration_budget_chooses_what_the_whole_budget_does(name, options):
    """With an iteration budget the rest of the budget is known exactly: a search that stops has a lead larger
    than the iterations it left, so the same search (same seed) run to the end cannot choose another move; one
    that does not stop runs the whole budget. Five searcher configurations, three positions a game; some stop."""
    stopped = 0
    for state in random_positions(name, 3, seed=3, **options):
        for searcher, extra in SEARCHERS:
            whole = make_searcher(searcher, iterations=BUDGET, seed=9, **extra).search(state)
            early = make_searcher(searcher, iterations=BUDGET, seed=9, stop="decided", **extra).search(state)
            assert early.action == whole.action, (name, searcher, extra)
            if early.stats["stopped"]:
                stopped += 1
                assert early.stats["iterations"] < BUDGET
                assert _lead(early.stats["visits"]) > BUDGET - early.stats["iterations"]
            else:
                assert early.stats["iterations"] == BUDGET
            assert not whole.stats["stopped"]
    assert stopped > 0, name


def test_a_kept_tree_counts_its_kept_visits():
    """reuse=yes: the root's visits kept from the last search count towards the lead (the final choice counts
    them too), and the choice is still the whole budget's. The first search is too short to stop (under 64
    iterations), so both searchers keep the same tree; then each gets the full budget, as a bot sets a decision's
    budget before each search."""
    stopped = 0
    for state in random_positions("polis", 4, seed=5):
        results = {}
        for stop in ("budget", "decided"):
            searcher = make_searcher("ismcts", iterations=60, seed=2, reuse="yes", stop=stop)
            searcher.search(state)
            searcher.options["iterations"] = BUDGET
            results[stop] = searcher.search(state)     # the same information set: its node is the root again
            assert results[stop].stats["reused_visits"] > 0
        early = results["decided"]
        assert early.action == results["budget"].action
        if early.stats["stopped"]:
            stopped += 1
            assert _lead(early.stats["visits"]) > BUDGET - early.stats["iterations"]
    assert stopped > 0


def test_a_clear_choice_ends_a_timed_search_early():
    """Polis's opening has one move far ahead of the rest: with 0.4 s the search stops before its time."""
    state = opening(load_game("polis"))
    result = make_searcher("ismcts", time=0.4, seed=1, stop="decided").search(state)
    assert result.stats["stopped"] and result.stats["seconds"] < 0.4
    assert not make_searcher("ismcts", time=0.1, seed=1).search(state).stats["stopped"]


def test_the_analysis_stops_on_the_whole_budget_not_a_slice():
    """kleos analyse searches in slices of 0.05 s here: the stop is judged on the whole search's budget, so the
    choice is the uninterrupted search's, and the report says whether it stopped."""
    state = random_positions("pantikapaion", 1, seed=4, players=2)[0]
    whole = make_searcher("ismcts", iterations=4000, seed=6).search(state)
    report = analyse(make_searcher("ismcts", iterations=4000, seed=6, stop="decided"), state, every=0.05)
    assert report["choice"]["action"] == whole.action
    assert report["tree"]["stop"] == "decided"
    assert report["tree"]["stopped"] == (report["tree"]["iterations"] < 4000)
    plain = analyse(make_searcher("ismcts", iterations=500, seed=6), state, every=0.05)
    assert plain["tree"]["stop"] == "budget" and not plain["tree"]["stopped"]


@pytest.mark.parametrize("searcher, options, message", [
    ("pimc", {}, "PIMC sums the votes of several trees"),
    ("ismcts", {"final": "value"}, "final=value does not choose by visits"),
    ("mcts", {"final": "mixed"}, "final=mixed does not choose by visits"),
    ("ismcts", {"workers": 2}, "workers=2 .* is not supported"),
    ("ismcts", {"stop": "early"}, "stop='early' is not one of budget, decided")])
def test_bad_stop(searcher, options, message):
    with pytest.raises(SearchOptionError, match=message):
        make_searcher(searcher, **{"stop": "decided", **options})


def test_an_analysis_in_one_slice_stops_where_the_bot_does():
    """A slice that holds the whole search (a fast machine, or a long `every`) judges stop=decided inside it,
    against the whole budget: it ends at the same iteration as the bot's one run, not at the budget."""
    state = opening(load_game("polis"))
    bot = make_searcher("ismcts", iterations=20000, seed=3, stop="decided").search(state)
    report = analyse(make_searcher("ismcts", iterations=20000, seed=3, stop="decided"), state, every=60.0)
    assert bot.stats["stopped"] and report["tree"]["stopped"]
    assert report["tree"]["iterations"] == bot.stats["iterations"] < 20000
    assert report["choice"]["action"] == bot.action


def test_the_console_report_says_how_the_search_ended():
    """`kleos analyse` names stop=decided: decided early at a clear choice (Polis's opening), or at its budget;
    no row without the option."""
    from test_search_analysis import run_cli
    code, out = run_cli("polis", "--bot", "ismcts:iterations=20000,stop=decided")
    assert code == 0 and "decided before the budget was spent" in out
    code, out = run_cli("polis", "--bot", "ismcts:iterations=200")
    assert code == 0 and "decided before" not in out and "the choice was still open" not in out

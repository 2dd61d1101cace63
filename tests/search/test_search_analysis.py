"""``kleos analyse`` (issue 20): the JSON report's fields, visits that add up to the root's, the same choice as the
bot's own search, no peeking at hidden state, sliced search identical to one run, and one-line errors."""
import json

import pytest
from click.testing import CliRunner

from arena.cli import main
from engine.registry import list_games, load_game
from engine.rng import RNG
from search import make_searcher
from search.analysis import analyse, interval
from search.uct import UCT
from search_helpers import position
from test_search_information import BASE, OTHER


def run_cli(*args):
    result = CliRunner().invoke(main, ["analyse", *args])
    return result.exit_code, result.output


def analysed(*args):
    code, out = run_cli(*args, "--json")
    assert code == 0, out
    return json.loads(out)


@pytest.mark.parametrize("bot", ["mcts:iterations=400", "pimc:iterations=400,determinizations=4",
                                 "ismcts:iterations=400", "ismcts:iterations=400,keys=path,observers=multi"])
def test_report_fields_and_visits(bot):
    r = analysed("goofspiel", "--bot", bot)
    for key in ("game", "position", "bot", "searcher", "seat", "choice", "candidates", "root_visits",
                "principal_line", "line_stop", "note", "tree"):
        assert key in r
    for key in ("nodes", "max_depth", "memory_bytes", "iterations", "iterations_per_s", "rollout_share",
                "determinizations"):
        assert key in r["tree"]
    # every iteration passes through exactly one of the seat's root moves (PIMC: summed over its trees)
    assert sum(c["visits"] for c in r["candidates"]) == r["root_visits"] == r["tree"]["iterations"] == 400
    assert len(r["candidates"]) == 13 and r["tree"]["nodes"] > 13 and r["tree"]["memory_bytes"] > 0
    best = r["candidates"][0]
    assert best["low"] <= best["value"] <= best["high"]
    assert r["principal_line"][0]["move"] == r["choice"]["move"]
    expected = {"mcts": 1, "pimc": 4, "ismcts": 400}[bot.split(":")[0]]
    assert r["tree"]["determinizations"] == expected


@pytest.mark.parametrize("game", list_games())
@pytest.mark.parametrize("name", ["mcts", "pimc", "ismcts"])
def test_choice_is_the_searchers(game, name):
    """The analysed search is the bot's search: the same move as make_searcher(...).search() on the same view."""
    state = load_game(game).new_initial_state()
    rng = RNG(3)
    for _ in range(6):                       # a few random actions in, chance by the same stream
        if state.is_terminal():
            break
        legal = state.legal_actions() if not state.is_chance_node() else [a for a, _ in state.chance_outcomes()]
        state.apply(rng.choice(legal))
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    if state.is_terminal() or len(state.legal_actions()) < 2:
        pytest.skip("no decision to analyse here")
    view = state.determinize(state.current_player(), 5)
    report = analyse(make_searcher(name, iterations=300, seed=7), view, every=0.0005, on_slice=lambda s: None)
    plain = make_searcher(name, iterations=300, seed=7).search(view)
    assert report["choice"]["action"] == plain.action
    assert {c["action"]: c["visits"] for c in report["candidates"] if c["visits"]} == \
        {a: v for a, v in plain.stats["visits"].items() if v}


def test_slices_resume_one_search(goof13):
    one, two = UCT(True, 0.7, 0, -1), UCT(True, 0.7, 0, -1)
    one.run(goof13, 900, 0, 0, 11)
    two.run(goof13, 300, 0, 0, 11)
    two.run(goof13, 600, 0, 0, 99, True)     # resume: the seed is ignored, the stream goes on
    assert one.root_edges() == two.root_edges() and two.iterations == 900


@pytest.mark.parametrize("bot", ["mcts:iterations=600", "pimc:iterations=600", "ismcts:iterations=600",
                                 "ismcts:iterations=600,belief=particles", "pimc:iterations=600,belief=particles"])
def test_no_peeking(tmp_path, bot):
    """Two positions that differ only in the opponents' face-down bids give the same analysis, byte for byte
    (but for the file name): the bot searches a determinization from the seat's view, never the state given."""
    outs = []
    for i, obj in enumerate((BASE, OTHER)):
        path = tmp_path / f"s{i}.json"
        path.write_text(json.dumps(position(obj).to_json()))
        r = analysed("goofspiel", "-p", "3", "-o", "cards=8", "--bot", bot, "--state", str(path), "--seat", "2")
        for key in ("position",):
            r.pop(key)
        for key in ("seconds", "iterations_per_s", "rollout_share"):
            r["tree"].pop(key)
        outs.append(r)
    assert outs[0] == outs[1]
    # the control: analysing the given states themselves (what the command never does) tells them apart
    direct = [analyse(make_searcher("mcts", iterations=600, seed=1), position(obj)) for obj in (BASE, OTHER)]
    assert direct[0]["candidates"] != direct[1]["candidates"]


@pytest.mark.parametrize("bot", ["ismcts:iterations=300,belief=particles,particles=24",
                                 "pimc:iterations=300,belief=particles,particles=24,model=greedy"])
def test_belief_follows_the_random_game_and_shows_its_effective_sample_size(bot):
    """A random game's position: the filter reads the game's actions as the seat saw them (no refill in Polis,
    whose hidden hands show in no key before the seat's decision); a state file has no history: refilled from
    the view. The table shows the belief."""
    r = analysed("polis", "--plies", "12", "--bot", bot)
    assert r["belief"]["particles"] == 24 and 0 < r["belief"]["ess"] <= 24 and r["belief"]["refills"] == 0
    if bot.startswith("ismcts"):
        assert r["tree"]["determinizations"] < 300        # most worlds were particles (belief_mix=0.1)
    assert analysed("polis", "--plies", "12", "--bot", "ismcts:iterations=50")["belief"] is None
    code, out = run_cli("polis", "--plies", "12", "--bot", bot)
    assert code == 0 and "effective sample size" in out


def test_interval():
    assert interval(0.5, 0) == (0.0, 1.0)
    low, high = interval(1.0, 10)
    assert 0.6 < low < 1.0 and high == pytest.approx(1.0)   # Wilson: no zero-width interval at a perfect score
    assert interval(0.5, 10000)[1] - interval(0.5, 10000)[0] < 0.03


@pytest.mark.parametrize("args, message", [
    (["--bot", "random"], "needs a search bot"),
    (["--bot", "ismcts:bogus=1"], "unknown option 'bogus'"),
    (["--bot", "nosuchbot"], "nosuchbot"),
    (["--bot", "ismcts:oracle=true"], "oracle"),
    (["--bot", "ismcts:workers=2"], "workers=2"),
    (["--bot", "ismcts", "--seat", "1"], "seat 0 is to move"),
    (["--bot", "ismcts", "--seat", "5"], "seats 0 to 1"),
    (["--bot", "ismcts", "--state", "/nonexistent.json"], "does not exist"),
])
def test_bad_options(args, message):
    code, out = run_cli("goofspiel", *args)
    assert code != 0 and message in out and "Traceback" not in out
    assert "internal error" not in out


def test_unreadable_state(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out = run_cli("goofspiel", "--bot", "ismcts", "--state", str(bad))
    assert code != 0 and "not a readable JSON state" in out and "Traceback" not in out


def test_table_output():
    code, out = run_cli("goofspiel", "--bot", "ismcts:iterations=300")
    assert code == 0, out
    assert "principal line" in out and "determinizations" in out and "95% interval" in out


@pytest.mark.parametrize("keys", ["mover", "observer"])
def test_principal_line_follows_information_set_nodes(keys):
    """With information-set nodes (issue 24) a decision's node is found by its information set, not as a child of
    the move before it: the line goes on past the first move, through the others' moves and the prize reveals,
    and every move in it is legal when replayed from the position."""
    state = load_game("goofspiel", cards=8).new_initial_state()
    state.apply(7)                                          # the prize 8
    r = analyse(make_searcher("ismcts", iterations=20000, seed=1, keys=keys), state)
    line = r["principal_line"]
    assert line[0]["move"] == r["choice"]["move"]
    if keys == "mover":                     # the opponent moves at its own node, so the line crosses rounds
        assert len(line) >= 4 and {0, 1, -1} <= {m["seat"] for m in line}, line
    else:                                   # observer keys: the opponent's bid is hidden from the seat
        assert r["line_stop"] == "a move seat 1 keeps hidden" and [m["seat"] for m in line] == [0], line
    replay = state.clone()
    for m in line:
        legal = replay.legal_actions() if m["seat"] >= 0 else [a for a, _ in replay.chance_outcomes()]
        assert replay.current_player() == m["seat"] and m["action"] in legal
        assert m["seat"] < 0 or m["visits"] >= 2
        replay.apply(m["action"])


@pytest.mark.parametrize("bot", ["mcts:iterations=400,implicit=0.5", "ismcts:iterations=400,implicit=0.5"])
def test_implicit_values_are_shown_beside_the_returns(bot):
    """implicit=alpha (docs/search.md, "Implicit minimax backups"): each root move's implicit value for the seat,
    as the tree holds it, in the JSON report and as a column of the table; absent without the option."""
    r = analysed("polis", "--bot", bot)
    tried = [c for c in r["candidates"] if c["visits"] > 0]
    assert tried and all(0.0 <= c["implicit"] <= 1.0 for c in tried)
    assert len({round(c["implicit"], 6) for c in tried}) > 1           # the moves' values differ
    assert all("implicit" not in c for c in analysed("polis", "--bot", bot.split(",")[0])["candidates"])
    code, out = run_cli("polis", "--bot", bot)
    assert code == 0 and "implicit" in out.splitlines()[next(i for i, ln in enumerate(out.splitlines())
                                                             if "95% interval" in ln)]


@pytest.mark.parametrize("name", ["mcts", "pimc", "ismcts"])
def test_the_share_of_iterations_cut_off_inside_the_tree(name):
    """An iteration that meets the depth cut-off before it leaves the tree expands nothing: the tree already fills
    the horizon there. With a 2-action cut-off in goofspiel (a bid each) the tree is full within a few hundred
    iterations, so most of 3,000 end so; with 8 actions few do; without a cut-off none. The table says so too."""
    share = {d: analysed("goofspiel", "--bot", f"{name}:iterations=3000,depth={d}")["tree"]["cutoff_in_tree_share"]
             for d in ("2", "8", "none")}
    assert share["2"] > 0.5 > share["8"] and share["none"] == 0.0, share
    code, out = run_cli("goofspiel", "--bot", f"{name}:iterations=3000,depth=2")
    assert code == 0 and "of the iterations expanded nothing" in out
    code, out = run_cli("goofspiel", "--bot", f"{name}:iterations=3000")
    assert code == 0 and "cut off in the tree" not in out


def test_the_search_counts_what_it_cut_off(goof13):
    """The search's own statistics: the share is the count over the iterations (PIMC: over all its trees, each
    of a 13 x 13 horizon, so 8 x 1,000 iterations fill them)."""
    for name, iterations in (("ismcts", 2000), ("pimc", 8000)):
        result = make_searcher(name, iterations=iterations, seed=2, depth=2).search(goof13)
        assert 0.5 < result.stats["cutoff_in_tree_share"] <= 1.0
        assert make_searcher(name, iterations=200, seed=2).search(goof13).stats["cutoff_in_tree_share"] == 0.0


def test_the_table_gives_the_cut_offs_unit():
    """depth_unit (docs/search.md, Options): the report carries it and the table's cut-off line names it."""
    assert analysed("goofspiel", "--bot", "ismcts:iterations=300,depth=4,depth_unit=turns")["tree"]["depth_unit"] == "turns"
    assert analysed("goofspiel", "--bot", "ismcts:iterations=300,depth=4")["tree"]["depth_unit"] == "actions"
    code, out = run_cli("goofspiel", "--bot", "ismcts:iterations=300,depth=4,depth_unit=turns")
    assert code == 0 and "4 turns from the root" in out
    code, out = run_cli("goofspiel", "--bot", "ismcts:iterations=300,depth=4")
    assert code == 0 and "4 actions from the root" in out


@pytest.mark.parametrize("bot", ["ismcts:iterations=600", "mcts:iterations=600", "ismcts:iterations=600,keys=path"])
def test_a_self_only_tree_is_named_and_its_line_stops_at_the_opponent(bot):
    """opponents=policy (docs/search.md, Options): the report and the table name it, and the principal line (the
    seat's own moves) stops at the first decision of another player, which has no node, where the line of the
    same search without the option goes on into the opponent's moves."""
    r = analysed("polis", "--bot", bot + ",opponents=policy")
    assert r["tree"]["opponents"] == "policy"
    assert r["principal_line"] and {m["seat"] for m in r["principal_line"]} <= {r["seat"], -1}
    assert r["line_stop"].startswith("an opponent's decision")
    plain = analysed("polis", "--bot", bot)
    assert plain["tree"]["opponents"] == "tree" and not plain["line_stop"].startswith("an opponent's decision")
    code, out = run_cli("polis", "--bot", bot + ",opponents=policy")
    assert code == 0 and "the tree holds this seat's decisions only" in " ".join(out.split())   # rich wraps it

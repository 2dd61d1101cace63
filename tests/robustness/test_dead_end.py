"""A decision node without a legal action (or a chance node without an outcome) is an error that raises a
NoLegalActionError naming the game and the phase, in every searcher, playout and legal-move query; before, the
C loops drew a random index below 0 and crashed the process (SIGFPE) or read past their buffers.

The broken states are built with Polis's raw setter, which skips from_json's checks (from_json refuses them).
Each check runs in a child process, so that a crash fails the test instead of killing pytest."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SETUP = """
import sys
sys.path[:0] = [{root!r}, {tests!r}]
from engine.errors import NoLegalActionError, BadStateError
from engine.playout import playout, measure_playouts
from games.polis.helpers import G, battle
from search import make_searcher

def broken(who_empty):
    s = battle("Boeotia", 4, 4, {{"sparta": ["A2", "C0", "B1", "D0"], "athens": ["A1", "C1", "B0", "D0"]}}, "sparta")
    r = s.raw()
    r["hand"][who_empty] = [0] * 9
    s.set_raw(r)
    return s

def expect(fn, what):
    try:
        fn()
    except NoLegalActionError as e:
        print(what, "->", e)
        return
    raise SystemExit(f"{{what}}: no NoLegalActionError")
"""


def run_child(body):
    code = SETUP.format(root=ROOT, tests=os.path.join(ROOT, "tests")) + textwrap.dedent(body)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"child exited with {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def test_legal_actions_at_a_dead_end_raises_naming_game_and_phase():
    out = run_child("""
        s = broken(1)                       # sparta (seat 1) attacks with an empty hand
        expect(s.legal_actions, "legal_actions")
        expect(lambda: s.apply(0), "apply")
        expect(lambda: playout(s.clone(), 1), "playout")
        expect(lambda: measure_playouts(s, 0.01), "measure_playouts")
    """)
    assert "legal_actions -> polis: player 1 is to move in phase 'attack' but has no legal action" in out
    assert "playout -> polis: player 1 is to move in phase 'attack'" in out


@pytest.mark.parametrize("spec", ["mcts:seed=3", "ismcts:seed=3", "ismcts:keys=path,observers=multi", "ismcts:keys=observer", "pimc:determinizations=2",
                                  "mcts:rollout=heuristic", "mcts:depth=2"])
def test_search_that_reaches_a_dead_end_raises(spec):
    # the root is fine (the attacker holds cards); the defender, to answer, holds none
    out = run_child(f"""
        from search import from_spec
        s = broken(0)
        assert s.legal_actions()
        expect(lambda: from_spec({spec + ',iterations=50'!r}).search(s), "search")
    """)
    assert "polis: player 0 is to move in phase 'defend' but has no legal action (search)" in out


def test_from_json_refuses_the_dead_end():
    out = run_child("""
        s = broken(1)
        try:
            G.state_from_json(s.to_json())
        except BadStateError as e:
            print("refused:", e)
    """)
    assert "refused: polis state:" in out


def test_chance_node_without_an_outcome_raises():
    out = run_child("""
        from engine.games.polis.codec import PHASES
        s = broken(1)
        r = s.raw()
        r["phase"] = PHASES.index("deal")      # a card to deal from an empty deck
        r["need"][0] = 1
        r["deck"] = [0] * 9
        s.set_raw(r)
        expect(s.chance_outcomes, "chance_outcomes")
        expect(lambda: playout(s.clone(), 1), "playout")
    """)
    assert "chance_outcomes -> polis: chance is to move in phase 'deal' but has no outcome" in out

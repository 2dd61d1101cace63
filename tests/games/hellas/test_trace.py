"""Hellas random games move for move against a recording (trace_hashes.json): a speed change to the C code must
leave every legal-action list, every chance distribution and every end state as they were.

Each game is seeded; its hash covers, at every node, the legal actions (or the chance outcomes and their
probabilities) and the action taken, a determinization from the mover's seat at its 300th node, and the final
state's JSON. Re-record only for a deliberate rules change: `python tests/games/hellas/test_trace.py --record`.
"""
import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from engine.games.hellas.state import HellasGame

FIXTURE = Path(__file__).with_name("trace_hashes.json")
# (data option, rules option, seeds): the default data set most, the designer's roster and two rule variants
CASES = (
    ("placeholder", "", 200),
    ("designer", "", 40),
    ("placeholder", 'FAVOUR_REROLL=true;CAPITAL_CAPTURE_WINS=true;ATROCITY_LOSS={amount = 2, reading = "d"}', 20),
    ("placeholder", 'ATROCITY_LOSS={amount = 2, reading = "b"};BATTLE_ORDER="free"', 20),
)


def trace_hash(game, seed):
    """The hash of one seeded random game (see the module docstring)."""
    h = hashlib.sha256()
    rng = random.Random(seed)
    s = game.new_initial_state()
    n = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            h.update(repr(outcomes).encode())
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = s.legal_actions()
            h.update(repr(legal).encode())
            action = rng.choice(legal)
            if n >= 300 and n < 1000:
                h.update(json.dumps(s.determinize(s.current_player(), seed).to_json(), sort_keys=True).encode())
                n = 1000
        h.update(b"%d;" % action)
        s.apply(action)
        n += 1
    h.update(json.dumps(s.to_json(), sort_keys=True).encode())
    return h.hexdigest()[:16]


def record():
    return {f"{data}|{rules}": [trace_hash(HellasGame({"data": data, "rules": rules}), seed) for seed in range(n)]
            for data, rules, n in CASES}


@pytest.mark.parametrize("data, rules, seeds", CASES)
def test_random_games_are_move_for_move_the_recorded_ones(data, rules, seeds):
    expected = json.loads(FIXTURE.read_text())[f"{data}|{rules}"]
    game = HellasGame({"data": data, "rules": rules})
    got = [trace_hash(game, seed) for seed in range(seeds)]
    differ = [seed for seed in range(seeds) if got[seed] != expected[seed]]
    assert not differ, f"{len(differ)} of {seeds} games differ from the recording, first seeds {differ[:5]}"


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    FIXTURE.write_text(json.dumps(record(), indent=1) + "\n")

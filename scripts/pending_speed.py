"""Iterations a second of ISMCTS with the second mover's root rewound (pending=rewind, the default) and without
(pending=sample), alternating searches of 0.3 s in one process so that both see the same load; medians.

    python scripts/pending_speed.py
"""
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import load_game  # noqa: E402
from search import make_searcher  # noqa: E402
from search.bench import first_hidden_decision, opening  # noqa: E402

CASES = [("goofspiel", {"players": 2}), ("goofspiel", {"players": 5}), ("polis", {})]


def main(rounds: int = 7, seconds: float = 0.3):
    for name, opts in CASES:
        state = first_hidden_decision(opening(load_game(name, **opts)))
        rewind, sample = [], []
        for _ in range(rounds):
            for pending, out in (("rewind", rewind), ("sample", sample)):
                result = make_searcher("ismcts", time=seconds, pending=pending).search(state)
                out.append(result.stats["iterations_per_s"])
        ratio = statistics.median(a / b for a, b in zip(rewind, sample))
        print(f"{name} {opts}: rewind {statistics.median(rewind):,.0f} it/s, sample "
              f"{statistics.median(sample):,.0f} it/s, ratio {ratio:.3f}", flush=True)


if __name__ == "__main__":
    main()

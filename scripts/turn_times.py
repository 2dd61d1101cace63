"""How each bot of kept games spent its time over a turn: the mean milliseconds of its 1st, 2nd, ... real decision
(more than one legal move) of a turn, and of a whole turn (docs/strength.md, "A turn's time shared evenly").

    python scripts/turn_times.py docs/records/polis-pace-front-01s-1325.jsonl.gz
    python scripts/turn_times.py docs/records/polis-stop-kleos-01s-131[56].jsonl.gz --positions 8

A turn is a seat's consecutive decisions (chance between them does not end it), as the referee counts it for a
bot's time=T; each game is replayed from its record to tell the forced decisions, which bots play without a search.
Decisions past the last position shown are counted in its row ("8+").
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.errors import KleosError  # noqa: E402
from engine.records import read_whole_runs, replay  # noqa: E402

CHANCE = -1


def turn_times(records, positions: int) -> dict:
    """{bot: {"by_position": [[seconds...] for each position], "turns": [seconds of each whole turn]}}: every real
    decision's time by its place among its turn's real decisions (the last place gathers the later ones)."""
    out: dict = defaultdict(lambda: {"by_position": [[] for _ in range(positions)], "turns": []})
    for record in records:
        states = replay(record)
        state = next(states)
        seat, step, used = None, 0, 0.0
        for player, seconds, after in zip(record.players, record.times, states):
            if player != CHANCE:
                if player != seat:
                    if seat is not None:
                        out[record.bots[seat]]["turns"].append(used)
                    seat, step, used = player, 0, 0.0
                if len(state.legal_actions()) > 1:
                    out[record.bots[player]]["by_position"][min(step, positions - 1)].append(seconds)
                    step += 1
                used += seconds
            state = after
        if seat is not None:
            out[record.bots[seat]]["turns"].append(used)
    return out


def table(times: dict, positions: int) -> str:
    head = [f"{i + 1}" for i in range(positions - 1)] + [f"{positions}+"]
    lines = ["| bot | " + " | ".join(head) + " | a turn |", "|---|" + "---:|" * (positions + 1)]
    for bot, t in sorted(times.items()):
        cells = [f"{1000 * sum(v) / len(v):.1f} ({len(v)})" if v else "-" for v in t["by_position"]]
        turn = f"{1000 * sum(t['turns']) / len(t['turns']):.1f}" if t["turns"] else "-"
        lines.append(f"| `{bot}` | " + " | ".join(cells) + f" | {turn} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="record files (.jsonl or .jsonl.gz)")
    parser.add_argument("--positions", type=int, default=7, help="positions in a turn shown (the last gathers the "
                                                                  "later ones; default 7)")
    args = parser.parse_args(argv)
    if args.positions < 1:
        parser.error("--positions must be at least 1")
    try:
        records = read_whole_runs(args.records)
        times = turn_times(records, args.positions)
    except KleosError as e:
        print(f"turn_times: {e}", file=sys.stderr)
        return 2
    print(f"Mean milliseconds of each bot's real decisions by their place in its turn (decisions in brackets), "
          f"{len(records)} games:\n")
    print(table(times, args.positions))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How each bot of kept games spent its time over a turn: the mean milliseconds of its 1st, 2nd, ... real decision
(more than one legal move) of a turn, and of a whole turn (docs/strength.md, "A turn's time shared evenly").

    python scripts/turn_times.py docs/records/polis-pace-front-01s-1325.jsonl.gz
    python scripts/turn_times.py docs/records/polis-stop-kleos-01s-131[56].jsonl.gz --positions 8

A turn is a seat's consecutive decisions (chance between them does not end it), as the referee counts it for a
bot's time=T; each game is replayed from its record to tell the forced decisions, which bots play without a search.
Decisions past the last position shown are counted in its row ("8+").

With ``--last``, also how often the search bots' ``pace=last`` would know a turn's last real decision for what it is
(``TurnPace.ends_turn``, asked as a bot asks it: fresh determinizations from the mover's seat), how often it would
take a decision that the turn went on from for a last one (none, where the game lets a view tell), and what asking
costs:

    python scripts/turn_times.py docs/records/mn3-last-01s-1345.jsonl.gz --last
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bots.base import TurnPace  # noqa: E402
from engine.errors import KleosError  # noqa: E402
from engine.records import read_whole_runs, replay  # noqa: E402

CHANCE = -1


def turns(record):
    """Each turn of a kept game as (seat, [(state before, seconds, real) for each of its decisions]), in order; real:
    more than one legal move (forced decisions are played without a search)."""
    states = replay(record)
    state = next(states)
    seat, decisions = None, []
    for player, seconds, after in zip(record.players, record.times, states):
        if player != CHANCE:
            if player != seat:
                if decisions:
                    yield seat, decisions
                seat, decisions = player, []
            decisions.append((state, seconds, len(state.legal_actions()) > 1))
        state = after
    if decisions:
        yield seat, decisions


def turn_times(records, positions: int) -> dict:
    """{bot: {"by_position": [[seconds...] for each position], "turns": [seconds of each whole turn]}}: every real
    decision's time by its place among its turn's real decisions (the last place gathers the later ones)."""
    out: dict = defaultdict(lambda: {"by_position": [[] for _ in range(positions)], "turns": []})
    for record in records:
        for seat, decisions in turns(record):
            mine = out[record.bots[seat]]
            real = [seconds for _, seconds, is_real in decisions if is_real]
            for step, seconds in enumerate(real):
                mine["by_position"][min(step, positions - 1)].append(seconds)
            mine["turns"].append(sum(seconds for _, seconds, _ in decisions))
    return out


def last_known(records) -> dict:
    """What ``pace=last`` would have known in these games: {"turns": turns with a real decision, "known": those whose
    last real decision it calls the turn's last, "wrong": real decisions it calls last that the turn went on from,
    "asked": real decisions, "seconds": the time all the asking took}."""
    out = {"turns": 0, "known": 0, "wrong": 0, "asked": 0, "seconds": 0.0}
    pace = TurnPace("last", seed=1)
    for record in records:
        for _, decisions in turns(record):
            calls = []
            for state, _, is_real in decisions:
                if is_real:
                    started = time.perf_counter()
                    calls.append(pace.ends_turn(state))
                    out["seconds"] += time.perf_counter() - started
            if calls:
                out["turns"] += 1
                out["asked"] += len(calls)
                out["known"] += calls[-1]
                out["wrong"] += sum(calls[:-1])
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
    parser.add_argument("--last", action="store_true", help="also how often pace=last would know a turn's last "
                                                                "real decision, and what asking costs")
    args = parser.parse_args(argv)
    if args.positions < 1:
        parser.error("--positions must be at least 1")
    try:
        records = read_whole_runs(args.records)
        times = turn_times(records, args.positions)
        known = last_known(records) if args.last else None
    except KleosError as e:
        print(f"turn_times: {e}", file=sys.stderr)
        return 2
    print(f"Mean milliseconds of each bot's real decisions by their place in its turn (decisions in brackets), "
          f"{len(records)} games:\n")
    print(table(times, args.positions))
    if known is not None and known["turns"]:
        print(f"\npace=last knows the last real decision of {known['known']} of {known['turns']} turns "
              f"({100 * known['known'] / known['turns']:.0f}%), calls {known['wrong']} earlier decisions last; "
              f"asking costs {1e6 * known['seconds'] / known['asked']:.0f} us a real decision "
              f"({known['asked']} asked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

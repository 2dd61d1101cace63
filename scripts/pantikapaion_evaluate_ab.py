"""Two sets of Pantikapaion evaluate() weights played against each other: the same bot in every seat, A's seat
searching its own copy of the game built with A's weights, every other seat with B's; A is rotated through every
seat of each deal, and the rotations of a deal share its tiles (the referee's public salt for the seed).

    python scripts/pantikapaion_evaluate_ab.py --a '{"scale": 12.21, "building": 4.92}' --games 30 --first 876

``--a`` and ``--b`` change data/evaluate.json's values (a weight's name: building, development_step, worker, coin,
scale); ``{}`` is the file as it is. The referee plays the game with the shipped weights; only the bots' searches
read the variants, and evaluate() touches nothing but their searches (the rules and the tiles are the same for
both). Deals are the referee seeds FIRST .. FIRST+games-1. Pantikapaion hides nothing, so a seat's view carried
into its own copy of the game (as JSON) is the whole position.

``-j N`` plays N games at once (each game on its own process, a deal's seats side by side). SIGTERM or Ctrl-C stops
the run: the games that ended are kept, and the report counts whole deals only (a deal with a seat unplayed would
weigh its deal unevenly).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena.executor import make_executor  # noqa: E402
from arena.referee import Referee  # noqa: E402
from arena.strength import deal_key, summarize  # noqa: E402
from bots import make_bot  # noqa: E402
from bots.own_game import searching_own_game  # noqa: E402
from engine.errors import KleosError  # noqa: E402
from engine.games.pantikapaion import data as data_mod  # noqa: E402
from engine.games.pantikapaion.state import PantikapaionGame  # noqa: E402
from engine.records import append_record, read_whole_runs  # noqa: E402

EVENT = "evaluate-ab"


def game_with(players: int, changes: dict) -> PantikapaionGame:
    """Pantikapaion with data/evaluate.json's weights changed by ``changes``, checked as the file would be."""
    if not isinstance(changes, dict):
        raise ValueError("the changes must be a JSON object of weight names and values")
    data = data_mod.load()
    unknown = sorted(set(changes) - set(data_mod.EVALUATE_WEIGHTS))
    if unknown:
        raise ValueError(f"no weight {', '.join(unknown)} in evaluate.json (known: "
                         f"{', '.join(data_mod.EVALUATE_WEIGHTS)})")
    weights = dict(data["evaluate"], **changes)
    data_mod.evaluate_weights({name: {"value": value} for name, value in weights.items()})
    return PantikapaionGame({"players": players}, dict(data, evaluate=weights))


def play_deal(players: int, spec: str, games: dict, changes: dict, seed: int, a_seat: int):
    labels = ["A" if seat == a_seat else "B" for seat in range(players)]
    bots = [searching_own_game(make_bot(spec), games[label]) for label in labels]
    meta = {"evaluate": changes, "a_seat": a_seat}
    try:
        return Referee("pantikapaion", {"players": players}, bots, seed, None, labels, meta, event=EVENT).play()
    finally:
        for bot in bots:
            bot.close()


_GAMES: dict = {}           # a worker's games, built once per set of changes


def play_one(shared, task):
    """One game of a run (an executor's task): ``shared`` the run's (players, bot spec, changes), ``task`` (seed, A's
    seat)."""
    players, spec, changes = shared
    key = (players, json.dumps(changes, sort_keys=True))
    if key not in _GAMES:
        _GAMES[key] = {label: game_with(players, c) for label, c in changes.items()}
    return play_deal(players, spec, _GAMES[key], changes, *task)


def whole_deals(records) -> tuple[list, int]:
    """The records of deals played with A in every seat, and how many games of other deals were left out."""
    seats: dict = {}
    for r in records:                               # a deal as summarize() groups them
        seats.setdefault(deal_key(r), set()).add(r.meta["a_seat"])
    kept = [r for r in records if len(seats[deal_key(r)]) == len(r.seats)]
    return kept, len(records) - len(kept)


def report(records) -> str:
    """A's score over the whole deals and its 95% interval over deals (arena.strength's pairing row: a deal's
    rotations are one sample)."""
    first = records[0]
    head = (f"pantikapaion, {len(first.bots)} players, {first.bots[0]} in every seat: "
            f"A {json.dumps(first.meta['evaluate']['A'])} v B {json.dumps(first.meta['evaluate']['B'])}")
    kept, left = whole_deals(records)
    note = f"; {left} game(s) of unfinished deals left out" if left else ""
    if not kept:
        return f"{head}\n  no deal was played with A in every seat{note}"
    row = summarize("A", "B", kept)
    return (f"{head}\n  A's score {row['score']:.3f} +- {row['ci95']:.3f} (95%, {row['deals']} deals, "
            f"{row['games']} games; parity 0.5{note})")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/pantikapaion_evaluate_ab.py", description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="{}", help="variant A's changes to evaluate.json, as JSON")
    parser.add_argument("--b", default="{}", help="variant B's changes")
    parser.add_argument("--bot", default="kleos:iterations=6000", help="the bot every seat plays (default %(default)s)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=30, help="deals, each played once with A in every seat")
    parser.add_argument("--first", type=int, default=1, metavar="SEED", help="the first deal's seed")
    parser.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                        help="games played at once, each on its own process (default 1: one after the other)")
    parser.add_argument("--out", metavar="FILE", help="keep every game's record here (JSON lines, .gz compresses)")
    parser.add_argument("--records", metavar="FILE", nargs="+", help="report kept records instead of playing")
    args = parser.parse_args(argv)
    if args.records:
        try:
            records = read_whole_runs(args.records)
        except KleosError as e:
            parser.error(str(e))
        if not records or any(r.event != EVENT or r.game != "pantikapaion"
                              or r.meta.get("evaluate") != records[0].meta.get("evaluate") for r in records):
            parser.error("the records are not one run of this script (other event, game or variants)")
        print(report(records))
        return
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("-j must be at least 1")
    try:
        changes = {"A": json.loads(args.a), "B": json.loads(args.b)}
        for c in changes.values():
            game_with(args.players, c)              # a bad variant fails here, before any game
    except (json.JSONDecodeError, ValueError) as e:
        parser.error(f"--a/--b: {e}")
    if args.out and os.path.exists(args.out):
        parser.error(f"{args.out}: already exists (records are appended as games end; give a new file)")
    try:
        make_bot(args.bot).close()                  # a bad spec fails here, in one line, before any game
    except KleosError as e:
        parser.error(f"--bot {args.bot}: {e}")
    tasks = [(seed, a_seat) for seed in range(args.first, args.first + args.games) for a_seat in range(args.players)]
    executor = make_executor(args.jobs)
    records = []
    # SIGTERM stops the run as Ctrl-C does: a KeyboardInterrupt, which the referee lets through (an exception a
    # bot raises while it thinks is that bot's crash, and would be recorded as a forfeit)
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        for (seed, a_seat), record, error in executor.run(play_one, tasks, shared=(args.players, args.bot, changes)):
            if error is not None:
                raise error
            if args.out:
                append_record(args.out, record)
            records.append(record)
            print(f"game {len(records)}/{len(tasks)}: seed {seed}, A in seat {a_seat}, "
                  f"returns {record.result['returns']}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"stopped after {len(records)} of {len(tasks)} games", file=sys.stderr, flush=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
        executor.close()
    if records:
        print(report(records))


if __name__ == "__main__":
    main()

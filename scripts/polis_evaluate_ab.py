"""Two sets of Polis evaluate() weights played against each other (docs/strength.md, "Polis's evaluate(): a side still
to act, and omega's tie-break"): the same bot in both seats, each searching its own copy of the game, built with
its own evaluate.json; every deal is played twice with the seats swapped.

    python scripts/polis_evaluate_ab.py --a '{}' --b '{"food_open": 1.0, "tie_break": 0.0}' --games 100

``--a`` and ``--b`` change data/evaluate.json's values (a weight's name, or resources.NAME); ``{}`` is the file as it
is. ``--bot-b`` gives variant B another bot (a variant's weights against another searcher's with the file's). The
referee plays the game with the shipped weights; only the bots' searches read the variants, so the rules and the
board are the same for both (checked). Deals are the referee seeds FIRST .. FIRST+games-1.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena.referee import Referee  # noqa: E402
from arena.strength import summarize  # noqa: E402
from bots import make_bot  # noqa: E402
from bots.own_game import searching_own_game  # noqa: E402
from engine.errors import KleosError  # noqa: E402
from engine.games.polis.data import DATA_DIR, DEFAULT_DATA_SET, read_data  # noqa: E402
from engine.records import append_record, read_whole_runs  # noqa: E402
from engine.registry import load_game, parse_options  # noqa: E402

EVENT = "evaluate-ab"


def weight_slot(weights: dict, name: str) -> tuple[dict, str]:
    """Where weight ``name`` (a weight's name, or resources.NAME) sits in evaluate.json's ``weights``: (table, key);
    an unknown name is refused."""
    if name.startswith("resources."):
        table, key = weights["resources"]["value"], name.split(".", 1)[1]
    else:
        table, key = weights.get(name), "value"
    if not isinstance(table, dict) or key not in table:
        raise SystemExit(f"polis_evaluate_ab: no weight {name!r} in evaluate.json")
    return table, key


def weights_with(changes: dict, data: str) -> dict:
    """data/evaluate.json of data set ``data`` with ``changes`` applied; an unknown name is refused."""
    weights = copy.deepcopy(read_data(data, "evaluate.json"))
    for name, value in changes.items():
        table, key = weight_slot(weights, name)
        table[key] = value
    return weights


def game_with(data: str, weights: dict):
    """Polis on data set ``data`` with these weights: built from a data directory of the set's files and them."""
    with tempfile.TemporaryDirectory(prefix="polis-eval-") as folder:
        for source in (DATA_DIR, DATA_DIR / data):      # data/'s shared files, then the set's board over them
            for path in source.glob("*.json"):
                shutil.copy(path, folder)
        with open(os.path.join(folder, "evaluate.json"), "w", encoding="utf-8") as f:
            json.dump(weights, f)
        return load_game("polis", data=folder)          # the tables are read now


def play_deal(args):
    """One game: variant A in seat ``a_seat``. Returns the record."""
    options, specs, changes, a_seat, seed = args
    data = options.get("data", DEFAULT_DATA_SET)
    rules = load_game("polis", **{k: v for k, v in options.items() if k != "players"})
    labels = ["A", "B"] if a_seat == 0 else ["B", "A"]
    bots = []
    for label in labels:
        own = game_with(data, weights_with(changes[label], data))
        mine = {k: v for k, v in own.tables.items() if k != "eval"}
        if mine != {k: v for k, v in rules.tables.items() if k != "eval"}:
            raise SystemExit("polis_evaluate_ab: a variant's game differs from the referee's beyond evaluate.json")
        bots.append(searching_own_game(make_bot(specs[label]), own))
    meta = {"evaluate": changes, "a_seat": a_seat}
    try:
        return Referee("polis", options, bots, seed, None, labels, meta, event=EVENT).play()
    finally:
        for bot in bots:
            bot.close()


def report(records) -> str:
    """A's score over all games, its 95% interval over deals (arena.strength's pairing row: a deal's two games are
    one sample), and by seat."""
    seat = {0: [], 1: []}
    for r in records:
        seat[r.meta["a_seat"]].append(r.result["returns"][r.meta["a_seat"]])
    row = summarize("A", "B", records)
    first = records[0]
    athens = sum(r.result["returns"][0] for r in records) / len(records)
    a_bot, b_bot = first.bots[first.meta["a_seat"]], first.bots[1 - first.meta["a_seat"]]
    bots = a_bot if a_bot == b_bot else f"A {a_bot}, B {b_bot}"
    return (f"polis {first.options.get('data', DEFAULT_DATA_SET)}, {bots}: A {json.dumps(first.meta['evaluate']['A'])} "
            f"v B {json.dumps(first.meta['evaluate']['B'])}\n"
            f"  A's score {row['score']:.3f} +- {row['ci95']:.3f} (95%, {row['deals']} deals, {row['games']} games)\n"
            f"  A as Athens {sum(seat[0]) / max(1, len(seat[0])):.3f} ({len(seat[0])} games), "
            f"as Sparta {sum(seat[1]) / max(1, len(seat[1])):.3f} ({len(seat[1])}); Athens's seat {athens:.3f}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/polis_evaluate_ab.py", description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="{}", help="variant A's changes to evaluate.json, as JSON")
    parser.add_argument("--b", default="{}", help="variant B's changes")
    parser.add_argument("--bot", default="kleos:iterations=2000", help="the bot both variants play (default %(default)s)")
    parser.add_argument("--bot-b", metavar="SPEC", help="another bot for variant B (default: --bot): a variant's "
                                                      "weights against another searcher's")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--games", type=int, default=50, help="deals, each played twice (default %(default)s)")
    parser.add_argument("--first", type=int, default=1, metavar="SEED", help="the first deal's seed")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--out", metavar="FILE", help="keep every game's record here (JSON lines, .gz compresses)")
    parser.add_argument("--records", metavar="FILE", nargs="+", help="report kept records instead of playing")
    args = parser.parse_args(argv)
    if args.records:
        try:
            records = read_whole_runs(args.records)
        except KleosError as e:
            parser.error(str(e))
        if any(r.event != EVENT or r.meta.get("evaluate") != records[0].meta.get("evaluate") for r in records):
            parser.error("the records are not one run of this script (other event or other variants)")
        print(report(records))
        return
    try:
        changes = {"A": json.loads(args.a), "B": json.loads(args.b)}
    except json.JSONDecodeError as e:
        parser.error(f"--a/--b must be JSON objects: {e}")
    if not all(isinstance(c, dict) for c in changes.values()):
        parser.error("--a/--b must be JSON objects")
    try:
        options = parse_options(",".join(args.option))
        load_game("polis", **options)               # a bad option fails here, in one line, before any game
    except KleosError as e:
        parser.error(str(e))
    options["players"] = 2
    data = options.get("data", DEFAULT_DATA_SET)
    for c in changes.values():
        weights_with(c, data)                       # an unknown weight fails before any game
    if args.out and os.path.exists(args.out):
        parser.error(f"{args.out}: already exists (records are appended as games end; give a new file)")
    specs = {"A": args.bot, "B": args.bot_b or args.bot}
    for flag, spec in (("--bot", specs["A"]), ("--bot-b", specs["B"])):
        try:
            make_bot(spec).close()                  # a bad spec fails here, in one line, before any game
        except KleosError as e:
            parser.error(f"{flag} {spec}: {e}")
    jobs = [(options, specs, changes, a_seat, seed)
            for seed in range(args.first, args.first + args.games) for a_seat in (0, 1)]
    records = []
    with ProcessPoolExecutor(args.processes) if args.processes > 1 else nullcontext() as pool:
        for record in (pool.map if pool else map)(play_deal, jobs):
            if args.out:
                append_record(args.out, record)
            records.append(record)
            print(f"game {len(records)}/{len(jobs)}: seed {record.seed}, A in seat {record.meta['a_seat']}, "
                  f"returns {record.result['returns']}", file=sys.stderr, flush=True)
    print(report(records))


if __name__ == "__main__":
    main()

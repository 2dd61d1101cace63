"""How Polis games between given bots go (docs/rules/polis.md, "How a game goes"): per side and round the turns and
decisions, and per game passes, trades, develops, projects completed, sieges, battles, the end, prestige and the
winner's seat.

    python scripts/polis_game_shape.py greedy greedy --games 20
    python scripts/polis_game_shape.py "ismcts:iterations=1000" "ismcts:iterations=1000" --games 8 --option data=assumed

Seats are fixed (seat 0 Athens, seat 1 Sparta); deals are the referee seeds 1..games. Every game is played by the
arena's referee (each bot decides on its own view), then replayed from its record to read the figures.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena.referee import play_game  # noqa: E402
from engine.errors import KleosError  # noqa: E402
from engine.games.polis.data import read_data  # noqa: E402
from engine.records import append_record, read_whole_runs  # noqa: E402
from engine.registry import load_game, parse_options  # noqa: E402

ROUNDS = ("alpha", "sigma", "omega")
SIDES = ("athens", "sparta")
RESOURCES = ("iron", "wood", "wine", "silver", "wheat")


def shape_of_record(record) -> dict:
    """A Polis game record, replayed: the figures of the module docstring."""
    options = record.options
    game = load_game("polis", **{k: v for k, v in options.items() if k != "players"})
    state = game.new_initial_state()
    turns = {r: [0, 0] for r in ROUNDS}
    decisions = {r: [0, 0] for r in ROUNDS}
    actions = {r: [0, 0] for r in ROUNDS}          # actions chosen (turns and the solo phase), passes not counted
    counts = {"pass": [0, 0], "trade": [0, 0], "develop": [0, 0], "siege": [0, 0], "tribute": [0, 0]}
    battles = 0
    tribute_income = [0, 0]                        # resources a side's tribute actions brought it (L450-L460)
    regions = [{}, {}]                             # the regions it took tribute from, how often
    sieged = [{}, {}]                              # the poleis it besieged, how often
    released = [set(), set()]                      # poleis it let go at a food step (L640)
    retaken = [0, 0]                               # sieges of a polis it had released itself
    retake_chances = [0, 0]                        # its action decisions at which it could besiege one of them
    trade_poleis = read_data(options.get("data"), "map.json")["trade_poleis"]
    retaken_for_trade = [0, 0]                     # retakes while it held none of its trade poleis (L209, L289)
    j = state.to_json()
    for move, player in zip(record.moves, record.players):
        if player >= 0 and j["phase"] == "action" and could_retake(state, j, released[player]):
            retake_chances[player] += 1
        if player >= 0:
            decisions[j["round"]][player] += 1
            name = move.split(":")[0]
            if j["phase"] == "action" and name in counts:
                counts[name][player] += 1
            if j["phase"] in ("action", "surcharge") and name not in ("pass", "ransom", "surcharge"):
                actions[j["round"]][player] += 1
        if player >= 0 and j["phase"] == "tribute-region":
            region = move.split(":", 1)[1]
            regions[player][region] = regions[player].get(region, 0) + 1
        if player >= 0 and j["phase"] == "siege-target":
            polis = move.split(":", 1)[1]
            sieged[player][polis] = sieged[player].get(polis, 0) + 1
            retaken[player] += polis in released[player]
            retaken_for_trade[player] += polis in released[player] and not any(
                j["poleis"][t]["owner"] == SIDES[player] for t in trade_poleis[SIDES[player]])
        state.apply(move)
        before, j = j, state.to_json()
        if before["phase"] == "food":
            for polis, now in j["poleis"].items():
                if now["owner"] is None and before["poleis"][polis]["owner"] in SIDES:
                    released[SIDES.index(before["poleis"][polis]["owner"])].add(polis)
        if before["phase"] in ("tribute-region", "tribute-alloc"):
            for p, side in enumerate(SIDES):
                tribute_income[p] += stock(j, side) - stock(before, side)
        if before["battle"] is None and j["battle"] is not None:
            battles += 1
        if j["round"] == before["round"]:
            turns[j["round"]] = list(j["turns"])
    returns = record.result["returns"]
    winner = 0 if returns[0] > returns[1] else 1 if returns[1] > returns[0] else None
    completed = [0, 0]
    for polis, tiles in j["projects"]["completed"].items():
        owner = j["poleis"][polis]["owner"]
        if owner in SIDES:
            completed[SIDES.index(owner)] += len(tiles)
    return {"turns": turns, "actions": actions, "decisions": decisions, "counts": counts, "battles": battles, "round": j["round"],
            "prestige": [j["players"][s]["prestige"] for s in SIDES], "completed": completed, "winner": winner,
            "moves": len(record.moves), "tied": len(set(record.result["scores"])) == 1,
            "tribute_income": tribute_income, "regions": regions, "sieged": sieged, "retaken": retaken,
            "retake_chances": retake_chances, "retaken_for_trade": retaken_for_trade,
            "released": [{polis: 1 for polis in released[p]} for p in (0, 1)]}


def could_retake(state, j: dict, released: set) -> bool:
    """At an action decision: may the side to move lay siege (L393-L397) to a polis it released itself that is
    still neutral?"""
    if not any(j["poleis"][polis]["owner"] is None for polis in released):
        return False
    siege = [a for a in state.legal_actions() if state.action_to_str(a) == "siege"]
    if not siege:
        return False
    after = state.clone()
    after.apply(siege[0])
    moves = [after.action_to_str(a) for a in after.legal_actions()]
    if moves and all(m.startswith("surcharge:") for m in moves):
        after.apply(moves[0])                      # acting alone, the action's resource is paid first (L175)
        moves = [after.action_to_str(a) for a in after.legal_actions()]
    return any(m.startswith("siege:") and m.split(":", 1)[1] in released for m in moves)


def stock(j: dict, side: str) -> int:
    """A side's resources in a state's JSON (the stock that breaks a tie, L711)."""
    return sum(j["players"][side][r] for r in RESOURCES)


def play_and_shape(options: dict, seats: list[str], seed: int):
    """One refereed game (each bot on its own view): its record and its figures."""
    record = play_game("polis", options, seats, seed, event="shape")
    return record, shape_of_record(record)


def shape_of_game(options: dict, seats: list[str], seed: int) -> dict:
    return play_and_shape(options, seats, seed)[1]


def _job(args):
    return play_and_shape(*args)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def tally(counts) -> str:
    """Counts by name summed over games, most frequent first: "Attica 98, Ionia 6"."""
    total: dict = {}
    for c in counts:
        for name, k in c.items():
            total[name] = total.get(name, 0) + k
    return ", ".join(f"{name} {k}" for name, k in sorted(total.items(), key=lambda x: (-x[1], x[0]))) or "none"


def report(games: list[dict], title: str) -> str:
    n = len(games)
    med = statistics.median
    lines = [f"{title}: {n} games"]
    for r in ROUNDS:
        played = [g for g in games if g["decisions"][r][0] + g["decisions"][r][1] > 0]
        if played:
            lines.append(f"  {r}: reached in {len(played)}; median turns Athens/Sparta "
                         f"{med(g['turns'][r][0] for g in played)}/{med(g['turns'][r][1] for g in played)}, "
                         f"actions {med(g['actions'][r][0] for g in played)}/{med(g['actions'][r][1] for g in played)}, "
                         f"decisions {med(g['decisions'][r][0] for g in played)}/"
                         f"{med(g['decisions'][r][1] for g in played)}")
    for name in ("pass", "trade", "develop", "tribute", "siege"):
        lines.append(f"  {name}: median a game Athens/Sparta {med(g['counts'][name][0] for g in games)}/"
                     f"{med(g['counts'][name][1] for g in games)}")
    lines.append("  tribute income: mean resources a game Athens/Sparta "
                 + "/".join(f"{sum(g['tribute_income'][p] for g in games) / n:.1f}" for p in (0, 1)))
    for p, side in enumerate(("Athens", "Sparta")):
        lines.append(f"  {side}'s tribute regions: " + tally(g["regions"][p] for g in games))
    for p, side in enumerate(("Athens", "Sparta")):
        lines.append(f"  {side}'s poleis released at a food step (games): " + tally(g["released"][p] for g in games))
    for p, side in enumerate(("Athens", "Sparta")):
        lines.append(f"  {side}'s sieges: " + tally(g["sieged"][p] for g in games)
                     + f"; of poleis it had released at a food step: {sum(g['retaken'][p] for g in games)}, "
                     f"at {sum(g['retake_chances'][p] for g in games)} action decisions where one "
                     f"could be besieged; {sum(g['retaken_for_trade'][p] for g in games)} of them while it held "
                     "none of its trade poleis")
    lines.append(f"  projects completed: median Athens/Sparta {med(g['completed'][0] for g in games)}/"
                 f"{med(g['completed'][1] for g in games)}")
    seen = sum(1 for g in games if g["battles"])
    lo, hi = wilson(seen, n)
    lines.append(f"  games with a battle: {seen}/{n} (95% {lo:.2f}-{hi:.2f}); battles in all {sum(g['battles'] for g in games)}")
    ends = {}
    for g in games:
        ends[g["round"]] = ends.get(g["round"], 0) + 1
    lines.append("  last round reached: " + ", ".join(f"{r} {ends.get(r, 0)}" for r in ROUNDS))
    lines.append(f"  final prestige: median Athens/Sparta {med(g['prestige'][0] for g in games)}/"
                 f"{med(g['prestige'][1] for g in games)}")
    wins = [sum(1 for g in games if g["winner"] == s) for s in (0, 1)]
    draws = n - sum(wins)
    score = (wins[1] + draws / 2) / n
    lo, hi = wilson(wins[1] + draws // 2, n)
    lines.append(f"  wins Athens/Sparta/draws {wins[0]}/{wins[1]}/{draws}; Sparta's score {score:.2f} "
                 f"(95% {lo:.2f}-{hi:.2f})")
    tied = [g for g in games if g["tied"]]
    tie_wins = [sum(1 for g in tied if g["winner"] == s) for s in (0, 1)]
    on_score = sum(0.5 if g["tied"] or g["winner"] is None else g["winner"] for g in games) / n
    lines.append(f"  tied on score (the larger stock of resources wins, L711): {len(tied)}, won by Athens/Sparta "
                 f"{tie_wins[0]}/{tie_wins[1]}; Sparta's score with those as draws {on_score:.2f}")
    lines.append(f"  moves a game: median {med(g['moves'] for g in games)}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/polis_game_shape.py", description=__doc__.splitlines()[0])
    parser.add_argument("seats", nargs="*", help="bot spec of Athens (seat 0), then of Sparta (seat 1)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=1, metavar="SEED",
                        help="the first deal's seed (deals are SEED .. SEED+games-1), to split a run")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--out", metavar="FILE", help="keep every game's record here (JSON lines, .gz compresses)")
    parser.add_argument("--records", metavar="FILE", nargs="+", help="read the figures from kept records instead of playing "
                        "(no seats then)")
    args = parser.parse_args(argv)
    if args.records:
        try:
            records = read_whole_runs(args.records)
        except KleosError as e:
            parser.error(str(e))
        first = records[0]
        for r in records:
            if r.game != "polis" or r.seats != first.seats or r.options != first.options:
                parser.error(f"the records pool games of different bots or options ({r.game} {r.seats} {r.options} "
                             f"and {first.game} {first.seats} {first.options}); give one run's files")
        games = [shape_of_record(r) for r in records]
        print(report(games, f"polis {first.options.get('data', 'ed1')}, {first.seats[0]} (Athens) v "
                            f"{first.seats[1]} (Sparta), from {' '.join(args.records)}"))
        return
    if len(args.seats) != 2:
        parser.error("give two bot specs, Athens's then Sparta's (or --records FILE)")
    try:
        options = parse_options(",".join(args.option))
        load_game("polis", **options)               # a bad option fails here, in one line, before any game
    except KleosError as e:
        parser.error(str(e))
    options.setdefault("players", 2)
    if args.out and os.path.exists(args.out):
        parser.error(f"{args.out}: already exists (records are appended as games end; give a new file)")
    jobs = [(options, args.seats, seed) for seed in range(args.first, args.first + args.games)]
    games = []
    with ProcessPoolExecutor(args.processes) if args.processes > 1 else nullcontext() as pool:
        for record, figures in (pool.map if pool else map)(_job, jobs):
            if args.out:                    # kept as each game ends, so a stopped run keeps what it played
                append_record(args.out, record)
            games.append(figures)
            print(f"game {len(games)}/{len(jobs)}: {len(record.moves)} moves, returns {record.result['returns']}",
                  file=sys.stderr, flush=True)
    print(report(games, f"polis {options.get('data', 'ed1')}, {args.seats[0]} (Athens) v {args.seats[1]} (Sparta)"))


if __name__ == "__main__":
    main()

"""More search must mean stronger play (issue 24): a bot's score against a fixed reference opponent as its budget
doubles, played as `kleos strength` pairings (the arena's referee, duplicate deals, every game recorded).

    python scripts/budget_scaling.py goofspiel --players 2 --base 100 --factors 2,4,8,16,32,64 --games 100
    python scripts/budget_scaling.py polis --base 50 --factors 2,4,8 --games 40 --out polis-scaling.jsonl

Row k plays ``BOT:iterations=base*k`` against ``REFERENCE`` (default: the same bot at the base budget, so k=1 would
be parity). The verdict: the score must rise until it saturates and never fall, that is no step down from one
budget to the next larger one by more than the sampling noise of the two rows (1.96 times the standard error of
their difference; the rows are played on the same deals, so this is conservative). ``--table FILE`` appends the
markdown table (with the command) to FILE. Budgets are iterations, so the result is the same on any machine.
"""
from __future__ import annotations

import argparse
import math
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.strength import run_pairings  # noqa: E402
from engine.registry import load_game  # noqa: E402


def with_budget(spec: str, iterations: int) -> str:
    return f"{spec}{',' if ':' in spec else ':'}iterations={iterations}"


def verdict(rows: list[dict]) -> tuple[bool, list[str]]:
    """Whether no row falls below the one before it by more than their combined noise; the falls found."""
    falls = []
    for before, after in zip(rows, rows[1:]):
        noise = math.hypot(before["ci95"], after["ci95"])
        if after["score"] < before["score"] - noise:
            falls.append(f"{before['a']} {before['score']:.3f} -> {after['a']} {after['score']:.3f} "
                         f"(noise ±{noise:.3f})")
    return not falls, falls


def markdown(game: str, options: dict, base: int, rows: list[dict], factors: list[int], reference: str,
             command: str) -> str:
    ok, falls = verdict(rows)
    opts = ",".join(f"{k}={v}" for k, v in options.items())
    lines = [f"{game} ({opts}), against `{reference}`; `{command}`", "",
             "| budget | iterations | score | 95% CI (deals) | wins / draws / losses | ms a decision |",
             "|---:|---:|---:|---:|---:|---:|"]
    for k, r in zip(factors, rows):
        lines.append(f"| {k}x | {base * k:,} | {r['score']:.3f} | ±{r['ci95']:.3f} | "
                     f"{r['wins']} / {r['draws']} / {r['losses']} | {r['a_ms_per_decision']:.0f} |")
    lines.append("")
    lines.append("verdict: " + ("never falls" if ok else "FALLS: " + "; ".join(falls)))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--bot", default="ismcts", help="the bot spec whose budget doubles (default: ismcts)")
    parser.add_argument("--reference", default=None, help="the fixed opponent (default: BOT at the base budget)")
    parser.add_argument("--base", type=int, default=100, help="iterations a decision at 1x")
    parser.add_argument("--factors", default="2,4,8,16,32,64", help="budget multiples, comma-separated, ascending")
    parser.add_argument("--games", type=int, default=100, help="games a row (rounded up to whole seat rotations)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=1, help="games at once")
    parser.add_argument("--out", default=None, help="record file for every game (default: a temporary one)")
    parser.add_argument("--table", default=None, help="append the markdown table to this file")
    args = parser.parse_args(argv)
    try:
        factors = [int(f) for f in args.factors.split(",")]
    except ValueError:
        parser.error(f"--factors {args.factors!r}: give whole numbers separated by commas, e.g. 2,4,8")
    if not factors or any(f < 1 for f in factors) or factors != sorted(set(factors)):
        parser.error(f"--factors {args.factors!r}: positive, ascending, no repeats")
    if args.base < 1 or args.games < 1:
        parser.error("--base and --games must be at least 1")
    options = dict(o.split("=", 1) for o in args.option if "=" in o)
    if len(options) != len(args.option):
        parser.error("a game option is NAME=VALUE")
    if args.players:
        options["players"] = args.players
    options = dict(load_game(args.game, **options).options)
    reference = args.reference or with_budget(args.bot, args.base)
    out = args.out
    if out is None:
        import tempfile
        out = str(Path(tempfile.mkdtemp(prefix="kleos-scaling-")) / "games.jsonl")
    pairs = [(with_budget(args.bot, args.base * k), reference) for k in factors]
    rows = run_pairings(args.game, options, pairs, out, games=args.games, seed=args.seed, workers=args.jobs,
                        progress=False, echo=lambda m: print(m, file=sys.stderr),
                        on_row=lambda r: print(f"{r['a']}: {r['score']:.3f} ±{r['ci95']:.3f}", file=sys.stderr,
                                               flush=True))
    command = "python scripts/budget_scaling.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    table = markdown(args.game, options, args.base, rows, factors, reference, command)
    print(table)
    print(f"records: {out}", file=sys.stderr)
    if args.table:
        with open(args.table, "a", encoding="utf-8") as f:
            f.write(table + "\n\n")
    return 0 if verdict(rows)[0] else 1


if __name__ == "__main__":
    sys.exit(main())

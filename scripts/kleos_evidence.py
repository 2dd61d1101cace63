"""The evidence for the `kleos` bot in one game (issue 20): at an equal iteration budget against plain `ismcts`,
plain `pimc` and `greedy`, and its Elo gain per doubling of the budget.

    python scripts/kleos_evidence.py polis --iterations 3000 --games 40 --out kleos-polis.jsonl.gz
    python scripts/kleos_evidence.py goofspiel --players 3 --iterations 20000 --games 30 --doublings 0

Every pairing is a `kleos strength` pairing (the arena's referee, duplicate deals in every seat rotation, A in one
seat against copies of B), all in one record file, so `kleos ratings --pairs FILE` prints the same rows again.
The doubling rows play `kleos` at ``iterations / 2**k`` against itself at half that, for k = doublings-1 .. 0, so
the last row is the full budget against half of it; each row's score is turned into Elo (logistic), and the gain
per doubling is their mean. Budgets are iterations, so the result is the same on any machine. ``--table FILE``
appends the markdown (with the command) to FILE.
"""
from __future__ import annotations

import argparse
import math
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.sprt import score_to_elo  # noqa: E402
from arena.strength import TABLE_HEADER, markdown_row, run_pairings  # noqa: E402
from bots.kleos import kleos_spec  # noqa: E402
from engine.registry import load_game  # noqa: E402


def elo_row(row: dict) -> tuple[float, float, float]:
    """Elo of A over B from the row's score and its 95% interval (clipped away from 0 and 1)."""
    low, high = row["score"] - row["ci95"], row["score"] + row["ci95"]
    return tuple(score_to_elo(min(max(v, 0.005), 0.995)) for v in (row["score"], low, high))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--option", "-o", action="append", default=[], help="game option NAME=VALUE")
    parser.add_argument("--iterations", type=int, required=True, help="the equal budget of the comparisons")
    parser.add_argument("--games", type=int, default=40, help="games a pairing (whole seat rotations)")
    parser.add_argument("--doubling-games", type=int, default=None, help="games a doubling row (default: --games)")
    parser.add_argument("--doublings", type=int, default=3, help="doubling rows, ending at the full budget")
    parser.add_argument("--against", default="ismcts,pimc,greedy", help="opponents at the equal budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--table", default=None)
    args = parser.parse_args(argv)
    options = {}
    for text in args.option:
        key, _, value = text.partition("=")
        options[key] = value
    if args.players:
        options["players"] = args.players
    options = dict(load_game(args.game, **options).options)
    n = args.iterations
    pairs = [(f"kleos:iterations={n}", b if b in ("greedy", "random") else f"{b}:iterations={n}")
             for b in filter(None, args.against.split(","))]
    players = options.get("players")
    same = [b for a, b in pairs if kleos_spec(args.game, a, players) == b]
    pairs = [(a, b) for a, b in pairs if b not in same]          # the same configuration: nothing to measure
    doubling = [(f"kleos:iterations={n >> k}", f"kleos:iterations={n >> (k + 1)}")
                for k in reversed(range(args.doublings))]
    command = "python scripts/kleos_evidence.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    out_lines = [f"{args.game} ({','.join(f'{k}={v}' for k, v in options.items())}): `kleos` plays "
                 f"`{kleos_spec(args.game, 'kleos', players)}` here; `{command}`", "", TABLE_HEADER]
    for b in same:
        out_lines.insert(1, f"(`kleos` plays `{b}` itself here: that pairing is not played)")
    print("\n".join(out_lines), flush=True)
    rows = run_pairings(args.game, options, pairs, args.out, games=args.games, seed=args.seed, progress=False,
                        echo=lambda m: print(m, file=sys.stderr),
                        on_row=lambda r: print(markdown_row(r), flush=True))
    out_lines += [markdown_row(r) for r in rows]
    if doubling:
        drows = run_pairings(args.game, options, doubling, args.out, games=args.doubling_games or args.games,
                             seed=args.seed + 1, progress=False, echo=lambda m: print(m, file=sys.stderr),
                             on_row=lambda r: print(markdown_row(r), flush=True))
        out_lines += [markdown_row(r) for r in drows]
        elos = [elo_row(r) for r in drows]
        out_lines += ["", "| doubling | score | Elo (95% interval) |", "|---|---:|---|"]
        for r, (e, lo, hi) in zip(drows, elos):
            out_lines.append(f"| `{r['a']}` against `{r['b']}` | {r['score']:.3f} | {e:+.0f} [{lo:+.0f}, {hi:+.0f}] |")
        mean = sum(e for e, _, _ in elos) / len(elos)
        out_lines += ["", f"Elo gain per doubling (mean of the rows): {mean:+.0f}"]
        if not all(math.isfinite(e) for e, _, _ in elos):
            out_lines.append("(a row at 0 or 1 is clipped to 0.005 / 0.995)")
    text = "\n".join(out_lines)
    print("\n" + text)
    if args.table:
        with open(args.table, "a", encoding="utf-8") as f:
            f.write(text + "\n\n")


if __name__ == "__main__":
    main()

"""Iterations a second of each bot, from the per-move reports in game records (docs/openspiel.md).

    python -m interop.openspiel.speed RECORDS.jsonl [...]

One markdown row a game and bot: the decisions it searched (forced moves and moves without an iteration count are left
out), its mean iterations (simulations, for OpenSpiel's bots) a decision, its mean seconds a decision as the referee
timed them, and iterations a second (all iterations over all those seconds).
"""
from __future__ import annotations

import sys
from collections import defaultdict

from engine.records import read_records


def speed_rows(records) -> list[dict]:
    totals = defaultdict(lambda: [0, 0, 0.0])          # (game, label) -> decisions, iterations, seconds
    for record in records:
        evals = getattr(record, "evals", None) or []
        for i, player in enumerate(record.players):
            if player < 0 or i >= len(evals) or not isinstance(evals[i], dict):
                continue
            iterations = evals[i].get("iterations")
            if not isinstance(iterations, (int, float)) or iterations <= 0:
                continue
            row = totals[(record.game, record.seats[player])]
            row[0] += 1
            row[1] += iterations
            row[2] += record.times[i]
    return [{"game": game, "bot": label, "decisions": d, "iterations": it / d, "seconds": s / d,
             "per_second": it / s if s else 0}
            for (game, label), (d, it, s) in sorted(totals.items())]


def markdown(rows) -> str:
    lines = ["| game | bot | decisions searched | iterations a decision | seconds a decision | iterations a second |",
             "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| `{r['game']}` | `{r['bot']}` | {r['decisions']} | {r['iterations']:,.0f} | {r['seconds']:.3f} | "
                     f"{r['per_second']:,.0f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    records = []
    for path in paths:
        got, problems = read_records(path)
        records += got
        for p in problems:
            print(f"warning: skipped {p}", file=sys.stderr)
    print(markdown(speed_rows(records)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

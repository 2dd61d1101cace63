"""What a doubling of thinking time buys Kleos's bot (issue 20), as one picture: each game's rows of the bot against
itself at half the budget, rebuilt from their record files, their Elo gains chained from the smallest budget up.

    python scripts/kleos_doublings.py [--manifest docs/records/doublings.json] [--out docs/pictures/doublings.png]
                                      [--doc docs/strength.md]

The manifest (JSON) lists series: each names its panel (a game and its player count), its label (the bot it
measured), whether that bot is the `kleos` the game fields now (`current`), the budget option its rows double
(`budget`: "time" or "iterations") and its value at 1x, the 0.1 s budget (`one`), and its record files (relative to
the manifest's folder). Every pairing in a series' files must be a doubling: A's spec is B's with the budget
doubled, nothing else changed. Each row's Elo is the pairwise one that `kleos ratings FILE` prints (every pair of an
A seat with a B seat), its interval the Elo of the ends of the score's 95% interval over deals (`kleos ratings
--pairs`): deals are independent where the seats of one game are not. `--doc FILE` writes the table
into FILE between the lines `<!-- kleos-doublings: begin -->` and `<!-- kleos-doublings: end -->`.
"""
from __future__ import annotations

import argparse
import math
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arena.charts import doubling_chain, save_doubling_chart  # noqa: E402
from arena.ratings import crosstable, results_from_records  # noqa: E402
from arena.stats import Pairwise, elo_of, fmt_elo  # noqa: E402
from arena.strength import pair_rows, pairing_of  # noqa: E402
from bots.base import BadBotSpecError  # noqa: E402
from bots.spec import parse_spec  # noqa: E402
from engine.errors import KleosError  # noqa: E402
# the standing's manifest reader, record loader, doc writer and error: one way to read a manifest of record files
from kleos_standing import ManifestError, finished_games, manifest_entries, write_into_doc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- kleos-doublings: begin -->", "<!-- kleos-doublings: end -->"
BUDGETS = ("time", "iterations")


def load_manifest(path: Path) -> list[dict]:
    series = []
    for where, s in manifest_entries(path, "series", ("panel", "label"), "series"):
        series.append(s)
        if not isinstance(s.get("current"), bool):
            raise ManifestError(f"{where}: 'current' must be true or false")
        if s.get("budget") not in BUDGETS:
            raise ManifestError(f"{where}: 'budget' must be one of {', '.join(BUDGETS)}")
        one = s.get("one")
        if not isinstance(one, (int, float)) or isinstance(one, bool) or not one > 0:
            raise ManifestError(f"{where}: 'one' (the budget at 1x) must be a positive number")
        files = s.get("files")
        if not isinstance(files, list) or not all(isinstance(f, str) and f for f in files):
            raise ManifestError(f"{where}: 'files' must be a list of file names (empty: not measured yet)")
    return series


def budget_of(spec: str, budget: str) -> tuple[float, str, dict]:
    """A spec's budget value, its bot name and its other options."""
    try:
        name, options = parse_spec(spec)
        value = float(options.pop(budget))
    except (BadBotSpecError, KeyError, ValueError):
        raise ManifestError(f"{spec!r} names no {budget}= budget") from None
    return value, name, options


def doubling_row(row: dict, records: list, series: dict) -> dict:
    """A pairing's row with its budget multiple (A's budget over 1x) and its pairwise Elo; an error where the
    pairing is not A at twice B's budget, all else equal."""
    a, b = budget_of(row["a"], series["budget"]), budget_of(row["b"], series["budget"])
    if a[1:] != b[1:] or not math.isclose(a[0], 2 * b[0], rel_tol=1e-9):
        raise ManifestError(f"{series['label']}: {row['a']} against {row['b']} is not a doubling of {series['budget']}")
    mine = [r for r in records if pairing_of(r) == (row["a"], row["b"])]
    cell = crosstable(results_from_records(mine)).get((row["a"], row["b"]), [0, 0, 0])
    pairwise = Pairwise(*cell)
    # the interval over deals, as the strength tables' (deals are independent; with more players the pairs of
    # seats within one game are not, so Wilson's interval over them would be too narrow)
    low, high = elo_of(row["score"] - row["ci95"]), elo_of(row["score"] + row["ci95"])
    if row["ci95"] <= 0:                # every deal scored alike: no spread to read, so Wilson's over the pairs
        low, high = pairwise.interval()
    return {**row, "multiple": a[0] / series["one"], "elo": pairwise.elo, "low": low, "high": high,
            "pairs": pairwise.games}


def series_rows(series: dict, folder: Path) -> list[dict]:
    """The series' doublings, smallest budget first."""
    records = finished_games(series, folder)
    rows = sorted((doubling_row(row, records, series) for row in pair_rows(records)), key=lambda r: r["multiple"])
    for before, after in zip(rows, rows[1:]):
        if math.isclose(before["multiple"], after["multiple"]):
            raise ManifestError(f"{series['label']}: two pairings double to {multiple_words(after['multiple'])} "
                                f"({before['a']}, {after['a']}); pool runs of one pairing under one spec")
    try:
        doubling_chain(rows)            # the picture chains them, so a series doubles step by step
    except ValueError as e:
        raise ManifestError(f"{series['label']}: {e}") from None
    return rows


def multiple_words(x: float) -> str:
    """1/8x, 1/2x, 1x, 8x: a budget as a multiple of the 0.1 s one."""
    f = Fraction(x).limit_denominator(64)
    return f"{f.numerator}x" if f.denominator == 1 else f"{f.numerator}/{f.denominator}x"


def mean_gain(rows: list[dict], from_multiple: float = 0.0) -> tuple[float, int] | None:
    """The mean Elo a doubling over the rows whose A had more than ``from_multiple`` (finite Elo only), and how
    many rows that is; None where no row counts."""
    gains = [r["elo"] for r in rows if r["multiple"] > from_multiple + 1e-9 and math.isfinite(r["elo"])]
    return (sum(gains) / len(gains), len(gains)) if gains else None


def doublings_table(tables: list[tuple[dict, list[dict]]]) -> str:
    """The series as markdown: a row a series, its doublings' Elo in budget order, the mean a doubling over them
    and over those above 1x (the issue asks up to 8x)."""
    lines = ["| game | bot | doublings (A's budget against half: Elo [95% interval over deals], games) | "
             "Elo a doubling | from 1x to 8x |", "|---|---|---|---:|---:|"]
    for series, rows in tables:
        bot = f"{series['label']}{' (now)' if series['current'] else ' (an earlier bot)'}"
        cells = "; ".join(f"{multiple_words(r['multiple'])}: {fmt_elo(r['elo'], 0)} "
                          f"[{fmt_elo(r['low'], 0)}, {fmt_elo(r['high'], 0)}], {r['games']}" for r in rows)
        whole, upper = mean_gain(rows), mean_gain(rows, from_multiple=1.0)
        mean = f"{fmt_elo(whole[0], 0)} ({whole[1]})" if whole else "—"
        above = [r["multiple"] for r in rows if r["multiple"] > 1 + 1e-9]
        to_8x = len(above) == 3 and all(map(math.isclose, above, (2.0, 4.0, 8.0)))
        high = "—" if upper is None else f"{fmt_elo(upper[0], 0)} ({upper[1]}{'' if to_8x else ', not to 8x'})"
        lines.append(f"| {series['panel']} | {bot} | {cells or 'not measured'} | {mean} | {high} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", type=Path, default=ROOT / "docs" / "records" / "doublings.json")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "pictures" / "doublings.png")
    parser.add_argument("--doc", type=Path, help="a markdown file to write the table into, between its markers")
    args = parser.parse_args(argv)
    try:
        manifest = load_manifest(args.manifest)
        tables = [(s, series_rows(s, args.manifest.parent)) for s in manifest]
        table = doublings_table(tables)
        if args.doc is not None:
            write_into_doc(args.doc, table, BEGIN, END)
    except KleosError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(table)
    if args.doc is not None:
        print(f"table written into {args.doc}")
    panels: dict[str, list] = {}
    for series, rows in tables:
        panels.setdefault(series["panel"], []).append((series["label"], series["current"], rows))
    save_doubling_chart(list(panels.items()), args.out, "What a doubling of thinking time buys Kleos's bot: each "
                        "game's bot against itself at half the budget, the gains chained from the smallest budget")
    print(f"chart saved to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

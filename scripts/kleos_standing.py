"""Where Kleos's bot stands against its targets, as one picture (issue 20): each cell of docs/strength.md's targets
table that scores `kleos` against plain ISMCTS or plain PIMC (or either with the game's search defaults), rebuilt
from its record files and drawn.

    python scripts/kleos_standing.py [--manifest docs/records/standing.json] [--out docs/pictures/strength.png]
                                     [--target 0.6] [--doc docs/strength.md]

The manifest (JSON) lists the cells: each names its group (a game and its player count), its label, its record
files (relative to the manifest's folder), optional renames (`same`: [NAME, AS] pairs, as `kleos ratings --same`),
where a file holds several pairings the one to take (`pair`: [A, B]), and where the cell's games were added after
its score was seen, how many looks it had (`looks`: N, the last included): its interval is then widened to the
1 - 0.05/N level (Bonferroni), so that games added until the interval clears cannot pass for a result. It prints
the rows drawn as a table, each with its verdict against the target: met (the whole interval over deals clears
it), the score only, or not met. `--doc FILE` writes that table into FILE between the lines
`<!-- kleos-standing: begin -->` and `<!-- kleos-standing: end -->`, so the page that shows the picture shows the
same rows in words.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from statistics import NormalDist

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.charts import save_strength_chart, strength_verdict  # noqa: E402
from arena.stats import Z95  # noqa: E402
from arena.strength import pair_rows  # noqa: E402
from engine.errors import KleosError  # noqa: E402
from engine.records import read_records, renamed  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- kleos-standing: begin -->", "<!-- kleos-standing: end -->"
VERDICT_WORDS = {"above": "**met**", "point": "the score only", "below": "not met"}


class ManifestError(KleosError):
    """The manifest does not say what to draw, or its records are not what it says they are."""


def manifest_entries(path: Path, entry: str, names: tuple[str, ...],
                     plural: str | None = None) -> list[tuple[str, dict]]:
    """A JSON manifest's entries (a non-empty list of objects, each with the ``names`` as non-empty strings), each
    with where it stands for messages ("FILE, cell 3 (its label)"). The doublings' script reads its manifest with
    it too."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ManifestError(f"{path}: {e}") from None
    if not isinstance(entries, list) or not entries:
        raise ManifestError(f"{path}: expected a list of {plural or entry + 's'}")
    out = []
    for i, item in enumerate(entries):
        where = f"{path}, {entry} {i}"
        if not isinstance(item, dict):
            raise ManifestError(f"{where}: not an object")
        for key in names:
            if not isinstance(item.get(key), str) or not item[key]:
                raise ManifestError(f"{where}: {key!r} must be a non-empty string")
        out.append((f"{where} ({item['label']})" if "label" in names else where, item))
    return out


def load_manifest(path: Path) -> list[dict]:
    cells = []
    for where, cell in manifest_entries(path, "cell", ("group", "label")):
        cells.append(cell)
        files = cell.get("files")
        if not isinstance(files, list) or not files or not all(isinstance(f, str) for f in files):
            raise ManifestError(f"{where}: 'files' must be a non-empty list of file names")
        for key in ("same", "pair"):
            value = cell.get(key, [])
            pairs = value if key == "same" else [value] if value else []
            if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs):
                raise ManifestError(f"{where}: {key!r} must hold [NAME, NAME] pairs")
        looks = cell.get("looks", 1)
        if not isinstance(looks, int) or isinstance(looks, bool) or looks < 1:
            raise ManifestError(f"{where}: 'looks' must be a whole number of at least 1")
    return cells


def looks_widening(looks: int) -> float:
    """How much wider a 95% interval gets when a cell was read ``looks`` times before its count was final: the
    z of 1 - 0.05/looks (two-sided, Bonferroni: conservative, since the looks share their games) over the 95% z."""
    return NormalDist().inv_cdf(1 - 0.025 / looks) / Z95


def finished_games(entry: dict, folder: Path) -> list:
    """The finished games of an entry's record files (``files``, relative to ``folder``); a missing or unreadable
    file is a ManifestError."""
    records = []
    for name in entry["files"]:
        path = folder / name
        if not path.is_file():
            raise ManifestError(f"{entry['label']}: no record file {path}")
        got, problems = read_records(path)
        if problems:
            raise ManifestError(f"{entry['label']}: {path}: {problems[0]}")
        records += [r for r in got if not r.unfinished]
    return records


def cell_row(cell: dict, folder: Path) -> dict:
    """The cell's one strength row, pooled over its files, labelled with the cell's label."""
    records = finished_games(cell, folder)
    for old, new in cell.get("same", []):
        records = renamed(records, old, new)
    rows = pair_rows(records)
    if cell.get("pair"):
        rows = [r for r in rows if [r["a"], r["b"]] == cell["pair"]]
    if len(rows) != 1:
        found = ", ".join(f"{r['a']} vs {r['b']}" for r in pair_rows(records)) or "none"
        raise ManifestError(f"{cell['label']}: expected one pairing, found {found} (name it with 'pair')")
    row = {**rows[0], "label": f"{cell['label']}: {rows[0]['a']} vs {rows[0]['b']}"}
    looks = cell.get("looks", 1)
    if looks > 1:
        row["ci95"] *= looks_widening(looks)
        row["label"] += f" (read after {looks} looks: the interval at 1 - 0.05/{looks})"
    return row


def standing(cells: list[dict], folder: Path) -> list[tuple[str, list[dict]]]:
    """The cells' rows, grouped in the manifest's order."""
    groups: dict[str, list[dict]] = {}
    for cell in cells:
        groups.setdefault(cell["group"], []).append(cell_row(cell, folder))
    return list(groups.items())


def standing_table(tables: list[tuple[str, list[dict]]], target: float) -> str:
    """The rows as a markdown table, each with its verdict against ``target`` in words; a group is named on its
    first row only, so the table reads as blocks."""
    lines = [f"| group | cell | games | deals | A's score | interval (deals; 95%, wider after looks) | against {target:g} |",
             "|---|---|---:|---:|---:|---:|---|"]
    for group, rows in tables:
        for i, row in enumerate(rows):
            lines.append(f"| {group if i == 0 else ''} | {row['label']} | {row['games']} | {row['deals']} | "
                         f"{row['score']:.3f} | ±{row['ci95']:.3f} | {VERDICT_WORDS[strength_verdict(row, target)]} |")
    return "\n".join(lines)


def write_into_doc(path: Path, table: str, begin: str = BEGIN, end: str = END) -> None:
    """Replace what stands between the doc's ``begin`` and ``end`` lines by ``table`` (another script's table
    between its own markers too)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise KleosError(f"--doc {path}: {e}") from None
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise KleosError(f"--doc {path}: expected one line {begin} and, after it, one line {end}")
    head, rest = text.split(begin)
    _, tail = rest.split(end)
    path.write_text(f"{head}{begin}\n{table}\n{end}{tail}", encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", type=Path, default=ROOT / "docs" / "records" / "standing.json")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "pictures" / "strength.png")
    parser.add_argument("--target", type=float, default=0.6)
    parser.add_argument("--doc", type=Path, help="a markdown file to write the table into, between its markers")
    args = parser.parse_args(argv)
    if not 0 < args.target < 1:
        parser.error(f"--target {args.target:g} must be between 0 and 1")
    try:
        tables = standing(load_manifest(args.manifest), args.manifest.parent)
        table = standing_table(tables, args.target)
        if args.doc is not None:
            write_into_doc(args.doc, table)
    except KleosError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(table)
    if args.doc is not None:
        print(f"table written into {args.doc}")
    save_strength_chart(tables, args.out, args.target, "Kleos's bot against plain ISMCTS and PIMC, and against them "
                        f"with the game's search defaults, at equal budget, time or iterations (target {args.target:g})")
    print(f"chart saved to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Convert the summary lines of the former `python -m search.strength --record` (one JSON object a game: deal,
seats, returns, seconds, decisions; no moves) into Kleos game records (engine/records.py), result-only.

    python scripts/convert_strength_records.py OLD.jsonl[.gz] NEW.jsonl[.gz]

`kleos ratings --pairs NEW` then prints the strength table the old `--summarize` printed. The moves were never
kept, so these records can be rated and tabled, not replayed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena.strength import StrengthError, from_legacy_line  # noqa: E402
from engine.errors import BadRecordError  # noqa: E402
from engine.records import _lines, write_records  # noqa: E402


def convert(source, target) -> int:
    records = []
    for n, line in _lines(source):
        if not line.strip():
            continue
        try:
            records.append(from_legacy_line(json.loads(line)))
        except (json.JSONDecodeError, StrengthError, TypeError, AttributeError) as e:
            raise SystemExit(f"{source}:{n}: {e}")
    write_records(target, records)
    return len(records)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/convert_strength_records.py", description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("target")
    args = parser.parse_args(argv)
    try:
        print(f"{convert(args.source, args.target)} records written to {args.target}")
    except BadRecordError as e:
        raise SystemExit(str(e))


if __name__ == "__main__":
    main()

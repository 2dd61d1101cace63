"""scripts/kleos_standing.py: the picture of where Kleos's bot stands (docs/strength.md) is drawn from the kept
records, one row a cell of the targets table, each row what `kleos ratings --pairs` prints for its files."""
import importlib.util
import json
import pathlib

import pytest

from arena.strength import pair_rows, run_pairings
from engine.errors import KleosError
from engine.records import read_records, renamed

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("kleos_standing", ROOT / "scripts" / "kleos_standing.py")
standing = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(standing)


def test_every_documented_cell_rebuilds_from_its_records():
    """The manifest the docs' picture is drawn from: every file is kept, every cell is one pairing, and its row is
    the one `kleos ratings --pairs` pools from the same files."""
    manifest = ROOT / "docs" / "records" / "standing.json"
    cells = standing.load_manifest(manifest)
    tables = standing.standing(cells, manifest.parent)
    assert sum(len(rows) for _, rows in tables) == len(cells)
    polis = next(rows for group, rows in tables if group.startswith("Polis"))
    label = "vs plain ISMCTS (no Polis knowledge: full random rollouts), 1 s, equal time"
    one_second = next(r for r in polis if r["label"].startswith(label + ":"))
    records, _ = read_records(manifest.parent / "polis-kleos2-ismcts-free-1s-1364.jsonl.gz")
    expected = pair_rows(renamed(records, "ismcts:c=0.3,depth=21,history=0.15,time=3", "kleos:time=3"))[0]
    assert expected["a"] == "kleos:time=3"                         # the manifest's rename, as kleos ratings --same
    assert (one_second["games"], one_second["score"], one_second["ci95"]) == \
        (expected["games"], expected["score"], expected["ci95"])
    assert one_second["label"] == f"{label}: {expected['a']} vs {expected['b']}"


def test_a_cell_takes_its_named_pairing_and_renames(tmp_path):
    run_pairings("goofspiel", {"players": 2, "cards": 4}, [("greedy", "random"), ("random", "greedy")],
                 tmp_path / "g.jsonl", games=4, progress=False)
    cell = {"group": "g", "label": "x", "files": ["g.jsonl"], "pair": ["best", "random"],
            "same": [["greedy", "best"]]}
    row = standing.cell_row(cell, tmp_path)
    assert (row["a"], row["b"], row["games"], row["label"]) == ("best", "random", 4, "x: best vs random")
    with pytest.raises(standing.ManifestError, match="expected one pairing, found greedy vs random, random vs greedy"):
        standing.cell_row({"group": "g", "label": "x", "files": ["g.jsonl"]}, tmp_path)
    # a misspelt rename is an error, not a cell that silently keeps two names
    with pytest.raises(KleosError, match="no game of these records seats 'nobody'"):
        standing.cell_row({**cell, "same": [["nobody", "best"]]}, tmp_path)
    with pytest.raises(standing.ManifestError, match="no record file"):
        standing.cell_row({"group": "g", "label": "x", "files": ["missing.jsonl"]}, tmp_path)


def test_a_cell_read_after_several_looks_widens_its_interval(tmp_path):
    """A cell whose games were added after looking at them is read at 1 - 0.05/looks (Bonferroni): three looks widen
    the 95% interval by z(1 - 0.05/6) / z(0.975) = 2.394 / 1.960, enough to turn a cell whose 95% interval clears
    the line into one that clears it by the score only."""
    run_pairings("goofspiel", {"players": 2, "cards": 4}, [("greedy", "random")], tmp_path / "g.jsonl", games=40,
                 progress=False)
    cell = {"group": "g", "label": "x", "files": ["g.jsonl"]}
    once, thrice = standing.cell_row(cell, tmp_path), standing.cell_row({**cell, "looks": 3}, tmp_path)
    assert thrice["score"] == once["score"] and once["ci95"] > 0
    assert thrice["ci95"] == pytest.approx(once["ci95"] * 2.394 / 1.960, rel=1e-3)
    assert thrice["label"] == "x: greedy vs random (read after 3 looks: the interval at 1 - 0.05/3)"
    # a line between the two intervals' lower ends: met at 95%, the score only after three looks
    line = once["score"] - (once["ci95"] + thrice["ci95"]) / 2
    table = standing.standing_table([("g", [once, thrice])], line)
    assert [row.rsplit("|", 2)[1].strip() for row in table.splitlines()[2:]] == ["**met**", "the score only"]


@pytest.mark.parametrize("text, words", [
    ("{", "Expecting"), ("[]", "expected a list of cells"), ('[{"group": "g"}]', "'label' must be"),
    ('[{"group": "g", "label": "x", "files": []}]', "'files' must be"),
    ('[{"group": "g", "label": "x", "files": ["a"], "same": [["a"]]}]', "'same' must hold"),
    ('[{"group": "g", "label": "x", "files": ["a"], "pair": "a,b"}]', "'pair' must hold"),
    ('[{"group": "g", "label": "x", "files": ["a"], "looks": 0}]', "'looks' must be"),
    ('[{"group": "g", "label": "x", "files": ["a"], "looks": 2.5}]', "'looks' must be")])
def test_a_bad_manifest_is_named_not_a_traceback(tmp_path, capsys, text, words):
    path = tmp_path / "m.json"
    path.write_text(text)
    with pytest.raises(standing.ManifestError, match=words):
        standing.load_manifest(path)
    assert standing.main(["--manifest", str(path), "--out", str(tmp_path / "s.svg")]) == 2
    assert "error:" in capsys.readouterr().err and not (tmp_path / "s.svg").exists()


def test_the_script_prints_its_rows_and_draws_them(tmp_path, capsys):
    run_pairings("goofspiel", {"players": 2, "cards": 4}, [("greedy", "random")], tmp_path / "g.jsonl", games=4,
                 progress=False)
    (tmp_path / "m.json").write_text(json.dumps([{"group": "Goofspiel", "label": "vs random", "files": ["g.jsonl"]}]))
    assert standing.main(["--manifest", str(tmp_path / "m.json"), "--out", str(tmp_path / "s.svg")]) == 0
    printed = capsys.readouterr().out
    assert "| Goofspiel | vs random: greedy vs random | 4 |" in printed
    assert "vs random: greedy vs random" in (tmp_path / "s.svg").read_text()


def test_the_docs_table_is_the_pictures_rows_now():
    """docs/strength.md shows the picture's rows in words: its table is what the script writes from the manifest
    today (a cell added to the manifest without `--doc docs/strength.md` fails here)."""
    manifest = ROOT / "docs" / "records" / "standing.json"
    tables = standing.standing(standing.load_manifest(manifest), manifest.parent)
    text = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
    shown = text.split(standing.BEGIN)[1].split(standing.END)[0].strip()
    assert shown == standing.standing_table(tables, 0.6)
    assert "| Hellas" in shown and "**met**" in shown and "not met" in shown


def test_doc_writes_between_its_markers_and_names_a_page_without_them(tmp_path, capsys):
    run_pairings("goofspiel", {"players": 2, "cards": 4}, [("greedy", "random")], tmp_path / "g.jsonl", games=4,
                 progress=False)
    (tmp_path / "m.json").write_text(json.dumps([{"group": "Goofspiel", "label": "vs random", "files": ["g.jsonl"]}]))
    page = tmp_path / "page.md"
    page.write_text(f"# Title\n\n{standing.BEGIN}\nold rows\n{standing.END}\n\nafter\n")
    args = ["--manifest", str(tmp_path / "m.json"), "--out", str(tmp_path / "s.svg"), "--doc", str(page)]
    assert standing.main(args) == 0
    written = page.read_text()
    assert "old rows" not in written and written.startswith("# Title\n\n") and written.endswith("\n\nafter\n")
    assert "| Goofspiel | vs random: greedy vs random | 4 | 2 |" in written
    # the verdict in words, never `met` from 2 deals (too few to read as an interval)
    assert written.count("| the score only |") + written.count("| not met |") == 1
    capsys.readouterr()
    for broken in ("# no markers\n", f"{standing.END}\n{standing.BEGIN}\n",
                   f"{standing.BEGIN}\n{standing.BEGIN}\n{standing.END}\n"):
        page.write_text(broken)
        assert standing.main(args) == 2
        assert "expected one line <!-- kleos-standing: begin -->" in capsys.readouterr().err
        assert page.read_text() == broken

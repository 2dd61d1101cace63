"""`kleos bench`: the engine figures and, with --search, the searcher figures; each names its build flavour."""
import engine.build


def test_the_build_flavour_is_known_and_release_by_default():
    # the test run builds with `pip install -e .` (no KLEOS_DEBUG): the release build
    assert engine.build.DEBUG is False
    assert engine.build.FLAVOUR.startswith("release build")


def test_bench_names_its_build_flavour(kleos):
    run = kleos("bench", "goofspiel", "-p", "2", "--seconds", "0.2", "--repeats", "1")
    assert "release build" in run.stderr
    assert "random playout" in run.stdout and "determinize" in run.stdout


def test_bench_search_prints_the_search_table(kleos):
    run = kleos("bench", "--search", "goofspiel", "--seconds", "0.2", "--repeats", "1", "--no-parallel")
    assert "release build" in run.stderr
    header, rule, row = run.stdout.strip().splitlines()[-3:]
    assert header.startswith("| game |") and "ISMCTS it/s" in header
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0] == "goofspiel" and int(cells[2].replace(",", "")) > 0


def test_bench_rejects_an_unknown_game(kleos):
    run = kleos("bench", "nosuchgame", check=False)
    assert run.returncode != 0 and "unknown game 'nosuchgame'" in run.stderr

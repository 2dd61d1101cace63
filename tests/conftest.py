"""Benchmarks (tests/bench) run only when asked for with --benchmark-enable; the normal run checks correctness."""
import pytest


def pytest_ignore_collect(collection_path, config):
    if collection_path.name == "bench" and collection_path.parent.name == "tests" \
            and not config.getoption("benchmark_enable", default=False):
        return True
    return None


@pytest.fixture
def redeclare_game(monkeypatch):
    """Let a registered game declare other GameSpec fields for one test: redeclare_game("polis", kleos_bot=...)."""
    import dataclasses

    import engine.registry as registry

    def set_(game: str, **fields):
        specs = dict(registry._discover())
        specs[game] = dataclasses.replace(specs[game], **fields)
        monkeypatch.setattr(registry, "_SPECS", specs)
    return set_

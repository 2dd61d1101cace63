"""Benchmarks (tests/bench) run only when asked for with --benchmark-enable; the normal run checks correctness."""


def pytest_ignore_collect(collection_path, config):
    if collection_path.name == "bench" and collection_path.parent.name == "tests" \
            and not config.getoption("benchmark_enable", default=False):
        return True
    return None

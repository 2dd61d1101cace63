"""Tournaments on Ray (arena/ray_executor.py): the same games as the local pool, blocks as units of work, bounded
tasks in flight, no game lost or recorded twice when a worker dies, resume as with the local pool.

These tests start one small local Ray cluster (2 CPUs) for the module; they skip where Ray is not installed
(`pip install "kleos[ray]"`)."""
import os
import sys

import pytest

from arena.tournament import TournamentConfig, run_tournament

ray = pytest.importorskip("ray", reason='Ray is an optional extra: pip install "kleos[ray]"')

from arena.ray_executor import RayExecutor, RayUnavailable, _blocks  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, log_to_driver=False, include_dashboard=False, _node_ip_address="127.0.0.1",
             runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(sys.path)}})
    yield
    ray.shutdown()


def _games(records):
    return {r.meta["job"]: (r.actions, r.result.get("ranks")) for r in records}


def _config(**kw):
    kw.setdefault("games", 4)
    return TournamentConfig("goofspiel", {"players": 2, "cards": 6}, ["ismcts:iterations=40", "greedy", "random"],
                            seed=5, **kw)


def test_ray_plays_the_same_games_as_the_local_pool(cluster, tmp_path):
    local = run_tournament(_config(), tmp_path / "local.jsonl", workers=1, progress=False, chance_key=b"same dice")
    remote = run_tournament(_config(), tmp_path / "ray.jsonl", executor=RayExecutor(), progress=False,
                            chance_key=b"same dice")
    assert len(local.records) == len(remote.records) == 12
    assert _games(local.records) == _games(remote.records)
    # every record says which machine played it and how fast that machine was
    profile = remote.records[0].meta["worker"]
    assert profile["bench_moves_per_s"] > 0 and profile["host"] and profile["build"] in ("release", "debug")


def test_an_interrupted_ray_run_resumes_without_a_game_twice(cluster, tmp_path):
    out = tmp_path / "r.jsonl"
    first = run_tournament(_config(), out, executor=RayExecutor(), progress=False, limit=5)
    assert first.played == 5
    second = run_tournament(_config(), out, executor=RayExecutor(), progress=False, resume=True)
    assert second.resumed == 5 and second.played == 7
    jobs = [r.meta["job"] for r in second.records]
    assert len(jobs) == len(set(jobs)) == 12
    assert _games(second.records) == _games(run_tournament(_config(), tmp_path / "l.jsonl", workers=1,
                                                            progress=False).records)


def _die_once(marker_dir, task):
    """Kill this worker process the first time task 2 runs (a machine lost mid-block)."""
    marker = os.path.join(marker_dir, f"died-{task}")
    if task == 2 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return task * 10


def test_a_dead_worker_loses_no_task_and_repeats_none(cluster, tmp_path):
    executor = RayExecutor()
    results = list(executor.run(_die_once, range(6), shared=str(tmp_path), block=lambda t: t // 2))
    assert sorted(task for task, _, _ in results) == list(range(6))
    assert all(error is None and result == task * 10 for task, result, error in results)
    assert os.path.exists(tmp_path / "died-2")        # the worker did die, and its block ran again


def test_tasks_in_flight_are_bounded_by_the_cluster(cluster):
    executor = RayExecutor()
    pulled = []

    def tasks():
        for t in range(40):
            pulled.append(t)
            yield t

    run = executor.run(_identity, tasks(), block=lambda t: t // 2)
    next(run)
    # one block a CPU in flight, plus the one task read ahead to see where a block ends
    assert len(pulled) <= executor.workers * 2 + 1 + 2
    run.close()
    executor.close()


def _identity(shared, task):
    return task


def test_blocks_group_consecutive_tasks_by_key():
    assert list(_blocks(iter(range(7)), lambda t: t // 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(_blocks(iter(range(3)), None)) == [[0], [1], [2]]


def test_a_malformed_address_is_refused_before_any_connection():
    for bad in ("nohost", "host:port", "a b:1", "http://x:1"):
        with pytest.raises(RayUnavailable, match="is not HOST:PORT"):
            RayExecutor(address=bad)


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayUnavailable, match=r'pip install "kleos\[ray\]"'):
        RayExecutor()

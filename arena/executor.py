"""Where games run: a small executor interface, and the local one (processes on this machine).

Every backend implements two methods. ``run(fn, tasks, shared=None, block=None)`` calls ``fn(shared, task)`` for
each task and yields ``(task, result, error)`` as tasks finish, pulling tasks lazily from the iterator (so the
caller may stop scheduling, e.g. when a bot is taken out or an SPRT has decided); ``shared`` is what every task
needs (the tournament's game and bots), sent to each worker once where the backend can; ``block(task)`` groups
consecutive tasks that a distributed backend sends as one unit of work (a deal and all its seat rotations).
``close()`` stops what is still running. ``fn``, ``shared`` and the tasks must be picklable. The Ray backend is
arena/ray_executor.py.
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
from typing import Callable, Iterable, Iterator


class Executor:
    workers = 1

    def run(self, fn: Callable, tasks: Iterable, shared=None, block: Callable | None = None) -> Iterator[tuple]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class InlineExecutor(Executor):
    """Runs every task in this process, one after the other (``-j 1``; easiest to debug)."""

    def run(self, fn, tasks, shared=None, block=None):
        for task in tasks:
            try:
                yield task, fn(shared, task), None
            except Exception as e:       # noqa: BLE001 - reported to the caller with the task
                yield task, None, e


class LocalExecutor(Executor):
    """Runs tasks on ``workers`` local processes, at most ``2 * workers`` in flight."""

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)
        ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
        from arena.lifeline import worker_init
        # a worker dies with this process, however it ends (no orphaned games, no worker blocked forever)
        self.pool = cf.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=worker_init,
                                           initargs=(os.getpid(),))

    def run(self, fn, tasks, shared=None, block=None):
        # one game a task here (the best balance on one machine); `shared` travels with each (it is small)
        tasks = iter(tasks)
        pending: dict = {}

        def submit_one() -> bool:
            try:
                task = next(tasks)
            except StopIteration:
                return False
            pending[self.pool.submit(fn, shared, task)] = task
            return True

        while len(pending) < 2 * self.workers and submit_one():
            pass
        while pending:
            done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in done:
                task = pending.pop(future)
                error = future.exception()
                yield task, (None if error else future.result()), error
                submit_one()

    def close(self) -> None:
        # a game still running (a hung player) must not outlive the run: end the workers, which close their players
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)


BACKENDS = ("local", "ray")


def make_executor(workers: int | None, backend: str = "local", address: str | None = None) -> Executor:
    """``-j``: 1 runs inline, 0 or None uses every core, n uses n processes. ``backend="ray"`` runs on a Ray
    cluster instead (``address`` of a running one, or a local one of ``workers`` CPUs)."""
    if backend == "ray":
        from arena.ray_executor import RayExecutor
        return RayExecutor(address=address, workers=workers or None)
    if backend != "local":
        raise ValueError(f"executor must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if workers == 1:
        return InlineExecutor()
    return LocalExecutor(workers or None)

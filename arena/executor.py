"""Where games run: a small executor interface, and the local one (processes on this machine).

A distributed backend (a Ray cluster, say) implements the same two methods: ``run(fn, tasks)`` yields
``(task, result, error)`` as tasks finish, pulling tasks lazily from the iterator (so the caller may stop
scheduling, e.g. when a bot is taken out), and ``close()``. ``fn`` and the tasks must be picklable.
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
from typing import Callable, Iterable, Iterator


class Executor:
    workers = 1

    def run(self, fn: Callable, tasks: Iterable) -> Iterator[tuple]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class InlineExecutor(Executor):
    """Runs every task in this process, one after the other (``-j 1``; easiest to debug)."""

    def run(self, fn, tasks):
        for task in tasks:
            try:
                yield task, fn(task), None
            except Exception as e:       # noqa: BLE001 - reported to the caller with the task
                yield task, None, e


class LocalExecutor(Executor):
    """Runs tasks on ``workers`` local processes, at most ``2 * workers`` in flight."""

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)
        ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
        self.pool = cf.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)

    def run(self, fn, tasks):
        tasks = iter(tasks)
        pending: dict = {}

        def submit_one() -> bool:
            try:
                task = next(tasks)
            except StopIteration:
                return False
            pending[self.pool.submit(fn, task)] = task
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
        self.pool.shutdown(wait=False, cancel_futures=True)


def make_executor(workers: int | None) -> Executor:
    """``-j``: 1 runs inline, 0 or None uses every core, n uses n processes."""
    if workers == 1:
        return InlineExecutor()
    return LocalExecutor(workers or None)

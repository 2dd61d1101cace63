"""Tournaments on a Ray cluster: the executor of arena/executor.py, with a block of games as the unit of work.

``pip install "kleos[ray]"``, then ``kleos tournament ... --executor ray`` (a local cluster of ``-j`` CPUs) or
``--executor ray --address HOST:PORT`` (a running cluster: ``ray start --head`` on one machine, ``ray start
--address HOST:PORT`` on the others). What it does, and why:

- **A block is one task.** The tournament groups its games by deal (``block(task)``: one seed in every seat rotation),
  seconds to minutes of work, far above Ray's per-task overhead (milliseconds); a block's games come back together
  and are recorded as they arrive, in the same record file the local pool writes.
- **The shared payload travels once.** The game and bot specs go into Ray's object store once per run
  (``ray.put``); each task carries only its games' seeds and seatings.
- **Bounded in flight.** At most one block per CPU of the cluster is running or queued, so a caller that stops
  (an SPRT that has decided, a bot taken out) wastes at most that much.
- **Faults.** A worker that dies takes its block with it; Ray runs the block again elsewhere (``max_retries``), and
  since nothing of a block is recorded before the whole block returns, no game is lost or recorded twice. A driver
  that is killed resumes with ``--resume`` as with the local pool.
"""
from __future__ import annotations

import re
from collections import deque
from typing import Callable, Iterable, Iterator

from arena.executor import Executor
from engine.errors import KleosError


class RayUnavailable(KleosError):
    """Ray is not installed, or the cluster cannot be reached."""


_ADDRESS = re.compile(r"^(auto|[A-Za-z0-9.-]+:[0-9]{1,5}|ray://[A-Za-z0-9.-]+:[0-9]{1,5})$")


def check_address(address: str) -> str:
    """A cluster address as Ray takes it: ``HOST:PORT``, ``ray://HOST:PORT`` or ``auto``."""
    if not _ADDRESS.match(address):
        raise RayUnavailable(f"--address {address!r} is not HOST:PORT, ray://HOST:PORT or auto")
    return address


def _run_block(fn: Callable, shared, tasks: list) -> list:
    """On a worker: every task of a block, each with its own result or error (one failure spoils no other)."""
    out = []
    for task in tasks:
        try:
            out.append((fn(shared, task), None))
        except Exception as e:           # noqa: BLE001 - sent back to the driver with its task
            out.append((None, f"{type(e).__name__}: {e}"))
    return out


class RayExecutor(Executor):
    """Runs blocks of tasks as Ray tasks on a local or remote cluster."""

    def __init__(self, address: str | None = None, workers: int | None = None, max_retries: int = 3):
        if address:
            check_address(address)
        try:
            import ray
        except ImportError:
            raise RayUnavailable('--executor ray needs Ray: pip install "kleos[ray]"') from None
        self.ray = ray
        self.started_here = False
        if not ray.is_initialized():
            try:
                if address:
                    ray.init(address=address, log_to_driver=False, include_dashboard=False)
                else:
                    # a cluster of this machine alone listens on loopback only
                    ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False,
                             _node_ip_address="127.0.0.1")
            except Exception as e:       # noqa: BLE001 - Ray raises many kinds when a cluster is unreachable
                raise RayUnavailable(f"cannot start or reach a Ray cluster"
                                     f"{' at ' + address if address else ''}: {e}") from None
            self.started_here = True
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.remote_block = ray.remote(num_cpus=1, max_retries=max_retries)(_run_block)
        self.pending: dict = {}

    def run(self, fn, tasks: Iterable, shared=None, block: Callable | None = None) -> Iterator[tuple]:
        ray = self.ray
        shared_ref = ray.put(shared)
        blocks = _blocks(iter(tasks), block)
        self.pending = {}

        def submit_one() -> bool:
            chunk = next(blocks, None)
            if chunk is None:
                return False
            self.pending[self.remote_block.remote(fn, shared_ref, chunk)] = chunk
            return True

        while len(self.pending) < self.workers and submit_one():
            pass
        while self.pending:
            ready, _ = ray.wait(list(self.pending), num_returns=1)
            ref = ready[0]
            chunk = self.pending.pop(ref)
            try:
                results = ray.get(ref)
            except Exception as e:       # noqa: BLE001 - the block failed beyond its retries: report each game
                results = [(None, f"{type(e).__name__}: {e}")] * len(chunk)
            for task, (result, error) in zip(chunk, results):
                yield task, result, (RuntimeError(error) if error else None)
            submit_one()

    def close(self) -> None:
        for ref in list(self.pending):
            try:
                self.ray.cancel(ref, force=True)
            except Exception:            # noqa: BLE001 - already finished or gone
                pass
        self.pending = {}
        if self.started_here:
            self.ray.shutdown()


def _blocks(tasks: Iterator, block: Callable | None) -> Iterator[list]:
    """Consecutive tasks with the same ``block(task)`` key, as lists (each task alone without a key)."""
    buffered: deque = deque()
    for task in tasks:
        if block is None:
            yield [task]
            continue
        if buffered and block(buffered[0]) != block(task):
            yield list(buffered)
            buffered.clear()
        buffered.append(task)
    if buffered:
        yield list(buffered)

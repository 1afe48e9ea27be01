"""The engines verify runs on this machine: in this process, or in a pool of worker processes.

The Dask engine (`verify_dask`) is the same contract on a cluster; `verify_dispatch` drives any of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from cgx_core.audit.verify_dispatch import BatchResult, Item, PerRun, verify_batch

TRIES = 4
"""How many times a run may lose its worker: Dask's default (`allowed-failures` 3, so 4 tries), so that a
run that kills its worker is reported after as many deaths on either engine."""


class InProcessEngine:
    """Each batch verified at once in this process: one job, or a single run (no worker to start)."""

    slots = 1
    alone_attempts = 1

    def submit(self, items: Sequence[Item], verify: PerRun) -> Future[BatchResult]:
        future: Future[BatchResult] = Future()
        future.set_result(verify_batch(items, verify))
        return future

    def lost_worker(self, error: BaseException) -> bool:
        return False

    def recover(self) -> None:
        """Nothing to rebuild: the runs are verified in this process, which no lost worker can take down."""

    def close(self) -> None:
        pass

    def check(self) -> None:
        pass


class PoolEngine:
    """A pool of worker processes on this machine; a pool that loses a worker is replaced by a new one."""

    alone_attempts = TRIES

    def __init__(self, jobs: int, preload: Callable[[], object] | None = None) -> None:
        """`preload` runs before the pool forks: what it imports, every worker inherits instead of importing it
        again."""
        if preload is not None:
            preload()
        self.jobs = jobs
        self._pool = ProcessPoolExecutor(max_workers=jobs)

    @property
    def slots(self) -> int:
        return self.jobs * 2

    def submit(self, items: Sequence[Item], verify: PerRun) -> Future[BatchResult]:
        return self._pool.submit(verify_batch, items, verify)

    def lost_worker(self, error: BaseException) -> bool:
        return isinstance(error, BrokenProcessPool)

    def recover(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = ProcessPoolExecutor(max_workers=self.jobs)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def check(self) -> None:
        pass  # a pool that lost a worker fails its futures, which the dispatch sees

"""The Dask engine: verify's batches as tasks on a `dask.distributed` cluster (the `dask` extra).

A task is `verify_batch(items, verify)`: a reference to an importable function and a list of run paths go to
the worker, one small verdict per run comes back. Workers need only this package installed and read access
to the runs at the same absolute paths as here; nothing else crosses the network. The scheduler holds the
tasks in flight (`verify_dispatch` keeps a window of them), never the set of runs. A worker that dies is the
engine's to retry (the scheduler's `allowed-failures`); a task it gives up on raises `KilledWorker`, and the
dispatch verifies that batch's runs alone.

`local` starts a LocalCluster of worker processes on this machine, listening on the loopback interface
only, without a dashboard.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

from cgx_core.audit.verify_dispatch import BatchResult, Item, PerRun, verify_batch
from cgx_core.codes import Code
from cgx_core.errors import CgxError

LOCAL = "local"
NO_WORKERS_SECONDS = 120.0
"""How long a local cluster may have no worker before verify stops saying so (a remote cluster's workers may
join later: verify waits for them)."""


class DaskEngine:
    """A Dask client, and the LocalCluster it started (for `--scheduler local`)."""

    alone_attempts = 1  # the scheduler has already retried the task on other workers

    def __init__(self, address: str, jobs: int | None) -> None:
        try:
            import distributed
        except ImportError:
            raise CgxError(
                Code.EXTRA_MISSING,
                "--scheduler needs dask.distributed, which is not installed: install the extra with "
                "pip install 'credencegraph-extract[dask]' (or uv sync --extra dask)",
            ) from None
        self._killed_worker: type[BaseException] = distributed.KilledWorker
        self._cluster: Any = None
        try:
            if address == LOCAL:
                self._cluster = _local_cluster(distributed, jobs)
                self._client: Any = distributed.Client(self._cluster, set_as_default=False)  # type: ignore[no-untyped-call]
            else:
                # how long to try is dask's distributed.comm.timeouts.connect (its config or environment)
                self._client = distributed.Client(address, set_as_default=False)  # type: ignore[no-untyped-call]
        except Exception as error:  # distributed raises RuntimeError, OSError, TimeoutError, ValueError
            self.close()
            where = "start a local Dask cluster" if address == LOCAL else f"reach the Dask scheduler at '{address}'"
            raise CgxError(
                Code.SCHEDULER_UNAVAILABLE,
                f"cannot {where}: {type(error).__name__}: {error}; check the address and that the scheduler runs "
                "(dask scheduler), or give --scheduler local",
            ) from None
        self._executor = self._client.get_executor(pure=False)
        self._threads = 0
        self._asked = -1.0
        self._without_workers_since: float | None = None

    @property
    def slots(self) -> int:
        """Two batches per worker thread, asked of the scheduler at most once a second (workers come and go)."""
        now = time.monotonic()
        if now - self._asked >= 1.0:
            self._threads = sum(self._client.nthreads().values())
            self._asked = now
        return max(1, self._threads * 2)

    def submit(self, items: Sequence[Item], verify: PerRun) -> Future[BatchResult]:
        future: Future[BatchResult] = self._executor.submit(verify_batch, list(items), verify)
        return future

    def lost_worker(self, error: BaseException) -> bool:
        return isinstance(error, self._killed_worker)

    def recover(self) -> None:
        """Nothing to rebuild: the Dask scheduler replaces a lost worker and reschedules its tasks itself."""

    def check(self) -> None:
        """A local cluster whose workers are all gone and not restarted (a restart timed out on a machine too
        loaded) would leave verify waiting for ever: after NO_WORKERS_SECONDS without one, stop."""
        if self._cluster is None:
            return
        if self.slots > 1:  # asks the scheduler for the threads at most once a second
            self._without_workers_since = None
            return
        now = time.monotonic()
        if self._without_workers_since is None:
            self._without_workers_since = now
        elif now - self._without_workers_since > NO_WORKERS_SECONDS:
            raise CgxError(
                Code.ENGINE_FAILED,
                f"the local Dask cluster has had no worker for {NO_WORKERS_SECONDS:.0f} s (they died and could not "
                "be restarted); with --jsonl, what completed is in the journal: run verify again with --resume",
            )

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()


def _local_cluster(distributed: Any, jobs: int | None) -> Any:
    """A LocalCluster of single-threaded worker processes on the loopback interface, without a dashboard.

    Its scheduler runs in this process. What only feeds a dashboard is slowed or off: the event-loop tick that
    reports a blocked loop, the system monitor that samples CPU, network and disk (this process's idle CPU goes
    from about 4% of a core to 1%), and the workers' statistical profiler, which samples the running task's
    stack every 10 ms (about 0.3 ms of CPU a run). The memory monitor samples each worker's memory every second
    rather than every 100 ms: the nannies run in this process, and their sampling was most of the CPU the
    cluster path spent here, by the second, so a busy machine (a longer wall time) made it a cost per run
    (issue 43: 3.0 ms of this process's CPU a run at load 11, 1.1 ms with it). A worker past its memory limit
    is still stopped, a second later at most (a maths step or a third party's check has its own memory bound in
    its budgeted child)."""
    import dask

    settings = {
        "distributed.admin.tick.interval": "1s",
        "distributed.admin.system-monitor.interval": "5s",
        "distributed.worker.profile.enabled": False,
        "distributed.worker.memory.monitor-interval": "1s",
    }
    with dask.config.set(settings):
        return distributed.LocalCluster(
            n_workers=jobs or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            # the scheduler's HTTP server (health, metrics) starts anyway: on a free loopback port, not on 8787,
            # which another cluster on this machine may hold
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.CRITICAL,
        )

"""Verify many runs on an engine (worker processes here, or a Dask cluster): the dispatch every engine shares.

Runs go to the engine in batches; a batch comes back as the verdicts of its runs and the versions of the code
that verified them. Only a window of batches is ever out, so neither this process nor the engine's scheduler
holds more than the window whatever the number of runs, and the verdicts are handed on in the order the runs
were given: the output is the same bytes whichever engine ran them and however it scheduled them. `on_done`
sees each batch as soon as it completes (the JSON-lines journal follows the work, not the order).

A worker process that dies takes its batch with it. The engine may retry it (Dask does, up to its
`allowed-failures`); when it gives up, every run of the batch is a suspect, since a worker dying blames every
task it held. Suspects are then verified alone, nothing else in flight, so the blame is exact: a run whose
worker dies each time it is verified alone comes back as a `worker-died` error verdict, reported rather than
lost, and the others come back verified.

The per-run work is a plain importable function of the run's path, `verify_run` by default; any picklable
callable of that shape (a `functools.partial` carrying options) can take its place.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, wait
from pathlib import Path
from typing import Protocol

import attrs

from cgx_core.audit.verify import RunVerdict, verify_run
from cgx_core.checks.installed import distribution_version, installed_check_types
from cgx_core.codes import Code
from cgx_core.errors import CgxError

PerRun = Callable[[Path], RunVerdict]
"""The verification of one run: its path in, its verdict out (errors in the verdict, never raised)."""

HEALTH_CHECK_SECONDS = 5.0
"""How often a wait asks the engine whether it can still make progress (it never decides a verdict)."""

Item = tuple[str, str]
"""A run as it was given (what the results show) and its absolute path (what a worker opens)."""


@attrs.frozen
class Verified:
    """One run's verdict and the versions of the code that verified it (what `--resume` compares)."""

    verdict: RunVerdict
    versions: Mapping[str, str]


@attrs.frozen
class BatchResult:
    """What a worker sends back for a batch: the versions it verified with, and one verdict per run."""

    versions: Mapping[str, str]
    verdicts: tuple[RunVerdict, ...]


@functools.cache
def verifier_versions() -> dict[str, str]:
    """The distributions whose code decides a verdict, with their versions: this package, credencegraph,
    sympy, and every distribution that provides an installed check type. A verdict recorded with other
    versions is not a verdict of the code installed now."""
    names = {"credencegraph-extract", "credencegraph", "sympy"}
    names.update(installed.distribution for installed in installed_check_types())
    return {name: distribution_version(name) for name in sorted(names)}


def verify_one(item: Item, verify: PerRun = verify_run) -> RunVerdict:
    """One run, verified at its absolute path and shown as it was given. An exception the per-run work lets
    escape (a plugin's bug) becomes the run's `internal-error` verdict, so one run never sinks the others."""
    shown, location = item
    try:
        verdict = verify(Path(location))
    except CgxError as error:  # such as an installed plugin that cannot be loaded (plugin-invalid)
        return RunVerdict("", shown, {}, 0, 0, (), {"code": str(error.code), "message": error.message})
    except Exception as error:
        message = f"verifying the run raised {type(error).__name__}: {error}; please report it"
        return RunVerdict("", shown, {}, 0, 0, (), {"code": str(Code.INTERNAL_ERROR), "message": message})
    return attrs.evolve(verdict, path=shown)


def verify_batch(items: Sequence[Item], verify: PerRun = verify_run) -> BatchResult:
    """The task an engine runs: a batch of runs, verified one after the other in this worker.

    A Dask worker is a daemonic process by default, and multiprocessing lets no daemonic process start one:
    the maths check runs its steps in a worker process of its own (under a CPU and memory budget). So the
    task clears the flag, and a cluster's workers need no setting of ours."""
    current = multiprocessing.current_process()
    if current.daemon:
        current.daemon = False
    return BatchResult(verifier_versions(), tuple(verify_one(item, verify) for item in items))


def worker_died(shown: str, attempts: int) -> RunVerdict:
    """The verdict of a run whose worker died each time it was verified alone."""
    message = (
        f"the process verifying the run died each of the {attempts} times it was verified alone (killed, out of "
        "memory, or a crash in a library); verify it alone with '--jobs 1' to see why"
    )
    return RunVerdict("", shown, {}, 0, 0, (), {"code": str(Code.WORKER_DIED), "message": message})


class Engine(Protocol):
    """Where batches run: a pool of worker processes, or a Dask cluster."""

    @property
    def slots(self) -> int:
        """How many batches to keep in flight to keep every worker busy."""

    @property
    def alone_attempts(self) -> int:
        """How many times a suspect verified alone may lose its worker before it is reported."""

    def submit(self, items: Sequence[Item], verify: PerRun) -> Future[BatchResult]:
        """Run `verify_batch(items, verify)` on a worker."""

    def lost_worker(self, error: BaseException) -> bool:
        """Whether a batch failed because the process running it died (not because of the batch's code)."""

    def recover(self) -> None:
        """Make the engine usable again after a lost worker (a new pool; a cluster heals itself)."""

    def close(self) -> None:
        """Stop what the engine started (its pool, its local cluster)."""

    def check(self) -> None:
        """Raise `engine-failed` when the engine can no longer make progress (a local cluster left without
        workers), instead of waiting for ever; called every few seconds while batches are out."""


@attrs.define
class _Batch:
    """A stretch of consecutive runs: those already recorded are filled in, the others are out."""

    items: list[Item]
    results: list[Verified | None]
    future: Future[BatchResult] | None = None

    @property
    def missing(self) -> list[int]:
        return [index for index, result in enumerate(self.results) if result is None]


Recorded = Callable[[str], Verified | None]


def dispatch(
    runs: Iterable[str],
    engine: Engine,
    *,
    batch_size: int,
    verify: PerRun = verify_run,
    recorded: Recorded | None = None,
    on_done: Callable[[list[Verified]], None] | None = None,
) -> Iterator[Verified]:
    """Verify `runs` on `engine` and yield each run's result in the order given.

    `recorded(path)` returns a result kept from an earlier session (`--resume`), which is yielded without
    verifying the run again; `on_done` receives each batch of new results as it completes."""
    queue: deque[_Batch] = deque()
    batches = _batches(runs, batch_size, recorded)
    exhausted = False
    while queue or not exhausted:
        slots = max(1, engine.slots)
        while not exhausted and len(queue) < slots * 4 and _in_flight(queue) < slots:  # the window
            batch = next(batches, None)
            if batch is None:
                exhausted = True
            else:
                missing = batch.missing
                if missing:
                    batch.future = engine.submit([batch.items[index] for index in missing], verify)
                queue.append(batch)
        while queue and queue[0].future is None:
            for result in queue.popleft().results:
                assert result is not None
                yield result
        flying = [batch.future for batch in queue if batch.future is not None]
        if flying:
            _wait(flying, engine, FIRST_COMPLETED)
            suspects = _collect(queue, engine, on_done)
            if suspects:
                _verify_alone(suspects, queue, engine, verify, on_done)


def _wait(futures: list[Future[BatchResult]], engine: Engine, until: str) -> None:
    """Wait for the futures, asking the engine every few seconds whether it can still make progress."""
    while True:
        done, pending = wait(futures, timeout=HEALTH_CHECK_SECONDS, return_when=until)
        if (done and until == FIRST_COMPLETED) or not pending:
            return
        engine.check()


def _batches(runs: Iterable[str], size: int, recorded: Recorded | None) -> Iterator[_Batch]:
    items: list[Item] = []
    for shown in runs:
        items.append((shown, os.path.abspath(shown)))
        if len(items) == size:
            yield _fill(items, recorded)
            items = []
    if items:
        yield _fill(items, recorded)


def _fill(items: list[Item], recorded: Recorded | None) -> _Batch:
    return _Batch(items, [recorded(shown) if recorded else None for shown, _ in items])


def _in_flight(queue: deque[_Batch]) -> int:
    return sum(1 for batch in queue if batch.future is not None)


def _settle(batch: _Batch, result: BatchResult, on_done: Callable[[list[Verified]], None] | None) -> None:
    done = [Verified(verdict, result.versions) for verdict in result.verdicts]
    for index, verified in zip(batch.missing, done, strict=True):
        batch.results[index] = verified
    batch.future = None
    if on_done is not None:
        on_done(done)


def _collect(
    queue: deque[_Batch], engine: Engine, on_done: Callable[[list[Verified]], None] | None
) -> list[tuple[_Batch, int]]:
    """Settle every finished batch; return the runs of the batches that lost their worker."""
    suspects: list[tuple[_Batch, int]] = []
    for batch in queue:
        future = batch.future
        if future is None or not future.done():
            continue
        error = future.exception()
        if error is None:
            _settle(batch, future.result(), on_done)
        elif engine.lost_worker(error):
            suspects.extend((batch, index) for index in batch.missing)
            batch.future = None
        else:
            raise CgxError(Code.ENGINE_FAILED, f"the engine failed: {type(error).__name__}: {error}") from error
    return suspects


def _verify_alone(
    suspects: list[tuple[_Batch, int]],
    queue: deque[_Batch],
    engine: Engine,
    verify: PerRun,
    on_done: Callable[[list[Verified]], None] | None,
) -> None:
    """Let everything else in flight finish (more suspects may come of it), then verify each suspect alone."""
    while flying := [batch.future for batch in queue if batch.future is not None]:
        _wait(flying, engine, ALL_COMPLETED)
        suspects.extend(_collect(queue, engine, on_done))
    engine.recover()
    for batch, index in suspects:
        item = batch.items[index]
        single = _Batch([item], [None])
        for _ in range(engine.alone_attempts):
            single.future = engine.submit([item], verify)
            _wait([single.future], engine, ALL_COMPLETED)
            error = single.future.exception()
            if error is None:
                _settle(single, single.future.result(), on_done)
                break
            if not engine.lost_worker(error):
                raise CgxError(Code.ENGINE_FAILED, f"the engine failed: {type(error).__name__}: {error}") from error
            engine.recover()
        result = single.results[0]
        if result is None:
            result = Verified(worker_died(item[0], engine.alone_attempts), verifier_versions())
            if on_done is not None:
                on_done([result])
        batch.results[index] = result

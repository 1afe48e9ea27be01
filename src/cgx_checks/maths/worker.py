"""A persistent worker process for sympy's work, stopped when a task runs out of budget and started again.

sympy cannot be interrupted reliably: `simplify` ran for minutes on sympy issue 21787's expression, in C
code and loops no signal stops. So every task that builds or transforms sympy objects runs in a separate
process (multiprocessing's spawn context: a fresh interpreter, nothing inherited) with a memory limit
(RLIMIT_AS) set in the process itself, and the caller waits at most the task's budget. A task that runs
over is not interrupted: its process is killed and reaped, and the next task starts a new one. Starting
the process (importing sympy) is not counted in a task's budget.

Only strings cross the pipe: the task's name, its JSON payload, and the JSON it returns. The worker
re-parses the payload itself, so no sympy object is ever pickled. A `weakref.finalize` stops the process
when its `MathsWorker` is collected or the interpreter exits, so no process outlives its parent or stays
a zombie; a worker whose parent dies reads EOF and ends.

The spawn context starts the worker by importing the parent's main module again, so a script that uses
the worker keeps its top-level work under `if __name__ == "__main__":`, as multiprocessing requires.
"""

from __future__ import annotations

import multiprocessing
import threading
import weakref
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Final, Literal

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError

DEFAULT_MEMORY_BYTES: Final = 2 * 1024**3
"""The worker's address-space limit: enough for sympy (about 0.1 GB at rest), not enough to take the machine."""

START_TIMEOUT: Final = 120.0
"""Seconds a new worker may take to import sympy and say it is ready (not part of any task's budget)."""

_JOIN_TIMEOUT: Final = 10.0


@attrs.frozen
class Finished:
    """The task ended; its JSON result."""

    payload: str


@attrs.frozen
class OutOfBudget:
    """The task ran out of time or memory; the worker was stopped."""

    reason: Literal["time", "memory"]


type Reply = Finished | OutOfBudget


class MathsWorker:
    """One worker process, started on first use, used by one task at a time (thread-safe)."""

    def __init__(self, *, memory_bytes: int = DEFAULT_MEMORY_BYTES) -> None:
        self.memory_bytes = memory_bytes
        self._lock = threading.Lock()
        self._process = _Process()
        self._finalizer = weakref.finalize(self, self._process.stop)

    @property
    def pid(self) -> int | None:
        """The process id of the running worker, or None when none runs (not started, or stopped)."""
        return self._process.pid()

    def run(self, task: str, payload: str, budget: float) -> Reply:
        """Run a task (a name of `tasks.TASKS`) on a JSON payload, waiting at most `budget` seconds.

        A task that refuses its payload raises its CgxError here; a task that fails with anything else is
        a bug and raises CgxError `internal-error`.
        """
        with self._lock:
            connection = self._process.ensure(self.memory_bytes)
            try:
                connection.send((task, payload))
                if not connection.poll(budget):
                    self._process.stop()
                    return OutOfBudget("time")
                reply = connection.recv()
            except (EOFError, OSError):
                self._process.stop()  # the process died: the memory limit is the one way it does
                return OutOfBudget("memory")
            except BaseException:
                self._process.stop()  # interrupted while the task runs: its late answer must not be read
                raise
        kind = reply[0]
        if kind == "ok":
            return Finished(reply[1])
        if kind == "memory":
            self.close()
            return OutOfBudget("memory")
        if kind == "refused":
            raise CgxError(Code(reply[1]), reply[2])
        raise CgxError(Code.INTERNAL_ERROR, f"the maths worker failed on task {task!r}: {reply[1]}")

    def close(self) -> None:
        """Stop the worker process, if one runs; the next `run` starts another."""
        with self._lock:
            self._process.stop()


class _Process:
    """The process and its end of the pipe, held apart from `MathsWorker` so its finalizer can reach them."""

    def __init__(self) -> None:
        self.process: BaseProcess | None = None
        self.connection: Connection | None = None

    def pid(self) -> int | None:
        if self.process is None or not self.process.is_alive():
            return None
        return self.process.pid

    def ensure(self, memory_bytes: int) -> Connection:
        if self.process is not None and self.connection is not None and self.process.is_alive():
            return self.connection
        self.stop()
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe(duplex=True)
        process = context.Process(target=serve, args=(child, memory_bytes), name="cgx-maths-worker", daemon=True)
        process.start()
        child.close()
        self.process, self.connection = process, parent
        try:
            ready = parent.poll(START_TIMEOUT) and parent.recv() == ("ready",)
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.stop()
            raise CgxError(Code.INTERNAL_ERROR, "the maths worker process did not start")
        return parent

    def stop(self) -> None:
        process, connection = self.process, self.connection
        self.process = self.connection = None
        if connection is not None:
            connection.close()
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(_JOIN_TIMEOUT)
            process.close()


def serve(connection: Connection, memory_bytes: int) -> None:
    """The worker's loop: limit memory, import the tasks, then answer one task at a time until EOF."""
    _limit_memory(memory_bytes)
    import cgx_checks.maths.tasks  # noqa: F401 - imported before "ready", so a task's budget excludes it

    connection.send(("ready",))
    while True:
        try:
            task, payload = connection.recv()
        except (EOFError, OSError):
            return
        reply = _answer(task, payload)
        try:
            connection.send(reply)
        except BaseException:  # the parent is gone, or no memory is left to say so: end quietly
            return
        if reply[0] == "memory":
            return


def _answer(task: str, payload: str) -> tuple[str, ...]:
    """Run one task; by the time this returns, a failed task's frames (and its memory) are released."""
    from cgx_checks.maths.tasks import TASKS  # imported in the worker only: it imports sympy

    try:
        return ("ok", TASKS[task](payload))
    except CgxError as error:
        return ("refused", str(error.code), error.message)
    except MemoryError:
        return ("memory",)
    except Exception as error:  # a bug in a task: reported, never a traceback in the caller's output
        return ("failed", f"{type(error).__name__}: {error}"[:500])


def _limit_memory(memory_bytes: int) -> None:
    try:
        import resource  # POSIX only

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass  # no RLIMIT_AS on this platform: the time budget still bounds every task


_shared: MathsWorker | None = None
_shared_lock = threading.Lock()


def shared_worker() -> MathsWorker:
    """The process-wide worker the check plugins share (started on first use)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = MathsWorker()
        return _shared

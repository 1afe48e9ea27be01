"""A persistent worker process for sympy's work, within a CPU-time and memory budget, dying with its parent.

sympy cannot be interrupted reliably from outside: `simplify` ran for minutes on sympy issue 21787's
expression. So every task that builds or transforms sympy objects runs in a separate process
(multiprocessing's spawn context: a fresh interpreter, nothing inherited), which limits itself:

* **CPU time, not wall time.** A budget that decides a check's result must not depend on how busy the
  machine is, or a check passing on a quiet machine would time out on a loaded one and replay and verify
  would differ. Each task gets `budget` seconds of the worker's own CPU time: a profiling timer
  (ITIMER_PROF, which counts CPU time only) interrupts the task where Python code runs, and the CPU-time
  rlimit (RLIMIT_CPU, a few seconds later) ends the process where a long C call does not return. Either
  way the task is out of budget and the next one starts a fresh process. Starting the process (importing
  sympy) is not counted.
  Each task starts from sympy's empty cache, so its cost does not depend on the tasks before it either.
* **Memory**: an address-space limit (RLIMIT_AS) set in the process itself.
* **Death with the parent**: on Linux the kernel kills the worker when the thread that started it ends
  (PR_SET_PDEATHSIG), so workers are started from one long-lived thread of the parent (`_Spawner`); a
  watchdog thread also ends the worker when the pipe from its parent closes (every platform).

The caller waits for a task without a time limit of its own but a generous wall-clock backstop, far
above any budget: hitting it means the machine starved the worker of CPU, which decides nothing, so the
call is refused (`check-stalled`) and nothing is recorded.

The task's payload crosses the pipe pickled (the parent's own parsed step: the worker never parses, so
lark and the grammar are built once, in the parent); the result comes back as a JSON string. A
`weakref.finalize` stops the process when its `MathsWorker` is collected or the interpreter exits.

The spawn context starts the worker by importing the parent's main module again, so a script that uses
the worker keeps its top-level work under `if __name__ == "__main__":`, as multiprocessing requires.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Final, Literal

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError

DEFAULT_MEMORY_BYTES: Final = 2 * 1024**3
"""The worker's address-space limit: enough for sympy (about 0.1 GB at rest), not enough to take the machine."""

START_TIMEOUT: Final = 120.0
"""Seconds a new worker may take to import sympy and say it is ready (not part of any task's budget)."""

CPU_GRACE: Final = 3
"""Seconds of CPU time past the budget before the rlimit ends a task stuck in C code."""

WALL_FACTOR: Final = 30.0
WALL_EXTRA: Final = 120.0
"""The wall-clock backstop of a task: WALL_FACTOR times its CPU budget plus WALL_EXTRA seconds."""

_JOIN_TIMEOUT: Final = 10.0
_PR_SET_PDEATHSIG: Final = 1


@attrs.frozen
class Finished:
    """The task ended; its JSON result."""

    payload: str


@attrs.frozen
class OutOfBudget:
    """The task ran out of CPU time or memory; the worker was stopped."""

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

    def start(self) -> int:
        """Start the worker now (it starts on first use otherwise); its process id."""
        with self._lock:
            self._process.ensure(self.memory_bytes)
            pid = self._process.pid()
        assert pid is not None
        return pid

    def run(self, task: str, payload: Any, budget: float) -> Reply:
        """Run a task (a name of `tasks.TASKS`) on a payload, within `budget` seconds of CPU time.

        A task that refuses its payload raises its CgxError here; a task that fails with anything else is
        a bug and raises CgxError `internal-error`; a worker starved of CPU past the wall-clock backstop
        raises `check-stalled`.
        """
        with self._lock:
            connection = self._process.ensure(self.memory_bytes)
            try:
                connection.send((task, payload, budget))
                if not connection.poll(budget * WALL_FACTOR + WALL_EXTRA):
                    self._process.stop()
                    raise CgxError(
                        Code.CHECK_STALLED,
                        f"the maths worker used less than its {budget:g} s of CPU time in "
                        f"{budget * WALL_FACTOR + WALL_EXTRA:g} s: the machine is too busy to run it; nothing "
                        "was recorded, so call again",
                    )
                reply = connection.recv()
            except (EOFError, OSError):
                # The process died: the CPU-time rlimit (SIGXCPU) or the kernel's memory killer.
                code = self._process.exitcode()
                self._process.stop()
                return OutOfBudget("time" if code == -signal.SIGXCPU else "memory")
            except BaseException:
                self._process.stop()  # interrupted while the task runs: its late answer must not be read
                raise
        kind = reply[0]
        if kind == "ok":
            return Finished(reply[1])
        if kind in ("memory", "time"):
            self.close()
            return OutOfBudget(kind)
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

    def exitcode(self) -> int | None:
        if self.process is None:
            return None
        self.process.join(_JOIN_TIMEOUT)
        return self.process.exitcode

    def ensure(self, memory_bytes: int) -> Connection:
        if self.process is not None and self.connection is not None and self.process.is_alive():
            return self.connection
        self.stop()
        process, parent = _SPAWNER.call(lambda: _start(memory_bytes))
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


def _start(memory_bytes: int) -> tuple[BaseProcess, Connection]:
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe(duplex=True)
    process = context.Process(
        target=serve, args=(child, memory_bytes, os.getpid()), name="cgx-maths-worker", daemon=True
    )
    process.start()
    child.close()
    return process, parent


class _Spawner:
    """One long-lived daemon thread that starts every worker process.

    Linux's parent-death signal fires when the *thread* that started the child ends, not the process;
    the caller's thread may be a pool's and end at any time (killing a worker mid-task), so workers are
    started here, from a thread that lives as long as the process."""

    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def call[T](self, function: Callable[[], T]) -> T:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, name="cgx-maths-spawner", daemon=True)
                self._thread.start()
        answer: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
        self._requests.put((function, answer))
        ok, value = answer.get()
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def _serve(self) -> None:
        while True:
            function, answer = self._requests.get()
            try:
                answer.put((True, function()))
            except BaseException as error:
                answer.put((False, error))


_SPAWNER: Final = _Spawner()


# -- in the worker process ---------------------------------------------------------------------------------


class _OutOfCpu(BaseException):
    """Raised in the worker by the profiling timer: a BaseException, so sympy's own `except Exception`
    handlers do not swallow it."""


def serve(connection: Connection, memory_bytes: int, parent_pid: int) -> None:
    """The worker's loop: die with the parent, limit memory, import the tasks, then answer one task at a
    time until EOF (or until a task ran out of budget: the next starts in a fresh process)."""
    _die_with_parent(parent_pid)
    _limit("RLIMIT_AS", memory_bytes)
    _limit("RLIMIT_CORE", 0)
    signal.signal(signal.SIGPROF, _out_of_cpu)
    import cgx_checks.maths.tasks  # noqa: F401 - imported before "ready", so a task's budget excludes it

    connection.send(("ready",))
    while True:
        try:
            task, payload, budget = connection.recv()
        except (EOFError, OSError):
            return
        reply = _answer(task, payload, budget)
        try:
            connection.send(reply)
        except BaseException:  # the parent is gone, or no memory is left to say so: end quietly
            return
        if reply[0] in ("memory", "time"):
            return


def _answer(task: str, payload: Any, budget: float) -> tuple[str, ...]:
    """Run one task within `budget` seconds of this process's CPU time; by the time this returns, a failed
    task's frames (and its memory) are released."""
    from sympy.core.cache import clear_cache

    from cgx_checks.maths.tasks import TASKS  # imported in the worker only: it imports sympy

    # Every task starts from sympy's empty cache, so its CPU time (and so whether it fits its budget)
    # does not depend on what the worker computed before: a replay decides as the live call did.
    clear_cache()
    _limit_cpu(time.process_time() + budget + CPU_GRACE)
    try:
        signal.setitimer(signal.ITIMER_PROF, max(budget, 1e-6))  # 0 would disarm the timer
        try:
            return ("ok", TASKS[task](payload))
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _OutOfCpu:
        return ("time",)
    except CgxError as error:
        return ("refused", str(error.code), error.message)
    except MemoryError:
        return ("memory",)
    except Exception as error:  # a bug in a task: reported, never a traceback in the caller's output
        return ("failed", f"{type(error).__name__}: {error}"[:500])


def _out_of_cpu(signum: int, frame: object) -> None:
    raise _OutOfCpu


def _die_with_parent(parent_pid: int) -> None:
    """Ask the kernel to kill this process when its parent's starting thread ends (Linux), and watch the
    pipe from the parent, which closes when the parent dies (everywhere)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the signal was asked for
        os._exit(1)
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        sentinel = parent.sentinel
        threading.Thread(target=_watch, args=(sentinel,), name="cgx-parent-watch", daemon=True).start()


def _watch(sentinel: int) -> None:
    from multiprocessing.connection import wait

    wait([sentinel])
    os._exit(1)


def _limit(name: str, value: int) -> None:
    try:
        import resource  # POSIX only

        which = getattr(resource, name)
        _, hard = resource.getrlimit(which)
        limit = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (limit, hard))
    except (ImportError, AttributeError, ValueError, OSError):
        pass  # no such limit on this platform: the other bounds still hold


def _limit_cpu(seconds: float) -> None:
    """The CPU-time rlimit (whole seconds, soft only, so the next task can raise it again)."""
    _limit("RLIMIT_CPU", max(1, math.ceil(seconds)))


_shared: MathsWorker | None = None
_shared_lock = threading.Lock()


def shared_worker() -> MathsWorker:
    """The process-wide worker the check plugins share (started on first use)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = MathsWorker()
        return _shared

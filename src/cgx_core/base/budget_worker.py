"""A persistent worker process within a CPU-time and memory budget, dying with its parent.

Some work cannot be interrupted reliably from inside the process that asked for it: sympy's `simplify`
ran for minutes on sympy issue 21787's expression, and a third-party check type's code may loop, sleep,
exhaust memory or call `os._exit`. Such work runs here, in a separate process (multiprocessing's spawn
context: a fresh interpreter, nothing inherited but `sys.path`), which limits itself:

* **CPU time, not wall time.** A budget that decides a check's result must not depend on how busy the
  machine is, or a check passing on a quiet machine would time out on a loaded one and replay and verify
  would differ. Each task gets `budget` seconds of the worker's own CPU time: a profiling timer
  (ITIMER_PROF, which counts CPU time only) interrupts the task where Python code runs, and the CPU-time
  rlimit (RLIMIT_CPU, a few seconds later) ends the process where a long C call does not return. Either
  way the task is out of budget and the next one starts a fresh process. Starting the process (its
  imports) is not counted.
* **Memory**: an address-space limit (RLIMIT_AS) set in the process itself.
* **Death with the parent**: on Linux the kernel kills the worker when the thread that started it ends
  (PR_SET_PDEATHSIG), so workers are started from one long-lived thread of the parent (`_Spawner`); a
  watchdog thread also ends the worker when the pipe from its parent closes (every platform).

A worker serves the tasks of one *task module*, named when it is made: the module's `TASKS` maps a task's
name to a function of its payload, and its optional `before_task()` runs before each task (the maths
tasks empty sympy's cache, so a task's cost does not depend on the tasks before it). A task may `ask` its
parent a question while it runs (a check type reading the run it checks): the parent answers with the
`answer` function it gave `run`, and the worker's CPU clock does not run while it waits.

The caller waits for a task without a time limit of its own but a generous wall-clock backstop, far
above any budget: hitting it means the worker stopped using CPU (the machine starved it, or the task
sleeps), which decides nothing, so `run` raises `check-stalled` and the caller records nothing.

The spawn context starts the worker by importing the parent's main module again, so a script that uses
a worker keeps its top-level work under `if __name__ == "__main__":`, as multiprocessing requires. A process
with a faster way to start one (a warm server's call asks the server's zygote to fork a worker that imported
its tasks already) installs it with `start_workers_with`; the worker then runs the same `serve` loop.
"""

from __future__ import annotations

import importlib
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
from typing import Any, Final, Literal, Protocol

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError

DEFAULT_MEMORY_BYTES: Final = 2 * 1024**3
"""A worker's address-space limit: enough for sympy (about 0.1 GB at rest), not enough to take the machine."""

START_TIMEOUT: Final = 120.0
"""Seconds a new worker may take to import its task module and say it is ready (not part of any budget)."""

CPU_GRACE: Final = 3
"""Seconds of CPU time past the budget before the rlimit ends a task stuck in C code."""

WALL_FACTOR: Final = 30.0
WALL_EXTRA: Final = 120.0
"""The wall-clock backstop of a task: WALL_FACTOR times its CPU budget plus WALL_EXTRA seconds."""

_JOIN_TIMEOUT: Final = 10.0
_PR_SET_PDEATHSIG: Final = 1


@attrs.frozen
class Finished:
    """The task ended; what its function returned."""

    payload: Any


@attrs.frozen
class OutOfBudget:
    """The task ran out of CPU time or memory; the worker was stopped."""

    reason: Literal["time", "memory"]


@attrs.frozen
class Died:
    """The worker process ended during the task without running out of budget (the task called
    `os._exit`, or a signal killed it): its exit status, negative for a signal."""

    exitcode: int | None


type Reply = Finished | OutOfBudget | Died
type Answer = Callable[[Any], Any]


class WorkerProcess(Protocol):
    """What the caller's side needs of a worker's process: multiprocessing's, or one a `Starter` started."""

    @property
    def pid(self) -> int | None:
        """The process id."""

    @property
    def exitcode(self) -> int | None:
        """None while it runs; then its exit status, negative for the signal that ended it."""

    def is_alive(self) -> bool:
        """Whether it still runs."""

    def kill(self) -> None:
        """End it with SIGKILL (from any thread)."""

    def join(self, timeout: float | None = None) -> None:
        """Wait until it has ended, `timeout` seconds at most."""

    def close(self) -> None:
        """Release what is held for it (it has ended)."""


type Starter = Callable[[str, str, int], tuple[WorkerProcess, Connection] | None]
"""Starts the worker of a task module (its name, the worker's name, its memory in bytes) that runs `serve` at the
other end of the connection; None to have it started the usual way."""

_starter: Starter | None = None


def start_workers_with(starter: Starter | None) -> None:
    """Start this process's workers with `starter` from now on (None: multiprocessing's spawn, the default)."""
    global _starter
    _starter = starter


class BudgetedWorker:
    """One worker process for the tasks of `tasks` (a module name), started on first use, used by one task
    at a time (thread-safe)."""

    def __init__(
        self,
        tasks: str,
        *,
        name: str,
        memory_bytes: int = DEFAULT_MEMORY_BYTES,
        stall: Callable[[float], float] | None = None,
    ) -> None:
        self.tasks = tasks
        self.name = name
        self.memory_bytes = memory_bytes
        self.stall = stall
        """The wall-clock backstop for a CPU budget, when not WALL_FACTOR times it plus WALL_EXTRA."""
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
            self._process.ensure(self)
            pid = self._process.pid()
        assert pid is not None
        return pid

    def run(self, task: str, payload: Any, budget: float, answer: Answer | None = None) -> Reply:
        """Run a task on a payload within `budget` seconds of CPU time; `answer` answers what it asks.

        A task that refuses its payload raises its CgxError here; a task that fails with anything else is
        a bug and raises CgxError `internal-error`; a worker that uses less CPU than its budget before the
        wall-clock backstop raises `check-stalled`. An exception `answer` raises stops the worker and is
        raised here.
        """
        wall = budget * WALL_FACTOR + WALL_EXTRA if self.stall is None else self.stall(budget)
        with self._lock:
            connection = self._process.ensure(self)
            try:
                connection.send(("task", task, payload, budget))
                while True:
                    if not connection.poll(wall):
                        self._process.stop()
                        raise CgxError(
                            Code.CHECK_STALLED,
                            f"the {self.name} used less than its {budget:g} s of CPU time in {wall:g} s (it waits "
                            "or the machine is too busy to run it); nothing was recorded",
                        )
                    reply = connection.recv()
                    if reply[0] != "ask":
                        break
                    connection.send(_answered(answer, reply[1]))
            except (EOFError, OSError):
                # The process died: the CPU-time rlimit (SIGXCPU), the kernel's memory killer, or the task.
                code = self._process.exitcode()
                self._process.stop()
                if code == -signal.SIGXCPU:
                    return OutOfBudget("time")
                if code in (-signal.SIGKILL, -signal.SIGSEGV):
                    return OutOfBudget("memory")
                return Died(code)
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
            raise CgxError(str(reply[1]), reply[2])  # the core's code or a check type's own
        raise CgxError(Code.INTERNAL_ERROR, f"the {self.name} failed on task {task!r}: {reply[1]}")

    def close(self) -> None:
        """Stop the worker process, if one runs; the next `run` starts another."""
        with self._lock:
            self._process.stop()

    def kill(self) -> None:
        """Stop the worker at once, from any thread (a cancelled call): the task waiting on it sees it die."""
        self._process.kill()


def _answered(answer: Answer | None, question: Any) -> tuple[str, Any]:
    if answer is None:
        return ("failed", "this task may not ask its parent anything")
    try:
        return ("answer", answer(question))
    except CgxError:
        raise
    except Exception as error:
        return ("failed", f"{type(error).__name__}: {error}"[:500])


class _Process:
    """The process and its end of the pipe, held apart from the worker so its finalizer can reach them."""

    def __init__(self) -> None:
        self.process: WorkerProcess | None = None
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

    def ensure(self, worker: BudgetedWorker) -> Connection:
        if self.process is not None and self.connection is not None and self.process.is_alive():
            return self.connection
        self.stop()
        tasks, name, memory = worker.tasks, worker.name, worker.memory_bytes
        started = _starter(tasks, name, memory) if _starter is not None else None
        process, parent = started if started is not None else _SPAWNER.call(lambda: _start(tasks, name, memory))
        self.process, self.connection = process, parent
        try:
            ready = parent.poll(START_TIMEOUT) and parent.recv() == ("ready",)
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.stop()
            raise CgxError(Code.INTERNAL_ERROR, f"the {name} process did not start")
        return parent

    def kill(self) -> None:
        process = self.process
        if process is not None and process.is_alive():
            process.kill()

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


def _start(tasks: str, name: str, memory_bytes: int) -> tuple[BaseProcess, Connection]:
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe(duplex=True)
    process = context.Process(
        target=serve, args=(child, tasks, memory_bytes, os.getpid()), name=f"cgx-{name}", daemon=True
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
                self._thread = threading.Thread(target=self._serve, name="cgx-worker-spawner", daemon=True)
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


class OutOfCpu(BaseException):
    """Raised in the worker by the profiling timer: a BaseException, so a task's own `except Exception`
    handlers do not swallow it."""


class AskFailed(Exception):
    """The parent could not answer a task's question."""


_connection: Connection | None = None


def ask(question: Any) -> Any:
    """From inside a task: ask the parent `question` and wait for its answer (CPU time is not spent)."""
    if _connection is None:
        raise AskFailed("not inside a worker's task")
    _connection.send(("ask", question))
    kind, value = _connection.recv()
    if kind != "answer":
        raise AskFailed(str(value))
    return value


def serve(connection: Connection, tasks: str, memory_bytes: int, parent_pid: int) -> None:
    """The worker's loop: die with the parent, limit memory, import the tasks, then answer one task at a
    time until EOF (or until a task ran out of budget: the next starts in a fresh process)."""
    global _connection
    _die_with_parent(parent_pid)
    _limit("RLIMIT_AS", memory_bytes)
    _limit("RLIMIT_CORE", 0)
    signal.signal(signal.SIGPROF, out_of_cpu)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C at the terminal is the parent's to handle
    importlib.import_module(tasks)  # imported before "ready", so a task's budget excludes it
    _connection = connection
    connection.send(("ready",))
    while True:
        try:
            _, task, payload, budget = connection.recv()
        except (EOFError, OSError):
            return
        reply = answer(tasks, task, payload, budget)
        try:
            connection.send(reply)
        except BaseException:  # the parent is gone, or no memory is left to say so: end quietly
            return
        if reply[0] in ("memory", "time"):
            return


def answer(tasks: str, task: str, payload: Any, budget: float) -> tuple[Any, ...]:
    """Run one task of the module `tasks` within `budget` seconds of this process's CPU time; by the time
    this returns, a failed task's frames (and its memory) are released."""
    module = importlib.import_module(tasks)
    before = getattr(module, "before_task", None)
    if before is not None:
        before()
    _limit_cpu(time.process_time() + budget + CPU_GRACE)
    try:
        signal.setitimer(signal.ITIMER_PROF, max(budget, 1e-6))  # 0 would disarm the timer
        try:
            return ("ok", module.TASKS[task](payload))
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except OutOfCpu:
        return ("time",)
    except CgxError as error:
        return ("refused", str(error.code), error.message)
    except MemoryError:
        return ("memory",)
    except Exception as error:  # a bug in a task: reported, never a traceback in the caller's output
        return ("failed", f"{type(error).__name__}: {error}"[:500])


def out_of_cpu(signum: int, frame: object) -> None:
    raise OutOfCpu


def _die_with_parent(parent_pid: int) -> None:
    """Ask the kernel to kill this process when its parent's starting thread ends (Linux), and watch the
    pipe from the parent, which closes when the parent dies (everywhere)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl here: the pipe from the parent (watched below) still ends the worker when it dies
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

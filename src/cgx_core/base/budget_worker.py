"""Work in a child process within a budget of CPU time and memory, dying with its parent: the one way this
package isolates work (reading a paper, a maths step's sympy, a third party's check code).

Some work cannot be interrupted reliably from inside the process that asked for it: sympy's `simplify` ran
for minutes on sympy issue 21787's expression, a paper's macros can expand without end, and a third-party
check type's code may loop, sleep, exhaust memory or call `os._exit`. Such work runs in a *worker*, a child
process serving the tasks of one *task module* (its `TASKS` maps a task's name to a function of its payload),
and every worker is made and bounded the same way:

* **One starter.** A worker is a fresh interpreter running this module's `main` (`python -P -c ...`), told the
  caller's module path and task module over its pipe. It never imports the caller's `__main__` (which
  multiprocessing's spawn did), so a script that drives the tools in process without an
  `if __name__ == "__main__":` guard runs its calls once.
* **One check before any fork.** A worker made `fork_per_task` (reading a paper) forks a child per task, so
  that every task starts from the same state and gives all its memory back; a process that asked for it
  (`fork_here`: a command line's start_run, which has imported the readers already) forks the child from
  itself instead of starting a worker. Either forks only while `single_threaded()` holds, C libraries'
  threads counted: a fork copies the forking thread alone, and a lock another thread held stays locked in
  the child for ever.
* **One budget** (`Budget`): seconds of the process's own CPU time per task, not wall time (a budget that
  decides a check's result must not depend on the machine's load, or replay and verify would differ): a
  profiling timer (ITIMER_PROF) interrupts the task where Python code runs, and the CPU-time rlimit
  (RLIMIT_CPU, a few seconds later) ends the process where a long C call does not return. And bytes of
  address space (RLIMIT_AS) beyond what the process held before its first task. Starting a worker and
  importing its tasks are not counted. A task that ran out of either ends its process: the next task
  starts in a fresh one.
* **Death with the parent.** Linux's parent-death signal (PR_SET_PDEATHSIG) kills a worker when the thread
  that started it ends, so workers are started from the main thread or one long-lived thread (`_Spawner`); a
  worker also ends when its stdin, a pipe only its parent writes, reaches its end (every platform). A forked
  child asks for the same signal against the process it was forked from.

A persistent worker's task module may define `before_task()`, run before each task outside its budget (the
maths tasks empty sympy's cache, so a task's cost does not depend on the tasks before it); a fork-per-task
module may define `before_fork(task, payload)`, run in the forking process, to import what the task needs so
its budget counts work, not imports. A task may `ask` its parent a question while it runs (a check type
reading the run it checks): the parent answers with the `answer` function it gave `run`, and the worker's
CPU clock does not run while it waits.

The caller waits for a task without a time limit of its own but a generous wall-clock backstop, far above
any budget: hitting it means the worker stopped using CPU (the machine starved it, or the task sleeps),
which decides nothing, so `run` raises `check-stalled` and the caller records nothing.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import pickle
import queue
import resource
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection, Pipe
from typing import Any, Final, Literal, NoReturn

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError

DEFAULT_MEMORY_BYTES: Final = 2 * 1024**3
"""A worker's address space beyond what it holds once its tasks are imported: enough for sympy's largest
decisions, not enough to take the machine."""

START_TIMEOUT: Final = 120.0
"""Seconds a new worker may take to import its task module and say it is ready (not part of any budget)."""

CPU_GRACE: Final = 3
"""Seconds of CPU time past the budget before the rlimit ends a task stuck in C code."""

WALL_FACTOR: Final = 30.0
WALL_EXTRA: Final = 120.0
"""The wall-clock backstop of a task: WALL_FACTOR times its CPU budget plus WALL_EXTRA seconds."""

QUIET_LIBRARIES: Final = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""A worker's numerical libraries start no threads of their own: its CPU budget is its own, and a worker
that forks stays single-threaded."""

_JOIN_TIMEOUT: Final = 10.0
_PR_SET_PDEATHSIG: Final = 1
_WORKER_MAIN: Final = "from cgx_core.base.budget_worker import main; main()"


@attrs.frozen
class Budget:
    """What one task may use: seconds of its process's CPU time, and bytes of address space beyond what the
    process held before its first task."""

    cpu_seconds: float
    memory_bytes: int = DEFAULT_MEMORY_BYTES

    def to_json(self) -> dict[str, float]:
        return {"cpu_seconds": self.cpu_seconds, "memory_bytes": self.memory_bytes}

    def scaled(self, factor: int) -> Budget:
        """The same memory and `factor` times the CPU time."""
        return Budget(self.cpu_seconds * factor, self.memory_bytes)


@attrs.frozen
class Finished:
    """The task ended; what its function returned."""

    payload: Any


@attrs.frozen
class OutOfBudget:
    """The task ran out of CPU time or memory; its process was stopped."""

    reason: Literal["time", "memory"]


@attrs.frozen
class Died:
    """The task's process ended during the task without running out of budget (the task called `os._exit`,
    or a signal killed it): its exit status, negative for a signal."""

    exitcode: int | None


type Reply = Finished | OutOfBudget | Died
type Answer = Callable[[Any], Any]


def single_threaded() -> bool:
    """Whether this process runs one thread, Python's and the C libraries' alike: the one check made before
    any fork (a fork copies only the forking thread; a lock another thread held would never be released)."""
    if threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return True  # no /proc: Python's own count is all there is to know


_fork_here = False


def fork_here() -> None:
    """From now on, fork a fork-per-task worker's tasks from this process while it runs one thread, instead of
    starting a worker: for a process that makes one call and exits (a command line's start_run), one
    interpreter and one import of what the task needs. The budget is the same: a forked child's CPU time starts
    at zero, its memory from what it was forked with."""
    global _fork_here
    _fork_here = True


class BudgetedWorker:
    """The worker of the task module `tasks` (a module name), started on first use and used by one task at a
    time (thread-safe). `fork_per_task` runs each task in a child forked from the worker (or from this
    process, see `fork_here`); otherwise the worker runs its tasks itself, one after another."""

    def __init__(
        self,
        tasks: str,
        *,
        name: str,
        memory_bytes: int = DEFAULT_MEMORY_BYTES,
        stall: Callable[[float], float] | None = None,
        fork_per_task: bool = False,
    ) -> None:
        self.tasks = tasks
        self.name = name
        self.memory_bytes = memory_bytes
        self.stall = stall
        """The wall-clock backstop for a CPU budget, when not WALL_FACTOR times it plus WALL_EXTRA."""
        self.fork_per_task = fork_per_task
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
        """Run a task on a payload within `budget` seconds of CPU time and the worker's memory (`run_within`)."""
        return self.run_within(task, payload, Budget(budget, self.memory_bytes), answer)

    def run_within(self, task: str, payload: Any, budget: Budget, answer: Answer | None = None) -> Reply:
        """Run a task on a payload within `budget`; `answer` answers what it asks.

        A task that refuses its payload raises its CgxError here; a task that fails with anything else is
        a bug and raises CgxError `internal-error`; a worker that uses less CPU than its budget before the
        wall-clock backstop raises `check-stalled`. An exception `answer` raises stops the worker and is
        raised here.
        """
        cpu = budget.cpu_seconds
        wall = cpu * WALL_FACTOR + WALL_EXTRA if self.stall is None else self.stall(cpu)
        with self._lock:
            if self.fork_per_task and _fork_here and single_threaded() and _ready_to_fork(self.tasks, task, payload):
                try:
                    reply = _run_forked(self.tasks, task, payload, budget, deadline=time.monotonic() + wall)
                except TimeoutError:
                    raise self._stalled(cpu, wall) from None
            else:
                reply = self._run_in_worker(task, payload, budget, wall, answer)
        return self._outcome(task, reply)

    def _run_in_worker(
        self, task: str, payload: Any, limits: Budget, wall: float, answer: Answer | None
    ) -> tuple[Any, ...]:
        connection = self._process.ensure(self)
        try:
            connection.send(("task", task, payload, limits))
            while True:
                if not connection.poll(wall):
                    self._process.stop()
                    raise self._stalled(limits.cpu_seconds, wall)
                reply: tuple[Any, ...] = connection.recv()
                if reply[0] != "ask":
                    break
                connection.send(_answered(answer, reply[1]))
        except (EOFError, OSError):
            # The process died: the CPU-time rlimit (SIGXCPU), the kernel's memory killer, or the task.
            code = self._process.exitcode()
            self._process.stop()
            if self.fork_per_task:  # a task's child says how it ended: the worker itself was killed from outside
                raise CgxError(Code.INTERNAL_ERROR, f"the {self.name} process stopped answering; try again") from None
            return _ended(code)
        except BaseException:
            self._process.stop()  # interrupted while the task runs: its late answer must not be read
            raise
        if reply[0] in ("memory", "time") and not self.fork_per_task:
            self._process.stop()  # the worker ends after such a task: the next starts a fresh one
        return reply

    def _stalled(self, budget: float, wall: float) -> CgxError:
        return CgxError(
            Code.CHECK_STALLED,
            f"the {self.name} used less than its {budget:g} s of CPU time in {wall:g} s (it waits or the machine "
            "is too busy to run it); nothing was recorded",
        )

    def _outcome(self, task: str, reply: tuple[Any, ...]) -> Reply:
        kind = reply[0]
        if kind == "ok":
            return Finished(reply[1])
        if kind in ("memory", "time"):
            return OutOfBudget(kind)
        if kind == "died":
            return Died(reply[1])
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


def _ended(exitcode: int | None) -> tuple[Any, ...]:
    """The reply of a task whose process ended without one: out of CPU time (SIGXCPU), of memory (the
    kernel's memory killer, or a crash on a failed allocation), or it died."""
    if exitcode == -signal.SIGXCPU:
        return ("time",)
    if exitcode in (-signal.SIGKILL, -signal.SIGSEGV):
        return ("memory",)
    return ("died", exitcode)


class _Process:
    """The worker's process, its end of the pipe and its stdin, held apart from the worker so its finalizer
    can reach them."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.connection: Connection | None = None

    def pid(self) -> int | None:
        if self.process is None or self.process.poll() is not None:
            return None
        return self.process.pid

    def exitcode(self) -> int | None:
        if self.process is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(_JOIN_TIMEOUT)
        return self.process.returncode

    def ensure(self, worker: BudgetedWorker) -> Connection:
        if self.process is not None and self.connection is not None and self.process.poll() is None:
            return self.connection
        self.stop()
        tasks, fork_per_task = worker.tasks, worker.fork_per_task
        if threading.current_thread() is threading.main_thread():  # it lives as long as the process: no thread
            self.process, self.connection = _spawn(tasks, fork_per_task)  # started, so one that ran one stays so
        else:
            self.process, self.connection = _SPAWNER.call(lambda: _spawn(tasks, fork_per_task))
        try:
            ready = self.connection.poll(START_TIMEOUT) and self.connection.recv() == ("ready",)
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.stop()
            raise CgxError(Code.INTERNAL_ERROR, f"the {worker.name} process did not start")
        return self.connection

    def kill(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()

    def stop(self) -> None:
        process, connection = self.process, self.connection
        self.process = self.connection = None
        if connection is not None:
            connection.close()
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(_JOIN_TIMEOUT)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()


def _spawn(tasks: str, fork_per_task: bool) -> tuple[subprocess.Popen[bytes], Connection]:
    """Start a worker: a fresh interpreter running `main`, its end of a pipe passed by descriptor."""
    parent, child = Pipe(duplex=True)
    try:
        process = subprocess.Popen(
            [sys.executable, "-P", "-c", _WORKER_MAIN, str(child.fileno()), str(os.getpid())],
            stdin=subprocess.PIPE,
            pass_fds=(child.fileno(),),
            env={**os.environ, **QUIET_LIBRARIES},
        )
    finally:
        child.close()
    parent.send((list(sys.path), tasks, fork_per_task))
    return process, parent


class _Spawner:
    """One long-lived daemon thread that starts the worker processes other threads than the main one ask for.

    Linux's parent-death signal fires when the *thread* that started the child ends, not the process;
    the caller's thread may be a pool's and end at any time (killing a worker mid-task), so workers are
    started here, from a thread that lives as long as the process (as the main thread does)."""

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


# -- forking one task ------------------------------------------------------------------------------------------


def _ready_to_fork(tasks: str, task: str, payload: Any) -> bool:
    """Prepare this process to fork `task` (import its module, run its `before_fork`), then the one check
    made before any fork: whether this process runs one thread (the preparation's imports could start one)."""
    module = importlib.import_module(tasks)
    before = getattr(module, "before_fork", None)
    if before is not None:
        before(task, payload)
    return single_threaded()


def _run_forked(
    tasks: str, task: str, payload: Any, budget: Budget, *, deadline: float | None = None, watch: int | None = None
) -> tuple[Any, ...]:
    """One task in a child forked from this process (`_ready_to_fork` said it may): the child's reply, or what
    its end says. Raises TimeoutError at `deadline` (time.monotonic), and `_ParentGone` when `watch` (a
    worker's stdin) ends first; either way the child is killed first."""
    reader, writer = os.pipe()
    parent = os.getpid()  # taken before the fork: read in the child, it would be the reaper's if this died first
    child = os.fork()
    if child == 0:
        os.close(reader)
        _forked_child(tasks, task, payload, budget, parent, writer)
    os.close(writer)
    try:
        data = _read_reply(reader, deadline, watch)
    except BaseException:  # out of wall time, the parent gone, or interrupted: the task ends here
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        raise
    finally:
        os.close(reader)
    _, status = os.waitpid(child, 0)
    if not data:
        return _ended(os.waitstatus_to_exitcode(status))
    try:
        reply: tuple[Any, ...] = pickle.loads(data)
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
        reply = ("failed", f"exit status {os.waitstatus_to_exitcode(status)}, an unreadable reply")
    return reply


class _ParentGone(Exception):
    """A worker's parent died while a forked task ran."""


def _read_reply(reader: int, deadline: float | None, watch: int | None) -> bytes:
    """Everything written to `reader` until its end (read as it comes, so a large reply never blocks the
    child), waiting until `deadline` at most; `watch` reaching its end first raises `_ParentGone`."""
    parts: list[bytes] = []
    wanted = [reader] if watch is None else [reader, watch]
    while True:
        wait = None if deadline is None else deadline - time.monotonic()
        ready = select.select(wanted, [], [], wait)[0] if wait is None or wait > 0 else []
        if not ready:
            raise TimeoutError
        if watch in ready:
            raise _ParentGone
        part = os.read(reader, 1 << 20)
        if not part:
            return b"".join(parts)
        parts.append(part)


def _forked_child(tasks: str, task: str, payload: Any, budget: Budget, parent: int, writer: int) -> NoReturn:
    """In the forked child: die with `parent`, take the budget, answer, write the reply, exit (never returns)."""
    global _connection
    try:
        _connection = None  # the forking worker's pipe to its parent is not the child's to use
        _die_with(parent)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):
            os.dup2(
                devnull, fd
            )  # the forking process's streams (a worker's pipe, a command's stdin) are not the task's
        os.environ.update(QUIET_LIBRARIES)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C at the terminal is the parent's to handle
        signal.signal(signal.SIGPROF, out_of_cpu)
        _limit("RLIMIT_CORE", 0)
        _limit("RLIMIT_AS", _address_space() + budget.memory_bytes)
        reply = answer(tasks, task, payload, budget.cpu_seconds)
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            data = pickle.dumps(("memory",))
        view = memoryview(data)
        while view:
            view = view[os.write(writer, view) :]
    finally:
        os._exit(0)


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


def main() -> None:
    """A worker's interpreter (`_spawn`): arguments are its pipe's descriptor and its parent's pid; the pipe
    brings the parent's module path, the task module and whether to fork per task."""
    connection = Connection(int(sys.argv[1]))
    _die_with(int(sys.argv[2]))
    path, tasks, fork_per_task = connection.recv()
    sys.path[:] = path
    serve(connection, tasks, fork_per_task=fork_per_task)


def serve(connection: Connection, tasks: str, *, fork_per_task: bool) -> None:
    """The worker's loop: limit core dumps, import the tasks, then answer one task at a time until EOF (or, for
    a worker that runs its tasks itself, until a task ran out of budget: the next starts in a fresh process)."""
    global _connection
    _limit("RLIMIT_CORE", 0)
    signal.signal(signal.SIGPROF, out_of_cpu)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C at the terminal is the parent's to handle
    importlib.import_module(tasks)  # imported before "ready", so a task's budget excludes it
    if not fork_per_task:
        threading.Thread(target=_exit_at_end_of_stdin, name="cgx-parent-watch", daemon=True).start()
    held = _address_space()
    _connection = connection
    connection.send(("ready",))
    while True:
        try:
            _, task, payload, budget = connection.recv()
        except (EOFError, OSError):
            return
        if fork_per_task and not _ready_to_fork(tasks, task, payload):
            reply = ("failed", "the worker runs more than one thread, so it may not fork")  # a task module's bug
        elif fork_per_task:
            try:
                reply = _run_forked(tasks, task, payload, budget, watch=0)  # stdin: the parent's lifeline
            except _ParentGone:
                return
        else:
            _limit("RLIMIT_AS", held + budget.memory_bytes)
            reply = answer(tasks, task, payload, budget.cpu_seconds)
        try:
            connection.send(reply)
        except BaseException:  # the parent is gone, or no memory is left to say so: end quietly
            return
        if reply[0] in ("memory", "time") and not fork_per_task:
            return


def answer(tasks: str, task: str, payload: Any, budget: float) -> tuple[Any, ...]:
    """Run one task of the module `tasks` within `budget` seconds of this process's CPU time; by the time
    this returns, a failed task's frames (and its memory) are released."""
    module = importlib.import_module(tasks)
    before = getattr(module, "before_task", None)
    if before is not None:
        before()
    # The CPU-time rlimit: whole seconds, soft only, so the next task can raise it again.
    _limit("RLIMIT_CPU", max(1, math.ceil(time.process_time() + budget + CPU_GRACE)))
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


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this process when `parent`'s starting thread ends (Linux), and end now if it
    already has."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl here: a worker's stdin (watched) still ends it when the parent dies
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


def _exit_at_end_of_stdin() -> None:
    """End the worker when its stdin, a pipe only the parent holds, reaches its end: the parent died."""
    with contextlib.suppress(OSError):
        while os.read(0, 1 << 10):
            pass
    os._exit(1)


def _address_space() -> int:
    """The process's address space now (VmSize), in bytes; 0 where /proc does not say."""
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _limit(name: str, value: int) -> None:
    """Lower the soft limit `name` to `value` (never above the hard limit, which stays, so the next task can
    raise the soft one again)."""
    try:
        which = getattr(resource, name)
        _, hard = resource.getrlimit(which)
        limit = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (limit, hard))
    except (AttributeError, ValueError, OSError):
        pass  # no such limit on this platform: the other bounds still hold

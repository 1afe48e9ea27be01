"""Reading a paper within a budget: start_run's ingestion step in a child process with CPU-time and memory limits.

A hostile or broken paper can make reading cost without bound: a 2 MB `.bib` field (pylatexenc renders it in
superlinear time), macros whose expansion doubles at each level, 15 MB of LaTeX under the size caps. None of
that can be interrupted reliably inside the process (the MCP server runs calls in threads, which no signal
reaches), so each reading runs in a child process that limits itself before it starts:

- CPU time (`RLIMIT_CPU`): the kernel stops the child when it has used its budget, whatever the machine's
  load, so a busy machine refuses exactly the papers an idle one refuses;
- address space (`RLIMIT_AS`): an allocation past the budget fails with MemoryError, which the child reports;
- the death of the process that asked: no child outlives it.

Children are forked from a *zygote*: a fresh interpreter (`python -m cgx_core.ingest.worker`), started once
per process on first use, that imports the readers and then forks one child per reading. A reading costs a
fork rather than an interpreter start and half a second of imports; the zygote is single-threaded (its BLAS
libraries are told to start no threads), so forking it is safe, which forking a threaded MCP server is not.
The zygote watches its stdin while a child works: when the process that started it dies, the pipe reaches
end-of-file, and the zygote kills the child and exits; the child also asks the kernel to kill it when the
zygote dies (`PR_SET_PDEATHSIG`).

The caller waits with a wall-clock safety net (a multiple of the CPU budget) that only catches a child that
stopped using CPU. Requests and replies are length-prefixed pickles of plain values (`ingestion.IngestRequest`,
`ingestion.Ingested`); a refusal comes back as its code and message.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from typing import IO, Any

import attrs

from cgx_core.base.limits import INGEST_CPU_SECONDS, INGEST_MEMORY_BYTES, INGEST_WALL_FACTOR
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingest.paper import Ingested, IngestRequest

_FRAME = struct.Struct("<Q")
_QUIET_LIBRARIES = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@attrs.frozen
class Budget:
    """What reading one paper may use: CPU seconds, and bytes of address space beyond the imported libraries."""

    cpu_seconds: int = INGEST_CPU_SECONDS
    memory_bytes: int = INGEST_MEMORY_BYTES

    def to_json(self) -> dict[str, int]:
        return {"cpu_seconds": self.cpu_seconds, "memory_bytes": self.memory_bytes}

    def scaled(self, factor: int) -> Budget:
        return Budget(self.cpu_seconds * factor, self.memory_bytes)


def default_budget() -> Budget:
    """The budget start_run uses (read at call time, so a test can lower the module's constants)."""
    from cgx_core.base import limits

    return Budget(limits.INGEST_CPU_SECONDS, limits.INGEST_MEMORY_BYTES)


def ingest_bounded(request: IngestRequest, budget: Budget) -> Ingested:
    """Run `ingestion.ingest_paper(request)` in a child process within `budget`.

    Raises:
        CgxError: the child's own refusal (paper-invalid, outside-root, ...), `ingest-over-budget` when it
            ran out of CPU time or memory, `internal-error` when it failed otherwise.
    """
    wall = budget.cpu_seconds * INGEST_WALL_FACTOR + 60
    try:
        payload = pickle.dumps((request, budget), protocol=pickle.HIGHEST_PROTOCOL)
        status, reply = _ZYGOTE.run(payload, wall, pdf=not request.paper.lower().endswith(".tex"))
    except TimeoutError:
        raise CgxError(
            Code.INGEST_OVER_BUDGET,
            f"reading the paper did not end within {wall} s of wall time (its CPU budget is {budget.cpu_seconds} s): "
            "it waited on something that never came; check that every file of the paper is a regular file",
        ) from None
    return _outcome(status, reply, budget)


def zygote_pid() -> int | None:
    """The pid of this process's zygote, if one runs (for tests and diagnostics)."""
    return _ZYGOTE.pid()


def _outcome(status: int, data: bytes, budget: Budget) -> Ingested:
    if status in (-signal.SIGXCPU, -signal.SIGKILL):
        raise CgxError(
            Code.INGEST_OVER_BUDGET,
            f"reading the paper used its whole budget of {budget.cpu_seconds} s of CPU time and was stopped (the "
            "shared real papers take under 2 s). Look for what no paper needs: a huge .bib field, macros that "
            "expand into themselves many times over, megabytes of generated LaTeX; remove it and start again",
        )
    try:
        reply: tuple[Any, ...] = pickle.loads(data) if data else ("failed", f"exit status {status}, no reply")
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
        reply = ("failed", f"exit status {status}, an unreadable reply")
    kind = reply[0]
    if kind == "ok":
        ingested: Ingested = reply[1]
        return ingested
    if kind == "refused":
        raise CgxError(Code(reply[1]), reply[2])
    if kind == "memory":
        raise CgxError(
            Code.INGEST_OVER_BUDGET,
            f"reading the paper needed more than its budget of {budget.memory_bytes // 1024**2} MiB of memory. Look "
            "for what no paper needs: a huge .bib field, macros that expand into themselves many times over, "
            "megabytes of generated LaTeX; remove it and start again",
        )
    raise CgxError(Code.INTERNAL_ERROR, f"reading the paper failed inside this package ({reply[1]}); please report it")


# -- the caller's side -----------------------------------------------------------------------------------------


class _ZygoteClient:
    """This process's zygote: started on first use, one reading at a time, replaced when it dies."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = os.getpid()

    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def run(self, payload: bytes, wall: float, *, pdf: bool) -> tuple[int, bytes]:
        """One reading's exit status and reply; `pdf` when the paper may be a PDF (its reader imported first)."""
        with self._lock:
            if _in_place and threading.active_count() == 1:
                _warm_up(pdf=pdf)
                return _read_in_fork(payload, wall)
            for attempt in (1, 2):
                process = self._ensure()
                assert process.stdin is not None and process.stdout is not None
                try:
                    _write_frame(process.stdin, payload)
                    status, reply = pickle.loads(_read_frame(process.stdout, time.monotonic() + wall))
                    return int(status), bytes(reply)
                except TimeoutError:
                    self._stop()
                    raise
                except (OSError, EOFError, ValueError, pickle.UnpicklingError):
                    self._stop()  # the zygote died (killed from outside): start another, once
                    if attempt == 2:
                        raise CgxError(
                            Code.INTERNAL_ERROR, "the process that reads papers stopped answering; please report it"
                        ) from None
                except BaseException:
                    self._stop()  # interrupted mid-reading: its late answer must not be read by the next caller
                    raise
        raise AssertionError("unreachable")

    def _ensure(self) -> subprocess.Popen[bytes]:
        if self._owner != os.getpid():  # a forked copy of this object: never share the parent's zygote
            self._process, self._owner = None, os.getpid()
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._stop()
        self._process = subprocess.Popen(
            [sys.executable, "-P", "-m", "cgx_core.ingest.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            env={**os.environ, **_QUIET_LIBRARIES},
        )
        return self._process

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def forget_after_fork(self) -> None:
        """In a forked child: drop the parent's zygote (its pipes are the parent's) without touching it. The
        child's copies of the pipes are closed, so the zygote still sees end-of-file when the parent dies, and
        the objects are kept for ever, so that no later collection closes those descriptor numbers again."""
        self._lock = threading.Lock()
        process, self._process = self._process, None
        self._owner = os.getpid()
        if process is not None:
            _ABANDONED.append(process)
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        os.close(stream.fileno())


_ABANDONED: list[subprocess.Popen[bytes]] = []
"""Zygote handles inherited through a fork, whose descriptors were closed by hand: never collected."""


_ZYGOTE = _ZygoteClient()
os.register_at_fork(after_in_child=_ZYGOTE.forget_after_fork)


def _write_frame(stream: IO[bytes], data: bytes) -> None:
    stream.write(_FRAME.pack(len(data)) + data)
    stream.flush()


def _read_frame(stream: IO[bytes], deadline: float | None) -> bytes:
    fd = stream.fileno()
    head = _read_exactly(fd, _FRAME.size, deadline)
    return _read_exactly(fd, _FRAME.unpack(head)[0], deadline)


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes:
    """`size` bytes from `fd`, waiting until `deadline` (time.monotonic) at most, or for ever when None."""
    parts: list[bytes] = []
    remaining = size
    while remaining:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise TimeoutError
        part = os.read(fd, min(remaining, 1 << 20))
        if not part:
            raise EOFError
        parts.append(part)
        remaining -= len(part)
    return b"".join(parts)


# -- the zygote and its children ------------------------------------------------------------------------------

_in_place = False
"""True in a process that reads papers itself (`read_in_place`): while it is single-threaded, it forks each
reading from itself, as the zygote does, instead of starting a zygote."""

_warmed = False


def read_in_place() -> None:
    """From now on, fork each reading from this process while it runs one thread, the readers imported here.

    For a process that makes one call and exits (a command-line `tool start_run`): one interpreter and one
    import of the readers, where a zygote is a second interpreter importing credencegraph again. A process
    that has started threads (the MCP server, a run_checks that began its maths worker) goes on using the
    zygote: forking it is not safe. The budget is the same: the forked child's CPU time starts at zero.
    """
    global _in_place
    _in_place = True


def prepare_readers() -> None:
    """Import the readers now and read in place (`read_in_place`): for a process whose job is to be forked
    warm (the command line's warm server), whose children then read in a fork of their own."""
    _warm_up()
    read_in_place()


def _read_in_fork(payload: bytes, wall: float) -> tuple[int, bytes]:
    """One reading in a child forked from this process, as the zygote forks one: its exit status and reply."""
    child, reader = _fork_reading(payload)
    try:
        reply = _read_all(reader, time.monotonic() + wall)
    except BaseException:  # out of wall time, or interrupted: the reading ends with the call
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        raise
    finally:
        os.close(reader)
    _, wait_status = os.waitpid(child, 0)
    return os.waitstatus_to_exitcode(wait_status), reply


def _read_all(fd: int, deadline: float) -> bytes:
    """Everything written to `fd` until its end, waiting until `deadline` (time.monotonic) at most."""
    parts: list[bytes] = []
    while True:
        wait = deadline - time.monotonic()
        if wait <= 0 or not select.select([fd], [], [], wait)[0]:
            raise TimeoutError
        part = os.read(fd, 1 << 20)
        if not part:
            return b"".join(parts)
        parts.append(part)


def _warm_up(*, pdf: bool = True) -> None:
    """Import what reading needs before any budget starts, so a budget counts reading, not importing. That
    includes the modules the readers import only when a paper needs them (the table rows' numbers, the
    numbering's walk, the graph edits): imported in each child, they were a third of reading a small paper.
    The PDF reader (a twentieth of a second) only with `pdf`: a command line reading a .tex has no use for it.
    Once per process."""
    global _warmed
    if pdf:
        import codecs
        import heapq  # noqa: F401

        import credencegraph.ingest.pdf

        import cgx_core.ingest.pdf.reading

        codecs.lookup("utf-16-le")  # a PDF's text strings
    if _warmed:
        return
    import bibtexparser.entrypoint  # noqa: F401
    import credencegraph.core
    import credencegraph.ingest.latex  # noqa: F401
    import pylatexenc.latex2text
    import pylatexenc.latexwalker._defaultspecs  # noqa: F401

    import cgx_core.graph.edit
    import cgx_core.graph.numerals
    import cgx_core.graph.rubric
    import cgx_core.ingest.bibliography
    import cgx_core.ingest.numbering.visitor
    import cgx_core.ingest.paper
    import cgx_core.ingest.read_watch
    import cgx_core.ingest.tables.graph

    cgx_core.ingest.read_watch.install()
    cgx_core.ingest.bibliography.text_renderer()
    _warmed = True


def _zygote() -> None:
    """Answer one reading at a time until stdin ends; kill the child at work if it ends meanwhile."""
    _warm_up()
    while True:
        try:
            payload = _read_exactly(0, _FRAME.unpack(_read_exactly(0, _FRAME.size, None))[0], None)
        except EOFError:
            return
        child, reader = _fork_reading(payload)
        reply = _collect(reader, child)
        if reply is None:
            return  # the caller is gone
        _, wait_status = os.waitpid(child, 0)
        message = pickle.dumps((os.waitstatus_to_exitcode(wait_status), reply), protocol=pickle.HIGHEST_PROTOCOL)
        os.write(1, _FRAME.pack(len(message)))
        view = memoryview(message)
        while view:
            view = view[os.write(1, view) :]


def _fork_reading(payload: bytes) -> tuple[int, int]:
    """Fork the child that reads `payload` (in the zygote, or in a process that prepared the readers): its pid,
    and the read end of the pipe its reply comes on."""
    reader, writer = os.pipe()
    parent = os.getpid()  # taken before the fork: read in the child, it would be the reaper's if this died first
    child = os.fork()
    if child == 0:
        os.close(reader)
        _child(payload, writer, parent)
    os.close(writer)
    return child, reader


def _collect(reader: int, child: int) -> bytes | None:
    """The child's reply (read as it comes, so a large one never blocks it), or None when stdin ended first:
    the caller died, so the child is killed and reaped."""
    parts: list[bytes] = []
    while True:
        ready = select.select([reader, 0], [], [])[0]
        if 0 in ready:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
            return None
        part = os.read(reader, 1 << 20)
        if not part:
            os.close(reader)
            return b"".join(parts)
        parts.append(part)


def _child(payload: bytes, writer: int, parent: int) -> None:
    """One reading: die with `parent` (the zygote, or the process reading in place), limit CPU time and
    memory, answer, exit (never returns)."""
    try:
        _die_with(parent)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):
            os.dup2(devnull, fd)  # the zygote's protocol streams (or a warm call's caller's) are not the child's
        os.environ.update(_QUIET_LIBRARIES)  # as the zygote's own environment has them
        request, budget = pickle.loads(payload)
        _limit(budget)
        reply = _answer(request)
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            data = pickle.dumps(("memory",))
        view = memoryview(data)
        while view:
            view = view[os.write(writer, view) :]
    finally:
        os._exit(0)


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux), and end now if it already has."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _limit(budget: Budget) -> None:
    """Start the budget: CPU time from now, address space on top of what the process holds now."""
    import math
    import resource

    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(usage.ru_utime + usage.ru_stime) + budget.cpu_seconds
    _set_limit(resource.RLIMIT_CPU, soft, soft + 2)
    _set_limit(resource.RLIMIT_AS, _address_space() + budget.memory_bytes, None)


def _set_limit(which: int, soft: int, hard: int | None) -> None:
    import resource

    with contextlib.suppress(ValueError, OSError):
        _, current_hard = resource.getrlimit(which)
        if current_hard != resource.RLIM_INFINITY:
            soft = min(soft, current_hard)
            hard = current_hard if hard is None else min(hard, current_hard)
        resource.setrlimit(which, (soft, resource.RLIM_INFINITY if hard is None else hard))


def _address_space() -> int:
    """The process's address space now (VmSize), in bytes."""
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _answer(request: IngestRequest) -> tuple[Any, ...]:
    from cgx_core.ingest.paper import ingest_paper

    try:
        return ("ok", ingest_paper(request))
    except CgxError as error:
        return ("refused", str(error.code), error.message)
    except MemoryError:
        return ("memory",)
    except RecursionError:
        return ("refused", str(Code.PAPER_INVALID), "the paper nests macros or groups too deeply to read")
    except Exception as error:  # a bug: reported with its kind, never a traceback in the caller's output
        return ("failed", f"{type(error).__name__}: {error}"[:300])


if __name__ == "__main__":
    _zygote()

"""Reading a paper within a budget: start_run's ingestion step in a child process with CPU-time and memory limits.

A hostile or broken paper can make reading cost without bound: a 2 MB `.bib` field (pylatexenc renders it in
superlinear time), macros whose expansion doubles at each level, 15 MB of LaTeX under the size caps. None of
that can be interrupted reliably inside the process (the MCP server runs calls in threads, which no signal
reaches), so the step runs in a fresh interpreter (`python -m cgx_core.ingest_worker`) that limits itself
once its libraries are imported:

- CPU time (`RLIMIT_CPU`): the kernel stops the process when it has used its budget, whatever the machine's
  load, so a busy machine refuses exactly the papers an idle one refuses;
- address space (`RLIMIT_AS`): an allocation past the budget fails with MemoryError, which the child reports;
- its parent's death (`PR_SET_PDEATHSIG`): a child whose parent was killed is killed too.

The parent waits with a wall-clock safety net (a multiple of the CPU budget) that only catches a child that
stopped using CPU. Requests and replies cross stdin and stdout as pickles of plain values
(`ingestion.IngestRequest`, `ingestion.Ingested`); a refusal comes back as its code and message.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import signal
import subprocess
import sys
from typing import Any

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingestion import Ingested, IngestRequest
from cgx_core.limits import INGEST_CPU_SECONDS, INGEST_MEMORY_BYTES, INGEST_WALL_FACTOR


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
    from cgx_core import limits

    return Budget(limits.INGEST_CPU_SECONDS, limits.INGEST_MEMORY_BYTES)


def ingest_bounded(request: IngestRequest, budget: Budget) -> Ingested:
    """Run `ingestion.ingest_paper(request)` in a child process within `budget`.

    Raises:
        CgxError: the child's own refusal (paper-invalid, outside-root, ...), `ingest-over-budget` when it
            ran out of CPU time or memory, `internal-error` when it failed otherwise.
    """
    command = [sys.executable, "-P", "-m", "cgx_core.ingest_worker", str(os.getpid())]
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, close_fds=True
    )
    wall = budget.cpu_seconds * INGEST_WALL_FACTOR + 60
    try:
        out, err = child.communicate(pickle.dumps((request, budget)), timeout=wall)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise CgxError(
            Code.INGEST_OVER_BUDGET,
            f"reading the paper did not end within {wall} s of wall time (its CPU budget is {budget.cpu_seconds} s): "
            "it waited on something that never came; check that every file of the paper is a regular file",
        ) from None
    except BaseException:
        child.kill()
        child.wait()
        raise
    return _outcome(child.returncode, out, err, budget)


def _outcome(status: int, out: bytes, err: bytes, budget: Budget) -> Ingested:
    if status in (-signal.SIGXCPU, -signal.SIGKILL):
        raise CgxError(
            Code.INGEST_OVER_BUDGET,
            f"reading the paper used its whole budget of {budget.cpu_seconds} s of CPU time and was stopped (the "
            "shared real papers take under 2 s). Look for what no paper needs: a huge .bib field, macros that "
            "expand into themselves many times over, megabytes of generated LaTeX; remove it and start again",
        )
    try:
        reply: tuple[Any, ...] = pickle.loads(out) if out else ("failed", _last_line(err))
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
        reply = ("failed", f"exit status {status}: {_last_line(err)}")
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


def _last_line(err: bytes) -> str:
    lines = err.decode("utf-8", "replace").strip().splitlines()
    return lines[-1][:300] if lines else "no message"


# -- the child ---------------------------------------------------------------------------------------------


def _die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux), and end now if it already has."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _warm_up() -> None:
    """Import what reading needs before the budget starts, so the budget counts reading, not importing."""
    import bibtexparser.entrypoint  # noqa: F401
    import credencegraph.core
    import credencegraph.ingest.latex  # noqa: F401
    import pylatexenc.latex2text
    import pylatexenc.latexwalker._defaultspecs  # noqa: F401

    import cgx_core.read_watch
    import cgx_core.rubrics
    import cgx_core.tools.start_run

    cgx_core.read_watch._install()


def _limit(budget: Budget) -> None:
    """Start the budget: CPU time from now, address space on top of what the process holds now."""
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
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in open("/proc/self/status", encoding="ascii"):  # noqa: SIM115 - read once, closed at exit
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _answer(request: IngestRequest) -> tuple[Any, ...]:
    from cgx_core.ingestion import ingest_paper

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


def main() -> None:
    """The child: read the request, limit itself, answer, exit."""
    _die_with_parent(int(sys.argv[1]))
    request, budget = pickle.load(sys.stdin.buffer)
    _warm_up()
    _limit(budget)
    reply = _answer(request)
    try:
        data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        data = pickle.dumps(("memory",))
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()

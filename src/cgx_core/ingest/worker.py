"""Reading a paper within a budget: start_run's ingestion step as a task of a budgeted worker.

A hostile or broken paper can make reading cost without bound: a 2 MB `.bib` field (pylatexenc renders it in
superlinear time), macros whose expansion doubles at each level, 15 MB of LaTeX under the size caps. None of
that can be interrupted reliably inside the process (the MCP server runs calls in threads, which no signal
reaches), so each reading is a task of `cgx_core.base.budget_worker`, the one way this package isolates work:
a child process with a CPU-time budget (a busy machine refuses exactly the papers an idle one refuses), an
address-space budget on top of the imported readers, and the death of the process that asked.

The worker forks a child per reading (`fork_per_task`), so every reading starts from the same state: the
readers imported (`before_fork` imports, outside any budget, every module a reading needs) and nothing a
reading before it left. A command line's start_run forks the child from its own process (`fork_here`: one
interpreter, one import of the readers). Requests and replies are pickles of plain values
(`paper.IngestRequest`, `paper.Ingested`); a refusal comes back as its code and message.
"""

from __future__ import annotations

from cgx_core.base.budget_worker import Budget, BudgetedWorker, Finished, OutOfBudget
from cgx_core.base.limits import INGEST_WALL_FACTOR
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingest.paper import Ingested, IngestRequest

__all__ = ["Budget", "default_budget", "ingest_bounded", "worker_pid"]


def _wall_seconds(cpu_seconds: float) -> float:
    """The reading's wall-clock safety net: it only catches a reading that stopped using CPU."""
    return cpu_seconds * INGEST_WALL_FACTOR + 60


_READER = BudgetedWorker("cgx_core.ingest.worker", name="paper reader", fork_per_task=True, stall=_wall_seconds)


def default_budget() -> Budget:
    """The budget start_run uses (read at call time, so a test can lower the module's constants)."""
    from cgx_core.base import limits

    return Budget(limits.INGEST_CPU_SECONDS, limits.INGEST_MEMORY_BYTES)


def ingest_bounded(request: IngestRequest, budget: Budget) -> Ingested:
    """Run `paper.ingest_paper(request)` in a child process within `budget`.

    Raises:
        CgxError: the reading's own refusal (paper-invalid, outside-root, ...), `ingest-over-budget` when it
            ran out of CPU time or memory or stopped using CPU, `internal-error` when it failed otherwise.
    """
    try:
        reply = _READER.run_within("read", request, budget)
    except CgxError as error:
        if error.code != Code.CHECK_STALLED:
            raise
        raise CgxError(
            Code.INGEST_OVER_BUDGET,
            f"reading the paper did not end within {_wall_seconds(budget.cpu_seconds):g} s of wall "
            f"time (its CPU budget is {budget.cpu_seconds:g} s): it waited on something that never came; check "
            "that every file of the paper is a regular file",
        ) from None
    if isinstance(reply, Finished):
        ingested: Ingested = reply.payload
        return ingested
    if isinstance(reply, OutOfBudget) and reply.reason == "memory":
        raise CgxError(
            Code.INGEST_OVER_BUDGET,
            f"reading the paper needed more than its budget of {budget.memory_bytes // 1024**2} MiB of memory. Look "
            "for what no paper needs: a huge .bib field, macros that expand into themselves many times over, "
            "megabytes of generated LaTeX; remove it and start again",
        )
    if isinstance(reply, OutOfBudget):
        raise CgxError(
            Code.INGEST_OVER_BUDGET,
            f"reading the paper used its whole budget of {budget.cpu_seconds:g} s of CPU time and was stopped (the "
            "shared real papers take under 2 s). Look for what no paper needs: a huge .bib field, macros that "
            "expand into themselves many times over, megabytes of generated LaTeX; remove it and start again",
        )
    raise CgxError(
        Code.INTERNAL_ERROR, f"reading the paper ended its process (exit status {reply.exitcode}); please report it"
    )


def worker_pid() -> int | None:
    """The pid of this process's paper reader, if one runs (for tests and diagnostics)."""
    return _READER.pid


# -- the task, in the reader's process ------------------------------------------------------------------------


def _read(request: IngestRequest) -> Ingested:
    from cgx_core.ingest.paper import ingest_paper

    try:
        return ingest_paper(request)
    except RecursionError:
        raise CgxError(Code.PAPER_INVALID, "the paper nests macros or groups too deeply to read") from None


TASKS = {"read": _read}


def before_fork(task: str, request: IngestRequest) -> None:
    """Import what reading `request` needs before the child is forked (see `_warm_up`)."""
    _warm_up(pdf=not request.paper.lower().endswith(".tex"))


_warmed = False


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

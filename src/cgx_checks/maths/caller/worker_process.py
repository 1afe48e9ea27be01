"""The maths worker: sympy's work in a `cgx_core.base.budget_worker` process, within a CPU-time and memory budget.

sympy cannot be interrupted reliably from outside: `simplify` ran for minutes on sympy issue 21787's
expression. So every task that builds or transforms sympy objects runs in the budgeted worker process
(see `cgx_core.base.budget_worker` for the CPU-time, memory and parent-death bounds), serving the tasks of
`cgx_checks.maths.worker.tasks`. Each task starts from sympy's empty cache (the task module's `before_task`), so
its cost does not depend on the tasks before it either, and a replay decides as the live call did.

The task's payload crosses the pipe pickled (the parent's own parsed step: the worker never parses, so
lark and the grammar are built once, in the parent); the result comes back as a JSON string. A worker
process that ends during a task without a CPU-time signal is taken to have run out of memory (the
kernel's memory killer), as sympy's tasks never exit on their own.
"""

from __future__ import annotations

import threading
from typing import Any, Final

from cgx_core.base.budget_worker import (
    DEFAULT_MEMORY_BYTES,
    BudgetedWorker,
    Died,
    Finished,
    OutOfBudget,
)

__all__ = ["DEFAULT_MEMORY_BYTES", "Finished", "MathsWorker", "OutOfBudget", "Reply", "shared_worker"]

TASKS_MODULE: Final = "cgx_checks.maths.worker.tasks"

type Reply = Finished | OutOfBudget


class MathsWorker(BudgetedWorker):
    """One maths worker process, started on first use (or begun early by `start_soon`), used by one task at
    a time (thread-safe)."""

    def __init__(self, *, memory_bytes: int = DEFAULT_MEMORY_BYTES) -> None:
        super().__init__(TASKS_MODULE, name="maths worker", memory_bytes=memory_bytes)
        self._starting: threading.Thread | None = None
        self._starting_lock = threading.Lock()

    def start_soon(self) -> None:
        """Begin starting the worker in the background and return at once.

        Its start is mostly sympy's import, about as long as the caller's own start-up; begun when a call
        names a maths step, before the run is opened, the two overlap instead of following each other. A
        start that fails here is left for the first task, whose own start reports it; a worker already
        running or starting is left alone."""
        with self._starting_lock:
            if self.pid is not None or (self._starting is not None and self._starting.is_alive()):
                return
            self._starting = threading.Thread(target=self._start_quietly, name="cgx-maths-worker-start", daemon=True)
            self._starting.start()

    def _start_quietly(self) -> None:
        try:
            self.start()
        except Exception:  # a thread's exception would print a traceback: the task's own start says why instead
            return

    def run(self, task: str, payload: Any, budget: float, answer: Any = None) -> Reply:
        """Run a task (a name of `worker.tasks.TASKS`) on a payload, within `budget` seconds of CPU time.

        A cancel of the running call kills the worker at once (`stopping`) rather than waiting for the
        task's budget: the call then stops here with `Cancelled`, so it releases the run's lock before the
        front end answers the cancel, instead of up to a budget later."""
        from cgx_core.plugin_api import checkpoint, stopping

        checkpoint()  # cancelled before the task began: no worker is started for it
        with stopping(self.kill):
            self._join_start()  # a cancel kills a worker begun by start_soon as it kills a task
            checkpoint()
            reply = super().run(task, payload, budget, answer)
        checkpoint()  # a cancelled call killed the worker: that is the cancel, not the task running out of memory
        return OutOfBudget("memory") if isinstance(reply, Died) else reply

    def _join_start(self) -> None:
        """Wait for a start begun by `start_soon`, so that the task never starts a second worker."""
        with self._starting_lock:
            starting, self._starting = self._starting, None
        if starting is not None:
            starting.join()


_shared: MathsWorker | None = None
_shared_lock = threading.Lock()


def shared_worker() -> MathsWorker:
    """The process-wide worker the check plugins share (started on first use)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = MathsWorker()
        return _shared

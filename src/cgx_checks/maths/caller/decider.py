"""The caller's side of rederive-maths: steps sent to the maths worker, outcomes read back.

Nothing here imports sympy or mpmath: the caller (the CLI, the MCP server, verify) parses a proposal with
lark and sends the parsed step to the worker process (`worker_process`), which alone imports sympy, decides
the step (`worker.decide`), computes its observation key (`worker.observation`) or its numeric comparison
(`worker.comparison`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from typing import Self

from cgx_checks.maths.caller.numeric import NumericOutcome, numeric_check
from cgx_checks.maths.caller.worker_process import DEFAULT_MEMORY_BYTES, Finished, MathsWorker, shared_worker
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.limits import DECIDE_BUDGET
from cgx_checks.maths.outcome import MathsOutcome, error_outcome
from cgx_checks.maths.read.step import parse_step
from cgx_core.codes import Code
from cgx_core.errors import CgxError


class SymbolicDecider:
    """Decides maths steps in a worker process it owns (or shares), each within a CPU-time budget.

    Use as a context manager, or call `close()`, to stop the worker; a decider that is dropped stops its
    worker too. `decide` raises CgxError (the refusal codes of `parse_step`) for an encoding that cannot
    be run, and otherwise always returns an outcome.
    """

    def __init__(
        self,
        *,
        budget: float = DECIDE_BUDGET,
        memory_bytes: int = DEFAULT_MEMORY_BYTES,
        worker: MathsWorker | None = None,
    ) -> None:
        """A decider with its own worker (limited to `memory_bytes`), or sharing `worker`, which it then
        leaves running on `close`."""
        self.budget = budget
        self._owns_worker = worker is None
        self.worker = worker if worker is not None else MathsWorker(memory_bytes=memory_bytes)

    def decide(self, encoding: object, *, budget: float | None = None) -> MathsOutcome:
        """rederive-maths on one encoding (raw JSON, `Encoding` or a parsed step)."""
        step = parse_step(encoding)
        spent = self.budget if budget is None else budget
        reply = self.worker.run("decide", step, spent)
        if isinstance(reply, Finished):
            return MathsOutcome.from_json(json.loads(reply.payload))
        if reply.reason == "time":
            detail = f"symbolic work ran out of its {spent:g} s CPU-time budget"
        else:
            detail = f"symbolic work ran out of its {self.worker.memory_bytes // 2**20} MiB memory budget"
        return error_outcome(MathsCode.SYMBOLIC_TIMEOUT, detail)

    def observation_key(self, encoding: object, equations: Iterable[str] = (), *, budget: float | None = None) -> str:
        """The step's observation key (see `worker.observation`), computed in the worker."""
        step = parse_step(encoding)
        spent = self.budget if budget is None else budget
        reply = self.worker.run("key", (step, tuple(equations)), spent)
        if not isinstance(reply, Finished):
            raise CgxError(
                Code.EXPRESSION_TOO_LARGE,
                f"expanding the step for its observation key ran out of its {spent:g} s CPU-time budget",
            )
        return str(reply.payload)

    def numeric_check(self, encoding: object, *, budget: float | None = None) -> NumericOutcome:
        """rederive-maths-numeric on one encoding, in this decider's worker."""
        return numeric_check(encoding, worker=self.worker, budget=self.budget if budget is None else budget)

    def close(self) -> None:
        """Stop the worker (when this decider owns it)."""
        if self._owns_worker:
            self.worker.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


_shared: SymbolicDecider | None = None
_shared_lock = threading.Lock()


def shared_decider() -> SymbolicDecider:
    """The process-wide decider the check plugins share (its worker is `worker.shared_worker()`)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = SymbolicDecider(worker=shared_worker())
        return _shared

"""rederive-maths-numeric from the caller's process: the seed and the points drawn, the step and its
points sent to the maths worker (task "numeric"), its comparison read back as the check's outcome.

The rules (seed, points, tolerances) are `numeric_rules`; the comparison itself runs in the worker
(`worker.comparison`). Nothing here imports sympy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from cgx_checks.maths.caller.worker_process import Finished, MathsWorker, shared_worker
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.limits import NUMERIC_BUDGET
from cgx_checks.maths.numeric_rules import POINTS, RELATIVE_TOLERANCE, ZERO_FLOOR, Result, numeric_seed
from cgx_checks.maths.read.points import ValueJson, draw_points
from cgx_checks.maths.read.step import parse_step


@attrs.frozen
class NumericOutcome:
    """What rederive-maths-numeric found; `to_json` is the check's result, detail, seed and points."""

    result: Result
    detail: str
    seed: int
    points: tuple[Mapping[str, ValueJson], ...]
    code: str | None = None
    """numeric-undefined, or symbolic-timeout when the evaluation ran out of its budget; else None."""
    compared: int = 0
    """Points where both sides were defined and compared."""
    undefined: int = 0
    """Points skipped because a side was undefined there."""
    failed_at: int | None = None
    """The index (in `points`) of the first point where the sides disagree."""
    lhs: str | None = None
    rhs: str | None = None
    """The two sides' values at that point, to `numeric_rules.SHOWN_DIGITS` digits."""
    functions: Mapping[str, str] | None = None
    """The test function put in place of each declared function, as text."""
    certificate: Mapping[str, Any] | None = None
    """For a failed step: both sides evaluated apart at the failing point with their error bounds."""

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON, always with the same keys (in sorted order), with the tolerances it used."""
        found = {**attrs.asdict(self), "relative_tolerance": RELATIVE_TOLERANCE, "zero_floor": ZERO_FLOOR}
        return dict(sorted(found.items()))


def numeric_points(raw: object) -> tuple[int, list[dict[str, ValueJson]]]:
    """The seed and the points a step is compared at (what `verify` draws again)."""
    encoding = parse_step(raw).encoding
    seed = numeric_seed(encoding)
    return seed, draw_points(encoding, seed, POINTS)


def numeric_check(raw: object, *, worker: MathsWorker | None = None, budget: float = NUMERIC_BUDGET) -> NumericOutcome:
    """rederive-maths-numeric on one encoding, evaluated in the worker (the shared one by default),
    within `budget` seconds of CPU time.

    Raises CgxError for an encoding `read.step.parse_step` refuses.
    """
    step = parse_step(raw)
    seed, points = numeric_points(step)
    reply = (worker if worker is not None else shared_worker()).run("numeric", (step, points), budget)
    if not isinstance(reply, Finished):
        what = f"{budget:g} s CPU-time" if reply.reason == "time" else "memory"
        return NumericOutcome(
            "error",
            f"evaluating the points ran out of its {what} budget",
            seed,
            tuple(points),
            code=str(MathsCode.SYMBOLIC_TIMEOUT),
        )
    return NumericOutcome(seed=seed, points=tuple(points), **json.loads(reply.payload))

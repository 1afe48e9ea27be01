"""What rederive-maths decided about one step: the record both processes share (no sympy here).

The worker decides (`worker.decide`) and returns the outcome as JSON; the caller reads it back
(`caller.decider`). It sits below both wings, which never import each other, above `read`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self

import attrs

from cgx_checks.maths.read.points import ValueJson

type Result = Literal["passed", "failed", "error"]


@attrs.frozen
class MathsOutcome:
    """What rederive-maths decided about one step; `to_json` is the check's result and detail."""

    result: Result
    detail: str
    """One line for a person."""
    method: str | None = None
    """How it was decided: identical, doit, expand, cancel, rewrite-exp, normalise, special, simplify,
    sets, rounding (passed); constant, witness, rounding (failed); None for an error."""
    code: str | None = None
    """The check-error code of an error (symbolic-undecided, symbolic-timeout), else None."""
    witness: Mapping[str, ValueJson] | None = None
    """The exact point where a failed step's two sides differ."""
    difference: str | None = None
    """lhs - rhs there (or the constant it reduces to), to `SHOWN_DIGITS` digits."""
    approximate: Mapping[str, str] | None = None
    """For a step read to a reported number's rounding: the number as reported, the tolerance (half a unit
    of its last digit) and the value of the other side."""
    certificate: Mapping[str, Any] | None = None
    """For a failed step: each side evaluated apart at the witness, its value and error bound, and the
    precision (see `worker.certify`): what makes the failure a proof, re-derived by verify."""

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON, always with the same keys (in sorted order)."""
        return dict(sorted(attrs.asdict(self).items()))

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Self:
        """An outcome back from `to_json`'s JSON."""
        return cls(**raw)


def error_outcome(code: str, detail: str) -> MathsOutcome:
    """An error outcome with its check-error code."""
    return MathsOutcome("error", detail, code=str(code))

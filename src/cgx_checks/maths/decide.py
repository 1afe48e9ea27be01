"""rederive-maths: decide a maths step with sympy, in the worker process, within a budget.

The step passes when sympy reduces lhs - rhs to 0. It fails only on a proof that lhs - rhs is not
identically 0 over the symbols' domains: either it reduces to a nonzero constant, or at an exact point of
the domains (a witness, recorded) it evaluates to a number sympy certifies nonzero, exactly or with
`evalf(strict=True)`, which raises rather than return digits it cannot vouch for. Anything else is an
error: `symbolic-undecided`, or `symbolic-timeout` when the budget ran out first; the numeric fallback
(rederive-maths-numeric) then takes the step.

The order puts the cheap work first: expand, cancel, the witnesses (a false step is usually shown false
here, before any costly rewriting), rewriting trigonometric and hyperbolic functions as exponentials, and
last `simplify`, the one step that can run for minutes. A step whose expansion the structural estimates
say is large, such as `(x+y+z+1)^1000` or `re((x+I)^1000)`, tries its witnesses first, on the sides as
written, before sympy builds (and so expands) anything.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, Self

import attrs
import sympy

from cgx_checks.maths.build import BuiltStep, at_point, build_step, undefined
from cgx_checks.maths.limits import DECIDE_BUDGET
from cgx_checks.maths.numeric import NumericOutcome, numeric_check
from cgx_checks.maths.points import ValueJson, point_json, witness_points
from cgx_checks.maths.structure import ParsedStep, expandable, parse_step
from cgx_checks.maths.worker import DEFAULT_MEMORY_BYTES, Finished, MathsWorker, shared_worker
from cgx_core.codes import Code

type Result = Literal["passed", "failed", "error"]

DEFAULT_BUDGET: Final = DECIDE_BUDGET
"""Seconds of wall-clock time one step may take in the worker (building, reducing, witnesses)."""

WITNESS_DIGITS: Final = 30
"""Significant digits `evalf(strict=True)` must certify to call a value at a witness nonzero."""

SHOWN_DIGITS: Final = 15
"""Significant digits of a nonzero difference in the record."""

_SHOWN_CHARS: Final = 200


@attrs.frozen
class MathsOutcome:
    """What rederive-maths decided about one step; `to_json` is the check's result and detail."""

    result: Result
    detail: str
    """One line for a person."""
    method: str | None = None
    """How it was decided: identical, expand, cancel, rewrite-exp, simplify (passed); constant, witness
    (failed); None for an error."""
    code: str | None = None
    """The check-error code of an error (symbolic-undecided, symbolic-timeout), else None."""
    witness: Mapping[str, ValueJson] | None = None
    """The exact point where a failed step's two sides differ."""
    difference: str | None = None
    """lhs - rhs there (or the constant it reduces to), to `SHOWN_DIGITS` digits."""

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON, always with the same keys."""
        return {
            "code": self.code,
            "detail": self.detail,
            "difference": self.difference,
            "method": self.method,
            "result": self.result,
            "witness": None if self.witness is None else dict(self.witness),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Self:
        """An outcome back from `to_json`'s JSON."""
        return cls(
            result=raw["result"],
            detail=raw["detail"],
            method=raw["method"],
            code=raw["code"],
            witness=raw["witness"],
            difference=raw["difference"],
        )


def symbolic_decision(payload: str) -> str:
    """The worker's `decide` task: an encoding's JSON in, the outcome's JSON out."""
    return json.dumps(decide_step(parse_step(json.loads(payload))).to_json(), sort_keys=True)


def decide_step(step: ParsedStep) -> MathsOutcome:
    """Decide a parsed step in this process, with no budget: the worker runs this, and so can tests."""
    small = expandable(step)
    if not small:
        # Built as written, so that sympy's evaluation (which expands re((x+I)**1000) as it builds)
        # happens with numbers in place of the symbols.
        written = build_step(step, evaluate=False)
        with sympy.evaluate(False):
            written_difference = sympy.Add(written.lhs, sympy.Mul(sympy.S.NegativeOne, written.rhs))
        if (failure := _witness_failure(step, written, written_difference)) is not None:
            return failure
    try:
        built = build_step(step)
    except MemoryError:
        raise
    except Exception as error:  # sympy failed while evaluating what it built
        return _error(Code.SYMBOLIC_UNDECIDED, f"sympy could not build the step: {type(error).__name__}")
    for side, expression in (("lhs", built.lhs), ("rhs", built.rhs)):
        if undefined(expression):
            return _error(
                Code.SYMBOLIC_UNDECIDED,
                f"{side} is undefined as written: sympy evaluates it to {_short(expression)} "
                "(a division by zero or a function at a pole)",
            )
    difference = sympy.Add(built.lhs, sympy.Mul(sympy.S.NegativeOne, built.rhs))
    if difference == 0:
        return _passed("identical")
    reduced = difference
    for method, transform in (("expand", sympy.expand), ("cancel", sympy.cancel)):
        attempt = _attempt(transform, reduced)
        if attempt is None:
            continue
        reduced = attempt
        if reduced == 0:
            return _passed(method)
        if (failure := _constant_failure(reduced)) is not None:
            return failure
    if small and (failure := _witness_failure(step, built, difference)) is not None:
        return failure
    rewritten = _attempt(lambda value: sympy.cancel(sympy.expand(value.rewrite(sympy.exp))), difference)
    if rewritten is not None:
        if rewritten == 0:
            return _passed("rewrite-exp")
        if (failure := _constant_failure(rewritten)) is not None:
            return failure
    simplified = _attempt(sympy.simplify, difference)
    if simplified is not None:
        if simplified == 0:
            return _passed("simplify")
        if (failure := _constant_failure(simplified)) is not None:
            return failure
        reduced = simplified
    return _error(
        Code.SYMBOLIC_UNDECIDED,
        f"sympy reduced lhs - rhs to {_short(reduced)} but could not show that it is 0, "
        "nor that it is nonzero at the witness points",
    )


def certified_nonzero(value: sympy.Expr) -> str | None:
    """The value as text when it is a number sympy certifies nonzero, else None (zero, or unknown)."""
    if value.free_symbols or undefined(value):
        return None
    if value.is_Rational:
        return None if value == 0 else _number_text(value)
    try:
        number = value.evalf(WITNESS_DIGITS, strict=True)
    except MemoryError:
        raise
    except Exception:  # PrecisionExhausted: evalf cannot tell it from 0; or evalf cannot evaluate it
        return None
    real, imaginary = number.as_real_imag()
    if not (real.is_Number and imaginary.is_Number) or (real == 0 and imaginary == 0):
        return None
    return _number_text(number)


def _number_text(value: sympy.Expr) -> str:
    if value.is_Rational and len(str(value)) <= 40:
        return str(value)
    return str(sympy.N(value, SHOWN_DIGITS))


def _constant_failure(value: sympy.Expr) -> MathsOutcome | None:
    if value.free_symbols:
        return None
    text = certified_nonzero(value)
    if text is None:
        return None
    return MathsOutcome(
        "failed",
        f"lhs - rhs reduces to the constant {text}, which is not 0",
        method="constant",
        difference=text,
    )


def _witness_failure(step: ParsedStep, built: BuiltStep, difference: sympy.Expr) -> MathsOutcome | None:
    for point in witness_points(step.encoding):
        substitution = {
            built.symbols[name]: sympy.Rational(real.numerator, real.denominator)
            + sympy.I * sympy.Rational(imaginary.numerator, imaginary.denominator)
            for name, (real, imaginary) in point.items()
        }
        value = _attempt(functools.partial(at_point, substitution=substitution), difference)
        if value is None:
            continue
        text = certified_nonzero(value)
        if text is None:
            continue
        recorded = point_json(point, step.encoding)
        where = ", ".join(f"{name} = {_value_text(recorded[name])}" for name in sorted(step.symbols))
        return MathsOutcome(
            "failed",
            f"at {where or 'every point'} (in the symbols' domains) lhs - rhs = {text}, which is not 0",
            method="witness",
            witness=recorded,
            difference=text,
        )
    return None


def _value_text(value: ValueJson) -> str:
    return value if isinstance(value, str) else f"{value['re']} + ({value['im']})*I"


def _attempt(transform: Callable[[sympy.Expr], sympy.Expr], value: sympy.Expr) -> sympy.Expr | None:
    """A transform's result, or None when sympy raised (a sympy failure leaves the step undecided)."""
    try:
        return transform(value)
    except MemoryError:
        raise
    except Exception:
        return None


def _short(value: sympy.Expr) -> str:
    text = str(sympy.sstr(value))
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def _passed(method: str) -> MathsOutcome:
    return MathsOutcome("passed", f"sympy reduces lhs - rhs to 0 ({method})", method=method)


def _error(code: Code, detail: str) -> MathsOutcome:
    return MathsOutcome("error", detail, code=str(code))


class SymbolicDecider:
    """Decides maths steps in a worker process it owns (or shares), each within a wall-clock budget.

    Use as a context manager, or call `close()`, to stop the worker; a decider that is dropped stops its
    worker too. `decide` raises CgxError (the refusal codes of `parse_step`) for an encoding that cannot
    be run, and otherwise always returns an outcome.
    """

    def __init__(
        self,
        *,
        budget: float = DEFAULT_BUDGET,
        memory_bytes: int = DEFAULT_MEMORY_BYTES,
        worker: MathsWorker | None = None,
    ) -> None:
        """A decider with its own worker (limited to `memory_bytes`), or sharing `worker`, which it then
        leaves running on `close`."""
        self.budget = budget
        self._owns_worker = worker is None
        self.worker = worker if worker is not None else MathsWorker(memory_bytes=memory_bytes)

    def decide(self, encoding: object) -> MathsOutcome:
        """rederive-maths on one encoding (raw JSON or `Encoding`)."""
        step = parse_step(encoding)
        payload = json.dumps(step.encoding.to_json(), sort_keys=True)
        reply = self.worker.run("decide", payload, self.budget)
        if isinstance(reply, Finished):
            return MathsOutcome.from_json(json.loads(reply.payload))
        if reply.reason == "time":
            detail = f"symbolic work ran out of its {self.budget:g} s budget"
        else:
            detail = f"symbolic work ran out of its {self.worker.memory_bytes // 2**20} MiB memory budget"
        return _error(Code.SYMBOLIC_TIMEOUT, detail)

    def numeric_check(self, encoding: object) -> NumericOutcome:
        """rederive-maths-numeric on one encoding, in this decider's worker."""
        return numeric_check(encoding, worker=self.worker, budget=self.budget)

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

"""rederive-maths-numeric: compare the two sides of a maths step at 32 points drawn in the symbols' domains.

It runs only when rederive-maths ends in error, and decides the steps sympy cannot reduce, or cannot
reduce within its budget. The points come from `random.Random(seed)`, the seed being the first 52 bits of
the digest of the encoding's canonical JSON, and are recorded with the check as exact decimals (see
`points` for the distribution in each domain), so a re-run draws the same points and substitutes the same
exact numbers.

The sides are built as written (sympy's evaluation off, so nothing is expanded before numbers are in
it); at each point the point's exact values are substituted, which evaluates them exactly where sympy
can, then each side is evaluated with `evalf` to 50 significant digits. Integrals, sums and products are
evaluated numerically there (mpmath's quadrature and series summation, through sympy's `evalf`), limits
with mpmath's `limit` (both sides of a two-sided limit, which must agree), derivatives exactly. A function
the encoding declares (undefined, so no number can be put in it) is replaced by a test function drawn
from the same seed and recorded, `Q(t) = c0 + c1*t + c2*t^2 + c3/(1 + t^2)`: an identity that holds for
every function holds for it, and one that does not usually fails there.

With l and r the two values and T the largest absolute value of a top-level term of either side there,
the sides agree when

    |l - r| <= 1e-12 * max(|l|, |r|)    or    |l - r| <= 1e-30 * T.

The first is the relative tolerance; the second lets two values that are 0 up to evaluation noise agree
(sin(x)^2 + cos(x)^2 - 1 evaluates to about 1e-165, not 0): 50-digit evaluation leaves noise near
1e-50 * T, far below 1e-30 * T, while a real difference that small against the terms is beyond what 32
random points can tell anyway. A step against a number the paper reports (see `rounding`) agrees within
half a unit of the number's last digit instead. Two conditions agree at a point when both hold or both
fail there; a point on a boundary (a comparison whose sides agree to the relative tolerance) tells
nothing and is skipped. A point where a side is undefined (zoo, nan, a pole, a divergent integral) or not
a number is skipped; more than 8 such points make the check an error, `numeric-undefined`. The check
passes when every other point agrees and fails at the first that does not, recording its index and both
values.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Literal

import attrs

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.encoding import Encoding
from cgx_checks.maths.limits import NUMERIC_BUDGET
from cgx_checks.maths.points import ValueJson, draw_points, value_from_json
from cgx_checks.maths.structure import parse_step
from cgx_checks.maths.worker import Finished, MathsWorker, shared_worker
from cgx_core.base.digests import hex_of, json_digest

type Result = Literal["passed", "failed", "error"]

POINTS: Final = 32
"""Points drawn per step."""

RELATIVE_TOLERANCE: Final = "1e-12"
ZERO_FLOOR: Final = "1e-30"
"""The tolerances (see the module's docstring), as the decimal strings recorded with the check."""

EVALUATION_DIGITS: Final = 50
"""Significant digits each side is evaluated to."""

SHOWN_DIGITS: Final = 20
"""Significant digits of a value in the record."""

MAX_UNDEFINED: Final = 8
"""Points (of every `POINTS` distinct ones) where a side may be undefined before the check is an error; a
check that compared no point at all is an error too."""


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
    """The two sides' values at that point, to `SHOWN_DIGITS` digits."""
    functions: Mapping[str, str] | None = None
    """The test function put in place of each declared function, as text."""
    certificate: Mapping[str, Any] | None = None
    """For a failed step: both sides evaluated apart at the failing point with their error bounds."""

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON, always with the same keys."""
        return {
            "certificate": None if self.certificate is None else dict(self.certificate),
            "code": self.code,
            "compared": self.compared,
            "detail": self.detail,
            "failed_at": self.failed_at,
            "functions": None if self.functions is None else dict(self.functions),
            "lhs": self.lhs,
            "points": [dict(point) for point in self.points],
            "relative_tolerance": RELATIVE_TOLERANCE,
            "result": self.result,
            "rhs": self.rhs,
            "seed": self.seed,
            "undefined": self.undefined,
            "zero_floor": ZERO_FLOOR,
        }


def numeric_seed(encoding: Encoding) -> int:
    """The seed of a step's points: the first 52 bits of its encoding's canonical JSON digest.

    52 bits keep the seed exact in any JSON reader (doubles hold integers up to 2^53).
    """
    return int(hex_of(json_digest(encoding.to_json()))[:13], 16)


def numeric_points(raw: object) -> tuple[int, list[dict[str, ValueJson]]]:
    """The seed and the points a step is compared at (what `verify` draws again)."""
    encoding = parse_step(raw).encoding
    seed = numeric_seed(encoding)
    return seed, draw_points(encoding, seed, POINTS)


def numeric_check(raw: object, *, worker: MathsWorker | None = None, budget: float = NUMERIC_BUDGET) -> NumericOutcome:
    """rederive-maths-numeric on one encoding, evaluated in the worker (the shared one by default),
    within `budget` seconds of CPU time.

    Raises CgxError for an encoding `structure.parse_step` refuses.
    """
    step = parse_step(raw)
    seed = numeric_seed(step.encoding)
    points = draw_points(step.encoding, seed, POINTS)
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
    found = json.loads(reply.payload)
    return NumericOutcome(
        result=found["result"],
        detail=found["detail"],
        seed=seed,
        points=tuple(points),
        code=found["code"],
        compared=found["compared"],
        undefined=found["undefined"],
        failed_at=found["failed_at"],
        lhs=found["lhs"],
        rhs=found["rhs"],
        functions=found.get("functions"),
        certificate=found.get("certificate"),
    )


def evaluate_points(payload: object) -> str:
    """The worker's `numeric` task: the parsed step and its points in, the comparison's JSON out."""
    assert isinstance(payload, tuple)
    step, points = payload
    return json.dumps(compare_at(step, points), sort_keys=True)


def compare_at(raw: object, points: Sequence[Mapping[str, ValueJson]]) -> dict[str, Any]:
    """Compare the two sides at recorded points, in this process (the worker runs this; so can tests)."""
    from cgx_checks.maths.numeric_values import Evaluator

    step = parse_step(raw)
    evaluator = Evaluator.of(step, numeric_seed(step.encoding))
    if (distribution := evaluator.distribution()) is not None:
        return _found(
            "error",
            f"a side holds {distribution}, a distribution: it is 0 at almost every point a draw can reach, so "
            "agreeing there is no evidence; only a symbolic rule decides it",
            str(MathsCode.NUMERIC_DISTRIBUTION),
            0,
            0,
            evaluator.functions,
        )
    compared = skipped = 0
    seen: set[str] = set()
    for index, point in enumerate(points):
        values = {name: value_from_json(raw_value) for name, raw_value in point.items() if name in evaluator.names}
        if (recorded := json.dumps(values, sort_keys=True, default=str)) in seen:
            continue  # the same values as an earlier point (a step with no free symbol has one point)
        seen.add(recorded)
        agreement = evaluator.compare(values)
        if agreement is None:
            skipped += 1
            continue
        if agreement.agree:
            compared += 1
            continue
        found = None if step.condition else evaluator.certificate(values)
        if found is None and not step.condition:
            skipped += 1  # they seem to differ, but no bound shows it: the point tells nothing
            continue
        compared += 1
        return _found(
            "failed",
            f"the sides differ at point {index}: lhs = {agreement.lhs}, rhs = {agreement.rhs}"
            + (
                ""
                if found is None
                else f", each evaluated apart to {found.to_json()['digits']} digits with an error bound "
                f"(lhs +- {found.lhs.to_json()['bound']}, rhs +- {found.rhs.to_json()['bound']})"
            ),
            None,
            compared,
            skipped,
            evaluator.functions,
            index,
            agreement.lhs,
            agreement.rhs,
            None if found is None else found.to_json(),
        )
    distinct = len(seen)
    if compared == 0 or skipped * POINTS > MAX_UNDEFINED * distinct:
        return _found(
            "error",
            f"at {skipped} of {distinct} distinct points a side is undefined, a condition is on its boundary, or "
            f"the sides seem to differ but no error bound shows it; at most {MAX_UNDEFINED} in {POINTS} may be, "
            "and one point at least must be compared",
            str(MathsCode.NUMERIC_UNDEFINED),
            compared,
            skipped,
            evaluator.functions,
        )
    agreement_text = (
        f"the two conditions agree at {compared} points"
        if step.condition
        else f"the sides agree at {compared} point{'' if compared == 1 else 's'} to a relative tolerance of "
        f"{RELATIVE_TOLERANCE}"
    )
    return _found(
        "passed",
        agreement_text
        + (f" ({skipped} skipped: a side is undefined there)" if skipped else "")
        + (" with a test function for each declared function" if evaluator.functions else ""),
        None,
        compared,
        skipped,
        evaluator.functions,
    )


def _found(
    result: Result,
    detail: str,
    code: str | None,
    compared: int,
    skipped: int,
    functions: Mapping[str, str] | None,
    failed_at: int | None = None,
    lhs: str | None = None,
    rhs: str | None = None,
    certificate: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "certificate": None if certificate is None else dict(certificate),
        "code": code,
        "compared": compared,
        "detail": detail,
        "failed_at": failed_at,
        "functions": dict(functions) if functions else None,
        "lhs": lhs,
        "result": result,
        "rhs": rhs,
        "undefined": skipped,
    }


def function_coefficients(seed: int, name: str, arity: int) -> tuple[Fraction, ...]:
    """The coefficients of the test function of a declared function: c0, c1, c2, c3, each k/8 with k a
    nonzero integer in -16..16, drawn from the step's seed and the function's name and arity."""
    generator = random.Random(f"{seed}:{name}:{arity}")
    return tuple(Fraction(generator.choice([k for k in range(-16, 17) if k]), 8) for _ in range(4))

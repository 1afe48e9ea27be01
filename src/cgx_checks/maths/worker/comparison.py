"""rederive-maths-numeric in the worker: the two sides compared at the points the caller drew (task
"numeric"), by the rules of `numeric_rules`; each side's value at a point is `numeric_values`'.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.numeric_rules import MAX_UNDEFINED, POINTS, RELATIVE_TOLERANCE, Result, numeric_seed
from cgx_checks.maths.read.points import ValueJson, value_from_json
from cgx_checks.maths.read.precision import freed
from cgx_checks.maths.read.step import parse_step
from cgx_checks.maths.worker.numeric_values import Evaluator


def evaluate_points(payload: object) -> str:
    """The worker's `numeric` task: the parsed step and its points in, the comparison's JSON out."""
    assert isinstance(payload, tuple)
    step, points = payload
    return json.dumps(compare_at(step, points), sort_keys=True)


def compare_at(raw: object, points: Sequence[Mapping[str, ValueJson]]) -> dict[str, Any]:
    """Compare the two sides at recorded points, in this process (the worker runs this; so can tests)."""
    step = parse_step(raw)
    if step.condition:
        return _found(
            "error",
            "two conditions are decided symbolically or not at all: at sampled points an equality or a strict "
            "comparison is false on both sides almost everywhere, so agreeing there is no evidence, and a "
            "disagreement at a sampled point is no exact proof; encode each relation as an equation between values, "
            "or give the condition's solved form",
            str(MathsCode.NUMERIC_CONDITION),
        )
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
    values_seen: set[tuple[str, str]] = set()
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
            values_seen.add((agreement.lhs, agreement.rhs))
            continue
        found = evaluator.certificate(values)
        if found is None:
            skipped += 1  # they seem to differ, but no bound shows it: the point tells nothing
            continue
        compared += 1
        if step.reported is None and (constants := freed(step)[1]):
            listed = ", ".join(item.text for item in constants)
            return _found(
                "error",
                f"the sides differ at point {index} with the printed constants ({listed}) as written, but each "
                "stands for an interval (half a unit of its last digit either side), and sampled points cannot "
                "tell whether a value within it makes the step hold",
                str(MathsCode.NUMERIC_PRECISION),
                compared,
                skipped,
                evaluator.functions,
            )
        return _found(
            "failed",
            f"the sides differ at point {index}: lhs = {agreement.lhs}, rhs = {agreement.rhs}, each evaluated "
            f"apart to {found.to_json()['digits']} digits with an error bound (lhs +- {found.lhs.to_json()['bound']}, "
            f"rhs +- {found.rhs.to_json()['bound']})",
            None,
            compared,
            skipped,
            evaluator.functions,
            index,
            agreement.lhs,
            agreement.rhs,
            found.to_json(),
        )
    distinct = len(seen)
    if compared == 0 or skipped * POINTS > MAX_UNDEFINED * distinct:
        return _found(
            "error",
            f"no comparison could be made at {skipped} of {distinct} distinct points: a side had no value there "
            "with the 19 digits a comparison needs (sympy could not evaluate it, or mpmath's quadrature, "
            "summation or limit did not converge that far), or the sides seemed to differ with no error bound to "
            f"show it; at most {MAX_UNDEFINED} in {POINTS} may be, and one point at least must be compared",
            str(MathsCode.NUMERIC_UNDEFINED),
            compared,
            skipped,
            evaluator.functions,
        )
    if compared > 1 and len(values_seen) == 1 and (piecewise := evaluator.piecewise_constant()) is not None:
        (value, _), *_ = values_seen
        return _found(
            "error",
            f"both sides took the one value {value} at every one of the {compared} points compared, and a side "
            f"holds {piecewise}, constant on pieces: two such sides agree at sampled points whether or not the step "
            "holds, so that is no evidence; only a symbolic decision settles it",
            str(MathsCode.NUMERIC_DEGENERATE),
            compared,
            skipped,
            evaluator.functions,
        )
    return _found(
        "passed",
        f"the sides agree at {compared} point{'' if compared == 1 else 's'} to a relative tolerance of "
        f"{RELATIVE_TOLERANCE}"
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
    compared: int = 0,
    skipped: int = 0,
    functions: Mapping[str, str] | None = None,
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

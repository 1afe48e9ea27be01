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

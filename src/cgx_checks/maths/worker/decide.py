"""rederive-maths: decide a maths step with sympy, in the worker process (see `caller.decider` for the caller's side).

The step passes when sympy reduces lhs - rhs to 0. It fails only on a proof that lhs - rhs is not
identically 0 over the symbols' domains: either it reduces to a nonzero constant, or at an exact point of
the domains (a witness, recorded) it evaluates exactly to a number sympy certifies nonzero (with
`evalf(strict=True)`, which raises rather than return digits it cannot vouch for). A value that still
holds an unevaluated integral, sum, limit or derivative, or a declared (undefined) function, is no proof.
Anything else is an error: `symbolic-undecided`, or `symbolic-timeout` when the budget ran out first;
the numeric fallback (rederive-maths-numeric) then takes the step.

The order puts the cheap work first: `doit` (integrals, derivatives, limits, sums and products computed
where sympy can), expand, cancel, the witnesses (a false step is usually shown false here, before any
costly rewriting), rewriting trigonometric and hyperbolic functions as exponentials, normalising sums and
integrals (bound variables renamed canonically, sums shifted to start at 0), special functions (gamma,
the exponential integral) rewritten, and last `simplify`, the one step that can run for minutes. A step
whose expansion the structural estimates say is large, such as `(x+y+z+1)^1000` or `re((x+I)^1000)`,
tries its witnesses first, on the sides as written, before sympy builds (and so expands) anything.

Two kinds of step are decided apart (`rounding`, `conditions`; `decision` holds what all three share):

* **Approximate**: a side that is a number the paper reports (`2.4e-5`, or any number across
  `\\approx`) against a side that evaluates to a number. It passes when the value rounds to the reported
  digits (within half a unit of the last one), recorded as `method: rounding` with the reported number,
  the tolerance and the value; an exact equality passes exactly.
* **Conditions**: two conditions (inequalities joined by And, Or, Not) pass when they hold for the same
  values: sympy compares the sets they describe for one real symbol; otherwise a grid of exact points in
  the domains looks for a point where one holds and the other does not (a witness: the step fails).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, Final

import sympy
from sympy.core.function import AppliedUndef

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.outcome import MathsOutcome, error_outcome
from cgx_checks.maths.read.points import Value, witness_points
from cgx_checks.maths.read.shape import free_names
from cgx_checks.maths.read.step import ParsedStep, expandable, parse_step
from cgx_checks.maths.worker.build import CALCULUS, BuiltStep, at_point, build_step, substitution
from cgx_checks.maths.worker.conditions import decide_condition
from cgx_checks.maths.worker.decision import (
    attempt,
    built_or_error,
    certified_failure,
    certified_nonzero,
    exact_failure,
    passed,
    short,
    witness_failed,
)
from cgx_checks.maths.worker.precision import within_precision
from cgx_checks.maths.worker.rounding import decide_reported


def symbolic_decision(payload: object) -> str:
    """The worker's `decide` task: a parsed step in, the outcome's JSON out. sympy raising where no stage
    expects it decides nothing: the step is an error, never a failed call."""
    step = parse_step(payload)
    tried: list[str] = []
    try:
        outcome = decide_step(step, tried)
    except MemoryError:
        raise
    except Exception:
        done = ", ".join(tried) if tried else "nothing"
        outcome = error_outcome(
            MathsCode.SYMBOLIC_UNDECIDED,
            f"sympy stopped short of a decision (stages finished: {done}); it neither reduced lhs - rhs to 0 nor "
            "showed the sides differ, so the step is undecided, not wrong",
        )
    return json.dumps(outcome.to_json(), sort_keys=True)


def decide_step(step: ParsedStep, tried: list[str] | None = None) -> MathsOutcome:
    """Decide a parsed step in this process, with no budget: the worker runs this, and so can tests. Each
    stage finished is appended to `tried`, so an error can say how far sympy got. A step that fails with a
    printed constant inside an expression (`1.3e-7*sqrt(tau)`) is decided again within its written precision."""
    outcome = _decided(step, [] if tried is None else tried)
    if outcome.result == "failed" and not step.condition and step.reported is None:
        return within_precision(step, outcome)
    return outcome


def _decided(step: ParsedStep, tried: list[str]) -> MathsOutcome:
    if step.condition:
        return decide_condition(step)
    if step.reported is not None:
        return decide_reported(step)
    small = expandable(step)
    # Built as written: a failure is certified on the sides as the step writes them, each evaluated apart
    # (`certify`), never on sympy's antiderivative; and when the step is large, sympy's evaluation (which
    # expands re((x+I)**1000) as it builds) happens with numbers in place of the symbols.
    written = build_step(step, evaluate=False)
    if not small:
        with sympy.evaluate(False):
            written_difference = sympy.Add(written.lhs, sympy.Mul(sympy.S.NegativeOne, written.rhs))
        if (failure := _witness_failure(step, written, written, written_difference)) is not None:
            return failure
        tried.append("exact witnesses on the sides as written")
    built = built_or_error(step)
    if isinstance(built, MathsOutcome):
        return built
    tried.append("building the sides" + (" and computing their calculus" if step.calculus else ""))
    difference = sympy.Add(built.lhs, sympy.Mul(sympy.S.NegativeOne, built.rhs))
    if difference == 0:
        return _confirmed(step, written, passed("doit" if step.calculus else "identical"))
    reduced = difference
    for method, transform in (("expand", sympy.expand), ("cancel", sympy.cancel)):
        transformed = attempt(transform, reduced)
        tried.append(method)
        if transformed is None:
            continue
        reduced = transformed
        if reduced == 0:
            return _confirmed(step, written, passed(method))
        if (failure := _constant_failure(step, written, reduced)) is not None:
            return failure
    # A limit is slow and fragile to evaluate numerically: its residue decides first. Other calculus is
    # certified on the sides as written first, its residue deciding only where that certifies nothing.
    limit = written.lhs.has(sympy.Limit) or written.rhs.has(sympy.Limit)
    if limit and (failure := _residue_failure(step, built, reduced)) is not None:
        return failure
    if small and (failure := _witness_failure(step, built, written, difference)) is not None:
        return failure
    if small:
        tried.append("exact witnesses")
    if step.calculus and not limit and (failure := _residue_failure(step, built, reduced)) is not None:
        return failure
    for method, transform in _REWRITES:
        if (method == "normalise" and not difference.has(*CALCULUS)) or (
            method == "special" and not difference.has(*_SPECIAL)
        ):
            continue
        rewritten = attempt(transform, difference)
        tried.append(method)
        if rewritten is None:
            continue
        if rewritten == 0:
            return _confirmed(step, written, passed(method))
        if (failure := _constant_failure(step, written, rewritten)) is not None:
            return failure
        if method == "simplify":
            reduced = rewritten
    return error_outcome(
        MathsCode.SYMBOLIC_UNDECIDED,
        f"sympy reduced lhs - rhs to {short(reduced)} but could not show that it is 0, "
        "nor that the two sides, each evaluated apart with an error bound, differ at the witness points",
    )


def _confirmed(step: ParsedStep, written: BuiltStep, outcome: MathsOutcome) -> MathsOutcome:
    """A pass that rests on sympy's calculus or special functions (an antiderivative, a branch factor
    dropped) stands only when the two sides, evaluated apart at the first witness, are not shown to
    differ there; a contradiction is an error, since neither is then a proof."""
    if not (step.calculus or written.lhs.has(*_SPECIAL) or written.rhs.has(*_SPECIAL)):
        return outcome
    contradiction = certified_failure(written, _witnesses(step, 1)[0], step.encoding)
    if contradiction is None:
        return outcome
    return error_outcome(
        MathsCode.SYMBOLIC_UNDECIDED,
        f"sympy reduced lhs - rhs to 0 ({outcome.method}), but {contradiction.detail}: neither is a proof",
    )


def _witnesses(step: ParsedStep, count: int = 3) -> list[dict[str, Value]]:
    """The witness points (`read.points.witness_points`) on the symbols the sides leave free."""
    free = free_names(step.lhs) | free_names(step.rhs)
    return [
        {name: value for name, value in whole.items() if name in free} for whole in witness_points(step.encoding, count)
    ]


def _normalise(expression: Any) -> Any:
    """Sums and products shifted to start at 0, then every bound variable renamed canonically, then
    sums and integrals over the same ranges combined: Sum(f(k), (k, 1, n)) - Sum(f(j + 1), (j, 0, n - 1))
    is 0, as are two integrals that differ only in the name of their variable."""
    shifted = expression.replace(
        lambda node: isinstance(node, sympy.Sum | sympy.Product) and len(node.limits) == 1,
        _shift_to_zero,
    )
    return sympy.simplify(shifted.as_dummy())


def _shift_to_zero(node: Any) -> Any:
    (variable, lower, upper) = node.limits[0]
    if lower == 0 or lower.is_infinite:
        return node
    body = node.function.subs(variable, variable + lower)
    return type(node)(body, (variable, 0, upper - lower))


def _special(expression: Any) -> Any:
    """Gamma functions and exponential integrals in one form: Gamma(n+1) - n*Gamma(n) is 0, and
    E1(x) + Ei(-x) is 0 for positive x once both are written as expint and branch factors dropped."""
    reduced = sympy.gammasimp(sympy.expand_func(expression))
    if reduced == 0:
        return reduced
    return sympy.simplify(sympy.unpolarify(reduced.rewrite(sympy.expint)))


_SPECIAL: Final = (
    sympy.gamma,
    sympy.loggamma,
    sympy.lowergamma,
    sympy.uppergamma,
    sympy.beta,
    sympy.polygamma,
    sympy.zeta,
    sympy.expint,
    sympy.Ei,
    sympy.Si,
    sympy.Ci,
    sympy.li,
    sympy.erf,
    sympy.erfc,
    sympy.erfi,
    sympy.factorial,
    sympy.binomial,
)
"""The special functions `_special` rewrites; a step without one skips that stage."""

_REWRITES: Final[tuple[tuple[str, Callable[[Any], Any]], ...]] = (
    ("rewrite-exp", lambda value: sympy.cancel(sympy.expand(value.rewrite(sympy.exp)))),
    ("normalise", _normalise),
    ("special", _special),
    ("simplify", sympy.simplify),
)


def _constant_failure(step: ParsedStep, written: BuiltStep, value: Any) -> MathsOutcome | None:
    """A failure when lhs - rhs reduces to a nonzero constant and a witness certifies it (the constant
    itself may be a branch term of sympy's antiderivative, `-I*pi`, so it is no proof alone)."""
    if value.free_symbols or certified_nonzero(value) is None:
        return None
    for point in _witnesses(step):
        if (failure := certified_failure(written, point, step.encoding, method="constant")) is not None:
            return failure
    return None


def _residue_failure(step: ParsedStep, built: BuiltStep, residue: Any) -> MathsOutcome | None:
    """A failure where sympy computed every integral, limit, sum and derivative in closed form and lhs - rhs
    reduced to an expression with none left (`-Delta*h^2/(S*f^2)`): at the first witness where that residue is
    exactly a number sympy certifies nonzero, the step fails from it, without evaluating the calculus again
    numerically (which a slow limit makes costly). A residue with a declared function or a branch factor of
    sympy's antiderivative (exp_polar) is no proof."""
    if residue.has(*CALCULUS, AppliedUndef, sympy.exp_polar) or not residue.free_symbols:
        return None
    for point in _witnesses(step):
        value = attempt(functools.partial(at_point, substitution=substitution(built, point)), residue)
        if value is None or (text := certified_nonzero(value)) is None:
            continue
        shown = short(residue)
        return witness_failed(
            point,
            step.encoding,
            f"sympy computed the calculus in closed form and lhs - rhs reduces to {shown}, which is {text} here, not 0",
            text,
            method="residue",
            certificate={"digits": "exact", "residue": shown, "value": text},
        )
    return None


def _witness_failure(step: ParsedStep, built: BuiltStep, written: BuiltStep, difference: Any) -> MathsOutcome | None:
    """A failure at the first witness where, for a step with no calculus, the two sides evaluated exactly
    differ by a nonzero number (a proof even where 30 digits cannot tell them apart, as (x+1)^1000 + 1 from
    (x+1)^1000), or where the two sides, each evaluated apart with an error bound, are certified to differ.
    The symbolic difference there only skips a point where it is exactly 0."""
    for point in _witnesses(step):
        value = attempt(functools.partial(at_point, substitution=substitution(built, point)), difference)
        if value is not None and value == 0:
            continue
        if not step.calculus and (failure := exact_failure(written, point, step.encoding)) is not None:
            return failure
        if (failure := certified_failure(written, point, step.encoding)) is not None:
            return failure
    return None

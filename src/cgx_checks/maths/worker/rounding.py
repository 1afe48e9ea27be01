"""Approximate steps: a number the paper reports, against a side that evaluates to a number, passes when
the value rounds to the reported digits (in the worker; see `decide`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.outcome import MathsOutcome, error_outcome
from cgx_checks.maths.read.step import ParsedStep, half_unit, reported_numeral
from cgx_checks.maths.worker.decision import SHOWN_DIGITS, WITNESS_DIGITS, built_or_error, passed


def decide_reported(step: ParsedStep) -> MathsOutcome:
    """A reported number against a constant: equal exactly, or within half a unit of the last digit."""
    reported_node, value_side = (step.lhs, "rhs") if step.reported == "lhs" else (step.rhs, "lhs")
    numeral = reported_numeral(reported_node)
    assert numeral is not None
    reported, text = numeral
    tolerance = half_unit(text, lenient=step.relation == "approx")
    built = built_or_error(step)
    if isinstance(built, MathsOutcome):
        return built
    value = built.rhs if value_side == "rhs" else built.lhs
    exact = sympy.Rational(reported.numerator, reported.denominator)
    if sympy.Add(value, -exact) == 0:  # the value is the reported number itself (1/4 + 1/4 against 0.5)
        return passed("doit" if step.calculus else "identical")
    number = _evaluated(value)
    if number is None:
        return error_outcome(
            MathsCode.SYMBOLIC_UNDECIDED,
            f"{value_side} could not be evaluated to a number to compare with the reported {text}",
        )
    distance = abs(number - exact)
    shown = {"reported": text, "tolerance": _decimal(tolerance), "value": str(sympy.N(number, SHOWN_DIGITS))}
    within = bool(distance <= sympy.Rational(tolerance.numerator, tolerance.denominator))
    relation = "\\approx" if step.relation == "approx" else "="
    if within:
        return MathsOutcome(
            "passed",
            f"{value_side} = {shown['value']}, which rounds to the reported {text} (+- {shown['tolerance']}): "
            f"an approximate pass ({relation})",
            method="rounding",
            approximate=shown,
        )
    return MathsOutcome(
        "failed",
        f"{value_side} = {shown['value']}, which does not round to the reported {text} (+- {shown['tolerance']})",
        method="rounding",
        difference=str(sympy.N(number - exact, SHOWN_DIGITS)),
        approximate=shown,
    )


def _evaluated(value: Any) -> Any:
    """A value as a real number good to 30 digits (quadrature allowed: the step is approximate), or None."""
    if not isinstance(value, sympy.Basic) or value.free_symbols:
        return None
    try:
        number = value.evalf(WITNESS_DIGITS, strict=True)
    except MemoryError:
        raise
    except Exception:
        try:
            first, second = value.evalf(WITNESS_DIGITS), value.evalf(WITNESS_DIGITS + 10)
        except MemoryError:
            raise
        except Exception:
            return None
        if not (first.is_Number and second.is_Number) or abs(first - second) > abs(second) * sympy.Float("1e-25"):
            return None
        number = second
    if not number.is_Number or not number.is_real:
        return None
    return number


def _decimal(value: Fraction) -> str:
    return str(sympy.Float(sympy.Rational(value.numerator, value.denominator), 3))

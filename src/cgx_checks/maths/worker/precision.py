"""A step that fails with its printed constants as written, decided again with each free within its written
precision (in the worker; see `read.precision` and `decide`).

`1.3\\times10^{-7}\\sqrt{\\tau}` stands for c sqrt(tau) with c in 1.3e-7 +- 5e-9. The step holds within that
precision when some c in the interval makes lhs - rhs identically 0. With c a symbol, the numerator of lhs - rhs
is, where the step is linear in c (a coefficient, the usual case), A*c + B; it vanishes identically for exactly
one constant c = -B/A when that is a number, for none otherwise. So:

* **passes** when -B/A is a number within the interval (recorded: `approximate` holds the constant as printed,
  its tolerance and the value the step needs; `method: precision`);
* **fails** when the step has one printed constant and -B/A is a number outside its interval, or no number at
  all, or the step does not depend on it (the failure as written then holds for every value of it);
* **errs** otherwise (a constant under a power or a function, or several printed constants none of which alone
  makes the step hold): the precision may or may not make the step hold, and the check does not guess.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any

import attrs
import sympy

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.outcome import MathsOutcome, error_outcome
from cgx_checks.maths.read.precision import Printed, freed
from cgx_checks.maths.read.step import ParsedStep
from cgx_checks.maths.worker.decision import SHOWN_DIGITS, attempt, built_or_error


def within_precision(step: ParsedStep, failure: MathsOutcome) -> MathsOutcome:
    """The outcome of a step that `failure` shows false with its printed constants as written."""
    variant, constants = freed(step)
    if not constants:
        return failure
    built = built_or_error(variant)
    if isinstance(built, MathsOutcome):
        return _undecided(constants, "sympy could not build the step with them free")
    numerator = attempt(lambda value: sympy.numer(sympy.together(sympy.expand(value))), built.lhs - built.rhs)
    if numerator is None:
        return _undecided(constants, "sympy could not bring lhs - rhs to one fraction")
    printed_values = {built.symbols[item.name]: _rational(item) for item in constants}
    solved: list[tuple[Printed, Any]] = []
    for item in constants:
        symbol = built.symbols[item.name]
        others = {key: value for key, value in printed_values.items() if key != symbol}
        value = attempt(functools.partial(_solved, symbol=symbol), numerator.xreplace(others))
        if value is None:
            continue
        solved.append((item, value))
        if value is not False and abs(value - _rational(item)) <= _tolerance(item):
            return _within(item, value, passed=True)
    if len(constants) == 1 and len(solved) == 1:
        item, value = solved[0]
        return failure if value is False else _within(item, value, passed=False, failure=failure)
    return _undecided(constants, "no one of them moved alone within its precision makes the step hold")


def _solved(numerator: Any, symbol: sympy.Symbol) -> Any:
    """The one number the symbol must be for the numerator to vanish identically (`A*c + B`: -B/A); False when
    no number does (A is 0 while B is not, or -B/A depends on other symbols); raises when it is not linear."""
    polynomial = sympy.Poly(numerator, symbol)
    if polynomial.degree() > 1:
        raise ValueError("not linear in the printed constant")
    if polynomial.degree() < 1:
        return False
    coefficient, rest = polynomial.all_coeffs()
    if sympy.simplify(coefficient) == 0:
        return False
    value = sympy.simplify(-rest / coefficient)
    if value.free_symbols or not value.is_real:
        return False
    return value


def _within(item: Printed, value: Any, *, passed: bool, failure: MathsOutcome | None = None) -> MathsOutcome:
    shown = {"reported": item.text, "tolerance": _text(_tolerance(item)), "value": _text(value)}
    interval = f"{item.text} +- {shown['tolerance']}"
    if passed:
        return MathsOutcome(
            "passed",
            f"the step holds when the printed {item.text} is {shown['value']}, within its written precision "
            f"({interval})",
            method="precision",
            approximate=shown,
        )
    assert failure is not None
    return attrs.evolve(
        failure,
        detail=f"the step holds only when the printed {item.text} is {shown['value']}, outside its written "
        f"precision ({interval}); as printed, {failure.detail}",
        method="precision",
        approximate=shown,
    )


def _undecided(constants: tuple[Printed, ...], why: str) -> MathsOutcome:
    listed = ", ".join(f"{item.text} (+- {_text(_tolerance(item))})" for item in constants)
    return error_outcome(
        MathsCode.SYMBOLIC_UNDECIDED,
        f"with the printed constants as written the step does not hold, but each stands for an interval ({listed}); "
        f"{why}, so whether a value within the precision makes it hold is not decided",
    )


def _rational(item: Printed) -> Any:
    return sympy.Rational(item.value.numerator, item.value.denominator)


def _tolerance(item: Printed) -> Any:
    return sympy.Rational(item.tolerance.numerator, item.tolerance.denominator)


def _text(value: Any) -> str:
    """A value as recorded: a half-unit as the decimal it is (5e-9, 0.05), another number to 15 digits."""
    if value.is_Rational and value.q % 2 != 0 and value.q % 5 != 0 and value.q != 1:
        return str(sympy.N(value, SHOWN_DIGITS))
    if value.is_Rational:
        return format(Decimal(int(value.p)) / Decimal(int(value.q)), "g").lower()
    return str(sympy.N(value, SHOWN_DIGITS))

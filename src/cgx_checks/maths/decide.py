"""rederive-maths: decide a maths step with sympy, in the worker process (see `decider` for the caller's side).

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

Two kinds of step are decided apart:

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
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Final

import sympy

from cgx_checks.maths.build import (
    CALCULUS,
    BuiltStep,
    at_point,
    build_step,
    free_symbols,
    inexact,
    substitute,
    undefined,
)
from cgx_checks.maths.outcome import MathsOutcome, error_outcome
from cgx_checks.maths.points import ValueJson, condition_points, point_json, witness_points
from cgx_checks.maths.structure import ParsedStep, expandable, free_names, half_unit, parse_step, reported_numeral
from cgx_core.codes import Code

WITNESS_DIGITS: Final = 30
"""Significant digits `evalf(strict=True)` must certify to call a value at a witness nonzero."""

SHOWN_DIGITS: Final = 15
"""Significant digits of a nonzero difference in the record."""

_SHOWN_CHARS: Final = 200
_TEXT_BITS: Final = 130
"""Exact integers and fractions up to about 40 digits are recorded as written; larger ones to 15 digits
(Python refuses to write an integer of more than 4,300 digits as text, and no reader wants one)."""


def symbolic_decision(payload: object) -> str:
    """The worker's `decide` task: a parsed step in, the outcome's JSON out."""
    return json.dumps(decide_step(parse_step(payload)).to_json(), sort_keys=True)


def decide_step(step: ParsedStep) -> MathsOutcome:
    """Decide a parsed step in this process, with no budget: the worker runs this, and so can tests."""
    if step.condition:
        return _decide_condition(step)
    if step.reported is not None:
        return _decide_reported(step)
    small = expandable(step)
    if not small:
        # Built as written, so that sympy's evaluation (which expands re((x+I)**1000) as it builds)
        # happens with numbers in place of the symbols.
        written = build_step(step, evaluate=False)
        with sympy.evaluate(False):
            written_difference = sympy.Add(written.lhs, sympy.Mul(sympy.S.NegativeOne, written.rhs))
        if (failure := _witness_failure(step, written, written_difference)) is not None:
            return failure
    built = _built(step)
    if isinstance(built, MathsOutcome):
        return built
    difference = sympy.Add(built.lhs, sympy.Mul(sympy.S.NegativeOne, built.rhs))
    if difference == 0:
        return _passed("doit" if step.calculus else "identical")
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
    for method, transform in _REWRITES:
        if method == "normalise" and not difference.has(*CALCULUS):
            continue
        rewritten = _attempt(transform, difference)
        if rewritten is None:
            continue
        if rewritten == 0:
            return _passed(method)
        if (failure := _constant_failure(rewritten)) is not None:
            return failure
        if method == "simplify":
            reduced = rewritten
    return _error(
        Code.SYMBOLIC_UNDECIDED,
        f"sympy reduced lhs - rhs to {_short(reduced)} but could not show that it is 0, "
        "nor that it is nonzero at the witness points",
    )


def _built(step: ParsedStep) -> BuiltStep | MathsOutcome:
    """Both sides built and, for a step with calculus, computed (`doit`); or why they cannot be."""
    try:
        built = build_step(step)
    except MemoryError:
        raise
    except TypeError as error:
        return _error(Code.SYMBOLIC_UNDECIDED, f"sympy could not build the step: {str(error)[:200]}")
    except Exception as error:  # sympy failed while evaluating what it built
        return _error(Code.SYMBOLIC_UNDECIDED, f"sympy could not build the step: {type(error).__name__}")
    if step.calculus:
        lhs, rhs = _attempt(_doit, built.lhs), _attempt(_doit, built.rhs)
        built = BuiltStep(built.lhs if lhs is None else lhs, built.rhs if rhs is None else rhs, built.symbols)
    for side, expression in (("lhs", built.lhs), ("rhs", built.rhs)):
        if isinstance(expression, sympy.Basic) and undefined(expression):
            return _error(
                Code.SYMBOLIC_UNDECIDED,
                f"{side} is undefined as written: sympy evaluates it to {_short(expression)} "
                "(a division by zero, a function at a pole, or a divergent integral, sum or limit)",
            )
    return built


def _doit(expression: Any) -> Any:
    return expression.doit()


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


_REWRITES: Final[tuple[tuple[str, Callable[[Any], Any]], ...]] = (
    ("rewrite-exp", lambda value: sympy.cancel(sympy.expand(value.rewrite(sympy.exp)))),
    ("normalise", _normalise),
    ("special", _special),
    ("simplify", sympy.simplify),
)


def certified_nonzero(value: Any) -> str | None:
    """The value as text when it is an exact number sympy certifies nonzero, else None (zero, unknown, or
    not exact: an unevaluated integral or an undefined function is no proof)."""
    if value.free_symbols or undefined(value) or inexact(value):
        return None
    if value.is_Rational:
        return None if value == 0 else number_text(value)
    try:
        number = value.evalf(WITNESS_DIGITS, strict=True)
    except MemoryError:
        raise
    except Exception:  # PrecisionExhausted: evalf cannot tell it from 0; or evalf cannot evaluate it
        return None
    real, imaginary = number.as_real_imag()
    if not (real.is_Number and imaginary.is_Number) or (real == 0 and imaginary == 0):
        return None
    return number_text(number)


def number_text(value: Any) -> str:
    """A number as recorded: exactly when it is a small rational, else to `SHOWN_DIGITS` digits.

    Sizes are read from the integers' bit lengths, never by writing them out: a 4,300-digit value would
    make `str` raise (Python's int-to-str limit), which must not turn a failed step into an error."""
    if value.is_Rational and max(abs(value.p).bit_length(), value.q.bit_length()) <= _TEXT_BITS:
        return str(value)
    return str(sympy.N(value, SHOWN_DIGITS))


def _constant_failure(value: Any) -> MathsOutcome | None:
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


def _substitution(built: BuiltStep, point: Mapping[str, tuple[Fraction, Fraction]]) -> dict[sympy.Basic, Any]:
    return {
        built.symbols[name]: sympy.Rational(real.numerator, real.denominator)
        + sympy.I * sympy.Rational(imaginary.numerator, imaginary.denominator)
        for name, (real, imaginary) in point.items()
    }


def _witness_failure(step: ParsedStep, built: BuiltStep, difference: Any) -> MathsOutcome | None:
    free = free_names(step.lhs) | free_names(step.rhs)
    for whole in witness_points(step.encoding):
        point = {name: value for name, value in whole.items() if name in free}
        value = _attempt(functools.partial(at_point, substitution=_substitution(built, point)), difference)
        if value is None:
            continue
        text = certified_nonzero(value)
        if text is None:
            continue
        recorded = point_json(point, step.encoding)
        where = ", ".join(f"{name} = {_value_text(recorded[name])}" for name in sorted(recorded))
        return MathsOutcome(
            "failed",
            f"at {where or 'every point'} (in the symbols' domains) lhs - rhs = {text}, which is not 0",
            method="witness",
            witness=recorded,
            difference=text,
        )
    return None


# -- approximate steps ---------------------------------------------------------------------------------------


def _decide_reported(step: ParsedStep) -> MathsOutcome:
    """A reported number against a constant: equal exactly, or within half a unit of the last digit."""
    reported_node, value_side = (step.lhs, "rhs") if step.reported == "lhs" else (step.rhs, "lhs")
    numeral = reported_numeral(reported_node)
    assert numeral is not None
    reported, text = numeral
    tolerance = half_unit(text, lenient=step.relation == "approx")
    built = _built(step)
    if isinstance(built, MathsOutcome):
        return built
    value = built.rhs if value_side == "rhs" else built.lhs
    exact = sympy.Rational(reported.numerator, reported.denominator)
    if sympy.Add(value, -exact) == 0:  # the value is the reported number itself (1/4 + 1/4 against 0.5)
        return _passed("doit" if step.calculus else "identical")
    number = _evaluated(value)
    if number is None:
        return _error(
            Code.SYMBOLIC_UNDECIDED,
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


# -- conditions ------------------------------------------------------------------------------------------


def _decide_condition(step: ParsedStep) -> MathsOutcome:
    """Two conditions pass when they hold for the same values of the symbols."""
    built = _built(step)
    if isinstance(built, MathsOutcome):
        return built
    lhs, rhs = built.lhs, built.rhs
    if lhs == rhs:
        return _passed("identical")
    logic = _attempt(lambda both: sympy.simplify_logic(sympy.Xor(*both)), (lhs, rhs))
    if logic is sympy.false:
        return _passed("logic")
    free = sorted(free_symbols(lhs, rhs), key=lambda symbol: symbol.name)
    if len(free) == 1 and free[0].is_real:
        outcome = _compare_sets(step, built, free[0])
        if outcome is not None:
            return outcome
    for point in condition_points(step.encoding, sorted(free_names(step.lhs) | free_names(step.rhs))):
        substitution = _substitution(built, point)
        left = _attempt(functools.partial(_truth, substitution=substitution), lhs)
        right = _attempt(functools.partial(_truth, substitution=substitution), rhs)
        if left is None or right is None or left == right:
            continue
        recorded = point_json(point, step.encoding)
        where = ", ".join(f"{name} = {_value_text(recorded[name])}" for name in sorted(recorded))
        return MathsOutcome(
            "failed",
            f"at {where} (in the symbols' domains) lhs is {left} and rhs is {right}",
            method="witness",
            witness=recorded,
            difference=f"lhs {left}, rhs {right}",
        )
    return _error(
        Code.SYMBOLIC_UNDECIDED,
        "sympy could not show that the two conditions hold for the same values, nor find a point where they differ",
    )


def _truth(condition: Any, substitution: Mapping[sympy.Basic, Any]) -> bool | None:
    value = substitute(condition, substitution)
    value = value.doit() if isinstance(value, sympy.Basic) else value
    if value is sympy.true or value is True:
        return True
    if value is sympy.false or value is False:
        return False
    return None


def _compare_sets(step: ParsedStep, built: BuiltStep, symbol: sympy.Symbol) -> MathsOutcome | None:
    """For one real symbol: the sets where each condition holds, compared exactly."""
    sets = _attempt(lambda both: tuple(side.as_set() for side in both), (built.lhs, built.rhs))
    if sets is None:
        return None
    domain = _domain_set(step, symbol)
    left, right = (sympy.Intersection(found, domain) for found in sets)
    apart = _attempt(lambda both: sympy.SymmetricDifference(*both).simplify(), (left, right))
    if apart is None:
        return None
    if apart == sympy.S.EmptySet:
        return _passed("sets")
    point = _point_in(apart)
    if point is None:
        return None
    substitution = {symbol: point}
    first, second = _truth(built.lhs, substitution), _truth(built.rhs, substitution)
    if first is None or second is None or first == second:
        return None
    witness = {symbol.name: number_text(point)}
    return MathsOutcome(
        "failed",
        f"lhs holds on {_short(left)} and rhs on {_short(right)}; at {symbol.name} = {witness[symbol.name]} "
        f"lhs is {first} and rhs is {second}",
        method="witness",
        witness=witness,
        difference=f"lhs {first}, rhs {second}",
    )


def _domain_set(step: ParsedStep, symbol: sympy.Symbol) -> Any:
    domain = step.encoding.domain(symbol.name)
    base = sympy.S.Integers if domain.kind == "integer" else sympy.S.Reals
    if domain.signs == {1}:
        return sympy.Intersection(base, sympy.Interval.open(0, sympy.oo))
    if domain.signs == {-1}:
        return sympy.Intersection(base, sympy.Interval.open(-sympy.oo, 0))
    if domain.signs == {0, 1}:
        return sympy.Intersection(base, sympy.Interval(0, sympy.oo))
    if domain.signs == {-1, 0}:
        return sympy.Intersection(base, sympy.Interval(-sympy.oo, 0))
    if domain.signs == {-1, 1}:
        return sympy.Complement(base, sympy.FiniteSet(0))
    return base


def _point_in(found: Any) -> Any:
    """An exact rational point of a set of reals (a finite set's first element, an interval's middle)."""
    pieces: Iterable[Any] = found.args if isinstance(found, sympy.Union) else (found,)
    for piece in pieces:
        if isinstance(piece, sympy.FiniteSet) and piece.args:
            return min(piece.args, key=lambda item: (abs(item), item))
        if isinstance(piece, sympy.Interval):
            low, high = piece.inf, piece.sup
            if low.is_infinite and high.is_infinite:
                return sympy.Integer(0)
            if low.is_infinite:
                return sympy.floor(high) - 1
            if high.is_infinite:
                return sympy.ceiling(low) + 1
            return sympy.nsimplify((low + high) / 2, rational=True)
    return None


# -- shared helpers ------------------------------------------------------------------------------------------


def _value_text(value: ValueJson) -> str:
    return value if isinstance(value, str) else f"{value['re']} + ({value['im']})*I"


def _attempt[T](transform: Callable[[T], Any], value: T) -> Any:
    """A transform's result, or None when sympy raised (a sympy failure leaves the step undecided)."""
    try:
        return transform(value)
    except MemoryError:
        raise
    except Exception:
        return None


def _short(value: Any) -> str:
    """An expression as text for a person, at most `_SHOWN_CHARS` long; a huge integer in it is shown to
    `SHOWN_DIGITS` digits rather than written out (see `number_text`)."""
    if isinstance(value, sympy.Basic):
        large = {
            atom: sympy.Float(atom, SHOWN_DIGITS)
            for atom in value.atoms(sympy.Rational)
            if max(abs(atom.p).bit_length(), atom.q.bit_length()) > _TEXT_BITS
        }
        if large:
            value = value.xreplace(large)
    text = str(sympy.sstr(value))
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def _passed(method: str) -> MathsOutcome:
    return MathsOutcome("passed", f"sympy reduces lhs - rhs to 0 ({method})", method=method)


def _error(code: Code, detail: str) -> MathsOutcome:
    return error_outcome(code, detail)

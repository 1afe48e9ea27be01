"""A failure's certificate: the two sides of a step evaluated apart at one point, each with an error bound,
shown to differ by more than the bounds allow (in the worker; sympy and mpmath).

A symbolic residue is no proof that a step is false: sympy's antiderivatives carry branch terms
(`-I*pi` from `expint` of a polar argument), `exp_polar` hides a factor that is 1, and an unevaluated
integral stands for a number nobody computed. So a maths check fails only on a certificate: each side *as
written* (never through sympy's antiderivative) is evaluated at an exact point of the symbols' domains:

* what holds no integral, sum, product or limit is evaluated by sympy's `evalf(strict=True)` to
  `CERTIFY_DIGITS` digits, which raises rather than return digits it cannot vouch for (its bound is one
  unit of the last digit);
* an integral by mpmath's tanh-sinh quadrature, with its error estimate, at two working precisions (the
  bound is the larger of the estimate and the two results' difference), when the integral computed again
  with its range split where the integrand's numbers put its peaks agrees, and both bounds are small beside
  the integral of the integrand's absolute value (`RESOLVED`; else the nodes may have missed a narrow peak,
  and the estimate bounds nothing); a finite sum or product exactly,
  term by term; an infinite sum by mpmath's `nsum` at two precisions; a limit by mpmath's `limit` at two
  precisions (both sides of a two-sided one); the bound of each is carried through the rest of the side
  by evaluating it again with the value moved by its bound;

and the step is false there when `|lhs - rhs| > MARGIN * (bound(lhs) + bound(rhs))` and the difference is
more than `RELATIVE_FLOOR` of the larger side. A side that cannot be bounded (a declared function left in
it, a quadrature whose estimate is not small, a value undefined there) gives no certificate: the check
is then an error, never a failure. mpmath's numbers have no exponent range, so a side near 1e-6423491
is compared by its digits, never as two denormal doubles.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import mpmath  # type: ignore[import-untyped]
import sympy
from sympy.core.function import AppliedUndef

from cgx_checks.maths.read.points import value_from_json
from cgx_checks.maths.worker.build import CALCULUS, build_step, substitute, substitution, undefined

CERTIFY_DIGITS: Final = 30
"""Significant digits each side is evaluated to for a certificate."""

MARGIN: Final = 8
"""How many times the combined error bound a certified difference must exceed."""

RELATIVE_FLOOR: Final = "1e-20"
"""A certified difference must also exceed this fraction of the larger side."""

RESOLVED: Final = "1e-10"
"""A quadrature's bound must be at most this fraction of the integral of the integrand's absolute value (on
the split range). A narrow peak the nodes straddle leaves the quadrature summing tails that underflow
to noise: its two precisions then agree to within their own size, and a certificate built on that "bound"
once failed the true Gaussian convolution at sigma = 0.0059, t = 0.0024 (lhs 1e-114231 +- 8e-114231
against rhs 6e-98965). An integral whose value is 0 by cancellation (an odd integrand) keeps its
certificate: the mass of its absolute value is not small."""

SPLITS: Final = 24
"""At most this many points a range of integration is split at to compute it again (`_split`)."""

FINITE_TERMS: Final = 2_000
"""A sum or product with at most this many terms is computed exactly, term by term."""

SHOWN_DIGITS: Final = 20
"""Significant digits of a certificate's values in the record."""

DIFFERENCE_DIGITS: Final = 15
"""Significant digits of lhs - rhs in the record."""

_HELD: Final = (sympy.Integral, sympy.Sum, sympy.Product, sympy.Limit)


@attrs.frozen
class Bounded:
    """A side's value at a point and a bound on its absolute error."""

    value: Any
    """An mpmath complex number."""
    bound: Any
    """An mpmath real number, >= 0."""

    def to_json(self) -> dict[str, str]:
        return {"value": _text(self.value), "bound": _text(self.bound)}


@attrs.frozen
class Certificate:
    """Two sides shown to differ at one point: each side's value and error bound, at a precision."""

    lhs: Bounded
    rhs: Bounded

    def difference(self) -> str:
        """lhs - rhs at the point, to 15 digits as a witness's difference is recorded."""
        return _text(self.lhs.value - self.rhs.value, DIFFERENCE_DIGITS)

    def to_json(self) -> dict[str, Any]:
        return {
            "digits": CERTIFY_DIGITS,
            "lhs": self.lhs.to_json(),
            "margin": MARGIN,
            "rhs": self.rhs.to_json(),
        }


def certificate(lhs: Any, rhs: Any, substitution: Mapping[sympy.Basic, Any]) -> Certificate | None:
    """The certificate that two sides (built as written) differ at a point, or None when they are not
    shown to differ there (they agree, or a side cannot be bounded)."""
    with mpmath.workdps(CERTIFY_DIGITS + 10):
        left = bounded_value(lhs, substitution)
        if left is None:
            return None
        right = bounded_value(rhs, substitution)
        if right is None:
            return None
        if not differs(left, right):
            return None
        return Certificate(left, right)


def certify_task(payload: object) -> str:
    """The worker's `certify` task: a parsed step and points in, the index of the first point where a
    certificate shows its sides differ (or None) out, as JSON (the corpus shows its mutants false so)."""
    assert isinstance(payload, tuple)
    step, points = payload
    written = build_step(step, evaluate=False)
    for index, point in enumerate(points):
        values = {name: value_from_json(value) for name, value in point.items()}
        if certificate(written.lhs, written.rhs, substitution(written, values)) is not None:
            return json.dumps({"differ_at": index})
    return json.dumps({"differ_at": None})


def differs(left: Bounded, right: Bounded) -> bool:
    """Whether two bounded values differ by more than `MARGIN` times their bounds and `RELATIVE_FLOOR`."""
    difference = abs(left.value - right.value)
    scale = max(abs(left.value), abs(right.value))
    return bool(difference > MARGIN * (left.bound + right.bound) and difference > mpmath.mpf(RELATIVE_FLOOR) * scale)


def bounded_value(expression: Any, substitution: Mapping[sympy.Basic, Any]) -> Bounded | None:
    """A side's value at a point with its error bound, or None when it cannot be bounded there."""
    try:
        closed = substitute(expression, substitution)
        if closed.atoms(AppliedUndef) or closed.free_symbols:  # a bound variable is not free
            return None
        held: dict[sympy.Dummy, Any] = {}
        skeleton = hold_calculus(closed, held)
        values: dict[sympy.Dummy, Bounded] = {}
        for placeholder, node in held.items():
            found = _calculus(node)
            if found is None:
                return None
            values[placeholder] = found
        return _through(skeleton, values)
    except MemoryError:
        raise
    except Exception:  # sympy or mpmath cannot evaluate it there: no certificate
        return None


def hold_calculus(expression: Any, held: dict[sympy.Dummy, Any]) -> Any:
    """The expression with each outermost integral, sum, product and limit replaced by a placeholder."""
    if isinstance(expression, _HELD):
        placeholder = sympy.Dummy(f"held{len(held)}")
        held[placeholder] = expression
        return placeholder
    if not expression.args or isinstance(expression, sympy.Derivative | sympy.Subs):
        return expression
    return expression.func(*(hold_calculus(argument, held) for argument in expression.args))


def _through(skeleton: Any, values: Mapping[sympy.Dummy, Bounded]) -> Bounded | None:
    """The skeleton's value with the held values in, and the bound carried through it: the skeleton is
    evaluated again with each held value moved by its bound (real and imaginary), the largest move kept."""
    if not values:
        return _exact(skeleton.doit())
    centre = _at(skeleton, {placeholder: found.value for placeholder, found in values.items()})
    if centre is None:
        return None
    moved = mpmath.mpf(0)
    for placeholder, found in values.items():
        for step in (found.bound, found.bound * 1j):
            shifted = {name: other.value for name, other in values.items()}
            shifted[placeholder] = found.value + step
            value = _at(skeleton, shifted)
            if value is None:
                return None
            moved = max(moved, abs(value - centre))
    return Bounded(centre, 2 * moved + abs(centre) * _unit())


def _at(skeleton: Any, values: Mapping[sympy.Dummy, Any]) -> Any:
    """The skeleton's value with numbers for its placeholders (sympy's evalf, then mpmath)."""
    digits = CERTIFY_DIGITS + 10
    replaced = skeleton.xreplace(
        {
            placeholder: sympy.Float(mpmath.re(value), digits) + sympy.I * sympy.Float(mpmath.im(value), digits)
            for placeholder, value in values.items()
        }
    ).doit()
    return _number(replaced.evalf(digits))


def _exact(value: Any) -> Bounded | None:
    """A value with no calculus left: `evalf(strict=True)` vouches for its digits (it raises when it
    cannot, and a zero it cannot tell from noise is no value)."""
    if undefined(value) or value.has(*CALCULUS):
        return None
    if value.is_Rational:
        return Bounded(mpmath.mpf(value.p) / value.q, mpmath.mpf(0))
    number = _number(value.evalf(CERTIFY_DIGITS, strict=True))
    if number is None:
        return None
    return Bounded(number, abs(number) * _unit())


def _unit() -> Any:
    return mpmath.mpf(10) ** (1 - CERTIFY_DIGITS)


def _number(value: Any) -> Any:
    """An evaluated sympy number as an mpmath complex number, or None when it is not a finite number."""
    real, imaginary = value.as_real_imag()
    if not (real.is_Number and imaginary.is_Number) or undefined(real) or undefined(imaginary):
        return None
    return mpmath.mpc(mpmath.mpf(sympy.Float(real)._mpf_), mpmath.mpf(sympy.Float(imaginary)._mpf_))


def _calculus(node: Any) -> Bounded | None:
    """An integral, sum, product or limit with numbers for its free symbols, computed numerically."""
    node = rebuilt(node)
    node = node.replace(lambda item: isinstance(item, sympy.Derivative | sympy.Subs), lambda item: item.doit())
    body = node.args[0]
    if body.has(*_HELD):
        return None  # nested calculus: not bounded here
    if isinstance(node, sympy.Limit):
        return _limit(node)
    limits = node.limits
    variables = [limit[0] for limit in limits]
    ranges = []
    for limit in limits:
        if len(limit) != 3:
            return None  # an indefinite integral has no value
        low, high = (_bound(item) for item in limit[1:])
        if low is None or high is None:
            return None
        ranges.append((low, high))
    if isinstance(node, sympy.Integral):
        return _integral(body, variables, ranges)
    return _series(node, body, variables, ranges)


def rebuilt(expression: Any) -> Any:
    """A node built as written, rebuilt with sympy's evaluation on (numbers are in it now, so this is cheap):
    `-1*oo` becomes -oo and `1*exp(-a*t**2)` exp(-a*t**2), which numeric integration needs."""
    if not isinstance(expression, sympy.Basic) or not expression.args:
        return expression
    return expression.func(*(rebuilt(argument) for argument in expression.args))


def _bound(value: Any) -> Any:
    """A limit of integration or summation as an mpmath number (or infinity), or None."""
    if value is sympy.oo:
        return mpmath.inf
    if value is sympy.S.NegativeInfinity:
        return -mpmath.inf
    if value.free_symbols:
        return None
    found = _exact(value)
    if found is None or mpmath.im(found.value) != 0:
        return None
    return mpmath.re(found.value)


def _function(body: Any, variables: list[Any]) -> Callable[..., Any]:
    return sympy.lambdify(variables, body, modules="mpmath")  # type: ignore[no-any-return]


def _twice(compute: Callable[[], tuple[Any, Any]]) -> Bounded | None:
    """A numerical value computed at two working precisions; the bound is the larger of the method's own
    estimate and the two results' difference, doubled."""
    with mpmath.workdps(CERTIFY_DIGITS + 10):
        first, first_error = compute()
    with mpmath.workdps(CERTIFY_DIGITS + 25):
        second, second_error = compute()
    if not (mpmath.isfinite(first) and mpmath.isfinite(second)):
        return None
    bound = 2 * max(abs(first_error), abs(second_error), abs(first - second))
    return Bounded(mpmath.mpc(second), bound)


def _integral(body: Any, variables: list[Any], ranges: list[tuple[Any, Any]]) -> Bounded | None:
    """An integral by tanh-sinh quadrature, or None when the quadrature cannot be trusted there: computed
    again with each range split where the integrand's numbers put its peaks, it must agree, and its bound
    must be small beside the mass of the integrand's absolute value (`RESOLVED`). A peak narrower than the
    nodes' spacing is otherwise missed, and the estimate, which sees only what the nodes see, bounds nothing."""
    function = _function(body, variables)
    intervals = [[low, high] for low, high in ranges]

    found = _twice(lambda: mpmath.quad(function, *intervals, error=True))
    if found is None:
        return None
    split = [_split(low, high, body) for low, high in ranges]
    with mpmath.workdps(CERTIFY_DIGITS + 10):
        again, error = mpmath.quad(function, *split, error=True)
        mass = mpmath.quad(lambda *point: abs(function(*point)), *split)
    if not (mpmath.isfinite(again) and mpmath.isfinite(mass)):
        return None
    resolved = mpmath.mpf(RESOLVED) * mass
    if max(found.bound, abs(error)) > resolved or abs(again - found.value) > found.bound + 2 * abs(error):
        return None
    return found


def _split(low: Any, high: Any, body: Any) -> list[Any]:
    """A range of integration split at each real number of the integrand (and its opposite) inside it, at
    most `SPLITS`: an integrand's peaks sit where its parameters put them (`exp(-(x - 33/10)^2/...)` at
    33/10), and tanh-sinh's nodes crowd at the ends of each piece."""
    atoms = body.atoms(sympy.Rational, sympy.Float)
    numbers = sorted({sign * mpmath.mpf(sympy.Float(atom)._mpf_) for atom in atoms for sign in (1, -1)})
    inside = [value for value in numbers if low < value < high][:SPLITS]
    return [low, *inside, high]


def _series(node: Any, body: Any, variables: list[Any], ranges: list[tuple[Any, Any]]) -> Bounded | None:
    """A sum or product: exactly when it has few terms, an infinite one-variable sum by `nsum`."""
    finite = all(mpmath.isfinite(low) and mpmath.isfinite(high) for low, high in ranges)
    if finite:
        terms = 1
        for low, high in ranges:
            terms *= max(0, int(high - low) + 1)
        if terms > FINITE_TERMS:
            return None
        return _exact(node.doit())
    if isinstance(node, sympy.Product) or len(variables) != 1:
        return None
    function = _function(body, variables)
    (low, high) = ranges[0]

    return _twice(lambda: (mpmath.nsum(function, [low, high]), mpmath.mpf(0)))


def _limit(node: Any) -> Bounded | None:
    body, variable, point, direction = node.args
    if point.free_symbols:
        return None
    function = _function(body, [variable])
    if point.is_infinite:
        targets = [(mpmath.inf if point.is_extended_positive else -mpmath.inf, 1)]
    else:
        centre = _bound(point)
        if centre is None:
            return None
        sides = {"+": (1,), "-": (-1,), "+-": (1, -1)}[str(direction)]
        targets = [(centre, side) for side in sides]
    found = []
    for target, side in targets:

        def compute(target: Any = target, side: int = side) -> tuple[Any, Any]:
            if mpmath.isinf(target):
                return mpmath.limit(function, target), mpmath.mpf(0)
            return mpmath.limit(function, target, direction=side), mpmath.mpf(0)

        value = _twice(compute)
        if value is None:
            return None
        found.append(value)
    if len(found) == 2 and differs(found[0], found[1]):
        return None  # the one-sided limits differ: no limit
    return max(found, key=lambda item: item.bound)


def _text(value: Any, digits: int = SHOWN_DIGITS) -> str:
    real = sympy.Float(mpmath.re(value), digits)
    imaginary = sympy.Float(mpmath.im(value), digits)
    return str(real if imaginary == 0 else real + sympy.I * imaginary)

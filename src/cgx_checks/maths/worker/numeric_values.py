"""The numbers rederive-maths-numeric compares: each side at a point, to 50 digits (sympy and mpmath; the
worker runs this, never the caller's process). See `numeric_rules` for the rules this implements."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

import attrs
import mpmath  # type: ignore[import-untyped]
import sympy
from sympy.core.function import AppliedUndef

from cgx_checks.maths.numeric_rules import (
    EVALUATION_DIGITS,
    RELATIVE_TOLERANCE,
    SHOWN_DIGITS,
    ZERO_FLOOR,
    function_coefficients,
)
from cgx_checks.maths.read.points import Value
from cgx_checks.maths.read.step import ParsedStep, half_unit, reported_numeral
from cgx_checks.maths.worker.build import (
    CALCULUS,
    BuiltStep,
    build_step,
    free_symbols,
    substitute,
    substitution,
    undefined,
)
from cgx_checks.maths.worker.certify import Certificate, certificate, hold_calculus, rebuilt

_LIMIT_AGREEMENT: Final = "1e-20"
_MIN_BITS: Final = 64
"""The least precision (about 19 digits) a numerically computed integral or sum must reach to be compared
at the 1e-12 tolerance; a point where it does not tells nothing and is skipped."""


_PIECEWISE: Final = (
    sympy.Heaviside,
    sympy.sign,
    sympy.floor,
    sympy.ceiling,
    sympy.Mod,
    sympy.KroneckerDelta,
    sympy.Piecewise,
)


@attrs.frozen
class Agreement:
    """Whether the sides agree at one point, and their values there as recorded."""

    agree: bool
    lhs: str
    rhs: str


@attrs.frozen
class Evaluator:
    """A step built as written, its declared functions replaced by test functions, ready for points."""

    built: BuiltStep
    terms: tuple[Any, ...]
    free: frozenset[sympy.Symbol]
    functions: Mapping[str, str]
    rounding: Fraction | None = None
    """For a step against a reported number: half a unit of its last digit, the absolute tolerance."""

    @classmethod
    def of(cls, step: ParsedStep, seed: int) -> Evaluator:
        built = build_step(step, evaluate=False)
        functions: dict[str, str] = {}
        if step.undefined:
            built = _with_test_functions(built, seed, functions)
        terms = sympy.Add.make_args(built.lhs) + sympy.Add.make_args(built.rhs)
        rounding = None
        if step.reported is not None:
            numeral = reported_numeral(step.lhs if step.reported == "lhs" else step.rhs)
            assert numeral is not None
            rounding = half_unit(numeral[1], lenient=step.relation == "approx")
        free = frozenset(free_symbols(built.lhs, built.rhs))
        return cls(built, terms, free, functions, rounding)

    @property
    def names(self) -> frozenset[str]:
        """The names of the symbols free in the step (a bound variable's value changes nothing)."""
        return frozenset(name for name, symbol in self.built.symbols.items() if symbol in self.free)

    def distribution(self) -> str | None:
        """The distribution a side holds, named, when it has one: DiracDelta is 0 at every point a draw
        can reach, and KroneckerDelta of a real or complex symbol almost everywhere, so agreeing there is
        no evidence (`DiracDelta(x)` against `2*DiracDelta(x)` would pass)."""
        for side in (self.built.lhs, self.built.rhs):
            if side.has(sympy.DiracDelta):
                return "DiracDelta"
            for delta in side.atoms(sympy.KroneckerDelta):
                if any(not symbol.is_integer for symbol in delta.free_symbols):
                    return "KroneckerDelta of a symbol that is not an integer"
        return None

    def piecewise_constant(self) -> str | None:
        """A function constant on pieces (Heaviside, sign, floor, KroneckerDelta, ...) of a free symbol that a
        side holds, named, or None. Two sides that agree on one value at every sampled point are evidence only
        when neither holds one: Heaviside(x - 5) and Heaviside(x - 6) are both 0 at every point below 5."""
        for side in (self.built.lhs, self.built.rhs):
            for kind in _PIECEWISE:
                if any(node.free_symbols & self.free for node in side.atoms(kind)):
                    return str(kind.__name__)
        return None

    def certificate(self, values: Mapping[str, Value]) -> Certificate | None:
        """The certificate that the sides differ at a point (see `certify`), or None."""
        return certificate(self.built.lhs, self.built.rhs, self._substitution(values))

    def _substitution(self, values: Mapping[str, Value]) -> dict[sympy.Basic, Any]:
        return {symbol: value for symbol, value in substitution(self.built, values).items() if symbol in self.free}

    def _at_a_jump(self, substitution: Mapping[sympy.Basic, Any]) -> bool:
        """Whether a Heaviside step's argument is exactly 0 at the point (its value there is a convention)."""
        for side in (self.built.lhs, self.built.rhs):
            for step in side.atoms(sympy.Heaviside):
                if substitute(step.args[0], substitution).doit() == 0:
                    return True
        return False

    def compare(self, values: Mapping[str, Value]) -> Agreement | None:
        """The agreement at one point, or None where a side is undefined (or a Heaviside step at its jump)."""
        substitution = self._substitution(values)
        if self._at_a_jump(substitution):
            return None
        with mpmath.workdps(EVALUATION_DIGITS + 10):
            left, right = value_at(self.built.lhs, substitution), value_at(self.built.rhs, substitution)
            if left is None or right is None:
                return None
            if self.rounding is not None:
                tolerance = mpmath.mpf(self.rounding.numerator) / self.rounding.denominator
                return Agreement(bool(abs(left - right) <= tolerance), _text(left), _text(right))
            return Agreement(_agree(left, right, self.terms, substitution), _text(left), _text(right))


def value_at(expression: Any, substitution: Mapping[sympy.Basic, Any]) -> mpmath.mpc | None:
    """An expression's value at a point, to `EVALUATION_DIGITS` digits, or None when it is undefined there."""
    try:
        return _number(substitute(expression, substitution))
    except MemoryError:
        raise
    except Exception:  # sympy or mpmath cannot evaluate it there: treated as undefined
        return None


def _digits() -> int:
    """The digits to evaluate to: `EVALUATION_DIGITS`, or more while mpmath's `limit` extrapolates (it
    raises its working precision, and extrapolation magnifies any noise below it)."""
    return max(EVALUATION_DIGITS, int(mpmath.mp.dps) - 10)


def _number(expression: Any) -> mpmath.mpc | None:
    """A closed expression's value: exact where sympy computes it, integrals, sums, products and limits
    numerically (each held apart while the rest is computed exactly)."""
    if not isinstance(expression, sympy.Basic):
        return None
    if expression.has(*CALCULUS):
        held: dict[sympy.Dummy, Any] = {}
        skeleton = hold_calculus(expression, held).doit()
        values = {}
        for dummy, node in held.items():
            value = _calculus_value(node)
            if value is None:
                return None
            values[dummy] = sympy.Float(value.real, _digits() + 10) + sympy.I * sympy.Float(value.imag, _digits() + 10)
        exact = skeleton.xreplace(values)
    else:
        exact = expression.doit()
    if undefined(exact):
        return None
    number = exact.evalf(_digits())
    real, imaginary = number.as_real_imag()
    if not (real.is_Number and imaginary.is_Number) or undefined(real) or undefined(imaginary):
        return None
    return mpmath.mpc(_mpf(real), _mpf(imaginary))


def _calculus_value(node: Any) -> mpmath.mpc | None:
    node = rebuilt(node)
    node = node.replace(lambda item: isinstance(item, sympy.Derivative | sympy.Subs), lambda item: item.doit())
    if isinstance(node, sympy.Limit):
        return _limit(node)
    if node.has(sympy.Limit):
        return None
    number = node.evalf(_digits())
    real, imaginary = number.as_real_imag()
    if not (real.is_Number and imaginary.is_Number) or undefined(real) or undefined(imaginary):
        return None
    for part in (real, imaginary):
        if isinstance(part, sympy.Float) and part._mpf_[1] != 0 and part._prec < _MIN_BITS:
            return None  # quadrature or series summation did not reach the digits a comparison needs
    return mpmath.mpc(_mpf(real), _mpf(imaginary))


def _limit(node: sympy.Limit) -> mpmath.mpc | None:
    """A limit with mpmath's `limit` (Richardson extrapolation): both sides of a two-sided one, which must
    agree to 1e-20 relatively."""
    body, variable, point, direction = node.args

    def at(value: mpmath.mpf) -> mpmath.mpc:
        found = _number(body.xreplace({variable: sympy.Float(value, _digits() + 10)}))
        if found is None:
            raise ValueError("undefined")
        return found

    if point.is_infinite:
        target = mpmath.inf if point.is_extended_positive else -mpmath.inf
        return mpmath.mpc(mpmath.limit(at, target))
    centre = _number(point)
    if centre is None or centre.imag != 0:
        return None
    sides = {"+": (1,), "-": (-1,), "+-": (1, -1)}[str(direction)]
    found = [mpmath.mpc(mpmath.limit(at, centre.real, direction=side)) for side in sides]
    if len(found) == 2:
        scale = max(abs(found[0]), abs(found[1]), mpmath.mpf(1))
        if abs(found[0] - found[1]) > mpmath.mpf(_LIMIT_AGREEMENT) * scale:
            return None
    return found[0]


def _with_test_functions(built: BuiltStep, seed: int, functions: dict[str, str]) -> BuiltStep:
    """The step with each declared function replaced by its test function (recorded in `functions`)."""
    applied = sorted(
        {(item.func.__name__, len(item.args)) for side in (built.lhs, built.rhs) for item in side.atoms(AppliedUndef)}
    )
    lambdas = {}
    for name, arity in applied:
        c0, c1, c2, c3 = (
            sympy.Rational(value.numerator, value.denominator) for value in function_coefficients(seed, name, arity)
        )
        variables = (
            (sympy.Symbol("t"),) if arity == 1 else tuple(sympy.Symbol(f"t{index}") for index in range(1, arity + 1))
        )
        total = sympy.Add(*variables)
        body = c0 + c1 * total + c2 * total**2 + c3 / (1 + total**2)
        lambdas[(name, arity)] = sympy.Lambda(variables, body)
        functions[name if arity == 1 or len([a for a in applied if a[0] == name]) == 1 else f"{name}/{arity}"] = (
            f"{name}({', '.join(str(variable) for variable in variables)}) = {sympy.sstr(body)}"
        )

    def replaced(side: Any) -> Any:
        return side.replace(
            lambda item: isinstance(item, AppliedUndef),
            lambda item: lambdas[(item.func.__name__, len(item.args))](*item.args),
        )

    return BuiltStep(replaced(built.lhs), replaced(built.rhs), built.symbols)


def _mpf(number: Any) -> mpmath.mpf:
    return mpmath.mpf(sympy.Float(number, _digits())._mpf_)


def _agree(
    left: mpmath.mpc, right: mpmath.mpc, terms: tuple[Any, ...], substitution: Mapping[sympy.Basic, Any]
) -> bool:
    difference = abs(left - right)
    if difference <= mpmath.mpf(RELATIVE_TOLERANCE) * max(abs(left), abs(right)):
        return True
    largest = mpmath.mpf(0)
    for term in terms:
        value = value_at(term, substitution)
        if value is not None:
            largest = max(largest, abs(value))
    return bool(difference <= mpmath.mpf(ZERO_FLOOR) * largest)


def _text(value: mpmath.mpc) -> str:
    real = sympy.Float(value.real, SHOWN_DIGITS)
    imaginary = sympy.Float(value.imag, SHOWN_DIGITS)
    return str(real if imaginary == 0 else real + sympy.I * imaginary)

"""The dimension of every part of a maths step, read off the maths check's parse tree, and where two disagree.

The rules are those of dimensional analysis, applied exactly (fractional exponents as fractions):

* a numeral, pi, e, i and Euler's gamma are pure numbers; 0 and infinity fit any dimension;
* the terms of a sum, the two sides of a step, the sides of a comparison or of `Eq`, the arguments of `Min`,
  `Max`, `Mod`, `atan2` and `KroneckerDelta`, and the bounds of an integral, sum or limit and its variable must
  share one dimension;
* a product multiplies dimensions, a quotient divides them; a power multiplies them by its exponent, which must
  be a pure number, and, when the base has a dimension, a number the check can read (`x^2`, `r^{3/2}`; `r^n`
  with `n` a symbol leaves the dimension undecided); `sqrt`, `cbrt` and `root(x, n)` take roots;
* `exp`, `log`, trigonometric, hyperbolic and special functions take pure numbers and give one;
  `Abs`, `re`, `im` and `conjugate` keep their argument's dimension, `sign`, `arg` and `Heaviside` give a pure
  number; `DiracDelta(x)` has the inverse of x's dimension;
* an integral multiplies by its variable's dimension, a derivative divides by each variable's (to its order),
  a sum and a limit keep their body's, a product's body must be a pure number; a function the step declares
  has the dimension the proposal gives its name.

The first disagreement found (left to right, inside out) is the result: what disagrees, both parts as read
(sympy spelling) and both dimensions. It is a proof given the declared dimensions, which it records.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

import attrs

from cgx_checks.dimension.codes import DimensionCode
from cgx_checks.dimension.declared import DIMENSIONLESS, Dimension, dimension_text, multiply, scaled
from cgx_checks.maths.read.spelling import spelled
from cgx_checks.maths.read.tree import (
    Bounds,
    Call,
    Comparison,
    Direction,
    Name,
    Negation,
    Node,
    Numeral,
    Power,
    Product,
    Sum,
)
from cgx_core.errors import CgxError

type Fits = Dimension | None
"""A part's dimension, or None for a part that fits any (0, infinity)."""

_SAME_ARGUMENTS: Final = frozenset({"Min", "Max", "Mod"})
_SAME_TO_PURE: Final = frozenset({"atan2", "KroneckerDelta", "Eq", "Ne"})
_KEEP: Final = frozenset({"Abs", "re", "im", "conjugate"})
_TO_PURE: Final = frozenset({"sign", "arg", "Heaviside"})
_ROOTS: Final = {"sqrt": Fraction(1, 2), "cbrt": Fraction(1, 3)}
_CONDITIONS: Final = frozenset({"And", "Or", "Not"})
_ANY_NAMES: Final = frozenset({"oo"})
_PURE_NAMES: Final = frozenset({"pi", "E", "I", "EulerGamma", "True", "False"})


@attrs.frozen
class Part:
    """A part of the step as read (sympy spelling) with its dimension."""

    expression: str
    dimension: str

    def to_json(self) -> dict[str, str]:
        return {"dimension": self.dimension, "expression": self.expression}


@attrs.frozen
class Mismatch:
    """Two parts that must share a dimension and do not: `where` says what they are."""

    where: str
    first: Part
    second: Part

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first.to_json(), "second": self.second.to_json(), "where": self.where}


class _Found(Exception):
    def __init__(self, mismatch: Mismatch) -> None:
        self.mismatch = mismatch


@attrs.frozen
class Analysis:
    """The dimensions of a step's two sides, or the first place two parts disagree."""

    lhs: Fits
    rhs: Fits
    mismatch: Mismatch | None


def analyse(
    lhs: Node,
    rhs: Node,
    declared: frozenset[str],
    symbols: Mapping[str, Dimension],
    functions: Mapping[str, Dimension],
) -> Analysis:
    """The dimensions of both sides of a step, every symbol's (bound variables too) given by sympy name, each
    declared function's value by name (`declared`: the declared symbols, for spelling parts). Raises CgxError
    `dimension-undecided` where a dimension depends on a value that is not a number."""
    walker = _Walker(symbols, functions, declared)
    sides: dict[str, Fits] = {}
    try:
        for side, tree in (("lhs", lhs), ("rhs", rhs)):
            try:
                sides[side] = walker.fits(tree)
            except _Found as found:
                raise _Found(attrs.evolve(found.mismatch, where=f"{found.mismatch.where} in the {side}")) from None
        walker.same("the two sides", ((lhs, sides["lhs"]), (rhs, sides["rhs"])))
    except _Found as found:
        return Analysis(sides.get("lhs"), sides.get("rhs"), found.mismatch)
    return Analysis(sides["lhs"], sides["rhs"], None)


def fits_text(fits: Fits) -> str:
    return "any (0 or infinity)" if fits is None else dimension_text(fits)


class _Walker:
    def __init__(
        self, symbols: Mapping[str, Dimension], functions: Mapping[str, Dimension], declared: frozenset[str]
    ) -> None:
        self.symbols = symbols
        self.functions = functions
        self.declared = declared

    def part(self, node: Node, fits: Fits) -> Part:
        return Part(spelled(node, self.declared), fits_text(fits))

    def same(self, where: str, parts: tuple[tuple[Node, Fits], ...]) -> Fits:
        """The one dimension the parts share (None when every part fits any), or `_Found` at the first that
        differs from the first with a dimension."""
        first: tuple[Node, Dimension] | None = None
        for node, fits in parts:
            if fits is None:
                continue
            if first is None:
                first = (node, fits)
            elif fits != first[1]:
                raise _Found(Mismatch(where, self.part(first[0], first[1]), self.part(node, fits)))
        return None if first is None else first[1]

    def pure(self, where: str, node: Node) -> None:
        fits = self.fits(node)
        if fits not in (None, DIMENSIONLESS):
            raise _Found(Mismatch(where, self.part(node, fits), Part("a pure number", "dimensionless")))

    def fits(self, node: Node) -> Fits:
        match node:
            case Numeral():
                return None if node.value == 0 else DIMENSIONLESS
            case Name():
                return self._name(node)
            case Negation():
                return self.fits(node.operand)
            case Sum():
                return self.same("the terms of a sum", tuple((term, self.fits(term)) for _, term in node.terms))
            case Product():
                total: Fits = DIMENSIONLESS
                for sign, factor in node.factors:
                    found = self.fits(factor)
                    total = None if found is None or total is None else multiply(total, found, Fraction(sign))
                return total
            case Power():
                return self._power(node)
            case Call():
                return self._call(node)
            case Comparison():
                self.same(
                    "the sides of a comparison", tuple((operand, self.fits(operand)) for operand in node.operands)
                )
                return DIMENSIONLESS
            case Bounds() | Direction():
                return DIMENSIONLESS
        raise AssertionError(node)

    def _name(self, node: Name) -> Fits:
        if not node.constant and node.name in self.symbols:
            return self.symbols[node.name]
        if node.name in _ANY_NAMES:
            return None
        if node.name in _PURE_NAMES:
            return DIMENSIONLESS
        raise CgxError(  # parse_step refuses an undeclared name before this
            DimensionCode.DIMENSION_UNDECIDED, f"{node.name} has no declared dimension"
        )

    def _power(self, node: Power) -> Fits:
        base = self.fits(node.base)
        self.pure("an exponent", node.exponent)
        if base is None or base == DIMENSIONLESS:
            return base
        exponent = number_of(node.exponent)
        if exponent is None:
            raise CgxError(
                DimensionCode.DIMENSION_UNDECIDED,
                f"{spelled(node.base, self.declared)} has the dimension {dimension_text(base)} and is raised to "
                f"{spelled(node.exponent, self.declared)}, which is not a number, so the power's dimension is unknown",
            )
        return scaled(base, exponent)

    def _call(self, node: Call) -> Fits:
        name, arguments = node.name, node.arguments
        if name in self.functions:
            for argument in arguments:
                self.fits(argument)
            return self.functions[name]
        if name in _CONDITIONS:
            for argument in arguments:
                self.fits(argument)
            return DIMENSIONLESS
        if name in ("Integral", "Derivative", "Limit", "Subs", "Sum", "Product"):
            return self._calculus(name, arguments)
        found = [(argument, self.fits(argument)) for argument in arguments]
        if name in _ROOTS or name == "root":
            power = _ROOTS.get(name) or _inverse(number_of(arguments[1]) if len(arguments) > 1 else None)
            inner = found[0][1]
            if name == "root":
                self.pure("the order of a root", arguments[1])
            if inner is None or inner == DIMENSIONLESS:
                return inner
            if power is None:
                raise CgxError(
                    DimensionCode.DIMENSION_UNDECIDED,
                    f"the root of {spelled(arguments[0], self.declared)} ({dimension_text(inner)}) has an order that "
                    "is not a number, so its dimension is unknown",
                )
            return scaled(inner, power)
        if name in _KEEP:
            return found[0][1]
        if name in _TO_PURE:
            return DIMENSIONLESS
        if name in _SAME_ARGUMENTS:
            return self.same(f"the arguments of {name}", tuple(found))
        if name in _SAME_TO_PURE:
            self.same(f"the arguments of {name}", tuple(found))
            return DIMENSIONLESS
        if name == "DiracDelta":
            inner = found[0][1]
            order = number_of(arguments[1]) if len(arguments) > 1 else Fraction(0)
            if inner is None or inner == DIMENSIONLESS:
                return inner
            if order is None:
                raise CgxError(DimensionCode.DIMENSION_UNDECIDED, "a DiracDelta derivative's order is not a number")
            return scaled(inner, -1 - order)
        for argument, fits in found:
            if fits not in (None, DIMENSIONLESS):
                raise _Found(
                    Mismatch(
                        f"the argument of {name}", self.part(argument, fits), Part("a pure number", "dimensionless")
                    )
                )
        return DIMENSIONLESS

    def _calculus(self, name: str, arguments: tuple[Node, ...]) -> Fits:
        body, *rest = arguments
        fits = self.fits(body)
        if name in ("Limit", "Subs"):
            point = ((rest[0], self.fits(rest[0])), (rest[1], self.fits(rest[1])))
            self.same(f"the variable and point of {'a limit' if name == 'Limit' else 'a substitution'}", point)
            return fits
        if name == "Derivative":
            return self._derivative(fits, rest)
        what = "an integral" if name == "Integral" else f"a {name.lower()}"
        for spec in rest:
            variable, bounds = (spec.items[0], spec.items[1:]) if isinstance(spec, Bounds) else (spec, ())
            variable_fits = self.fits(variable)
            parts = ((variable, variable_fits), *((bound, self.fits(bound)) for bound in bounds))
            self.same(f"the variable and bounds of {what}", parts)
            if name == "Integral" and fits is not None and variable_fits is not None:
                fits = multiply(fits, variable_fits)
        if name == "Product":
            self.pure("the factor of a product", body)
        return fits

    def _derivative(self, fits: Fits, rest: list[Node]) -> Fits:
        last: Fits = DIMENSIONLESS
        for item in rest:
            if isinstance(item, Bounds):
                variable, order = self.fits(item.items[0]), number_of(item.items[1])
            elif isinstance(item, Numeral):
                variable, order = last, item.value - 1
            else:
                variable, order = self.fits(item), Fraction(1)
            last = variable
            if fits is not None and variable is not None and order is not None:
                fits = multiply(fits, variable, -order)
        return fits


def number_of(node: Node) -> Fraction | None:
    """The exact value of a part written with numerals only (`2`, `-1/2`, `3/2`, `2^-1`), else None."""
    match node:
        case Numeral():
            return node.value
        case Negation():
            inner = number_of(node.operand)
            return None if inner is None else -inner
        case Sum():
            total = Fraction(0)
            for sign, term in node.terms:
                value = number_of(term)
                if value is None:
                    return None
                total += sign * value
            return total
        case Product():
            product = Fraction(1)
            for sign, factor in node.factors:
                value = number_of(factor)
                if value is None or (sign < 0 and value == 0):
                    return None
                product = product * value if sign > 0 else product / value
            return product
        case Power():
            base, exponent = number_of(node.base), number_of(node.exponent)
            if base is None or exponent is None or exponent.denominator != 1 or abs(exponent) > 64 or base == 0:
                return None
            return base ** int(exponent)
    return None


def _inverse(value: Fraction | None) -> Fraction | None:
    return None if value is None or value == 0 else 1 / value

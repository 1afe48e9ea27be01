"""Build the sympy objects of a parsed maths step, straight from our tree (never `sympify`/`parse_expr`).

Only a step that passed `read.step.parse_step` is built, so every power, numeral and product is already
known to be within the caps. sympy still evaluates as it builds (`(2*x)**3` is `8*x**3`; `re((x+I)**300)`
expands), which no structural cap bounds tightly: building runs in the worker process, under its budget,
except in tests. A function of the vocabulary is sympy's object of the same name (`sympy_function`), and a
test checks that every one builds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import sympy
from sympy.core.function import AppliedUndef

from cgx_checks.maths.read.encoding import canonical_assumptions, sympy_assumptions
from cgx_checks.maths.read.points import Value
from cgx_checks.maths.read.step import ParsedStep
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
from cgx_checks.maths.read.vocabulary import MATRICES, resolve_function
from cgx_core.codes import Code
from cgx_core.errors import CgxError

CONSTANTS: Final[Mapping[str, Any]] = {
    "I": sympy.I,
    "pi": sympy.pi,
    "E": sympy.E,
    "oo": sympy.oo,
    "EulerGamma": sympy.EulerGamma,
    "True": sympy.true,
    "False": sympy.false,
}
_RENAMED: Final[Mapping[str, Callable[..., Any]]] = {"E1": lambda x: sympy.expint(1, x)}
"""The functions of `read.vocabulary.FUNCTIONS` that are not sympy's own names (every other is)."""


def sympy_function(name: str) -> Callable[..., Any]:
    """The sympy object of a function of the vocabulary (the calculus and matrix ones are built apart)."""
    return _RENAMED.get(name) or getattr(sympy, name)


CALCULUS: Final = (sympy.Integral, sympy.Derivative, sympy.Limit, sympy.Sum, sympy.Product, sympy.Subs)
"""The unevaluated calculus objects: a value holding one is not an exact number."""

_RELATIONS: Final[Mapping[str, Callable[[Any, Any], Any]]] = {
    "<": sympy.Lt,
    "<=": sympy.Le,
    ">": sympy.Gt,
    ">=": sympy.Ge,
    "=": sympy.Eq,
    "!=": sympy.Ne,
}


@attrs.frozen
class BuiltStep:
    """The two sides as sympy objects (expressions, or conditions), and the declared symbols by name."""

    lhs: Any
    rhs: Any
    symbols: Mapping[str, sympy.Symbol]


def symbols_of(step: ParsedStep) -> dict[str, sympy.Symbol]:
    """A sympy Symbol for each declared symbol, by sympy name, with its assumptions."""
    return {name: sympy.Symbol(name, **sympy_assumptions(assumptions)) for name, assumptions in step.encoding.symbols}


def canonical_symbols(step: ParsedStep) -> dict[str, sympy.Symbol]:
    """Symbols with the canonical assumptions of their domains (two spellings of a domain, one symbol)."""
    return {
        name: sympy.Symbol(name, **sympy_assumptions(canonical_assumptions(step.encoding.domain(name))))
        for name, _ in step.encoding.symbols
    }


def build_step(
    step: ParsedStep, *, evaluate: bool = True, symbols: Mapping[str, sympy.Symbol] | None = None
) -> BuiltStep:
    """Both sides as sympy objects.

    With `evaluate=False` sympy keeps each side as written (`re((x+I)**1000)` is not expanded): the
    numeric fallback builds so, then substitutes numbers, which is cheap where building was not.
    """
    chosen = dict(symbols) if symbols is not None else symbols_of(step)
    builder = _Builder(chosen, dict(step.encoding.aliases), frozenset(step.encoding.functions))
    with sympy.evaluate(evaluate):
        return BuiltStep(builder.build(step.lhs), builder.build(step.rhs), chosen)


def build(node: Node, symbols: Mapping[str, sympy.Symbol]) -> Any:
    """The sympy object of a node over the given symbols (no declared functions or aliases)."""
    return _Builder(dict(symbols), {}, frozenset()).build(node)


@attrs.frozen
class _Builder:
    symbols: Mapping[str, sympy.Symbol]
    aliases: Mapping[str, str]
    functions: frozenset[str]

    def build(self, node: Node) -> Any:
        """The sympy object of a node (recursive: the tree's depth is bounded by `limits.MAX_DEPTH`)."""
        match node:
            case Numeral():
                return sympy.Rational(node.value.numerator, node.value.denominator)
            case Name():
                return self._name(node)
            case Negation():
                return sympy.Mul(sympy.S.NegativeOne, self.build(node.operand))
            case Sum():
                terms = [(sign, self.build(term)) for sign, term in node.terms]
                if any(isinstance(term, sympy.MatrixBase) for _, term in terms):
                    return _matrices(lambda: sum((term * sign for sign, term in terms[1:]), terms[0][1] * terms[0][0]))
                return sympy.Add(*(term if sign > 0 else sympy.Mul(sympy.S.NegativeOne, term) for sign, term in terms))
            case Product():
                factors = [(operator, self.build(factor)) for operator, factor in node.factors]
                if any(isinstance(factor, sympy.MatrixBase) for _, factor in factors):
                    return _matrices(lambda: _matrix_product(factors))
                return sympy.Mul(
                    *(
                        factor if operator > 0 else sympy.Pow(factor, sympy.S.NegativeOne)
                        for operator, factor in factors
                    )
                )
            case Power():
                base, exponent = self.build(node.base), self.build(node.exponent)
                if isinstance(base, sympy.MatrixBase):
                    return _matrices(lambda: base**exponent)
                return sympy.Pow(base, exponent)
            case Comparison():
                pairs = [
                    _RELATIONS[operator](self.build(left), self.build(right))
                    for operator, left, right in zip(node.operators, node.operands, node.operands[1:], strict=False)
                ]
                return pairs[0] if len(pairs) == 1 else sympy.And(*pairs)
            case Call():
                return self._call(node)
            case Bounds() | Direction():
                raise ValueError("bounds and directions are built by their call")

    def _name(self, node: Name) -> Any:
        if not node.constant and node.name in self.symbols:
            return self.symbols[node.name]
        return CONSTANTS[self.aliases.get(node.name, node.name)]

    def _call(self, node: Call) -> Any:
        if node.name in self.functions:
            return sympy.Function(node.name)(*(self.build(argument) for argument in node.arguments))
        name = self.aliases.get(node.name, node.name)
        resolved = resolve_function(name)
        assert resolved is not None, name
        if resolved in ("Integral", "Derivative", "Sum", "Product", "Subs"):
            body = self.build(node.arguments[0])
            specs = [self._spec(spec) for spec in node.arguments[1:]]
            return getattr(sympy, resolved)(body, *specs)
        if resolved in MATRICES:
            return self._matrix(resolved, node)
        if resolved == "Limit":
            body, variable, point = (self.build(argument) for argument in node.arguments[:3])
            if len(node.arguments) == 4:
                direction = node.arguments[3]
                assert isinstance(direction, Direction)
                return sympy.Limit(body, variable, point, direction.sign)
            if point.is_infinite:
                return sympy.Limit(body, variable, point)
            return sympy.Limit(body, variable, point, "+-")
        arguments = [self.build(argument) for argument in node.arguments]
        try:
            return sympy_function(resolved)(*arguments)
        except (ValueError, TypeError) as error:  # a value outside the function's domain: DiracDelta(I)
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"sympy refuses {resolved} at column {node.column} for these arguments: {str(error).strip()[:160]}",
            ) from None

    def _matrix(self, name: str, node: Call) -> Any:
        """A matrix, or what det, trace, transpose, inverse and entry make of one, computed with sympy's
        evaluation on (its matrix algebra needs it): a determinant is its exact polynomial in the entries."""
        if name == "Matrix":
            rows = [
                [self.build(item) for item in (row.items if isinstance(row, Bounds) else (row,))]
                for row in node.arguments
            ]
            return _matrices(lambda: sympy.ImmutableMatrix(rows))
        matrix = self.build(node.arguments[0])
        if name == "entry":
            row, column = (int(self.build(index)) - 1 for index in node.arguments[1:])
            return matrix[row, column]
        operations: dict[str, Callable[[Any], Any]] = {
            "det": lambda value: value.det(method="berkowitz"),
            "trace": lambda value: value.trace(),
            "transpose": lambda value: value.T,
            "inverse": lambda value: value.inv(),
        }
        return _matrices(lambda: operations[name](matrix))

    def _spec(self, spec: Node) -> Any:
        if isinstance(spec, Bounds):
            return tuple(self.build(item) for item in spec.items)
        return self.build(spec)


def _matrices(operation: Callable[[], Any]) -> Any:
    """Matrix algebra, with sympy's evaluation on whatever the builder's setting (it recurses without it)."""
    with sympy.evaluate(True):
        return operation()


def _matrix_product(factors: list[tuple[int, Any]]) -> Any:
    """Factors multiplied in order (the shape allowed a matrix only as a factor, never as a divisor)."""
    product = sympy.S.One
    for operator, factor in factors:
        product = product * (factor if operator > 0 else 1 / factor)
    return product


def free_symbols(*expressions: Any) -> set[sympy.Symbol]:
    """The free symbols of some sympy objects (a bound integration or summation variable is not free)."""
    found: set[sympy.Symbol] = set()
    for expression in expressions:
        found |= {symbol for symbol in expression.free_symbols if isinstance(symbol, sympy.Symbol)}
    return found


def substitution(built: BuiltStep, point: Mapping[str, Value]) -> dict[sympy.Basic, Any]:
    """A point as sympy's substitution: each symbol of the built step to its exact value there."""
    return {
        built.symbols[name]: sympy.Rational(real.numerator, real.denominator)
        + sympy.I * sympy.Rational(imaginary.numerator, imaginary.denominator)
        for name, (real, imaginary) in point.items()
    }


def substitute(expression: Any, substitution: Mapping[sympy.Basic, sympy.Basic]) -> Any:
    """An expression with numbers in place of its free symbols: `xreplace` (exact, fast), or `subs` when
    it holds a calculus object, whose bound variables must be left alone."""
    if expression.has(*CALCULUS):
        free = {symbol: value for symbol, value in substitution.items() if symbol in expression.free_symbols}
        return expression.subs(free, simultaneous=True)
    return expression.xreplace(substitution)


def at_point(expression: Any, substitution: Mapping[sympy.Basic, sympy.Basic]) -> Any:
    """An expression with numbers in place of its symbols, evaluated exactly as far as sympy goes.

    `doit` rebuilds every node with evaluation on, so a side built as written (where `1 - 1` stays a sum)
    gives exact numbers too: `evalf` of an unevaluated `(1 - 1)^2` is noise near 1e-330, not 0.
    """
    return substitute(expression, substitution).doit()


_INFINITE: Final = (
    sympy.core.numbers.Infinity,
    sympy.core.numbers.NegativeInfinity,
    sympy.core.numbers.ComplexInfinity,
    sympy.core.numbers.NaN,
)


def undefined(expression: Any) -> bool:
    """Whether sympy evaluated an expression to something undefined or infinite (zoo, nan, oo), outside
    the bounds of an integral, sum or limit (where oo is a bound, not a value)."""
    pending = [expression]
    while pending:
        node = pending.pop()
        if isinstance(node, _INFINITE):
            return True
        if isinstance(node, CALCULUS):
            pending.append(node.args[0])
            continue
        pending.extend(node.args)
    return False


def inexact(expression: Any) -> bool:
    """Whether a value still holds something no exact evaluation gives: an unevaluated integral, sum,
    product, limit or derivative, or a declared (undefined) function."""
    return bool(expression.has(*CALCULUS) or expression.atoms(AppliedUndef))

"""Build the sympy objects of a parsed maths step, straight from our tree (never `sympify`/`parse_expr`).

Only a step that passed `structure.parse_step` is built, so every power, numeral and product is already
known to be within the caps. sympy still evaluates as it builds (`(2*x)**3` is `8*x**3`; `re((x+I)**300)`
expands), which no structural cap bounds tightly: building runs in the worker process, under its budget,
except in tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import sympy

from cgx_checks.maths.encoding import sympy_assumptions
from cgx_checks.maths.structure import ParsedStep
from cgx_checks.maths.tree import Call, Name, Negation, Node, Numeral, Power, Product, Sum

_CONSTANTS: Final[Mapping[str, sympy.Expr]] = {"I": sympy.I, "pi": sympy.pi, "E": sympy.E}
_FUNCTIONS: Final[Mapping[str, Callable[..., Any]]] = {
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "cot": sympy.cot,
    "sec": sympy.sec,
    "csc": sympy.csc,
    "asin": sympy.asin,
    "acos": sympy.acos,
    "atan": sympy.atan,
    "acot": sympy.acot,
    "sinh": sympy.sinh,
    "cosh": sympy.cosh,
    "tanh": sympy.tanh,
    "coth": sympy.coth,
    "asinh": sympy.asinh,
    "acosh": sympy.acosh,
    "atanh": sympy.atanh,
    "exp": sympy.exp,
    "log": sympy.log,
    "sqrt": sympy.sqrt,
    "Abs": sympy.Abs,
    "sign": sympy.sign,
    "re": sympy.re,
    "im": sympy.im,
    "arg": sympy.arg,
    "conjugate": sympy.conjugate,
}


@attrs.frozen
class BuiltStep:
    """The two sides as sympy expressions, and the declared symbols by name."""

    lhs: sympy.Expr
    rhs: sympy.Expr
    symbols: Mapping[str, sympy.Symbol]


def symbols_of(step: ParsedStep) -> dict[str, sympy.Symbol]:
    """A sympy Symbol for each declared symbol, with its assumptions."""
    return {name: sympy.Symbol(name, **sympy_assumptions(assumptions)) for name, assumptions in step.encoding.symbols}


def build_step(step: ParsedStep, *, evaluate: bool = True) -> BuiltStep:
    """Both sides as sympy expressions.

    With `evaluate=False` sympy keeps each side as written (`re((x+I)**1000)` is not expanded): the
    numeric fallback builds so, then substitutes numbers, which is cheap where building was not.
    """
    symbols = symbols_of(step)
    with sympy.evaluate(evaluate):
        return BuiltStep(build(step.lhs, symbols), build(step.rhs, symbols), symbols)


def build(node: Node, symbols: Mapping[str, sympy.Symbol]) -> sympy.Expr:
    """The sympy expression of a node (recursive: the tree's depth is bounded by `limits.MAX_DEPTH`)."""
    match node:
        case Numeral():
            return sympy.Rational(node.value.numerator, node.value.denominator)
        case Name():
            return symbols[node.name] if node.name in symbols else _CONSTANTS[node.name]
        case Negation():
            return sympy.Mul(sympy.S.NegativeOne, build(node.operand, symbols))
        case Sum():
            return sympy.Add(
                *(
                    term if sign > 0 else sympy.Mul(sympy.S.NegativeOne, term)
                    for sign, term in ((sign, build(term, symbols)) for sign, term in node.terms)
                )
            )
        case Product():
            return sympy.Mul(
                *(
                    factor if operator > 0 else sympy.Pow(factor, sympy.S.NegativeOne)
                    for operator, factor in ((operator, build(factor, symbols)) for operator, factor in node.factors)
                )
            )
        case Power():
            return sympy.Pow(build(node.base, symbols), build(node.exponent, symbols))
        case Call():
            result: sympy.Expr = _FUNCTIONS[node.name](*(build(argument, symbols) for argument in node.arguments))
            return result


def at_point(expression: sympy.Expr, substitution: Mapping[sympy.Basic, sympy.Basic]) -> sympy.Expr:
    """An expression with numbers in place of its symbols, evaluated exactly as far as sympy goes.

    `doit` rebuilds every node with evaluation on, so a side built as written (where `1 - 1` stays a sum)
    gives exact numbers too: `evalf` of an unevaluated `(1 - 1)^2` is noise near 1e-330, not 0.
    """
    result: sympy.Expr = expression.xreplace(substitution).doit()
    return result


def undefined(expression: sympy.Expr) -> bool:
    """Whether sympy evaluated an expression to something undefined or infinite (zoo, nan, oo)."""
    return bool(expression.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo))

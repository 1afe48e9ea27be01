"""The parse tree of a maths expression: small frozen nodes, built by the parser as it reduces.

The tree is ours, not lark's and not sympy's: checking names, sizes and degree on it costs nothing and
builds no sympy object, so a hostile expression is refused before any expensive work. Every node knows
its depth, so a walk over a tree that passed `limits.MAX_DEPTH` cannot overflow the stack.
"""

from __future__ import annotations

from fractions import Fraction

import attrs


@attrs.frozen
class Numeral:
    """A numeral, with the exact value its digits write."""

    value: Fraction
    text: str
    column: int
    depth: int = 1


@attrs.frozen
class Name:
    """A symbol or a constant (I, pi, E, oo), by its sympy name, resolved against the encoding later.

    `constant` is set when the spelling itself says constant (LaTeX `e` and `\\pi`), so that a declared
    symbol E (an energy) does not take the place of Euler's number e."""

    name: str
    column: int
    depth: int = 1
    constant: bool = False


@attrs.frozen
class Call:
    """A call of a named function: one of the vocabulary's (by its vocabulary name, an alias already read
    as its function) or a function the encoding declares."""

    name: str
    arguments: tuple[Node, ...]
    column: int
    depth: int


@attrs.frozen
class Negation:
    """A minus sign in front of a factor (repeated signs fold as they are parsed)."""

    operand: Node
    depth: int


@attrs.frozen
class Sum:
    """Terms added (+1) or subtracted (-1), flat."""

    terms: tuple[tuple[int, Node], ...]
    depth: int


@attrs.frozen
class Product:
    """Factors multiplied (+1) or divided by (-1), flat."""

    factors: tuple[tuple[int, Node], ...]
    depth: int


@attrs.frozen
class Power:
    """A base raised to an exponent (`^` or `**`)."""

    base: Node
    exponent: Node
    column: int
    depth: int


@attrs.frozen
class Bounds:
    """The bounds of an integral, sum or product, `(x, a, b)`, or a tuple of a Derivative `(x, 2)`."""

    items: tuple[Node, ...]
    column: int
    depth: int


@attrs.frozen
class Direction:
    """The side a one-sided limit approaches from: "+" (from above) or "-" (from below)."""

    sign: str
    column: int
    depth: int = 1


@attrs.frozen
class Comparison:
    """A chain of comparisons, `a < b <= c`: every adjacent pair holds. Operators: < <= > >= = !=."""

    operands: tuple[Node, ...]
    operators: tuple[str, ...]
    column: int
    depth: int


type Node = Numeral | Name | Call | Negation | Sum | Product | Power | Bounds | Direction | Comparison


def column_of(node: Node) -> int:
    """The column where a node starts, for messages (1-based)."""
    while True:
        match node:
            case Numeral() | Name() | Call() | Bounds() | Direction() | Comparison():
                return node.column
            case Negation():
                node = node.operand
            case Sum():
                node = node.terms[0][1]
            case Product():
                node = node.factors[0][1]
            case Power():
                node = node.base

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
    """A symbol or a constant (I, pi, E), resolved against the encoding later."""

    name: str
    column: int
    depth: int = 1


@attrs.frozen
class Call:
    """A call of a named function."""

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


type Node = Numeral | Name | Call | Negation | Sum | Product | Power


def column_of(node: Node) -> int:
    """The column where a node starts, for messages (1-based)."""
    while True:
        match node:
            case Numeral() | Name() | Call():
                return node.column
            case Negation():
                node = node.operand
            case Sum():
                node = node.terms[0][1]
            case Product():
                node = node.factors[0][1]
            case Power():
                node = node.base

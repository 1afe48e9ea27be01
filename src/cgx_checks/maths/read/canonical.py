"""A side as written, canonically: sums and products in a fixed order, numerals as exact fractions.

Two uses read it, one on each side of the pipe: `read.step` refuses a step whose two sides are the same
as written (`step-trivial`), and the worker's observation key (`worker.observation`) keys a step too
large to expand, or a condition, on its sides so written. It builds nothing of sympy.
"""

from __future__ import annotations

from cgx_checks.maths.read.points import exact_text
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


def canonical_text(node: Node, declared: frozenset[str] = frozenset()) -> str:
    """A side as written, canonically: the same text for `x*2 + 1` and `1 + 2*x`, for `0.5` and `1/2`.

    A constant that a declared symbol's name shadows (LaTeX's e beside a declared E) is marked apart."""
    return _Canonical(declared).text(node)


class _Canonical:
    def __init__(self, declared: frozenset[str]) -> None:
        self.declared = declared

    def text(self, node: Node) -> str:
        match node:
            case Numeral():
                return exact_text(node.value)
            case Name():
                return f"constant({node.name})" if node.constant and node.name in self.declared else node.name
            case Negation():
                return f"-({self.text(node.operand)})"
            case Sum():
                terms = sorted(("+" if sign > 0 else "-") + self.text(term) for sign, term in node.terms)
                return f"sum({','.join(terms)})"
            case Product():
                factors = [("*" if operator > 0 else "/") + self.text(factor) for operator, factor in node.factors]
                # Matrices do not commute: a product holding one keeps its order (A*B is not B*A).
                ordered = factors if any(_holds_matrix(factor) for _, factor in node.factors) else sorted(factors)
                return f"product({','.join(ordered)})"
            case Power():
                return f"power({self.text(node.base)},{self.text(node.exponent)})"
            case Call():
                return f"{node.name}({','.join(self.text(argument) for argument in node.arguments)})"
            case Bounds():
                return f"bounds({','.join(self.text(item) for item in node.items)})"
            case Direction():
                return f"direction({node.sign})"
            case Comparison():
                parts = [self.text(node.operands[0])]
                for operator, operand in zip(node.operators, node.operands[1:], strict=True):
                    parts.extend((operator, self.text(operand)))
                return f"compare({','.join(parts)})"


def _holds_matrix(node: Node) -> bool:
    """Whether a factor is, or may be, a matrix: it writes Matrix, transpose or inverse outside a det, trace
    or entry (which make numbers of them)."""
    match node:
        case Call(name="Matrix" | "transpose" | "inverse"):
            return True
        case Call(name="det" | "trace" | "entry"):
            return False
        case Call():
            return any(_holds_matrix(argument) for argument in node.arguments)
        case Negation():
            return _holds_matrix(node.operand)
        case Power():
            return _holds_matrix(node.base)
        case Sum():
            return any(_holds_matrix(term) for _, term in node.terms)
        case Product():
            return any(_holds_matrix(factor) for _, factor in node.factors)
    return False

"""A side written back in sympy spelling, from the tree: what a LaTeX side was read as, for a person.

The check records, beside the paper's LaTeX, the sympy spelling of each side it read from it, so that a
reader can audit the reading (`2r\\cos\\beta q^{-1}` as `2*r*cos(beta)*q^(-1)`). The text parses back, with
`parse.parse_side`, to the same tree (a test checks the round trip).
"""

from __future__ import annotations

import re
from typing import Final

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

_NUMERAL: Final = re.compile(r"[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_SHADOWED: Final = {"E": "exp(1)", "I": "sqrt(-1)"}


def spelled(node: Node, declared: frozenset[str] = frozenset()) -> str:
    """The sympy spelling of a tree; `declared` names the declared symbols (a constant E or I that a
    declared symbol shadows is written exp(1) or sqrt(-1))."""
    return _Speller(declared).text(node)


class _Speller:
    def __init__(self, declared: frozenset[str]) -> None:
        self.declared = declared

    def text(self, node: Node) -> str:
        match node:
            case Numeral():
                if _NUMERAL.fullmatch(node.text):
                    return node.text
                shown = exact_text(node.value)
                return f"({shown})" if "/" in shown or shown.startswith("-") else shown
            case Name():
                if node.constant and node.name in self.declared:
                    return _SHADOWED.get(node.name, node.name)
                return node.name
            case Negation():
                return f"-{self._tight(node.operand)}"
            case Sum():
                terms = [(sign, self._in_sum(term)) for sign, term in node.terms]
                return _chain(terms, "-", ("+ ", "- "), " ")
            case Product():
                factors = [(operator, self._in_product(factor)) for operator, factor in node.factors]
                return _chain(factors, "1/", ("*", "/"), "")
            case Power():
                return f"{self._atomic(node.base)}^{self._atomic(node.exponent)}"
            case Call() if node.name == "Matrix":
                rows = (row.items if isinstance(row, Bounds) else (row,) for row in node.arguments)
                return f"Matrix([{', '.join('[' + ', '.join(self.text(item) for item in row) + ']' for row in rows)}])"
            case Call():
                return f"{node.name}({', '.join(self.text(argument) for argument in node.arguments)})"
            case Bounds():
                return f"({', '.join(self.text(item) for item in node.items)})"
            case Direction():
                return f"'{node.sign}'"
            case Comparison():
                if all(operator in ("<", "<=", ">", ">=") for operator in node.operators):
                    parts = [self.text(node.operands[0])]
                    for relation, operand in zip(node.operators, node.operands[1:], strict=True):
                        parts.append(f"{relation} {self.text(operand)}")
                    return " ".join(parts)
                pairs = []
                for relation, left, right in zip(node.operators, node.operands, node.operands[1:], strict=False):
                    if relation in ("=", "!="):
                        pairs.append(f"{'Eq' if relation == '=' else 'Ne'}({self.text(left)}, {self.text(right)})")
                    else:
                        pairs.append(f"{self.text(left)} {relation} {self.text(right)}")
                return pairs[0] if len(pairs) == 1 else f"And({', '.join(pairs)})"

    def _in_sum(self, node: Node) -> str:
        return f"({self.text(node)})" if isinstance(node, Sum | Negation | Comparison) else self.text(node)

    def _in_product(self, node: Node) -> str:
        return f"({self.text(node)})" if isinstance(node, Sum | Negation | Product | Comparison) else self.text(node)

    def _tight(self, node: Node) -> str:
        if isinstance(node, Name | Call | Power) or (isinstance(node, Numeral) and _NUMERAL.fullmatch(node.text)):
            return self.text(node)
        return f"({self.text(node)})"

    def _atomic(self, node: Node) -> str:
        if isinstance(node, Name | Call) or (isinstance(node, Numeral) and _NUMERAL.fullmatch(node.text)):
            return self.text(node)
        return f"({self.text(node)})"


def _chain(operands: list[tuple[int, str]], inverse: str, operators: tuple[str, str], joiner: str) -> str:
    """Operands, each with its sign (+1, or -1 for a subtracted term or a divisor), as one chain: `a + b - c`,
    `a*b/c`; a first operand with sign -1 is written with `inverse` (`-a`, `1/a`)."""
    parts = []
    for index, (sign, shown) in enumerate(operands):
        if index == 0:
            parts.append(shown if sign > 0 else f"{inverse}{shown}")
        else:
            parts.append(f"{operators[0] if sign > 0 else operators[1]}{shown}")
    return joiner.join(parts)

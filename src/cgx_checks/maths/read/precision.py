"""The printed constants of a step: decimals a paper writes inside an expression (`1.3\\times10^{-7}\\sqrt{\\tau}`),
each standing for an interval, half a unit of its last digit either side (1.3 is 1.3 +- 0.05).

A bare number on one side is read to its rounding already (`read.step`, `worker.rounding`). A printed constant
inside an expression keeps its precision too: a step that fails with the constant as written is decided again
with the constant free within its interval (`worker.precision`). Here, without sympy, the constants are found
and, for that second decision, replaced by symbols of their own (the step's other symbols unchanged).
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from cgx_checks.maths.read.step import ParsedStep, half_unit
from cgx_checks.maths.read.tree import Bounds, Call, Comparison, Name, Negation, Node, Numeral, Power, Product, Sum


@attrs.frozen
class Printed:
    """One printed constant: the symbol that stands for it, its digits as written, value and half-unit."""

    name: str
    text: str
    value: Fraction
    tolerance: Fraction


def printed(text: str) -> bool:
    """Whether a numeral's digits carry a precision (a decimal point or a power of ten): an integer is exact."""
    return any(mark in text for mark in ".eE")


def freed(step: ParsedStep) -> tuple[ParsedStep, tuple[Printed, ...]]:
    """The step with each printed constant (outside a side that is a bare reported number) replaced by a real
    symbol of its own, and the constants in order of appearance; the same step and () when it has none."""
    found: list[Printed] = []
    taken = set(step.encoding.names)

    def walk(node: Node) -> Node:
        match node:
            case Numeral() if printed(node.text):
                index = len(found) + 1
                name = f"printed_{index}"
                while name in taken:
                    index += 1
                    name = f"printed_{index}"
                taken.add(name)
                found.append(Printed(name, node.text, node.value, half_unit(node.text)))
                return Name(name, node.column)
            case Negation():
                return attrs.evolve(node, operand=walk(node.operand))
            case Sum():
                return attrs.evolve(node, terms=tuple((sign, walk(term)) for sign, term in node.terms))
            case Product():
                return attrs.evolve(node, factors=tuple((sign, walk(factor)) for sign, factor in node.factors))
            case Power():
                return attrs.evolve(node, base=walk(node.base), exponent=walk(node.exponent))
            case Call():
                return attrs.evolve(node, arguments=tuple(walk(argument) for argument in node.arguments))
            case Bounds():
                return attrs.evolve(node, items=tuple(walk(item) for item in node.items))
            case Comparison():
                return attrs.evolve(node, operands=tuple(walk(operand) for operand in node.operands))
        return node

    lhs, rhs = walk(step.lhs), walk(step.rhs)
    if not found:
        return step, ()
    symbols = tuple(sorted((*step.encoding.symbols, *((item.name, ("real",)) for item in found))))
    encoding = attrs.evolve(step.encoding, symbols=symbols)
    return attrs.evolve(step, encoding=encoding, lhs=lhs, rhs=rhs), tuple(found)

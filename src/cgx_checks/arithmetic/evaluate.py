"""Evaluate an expression tree exactly, in bounded time and memory.

Values are reduced fractions kept as two ints while computing (cheaper than `Fraction`'s operator
protocol, and the same exact arithmetic); the result is a `Fraction`. Nothing is ever a float.

Bounds, each checked before the work it would cost:

* an exponent must be a whole number (`exponent-not-whole`: 2**0.5 is not a rational) no larger than
  MAX_EXPONENT in magnitude (`exponent-too-large`: 10**10**10);
* the size of a power is estimated from its base before it is computed, and every other result is measured
  as soon as it exists (`result-too-large`): `((2**100)**100)**100` keeps each exponent small but would need
  a million bits;
* dividing by zero, or raising zero to a negative power, is `division-by-zero`.

The walk is iterative, so no tree is too deep to evaluate.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import NoReturn

from cgx_checks.arithmetic.limits import MAX_EXPONENT, MAX_RESULT_BITS
from cgx_checks.arithmetic.tree import Binary, Literal, Node, Unary, render
from cgx_core.codes import Code
from cgx_core.errors import CgxError

type _Pair = tuple[int, int]

_SHOWN = 80  # characters of a subexpression quoted in an error message


def evaluate(node: Node) -> Fraction:
    """The exact value of an expression tree, or CgxError with one of the codes above."""
    numerator, denominator = evaluate_pair(node)
    return Fraction(numerator, denominator)


def evaluate_pair(node: Node) -> _Pair:
    """The exact value as a reduced (numerator, denominator) with a positive denominator."""
    values: list[_Pair] = []
    # A node still to evaluate, or a 1-tuple holding an operation whose operands are on `values`.
    stack: list[Node | tuple[Unary | Binary]] = [node]
    pop = stack.pop
    push = stack.append
    while stack:
        item = pop()
        if isinstance(item, Literal):
            values.append((item.numerator, item.denominator))
        elif isinstance(item, Binary):
            push((item,))
            push(item.right)
            push(item.left)
        elif isinstance(item, Unary):
            push((item,))
            push(item.operand)
        else:
            operation = item[0]
            if isinstance(operation, Unary):
                if operation.op == "-":
                    numerator, denominator = values[-1]
                    values[-1] = (-numerator, denominator)
            else:
                right = values.pop()
                values[-1] = _apply(operation, values[-1], right)
    return values[0]


def _apply(node: Binary, left: _Pair, right: _Pair) -> _Pair:
    op = node.op
    a, b = left
    c, d = right
    if op == "+" or op == "-":
        if op == "-":
            c = -c
        if b == d:
            numerator, denominator = a + c, b
        else:
            numerator, denominator = a * d + c * b, b * d
    elif op == "*":
        numerator, denominator = a * c, b * d
    elif op == "/":
        if c == 0:
            raise CgxError(
                Code.DIVISION_BY_ZERO,
                f"{_show(node)} divides by {_show(node.right)}, which is 0",
            )
        numerator, denominator = (a * d, b * c) if c > 0 else (-a * d, -b * c)
    else:
        return _power(node, left, right)
    common = gcd(numerator, denominator)
    if common != 1:
        numerator //= common
        denominator //= common
    if numerator.bit_length() > MAX_RESULT_BITS or denominator.bit_length() > MAX_RESULT_BITS:
        _too_large(node)
    return numerator, denominator


def _power(node: Binary, base: _Pair, exponent: _Pair) -> _Pair:
    exponent_numerator, exponent_denominator = exponent
    if exponent_denominator != 1:
        raise CgxError(
            Code.EXPONENT_NOT_WHOLE,
            f"the exponent {exponent_numerator}/{exponent_denominator} of {_show(node)} is not a whole number, "
            "so the power is not an exact rational",
        )
    if abs(exponent_numerator) > MAX_EXPONENT:
        shown = str(exponent_numerator) if exponent_numerator.bit_length() < 200 else "a number of over 60 digits"
        raise CgxError(
            Code.EXPONENT_TOO_LARGE,
            f"the exponent {shown} of {_show(node)} is above {MAX_EXPONENT} in magnitude",
        )
    numerator, denominator = base
    if numerator == 0 and exponent_numerator < 0:
        raise CgxError(Code.DIVISION_BY_ZERO, f"{_show(node)} raises 0 to a negative power")
    power = abs(exponent_numerator)
    if power * max(numerator.bit_length(), denominator.bit_length()) > MAX_RESULT_BITS:
        _too_large(node)
    if exponent_numerator < 0:
        numerator, denominator = (denominator, numerator) if numerator > 0 else (-denominator, -numerator)
    # A reduced fraction's powers stay reduced: no gcd needed.
    return numerator**power, denominator**power


def _too_large(node: Node) -> NoReturn:
    raise CgxError(
        Code.RESULT_TOO_LARGE,
        f"{_show(node)} is too large to compute exactly (over {MAX_RESULT_BITS} bits in its numerator or denominator)",
    )


def _show(node: Node) -> str:
    text = render(node)
    return f"`{text}`" if len(text) <= _SHOWN else f"`{text[:_SHOWN]}...`"

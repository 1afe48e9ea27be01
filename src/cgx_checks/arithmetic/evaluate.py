"""Evaluate an expression tree exactly, in bounded time and memory.

A plain expression (numerals without units, + - * / **, signs, parentheses) takes the fast path: values
are reduced fractions kept as two ints while computing (cheaper than `Fraction`'s operator protocol, and
the same exact arithmetic); the result is a `Fraction`. Nothing is ever a float.

Any other expression (units, pi, e, functions, comparisons and predicates, dates) is `measure`d: each
value is an `Interval` (exact when it is rational, see `interval.py`) with a dimension, each numeral with a
unit is converted to the base units exactly (`units.py`), + and - need equal dimensions
(`unit-incompatible`), and a function's argument must be in its domain (`function-domain`) and, except for
abs, roots and sqrt, dimensionless. A truth value is 1 or 0 with the dimension `predicates.TRUTH`; a date
or time of day carries a dimension of its own that only subtracts (a duration) and compares.

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
from itertools import pairwise
from math import gcd
from typing import NamedTuple, NoReturn

from cgx_checks.arithmetic.constants import constant_value
from cgx_checks.arithmetic.estimates import ESTIMATE_ARGUMENTS, estimate
from cgx_checks.arithmetic.grim import GRIM_ARGUMENTS, nearest_mean, nearest_variance, variances, whole
from cgx_checks.arithmetic.interval import PRECISIONS, Arithmetic, Interval, Undecided, check_size, exact
from cgx_checks.arithmetic.limits import MAX_EXPONENT, MAX_RESULT_BITS
from cgx_checks.arithmetic.parse import literal_numeral
from cgx_checks.arithmetic.predicates import (
    CALENDAR,
    CLOCK,
    DATE,
    EXTREMES,
    KINDS,
    POINTS,
    ROUNDINGS,
    SCALE_FACTOR,
    SECONDS,
    TRUTH,
    TRUTH_FUNCTIONS,
    calendar_value,
    compare,
    kind_admits,
    rounded,
    rounding_places,
    truth,
)
from cgx_checks.arithmetic.pvalues import PVALUE_ARGUMENTS, pvalue
from cgx_checks.arithmetic.tree import Binary, Call, Compare, Constant, Literal, Node, Rows, Unary, fold, render, signed
from cgx_checks.arithmetic.units import Dimension, dimension_text, unit_scale, whole_or_fraction
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_checks.expression_codes import ExpressionCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError

type _Pair = tuple[int, int]

_SHOWN = 80  # characters of a subexpression quoted in an error message


class _NotPlain(Exception):
    """The tree has a unit, a constant or a function: it is measured instead."""


class Measured(NamedTuple):
    """The value of an expression in base units (an interval, exact when rational) and its dimension."""

    value: Interval
    dimension: Dimension


def evaluate(node: Node) -> Fraction:
    """The exact value of an expression tree, or CgxError with one of the codes above.

    A tree with units is given in base units; one whose value is irrational is refused
    (`exponent-not-whole` names the need for an exact rational)."""
    try:
        numerator, denominator = evaluate_pair(node)
    except _NotPlain:
        measured = _measure_decided(node)
        if not measured.value.exact:
            raise CgxError(ArithmeticCode.EXPONENT_NOT_WHOLE, f"{_show(node)} is not a rational number") from None
        return measured.value.lo
    return Fraction(numerator, denominator)


def _measure_decided(node: Node) -> Measured:
    """The measure at the lowest precision that decides every comparison and rounding of the tree."""
    for bits in PRECISIONS:
        try:
            return measure(node, bits)
        except Undecided:
            continue
    raise CgxError(ArithmeticCode.VALUE_UNDECIDED, f"{_show(node)} cannot be decided at any precision")


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
            if item.unit is not None:
                raise _NotPlain
            values.append((item.numerator, item.denominator))
        elif isinstance(item, Rows):
            values.append((_count(item), 1))
        elif isinstance(item, Binary):
            push((item,))
            push(item.right)
            push(item.left)
        elif isinstance(item, Unary):
            push((item,))
            push(item.operand)
        elif isinstance(item, Constant | Call | Compare):
            raise _NotPlain
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
            _divides_by_zero(node)
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
    exponent_numerator = _checked_whole(node, Fraction(*exponent), "exponent")
    numerator, denominator = base
    if numerator == 0 and exponent_numerator < 0:
        _zero_to_negative(node)
    power = abs(exponent_numerator)
    if power * max(numerator.bit_length(), denominator.bit_length()) > MAX_RESULT_BITS:
        _too_large(node)
    if exponent_numerator < 0:
        numerator, denominator = (denominator, numerator) if numerator > 0 else (-denominator, -numerator)
    # A reduced fraction's powers stay reduced: no gcd needed.
    return numerator**power, denominator**power


def _count(node: Rows) -> int:
    """The count a check bound to `rows(t-N)`; evaluating an unbound one is a bug of the caller."""
    if node.total is None:
        raise CgxError(Code.INTERNAL_ERROR, f"rows({node.row}) was evaluated before its table's rows were counted")
    return node.total


def _divides_by_zero(node: Binary) -> NoReturn:
    raise CgxError(ExpressionCode.DIVISION_BY_ZERO, f"{_show(node)} divides by {_show(node.right)}, which is 0")


def _zero_to_negative(node: Binary) -> NoReturn:
    raise CgxError(ExpressionCode.DIVISION_BY_ZERO, f"{_show(node)} raises 0 to a negative power")


def _checked_whole(node: Node, value: Fraction, role: str) -> int:
    """An exponent (or a root's degree) as a whole number within MAX_EXPONENT, or the error naming its role."""
    if value.denominator != 1:
        raise CgxError(
            ArithmeticCode.EXPONENT_NOT_WHOLE,
            f"the {role} {value.numerator}/{value.denominator} of {_show(node)} is not a whole number, "
            "so the power is not an exact rational",
        )
    whole = value.numerator
    if abs(whole) > MAX_EXPONENT:
        shown = str(whole) if whole.bit_length() < 200 else "a number of over 60 digits"
        raise CgxError(
            Code.EXPONENT_TOO_LARGE, f"the {role} {shown} of {_show(node)} is above {MAX_EXPONENT} in magnitude"
        )
    return whole


def _too_large(node: Node) -> NoReturn:
    raise CgxError(
        ExpressionCode.RESULT_TOO_LARGE,
        f"{_show(node)} is too large to compute exactly (over {MAX_RESULT_BITS} bits in its numerator or denominator)",
    )


def _show(node: Node) -> str:
    text = render(node)
    return f"`{text}`" if len(text) <= _SHOWN else f"`{text[:_SHOWN]}...`"


# -- the general path: units, constants, functions -----------------------------------------------------


def measure(node: Node, bits: int) -> Measured:
    """The value (an enclosure at `bits` of precision, exact when rational) and dimension of any tree.

    Raises CgxError with the codes above, `unit-incompatible`, `unit-invalid` or `function-domain`, and
    `Undecided` when the precision is too low to tell a sign or a zero (the caller tries a higher one).
    """
    arithmetic = Arithmetic(bits)

    def leaf(item: Node) -> Measured:
        if isinstance(item, Literal):
            value = Fraction(item.numerator, item.denominator)
            if item.unit is None:
                return Measured(exact(value), ())
            factor, dimension = unit_scale(item.unit, arithmetic)
            if factor.exact:
                return Measured(exact(check_size(value * factor.lo, _show(item))), dimension)
            return Measured(arithmetic.mul(exact(value), factor), dimension)
        if isinstance(item, Constant):
            if item.name == "pi":
                return Measured(arithmetic.pi(), ())
            if item.name == "e":
                return Measured(arithmetic.e(), ())
            return Measured(*constant_value(item.name))
        assert isinstance(item, Rows)
        return Measured(exact(Fraction(_count(item))), ())

    return fold(node, leaf, lambda operation, operands: _operate(arithmetic, operation, operands))


def _operate(arithmetic: Arithmetic, node: Node, operands: list[Measured]) -> Measured:
    if isinstance(node, Unary):
        (operand,) = operands
        return operand if node.op == "+" else Measured(arithmetic.neg(operand.value), operand.dimension)
    if isinstance(node, Binary):
        return _binary(arithmetic, node, operands[0], operands[1])
    if isinstance(node, Compare):
        _same_dimension(node, operands)
        return Measured(truth(compare(node.op, operands[0].value, operands[1].value)), TRUTH)
    assert isinstance(node, Call)
    if node.name in CALENDAR:
        return Measured(calendar_value(node), DATE if node.name == "date" else CLOCK)
    if node.name in _PREDICATES:
        return _predicate(arithmetic, node, operands)
    return _call(arithmetic, node, operands)


_PREDICATES = frozenset({*TRUTH_FUNCTIONS, "count", *ROUNDINGS})


def _predicate(arithmetic: Arithmetic, node: Call, operands: list[Measured]) -> Measured:
    """A truth value (all, any, within, sorted_desc, sorted_asc, is_max, is_min, same_order, is_<kind>), a
    count of true conditions, or a rounding. Conditions are decided before they get here: a condition that
    cannot be decided raised `Undecided`, so all() and any() never guess."""
    name = node.name
    if name in ("all", "any", "count"):
        held = [operand.value.lo == 1 for operand in operands]
        if name == "count":
            return Measured(exact(Fraction(sum(held))), ())
        return Measured(truth(all(held) if name == "all" else any(held)), TRUTH)
    if name in ROUNDINGS or name in KINDS:
        if operands[0].dimension:
            raise CgxError(
                ArithmeticCode.UNIT_INCOMPATIBLE,
                f"{_show(node)} takes a plain number, not {dimension_text(operands[0].dimension)}",
            )
        if name in KINDS:
            return Measured(truth(kind_admits(name, operands[0].value)), TRUTH)
        return Measured(rounded(name, operands[0].value, rounding_places(node)), ())
    _same_dimension(node, operands)
    values = [operand.value for operand in operands]
    if name == "within":
        value, low, high = values
        return Measured(truth(compare("<=", low, value) and compare("<=", value, high)), TRUTH)
    if name in EXTREMES:
        first, *others = values
        op = ">=" if name == "is_max" else "<="
        return Measured(truth(all(compare(op, first, other) for other in others)), TRUTH)
    if name == "same_order":
        return Measured(truth(_same_order(arithmetic, values)), TRUTH)
    op = ">=" if name == "sorted_desc" else "<="
    return Measured(truth(all(compare(op, a, b) for a, b in pairwise(values))), TRUTH)


def _same_order(arithmetic: Arithmetic, values: list[Interval]) -> bool:
    """Whether the magnitude of the first value is within SCALE_FACTOR of each other's, both ways."""
    first = arithmetic.absolute(values[0])
    scale = exact(SCALE_FACTOR)
    for value in values[1:]:
        other = arithmetic.absolute(value)
        within = compare("<=", first, arithmetic.mul(scale, other))
        if not (within and compare("<=", other, arithmetic.mul(scale, first))):
            return False
    return True


def _same_dimension(node: Node, operands: list[Measured], refusal: str = "{} compares {} with {}") -> None:
    dimension = operands[0].dimension
    for operand in operands[1:]:
        if operand.dimension != dimension:
            shown = (_show(node), dimension_text(dimension), dimension_text(operand.dimension))
            raise CgxError(ArithmeticCode.UNIT_INCOMPATIBLE, refusal.format(*shown))


def _binary(arithmetic: Arithmetic, node: Binary, left: Measured, right: Measured) -> Measured:
    op = node.op
    if left.dimension in POINTS or right.dimension in POINTS:
        if op != "-" or left.dimension != right.dimension:
            raise CgxError(
                ArithmeticCode.UNIT_INCOMPATIBLE,
                f"{_show(node)}: a date or time of day is only subtracted from another (a duration) or compared "
                "with one",
            )
        return Measured(arithmetic.add(left.value, arithmetic.neg(right.value)), SECONDS)
    if op in ("+", "-"):
        if left.dimension != right.dimension:
            raise CgxError(
                ArithmeticCode.UNIT_INCOMPATIBLE,
                f"{_show(node)} {'adds' if op == '+' else 'subtracts'} {dimension_text(right.dimension)} "
                f"{'to' if op == '+' else 'from'} {dimension_text(left.dimension)}",
            )
        other = right.value if op == "+" else arithmetic.neg(right.value)
        return Measured(_sized(arithmetic.add(left.value, other), node), left.dimension)
    if op == "*":
        return Measured(_sized(arithmetic.mul(left.value, right.value), node), _combine(left, right, 1))
    if op == "/":
        try:
            quotient = arithmetic.div(left.value, right.value)
        except ZeroDivisionError:
            _divides_by_zero(node)
        return Measured(_sized(quotient, node), _combine(left, right, -1))
    exponent = _whole(node, right, "exponent")
    base = left.value
    if base.exact and base.lo == 0 and exponent < 0:
        _zero_to_negative(node)
    if base.exact:
        size = max(base.lo.numerator.bit_length(), base.lo.denominator.bit_length())
        if abs(exponent) * size > MAX_RESULT_BITS:
            _too_large(node)
    try:
        powered = arithmetic.power(base, exponent)
    except ZeroDivisionError:
        _zero_to_negative(node)
    return Measured(
        _sized(powered, node), tuple((name, whole_or_fraction(power * exponent)) for name, power in left.dimension)
    )


def _call(arithmetic: Arithmetic, node: Call, operands: list[Measured]) -> Measured:
    name = node.name
    if name in _STATISTICS:
        return _statistic(arithmetic, node, operands)
    argument = operands[0]
    try:
        if name == "abs":
            return Measured(arithmetic.absolute(argument.value), argument.dimension)
        if name in ("sqrt", "cbrt", "root"):
            degree = {"sqrt": 2, "cbrt": 3}.get(name) or _whole(node, operands[1], "degree")
            if not 2 <= degree <= MAX_EXPONENT:
                raise CgxError(
                    Code.EXPONENT_TOO_LARGE, f"the degree {degree} of {_show(node)} is not from 2 to {MAX_EXPONENT}"
                )
            dimension = tuple((base, whole_or_fraction(Fraction(power) / degree)) for base, power in argument.dimension)
            return Measured(_sized(arithmetic.root(argument.value, degree), node), dimension)
        for operand in operands:
            if operand.dimension:
                raise CgxError(
                    ArithmeticCode.UNIT_INCOMPATIBLE,
                    f"{_show(node)} needs a dimensionless argument, not {dimension_text(operand.dimension)}",
                )
        if name in PVALUE_ARGUMENTS:
            return Measured(pvalue(name, [operand.value for operand in operands], arithmetic.bits), ())
        if name in ESTIMATE_ARGUMENTS:
            return Measured(estimate(arithmetic, name, [operand.value for operand in operands]), ())
        if name in GRIM_ARGUMENTS:
            return Measured(_grim(arithmetic, node, operands), ())
        if name == "exp":
            return Measured(arithmetic.exp(argument.value), ())
        if name == "ln" or (name == "log" and len(operands) == 1):
            return Measured(arithmetic.ln(argument.value), ())
        base = {"log10": exact(Fraction(10)), "log2": exact(Fraction(2))}.get(name) or operands[1].value
        return Measured(arithmetic.log(argument.value, base), ())
    except ValueError as error:
        raise CgxError(ArithmeticCode.FUNCTION_DOMAIN, f"{_show(node)}: {error}") from None
    except ZeroDivisionError:
        raise CgxError(ExpressionCode.DIVISION_BY_ZERO, f"{_show(node)} divides by 0") from None


_STATISTICS = frozenset({"mean", "median", "min", "max"})


def _grim(arithmetic: Arithmetic, node: Call, operands: list[Measured]) -> Interval:
    """grim(mean, n[, items]): the achievable mean nearest the printed one; grimmer(mean, sd, n[, items]): the
    achievable standard deviation nearest the printed one (`grim.py`). The mean and sd are read as printed,
    since their digits are what the test tests."""
    printed = 1 if node.name == "grim" else 2
    mean, half = printed_numeral(node, 0)
    counts = [operand.value for operand in operands[printed:]]
    if not all(count.exact for count in counts):
        raise ValueError(f"{node.name} takes n and the number of items as whole numbers")
    n = whole(counts[0].lo, "n")
    items = whole(counts[1].lo, "the number of items") if len(counts) > 1 else 1
    if node.name == "grim":
        return exact(nearest_mean(mean, n * items))
    sd = printed_numeral(node, 1)[0]
    if n < 2 or sd < 0:
        raise ValueError("a standard deviation needs n of at least 2 and is not negative")
    variance = nearest_variance(sd, *variances(mean, half, sd, n, items))
    return arithmetic.root(exact(variance), 2)


def printed_numeral(node: Call, index: int) -> tuple[Fraction, Fraction]:
    """The value and rounding (half a unit of its last digit) of a numeral argument as the text prints it."""
    sign, argument = signed(node.arguments[index])
    if not isinstance(argument, Literal) or argument.unit is not None:
        raise CgxError(
            Code.EXPRESSION_INVALID,
            f"{_show(node)} takes its argument {index + 1} as the text prints it (a numeral without a unit), "
            "since its digits set the precision it is tested at",
        )
    numeral = literal_numeral(argument.text, argument.column)
    return sign * numeral.value, numeral.half_unit


def _statistic(arithmetic: Arithmetic, node: Call, operands: list[Measured]) -> Measured:
    """mean, median, min or max of values of one dimension.

    Each is monotone in every argument, so applying it to the lower bounds and to the upper bounds of the
    arguments encloses the value: exact values give an exact result, irrational ones a sound enclosure."""
    _same_dimension(node, operands, "{} takes values of one dimension, not {} and {}")
    dimension = operands[0].dimension
    values = [operand.value for operand in operands]
    if node.name == "mean":
        total = values[0]
        for value in values[1:]:
            total = arithmetic.add(total, value)
        return Measured(_sized(arithmetic.div(total, exact(Fraction(len(values)))), node), dimension)
    lows = sorted(value.lo for value in values)
    highs = sorted(value.hi for value in values)
    if node.name == "min":
        return Measured(Interval(lows[0], highs[0]), dimension)
    if node.name == "max":
        return Measured(Interval(lows[-1], highs[-1]), dimension)
    middle = len(values) // 2
    if len(values) % 2:
        return Measured(Interval(lows[middle], highs[middle]), dimension)
    return Measured(Interval((lows[middle - 1] + lows[middle]) / 2, (highs[middle - 1] + highs[middle]) / 2), dimension)


def _whole(node: Node, operand: Measured, role: str) -> int:
    value = operand.value
    if operand.dimension:
        raise CgxError(
            ArithmeticCode.UNIT_INCOMPATIBLE, f"the {role} of {_show(node)} has a unit; it must be a plain number"
        )
    if not value.exact:
        if value.hi - value.lo < 1 and int(value.lo) == int(value.hi) and value.lo.denominator != 1:
            raise CgxError(ArithmeticCode.EXPONENT_NOT_WHOLE, f"the {role} of {_show(node)} is not a whole number")
        raise Undecided(f"the {role} is not known to be whole at this precision")
    return _checked_whole(node, value.lo, role)


def _combine(left: Measured, right: Measured, sign: int) -> Dimension:
    merged = dict(left.dimension)
    for name, power in right.dimension:
        merged[name] = whole_or_fraction(merged.get(name, 0) + sign * power)
    return tuple(sorted((name, power) for name, power in merged.items() if power))


def _sized(value: Interval, node: Node) -> Interval:
    if value.exact:
        check_size(value.lo, _show(node))
    return value


__all__ = ["Measured", "Undecided", "evaluate", "evaluate_pair", "measure"]

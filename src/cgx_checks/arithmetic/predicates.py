"""Truth values and roundings of an expression: comparisons, all/any/count, within, sorted_desc/sorted_asc,
the admissible range of a quantity's kind (is_probability, ...), round and sig.

A comparison (`8.53 == 8.53`, `0.7 >= 0.65`) and the predicates are truth values: the whole expression, or a
condition of all(), any() or count(). count() is a number like any other. Where a truth value may stand is
checked once after parsing (`check_truths`), so evaluation never meets `all(...) + 1`. A comparison is decided
on exact values (`==` is equality of the fractions the digits write) or on rigorous enclosures; an enclosure
that cannot tell is `Undecided`, and the check tries a higher precision, as for every other value.

round(x, n) and sig(x, n) round half away from zero (as papers print numbers) to n decimals or n significant
digits; n is a whole numeral the agent writes (the text never writes it), so a rounding may never be coarser
than the numeral it is compared with (checked by recompute: rounding 8.46 to 8.5 must not pass "8.50").
"""

from __future__ import annotations

import calendar
import datetime
from fractions import Fraction
from math import floor
from typing import Final

from cgx_checks.arithmetic.decimals import floor_log10
from cgx_checks.arithmetic.interval import Interval, Undecided, exact
from cgx_checks.arithmetic.limits import MAX_ARGUMENTS
from cgx_checks.arithmetic.tree import Call, Compare, Literal, Node, children, signed
from cgx_checks.arithmetic.units import Dimension
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers.dates import valid_date

TRUTH: Final[Dimension] = (("truth value", 1),)
"""The dimension a truth value carries while an expression is measured (1 true, 0 false)."""

KINDS: Final[dict[str, tuple[Fraction | None, Fraction | None, str]]] = {
    "is_probability": (Fraction(0), Fraction(1), "from 0 to 1"),
    "is_proportion": (Fraction(0), Fraction(1), "from 0 to 1"),
    "is_percentage": (Fraction(0), Fraction(1), "from 0% to 100%"),
    "is_pvalue": (Fraction(0), Fraction(1), "from 0 to 1"),
    "is_count": (Fraction(0), None, "a whole number >= 0"),
    "is_variance": (Fraction(0), None, ">= 0"),
    "is_sd": (Fraction(0), None, ">= 0"),
    "is_correlation": (Fraction(-1), Fraction(1), "from -1 to 1"),
    "is_condition_number": (Fraction(1), None, ">= 1"),
}
"""The kinds of quantity whose range is known from what they are, with the closed range each admits."""

EXTREMES: Final = frozenset({"is_max", "is_min"})
"""is_max(x, a, b, ...) and is_min(x, ...): x is the largest (smallest) of the values given ("the most",
"the lowest"): a comparison over a set."""

SCALE_FACTOR: Final = Fraction(10)
"""same_order(x, a, ...) holds when the magnitudes of x and of each other value are within this factor of each
other ("of the order of"): a scale check, allowed only with a premise."""

TRUTH_FUNCTIONS: Final = frozenset(
    {"all", "any", "within", "sorted_desc", "sorted_asc", "same_order", *EXTREMES, *KINDS}
)
"""The functions whose value is a truth value."""

_CONDITIONS: Final = frozenset({"all", "any", "count"})
"""The functions whose arguments are truth values (comparisons or predicates)."""

ROUNDINGS: Final = frozenset({"round", "sig"})

CALENDAR: Final = frozenset({"date", "time"})
"""date(2019, 3, 4), date(2003, 6), date(2002) and time(17, 30): a date or time of day the text writes."""

DATE: Final[Dimension] = (("date", 1),)
CLOCK: Final[Dimension] = (("time of day", 1),)
POINTS: Final = frozenset({DATE, CLOCK})
"""The dimensions of points in time: one may be subtracted from another (a duration) or compared with one,
nothing else."""
SECONDS: Final[Dimension] = (("[time]", 1),)

PREDICATE_FUNCTIONS: Final[dict[str, range]] = {
    **{name: range(1, MAX_ARGUMENTS + 1) for name in _CONDITIONS},
    "within": range(3, 4),
    "sorted_desc": range(2, MAX_ARGUMENTS + 1),
    "sorted_asc": range(2, MAX_ARGUMENTS + 1),
    **{name: range(2, MAX_ARGUMENTS + 1) for name in (*EXTREMES, "same_order")},
    "round": range(2, 3),
    "sig": range(2, 3),
    "date": range(1, 4),
    "time": range(2, 4),
    **{name: range(1, 2) for name in KINDS},
}
"""The functions of this module with the numbers of arguments each takes."""

MAX_DIGITS: Final = 20
"""The most decimals (round) or significant digits (sig) a rounding takes; round takes down to -MAX_DIGITS."""


def is_truth(node: Node) -> bool:
    """Whether the node's value is a truth value."""
    return isinstance(node, Compare) or (isinstance(node, Call) and node.name in TRUTH_FUNCTIONS)


def check_truths(tree: Node) -> None:
    """Refuse a truth value where a number belongs, or a number where a truth value belongs
    (`expression-invalid`, with the column): a comparison or predicate is the whole expression or a
    condition of all, any or count, and those take only conditions."""
    stack: list[tuple[Node, bool]] = [(tree, True)]  # (node, whether a truth value may stand here)
    while stack:
        node, truth_allowed = stack.pop()
        if is_truth(node) and not truth_allowed:
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"the truth value {_name(node)} at column {_column(node)} stands where a number belongs: a "
                "comparison or predicate is the whole expression or a condition of all(), any() or count()",
            )
        conditions = isinstance(node, Call) and node.name in _CONDITIONS
        for child in children(node):
            if conditions and not is_truth(child):
                raise CgxError(
                    Code.EXPRESSION_INVALID,
                    f"{_name(node)} at column {_column(node)} takes conditions (a comparison such as 8.53 == 8.53, "
                    "or within, sorted_desc, is_<kind>), not a number",
                )
            stack.append((child, conditions))


def check_rounding_argument(call: Call) -> None:
    """round(x, n) and sig(x, n) take a whole numeral n: -20 to 20 decimals, 1 to 20 significant digits."""
    sign, literal = signed(call.arguments[1])
    low = 1 if call.name == "sig" else -MAX_DIGITS
    if not isinstance(literal, Literal) or literal.denominator != 1 or literal.unit is not None:
        raise CgxError(
            Code.EXPRESSION_INVALID,
            f"{call.name} at column {call.column} takes a whole numeral as its second argument (the "
            f"{'significant digits' if call.name == 'sig' else 'decimals'} to round to), such as {call.name}(8.537, 2)",
        )
    value = sign * literal.numerator
    if not low <= value <= MAX_DIGITS:
        raise CgxError(
            Code.EXPRESSION_INVALID,
            f"the second argument of {call.name} at column {call.column} is {value}; it takes {low} to {MAX_DIGITS}",
        )


def rounding_places(call: Call) -> int:
    """The n of round(x, n) or sig(x, n) (checked by `check_rounding_argument`)."""
    sign, places = signed(call.arguments[1])
    assert isinstance(places, Literal)
    return sign * places.numerator


def agent_arguments(tree: Node) -> frozenset[int]:
    """The ids of the literals the text need not write as numerals: the n of a round or sig (the agent's),
    and the parts of a date() or time() (the text writes the date, in its own words: "17 June 2003")."""
    found: set[int] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Call) and node.name in ROUNDINGS:
            found.add(id(signed(node.arguments[1])[1]))
        elif isinstance(node, Call) and node.name in CALENDAR:
            found.update(id(argument) for argument in node.arguments)
        stack.extend(children(node))
    return frozenset(found)


def check_calendar_arguments(call: Call) -> None:
    """date(year[, month[, day]]) and time(hour, minute[, second]) take whole numerals naming a real date or
    time of day."""
    parts = _calendar_parts(call)
    if call.name == "date":
        valid = parts is not None and valid_date(*_date_parts(parts))
        example = "date(2019, 3, 4), date(2003, 6) or date(2002)"
    else:
        valid = parts is not None and _seconds(parts) is not None
        example = "time(17, 30) or time(17, 30, 15)"
    if not valid:
        raise CgxError(
            Code.EXPRESSION_INVALID,
            f"{call.name} at column {call.column} takes whole numbers naming a real "
            f"{'date' if call.name == 'date' else 'time of day'}, such as {example}",
        )


def calendar_value(call: Call) -> Interval:
    """The instants a date or time of day stands for, in seconds: a day is its start, a month or a year every
    day's start in it (so "June 2003" is not 1 June); a time of day is seconds after midnight. The call's
    parts were checked by `check_calendar_arguments`."""
    parts = _calendar_parts(call) or []
    if call.name == "time":
        return exact(Fraction(_seconds(parts) or 0))
    year, month, day = _date_parts(parts)
    first = datetime.date(year, month or 1, day or 1).toordinal()
    if day is None:
        last_month = month or 12
        last = datetime.date(year, last_month, calendar.monthrange(year, last_month)[1]).toordinal()
    else:
        last = first
    return Interval(Fraction(first * 86400), Fraction(last * 86400))


def _calendar_parts(call: Call) -> list[int] | None:
    parts = [argument.numerator for argument in call.arguments if _whole_literal(argument)]  # type: ignore[union-attr]
    return parts if len(parts) == len(call.arguments) else None


def _date_parts(parts: list[int]) -> tuple[int, int | None, int | None]:
    year, month, day = (*parts, None, None)[:3]
    assert year is not None
    return year, month, day


def _seconds(parts: list[int]) -> int | None:
    hour, minute, second = (*parts, 0)[:3]
    if 0 <= hour < 24 and 0 <= minute < 60 and 0 <= second < 60:
        return hour * 3600 + minute * 60 + second
    return None


def _whole_literal(node: Node) -> bool:
    return isinstance(node, Literal) and node.denominator == 1 and node.unit is None


def compare(op: str, left: Interval, right: Interval) -> bool:
    """Whether `left op right` holds for every value of the enclosures; `Undecided` when they cannot tell."""
    if op in ("==", "!="):
        if left.exact and right.exact:
            equal = left.lo == right.lo
        elif left.hi < right.lo or right.hi < left.lo:
            equal = False
        else:
            raise Undecided("the enclosures overlap")
        return equal if op == "==" else not equal
    if op in (">", ">="):
        op, left, right = op.replace(">", "<"), right, left
    strict = op == "<"
    if left.hi < right.lo or (not strict and left.hi <= right.lo):
        return True
    if left.lo > right.hi or (strict and left.lo >= right.hi):
        return False
    raise Undecided("the enclosures overlap")


def truth(value: bool) -> Interval:
    return exact(Fraction(int(value)))


def kind_admits(name: str, value: Interval) -> bool:
    """Whether every value of the enclosure lies in the range the kind admits (`Undecided` if it cannot tell)."""
    low, high, _ = KINDS[name]
    holds = True
    if low is not None:
        holds = compare(">=", value, exact(low))
    if high is not None:
        holds = holds and compare("<=", value, exact(high))
    if name == "is_count" and holds:
        if not value.exact:
            raise Undecided("a count must be exact")
        holds = value.lo.denominator == 1
    return holds


def rounded(name: str, value: Interval, places: int) -> Interval:
    """round(x, places) or sig(x, places), half away from zero; `Undecided` when the enclosure's ends round
    differently."""
    low = _rounded(name, value.lo, places)
    high = low if value.exact else _rounded(name, value.hi, places)
    if low != high:
        raise Undecided("the enclosure's ends round differently")
    return exact(low)


def rounding_unit(name: str, value: Fraction, places: int) -> Fraction:
    """One unit of the last digit round or sig keeps for `value`."""
    if name == "round":
        return Fraction(10) ** -places
    if value == 0:
        return Fraction(0)
    return Fraction(10) ** (floor_log10(abs(value.numerator), value.denominator) - places + 1)


def _rounded(name: str, value: Fraction, places: int) -> Fraction:
    unit = rounding_unit(name, value, places)
    if unit == 0:
        return value
    steps = floor(abs(value) / unit + Fraction(1, 2))
    return (steps if value >= 0 else -steps) * unit


def _name(node: Node) -> str:
    return f"the comparison {node.op}" if isinstance(node, Compare) else f"{getattr(node, 'name', '')}()"


def _column(node: Node) -> int:
    return int(getattr(node, "column", 0))

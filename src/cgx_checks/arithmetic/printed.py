"""A reported statistic decided at the precision its numerals are printed with, as statcheck decides a p-value.

"t(28) = 2.2, p = .03" is consistent although p_t(2.2, 28) = 0.0362 prints as .04: the t the authors computed
with lies anywhere from 2.15 to 2.25, and t = 2.25 gives 0.0325, which prints as .03. So when the whole
expression is one of the functions below and it fails with its numerals taken exactly, it is decided again over
every value each printed argument may stand for (its numeral plus or minus half a unit of its last digit):

* it **passes** when some of those values satisfy the relation the text writes;
* it **fails** only when none do: then the detail shows the range they give.

Every function here is continuous and monotone in each printed argument (the two-sided p-values and p_ci in
the statistic's magnitude, p_ci_log in the magnitude of the ratio's logarithm, so a box that straddles 0, or 1,
also tries that point), so the smallest and largest values over the box are at its corners, and every value
between them is reached. The degrees of freedom and an interval's level are exact: statcheck reads them so,
and they are labels rather than measurements.

A p-value that fails is a **decision error** (statcheck's term) when it also crosses .05: reported significant
(p < .05, or p = a value at most .05) while every value the printed numerals allow is above .05, or reported
not significant while every one is at most .05.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Final, Literal, NamedTuple

from cgx_checks.arithmetic.decimals import decimal_text
from cgx_checks.arithmetic.estimates import ESTIMATE_ARGUMENTS
from cgx_checks.arithmetic.evaluate import measure
from cgx_checks.arithmetic.interval import Interval, Undecided, exact
from cgx_checks.arithmetic.parse import literal_numeral
from cgx_checks.arithmetic.predicates import compare
from cgx_checks.arithmetic.pvalues import PVALUE_ARGUMENTS
from cgx_checks.arithmetic.tree import Call, Node, signed
from cgx_checks.arithmetic.tree import Literal as Numeral

PRINTED_ARGUMENTS: Final[dict[str, tuple[int, ...]]] = {
    **{name: (0,) for name in PVALUE_ARGUMENTS},
    **{name: (0, 1) for name in ("ci_low", "ci_high", "ci_mid", "ci_gmid", "se_ci", "se_ci_log")},
    "p_ci": (0, 1, 2),
    "p_ci_log": (0, 1, 2),
}
"""Which arguments of each function are read at their printed precision (not the degrees of freedom or the
level)."""

_TURNING: Final[dict[str, Fraction]] = {
    "p_z": Fraction(0),
    "p_t": Fraction(0),
    "p_r": Fraction(0),
    "p_ci": Fraction(0),
    "p_ci_log": Fraction(1),
}
"""Where a function of the first argument turns (it falls with the distance from this point)."""

PVALUES: Final = frozenset({*PVALUE_ARGUMENTS, "p_ci", "p_ci_log"})

ALPHA: Final = Fraction(5, 100)
"""The significance level a decision error is judged at (statcheck's default; a reported p = .05 counts as
significant, as statcheck's `pEqualAlphaSig` does by default)."""

_SHOWN: Final = 12  # significant digits of a range's ends in a detail
assert set(ESTIMATE_ARGUMENTS) <= set(PRINTED_ARGUMENTS)


class Printed(NamedTuple):
    """A printed argument: its position, its numeral as written, and the values it may stand for."""

    position: int
    written: str
    low: Fraction
    high: Fraction
    candidates: tuple[Fraction, ...]


class Range(NamedTuple):
    """Enclosures of the smallest and the largest value the printed arguments give."""

    least: Interval
    most: Interval


def printed_arguments(tree: Node) -> tuple[Printed, ...]:
    """The arguments of the expression read at their printed precision: none unless the whole expression is a
    call of `PRINTED_ARGUMENTS` whose argument is a numeral (signed, without a unit)."""
    if not isinstance(tree, Call) or tree.name not in PRINTED_ARGUMENTS:
        return ()
    found = []
    for position in PRINTED_ARGUMENTS[tree.name]:
        sign, argument = signed(tree.arguments[position])
        if not isinstance(argument, Numeral) or argument.unit is not None:
            continue
        numeral = literal_numeral(argument.text, argument.column)
        low, high = sorted((sign * (numeral.value - numeral.half_unit), sign * (numeral.value + numeral.half_unit)))
        turning = _TURNING.get(tree.name) if position == 0 else None
        inside = () if turning is None or not low < turning < high else (turning,)
        written = numeral.written if sign == 1 else f"-{numeral.written}"
        found.append(Printed(position, written, low, high, (low, high, *inside)))
    return tuple(found)


def printed_range(tree: Call, printed: tuple[Printed, ...], bits: int) -> Range:
    """The smallest and largest values of the call over the printed arguments' values (at their corners).

    Raises CgxError when a corner is outside a function's domain, Undecided when `bits` cannot tell."""
    values = [measure(corner, bits).value for corner in _corners(tree, printed)]
    return Range(
        Interval(min(value.lo for value in values), min(value.hi for value in values)),
        Interval(max(value.lo for value in values), max(value.hi for value in values)),
    )


def _corners(tree: Call, printed: tuple[Printed, ...]) -> Iterator[Call]:
    for choice in itertools.product(*(item.candidates for item in printed)):
        arguments = list(tree.arguments)
        for item, value in zip(printed, choice, strict=True):
            arguments[item.position] = Numeral(str(value), value.numerator, value.denominator, 0)
        yield tree._replace(arguments=tuple(arguments))


def decide_range(
    found: Range, relation: str, expected: Fraction, band: tuple[Fraction, Fraction]
) -> Literal["passed", "failed"] | None:
    """passed when some value of the range satisfies the relation, failed when none does, None when the
    enclosures cannot tell yet."""
    least, most = found
    if relation in ("=", "~"):
        low, high = band
        if least.hi <= high and most.lo >= low:
            return "passed"
        if least.lo > high or most.hi < low:
            return "failed"
        return None
    try:  # the least value decides a bound from above, the most one from below
        return "passed" if compare(relation, least if "<" in relation else most, exact(expected)) else "failed"
    except Undecided:
        return None


def decision_error(name: str, found: Range, relation: str, expected: Fraction) -> str | None:
    """The words naming a decision error of a failed p-value, or None when it is not one."""
    if name not in PVALUES:
        return None
    reported_significant = expected <= ALPHA and relation in ("=", "~", "<", "<=")
    reported_not = (expected > ALPHA and relation in ("=", "~")) or (expected >= ALPHA and relation in (">", ">="))
    if reported_significant and found.least.lo > ALPHA:
        return "a decision error: reported significant at .05, every recomputed p is above .05"
    if reported_not and found.most.hi <= ALPHA:
        return "a decision error: reported not significant at .05, every recomputed p is at most .05"
    return None


def range_text(printed: tuple[Printed, ...], found: Range) -> str:
    """`2.2 is 2.15 to 2.25, which gives 0.0324 to 0.0403`, for a detail."""
    arguments = ", ".join(
        f"{item.written} is {decimal_text(item.low, _SHOWN)} to {decimal_text(item.high, _SHOWN)}" for item in printed
    )
    least, most = middle(found.least), middle(found.most)
    return f"{arguments}, which gives {decimal_text(least, _SHOWN)} to {decimal_text(most, _SHOWN)}"


def middle(value: Interval) -> Fraction:
    return value.lo if value.exact else (value.lo + value.hi) / 2

"""GRIM and GRIMMER: a mean (and a standard deviation) of integer-valued data that a sample of the stated size
can produce at the printed precision.

The mean of n integers is a whole number over n, so "M = 3.48 (n = 19)" is impossible: 66/19 = 3.4737 and
67/19 = 3.5263 are the nearest means 19 integers have, and neither prints as 3.48 (Brown and Heathers' GRIM
test). A scale of k integer items averaged per person has means that are whole numbers over n * k. Each
person's sum of squares is a whole number too, of the parity of the sum (x^2 and x are both odd or both even),
so not every standard deviation goes with an achievable mean (Anaya's GRIMMER test).

* `grim(mean, n)`, `grim(mean, n, items)`: the achievable mean nearest the printed one, a whole number over
  n * items; the check passes when it prints as the mean does (lies within its rounding).
* `grimmer(mean, sd, n)`, `grimmer(mean, sd, n, items)`: the achievable standard deviation (sample, n - 1)
  nearest the printed one, over every sum the printed mean admits and every sum of squares of its parity.

The mean and the standard deviation are numerals as the text prints them (their digits set their rounding);
n and items are whole numbers. That the data are integers is what the paper implies, not what it writes: a
proposal states it as a premise (`recompute.py` requires one), as the rubric states counts.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Final

GRIM_ARGUMENTS: Final = {"grim": range(2, 4), "grimmer": range(3, 5)}
"""The functions of this module and how many arguments each takes."""

MAX_SUMS: Final = 10_000
"""The most sums a printed mean may admit for GRIMMER to try each (n times the mean's rounding width): beyond,
the mean's digits say little about the sum and the test would be slow."""


def nearest_mean(mean: Fraction, count: int) -> Fraction:
    """The mean of `count` integers nearest `mean` (the lower one at a tie)."""
    return Fraction(math.ceil(mean * count - Fraction(1, 2)), count)


def mean_neighbours(mean: Fraction, count: int) -> tuple[Fraction, Fraction]:
    """The achievable means just at or below and just at or above `mean` (the same one when it is achievable)."""
    return Fraction(math.floor(mean * count), count), Fraction(math.ceil(mean * count), count)


def sums(mean: Fraction, half: Fraction, n: int, items: int) -> range:
    """The totals (in units of 1/items) whose mean over n lies within the printed mean's rounding."""
    low, high = math.ceil((mean - half) * n * items), math.floor((mean + half) * n * items)
    if high - low + 1 > MAX_SUMS:
        raise ValueError(
            f"the printed mean admits {high - low + 1} sums of {n} values, more than {MAX_SUMS}: its digits say "
            "too little for GRIMMER"
        )
    return range(low, high + 1)


def variances(mean: Fraction, half: Fraction, sd: Fraction, n: int, items: int) -> tuple[Fraction, Fraction]:
    """The achievable variances (sample, n - 1) nearest the printed `sd` squared, at or below it and at or
    above it, over every sum the mean admits and every sum of squares of that sum's parity (in the units of
    the data, 1/items). Raises ValueError when the printed mean admits no sum (it fails GRIM first)."""
    admitted = sums(mean, half, n, items)
    if not admitted:
        raise ValueError(f"no {n} values of the data give a mean that prints as the mean: it fails grim() first")
    target = (sd * items) ** 2 * (n - 1)  # the sum of squared deviations the printed sd implies
    below: Fraction | None = None
    above: Fraction | None = None
    for total in admitted:
        offset = Fraction(total * total, n)
        floor = math.ceil(offset)  # the least whole sum of squares (the deviations' sum is >= 0)
        floor += (floor - total) % 2
        wanted = target + offset
        low = math.floor(wanted)
        low -= (low - total) % 2
        high = math.ceil(wanted)
        high += (high - total) % 2
        if low >= floor and (below is None or low - offset > below):
            below = low - offset
        if above is None or max(high, floor) - offset < above:
            above = max(high, floor) - offset
    assert above is not None
    scale = Fraction((n - 1) * items * items)
    return (above if below is None else below) / scale, above / scale


def nearest_variance(sd: Fraction, below: Fraction, above: Fraction) -> Fraction:
    """Of two variances around sd^2, the one whose root is nearer sd (exactly, without a root): the lower
    one at a tie."""
    if below == above:
        return below
    # sd - sqrt(b) <= sqrt(a) - sd  <=>  4 sd^2 - a - b <= 2 sqrt(a b)
    lhs = 4 * sd * sd - above - below
    return below if lhs <= 0 or lhs * lhs <= 4 * above * below else above


def certificate(mean: Fraction, half: Fraction, n: int, items: int, sd: Fraction | None) -> str:
    """The achievable values nearest the printed one, which no sample of n can avoid: the certificate of a
    failure (`66/19 = 3.4736842 and 67/19 = 3.5263158`)."""
    if sd is None:
        ends = mean_neighbours(mean, n * items)
        return f"the means of {n * items} whole numbers nearest {_shown(mean)} are " + " and ".join(
            f"{end.numerator}/{end.denominator} = {_shown(end)}" for end in dict.fromkeys(ends)
        )
    below, above = variances(mean, half, sd, n, items)
    shown = " and ".join(f"{_shown(_root(end))} (variance {_shown(end)})" for end in dict.fromkeys((below, above)))
    return f"the standard deviations nearest {_shown(sd)} that {n} values with that mean can have are {shown}"


def _root(variance: Fraction) -> Fraction:
    """The square root of a variance, truncated to 12 decimals (shown to 8 significant digits)."""
    return Fraction(math.isqrt(variance.numerator * 10**24 // variance.denominator), 10**12)


def _shown(value: Fraction) -> str:
    from cgx_checks.arithmetic.decimals import decimal_text

    return decimal_text(value, 8)


def whole(value: Fraction, role: str) -> int:
    """A count as a positive whole number, or ValueError naming its role."""
    if value.denominator != 1 or value < 1:
        raise ValueError(f"{role} is a whole number of at least 1, not {value}")
    return value.numerator

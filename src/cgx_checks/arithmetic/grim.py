"""GRIM and GRIMMER: a mean (and a standard deviation) of integer-valued data that a sample of the stated size
can produce at the printed precision.

The mean of n integers is a whole number over n, so "M = 3.48 (n = 19)" is impossible: 66/19 = 3.4737 and
67/19 = 3.5263 are the nearest means 19 integers have, and neither prints as 3.48 (Brown and Heathers' GRIM
test). A scale of k integer items averaged per person has means that are whole numbers over n * k. Each
person's sum of squares is a whole number too, of the parity of the sum (x^2 and x are both odd or both even),
so not every standard deviation goes with an achievable mean (Anaya's GRIMMER test). The full test also bounds
the sum of squares from below (n integers of a given sum have the least one when they are as equal as integers
can be) and, for fewer than five values, finds the gaps above it by enumeration (two integers summing to 0 have
0, 2, 8, 18, ..., never 4).

* `grim(mean, n)`, `grim(mean, n, items)`: the achievable mean nearest the printed one, a whole number over
  n * items; the check passes when it prints as the mean does (lies within its rounding).
* `grimmer(mean, sd, n)`, `grimmer(mean, sd, n, items)`: the achievable standard deviation (sample, n - 1)
  nearest the printed one, over every sum the printed mean admits and every sum of squares n integers of that
  sum achieve (its parity, at least the least one, and enumerated for fewer than 5 values).

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


def least_squares(total: int, n: int) -> int:
    """The least sum of squares of n integers summing to `total`: theirs when they are as equal as integers can
    be (total = q n + r gives r values q + 1 and n - r values q), the floor of the achievable range."""
    q, r = divmod(total, n)
    return n * q * q + 2 * q * r + r


ENUMERATED_BELOW: Final = 5
"""Samples smaller than this have gaps among the sums of squares above the least one of the right parity (two
integers summing to 0 have 0, 2, 8, 18, ...: never 4), so achievability is decided by enumerating them; from 5
values on, every sum of squares of the sum's parity at or above the least is achieved (checked by enumeration
in the tests), so the range and the parity decide it."""

MAX_ENUMERATED: Final = 10**6
"""The largest sum of squares (about the mean) enumerated for fewer than 5 values: beyond, the search is slow."""


def achievable(total: int, squares: int, n: int) -> bool:
    """Whether some n integers sum to `total` with sum of squares `squares`: the parity, the least sum of
    squares, and for fewer than 5 values an exhaustive search of the values about their mean."""
    if (squares - total) % 2 or squares < least_squares(total, n):
        return False
    if n >= ENUMERATED_BELOW:
        return True
    q, r = divmod(total, n)  # shifted by q, the values sum to r and their squares to:
    spread = squares - n * q * q - 2 * q * r
    if spread > MAX_ENUMERATED:
        raise ValueError(f"the sum of squares of {n} values is too large to enumerate ({spread} about their mean)")
    return _represented(r, spread, n)


def _represented(total: int, squares: int, n: int) -> bool:
    """Whether n integers sum to `total` with squares summing to `squares` (n >= 2): the first chosen within
    the Cauchy-Schwarz bound, the last two solved ((y - z)^2 = 2 squares - total^2)."""
    if n == 2:
        gap = 2 * squares - total * total
        root = math.isqrt(gap) if gap >= 0 else -1
        return root * root == gap and (root - total) % 2 == 0
    reach = math.isqrt(squares)
    return any(
        _represented(total - y, squares - y * y, n - 1)
        for y in range(-reach, reach + 1)
        if (n - 1) * (squares - y * y) >= (total - y) ** 2
    )


def variances(mean: Fraction, half: Fraction, sd: Fraction, n: int, items: int) -> tuple[Fraction, Fraction]:
    """The achievable variances (sample, n - 1) nearest the printed `sd` squared, at or below it and at or
    above it, over every sum the mean admits and every sum of squares n integers with that sum achieve (in
    the units of the data, 1/items): of the sum's parity, at least the least one, and found by enumeration
    for fewer than 5 values. Raises ValueError when the printed mean admits no sum (it fails GRIM first)."""
    admitted = sums(mean, half, n, items)
    if not admitted:
        raise ValueError(f"no {n} values of the data give a mean that prints as the mean: it fails grim() first")
    target = (sd * items) ** 2 * (n - 1)  # the sum of squared deviations the printed sd implies
    below: Fraction | None = None
    above: Fraction | None = None
    for total in admitted:
        offset = Fraction(total * total, n)
        floor = least_squares(total, n)
        wanted = target + offset
        low = math.floor(wanted)
        low -= (low - total) % 2
        while low >= floor and not achievable(total, low, n):
            low -= 2
        high = max(math.ceil(wanted), floor)
        high += (high - total) % 2
        while not achievable(total, high, n):
            high += 2
        if low >= floor and (below is None or low - offset > below):
            below = low - offset
        if above is None or high - offset < above:
            above = high - offset
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

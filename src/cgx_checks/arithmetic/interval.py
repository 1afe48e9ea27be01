"""Rigorous enclosures of irrational values: exact rational bounds at a chosen precision.

recompute-numbers compares exactly. A value that is rational (every expression of + - * / and whole
powers over numerals) is computed exactly as a `Fraction`. A value that is not (pi, e, a square root that
is not a perfect square, a logarithm, an exponential) is enclosed in an `Interval` of two `Fraction`s that
provably contains it, computed with integer arithmetic only: the bounds are the same on every machine,
and no float is ever involved. The check then decides "within the reported rounding" on the interval:
inside the band is a pass, outside a fail, and an interval that straddles the band's edge is computed
again at a higher precision (`PRECISIONS`); the precision that decided is recorded with the check.

How each bound is proved (W is the working precision in bits; every series is summed in fixed point,
each truncating division losing less than one unit of the last place, ulp):

* sqrt and n-th roots: the integer root r of floor(q * 2^(nk)) gives r <= q^(1/n) * 2^k < r + 1;
  a perfect power of a rational (sqrt(9/4)) is exact.
* exp(q): q is halved m times to |r| <= 1/2; the Taylor terms of e^r are each under their true value by
  less than 2 ulps, the tail after the first term that rounds to 0 is under 6 ulps; the enclosure is
  squared m times with outward rounding.
* ln(q): q = 2^k * y with 2/3 <= y <= 4/3, ln y = 2 atanh((y - 1)/(y + 1)) with |z| <= 1/5 and
  ln 2 = 2 atanh(1/3); each atanh term is within 3 ulps, the tail under 4.
* pi = 16 atan(1/5) - 4 atan(1/239) (Machin); each alternating term within 2 ulps, the tail under 1.

Each bound adds a margin larger than the sum of these errors, so the enclosure always holds.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from math import isqrt
from typing import NamedTuple

from cgx_checks.arithmetic.limits import MAX_RESULT_BITS
from cgx_checks.expression_codes import ExpressionCode
from cgx_core.errors import CgxError

PRECISIONS = (64, 256, 1024, 4096)
"""The precisions (bits) tried in turn until the outcome is decided; the first always for exact values."""

_GUARD = 32  # extra working bits beyond the precision asked for
MAX_EXP_ARGUMENT = 8000
"""exp(x) for |x| above this would need more than MAX_RESULT_BITS bits (e^8000 is about 2^11542)."""


class Undecided(Exception):
    """The interval is too wide to decide something (a sign, a divisor's zero): try a higher precision."""


class Interval(NamedTuple):
    """A closed interval [lo, hi] of exact rationals; an exact value has lo == hi."""

    lo: Fraction
    hi: Fraction

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


def exact(value: Fraction) -> Interval:
    return Interval(value, value)


def round_outward(value: Interval, bits: int) -> Interval:
    """The interval widened to dyadic bounds of about `bits` significant bits (exact values unchanged)."""
    if value.exact:
        return value
    return Interval(_round(value.lo, bits, up=False), _round(value.hi, bits, up=True))


def _round(q: Fraction, bits: int, *, up: bool) -> Fraction:
    numerator, denominator = q.numerator, q.denominator
    if numerator == 0:
        return q
    shift = bits - (abs(numerator).bit_length() - denominator.bit_length())
    if shift <= 0 and denominator == 1:
        return q
    if denominator & (denominator - 1) == 0 and abs(numerator).bit_length() <= bits + 2:
        return q
    scaled, remainder = (
        divmod(numerator << shift, denominator) if shift >= 0 else divmod(numerator, denominator << -shift)
    )
    if up and remainder:
        scaled += 1
    return Fraction(scaled, 1 << shift) if shift >= 0 else Fraction(scaled << -shift)


def check_size(value: Fraction, what: str) -> Fraction:
    if value.numerator.bit_length() > MAX_RESULT_BITS or value.denominator.bit_length() > MAX_RESULT_BITS:
        raise CgxError(
            ExpressionCode.RESULT_TOO_LARGE,
            f"{what} is too large to compute exactly (over {MAX_RESULT_BITS} bits in its numerator or denominator)",
        )
    return value


class Arithmetic:
    """Interval arithmetic at `bits` of precision."""

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self.work = bits + _GUARD

    def _out(self, lo: Fraction, hi: Fraction) -> Interval:
        return round_outward(Interval(lo, hi), self.work)

    def add(self, a: Interval, b: Interval) -> Interval:
        return self._out(a.lo + b.lo, a.hi + b.hi) if not (a.exact and b.exact) else exact(a.lo + b.lo)

    def neg(self, a: Interval) -> Interval:
        return Interval(-a.hi, -a.lo)

    def mul(self, a: Interval, b: Interval) -> Interval:
        if a.exact and b.exact:
            return exact(a.lo * b.lo)
        products = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
        return self._out(min(products), max(products))

    def div(self, a: Interval, b: Interval) -> Interval:
        if b.lo <= 0 <= b.hi:
            if b.exact:
                raise ZeroDivisionError
            raise Undecided("the divisor's enclosure contains 0")
        return self.mul(a, Interval(1 / b.hi, 1 / b.lo) if not b.exact else exact(1 / b.lo))

    def power(self, a: Interval, exponent: int) -> Interval:
        if a.exact:
            return exact(a.lo**exponent)
        if exponent < 0:
            return self.div(exact(Fraction(1)), self.power(a, -exponent))
        if exponent == 0:
            return exact(Fraction(1))
        if exponent % 2 or a.lo >= 0:
            return self._out(a.lo**exponent, a.hi**exponent)
        if a.hi <= 0:
            return self._out(a.hi**exponent, a.lo**exponent)
        return self._out(Fraction(0), max(-a.lo, a.hi) ** exponent)

    def absolute(self, a: Interval) -> Interval:
        if a.lo >= 0:
            return a
        if a.hi <= 0:
            return self.neg(a)
        return Interval(Fraction(0), max(-a.lo, a.hi))

    def root(self, a: Interval, degree: int) -> Interval:
        """The real `degree`-th root (degree >= 2; an odd root of a negative value is negative)."""
        if (a.hi < 0 and degree % 2 == 0) or (a.exact and a.lo < 0 and degree % 2 == 0):
            raise ValueError(f"an even root of a negative value ({_show(a.lo)})")
        if a.lo < 0 <= a.hi and degree % 2 == 0:
            raise Undecided("the enclosure of an even root's argument contains 0")
        if a.exact:
            perfect = _perfect_root(a.lo, degree)
            if perfect is not None:
                return exact(perfect)
        return self._out(_root_bounds(a.lo, degree, self.work)[0], _root_bounds(a.hi, degree, self.work)[1])

    def exp(self, a: Interval) -> Interval:
        if a.exact and a.lo == 0:
            return exact(Fraction(1))
        for end in (a.lo, a.hi):
            if abs(end) > MAX_EXP_ARGUMENT:
                raise CgxError(
                    ExpressionCode.RESULT_TOO_LARGE,
                    f"exp of {_show(end)} is too large to compute (|x| above {MAX_EXP_ARGUMENT})",
                )
        return self._out(_exp_bounds(a.lo, self.work)[0], _exp_bounds(a.hi, self.work)[1])

    def ln(self, a: Interval) -> Interval:
        if a.hi <= 0:
            raise ValueError(f"the logarithm of a value that is not positive ({_show(a.hi)})")
        if a.lo <= 0:
            raise Undecided("the enclosure of a logarithm's argument contains 0")
        if a.exact and a.lo == 1:
            return exact(Fraction(0))
        return self._out(_ln_bounds(a.lo, self.work)[0], _ln_bounds(a.hi, self.work)[1])

    def log(self, a: Interval, base: Interval) -> Interval:
        """The logarithm of `a` to `base`; exact when both are exact and `a` is a whole power of `base`."""
        if base.hi <= 0 or (base.exact and base.lo == 1):
            raise ValueError(f"a logarithm's base must be positive and not 1 (got {_show(base.lo)})")
        if a.exact and base.exact and a.lo > 0:
            power = _whole_log(a.lo, base.lo)
            if power is not None:
                return exact(Fraction(power))
        return self.div(self.ln(a), self.ln(base))

    def pi(self) -> Interval:
        return Interval(*_pi_bounds(self.work))

    def e(self) -> Interval:
        return self.exp(exact(Fraction(1)))


def _show(value: Fraction) -> str:
    from cgx_checks.arithmetic.decimals import decimal_text

    return decimal_text(value, 12)


def _perfect_root(q: Fraction, degree: int) -> Fraction | None:
    negative = q < 0
    numerator, denominator = abs(q.numerator), q.denominator
    top, bottom = _iroot(numerator, degree), _iroot(denominator, degree)
    if top**degree == numerator and bottom**degree == denominator:
        return Fraction(-top if negative else top, bottom)
    return None


def _iroot(value: int, degree: int) -> int:
    """floor(value ** (1/degree)) for a non-negative int, exactly (Newton's method on integers)."""
    if value < 2:
        return value
    if degree == 2:
        return isqrt(value)
    guess = 1 << -(-value.bit_length() // degree)  # a power of two at or above the root
    while True:
        better = ((degree - 1) * guess + value // guess ** (degree - 1)) // degree
        if better >= guess:
            break
        guess = better
    while guess**degree > value:
        guess -= 1
    while (guess + 1) ** degree <= value:
        guess += 1
    return guess


def _root_bounds(q: Fraction, degree: int, bits: int) -> tuple[Fraction, Fraction]:
    """Bounds lo <= q^(1/degree) <= hi (a negative q only for an odd degree)."""
    if q < 0:
        lo, hi = _root_bounds(-q, degree, bits)
        return -hi, -lo
    if q == 0:
        return Fraction(0), Fraction(0)
    numerator, denominator = q.numerator, q.denominator
    k = bits - (numerator.bit_length() - denominator.bit_length()) // degree
    shift = degree * k
    scaled = (numerator << shift) // denominator if shift >= 0 else numerator // (denominator << -shift)
    root = _iroot(scaled, degree)
    scale = Fraction(1 << k) if k >= 0 else Fraction(1, 1 << -k)
    return Fraction(root) / scale, Fraction(root + 1) / scale


def _exp_bounds(q: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Bounds lo <= e^q <= hi for an exact rational q."""
    if q == 0:
        return Fraction(1), Fraction(1)
    halvings = max(0, abs(q.numerator).bit_length() - q.denominator.bit_length() + 1)
    r = q / (1 << halvings)
    work = bits + halvings + 16
    one = 1 << work
    a, b = abs(r.numerator), r.denominator
    term, total, count = one, one, 0
    negative = r < 0
    k = 0
    while term:
        k += 1
        term = term * a // (b * k)
        total += -term if negative and k % 2 else term
        count += 1
    margin = 2 * count + 8
    value = Interval(Fraction(total - margin, one), Fraction(total + margin, one))
    arithmetic = Arithmetic(work)
    for _ in range(halvings):
        value = arithmetic.power(value, 2)
    return value.lo, value.hi


def _atanh_fixed(z: Fraction, work: int) -> tuple[int, int]:
    """2^work * atanh(z) for |z| <= 1/3, as (value, margin) in units of 2^-work."""
    a, b = abs(z.numerator), z.denominator
    power = (a << work) // b
    total = power
    count = 1
    j = 0
    square_a, square_b = a * a, b * b
    while power:
        j += 1
        power = power * square_a // square_b
        total += power // (2 * j + 1)
        count += 1
    return (-total if z < 0 else total), 3 * count + 4


def _ln_bounds(q: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Bounds lo <= ln(q) <= hi for an exact rational q > 0."""
    k = q.numerator.bit_length() - q.denominator.bit_length()
    y = q / Fraction(2) ** k
    while y > Fraction(4, 3):
        k += 1
        y /= 2
    while y < Fraction(2, 3):
        k -= 1
        y *= 2
    work = bits + abs(k).bit_length() + 16
    one = 1 << work
    ln_y, margin_y = _atanh_fixed((y - 1) / (y + 1), work)
    ln_2, margin_2 = _ln2_fixed(work)
    value = 2 * ln_y + k * 2 * ln_2
    margin = 2 * margin_y + abs(k) * 2 * margin_2 + 2
    return Fraction(value - margin, one), Fraction(value + margin, one)


@functools.cache
def _ln2_fixed(work: int) -> tuple[int, int]:
    return _atanh_fixed(Fraction(1, 3), work)


def _atan_inverse_fixed(x: int, work: int) -> tuple[int, int]:
    """2^work * atan(1/x) for an integer x > 1, as (value, margin)."""
    power = (1 << work) // x
    total = power
    count = 1
    j = 0
    square = x * x
    while power:
        j += 1
        power //= square
        term = power // (2 * j + 1)
        total += -term if j % 2 else term
        count += 1
    return total, 2 * count + 2


@functools.cache
def _pi_bounds(bits: int) -> tuple[Fraction, Fraction]:
    work = bits + 16
    one = 1 << work
    fifth, margin_fifth = _atan_inverse_fixed(5, work)
    other, margin_other = _atan_inverse_fixed(239, work)
    value = 16 * fifth - 4 * other
    margin = 16 * margin_fifth + 4 * margin_other
    return Fraction(value - margin, one), Fraction(value + margin, one)


def _whole_log(value: Fraction, base: Fraction) -> int | None:
    """The whole k with base**k == value, when there is one with |k| <= 1000."""
    if base <= 0 or base == 1:
        return None
    if value == 1:
        return 0
    estimate_value = value.numerator.bit_length() - value.denominator.bit_length()
    estimate_base = base.numerator.bit_length() - base.denominator.bit_length()
    if estimate_base == 0:
        candidates = range(-3, 4)
    else:
        guess = round(estimate_value / estimate_base)
        candidates = range(guess - 2, guess + 3)
    for k in candidates:
        if (
            k == 0
            or abs(k) > 1000
            or abs(k) * max(base.numerator.bit_length(), base.denominator.bit_length()) > MAX_RESULT_BITS
        ):
            continue
        if base**k == value:
            return k
    return None

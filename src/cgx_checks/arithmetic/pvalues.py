"""The p-value of a reported test statistic, so a check can recompute `t(28) = 2.20, p = .04` as a reader
with a table (or statcheck) would.

Each function takes the statistic and its degrees of freedom as the text writes them and gives the p-value:

* `p_z(z)`, `p_t(t, df)`, `p_r(r, df)`: two-sided (the usual report); `p_z1(z)`, `p_t1(t, df)`: one-sided,
  the upper tail P(Z >= z), P(T >= t);
* `p_chi2(x, df)`, `p_F(F, df1, df2)`: the upper tail, as chi-square and F tests are reported.

They are regularized incomplete beta and gamma functions, computed by mpmath (sympy's own arbitrary-precision
library) at the requested precision plus guard bits. The enclosure is the value at two working precisions,
widened by their difference and a relative 2^-bits: mpmath computes these functions to its working
precision, and the check records the precision that decided. The arguments must be exact (numerals of the
text, or arithmetic on them); the caps keep every evaluation short whatever an agent sends.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final

from cgx_checks.arithmetic.interval import Interval, Undecided
from cgx_checks.expression_codes import ExpressionCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError

PVALUE_ARGUMENTS: Final = {"p_z": 1, "p_z1": 1, "p_t": 2, "p_t1": 2, "p_r": 2, "p_chi2": 2, "p_F": 3}
"""The p-value functions and how many arguments each takes."""

MAX_STATISTIC: Final = Fraction(10**6)
"""The largest |statistic| and degrees of freedom computed (beyond them a p-value is 0 or 1 to any digits a
paper writes, and the series would be slow)."""

MAX_PVALUE_BITS: Final = 1024
"""The highest precision a p-value is computed at (4096 bits can cost seconds of CPU); a value still too
close to the reported bound is `value-undecided`."""

TINY_BITS: Final = 10_000
"""A p-value below 2^-TINY_BITS (about 10^-3010) is enclosed as [0, 2^-TINY_BITS] rather than built as an
exact rational (p_z(10^6) is near 10^-(2*10^11): its exact form would not fit in memory)."""

_GUARDS: Final = (32, 64)


def pvalue(name: str, arguments: list[Interval], bits: int) -> Interval:
    """The enclosure of the p-value `name` of exact `arguments` at `bits` of precision.

    Raises ValueError for a value outside the function's domain and CgxError for an argument that is not
    exact or is above the caps."""
    values = []
    for argument in arguments:
        if not argument.exact:
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"{name} takes the statistic and its degrees of freedom as numbers the text writes (exact values), "
                "not a root, logarithm or constant",
            )
        if abs(argument.lo) > MAX_STATISTIC:
            raise CgxError(
                ExpressionCode.RESULT_TOO_LARGE, f"{name} computes statistics and degrees of freedom up to 10^6"
            )
        values.append(argument.lo)
    _check_domain(name, values)
    if bits > MAX_PVALUE_BITS:
        raise Undecided(f"p-values are computed to {MAX_PVALUE_BITS} bits at most")
    return _enclosed(lambda mpmath: _evaluate(name, [mpmath.mpf(v.numerator) / v.denominator for v in values]), bits)


def pvalue_between(name: str, statistic: Interval, bits: int, *others: Interval) -> Interval:
    """The enclosure of every p-value `name` gives a statistic anywhere in `statistic` (with exact `others`,
    the degrees of freedom): each p-value falls as its statistic grows (the two-sided ones as its magnitude
    grows), so the ends of the statistic give the ends of the p-values."""
    if statistic.exact:
        return pvalue(name, [statistic, *others], bits)
    if name in _TWO_SIDED:
        statistic = (
            Interval(Fraction(0), max(-statistic.lo, statistic.hi))
            if statistic.lo < 0 < statistic.hi
            else (Interval(min(abs(statistic.lo), abs(statistic.hi)), max(abs(statistic.lo), abs(statistic.hi))))
        )
    elif name in ("p_chi2", "p_F") and statistic.lo < 0 <= statistic.hi:
        statistic = Interval(Fraction(0), statistic.hi)
    smallest = pvalue(name, [Interval(statistic.hi, statistic.hi), *others], bits)
    largest = pvalue(name, [Interval(statistic.lo, statistic.lo), *others], bits)
    return Interval(smallest.lo, largest.hi)


_TWO_SIDED: Final = frozenset({"p_z", "p_t", "p_r"})


def normal_quantile(probability: Fraction, bits: int) -> Interval:
    """The enclosure of the standard normal quantile of `probability` (strictly between 0 and 1): 1.959964...
    for 0.975, the z of a 95% interval."""
    if bits > MAX_PVALUE_BITS:
        raise Undecided(f"quantiles are computed to {MAX_PVALUE_BITS} bits at most")
    return _enclosed(
        lambda mpmath: (
            mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(probability.numerator) / probability.denominator - 1)
        ),
        bits,
        upper=None,
    )


def _enclosed(compute: Callable[[Any], Any], bits: int, upper: Fraction | None = Fraction(1)) -> Interval:
    """The value `compute` gives at two working precisions, widened by their difference and a relative
    2^-bits (and kept within [0, upper] for a probability)."""
    mpmath = _mpmath()
    found = []
    for guard in _GUARDS:
        with mpmath.workprec(bits + guard):
            value = compute(mpmath)
            if upper is not None and value < mpmath.ldexp(1, -TINY_BITS):  # beyond any digits a paper writes
                return Interval(Fraction(0), Fraction(1, 2**TINY_BITS))
            found.append(_fraction(value))
    coarse, fine = found
    width = abs(fine - coarse) + abs(fine) / 2**bits
    if upper is None:
        return Interval(fine - width, fine + width)
    return Interval(max(Fraction(0), fine - width), min(upper, fine + width))


def _check_domain(name: str, values: list[Fraction]) -> None:
    """Every argument after the statistic is a degree of freedom (p_z and p_z1 take none)."""
    for value in values[1:]:
        if value <= 0:
            raise ValueError(f"degrees of freedom must be positive, not {value}")
    if name == "p_r" and not -1 < values[0] < 1:
        raise ValueError(f"a correlation lies between -1 and 1, not {values[0]}")
    if name in ("p_chi2", "p_F") and values[0] < 0:
        raise ValueError(f"a {'chi-square' if name == 'p_chi2' else 'F'} statistic is not negative, not {values[0]}")


def _evaluate(name: str, v: list[Any]) -> Any:
    """The p-value with mpmath at the current working precision."""
    mpmath = _mpmath()

    half = mpmath.mpf(1) / 2
    if name in ("p_z", "p_z1"):
        z = v[0]
        return mpmath.erfc(abs(z) / mpmath.sqrt(2)) if name == "p_z" else mpmath.erfc(z / mpmath.sqrt(2)) / 2
    if name in ("p_t", "p_t1"):
        t, df = v
        two_sided = mpmath.betainc(df / 2, half, 0, df / (df + t * t), regularized=True)
        if name == "p_t":
            return two_sided
        return two_sided / 2 if t >= 0 else 1 - two_sided / 2
    if name == "p_r":
        r, df = v
        return mpmath.betainc(df / 2, half, 0, 1 - r * r, regularized=True)
    if name == "p_chi2":
        x, df = v
        return mpmath.gammainc(df / 2, x / 2, mpmath.inf, regularized=True)
    f, df1, df2 = v
    return mpmath.betainc(df2 / 2, df1 / 2, 0, df2 / (df2 + df1 * f), regularized=True)


def _fraction(value: Any) -> Fraction:
    """An mpmath real as the exact rational it is."""
    number = _mpmath().mpf(value)
    mantissa, exponent = number.man_exp
    return Fraction(int(mantissa)) * (Fraction(2) ** int(exponent))


def _mpmath() -> Any:
    """mpmath, imported when a p-value is computed (most checks never need it, and start-up counts)."""
    import mpmath  # type: ignore[import-untyped]

    return mpmath

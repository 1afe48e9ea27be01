"""An estimate, its standard error and its confidence interval, recomputed from one another.

A paper that writes "1.20 (SE 0.30; 95% CI 0.61 to 1.79), p = .001" states four numbers that must agree: the
interval is the estimate plus and minus the normal quantile of its level times the standard error, and the
p-value is that of the estimate over the standard error. For a ratio (an odds, risk or hazard ratio) the
interval is symmetric on the log scale, so its geometric middle is the estimate:

* `ci_low(est, se, level)`, `ci_high(est, se, level)`: est -+ z * se, z the normal quantile of (1 + level) / 2;
* `ci_mid(lo, hi)`: (lo + hi) / 2, the estimate of a symmetric interval; `ci_gmid(lo, hi)`: sqrt(lo * hi), that
  of an interval symmetric on the log scale;
* `se_ci(lo, hi, level)`: (hi - lo) / (2 z), the standard error an interval implies; `se_ci_log(lo, hi, level)`:
  (ln hi - ln lo) / (2 z), that of a ratio's logarithm;
* `p_ci(est, lo, hi, level)`: the two-sided normal p-value of est / se_ci(lo, hi, level); `p_ci_log(est, lo, hi,
  level)`: that of ln(est) / se_ci_log(lo, hi, level).

`level` is the interval's coverage as the text writes it (95% or 0.95), strictly between 0 and 1. The quantile
is computed by mpmath as the p-values are (`pvalues.py`): an enclosure at two working precisions, widened by
their difference and a relative 2^-bits. Every function is monotone in each of its arguments, which is what
lets `printed.py` decide it over the printed rounding of its numerals from the corners of their box alone.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from cgx_checks.arithmetic.interval import Arithmetic, Interval, exact
from cgx_checks.arithmetic.pvalues import normal_quantile, pvalue_between

ESTIMATE_ARGUMENTS: Final = {
    "ci_low": 3,
    "ci_high": 3,
    "ci_mid": 2,
    "ci_gmid": 2,
    "se_ci": 3,
    "se_ci_log": 3,
    "p_ci": 4,
    "p_ci_log": 4,
}
"""The functions of this module and how many arguments each takes."""


def estimate(arithmetic: Arithmetic, name: str, arguments: list[Interval]) -> Interval:
    """The enclosure of `name` of `arguments`. Raises ValueError for an argument outside the domain (a level
    not between 0 and 1, a negative standard error, an interval whose ends are in the wrong order, a ratio's
    end that is not positive)."""
    if name == "ci_mid":
        low, high = arguments
        _ordered(low, high)
        return arithmetic.div(arithmetic.add(low, high), exact(Fraction(2)))
    if name == "ci_gmid":
        low, high = arguments
        _ordered(_positive(low), _positive(high))
        return arithmetic.root(arithmetic.mul(low, high), 2)
    z = _quantile(arguments[-1], arithmetic.bits)
    if name in ("ci_low", "ci_high"):
        value, error = arguments[0], arguments[1]
        if error.lo < 0:
            raise ValueError(f"a standard error is not negative, not {float(error.lo):g}")
        margin = arithmetic.mul(z, error)
        return arithmetic.add(value, margin if name == "ci_high" else arithmetic.neg(margin))
    if name in ("se_ci", "se_ci_log"):
        return _error(arithmetic, name == "se_ci_log", arguments[0], arguments[1], z)
    value, low, high = arguments[0], arguments[1], arguments[2]
    logarithmic = name == "p_ci_log"
    error = _error(arithmetic, logarithmic, low, high, z)
    statistic = arithmetic.div(arithmetic.ln(_positive(value)) if logarithmic else value, error)
    return pvalue_between("p_z", arithmetic.absolute(statistic), arithmetic.bits)


def _error(arithmetic: Arithmetic, logarithmic: bool, low: Interval, high: Interval, z: Interval) -> Interval:
    """The standard error an interval [low, high] implies (of the logarithm, for a ratio's)."""
    _ordered(low, high)
    if logarithmic:
        low, high = arithmetic.ln(_positive(low)), arithmetic.ln(_positive(high))
    width = arithmetic.add(high, arithmetic.neg(low))
    return arithmetic.div(width, arithmetic.mul(exact(Fraction(2)), z))


def _quantile(level: Interval, bits: int) -> Interval:
    if not level.exact:
        raise ValueError("the level of an interval is a number the text writes (95% or 0.95)")
    if not 0 < level.lo < 1:
        raise ValueError(f"an interval's level lies between 0 and 1 (95% is 0.95), not {float(level.lo):g}")
    return normal_quantile((1 + level.lo) / 2, bits)


def _ordered(low: Interval, high: Interval) -> None:
    if low.lo >= high.hi:
        raise ValueError("an interval's lower end must be below its upper end")


def _positive(value: Interval) -> Interval:
    if value.lo <= 0:
        raise ValueError("a ratio and the ends of its interval are positive")
    return value

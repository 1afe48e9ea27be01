"""A quadrature that missed its integrand's mass certifies nothing (bug M1): the true Gaussian convolution at
narrow widths is never failed, while a false convolution is still failed where the quadrature resolves it,
and an integrand that changes sign (most of its mass cancels) still certifies a false step."""

from __future__ import annotations

from typing import Any

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.worker.comparison import compare_at

SYMBOLS = {"x": ["real"], "y": ["real"], "mu": ["real"], "sigma": ["positive"], "t": ["positive"]}
DENSITIES = (
    "Integral(exp(-(x - mu)^2/(2*sigma^2))/sqrt(2*pi*sigma^2)*exp(-(y - x)^2/(2*t^2))/sqrt(2*pi*t^2), (x, -oo, oo))"
)
CONVOLUTION = {
    "symbols": SYMBOLS,
    "lhs": DENSITIES,
    "rhs": "exp(-(y - mu)^2/(2*(sigma^2 + t^2)))/sqrt(2*pi*(sigma^2 + t^2))",
}
WRONG_CONVOLUTION = {
    **CONVOLUTION,
    "rhs": "exp(-(y - mu)^2/(2*(sigma^2 - t^2)))/sqrt(2*pi*(sigma^2 - t^2))",
}
NARROW_FAR = {"mu": "2.1", "y": "-2.2", "sigma": "0.0059", "t": "0.0024"}
"""The widths of the failure reported: the peak between mu and y is narrower than the nodes' spacing."""
NARROW_NEAR = {"mu": "3.1", "y": "3.105", "sigma": "0.0059", "t": "0.0024"}
WIDE = {"mu": "0.3", "y": "1.2", "sigma": "1.7", "t": "0.8"}


def at(raw: dict[str, Any], point: dict[str, str]) -> dict[str, Any]:
    """The worker's comparison at one point, in process (the function the numeric check runs there)."""
    return compare_at(raw, [point])


def test_the_true_convolution_is_not_failed_where_the_quadrature_misses_the_peak() -> None:
    for point in (NARROW_FAR, NARROW_NEAR):
        found = at(CONVOLUTION, point)
        assert (found["result"], found["code"], found["certificate"]) == ("error", "numeric-undefined", None), found
    assert at(CONVOLUTION, WIDE)["result"] == "passed"


def test_a_narrow_peak_beside_a_wide_one_is_not_missed_into_a_failure() -> None:
    symbols = {"x": ["real"], "m": ["real"], "s": ["positive"]}
    lhs = "Integral(exp(-x^2/2)/sqrt(2*pi) + exp(-(x - m)^2/(2*s^2))/sqrt(2*pi*s^2), (x, -oo, oo))"
    found = at({"symbols": symbols, "lhs": lhs, "rhs": "2"}, {"m": "3.3", "s": "0.001"})
    assert found["result"] != "failed", found  # the quadrature alone gives 1, with a bound of 1e-29


def test_a_false_convolution_is_still_failed_where_the_quadrature_resolves_it() -> None:
    found = at(WRONG_CONVOLUTION, WIDE)
    assert found["result"] == "failed" and found["certificate"] is not None
    assert at(WRONG_CONVOLUTION, NARROW_FAR)["result"] != "passed"


def test_the_numeric_check_never_fails_the_true_convolution_nor_passes_the_false_one(
    decider: SymbolicDecider,
) -> None:
    assert decider.numeric_check(CONVOLUTION).result != "failed"
    assert decider.numeric_check(WRONG_CONVOLUTION).result != "passed"


def test_an_integrand_that_changes_sign_still_certifies_a_false_step() -> None:
    lhs = "Integral((x + 1/100)*exp(-a*x^2), (x, -oo, oo))"  # sqrt(pi/a)/100: the odd part's mass cancels
    raw = {"symbols": {"x": ["real"], "a": ["positive"]}, "lhs": lhs, "rhs": "sqrt(pi/a)/10"}
    found = at(raw, {"a": "1.5"})
    assert found["result"] == "failed" and found["certificate"] is not None

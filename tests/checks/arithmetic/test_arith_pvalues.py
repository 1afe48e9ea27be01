"""p-values in recompute-numbers: a reported test statistic and its p-value checked against each other, as a
reader with a table (or statcheck) would: `F(2, 57) = 3.15, p < .05` is wrong (p = .0504)."""

from __future__ import annotations

import math
from fractions import Fraction as F
from statistics import NormalDist

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgx_checks.arithmetic import parse_expression, recompute
from cgx_checks.arithmetic.interval import Interval, exact
from cgx_checks.arithmetic.pvalues import TINY_BITS, pvalue
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_checks.expression_codes import ExpressionCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError

RESULTS = (
    "The effect was significant, t(28) = 2.20, p = .04, and so was the interaction, F(2, 57) = 3.15, p < .05; "
    "the fit was poor, $\\chi^2(3) = 8.2$, $p = 0.042$, z = 1.96, p = 0.050, and r(48) = .32, p < .001."
)


@pytest.mark.parametrize(
    ("expression", "result", "outcome", "shown"),
    [
        ("p_t(2.20, 28)", ".04", "passed", "p_t(2.20, 28) = 0.03622548"),
        ("p_F(3.15, 2, 57)", ".05", "failed", "p_F(3.15, 2, 57) = 0.05039966"),  # p < .05 is wrong
        ("p_chi2(8.2, 3)", "0.042", "passed", "p_chi2(8.2, 3) = 0.04205418"),
        ("p_z(1.96)", "0.050", "passed", "p_z(1.96) = 0.04999579"),
        ("p_r(.32, 48)", ".001", "failed", "p_r(.32, 48) = 0.02348552"),  # p < .001 is wrong
    ],
)
def test_a_reported_p_value_is_recomputed_from_its_statistic(
    expression: str, result: str, outcome: str, shown: str
) -> None:
    checked = recompute(expression, result, [RESULTS])
    assert checked.outcome == outcome, checked.detail
    assert checked.detail.startswith(shown), checked.detail


def test_the_relation_the_text_writes_decides_an_inequality() -> None:
    checked = recompute("p_F(3.15, 2, 57)", ".05", [RESULTS])
    assert (checked.relation, checked.outcome) == ("<", "failed")
    assert "reported < 0.05: failed" in checked.detail


def value(name: str, *arguments: F, bits: int = 64) -> Interval:
    return pvalue(name, [exact(argument) for argument in arguments], bits)


def encloses(interval: Interval, expected: float, tolerance: float = 1e-12) -> bool:
    return float(interval.lo) - tolerance <= expected <= float(interval.hi) + tolerance


@settings(deadline=None, max_examples=60)
@given(st.fractions(min_value=-30, max_value=30, max_denominator=100))
def test_closed_forms_agree(statistic: F) -> None:
    """Against forms that share no code with mpmath's incomplete beta and gamma."""
    t = float(statistic)
    assert encloses(value("p_z", statistic), 2 * (1 - NormalDist().cdf(abs(t))), 1e-9)
    assert encloses(value("p_t", statistic, F(1)), 1 - 2 / math.pi * math.atan(abs(t)))  # Cauchy
    assert encloses(value("p_t", statistic, F(2)), 1 - abs(t) / math.sqrt(2 + t * t))
    assert encloses(value("p_t1", statistic, F(2)), (1 - t / math.sqrt(2 + t * t)) / 2)
    x = abs(t)
    assert encloses(value("p_chi2", abs(statistic), F(2)), math.exp(-x / 2))
    assert encloses(value("p_F", abs(statistic), F(2), F(2)), 1 / (1 + x))


def test_the_enclosure_narrows_with_the_precision() -> None:
    coarse = value("p_t", F(22, 10), F(28))
    fine = value("p_t", F(22, 10), F(28), bits=1024)
    assert coarse.lo <= fine.lo <= fine.hi <= coarse.hi
    assert fine.hi - fine.lo < F(1, 2**1000)


def test_a_p_value_far_beyond_any_written_digits_is_enclosed_near_zero_without_building_it() -> None:
    assert value("p_z", F(10**6)) == Interval(F(0), F(1, 2**TINY_BITS))
    assert recompute("p_z(1000000)", "0.001", ["z = 1000000, p < 0.001"]).outcome == "passed"


@pytest.mark.parametrize(
    ("expression", "code", "fragment"),
    [
        ("p_t(2, 0)", ArithmeticCode.FUNCTION_DOMAIN, "degrees of freedom must be positive"),
        ("p_r(1, 5)", ArithmeticCode.FUNCTION_DOMAIN, "a correlation lies between -1 and 1"),
        ("p_chi2(-1, 3)", ArithmeticCode.FUNCTION_DOMAIN, "not negative"),
        ("p_z(sqrt(2))", Code.EXPRESSION_INVALID, "numbers the text writes"),
        ("p_t(2)", Code.EXPRESSION_INVALID, "takes 2 argument(s), not 1"),
        ("p_t(2, 10000000)", ExpressionCode.RESULT_TOO_LARGE, "up to 10^6"),
    ],
)
def test_bad_arguments_are_refused(expression: str, code: Code, fragment: str) -> None:
    text = "p_t 2 0 1 5 -1 3 2 10000000 sqrt"
    with pytest.raises(CgxError) as raised:
        recompute(expression, "0.5", [text + " 0.5"])
    assert raised.value.code == code
    assert fragment in raised.value.message


def test_a_value_on_the_reported_bound_is_undecided_within_the_precision_cap() -> None:
    # p_t(0, 5) is exactly 1: on the bound of "p < 1", which no precision separates.
    with pytest.raises(CgxError) as raised:
        recompute("p_t(0, 5)", "1", ["t(5) = 0, p < 1"])
    assert raised.value.code == ArithmeticCode.VALUE_UNDECIDED


def test_a_leading_point_numeral_is_written_as_the_paper_writes_it() -> None:
    assert parse_expression(".32") == parse_expression("0.32")._replace(text=".32")

"""decimal_text: exact fractions as readable decimals, truncated (never rounded) when they do not end."""

from __future__ import annotations

import decimal
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgx_checks.arithmetic import decimal_text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (F(0), "0"),
        (F(401), "401"),
        (F(-3, 2), "-1.5"),
        (F(1, 2000), "0.0005"),
        (F(1, 8), "0.125"),
        (F(5, 10**7), "0.0000005"),
        (F(1, 10**8), "1e-8"),
        (F(1, 3), "0." + "3" * 40 + "..."),
        (F(2, 3), "0." + "6" * 40 + "..."),  # truncated, not rounded to ...7
        (F(10**39), "1" + "0" * 39),
        (F(10**40), "1e40"),
        (F(12345, 10**50), "1.2345e-46"),
        (F(4004999999, 10**7), "400.4999999"),
        (F(10**45 + 1, 10**45), "1." + "0" * 39 + "..."),
    ],
)
def test_examples(value: F, text: str) -> None:
    assert decimal_text(value) == text


def test_fewer_digits() -> None:
    assert decimal_text(F(1630, 452), 20) == "3.6061946902654867256..."
    assert decimal_text(F(-(2**10_000)), 5).startswith("-1.9950e3010")


@settings(max_examples=500, deadline=None)
@given(
    st.integers(-(10**60), 10**60).filter(bool),
    st.integers(1, 10**60),
    st.integers(1, 45),
)
def test_agrees_with_decimal_truncation(numerator: int, denominator: int, digits: int) -> None:
    """The digits shown are decimal's division truncated toward zero, and `...` marks exactly the inexact."""
    context = decimal.Context(prec=digits, rounding=decimal.ROUND_DOWN, Emax=10**6, Emin=-(10**6))
    context.clear_flags()
    expected = context.divide(decimal.Decimal(numerator), decimal.Decimal(denominator))
    text = decimal_text(F(numerator, denominator), digits)
    inexact = text.endswith("...")
    assert inexact == bool(context.flags[decimal.Inexact])
    assert decimal.Decimal(text.removesuffix("...")) == expected

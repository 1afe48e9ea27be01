"""GRIMMER beyond parity: an SD of integer data needs a sum of squares that n integers with the mean's sum
achieve, not only one of the right parity. The oracle (`grim.achievable`) is proved against enumeration, and
the check against every sample of a few values: a printed (mean, SD) pair fails exactly when no sample has it."""

from __future__ import annotations

import itertools
import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

from cgx_checks.arithmetic import recompute
from cgx_checks.arithmetic.grim import achievable, least_squares
from cgx_checks.arithmetic.recompute import Recomputation


def grimmer(mean: str, sd: str, n: int) -> str:
    text = f"ratings (M = {mean}, SD = {sd}, n = {n})"
    checked = recompute(f"grimmer({mean}, {sd}, {n})", sd, [text], premised=True)
    assert isinstance(checked, Recomputation)
    return checked.outcome


def sums_of_squares(n: int, reach: int) -> set[tuple[int, int]]:
    """Every (sum, sum of squares) of n integers in -reach..reach."""
    found = set()
    for values in itertools.combinations_with_replacement(range(-reach, reach + 1), n):
        found.add((sum(values), sum(v * v for v in values)))
    return found


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_the_oracle_is_exactly_what_n_integers_achieve(n: int) -> None:
    """Every sum of squares up to a bound, for sums about 0: n integers have it exactly when `achievable`
    says so. From 5 values on that is the parity and the least sum of squares alone, with no gap above it."""
    bound = 40 if n < 6 else 26
    reach = math.isqrt(bound) + 1
    found = sums_of_squares(n, reach)
    for total in range(-n, n + 1):
        for squares in range(bound + 1):
            assert achievable(total, squares, n) == ((total, squares) in found), (n, total, squares)


def test_the_least_sum_of_squares_is_that_of_values_as_equal_as_they_can_be() -> None:
    assert [least_squares(total, 10) for total in (0, 5, 10, 15, -5)] == [0, 5, 10, 25, 5]
    assert least_squares(66, 19) == 19 * 9 + 2 * 3 * 9 + 9  # nine 4s and ten 3s: 144 + 90 = 234
    assert least_squares(66, 19) == 9 * 16 + 10 * 9


def printed(value: Fraction | float, digits: int = 2) -> str:
    return str(Decimal(str(float(value))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


@pytest.mark.parametrize(("n", "means"), [(3, ["2.00", "2.33", "3.67"]), (4, ["2.50", "3.25"]), (5, ["3.40"])])
def test_grimmer_fails_exactly_the_pairs_no_sample_of_n_integers_prints(n: int, means: list[str]) -> None:
    """Brute force: every sample of n integers near the mean, its mean and SD printed to two decimals (ties
    avoided: none of these means and SDs sits on a rounding tie). An SD from 0.00 to 2.40 passes with the mean
    exactly when some sample prints both."""
    reach = range(-2, 10)
    seen: set[tuple[str, str]] = set()
    for values in itertools.combinations_with_replacement(reach, n):
        mean = Fraction(sum(values), n)
        variance = sum((v - mean) ** 2 for v in values) / (n - 1)
        seen.add((printed(mean), printed(math.sqrt(variance))))
    for mean in means:
        for hundredths in range(0, 241, 3):
            sd = f"{hundredths / 100:.2f}"
            expected = "passed" if (mean, sd) in seen else "failed"
            assert grimmer(mean, sd, n) == expected, (mean, sd, n)


def test_published_style_cases_that_parity_alone_passed() -> None:
    # Three ratings with mean 2.00 sum to 6; an SD of 1.41 needs squared deviations of 4: 0, 2, 6, 8 are what
    # three integers summing to 6 have (the parity test accepted 4).
    assert grimmer("2.00", "1.41", 3) == "failed"
    assert grimmer("2.00", "1.73", 3) == "passed"  # 1, 1, 4
    # Ten counts with mean 0.50 sum to 5, so their squares sum to at least 5: the SD is at least 0.53.
    assert grimmer("0.50", "0.24", 10) == "failed"
    assert grimmer("0.50", "0.53", 10) == "passed"  # five 1s and five 0s


def test_a_sum_of_squares_too_large_to_enumerate_is_refused() -> None:
    with pytest.raises(ValueError, match="too large to enumerate"):
        achievable(0, 10**7, 3)

"""Reported statistics decided as statcheck decides them (the statistic at its printed precision, decision
errors named), intervals against their estimate and standard error, and GRIM/GRIMMER: what a reader of a
results section relies on when a check says a number is impossible."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgx_checks.arithmetic import recompute
from cgx_checks.arithmetic.interval import exact
from cgx_checks.arithmetic.pvalues import pvalue_between
from cgx_checks.arithmetic.recompute import ProposalProblems, Recomputation
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.errors import CgxError

TESTS = (
    "t(28) = 2.2, p = .03; t(28) = 2.20, p = .03; F(2, 57) = 3.15, p < .05; r(48) = .32, p < .001; "
    "t(30) = 1.50, p = .03; z = 2.10, p = .20"
)


def check(expression: str, result: str, text: str = TESTS, premised: bool = False) -> Recomputation:
    checked = recompute(expression, result, [text], premised=premised)
    assert isinstance(checked, Recomputation)
    return checked


def test_a_p_value_consistent_only_with_the_statistic_at_its_printed_precision_passes() -> None:
    # p_t(2.2, 28) = .0362 prints as .04; t = 2.25, within 2.2's rounding, gives .0325, which prints as .03.
    checked = check("p_t(2.2, 28)", ".03")
    assert checked.outcome == "passed", checked.detail
    assert "at the printed precision, 2.2 is 2.15 to 2.25, which gives 0.0324934361512" in checked.detail
    assert checked.to_json()["printed_range"][0].startswith("0.0324934")


def test_the_same_p_value_with_a_statistic_printed_to_more_digits_fails() -> None:
    checked = check("p_t(2.20, 28)", ".03")
    assert checked.outcome == "failed"
    assert "2.20 is 2.195 to 2.205, which gives 0.0358356592035... to 0.0366191154726..." in checked.detail
    assert "decision error" not in checked.detail  # both significant: inconsistent, not a decision error


def test_a_p_value_that_passes_as_written_records_what_it_always_did() -> None:
    checked = recompute("p_t(2.20, 28)", ".04", ["t(28) = 2.20, p = .04"])
    assert checked.outcome == "passed"
    assert "printed_range" not in checked.to_json() and "decision_error" not in checked.to_json()
    assert checked.detail.endswith("reported 0.04 +- 0.005: passed")


@pytest.mark.parametrize(
    ("expression", "result", "words"),
    [
        ("p_F(3.15, 2, 57)", ".05", "reported significant at .05, every recomputed p is above .05"),  # p < .05
        ("p_t(1.50, 30)", ".03", "reported significant at .05, every recomputed p is above .05"),
        ("p_z(2.10)", ".20", "reported not significant at .05, every recomputed p is at most .05"),
    ],
)
def test_a_failed_p_value_across_05_is_named_a_decision_error(expression: str, result: str, words: str) -> None:
    checked = check(expression, result)
    assert checked.outcome == "failed"
    assert f"a decision error: {words}" in checked.detail
    assert checked.to_json()["decision_error"] is True


def test_an_inconsistent_p_value_on_the_same_side_of_05_is_no_decision_error() -> None:
    checked = check("p_r(.32, 48)", ".001")  # .023 against p < .001: both significant
    assert checked.outcome == "failed"
    assert "decision_error" not in checked.to_json()


def test_p_equal_to_05_counts_as_significant_as_statcheck_counts_it() -> None:
    # t(40) = 2.02 gives .0502, which prints as .05: consistent, whatever significance is read into it.
    assert check("p_t(2.02, 40)", ".05", "t(40) = 2.02, p = .05").outcome == "passed"


@settings(deadline=None, max_examples=40)
@given(st.integers(min_value=5, max_value=400), st.integers(min_value=2, max_value=120))
def test_every_p_value_a_statistic_in_the_printed_rounding_gives_is_accepted(hundredths: int, df: int) -> None:
    """Soundness against statcheck's rule: a p computed from any t that prints as the reported t, printed to
    the reported p's digits, is never failed."""
    t = F(hundredths, 100)
    for offset in (F(-1, 200), F(0), F(1, 200)):
        true_p = pvalue_between("p_t", exact(t + offset), 64, exact(F(df)))
        middle = (true_p.lo + true_p.hi) / 2
        printed = round(float(middle), 3)
        if printed == 0 or abs(float(middle) - printed) > 0.00049:  # too near a rounding boundary to print
            continue
        text = f"t({df}) = {float(t):.2f}, p = {printed:.3f}"
        assert check(f"p_t({float(t):.2f}, {df})", f"{printed:.3f}", text).outcome == "passed", text


def test_an_interval_agrees_with_its_estimate_and_standard_error() -> None:
    text = "The effect was 1.20 (SE 0.30; 95% CI 0.61 to 1.79); the other 0.80 (SE 0.20; 95% CI 0.50 to 1.19)."
    assert check("ci_low(1.20, 0.30, 95%)", "0.61", text).outcome == "passed"
    assert check("ci_high(1.20, 0.30, 95%)", "1.79", text).outcome == "passed"
    assert check("se_ci(0.61, 1.79, 95%)", "0.30", text).outcome == "passed"
    assert check("ci_mid(0.61, 1.79)", "1.20", text).outcome == "passed"
    failed = check("ci_low(0.80, 0.20, 95%)", "0.50", text)  # 0.80 - 1.96 * 0.20 = 0.408: not 0.50
    assert failed.outcome == "failed"
    assert "which gives 0.393207383169... to 0.422807023014..." in failed.detail
    assert check("ci_mid(0.50, 1.19)", "0.80", text).outcome == "failed"  # 0.845: not symmetric


def test_a_ratio_s_interval_is_symmetric_on_the_log_scale() -> None:
    text = "OR 2.10 (95% CI 1.32 to 3.34), p = .002; OR 1.50 (95% CI 1.10 to 2.60), p = .02"
    assert check("ci_gmid(1.32, 3.34)", "2.10", text).outcome == "passed"
    assert check("ci_mid(1.32, 3.34)", "2.10", text).outcome == "failed"  # 2.33: not on the stated scale
    assert check("p_ci_log(2.10, 1.32, 3.34, 95%)", ".002", text).outcome == "passed"  # z = 3.13, p = .0017
    failed = check("ci_gmid(1.10, 2.60)", "1.50", text)  # 1.69
    assert failed.outcome == "failed"


def test_a_p_value_from_an_interval_is_named_a_decision_error() -> None:
    text = "the difference was 0.40 (95% CI -0.10 to 0.90), p = .03"
    checked = check("p_ci(0.40, -0.10, 0.90, 95%)", ".03", text)
    assert checked.outcome == "failed"
    assert "a decision error" in checked.detail


@pytest.mark.parametrize("level", ["0", "1", "120%"])
def test_an_interval_s_level_is_between_0_and_1(level: str) -> None:
    text = f"0.61 1.79 {level} 0.30"
    with pytest.raises(CgxError) as raised:
        check(f"se_ci(0.61, 1.79, {level})", "0.30", text)
    assert raised.value.code == ArithmeticCode.FUNCTION_DOMAIN


GRIM_TEXT = "ratings (1 to 7): M = 3.48, n = 19; M = 3.47, SD = 1.20, n = 19; M = 2.50, SD = 1.10, n = 12, 3 items"


def test_an_impossible_mean_fails_with_the_nearest_achievable_means() -> None:
    checked = check("grim(3.48, 19)", "3.48", GRIM_TEXT, premised=True)
    assert checked.outcome == "failed"
    assert "the means of 19 whole numbers nearest 3.48 are 66/19 = 3.4736842... and 67/19 = 3.5263157..." in (
        checked.detail
    )


def test_a_possible_mean_passes_and_items_multiply_the_count() -> None:
    assert check("grim(3.47, 19)", "3.47", GRIM_TEXT, premised=True).outcome == "passed"
    assert check("grim(2.50, 12, 3)", "2.50", GRIM_TEXT, premised=True).outcome == "passed"


def test_grimmer_fails_a_standard_deviation_no_sum_of_squares_of_the_right_parity_gives() -> None:
    # 19 integers with mean 3.47 sum to 66; an SD of 1.20 needs a sum of squares of 254.97 to 255.40: 255 is odd.
    checked = check("grimmer(3.47, 1.20, 19)", "1.20", GRIM_TEXT, premised=True)
    assert checked.outcome == "failed"
    assert "the standard deviations nearest 1.2 that 19 values with that mean can have are 1.1722922" in (
        checked.detail
    )
    assert check("grimmer(2.50, 1.10, 12, 3)", "1.10", GRIM_TEXT, premised=True).outcome == "passed"


def test_grim_needs_the_premise_that_the_data_are_integers() -> None:
    with pytest.raises(ProposalProblems) as raised:
        check("grim(3.48, 19)", "3.48", GRIM_TEXT)
    assert raised.value.code == ArithmeticCode.PREMISE_MISSING
    assert "premises" in raised.value.fixes[0][1]


def test_grim_takes_the_mean_as_printed() -> None:
    with pytest.raises(CgxError) as raised:
        check("grim(3.48 * 1, 19)", "3.48", GRIM_TEXT + " 1", premised=True)
    assert "as the text prints it" in raised.value.message


@settings(deadline=None, max_examples=60)
@given(st.lists(st.integers(min_value=1, max_value=7), min_size=2, max_size=12))
def test_every_real_sample_passes_grim_and_grimmer(sample: list[int]) -> None:
    """No false alarm: the mean and SD of any sample of integers, printed to two decimals, pass both tests."""
    n = len(sample)
    mean = F(sum(sample), n)
    sd = math.sqrt(sum((x - mean) ** 2 for x in sample) / (n - 1))
    printed_mean, printed_sd = f"{float(mean):.2f}", f"{sd:.2f}"
    if abs(float(mean) * 100 % 1 - 0.5) < 1e-9 or abs(sd * 100 % 1 - 0.5) < 1e-6:
        return  # a tie at the rounding: float printing may round either way
    text = f"M = {printed_mean}, SD = {printed_sd}, n = {n}"
    assert check(f"grim({printed_mean}, {n})", printed_mean, text, premised=True).outcome == "passed"
    assert check(f"grimmer({printed_mean}, {printed_sd}, {n})", printed_sd, text, premised=True).outcome == "passed"


def test_grimmer_finds_every_impossible_sd_a_small_exhaustive_search_finds() -> None:
    """Against brute force: for n = 4 values on 1..5, an SD GRIMMER passes with a mean is one some sample
    with that printed mean has, up to the parity test's blind spot (it tests sums of squares, not samples)."""
    samples = list(itertools.combinations_with_replacement(range(1, 6), 4))
    achieved = {(f"{sum(s) / 4:.2f}", f"{math.sqrt(sum((x - sum(s) / 4) ** 2 for x in s) / 3):.2f}") for s in samples}
    for mean, sd in sorted(achieved)[:12]:
        text = f"M = {mean}, SD = {sd}, n = 4"
        assert check(f"grimmer({mean}, {sd}, 4)", sd, text, premised=True).outcome == "passed"

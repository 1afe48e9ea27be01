"""Written precision everywhere: a constant printed inside an expression (1.3e-7 in `1.3\\times10^{-7}\\sqrt{\\tau}`)
stands for its interval, half a unit of its last digit either side, as a bare reported number does; the step
passes within it, fails only where no value within it can make the step hold, and errs where that is unknown."""

from __future__ import annotations

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.codes import MathsCode

TAU = {"\\tau": ["positive"]}
EXACT = r"\frac{\sqrt{5}}{\sqrt{3}} \times 10^{-7} \sqrt{\tau}"  # 1.29099...e-7 sqrt(tau)


def test_a_printed_coefficient_passes_within_its_precision_and_records_the_interval(decider: SymbolicDecider) -> None:
    outcome = decider.decide({"symbols": TAU, "latex": EXACT + r" = 1.3\times10^{-7}\sqrt{\tau}"})
    assert (outcome.result, outcome.method) == ("passed", "precision"), outcome
    assert outcome.approximate == {"reported": "1.3e-7", "tolerance": "5e-9", "value": "1.29099444873581e-7"}
    assert "within its written precision (1.3e-7 +- 5e-9)" in outcome.detail


def test_a_printed_coefficient_outside_its_precision_fails_naming_the_value_it_needs(decider: SymbolicDecider) -> None:
    outcome = decider.decide({"symbols": TAU, "latex": EXACT + r" = 1.2\times10^{-7}\sqrt{\tau}"})
    assert (outcome.result, outcome.method) == ("failed", "precision"), outcome
    assert outcome.witness is not None  # and the failure as printed is certified at a witness, as ever
    assert "holds only when the printed 1.2e-7 is 1.29099444873581e-7, outside" in outcome.detail
    # A printed constant that cannot make the step hold at any value leaves the failure as it was.
    other = decider.decide({"symbols": TAU, "latex": EXACT + r" = 1.3\times10^{-7}\tau"})
    assert (other.result, other.method) == ("failed", "witness")


def test_a_printed_constant_the_step_is_not_linear_in_is_undecided_not_failed(decider: SymbolicDecider) -> None:
    outcome = decider.decide({"symbols": {"x": ["positive"]}, "lhs": "x^1.5", "rhs": "x^(3/2) + 1"})
    assert (outcome.result, outcome.code) == ("error", MathsCode.SYMBOLIC_UNDECIDED), outcome
    assert "1.5 (+- 0.05)" in outcome.detail


def test_an_integer_is_exact_and_a_step_exact_as_printed_passes_as_before(decider: SymbolicDecider) -> None:
    assert decider.decide({"symbols": {"x": ["real"]}, "lhs": "0.5*x", "rhs": "x/2"}).result == "passed"
    exact = decider.decide({"symbols": {"x": ["real"]}, "lhs": "2*x", "rhs": "3*x"})
    assert (exact.result, exact.method) == ("failed", "witness")

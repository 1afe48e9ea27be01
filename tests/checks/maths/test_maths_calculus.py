"""Calculus, special functions, conditions and approximate steps, decided through the worker; and what the
numeric fallback does with integrals, sums, limits and undefined functions."""

from __future__ import annotations

from typing import Any

import pytest
import sympy

from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.caller.numeric import numeric_points
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.limits import NUMERIC_CALCULUS_BUDGET
from cgx_checks.maths.read.points import value_from_json
from cgx_checks.maths.read.step import parse_step
from cgx_checks.maths.worker.build import build_step
from cgx_checks.maths.worker.comparison import compare_at
from cgx_checks.maths.worker.decide import decide_step
from cgx_core.codes import Code
from cgx_core.errors import CgxError

REAL = ["real"]


def step(lhs: str, rhs: str, symbols: dict[str, list[str]], **extra: Any) -> dict[str, Any]:
    return {"symbols": symbols, "lhs": lhs, "rhs": rhs, **extra}


SUBSTITUTION = step("Integral(2*x*exp(x^2), (x, 0, 1))", "Integral(exp(u), (u, 0, 1))", {"x": REAL, "u": REAL})
PRODUCT_RULE = step("Derivative(r*Q(r), r)", "Q(r) + r*Derivative(Q(r), r)", {"r": ["positive"]}, functions=["Q"])
REINDEXED = step(
    "Sum(f(k), (k, 1, n))",
    "Sum(f(j + 1), (j, 0, n - 1))",
    {"k": ["integer"], "j": ["integer"], "n": ["positive", "integer"]},
    functions=["f"],
)


@pytest.mark.parametrize(
    ("encoding", "method"),
    [
        (SUBSTITUTION, "doit"),
        (PRODUCT_RULE, "doit"),
        (REINDEXED, "normalise"),
        (step("Sum(k, (k, 1, n))", "n*(n + 1)/2", {"k": ["integer"], "n": ["positive", "integer"]}), "expand"),
        (step("Limit(sin(x)/x, x, 0)", "1", {"x": REAL}), "doit"),
        (step("Limit((1 + 1/n)^n, n, oo)", "E", {"n": ["positive"]}), "doit"),
        (step("Limit(x*log(x), x, 0, '+')", "0", {"x": ["positive"]}), "doit"),
        (step("Integral(exp(-x), (x, 0, oo))", "1", {"x": REAL}), "doit"),
        (step("Integral(exp(-x^2), (x, -oo, oo))", "sqrt(pi)", {"x": REAL}), "doit"),
        (step("Integral(1/x^2, (x, 1, oo))", "1", {"x": REAL}), "doit"),
        (step("Integral(exp(-t^2), (t, 0, x))", "sqrt(pi)/2*erf(x)", {"x": REAL, "t": REAL}), "doit"),
        (step("erf(x) + erfc(x)", "1", {"x": REAL}), "special"),
        (step("gamma(x + 1)", "x*gamma(x)", {"x": ["positive"]}), "special"),
        (step("gamma(1/2)", "sqrt(pi)", {}), "identical"),
        (step("Integral(exp(-t)/t, (t, x, oo))", "E1(x)", {"x": ["positive"], "t": ["positive"]}), "special"),
        (step("Derivative(E1(x), x)", "-exp(-x)/x", {"x": ["positive"]}), "doit"),
        (step("Derivative(besselj(0, x), x)", "-besselj(1, x)", {"x": REAL}), "doit"),
        (step("Integral(DiracDelta(x - 1)*cos(x), (x, -oo, oo))", "cos(1)", {"x": REAL}), "doit"),
        (step("Derivative(Heaviside(x), x)", "DiracDelta(x)", {"x": REAL}), "doit"),
        (step("ln(x*y)", "ln(x) + log(y)", {"x": ["positive"], "y": ["positive"]}), "expand"),
        (step("Derivative(λ*exp(λ*x), x)", "λ^2*exp(λ*x)", {"λ": ["positive"], "x": REAL}), "doit"),
    ],
)
def test_true_calculus_steps_pass(decider: SymbolicDecider, encoding: dict[str, Any], method: str) -> None:
    outcome = decider.decide(encoding)
    assert (outcome.result, outcome.method) == ("passed", method), outcome


@pytest.mark.parametrize(
    "encoding",
    [
        step("Integral(exp(-t^2), (t, 0, x))", "sqrt(pi)*erf(x)", {"x": REAL, "t": REAL}),
        step("Integral(2*x*exp(x^2), (x, 0, 1))", "Integral(exp(u), (u, 0, 2))", {"x": REAL, "u": REAL}),
        step("Limit((1 + 1/n)^n, n, oo)", "3", {"n": ["positive"]}),
        step("Sum(k^2, (k, 1, n))", "n*(n + 1)/2", {"k": ["integer"], "n": ["positive", "integer"]}),
        step("Integral(exp(-x), (x, 0, oo))", "2", {"x": REAL}),
        step("gamma(x + 1)", "gamma(x)", {"x": ["positive"]}),
    ],
)
def test_false_calculus_steps_fail_with_a_proof(decider: SymbolicDecider, encoding: dict[str, Any]) -> None:
    outcome = decider.decide(encoding)
    assert outcome.result == "failed", outcome
    assert outcome.method in ("constant", "witness")
    if outcome.witness:  # the witness is exact: the difference there is nonzero, computed here independently
        built = build_step(parse_step(encoding))
        values = {
            built.symbols[name]: sympy.Rational(*value_from_json(raw)[0].as_integer_ratio())
            for name, raw in outcome.witness.items()
        }
        assert sympy.N((built.lhs - built.rhs).doit().subs(values), 20) != 0


@pytest.mark.parametrize(
    "encoding",
    [
        step("Derivative(r*Q(r), r)", "r*Derivative(Q(r), r)", {"r": ["positive"]}, functions=["Q"]),
        step(
            "Sum(f(k), (k, 1, n))",
            "Sum(f(k + 1), (k, 1, n))",
            {"k": ["integer"], "n": ["positive", "integer"]},
            functions=["f"],
        ),
    ],
)
def test_a_false_step_about_an_undefined_function_is_not_proved_false_but_the_numeric_check_fails_it(
    decider: SymbolicDecider, encoding: dict[str, Any]
) -> None:
    # Q(r) left over proves nothing (Q may be 0): sympy cannot decide; a test function shows it false.
    assert decider.decide(encoding).code == str(MathsCode.SYMBOLIC_UNDECIDED)
    numeric = decider.numeric_check(encoding)
    assert numeric.result == "failed", numeric
    assert numeric.functions is not None and set(numeric.functions) == set(encoding["functions"])


def test_the_numeric_check_evaluates_integrals_sums_and_limits_at_its_points(decider: SymbolicDecider) -> None:
    cases = [
        step("Integral(exp(-a*t^2), (t, -oo, oo))", "sqrt(pi/a)", {"a": ["positive"], "t": REAL}),
        step("Sum(a^k/factorial(k), (k, 0, oo))", "exp(a)", {"a": REAL, "k": ["integer"]}),
        step("Limit((1 + a/n)^n, n, oo)", "exp(a)", {"a": REAL, "n": ["positive"]}),
        step("Integral(sin(a*t)/t, (t, 0, 1))", "Si(a)", {"a": ["positive"], "t": REAL}),
        step("E1(a)", "-Ei(-a)", {"a": ["positive"]}),
        REINDEXED,
    ]
    for encoding in cases:
        _, points = numeric_points(encoding)
        assert compare_at(encoding, points[:4])["result"] == "passed", encoding
    wrong = step("Integral(exp(-a*t^2), (t, -oo, oo))", "sqrt(pi*a)", {"a": ["positive"], "t": REAL})
    assert decider.numeric_check(wrong).result == "failed"


def test_e1_is_minus_ei_of_minus_x_decided_by_the_numeric_check(decider: SymbolicDecider) -> None:
    encoding = step("E1(x)", "-Ei(-x)", {"x": ["positive"]})
    assert decider.decide(encoding).result == "error"  # sympy's branch cuts hide the identity from simplify
    assert decider.numeric_check(encoding).result == "passed"
    assert decider.numeric_check(step("E1(x)", "Ei(-x)", {"x": ["positive"]})).result == "failed"


# -- approximate steps -----------------------------------------------------------------------------------


def test_a_reported_number_passes_within_its_rounding_and_is_recorded_as_approximate(decider: SymbolicDecider) -> None:
    outcome = decider.decide(step("sqrt(5.8e-10)", "2.4e-5", {}))
    assert (outcome.result, outcome.method) == ("passed", "rounding")
    assert outcome.approximate == {"reported": "2.4e-5", "tolerance": "5.00e-7", "value": "2.40831891575846e-5"}
    assert "approximate pass" in outcome.detail
    failed = decider.decide(step("sqrt(5.8e-10)", "2.5e-5", {}))
    assert (failed.result, failed.method) == ("failed", "rounding")
    assert decider.decide(step("sqrt(5.8e-10)", "2.41e-5", {})).result == "passed"  # three digits: +- 5e-8
    assert decider.decide(step("sqrt(5.8e-10)", "2.40e-5", {})).result == "failed"
    assert decider.decide(step("sqrt(2)", "1.414", {})).result == "passed"
    assert decider.decide(step("-sqrt(2)", "-1.414", {})).result == "passed"
    assert decider.decide(step("Integral(exp(-x^2), (x, 0, 1))", "0.7468", {"x": REAL})).result == "passed"
    # An integer in an equality is exact; a decimal equal to the value passes exactly.
    assert decider.decide(step("sqrt(2)", "1", {})).result == "failed"
    exact = decider.decide(step("1/4 + 1/4", "0.5", {}))
    assert (exact.result, exact.method, exact.approximate) == ("passed", "identical", None)


def test_an_approx_step_in_latex_reads_trailing_zeros_of_an_integer_as_rounding(decider: SymbolicDecider) -> None:
    assert decider.decide({"symbols": {}, "latex": r"\sqrt{90000} \cdot 1.06 \approx 300"}).result == "passed"
    assert decider.decide({"symbols": {}, "latex": r"\sqrt{90000} \cdot 1.2 \approx 300"}).result == "failed"
    assert decider.decide({"symbols": {}, "latex": r"\pi \approx 3.14"}).result == "passed"
    assert decider.decide({"symbols": {}, "latex": r"\pi \approx 3.15"}).result == "failed"


# -- conditions --------------------------------------------------------------------------------------------

STABLE = "And(Abs(-a_1/2 + sqrt(a_1^2/4 - a_2)) < 1, Abs(-a_1/2 - sqrt(a_1^2/4 - a_2)) < 1)"
"""Both roots of q^2 + a_1 q + a_2 inside the unit circle: the second-order filter is stable."""
A = {"a_1": REAL, "a_2": REAL}


def test_the_true_stability_triangle_is_not_refuted_and_the_wrong_one_fails_with_a_witness(
    decider: SymbolicDecider,
) -> None:
    wrong = decider.decide(step("And(Abs(a_1) < 2, Abs(a_1) - 1 < a_2, a_2 < a_1)", STABLE, A))
    assert (wrong.result, wrong.method) == ("failed", "witness")
    assert wrong.witness is not None
    a_1, a_2 = (sympy.Rational(*value_from_json(wrong.witness[name])[0].as_integer_ratio()) for name in ("a_1", "a_2"))
    roots = sympy.Poly(sympy.Symbol("q") ** 2 + a_1 * sympy.Symbol("q") + a_2).all_roots()
    inside = all(abs(complex(root)) < 1 for root in roots)
    claimed = abs(a_1) < 2 and abs(a_1) - 1 < a_2 < a_1
    assert inside != claimed  # at the witness, the paper's region and stability disagree
    right = step("And(Abs(a_1) < 2, Abs(a_1) - 1 < a_2, a_2 < 1)", STABLE, A)
    assert decider.decide(right).result != "failed"
    numeric = decider.numeric_check(right)  # sampled agreement of two conditions is no evidence either way
    assert (numeric.result, numeric.code) == ("error", "numeric-condition")


def test_conditions_in_one_real_symbol_are_compared_as_sets(decider: SymbolicDecider) -> None:
    same = decider.decide(step("And(x > 0, x < 1)", "(x - 1)*x < 0", {"x": REAL}))
    assert (same.result, same.method) == ("passed", "sets")
    differ = decider.decide(step("And(x > 0, x < 1)", "0 < x <= 1", {"x": REAL}))
    assert (differ.result, differ.witness) == ("failed", {"x": "1"})
    always = decider.decide(step("x^2 + 1 > 0", "True", {"x": REAL}))
    assert always.result == "passed"
    never = decider.decide(step("x^2 - 1 > 0", "True", {"x": REAL}))
    assert never.result == "failed"


def test_a_condition_and_a_value_cannot_be_one_step() -> None:
    with pytest.raises(CgxError) as caught:
        parse_step(step("x > 0", "1", {"x": REAL}))
    assert caught.value.code == Code.EXPRESSION_INVALID and "is a condition" in caught.value.message


# -- refusals -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "code", "words"),
    [
        (step("ln(x)", "Log(x)", {"x": REAL}), ExpressionCode.UNKNOWN_FUNCTION, "did you mean log?"),
        (step("arctan(x)", "atann(x)", {"x": REAL}), ExpressionCode.UNKNOWN_FUNCTION, "did you mean atan?"),
        (step("erff(x)", "1", {"x": REAL}), ExpressionCode.UNKNOWN_FUNCTION, "did you mean erf?"),
        (step("x", "x", {"x": REAL}), MathsCode.STEP_TRIVIAL, "could not fail"),
        (step("x*2 + 1", "1 + 2*x", {"x": REAL}), MathsCode.STEP_TRIVIAL, "could not fail"),
        (step("Integral(x, (y, 0, 1))", "1", {"x": REAL}), Code.EXPRESSION_INVALID, "declared symbol"),
        (step("Integral(x, (x, 0))", "1", {"x": REAL}), Code.EXPRESSION_INVALID, "(x, a, b)"),
        (step("Derivative(x^2, x, 11)", "0", {"x": REAL}), Code.EXPRESSION_TOO_LARGE, "order"),
        (step("Sum(k, k)", "1", {"k": REAL}), Code.EXPRESSION_INVALID, "(k, a, b)"),
        (step("x + (1, 2)", "1", {"x": REAL}), Code.EXPRESSION_INVALID, "does not parse"),
        (step("sin((x, 1, 2))", "1", {"x": REAL}), Code.EXPRESSION_INVALID, "belong in Integral"),
        (step("Limit(x, x, 0, '*')", "0", {"x": REAL}), Code.EXPRESSION_INVALID, "does not parse"),
        (step("Q(x)", "1", {"x": REAL}), ExpressionCode.UNKNOWN_FUNCTION, "declare an undefined function"),
        (step("gamma(x)", "1", {"x": REAL, "gamma": REAL}), Code.EXPRESSION_INVALID, "declared symbol and"),
        (step("x % 2", "1", {"x": REAL}), Code.EXPRESSION_INVALID, "% is not read: write x/100"),
        (step("And(x, x > 1)", "True", {"x": REAL}), Code.EXPRESSION_INVALID, "joins conditions"),
    ],
)
def test_what_the_check_cannot_run_is_refused_with_a_code_and_a_hint(
    encoding: dict[str, Any], code: Code, words: str
) -> None:
    with pytest.raises(CgxError) as caught:
        parse_step(encoding)
    assert caught.value.code == code, caught.value.message
    assert words in caught.value.message


def test_a_false_step_with_a_4300_digit_value_fails_with_its_witness_not_an_internal_error(
    decider: SymbolicDecider,
) -> None:
    # At the witness a49 = -252/101 the difference has a 5,780-digit numerator: more than the 4,300 digits
    # Python writes as text. The value is recorded to 15 digits.
    encoding = step("a49^1000*7^3990", "1", {f"a{index:02d}": REAL for index in range(50)})
    outcome = decider.decide(encoding)
    assert (outcome.result, outcome.method, outcome.code) == ("failed", "witness", None)
    assert outcome.difference == "1.04796470438082e+3769"
    assert decide_step(parse_step(encoding)).to_json() == outcome.to_json()


def test_the_numeric_check_of_an_approximate_step_allows_its_rounding(decider: SymbolicDecider) -> None:
    reported = step("Integral(exp(-x^2), (x, 0, 1))", "0.7468", {"x": REAL})
    assert decider.numeric_check(reported).result == "passed"  # a relative 1e-12 would fail 0.74682...
    assert decider.numeric_check(step("Integral(exp(-x^2), (x, 0, 1))", "0.7470", {"x": REAL})).result == "failed"


def test_an_integral_of_an_undefined_function_by_substitution_is_decided_with_a_test_function(
    decider: SymbolicDecider,
) -> None:
    symbols = {"x": REAL, "u": REAL, "a": ["positive"]}
    substituted = step("Integral(2*f(2*x), (x, 0, a))", "Integral(f(u), (u, 0, 2*a))", symbols, functions=["f"])
    assert decider.decide(substituted).result == "error"  # sympy cannot integrate an undefined f
    numeric = decider.numeric_check(substituted, budget=NUMERIC_CALCULUS_BUDGET)  # 64 quadratures
    assert numeric.result == "passed" and numeric.functions is not None and "f(t) = " in numeric.functions["f"]
    wrong = step("Integral(2*f(2*x), (x, 0, a))", "Integral(f(u), (u, 0, a))", symbols, functions=["f"])
    assert decider.numeric_check(wrong, budget=NUMERIC_CALCULUS_BUDGET).result == "failed"

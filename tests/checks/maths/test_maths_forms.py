"""Forms theory papers write: substitutions and changes of variables (Subs), symbols with an index expression
declared as written (\\alpha_{j-1}), a delta function in polar form (decided by sympy's sifting or an error,
never by sampling), and a limit whose residue sympy already reduced to a closed form (decided from it)."""

from __future__ import annotations

import pytest

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.read.spelling import spelled
from cgx_checks.maths.read.step import parse_step
from cgx_core.errors import CgxError

REAL = ["real"]


def test_a_substitution_passes_and_its_mutant_fails(decider: SymbolicDecider) -> None:
    symbols = {"x": REAL, "a": REAL}
    right = decider.decide({"symbols": symbols, "lhs": "Subs(Derivative(x^3, x), x, 2*a)", "rhs": "12*a^2"})
    assert right.result == "passed", right
    wrong = decider.decide({"symbols": symbols, "lhs": "Subs(Derivative(x^3, x), x, 2*a)", "rhs": "6*a^2"})
    assert (wrong.result, wrong.method) == ("failed", "witness")
    assert wrong.certificate is not None


def test_a_change_of_variables_in_an_integral_passes(decider: SymbolicDecider) -> None:
    step = {
        "symbols": {"x": REAL, "u": REAL, "a": REAL},
        "lhs": "Integral(2*x*exp(x^2), (x, 0, a))",
        "rhs": "Subs(Integral(exp(u), (u, 0, x)), x, a^2)",
    }
    assert decider.decide(step).result == "passed"


def test_a_substitutions_variable_must_be_declared() -> None:
    with pytest.raises(CgxError) as raised:
        parse_step({"symbols": {"a": REAL}, "lhs": "Subs(a^2, 2, a)", "rhs": "4"})
    assert "must be a declared symbol" in raised.value.message


def test_symbols_with_index_expressions_are_declared_as_written() -> None:
    symbols = {"\\alpha_{j-1}": REAL, "\\alpha_j": REAL, "a_{j+1}": REAL, "x": REAL}
    step = parse_step({"symbols": symbols, "latex": r"\alpha_j = \alpha_{j-1} x + a_{j+1}"})
    assert spelled(step.rhs) == "alpha_j_minus_1*x + a_j_plus_1"
    assert step.encoding.renamed()["\\alpha_{j-1}"] == "alpha_j_minus_1"
    # Undeclared, an index expression is still a sequence to declare (or a symbol to declare as written).
    with pytest.raises(CgxError) as raised:
        parse_step({"symbols": {"k": REAL, "x": REAL}, "latex": "x_{k+1} = x"})
    assert raised.value.code == MathsCode.LATEX_INVALID
    assert "declare the symbol as written" in raised.value.message


def test_a_polar_delta_is_decided_by_sympys_sifting_or_not_at_all(decider: SymbolicDecider) -> None:
    symbols = {"r": ["positive"], "t": REAL, "r0": ["positive"], "t0": REAL}
    polar = "Integral(Integral(exp(-r)*cos(t)*DiracDelta(r - r0)*DiracDelta(t - t0), (r, 0, oo)), (t, -pi, pi))"
    step = {"symbols": symbols, "lhs": polar, "rhs": "exp(-r0)*cos(t0)"}
    symbolic = decider.decide(step)
    assert symbolic.result == "error"  # t0 may lie outside (-pi, pi): sympy keeps its Heaviside factors
    numeric = decider.numeric_check(step)
    assert (numeric.result, numeric.code) == ("error", MathsCode.NUMERIC_DISTRIBUTION)


def test_a_limit_whose_residue_is_a_closed_form_is_decided_from_it(decider: SymbolicDecider) -> None:
    symbols = {name: ["positive"] for name in ("h", "S", "f", "D", "x")}
    step = {"symbols": symbols, "lhs": "Limit((S*f^2*x - D*h^2*x)/(S*f^2*x + h), x, oo)", "rhs": "1"}
    outcome = decider.decide(step)
    assert (outcome.result, outcome.method) == ("failed", "residue"), outcome
    assert outcome.certificate is not None and outcome.certificate["residue"] == "-D*h**2/(S*f**2)"
    right = {**step, "rhs": "1 - D*h^2/(S*f^2)"}
    assert decider.decide(right).result == "passed"

"""A failure is a proof and a pass is evidence: every wrong result found on a real paper, as a regression.

Each case below was decided wrongly once (issue 22): a branch term of sympy's antiderivative taken as a
proof, a distribution passing "at 32 points", two values near 1e-6423491 failing a true step. Now each is
a certified failure or an honest `error`.
"""

from __future__ import annotations

from typing import Any

import sympy

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.caller.numeric import numeric_points
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.read.step import parse_step
from cgx_checks.maths.worker.build import build_step
from cgx_checks.maths.worker.certify import bounded_value, certificate
from cgx_checks.maths.worker.comparison import compare_at
from cgx_checks.maths.worker.decide import _confirmed, decide_step
from cgx_checks.maths.worker.decision import passed

DIFFUSION: dict[str, Any] = {
    "symbols": {"r": ["positive"], "D": ["positive"], "t": ["positive"], "s": ["positive"]},
    "lhs": "Integral(exp(-r^2/(8*D*s))/s, (s, 0, t))",
    "rhs": "E1(r^2/(8*D*t))",
}


def _numeric(encoding: dict[str, Any]) -> dict[str, Any]:
    _, points = numeric_points(encoding)
    return compare_at(encoding, points)


def test_a_true_integral_whose_antiderivative_has_a_branch_term_never_fails(decider: SymbolicDecider) -> None:
    # sympy's lhs - rhs at the witness is about -3.14159*I (exp_polar's branch): no proof of anything.
    outcome = decide_step(parse_step(DIFFUSION))
    assert outcome.result == "error" and outcome.code == MathsCode.SYMBOLIC_UNDECIDED
    assert "exp_polar" in outcome.detail
    # The numeric fallback meets values near 1e-42075 where quadrature cannot bound its error: it skips
    # those points rather than fail on them.
    numeric = _numeric(DIFFUSION)
    assert numeric["result"] != "failed", numeric
    assert decider.numeric_check(DIFFUSION).result != "failed"


def test_the_same_integral_made_false_fails_with_a_certificate(decider: SymbolicDecider) -> None:
    false = {**DIFFUSION, "rhs": "2*E1(r^2/(8*D*t))"}
    outcome = decider.decide(false)
    assert outcome.result == "failed", outcome
    assert outcome.certificate is not None and outcome.witness is not None
    recorded = outcome.certificate
    assert recorded["digits"] == 30 and recorded["margin"] == 8
    left, right = (float(recorded[side]["value"]) for side in ("lhs", "rhs"))
    assert abs(right - 2 * left) < 1e-12 * abs(right)  # each side was evaluated, not their residue
    assert float(recorded["lhs"]["bound"]) < 1e-20 and float(recorded["rhs"]["bound"]) < 1e-20
    # Verify re-derives it: the same encoding, the same bytes.
    assert decider.decide(false).to_json() == outcome.to_json()


def test_a_distribution_never_passes_numerically(decider: SymbolicDecider) -> None:
    for encoding in (
        {"symbols": {"x": ["real"]}, "lhs": "DiracDelta(x)", "rhs": "2*DiracDelta(x)"},
        {"symbols": {"r": ["real"]}, "lhs": "r*DiracDelta(r)", "rhs": "0"},
        {"symbols": {"x": ["real"], "y": ["real"]}, "lhs": "KroneckerDelta(x, y)", "rhs": "0"},
    ):
        assert decide_step(parse_step(encoding)).result != "passed"
        numeric = decider.numeric_check(encoding)
        assert (numeric.result, numeric.code) == ("error", MathsCode.NUMERIC_DISTRIBUTION), numeric
        assert "distribution" in numeric.detail
    # KroneckerDelta of integers is an ordinary function of them, but 0 at almost every point drawn: two such
    # sides agreeing on 0 everywhere is no evidence either (KroneckerDelta(n, 4) would agree as well).
    integers = {"symbols": {"n": ["integer"]}, "lhs": "KroneckerDelta(n, 3)", "rhs": "KroneckerDelta(4, n)"}
    numeric = decider.numeric_check(integers)
    assert (numeric.result, numeric.code) == ("error", MathsCode.NUMERIC_DEGENERATE), numeric


def test_heaviside_at_its_jump_is_skipped_not_compared() -> None:
    # H(0) is a convention (sympy: 1/2); an integer symbol reaches 0, where the two sides may differ.
    step = {
        "symbols": {"n": ["integer"]},
        "lhs": "Heaviside(n)",
        "rhs": "(sign(n) + 1)/2 + Heaviside(n) - Heaviside(n)",
    }
    found = _numeric(step)
    assert found["result"] in ("passed", "error") and found["result"] != "failed"


def test_a_numeric_failure_carries_its_certificate() -> None:
    found = _numeric({"symbols": {"x": ["real"]}, "lhs": "sin(x)^2", "rhs": "1 - cos(x)^2 + 1/1000"})
    assert found["result"] == "failed"
    certified = found["certificate"]
    assert certified is not None and set(certified) == {"digits", "lhs", "margin", "rhs"}
    assert "error bound" in found["detail"]


def test_an_unevaluated_integral_is_no_proof_either_way() -> None:
    declared = {"symbols": {"x": ["real"]}, "functions": ["Q"], "lhs": "Integral(Q(x), (x, 0, 1))", "rhs": "0"}
    assert decide_step(parse_step(declared)).result == "error"
    built = build_step(parse_step(declared), evaluate=False)
    assert bounded_value(built.lhs, {}) is None  # a declared function has no value to bound
    x = sympy.Symbol("x", real=True)
    indefinite = sympy.Integral(sympy.exp(x), x)
    assert bounded_value(indefinite, {}) is None


def test_values_beyond_any_double_are_compared_by_their_digits() -> None:
    tiny = sympy.exp(-(sympy.Integer(10) ** 7))  # about 1e-4342945: a double is 0 there
    assert certificate(tiny, 2 * tiny, {}) is not None
    assert certificate(tiny, tiny * (1 + sympy.Rational(1, 10**40)), {}) is None  # within the bounds


def test_a_pass_contradicted_by_the_sides_evaluated_apart_is_an_error() -> None:
    # A false calculus step, handed to the pass's confirmation as if sympy had reduced it to 0.
    symbols = {"a": ["positive"], "u": ["real"]}
    step = parse_step({"symbols": symbols, "lhs": "Integral(exp(-a*u), (u, 0, oo))", "rhs": "2/a"})
    written = build_step(step, evaluate=False)
    confirmed = _confirmed(step, written, passed("doit"))
    assert (confirmed.result, confirmed.code) == ("error", MathsCode.SYMBOLIC_UNDECIDED)
    assert "neither is a proof" in confirmed.detail
    true = parse_step({"symbols": symbols, "lhs": "Integral(exp(-a*u), (u, 0, oo))", "rhs": "1/a"})
    assert _confirmed(true, build_step(true, evaluate=False), passed("doit")).result == "passed"


def test_a_residue_sympy_cannot_print_is_an_error_not_a_failed_call(decider: SymbolicDecider) -> None:
    # sympy 1.14's printer raises on the residue of this true step (an Integral of floor): the check must
    # still answer, with a verdict or an error, never an internal error of the whole call.
    outcome = decider.decide({"symbols": {"x": ["real"]}, "lhs": "Integral(floor(x), (x, 0, 3))", "rhs": "3"})
    assert outcome.result in ("passed", "error"), outcome

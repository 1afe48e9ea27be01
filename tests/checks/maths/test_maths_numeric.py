"""rederive-maths-numeric: seeded points in each domain, the tolerance, undefined points, reproducibility."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.caller.numeric import numeric_points
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.numeric_rules import POINTS, numeric_seed
from cgx_checks.maths.read.encoding import domain_of, load_encoding
from cgx_checks.maths.read.points import draw_points, value_from_json
from cgx_checks.maths.read.vocabulary import ASSUMPTIONS
from cgx_checks.maths.worker.comparison import compare_at
from cgx_core.base.digests import canonical_json, hex_of, json_digest

X = {"x": ["real"]}


def encoding(lhs: str, rhs: str, symbols: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {"symbols": X if symbols is None else symbols, "lhs": lhs, "rhs": rhs}


def test_the_seed_is_the_digest_of_the_encoding_and_the_points_are_drawn_again() -> None:
    raw = encoding("atan(x) + atan(1/x)", "pi/2", {"x": ["positive"]})
    seed, points = numeric_points(raw)
    assert seed == int(hex_of(json_digest(raw))[:13], 16) == numeric_seed(load_encoding(raw))
    assert seed < 2**53
    assert numeric_points(raw) == (seed, points)
    assert len(points) == POINTS
    assert numeric_points(encoding("atan(x) + atan(1/x)", "pi/2 ", {"x": ["positive"]}))[0] != seed


def test_the_outcome_records_the_seed_and_points_and_is_reproduced_byte_for_byte(decider: SymbolicDecider) -> None:
    raw = encoding("atan(x) + atan(1/x)", "pi/2", {"x": ["positive"]})
    first = decider.numeric_check(raw)
    assert first.result == "passed" and first.compared == POINTS
    seed, points = numeric_points(raw)
    assert first.seed == seed and list(first.points) == points
    again = decider.numeric_check(raw)
    assert canonical_json(first.to_json()) == canonical_json(again.to_json())
    assert compare_at(raw, points)["result"] == "passed"  # in process, the same points: the same answer


def test_a_failing_step_records_the_first_point_that_disagrees(decider: SymbolicDecider) -> None:
    raw = encoding("sqrt(x^2)", "x")
    outcome = decider.numeric_check(raw)
    assert outcome.result == "failed" and outcome.failed_at is not None
    point = outcome.points[outcome.failed_at]
    assert Fraction(value_from_json(point["x"])[0]) < 0
    assert all(Fraction(value_from_json(p["x"])[0]) >= 0 for p in outcome.points[: outcome.failed_at])
    assert outcome.lhs is not None and outcome.rhs is not None
    assert Decimal(outcome.lhs) == -Decimal(outcome.rhs)


@pytest.mark.parametrize(
    ("lhs", "rhs", "result"),
    [
        ("x*(1 + 10^-13)", "x", "passed"),  # inside the relative tolerance of 1e-12
        ("x*(1 + 10^-11)", "x", "failed"),
        ("x*(1 + 1e-11)", "x", "error"),  # a printed 1e-11 is 1e-11 +- 5e-12: sampling cannot search that
        ("sin(x)^2 + cos(x)^2 - 1", "0", "passed"),  # 0 up to evaluation noise: the zero floor
        ("sinh(x)^2 - cosh(x)^2 + 1", "0", "passed"),
        ("exp(x)^2 - exp(2*x)", "10^-20", "failed"),  # a real difference, tiny against nothing
        ("(x + 1)^3", "x^3 + 3*x^2 + 3*x + 1", "passed"),
        ("(x + 1)^3", "x^3 + 3*x^2 + 3*x", "failed"),
    ],
)
def test_the_tolerance(lhs: str, rhs: str, result: str) -> None:
    raw = encoding(lhs, rhs)
    assert compare_at(raw, numeric_points(raw)[1])["result"] == result


def test_too_many_undefined_points_are_an_error() -> None:
    # x*sin(pi*x)/sin(pi*x) is 0/0 at every integer and x between them.
    raw = encoding("x*sin(pi*x)/sin(pi*x)", "x")
    some = [{"x": str(n)} for n in range(8)] + [{"x": f"{n}.5"} for n in range(24)]
    found = compare_at(raw, some)
    assert (found["result"], found["undefined"], found["compared"]) == ("passed", 8, 24)
    many = [{"x": str(n)} for n in range(9)] + [{"x": f"{n}.5"} for n in range(23)]
    found = compare_at(raw, many)
    assert (found["result"], found["code"]) == ("error", str(MathsCode.NUMERIC_UNDEFINED))


def test_sides_constant_on_pieces_that_agree_on_one_value_everywhere_are_no_evidence() -> None:
    """Heaviside(x - 5) and Heaviside(x - 6) are both 0 below 5, where every point lies: no pass."""
    below = [{"x": f"{n}.5"} for n in range(-16, 4)]
    found = compare_at(encoding("Heaviside(x - 5)", "Heaviside(x - 6)"), below)
    assert (found["result"], found["code"]) == ("error", str(MathsCode.NUMERIC_DEGENERATE))
    assert "Heaviside" in found["detail"] and "no evidence" in found["detail"]
    constant = compare_at(encoding("(x - floor(x))/(x - floor(x))", "1"), below)
    assert (constant["result"], constant["code"]) == ("error", str(MathsCode.NUMERIC_DEGENERATE))
    # An analytic side that is constant is evidence: atan(x) + atan(1/x) = pi/2 cannot agree by accident.
    analytic = {"symbols": {"x": ["positive"]}, "lhs": "atan(x) + atan(1/x)", "rhs": "pi/2"}
    assert compare_at(analytic, numeric_points(analytic)[1])["result"] == "passed"


def test_two_conditions_are_never_decided_by_sampling() -> None:
    """A conjunction of equalities is false at almost every point on both sides: agreeing there is vacuous."""
    stationary = {
        "symbols": {name: ["real"] for name in ("a", "b", "c", "d")},
        "lhs": "And(Eq(a, b), Eq(c, d))",
        "rhs": "And(Eq(a, 2*b), Eq(c, d))",
    }
    found = compare_at(stationary, numeric_points(stationary)[1])
    assert (found["result"], found["code"]) == ("error", str(MathsCode.NUMERIC_CONDITION))


def test_points_with_the_same_values_count_once_and_none_compared_is_an_error() -> None:
    repeated = compare_at(encoding("x/x", "1"), [{"x": "0"}] * 8 + [{"x": str(n)} for n in range(1, 25)])
    assert (repeated["result"], repeated["undefined"], repeated["compared"]) == ("passed", 1, 24)
    # A divergent constant (the integral of tan to pi/2) is one point, undefined: never a pass.
    divergent = {"symbols": {"x": ["real"]}, "lhs": "Integral(tan(x), (x, 0, 2*pi/4))", "rhs": "log(2)/2"}
    found = compare_at(divergent, [{"x": "1"}] * 32)
    assert (found["result"], found["compared"], found["code"]) == ("error", 0, str(MathsCode.NUMERIC_UNDEFINED))


def test_a_step_built_as_written_is_cheap_to_evaluate_where_sympy_would_expand_it(decider: SymbolicDecider) -> None:
    outcome = decider.numeric_check(encoding("re((x + I)^1000)", "re((x + I)^1000)*(1 + 1e-30)"))
    assert outcome.result == "passed"


def test_running_out_of_budget_still_records_the_seed_and_points() -> None:
    raw = encoding("x + x", "2*x")
    with SymbolicDecider(budget=0.0) as hurried:
        outcome = hurried.numeric_check(raw)
    assert (outcome.result, outcome.code) == ("error", str(MathsCode.SYMBOLIC_TIMEOUT))
    assert (outcome.seed, list(outcome.points)) == numeric_points(raw)


# -- the draws --------------------------------------------------------------------------------------------


def _sets() -> list[tuple[str, ...]]:
    sets = []
    for size in range(3):
        for combination in itertools.combinations(ASSUMPTIONS, size):
            try:
                domain_of(combination)
            except ValueError:
                continue
            sets.append(combination)
    return sets


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_sets()), st.integers(0, 2**52))
def test_every_draw_is_in_its_domain_and_exact(assumptions: tuple[str, ...], seed: int) -> None:
    domain = domain_of(assumptions)
    parsed = load_encoding({"symbols": {"v": list(assumptions)}, "lhs": "v", "rhs": "v"})
    points = draw_points(parsed, seed, 8)
    assert points == draw_points(parsed, seed, 8)
    for point in points:
        raw = point["v"]
        real, imaginary = value_from_json(raw)
        assert isinstance(raw, dict) == (domain.kind == "complex")
        if domain.kind != "complex":
            assert imaginary == 0
            assert (real > 0) - (real < 0) in domain.signs
            assert -1000 <= real <= 1000
            if domain.kind == "integer":
                assert real.denominator == 1
            elif domain.signs in ({1}, {-1}, {0, 1}, {-1, 0}):
                assert Fraction(1, 1000) <= abs(real)  # log-uniform on [1e-3, 1e3]
        elif 0 not in domain.signs:
            assert (real, imaginary) != (0, 0)
        texts = [raw] if isinstance(raw, str) else [raw["re"], raw["im"]]
        for text in texts:
            assert Fraction(text) == Fraction(Decimal(text))  # an exact decimal, written out
            assert "e" not in text.lower()

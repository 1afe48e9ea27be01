"""Parsing and the structural caps: every bad encoding is refused with our own code, before sympy builds anything."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
import sympy
from sympy.core.facts import InconsistentAssumptions

from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.limits import MAX_DEGREE, MAX_DEPTH, MAX_SIDE_CHARS
from cgx_checks.maths.read.encoding import canonical_assumptions, domain_of, load_encoding, sympy_assumptions
from cgx_checks.maths.read.parse import parse_side
from cgx_checks.maths.read.step import parse_step
from cgx_checks.maths.read.tree import Negation, Numeral, Product, Sum
from cgx_checks.maths.read.vocabulary import ASSUMPTIONS, FUNCTIONS
from cgx_checks.maths.worker.build import build, build_step, symbols_of
from cgx_core.codes import Code
from cgx_core.errors import CgxError

X: dict[str, list[str]] = {"x": ["real"]}


def step(lhs: str, rhs: str = "0", symbols: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {"symbols": X if symbols is None else symbols, "lhs": lhs, "rhs": rhs}


def refusal(raw: object) -> CgxError:
    with pytest.raises(CgxError) as caught:
        parse_step(raw)
    return caught.value


def test_numerals_are_exact_rationals_from_their_digits() -> None:
    assert parse_side("0.1") == Numeral(Fraction(1, 10), "0.1", 1)
    assert parse_side("2.5e-3") == Numeral(Fraction(1, 400), "2.5e-3", 1)
    assert parse_side("12E2") == Numeral(Fraction(1200), "12E2", 1)
    built = build(parse_side("0.1 + 0.2"), {})
    assert built == sympy.Rational(3, 10)
    assert not built.has(sympy.Float)


def test_precedence_signs_and_powers() -> None:
    symbols = symbols_of(parse_step(step("x")))
    x = symbols["x"]
    assert build(parse_side("-x^2"), symbols) == -(x**2)
    assert build(parse_side("2^3^2"), symbols) == 2**9
    assert build(parse_side("x**-1"), symbols) == 1 / x
    assert build(parse_side("x - -x"), symbols) == 2 * x
    assert build(parse_side("8/2/2"), symbols) == 2
    assert build(parse_side("\u22122*x"), symbols) == -2 * x  # the Unicode minus sign of papers


def test_sums_are_flat_and_signs_fold_so_length_does_not_make_depth() -> None:
    long_sum = parse_side("+".join(["x"] * 500))
    assert isinstance(long_sum, Sum) and long_sum.depth == 2
    assert parse_side("-" * 1001 + "x").depth == 2
    assert isinstance(parse_side("-" * 1001 + "x"), Negation)
    assert isinstance(parse_side("a*b/c"), Product)


@pytest.mark.parametrize(
    ("text", "column"),
    [("2x", 2), ("x +", 4), ("sin()", 5), ("x y", 3), ("(x", 3), ("x $ 1", 3), ("x ^^ 2", 4), ("x,", 2)],
)
def test_a_parse_failure_names_the_column(text: str, column: int) -> None:
    error = refusal(step(text))
    assert error.code == Code.EXPRESSION_INVALID
    assert f"column {column}" in error.message
    assert error.message.startswith("lhs ")


@pytest.mark.parametrize(
    ("lhs", "code"),
    [
        ("y + x", ExpressionCode.UNKNOWN_SYMBOL),
        ("Gamma2(x)", ExpressionCode.UNKNOWN_FUNCTION),
        ("x(x + 1)", ExpressionCode.UNKNOWN_FUNCTION),
        ("sin", Code.EXPRESSION_INVALID),
        ("log(x, 2, 3)", Code.EXPRESSION_INVALID),
        ("sin(x, x)", Code.EXPRESSION_INVALID),
        ("x/0", ExpressionCode.DIVISION_BY_ZERO),
        ("x/(3 - 2 - 1)", ExpressionCode.DIVISION_BY_ZERO),
        ("(1 - 1)^-2", ExpressionCode.DIVISION_BY_ZERO),
        ("log(x, 1)", ExpressionCode.DIVISION_BY_ZERO),
        ("", Code.EXPRESSION_INVALID),
    ],
)
def test_names_and_literal_zero_divisors_are_refused(lhs: str, code: Code) -> None:
    assert refusal(step(lhs)).code == code


def test_an_unknown_symbol_lists_the_declared_ones() -> None:
    error = refusal(step("x + alpha", symbols={"x": [], "b_2": ["real"]}))
    assert error.code == ExpressionCode.UNKNOWN_SYMBOL
    assert "'alpha' at column 5" in error.message and "b_2, x" in error.message


HOSTILE = {
    "10**10**10": ExpressionCode.RESULT_TOO_LARGE,
    "factorial(10^300)": ExpressionCode.RESULT_TOO_LARGE,
    "factorial(-factorial(71 + 99))": ExpressionCode.RESULT_TOO_LARGE,  # its bits past a float's range (fuzzing)
    "gamma(10**6) + x": ExpressionCode.RESULT_TOO_LARGE,
    "binomial(10^9, 2)": ExpressionCode.RESULT_TOO_LARGE,
    "Integral(" * 61 + "x" + ", x)" * 61: Code.EXPRESSION_TOO_LARGE,
    "Derivative(x^2, x, 11)": Code.EXPRESSION_TOO_LARGE,
    "2^2^2^2^2^2": ExpressionCode.RESULT_TOO_LARGE,
    "x**10**10": MathsCode.DEGREE_TOO_LARGE,
    "(x + 1)^10000": MathsCode.DEGREE_TOO_LARGE,
    "x^1001": MathsCode.DEGREE_TOO_LARGE,
    "(x + 1)^600 * (x - 1)^401": MathsCode.DEGREE_TOO_LARGE,
    "sin(x)^1000 * cos(x)": MathsCode.DEGREE_TOO_LARGE,
    "exp(x^1001)": MathsCode.DEGREE_TOO_LARGE,
    "(x + 1)^(x + 5000)": MathsCode.DEGREE_TOO_LARGE,
    "(" * 50_000 + "x" + ")" * 50_000: Code.EXPRESSION_TOO_LARGE,
    "(" * 51 + "x" + ")" * 51: Code.EXPRESSION_TOO_LARGE,
    "1" * 5_000: Code.EXPRESSION_TOO_LARGE,
    "1" * 61: Code.EXPRESSION_TOO_LARGE,
    "1e301": Code.EXPRESSION_TOO_LARGE,
    "x^" * 70 + "x": Code.EXPRESSION_TOO_LARGE,
    "sin(" * 45 + "x^" * 20 + "x" + ")" * 45: Code.EXPRESSION_TOO_LARGE,
    "sqrt(10^400 + 1)": ExpressionCode.RESULT_TOO_LARGE,
    "sqrt(10^200 + 1) * sqrt(10^200 + 3) * sqrt(10^200 + 7) * sqrt(10^200 + 9)": ExpressionCode.RESULT_TOO_LARGE,
    "exp(1000 * log(10))": ExpressionCode.RESULT_TOO_LARGE,
    "2^(x + 100000)": ExpressionCode.RESULT_TOO_LARGE,
    "(2^3000 * x)^1000": ExpressionCode.RESULT_TOO_LARGE,
}


@pytest.mark.parametrize("lhs", list(HOSTILE), ids=lambda text: text[:30])
def test_hostile_expressions_are_refused_before_sympy_builds_them(lhs: str) -> None:
    assert refusal(step(lhs)).code == HOSTILE[lhs]


def test_caps_at_their_limits_are_accepted() -> None:
    assert parse_step(step("x^1000")).degree == MAX_DEGREE
    assert parse_step(step("(x + 1)^500 * (x - 1)^500")).degree == MAX_DEGREE
    assert parse_step(step("1" * 60)).degree == 0
    assert parse_step(step("(" * 50 + "x" + ")" * 50)).degree == 1
    assert parse_step(step("x" + " " * (MAX_SIDE_CHARS - 1))).degree == 1
    nested = "sin(" * 40 + "x^" * (MAX_DEPTH - 41) + "x" + ")" * 40
    assert parse_side(nested).depth == MAX_DEPTH
    assert parse_step(step("exp(10*(x + 5)^4)")).degree == 4
    assert parse_step(step("2^(1/2) * 3^(1/3)")).degree == 2
    assert parse_step(step("exp(0.5*1e-3) + x^(1/10^50) + 2^(1/10^50)")).degree == 1


def test_the_degree_is_structural_not_expanded() -> None:
    parsed = parse_step(step("(x + 1)^3 * cos(10*(x + 5)^4)", "x^2 / (x + 1)"))
    assert parsed.lhs_shape.degree == 4  # (x + 1)^3 times a call
    assert parsed.lhs_shape.inner == 4  # the call's argument
    assert parsed.degree == 4
    assert parsed.lhs_shape.terms == 4  # (x + 1)^3 expands to 4 terms


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ([], "$"),
        ({"symbols": {}, "lhs": "1"}, "$.rhs"),
        ({"symbols": {}, "lhs": "1", "rhs": "1", "note": "x"}, "$.note"),
        ({"symbols": {}, "lhs": 1, "rhs": "1"}, "$.lhs"),
        ({"symbols": [], "lhs": "1", "rhs": "1"}, "$.symbols"),
        ({"symbols": {"x": "real"}, "lhs": "1", "rhs": "1"}, "$.symbols.x"),
        ({"symbols": {"x": ["reals"]}, "lhs": "1", "rhs": "1"}, "$.symbols.x[0]"),
        ({"symbols": {"x": ["real", "real"]}, "lhs": "1", "rhs": "1"}, "$.symbols.x[1]"),
        ({"symbols": {"x": ["positive", "negative"]}, "lhs": "1", "rhs": "1"}, "$.symbols.x"),
        ({"symbols": {"2x": []}, "lhs": "1", "rhs": "1"}, "$.symbols.2x"),
        ({"symbols": {"pi": []}, "lhs": "1", "rhs": "1"}, "$.symbols.pi"),
        ({"symbols": {"oo": []}, "lhs": "1", "rhs": "2"}, "$.symbols.oo"),
        ({"symbols": {"x": [], "x'": [], "x_prime": []}, "lhs": "1", "rhs": "2"}, "$.symbols.x_prime"),
        ({"symbols": {}, "lhs": "1", "rhs": "2", "latex": "1 = 2"}, "$.latex"),
        ({"symbols": {}, "lhs": "1", "rhs": "2", "split": 1}, "$.split"),
        ({"symbols": {}, "latex": "1 = 2", "rhs": "2", "split": 1}, "$.split"),
        ({"symbols": {}, "latex": "1 = 2", "split": 0}, "$.split"),
        ({"symbols": {}, "latex": "1 = 2", "function_argument": "sideways"}, "$.function_argument"),
        ({"symbols": {}, "lhs": "1", "rhs": "2", "functions": ["sin"]}, "$.functions[0]"),
        ({"symbols": {"f": []}, "lhs": "1", "rhs": "2", "functions": ["f"]}, "$.functions[0]"),
        ({"symbols": {}, "lhs": "1", "rhs": "2", "aliases": {"j": "imaginary"}}, "$.aliases.j"),
        ({"symbols": {f"x{n}": [] for n in range(51)}, "lhs": "1", "rhs": "1"}, "$.symbols"),
    ],
)
def test_a_malformed_encoding_is_refused_with_its_json_path(raw: object, path: str) -> None:
    error = refusal(raw)
    assert error.code == Code.PROPOSAL_INVALID
    assert error.message.endswith(f"@ {path}")


def test_every_consistent_set_of_assumptions_is_one_sympy_accepts_and_vice_versa() -> None:
    names = list(ASSUMPTIONS)
    for size in range(4):
        for combination in itertools.combinations(names, size):
            try:
                domain = domain_of(combination)
            except ValueError:
                with pytest.raises(InconsistentAssumptions):
                    sympy.Symbol("x", **sympy_assumptions(combination))
                continue
            symbol = sympy.Symbol("x", **sympy_assumptions(combination))
            assert symbol.is_finite and symbol.is_complex
            if domain.kind != "complex":
                assert symbol.is_real
            if 0 not in domain.signs:
                assert symbol.is_zero is False
            if domain.signs == {1}:
                assert symbol.is_positive
            if domain.kind == "integer":
                assert symbol.is_integer
            assert domain_of(canonical_assumptions(domain)) == domain


def test_nonzero_keeps_a_symbol_complex_unlike_sympys_own_nonzero() -> None:
    q = symbols_of(parse_step(step("q", symbols={"q": ["nonzero"]})))["q"]
    assert q.is_zero is False and q.is_real is None
    assert domain_of(["nonzero"]).kind == "complex"
    assert domain_of(["nonzero", "real"]).kind == "real"


def test_the_encoding_round_trips_and_symbols_are_sorted() -> None:
    raw = {"symbols": {"r": ["positive"], "b": ["real"], "q": ["nonzero", "complex"]}, "lhs": "r", "rhs": "b"}
    encoding = load_encoding(raw)
    assert [name for name, _ in encoding.symbols] == ["b", "q", "r"]
    assert encoding.to_json() == raw
    assert load_encoding(encoding) is encoding


def test_every_function_of_the_vocabulary_builds() -> None:
    for name, function in FUNCTIONS.items():
        if function.kind != "function":
            continue
        arguments = ", ".join(["x + 2"] + ["2"] * (function.arities[-1] - 1))
        built = build_step(parse_step(step(f"{name}({arguments})", symbols={"x": ["positive"]})))
        assert isinstance(built.lhs, sympy.Expr)

# ruff: noqa: RUF001 - Greek letters are what these tests read
"""The paper's own LaTeX as a side: how it is read (names, products, functions, calculus, numerals), what
is refused with a code, whether it is in the cited chunk, and the sympy spelling it is recorded as."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.read.canonical import canonical_text
from cgx_checks.maths.read.latex_source import normalise, occurs
from cgx_checks.maths.read.parse import parse_side
from cgx_checks.maths.read.spelling import spelled
from cgx_checks.maths.read.step import ParsedStep, parse_step
from cgx_core.codes import Code
from cgx_core.errors import CgxError

DYNONET_E40 = (
    r"\begin{equation*} A(q) = (1 - r e^{j\beta} q^{-1}) ( 1 - r e^{-j\beta}q^{-1}) = 1 - 2r\cos\beta q^{-1} + "
    r"r^2 q^{-2}, \end{equation*}"
)
FARR_E16 = (
    r"\begin{equation} \frac{N}{s^2 + V} = \frac{N}{s^2 + V} - \frac{s^2 + V}{N}\frac{N}{\left( s^2 + V \right)^2} "
    r"= \frac{N-1}{s^2 + V}, \end{equation}"
)


def read(latex: str, symbols: dict[str, list[str]], **extra: Any) -> ParsedStep:
    return parse_step({"symbols": symbols, "latex": latex, **extra})


def sides(step: ParsedStep) -> tuple[str, str]:
    return spelled(step.lhs, step.encoding.names), spelled(step.rhs, step.encoding.names)


def refused(latex: str, symbols: dict[str, list[str]], **extra: Any) -> CgxError:
    with pytest.raises(CgxError) as caught:
        read(latex, symbols, **extra)
    return caught.value


# -- reading ---------------------------------------------------------------------------------------------


def test_the_dynonet_factorisation_reads_as_the_paper_means_it_once_the_reading_is_said() -> None:
    latex = r"A(q) = (1 - r e^{j\beta} q^{-1}) ( 1 - r e^{-j\beta}q^{-1}) = 1 - 2r\cos\beta q^{-1} + r^2 q^{-2}"
    symbols = {"r": ["positive"], "\\beta": ["real"], "q": ["nonzero"]}
    error = refused(latex, symbols, aliases={"j": "I"}, split=2)
    assert error.code == MathsCode.LATEX_AMBIGUOUS and "cos(a)*b or cos(a*b)" in error.message
    step = read(latex, symbols, aliases={"j": "I"}, split=2, function_argument="factor")
    assert sides(step) == (
        "(1 - r*E^(I*beta)*q^(-1))*(1 - r*E^(-(I*beta))*q^(-1))",
        "1 - 2*r*cos(beta)*q^(-1) + r^2*q^(-2)",
    )
    # The other reading is a different step: the check reads what it is told, and records it.
    product = read(latex, symbols, aliases={"j": "I"}, split=2, function_argument="product")
    assert sides(product)[1] == "1 - 2*r*cos(beta*q^(-1)) + r^2*q^(-2)"
    # A(q) is not declared, and split 2 does not read it.
    assert (
        refused(latex, symbols, aliases={"j": "I"}, split=1, function_argument="factor").code
        == ExpressionCode.UNKNOWN_SYMBOL
    )


def test_the_farr_chain_splits_at_each_relation() -> None:
    latex = (
        r"\frac{N}{s^2 + V} = \frac{N}{s^2 + V} - \frac{s^2 + V}{N}\frac{N}{\left( s^2 + V \right)^2} "
        r"= \frac{N-1}{s^2 + V}"
    )
    symbols = {"N": ["positive", "integer"], "s": ["real"], "V": ["positive"]}
    first, second = read(latex, symbols, split=1), read(latex, symbols, split=2)
    assert sides(first) == ("N/(s^2 + V)", "N/(s^2 + V) - ((s^2 + V)/N)*(N/(s^2 + V)^2)")
    assert sides(second) == ("N/(s^2 + V) - ((s^2 + V)/N)*(N/(s^2 + V)^2)", "(N - 1)/(s^2 + V)")
    error = refused(latex, symbols, split=3)
    assert error.code == Code.PROPOSAL_INVALID and "2 relation(s)" in error.message


@pytest.mark.parametrize(
    ("latex", "symbols", "extra", "lhs", "rhs"),
    [
        # names in every spelling
        (
            r"\hat{\mu} + \bar{x}_1 = x'",
            {"\\hat{\\mu}": [], "x_bar_1": [], "x'": []},
            {},
            "mu_hat + x_bar_1",
            "x_prime",
        ),
        (r"\sigma_i^2 = x_{\mathrm{obs},i}", {"σ_i": [], "x_{\\mathrm{obs},i}": []}, {}, "sigma_i^2", "x_obs_i"),
        (r"2r = r + r", {"r": []}, {}, "2*r", "r + r"),
        # a declared multi-letter name is read whole; undeclared letters multiply
        (r"dt = d \cdot t", {"dt": [], "d": [], "t": []}, {}, "dt", "d*t"),
        # functions and constants
        (r"\ln(x y) = \log x + \ln y", {"x": [], "y": []}, {}, "log(x*y)", "log(x) + log(y)"),
        (r"\log_2 8 = 3", {}, {}, "log(8, 2)", "3"),
        (r"\sin^2 x + \cos^2 x = 1", {"x": []}, {}, "sin(x)^2 + cos(x)^2", "1"),
        (r"e^{i\pi} = -1", {}, {"aliases": {"i": "I"}}, "E^(I*pi)", "-1"),
        (r"\mathrm{e}^{x} = \exp(x)", {"x": []}, {}, "E^x", "exp(x)"),
        (r"|x - 1| = \left| 1 - x \right|", {"x": []}, {}, "Abs(x - 1)", "Abs(1 - x)"),
        (r"\sqrt[3]{8} = 2", {}, {}, "root(8, 3)", "2"),
        (r"\binom{n}{2} = \frac{n(n-1)}{2}", {"n": []}, {}, "binomial(n, 2)", "(n*(n - 1))/2"),
        (r"\Gamma(n+1) = n!", {"n": []}, {}, "gamma(n + 1)", "factorial(n)"),
        (r"E_1(x) = -\operatorname{Ei}(-x)", {"x": []}, {}, "E1(x)", "-Ei(-x)"),
        (r"\operatorname{erf}(x) = \mathrm{erfc}(-x) - 1", {"x": []}, {}, "erf(x)", "erfc(-x) - 1"),
        (r"\sigma(\rho)^2 = a", {"\\rho": [], "a": []}, {"functions": ["\\sigma"]}, "sigma(rho)^2", "a"),
        (r"a_{k+1} = 2 a_k", {"k": []}, {"functions": ["a"]}, "a(k + 1)", "2*a(k)"),
        # numerals as the paper writes them
        (r"2.4\times10^{-5} = 3 \cdot 8\times10^{-6}", {}, {}, "2.4e-5", "3*8e-6"),
        (r"5\% = \frac{1}{20}", {}, {}, "5e-2", "1/20"),
        # a / that says what it divides by: brackets, an operator after it, or a numeral over a numeral
        (r"x = S_z/(q\Omega)", {"x": [], "S_z": [], "q": [], "\\Omega": []}, {}, "x", "S_z/(q*Omega)"),
        (r"E = 1/2 m v^2", {"E": [], "m": [], "v": []}, {}, "E", "1/2*m*v^2"),
        (r"x = a/b \cdot c", {"x": [], "a": [], "b": [], "c": []}, {}, "x", "a/b*c"),
        # calculus
        (r"\int_0^\infty e^{-x}\,dx = 1", {"x": []}, {}, "Integral(E^(-x), (x, 0, oo))", "1"),
        (r"\int_0^1 x^2 + 1 \, \mathrm{d}x = \frac{4}{3}", {"x": []}, {}, "Integral(x^2 + 1, (x, 0, 1))", "4/3"),
        (r"\int dx\, x = \frac{x^2}{2}", {"x": []}, {}, "Integral(x, x)", "x^2/2"),
        (
            r"\int_0^1 \int_0^x f(x, y) \, dy \, dx = c",
            {"x": [], "y": [], "c": []},
            {"functions": ["f"]},
            "Integral(Integral(f(x, y), (y, 0, x)), (x, 0, 1))",
            "c",
        ),
        (r"\sum_{k=1}^{n} k = \frac{n(n+1)}{2}", {"k": [], "n": []}, {}, "Sum(k, (k, 1, n))", "(n*(n + 1))/2"),
        (r"\prod_{k=1}^{n} k = n!", {"k": [], "n": []}, {}, "Product(k, (k, 1, n))", "factorial(n)"),
        (r"\lim_{x \to 0^+} x \ln x = 0", {"x": []}, {}, "Limit(x*log(x), x, 0, '+')", "0"),
        (r"\lim_{n \to \infty} (1 + 1/n)^n = e", {"n": []}, {}, "Limit((1 + 1/n)^n, n, oo)", "E"),
        (
            r"\frac{d}{dr}\left(r Q(r)\right) = Q(r) + r Q'(r)",
            {"r": []},
            {"functions": ["Q"]},
            "Derivative(r*Q(r), r)",
            "Q(r) + r*Derivative(Q(r), r)",
        ),
        (
            r"\frac{\partial^2 f(x,y)}{\partial x \partial y} = 0",
            {"x": [], "y": []},
            {"functions": ["f"]},
            "Derivative(f(x, y), x, y)",
            "0",
        ),
        (r"\frac{d^2}{dx^2} x^3 = 6x", {"x": []}, {}, "Derivative(x^3, x, 2)", "6*x"),
    ],
)
def test_latex_reads_as_a_reader_reads_it(
    latex: str, symbols: dict[str, list[str]], extra: dict[str, Any], lhs: str, rhs: str
) -> None:
    step = read(latex, symbols, **extra)
    assert sides(step) == (lhs, rhs)
    # The recorded spelling is itself an encoding of the same step: it parses back to the same trees.
    for tree, text in ((step.lhs, lhs), (step.rhs, rhs)):
        assert canonical_text(parse_side(text)) == canonical_text(tree)


@pytest.mark.parametrize(
    ("latex", "symbols", "extra"),
    [
        (r"\lambda \gamma_1 = λ γ_{1}", {"\\lambda": [], "gamma_1": []}, {}),
        (r"\frac{dQ}{dr} = Q'(r)", {"r": []}, {"functions": ["Q"]}),
        (r"\frac{a}{b} = a / b", {"a": [], "b": []}, {}),
        (r"x + 2y = 2 y+x", {"x": [], "y": []}, {}),
    ],
)
def test_two_spellings_of_one_expression_are_a_trivial_step(
    latex: str, symbols: dict[str, list[str]], extra: dict[str, Any]
) -> None:
    error = refused(latex, symbols, **extra)
    assert error.code == MathsCode.STEP_TRIVIAL and "could not fail" in error.message


def test_a_condition_side_joins_its_lines_and_chains() -> None:
    step = read(
        r"|a_1| &< 2\\ |{a_1}| - 1 &< a_2 < a_1.",
        {"a_1": ["real"], "a_2": ["real"]},
        rhs="a_2 < 1",
    )
    assert step.condition and step.relation == "="
    assert sides(step) == ("And(Abs(a_1) < 2, Abs(a_1) - 1 < a_2 < a_1)", "a_2 < 1")


def test_an_approximate_relation_is_recorded_and_needs_a_reported_number() -> None:
    step = read(r"\sqrt{5.8\times10^{-10}} \approx 2.4\times10^{-5}", {})
    assert (step.relation, step.reported) == ("approx", "rhs")
    error = refused(r"\sin x \approx x", {"x": []})
    assert error.code == MathsCode.APPROXIMATION_NOT_NUMERIC


@pytest.mark.parametrize(
    ("latex", "symbols", "code", "words"),
    [
        (r"a = b + \dots + c", {"a": [], "b": [], "c": []}, MathsCode.LATEX_INVALID, "terms the paper does not write"),
        (
            r"\hat{V} = V + \mathcal{O}(1/N)",
            {"V_hat": [], "V": [], "N": []},
            MathsCode.LATEX_INVALID,
            "order-of-magnitude",
        ),
        (r"W = \sum_i w_i", {"W": [], "w_i": []}, MathsCode.LATEX_INVALID, "does not give its bounds"),
        (r"x = 1 \pm y", {"x": [], "y": []}, MathsCode.LATEX_INVALID, "two values"),
        (r"\langle x \rangle = 0", {"x": []}, MathsCode.LATEX_INVALID, "expectation"),
        (r"\int_0^1 x = 1", {"x": []}, MathsCode.LATEX_INVALID, "no differential"),
        (r"x = \frac{1}{", {"x": []}, MathsCode.LATEX_INVALID, "does not parse"),
        (r"x_{k+1} = 0", {"k": []}, MathsCode.LATEX_INVALID, "declare the sequence"),
        (r"\frac{dy}{dx} = 1", {"y": [], "x": []}, MathsCode.LATEX_INVALID, "declare it in functions"),
        (r"y = z", {"y": []}, ExpressionCode.UNKNOWN_SYMBOL, "'z'"),
        (r"y = e^{j x}", {"y": [], "x": []}, ExpressionCode.UNKNOWN_SYMBOL, 'aliases {"j": "I"}'),
        (
            r"x = S_z/q\Omega",
            {"x": [], "S_z": [], "q": [], "\\Omega": []},
            MathsCode.LATEX_AMBIGUOUS,
            "S_z/q*Omega or S_z/(q*Omega)",
        ),
        (r"x = a/bc", {"x": [], "a": [], "b": [], "c": []}, MathsCode.LATEX_AMBIGUOUS, "a/b*c or a/(b*c)"),
        (r"x < 1", {"x": []}, MathsCode.LATEX_INVALID, "not = or \\approx"),
        (r"x \to 1", {"x": []}, MathsCode.LATEX_INVALID, "not = or \\approx"),
        ("x = " + "{" * 60 + "1" + "}" * 60, {"x": []}, Code.EXPRESSION_TOO_LARGE, "nest deeper"),
        ("x = " + "1+" * 1100 + "1", {"x": []}, Code.EXPRESSION_TOO_LARGE, "characters"),
    ],
)
def test_what_cannot_be_read_is_refused_with_a_code(
    latex: str, symbols: dict[str, list[str]], code: Code, words: str
) -> None:
    error = refused(latex, symbols)
    assert error.code == code, error.message
    assert words in error.message


def test_a_relation_given_as_one_side_is_refused_with_the_way_to_split_it() -> None:
    error = refused(r"a_1 &= - 2\sigma(\rho)", {"a_1": [], "\\rho": []}, functions=["\\sigma"], rhs="a_1")
    assert error.code == MathsCode.LATEX_INVALID and "leave out rhs and give split" in error.message


def test_a_symbol_may_be_named_e_and_then_the_letter_is_not_eulers_number() -> None:
    assert sides(read(r"e = 2", {"e": ["positive"]})) == ("e", "2")
    assert sides(read(r"e^{x} = E", {"x": [], "E": []})) == ("exp(1)^x", "E")


# -- the paper's text --------------------------------------------------------------------------------------


def test_the_latex_must_be_a_whole_relation_or_side_of_a_cited_chunk() -> None:
    factorisation = r"(1 - r e^{j\beta} q^{-1}) ( 1 - r e^{-j\beta}q^{-1}) = 1 - 2r\cos\beta q^{-1} + r^2 q^{-2}"
    assert occurs(factorisation, [DYNONET_E40])
    assert occurs("A(q)=(1-r e^{j\\beta}q^{-1})(1-r e^{-j\\beta} q^{-1})", [DYNONET_E40])  # spacing differs
    assert occurs(r"\frac{N}{s^2+V}=\frac{N}{s^2+V}-\frac{s^2+V}{N}\frac{N}{(s^2+V)^2}", [FARR_E16])  # \left, \right
    assert occurs(r"\frac{N-1}{s^2 + V}", [FARR_E16])  # the last side, before the comma
    assert not occurs(r"s^2 + V", [FARR_E16])  # inside a fraction: not a side
    assert not occurs(r"1 - 2r\cos\beta q^{-1}", [DYNONET_E40])  # the start of a side
    assert not occurs(r"\frac{N}{s^2 + V} = \frac{N-1}{s^2 + V}", [FARR_E16])  # not written so
    assert not occurs(factorisation, [FARR_E16])  # another chunk
    assert not occurs(r"1 - 2r\cos\betaq^{-1} + r^2 q^{-2}", [DYNONET_E40])  # \betaq is another command
    align = r"\begin{align} |a_1| &< 2\\ |{a_1}| - 1 &< a_2 < a_1. \end{align}"
    assert occurs(r"|a_1| < 2\\ |{a_1}| - 1 < a_2 < a_1", [align])
    assert occurs(r"|{a_1}| - 1 < a_2", [align])
    assert not occurs(r"1 < a_2", [align])


def test_normalising_drops_layout_and_keeps_a_space_only_where_a_command_meets_a_letter() -> None:
    assert normalise(r"\left( a \,+\; b \right) &= \beta  q \label{eq:x} \nonumber") == r"(a+b)=\beta q" + "\x00"
    assert normalise(r"x \quad y") == "x\x00y"


# -- hostile text ------------------------------------------------------------------------------------------

TOKENS = [
    *"xyzen2037.+-*/=<>()[]{}|^_'!,;&",
    "\\frac",
    "\\sqrt",
    "\\int",
    "\\sum",
    "\\prod",
    "\\lim",
    "\\to",
    "\\infty",
    "\\alpha",
    "\\sin",
    "\\cos",
    "\\ln",
    "\\log",
    "\\partial",
    "\\mathrm{d}",
    "\\left(",
    "\\right)",
    "\\cdot",
    "\\times",
    "\\approx",
    "\\le",
    "\\pm",
    "\\dots",
    "\\bar",
    "\\hat{x}",
    "\\\\",
    "\\%",
    "\\,",
    " ",
    "\\operatorname{erf}",
    "\\Gamma",
    "\\mathcal{O}",
    "\\lvert",
    "\\rvert",
    "\\unknown",
    "\u03bb",
    "\u2212",
    "\u2264",
    "d",
    "x_1",
    "^{-1}",
    "_{k=1}",
    "\\text{ if }",
]


@settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=40), st.sampled_from([None, 1, 2]), st.booleans())
def test_arbitrary_latex_never_raises_anything_but_our_error(tokens: list[str], split: int | None, side: bool) -> None:
    text = "".join(tokens)
    encoding: dict[str, Any] = {
        "symbols": {"x": ["real"], "y": [], "z": ["positive"], "k": ["integer"], "x_1": []},
        "functions": ["f"],
        "function_argument": "factor",
        "latex": text or "x",
    }
    if side:
        encoding["rhs"] = "x"
    elif split is not None:
        encoding["split"] = split
    with contextlib.suppress(CgxError):
        parse_step(encoding)
    occurs(text, [text, "\\begin{equation}" + text + "\\end{equation}"])


@pytest.mark.parametrize(
    "latex",
    [
        r"\int" * 300 + " x " + "dx" * 300 + " = 1",
        "|" * 60 + "x" + "|" * 60 + " = 1",
        r"\lvert" * 60 + "x" + r"\rvert" * 60 + " = 1",
        "x" + "^{x" * 55 + "}" * 55 + " = 1",
        r"\sqrt{" * 55 + "x" + "}" * 55 + " = 1",
        r"\frac{d}{dx}" * 100 + " x = 0",
        r"\sin(" * 55 + "x" + ")" * 55 + " = 1",
        r"\sum_{k=1}^{2}" * 70 + " k = 0",
    ],
)
def test_latex_nested_past_the_caps_is_refused_as_too_large(latex: str) -> None:
    with pytest.raises(CgxError) as caught:
        read(latex, {"x": [], "k": []}, function_argument="factor")
    assert caught.value.code == Code.EXPRESSION_TOO_LARGE, caught.value.message

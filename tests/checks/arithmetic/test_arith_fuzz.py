"""Property tests: the grammar fuzzed with from_lark, a recursive strategy checked against a reference
evaluator, arbitrary text, and find_numerals on generated LaTeX.

Every generated input parses and evaluates or ends with our own CgxError, never another exception. The
from_lark test is slow (about 10 examples a second), so it and the large runs are marked `slow`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from cgx_checks.arithmetic import (
    evaluate,
    expression_parser,
    find_numerals,
    parse_expression,
    read_numeral,
    recompute,
    render,
)
from cgx_checks.arithmetic.limits import MAX_EXPONENT, MAX_RESULT_BITS
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_checks.expression_codes import ExpressionCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError

FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def outcome(expression: str) -> Fraction | str:
    """Our answer: the exact value, or the code of our own error (any other exception fails the test)."""
    try:
        return evaluate(parse_expression(expression))
    except CgxError as error:
        return error.code


@pytest.mark.slow
@settings(FUZZ, max_examples=200)
@given(
    from_lark(
        expression_parser(),
        explicit={
            "UNIT": st.sampled_from([" min", " h", " m/s", " km h^-1", " GB"]),
            "NAME": st.sampled_from(["pi", "e", "sqrt", "ln", "abs", "exp", "log", "rows"]),
        },
    )
)
def test_every_sentence_of_the_grammar_parses_then_evaluates_or_is_refused(expression: str) -> None:
    result = outcome(expression)
    # A sentence of the grammar always parses: only a cap, an arithmetic refusal, a name used as the other
    # kind (a function as a constant), a function given the wrong number of arguments, or a truth value
    # where a number belongs (or a number where a condition belongs) may stop it.
    if result == Code.EXPRESSION_INVALID:
        with pytest.raises(CgxError, match=r"argument|where a number belongs|takes conditions"):
            parse_expression(expression)
    if isinstance(result, Fraction):
        assert type(result) is Fraction


# -- a recursive strategy with a reference evaluator -------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """An expression and what a plain recursive Fraction evaluator says of it."""

    text: str
    value: Fraction | str  # a code: the core's or the check type's own
    level: int  # 1 sum, 2 product, 3 signed, 4 power, 5 atom: decides where parentheses are needed


def _numeral() -> st.SearchStrategy[Case]:
    @st.composite
    def build(draw: st.DrawFn) -> Case:
        integer = draw(st.integers(0, 999_999))
        decimals = draw(st.sampled_from(["", "", "0", "5", "25", "125", "07"]))
        exponent = draw(st.sampled_from([None, None, None, 0, 3, -3, -5, 7]))
        percent = draw(st.booleans()) and draw(st.booleans())
        text = str(integer) + ("." + decimals if decimals else "")
        value = Fraction(text)
        if exponent is not None:
            text += draw(st.sampled_from(["e", "E"])) + (draw(st.sampled_from(["", "+"])) if exponent >= 0 else "")
            text += str(exponent)
            value *= Fraction(10) ** exponent
        if percent:
            text += "%"
            value /= 100
        return Case(text, value, 5)

    return build()


def _bits_over(value: Fraction) -> bool:
    return value.numerator.bit_length() > MAX_RESULT_BITS or value.denominator.bit_length() > MAX_RESULT_BITS


def _combine(op: str, left: Case, right: Case) -> Fraction | str:
    """The reference: the specification's rules, written recursively with Fraction."""
    if isinstance(left.value, str):
        return left.value
    if isinstance(right.value, str):
        return right.value
    a, b = left.value, right.value
    if op == "/" and b == 0:
        return ExpressionCode.DIVISION_BY_ZERO
    if op == "**":
        if b.denominator != 1:
            return ArithmeticCode.EXPONENT_NOT_WHOLE
        if abs(b) > MAX_EXPONENT:
            return Code.EXPONENT_TOO_LARGE
        if a == 0 and b < 0:
            return ExpressionCode.DIVISION_BY_ZERO
        if abs(b.numerator) * max(a.numerator.bit_length(), a.denominator.bit_length()) > MAX_RESULT_BITS:
            return ExpressionCode.RESULT_TOO_LARGE
        return a**b.numerator
    result = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else a}[op]
    return ExpressionCode.RESULT_TOO_LARGE if _bits_over(result) else result


_LEVEL = {"+": 1, "-": 1, "*": 2, "/": 2, "**": 4}
_NEEDS = {"+": (1, 2), "-": (1, 2), "*": (2, 3), "/": (2, 3), "**": (5, 3)}  # minimum level of left, right


def _wrap(case: Case, minimum: int, extra: bool) -> str:
    return f"({case.text})" if case.level < minimum or extra else case.text


def _extend(children: st.SearchStrategy[Case]) -> st.SearchStrategy[Case]:
    @st.composite
    def binary(draw: st.DrawFn) -> Case:
        op = draw(st.sampled_from(["+", "-", "*", "/", "**"]))
        left, right = draw(children), draw(children)
        if op == "**" and not isinstance(right.value, str) and abs(right.value) > 12 and draw(st.integers(0, 9)):
            exponent = draw(st.integers(0, 6))  # keep most powers computable, some refused
            right = Case(str(exponent), Fraction(exponent), 5)
        left_min, right_min = _NEEDS[op]
        space = draw(st.sampled_from(["", " ", "  ", "\t"]))
        symbol = "\N{MINUS SIGN}" if op == "-" and draw(st.booleans()) and draw(st.booleans()) else op
        text = f"{_wrap(left, left_min, draw(st.booleans()) and draw(st.booleans()))}{space}{symbol}{space}"
        text += _wrap(right, right_min, draw(st.booleans()) and draw(st.booleans()))
        return Case(text, _combine(op, left, right), _LEVEL[op])

    @st.composite
    def signed(draw: st.DrawFn) -> Case:
        sign = draw(st.sampled_from(["-", "+", "\N{MINUS SIGN}"]))
        operand = draw(children)
        text = sign + _wrap(operand, 3, False)
        if isinstance(operand.value, str):
            return Case(text, operand.value, 3)
        return Case(text, operand.value if sign == "+" else -operand.value, 3)

    return st.one_of(binary(), signed())


EXPRESSIONS = st.recursive(_numeral(), _extend, max_leaves=24)


@settings(FUZZ, max_examples=300)
@given(EXPRESSIONS)
def test_generated_expressions_match_the_reference(case: Case) -> None:
    assert outcome(case.text) == case.value


@settings(FUZZ, max_examples=300)
@given(EXPRESSIONS)
def test_the_rendering_reads_back_as_the_same_expression(case: Case) -> None:
    rendered = render(parse_expression(case.text))
    assert render(parse_expression(rendered)) == rendered
    assert outcome(rendered) == case.value


@pytest.mark.slow
@settings(FUZZ, max_examples=3_000)
@given(EXPRESSIONS)
def test_generated_expressions_match_the_reference_at_volume(case: Case) -> None:
    assert outcome(case.text) == case.value


_EXPRESSION_ALPHABET = st.sampled_from([*"0123456789.eE%+-*/() \t\n", "**", "\N{MINUS SIGN}", "x", "^", "_"])


@settings(FUZZ, max_examples=500)
@given(st.one_of(st.text(max_size=80), st.lists(_EXPRESSION_ALPHABET, max_size=80).map("".join)))
def test_arbitrary_text_evaluates_or_is_refused(text: str) -> None:
    result = outcome(text)
    assert isinstance(result, Fraction | str)


# -- numerals ------------------------------------------------------------------------------------------

_LATEX_ALPHABET = st.sampled_from(
    [
        *"0123456789.,-+eE%^_{}$()[]~ \\xabHsv",
        "\N{MINUS SIGN}",
        "\N{MULTIPLICATION SIGN}",
        r"\times",
        r"\cdot",
        r"\,",
        r"\num{",
        r"\SI{",
        r"\pm",
        r"\%",
    ]
)


@settings(FUZZ, max_examples=500)
@given(st.one_of(st.text(max_size=120), st.lists(_LATEX_ALPHABET, max_size=60).map("".join)))
def test_find_numerals_never_fails_and_written_forms_read_back(text: str) -> None:
    numerals = find_numerals(text)
    assert len({numeral.written for numeral in numerals}) == len(numerals)
    for numeral in numerals:
        assert read_numeral(numeral.written) == numeral
        assert numeral.half_unit > 0


@st.composite
def _written_numeral(draw: st.DrawFn) -> tuple[str, str]:
    """A numeral written in LaTeX in one of the forms papers use, and the canonical form we must find."""
    integer = draw(st.integers(1, 999_999))
    fraction = draw(st.sampled_from(["", "5", "25", "05", "250"]))
    negative = draw(st.booleans())
    canonical = ("-" if negative else "") + str(integer) + ("." + fraction if fraction else "")
    plain = str(integer) + ("." + fraction if fraction else "")
    form = draw(st.sampled_from(["plain", "grouped", "times", "percent", "num", "math"]))
    sign = draw(st.sampled_from(["-", "\N{MINUS SIGN}"])) if negative else ""
    if form == "grouped":
        grouped = f"{integer:,}".replace(",", draw(st.sampled_from([",", r"\,", "{,}", "\N{THIN SPACE}"])))
        written = sign + grouped + ("." + fraction if fraction else "")
    elif form == "times":
        exponent = draw(st.integers(-9, 9))
        written = f"${sign}{plain} {draw(st.sampled_from([r'\times', r'\cdot']))} 10^{{{exponent}}}$"
        canonical += f"e{exponent}"
    elif form == "percent":
        written = sign + plain + draw(st.sampled_from(["%", r"\%", r" \%"]))
        canonical += "%"
    elif form == "num":
        written = rf"\num{{{sign.replace(chr(0x2212), '-')}{plain}}}"
    elif form == "math":
        written = f"${sign}{plain}$"
    else:
        written = sign + plain
    return written, canonical


@settings(FUZZ, max_examples=500)
@given(
    _written_numeral(), st.sampled_from(["", "the value ", "(", "= ", "was "]), st.sampled_from(["", " Hz", ".", ")"])
)
def test_generated_numerals_are_found_in_canonical_form(written: tuple[str, str], before: str, after: str) -> None:
    text, canonical = written
    assert canonical in [numeral.written for numeral in find_numerals(before + text + after)]


@settings(FUZZ, max_examples=200)
@given(EXPRESSIONS)
def test_recompute_of_an_expression_against_its_own_text_decides(case: Case) -> None:
    """The whole check over a text that writes every numeral of the expression and the value."""
    try:
        check = recompute(case.text, "1", [case.text, "1"])  # the expression writes its own numerals
    except CgxError as error:
        assert error.code in {
            ArithmeticCode.EXPRESSION_IS_RESULT,  # the expression "1" against the result 1
            ExpressionCode.DIVISION_BY_ZERO,
            ArithmeticCode.EXPONENT_NOT_WHOLE,
            Code.EXPONENT_TOO_LARGE,
            ExpressionCode.RESULT_TOO_LARGE,
        }
        return
    assert check.outcome == ("passed" if abs(check.value - 1) <= Fraction(1, 2) else "failed")

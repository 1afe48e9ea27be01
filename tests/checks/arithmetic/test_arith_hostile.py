"""The hostile corpus: every input ends within its caps with our own error and a stable code."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cgx_checks.arithmetic import evaluate, parse_expression, recompute
from cgx_checks.arithmetic.limits import MAX_RESULT_BITS
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_checks.expression_codes import ExpressionCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError

HOSTILE: list[tuple[str, str, Code]] = [
    ("power tower", "10**10**10", Code.EXPONENT_TOO_LARGE),
    ("tower of small exponents", "((2**100)**100)**100", ExpressionCode.RESULT_TOO_LARGE),
    ("negative tower", "((2**100)**100)**-100", ExpressionCode.RESULT_TOO_LARGE),
    ("fraction tower", "((1/3)**100)**100", ExpressionCode.RESULT_TOO_LARGE),
    ("product that outgrows the cap", "*".join(["(2**100)"] * 130), ExpressionCode.RESULT_TOO_LARGE),
    ("50,000 nested parentheses", "(" * 50_000 + "1" + ")" * 50_000, Code.EXPRESSION_TOO_LARGE),
    ("5,000-digit numeral", "7" * 5_000, Code.EXPRESSION_TOO_LARGE),
    ("61-digit numeral", "1" * 61 + " + 1", Code.EXPRESSION_TOO_LARGE),
    ("huge power of ten in a numeral", "1e999999999", Code.EXPONENT_TOO_LARGE),
    ("division by zero", "1/0", ExpressionCode.DIVISION_BY_ZERO),
    ("division by a zero difference", "1/(2-2)", ExpressionCode.DIVISION_BY_ZERO),
    ("division by zero percent", "5 / 0%", ExpressionCode.DIVISION_BY_ZERO),
    ("zero to a negative power", "0 ** -1", ExpressionCode.DIVISION_BY_ZERO),
    ("irrational power", "2**0.5", ArithmeticCode.EXPONENT_NOT_WHOLE),
    ("exponent just over the cap", "2 ** 101", Code.EXPONENT_TOO_LARGE),
    ("negative exponent over the cap", "2 ** -101", Code.EXPONENT_TOO_LARGE),
    ("huge exponent from a product", "2 ** (10 ** 50)", Code.EXPONENT_TOO_LARGE),
    ("empty", "", Code.EXPRESSION_INVALID),
    ("blank", "   \n\t", Code.EXPRESSION_INVALID),
    ("garbage", "garbage", ExpressionCode.UNKNOWN_SYMBOL),
    ("python call", "__import__('os').system('true')", Code.EXPRESSION_INVALID),
    ("names", "x + 1", ExpressionCode.UNKNOWN_SYMBOL),
    ("unknown function", "gamma(3)", ExpressionCode.UNKNOWN_FUNCTION),
    ("a function's arguments", "sqrt(1, 2)", Code.EXPRESSION_INVALID),
    ("square root of a negative", "sqrt(-2)", ArithmeticCode.FUNCTION_DOMAIN),
    ("logarithm of zero", "ln(0)", ArithmeticCode.FUNCTION_DOMAIN),
    ("exponential too large", "exp(10**5)", ExpressionCode.RESULT_TOO_LARGE),
    ("root degree over the cap", "root(2, 101)", Code.EXPONENT_TOO_LARGE),
    ("irrational exponent", "2 ** sqrt(2)", ArithmeticCode.EXPONENT_NOT_WHOLE),
    ("adding time to length", "5 min + 3 m", ArithmeticCode.UNIT_INCOMPATIBLE),
    ("logarithm of a length", "ln(5 m)", ArithmeticCode.UNIT_INCOMPATIBLE),
    ("unit exponent over the cap", "5 m^100", Code.EXPRESSION_INVALID),
    ("caret power", "2 ^ 3", Code.EXPRESSION_INVALID),
    ("floor division", "7 // 2", Code.EXPRESSION_INVALID),
    ("modulo", "7 % 2", Code.EXPRESSION_INVALID),
    ("NUL byte", "1 +\x00 2", Code.EXPRESSION_INVALID),
    ("non-ASCII digit", "\N{ARABIC-INDIC DIGIT THREE} + 1", Code.EXPRESSION_INVALID),
    ("lone surrogate", "1 + \udc80", Code.EXPRESSION_INVALID),
    ("unbalanced", "((1 + 2)", Code.EXPRESSION_INVALID),
    ("thousands separator", "1,000 + 1", Code.EXPRESSION_INVALID),
    ("underscore digits", "1_000", Code.EXPRESSION_INVALID),
    ("long signs then nothing", "-" * 1_999, Code.EXPRESSION_INVALID),
    ("overlong", "1+" * 5_000 + "1", Code.EXPRESSION_TOO_LARGE),
]


@pytest.mark.parametrize(("expression", "code"), [(e, c) for _, e, c in HOSTILE], ids=[n for n, _, _ in HOSTILE])
def test_hostile_expressions_end_with_our_own_error(expression: str, code: Code) -> None:
    with pytest.raises(CgxError) as raised:
        evaluate(parse_expression(expression))
    assert raised.value.code == code
    assert raised.value.message
    assert "\n" not in raised.value.message


def test_the_largest_allowed_results_are_computed() -> None:
    assert evaluate(parse_expression("(2**100)**100")) == 2**10_000
    assert evaluate(parse_expression("(2**100)**-100")) == Fraction(1, 2**10_000)
    assert evaluate(parse_expression("(2**100)**100")).numerator.bit_length() <= MAX_RESULT_BITS


@pytest.mark.parametrize(("expression", "code"), [(e, c) for _, e, c in HOSTILE], ids=[n for n, _, _ in HOSTILE])
def test_the_whole_check_refuses_them_the_same_way(expression: str, code: Code) -> None:
    # Texts containing every numeral the corpus uses, so the refusal is the expression's own.
    texts = ["0 1 2 3 5 7 10 50 100 101 0.5 0% 1e999999999 5 min 3 m 5 m " + "7" * 5_000]
    with pytest.raises(CgxError) as raised:
        recompute(expression, "3", texts)  # 3 is no operand of the corpus: never the expression itself
    assert raised.value.code == code


@pytest.mark.parametrize("result", ["", "many", "1 + 1", "1e500", "9" * 300, "2 furlongs", "2 days ago"])
def test_hostile_results_are_refused(result: str) -> None:
    with pytest.raises(CgxError) as raised:
        recompute("1", result, ["1"])
    assert raised.value.code in {Code.EXPRESSION_INVALID, Code.EXPRESSION_TOO_LARGE, Code.EXPONENT_TOO_LARGE}

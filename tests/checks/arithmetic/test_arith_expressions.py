"""parse_expression, evaluate and render: the grammar's reading, exact values and the canonical rendering."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from cgx_checks.arithmetic import Binary, Literal, Unary, evaluate, literals, parse_expression, render
from cgx_checks.arithmetic.limits import MAX_EXPRESSION_CHARS, MAX_NESTING, MAX_NUMERAL_DIGITS
from cgx_core.codes import Code
from cgx_core.errors import CgxError


def value(expression: str) -> F:
    return evaluate(parse_expression(expression))


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("(6.2 - 2.2) / 0.01 + 1", F(401)),
        ("750 / 2", F(375)),
        ("16.3e-5 / 4.52e-5", F(1630, 452)),
        ("1 - 2 - 3", F(-4)),
        ("2 / 4 / 8", F(1, 16)),
        ("-2**2", F(-4)),
        ("(-2)**2", F(4)),
        ("2**-1", F(1, 2)),
        ("2**3**2", F(512)),
        ("(2**3)**2", F(64)),
        ("--2", F(2)),
        ("+-+2", F(-2)),
        ("2 * -3", F(-6)),
        ("95% * 4", F(19, 5)),
        ("0.8%", F(1, 125)),
        ("1e-3 * 2", F(1, 500)),
        ("1E3", F(1000)),
        ("1 \N{MINUS SIGN} 2", F(-1)),
        ("0.1 + 0.2", F(3, 10)),
        ("(1/3) * 3", F(1)),
        ("0 ** 0", F(1)),
        ("(-1/2) ** -3", F(-8)),
        (" \t( 1 +\n 2 ) ", F(3)),
        ("2.0 ** 3", F(8)),
        ("4 ** (1/1)", F(4)),
    ],
)
def test_exact_values(expression: str, expected: F) -> None:
    assert value(expression) == expected


def test_values_are_fractions_never_floats() -> None:
    assert type(value("0.1 + 0.2")) is F
    assert value("0.1 + 0.2") == F(3, 10)


def test_tree_shape() -> None:
    tree = parse_expression("-2 ** 2 + 1")
    assert isinstance(tree, Binary) and tree.op == "+"
    assert isinstance(tree.left, Unary) and tree.left.op == "-"
    assert isinstance(tree.left.operand, Binary) and tree.left.operand.op == "**"
    assert [literal.text for literal in literals(tree)] == ["2", "2", "1"]
    assert [literal.column for literal in literals(tree)] == [2, 7, 11]


def test_literals_carry_reduced_exact_values() -> None:
    assert literals(parse_expression("6.20 + 95% + 1.5e-2")) == (
        Literal("6.20", 31, 5, 1),
        Literal("95%", 19, 20, 8),
        Literal("1.5e-2", 3, 200, 14),
    )


@pytest.mark.parametrize(
    ("expression", "rendered"),
    [
        ("(6.2-2.2)/0.01+1", "(6.2 - 2.2) / 0.01 + 1"),
        ("1-(2-3)", "1 - (2 - 3)"),
        ("(1-2)-3", "1 - 2 - 3"),
        ("((2))", "2"),
        ("-(2**2)", "-2 ** 2"),
        ("(-2)**2", "(-2) ** 2"),
        ("(2**3)**2", "(2 ** 3) ** 2"),
        ("2**(3**2)", "2 ** 3 ** 2"),
        ("2*(3*4)", "2 * (3 * 4)"),
        ("-(1+2)", "-(1 + 2)"),
        ("2**(-1)", "2 ** -1"),
        ("1 \N{MINUS SIGN} 2", "1 - 2"),
    ],
)
def test_render_is_canonical_and_reparses_to_the_same_value(expression: str, rendered: str) -> None:
    tree = parse_expression(expression)
    assert render(tree) == rendered
    again = parse_expression(rendered)
    assert render(again) == rendered
    assert evaluate(again) == evaluate(tree)


@pytest.mark.parametrize(
    ("expression", "column"),
    [("2 ^ 3", 3), ("#garbage", 1), ("1 +", 4), ("(1", 3), ("1)", 2), ("1 2", 3), ("* 2", 1), ("2 ** ** 3", 6)],
)
def test_parse_errors_give_the_column(expression: str, column: int) -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression(expression)
    assert raised.value.code == Code.EXPRESSION_INVALID
    assert f"column {column}" in raised.value.message


def test_parse_error_names_what_was_expected() -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression("(1")
    assert "expected ')', '+', '-'" in raised.value.message


def test_caps_are_checked_before_parsing() -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression("1+" * MAX_EXPRESSION_CHARS + "1")
    assert raised.value.code == Code.EXPRESSION_TOO_LARGE
    nested = "(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1)
    with pytest.raises(CgxError) as raised:
        parse_expression(nested)
    assert raised.value.code == Code.EXPRESSION_TOO_LARGE
    assert "nest deeper" in raised.value.message


def test_nesting_at_the_cap_is_accepted() -> None:
    assert value("(" * MAX_NESTING + "1" + ")" * MAX_NESTING) == 1


def test_many_parentheses_side_by_side_are_not_nesting() -> None:
    assert value("+".join(["(1)"] * (MAX_NESTING + 5))) == MAX_NESTING + 5


def test_a_numeral_over_the_digit_cap_is_refused_with_its_column() -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression("1 + " + "9" * (MAX_NUMERAL_DIGITS + 1))
    assert raised.value.code == Code.EXPRESSION_TOO_LARGE
    assert "column 5" in raised.value.message


def test_deep_trees_without_parentheses_evaluate_without_recursion() -> None:
    signs = "-" * (MAX_EXPRESSION_CHARS - 1) + "1"
    assert value(signs) == (1 if (MAX_EXPRESSION_CHARS - 1) % 2 == 0 else -1)
    chain = "+".join(["1"] * (MAX_EXPRESSION_CHARS // 2))
    assert value(chain) == MAX_EXPRESSION_CHARS // 2
    powers = "1" + "**1" * ((MAX_EXPRESSION_CHARS - 1) // 3)
    assert value(powers) == 1
    assert render(parse_expression(signs)).count("-") == MAX_EXPRESSION_CHARS - 1

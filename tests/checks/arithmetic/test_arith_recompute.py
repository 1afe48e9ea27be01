"""recompute: operands and result from the texts, the rounding the reported digits imply, and the record."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from cgx_checks.arithmetic import Recomputation, observation_key, recompute
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.base.digests import canonical_json
from cgx_core.codes import Code
from cgx_core.errors import CgxError


@pytest.mark.parametrize(
    ("expression", "result", "text", "outcome"),
    [
        # 350 is 350 +- 0.5, inclusive at both ends.
        ("349.5", "350", "349.5 rounds to 350", "passed"),
        ("350.5", "350", "350.5 rounds to 350", "passed"),
        ("349.49", "350", "349.49 is not 350", "failed"),
        ("350.51", "350", "350.51 is not 350", "failed"),
        # 0.35 is 0.35 +- 0.005.
        ("0.345", "0.35", "0.345 gives 0.35", "passed"),
        ("0.355", "0.35", "0.355 gives 0.35", "passed"),
        ("0.3449", "0.35", "0.3449 gives 0.35", "failed"),
        # Trailing zeros narrow the rounding: 0.350 is 0.350 +- 0.0005.
        ("0.3504", "0.350", "0.3504 gives 0.350", "passed"),
        ("0.3506", "0.350", "0.3506 gives 0.350", "failed"),
        # A power of ten widens it: 1.2e3 is 1200 +- 50.
        ("1250", "1.2e3", r"1250 is $1.2 \times 10^{3}$", "passed"),
        ("1251", "1.2e3", r"1251 is $1.2 \times 10^{3}$", "failed"),
        # A percent is the number / 100: 0.8% is 0.008 +- 0.0005 (0.75% to 0.85%).
        ("4 / 500", "0.8%", "4 of 500 is 0.8%", "passed"),
        ("4.2 / 500", "0.8%", "4.2 of 500 is 0.8%", "passed"),
        ("4.3 / 500", "0.8%", "4.3 of 500 is 0.8%", "failed"),
        ("4 / 500 * 100", "0.8", "4 of 500 is 0.8% (per 100)", "passed"),
        ("4 / 500 * 100", "0.8%", "4 of 500 is 0.8% (per 100)", "failed"),
        # Negative results.
        ("3 - 7", "-4", "from 3 to 7 is a change of -4", "passed"),
        ("3 - 7", "-4", "from 3 to 7 is a change of \N{MINUS SIGN}4", "passed"),
    ],
)
def test_rounding_the_reported_digits_imply(expression: str, result: str, text: str, outcome: str) -> None:
    assert recompute(expression, result, [text]).outcome == outcome


def test_the_issue_example_record() -> None:
    check = recompute("(6.2 - 2.2) / 0.01 + 1", "400", ["from 2.2 to 6.2 in steps of 0.01, 400 values and 1"])
    assert check == Recomputation(
        expression="(6.2 - 2.2) / 0.01 + 1",
        operands=("6.2", "2.2", "0.01", "1"),
        result="400",
        value=F(401),
        expected=F(400),
        half_unit=F(1, 2),
        outcome="failed",
        detail="(6.2 - 2.2) / 0.01 + 1 = 401, reported 400 +- 0.5: failed",
    )
    assert check.to_json() == {
        "detail": "(6.2 - 2.2) / 0.01 + 1 = 401, reported 400 +- 0.5: failed",
        "expected": "400/1",
        "expected_decimal": "400",
        "expression": "(6.2 - 2.2) / 0.01 + 1",
        "half_unit": "1/2",
        "half_unit_decimal": "0.5",
        "operands": ["6.2", "2.2", "0.01", "1"],
        "outcome": "failed",
        "result": "400",
        "value": "401/1",
        "value_decimal": "401",
    }


def test_json_is_byte_identical_when_run_again_and_keys_are_sorted() -> None:
    arguments = ("16.3e-5 / 4.52e-5", "3.6", [r"RMSE of $4.52\cdot10^{-5}$ against $16.3 \cdot 10^{-5}$, 3.6 times"])
    first = recompute(*arguments).to_json()
    again = recompute(*arguments).to_json()
    assert canonical_json(first) == canonical_json(again)
    assert list(first) == sorted(first)
    assert json.dumps(first) == json.dumps(again)
    assert first["value_decimal"] == "3.606194690265486725663716814159292035398..."
    assert first["outcome"] == "passed"


def test_detail_of_a_non_terminating_value_and_of_a_percent() -> None:
    check = recompute("16.3e-5 / 4.52e-5", "3.6", [r"$4.52\cdot10^{-5}$, $16.3\cdot10^{-5}$, 3.6"])
    assert check.detail == "16.3e-5 / 4.52e-5 = 3.6061946902654867256..., reported 3.6 +- 0.05: passed"
    percent = recompute("4 / 500", "0.8%", ["4 of 500 is 0.8%"])
    assert percent.detail == "4 / 500 = 0.008, reported 0.8% = 0.008 +- 0.0005: passed"


def test_operands_match_by_exact_value_with_their_sign_ignored() -> None:
    text = r"$10^{-3}$ and 95\% and a change of \N{MINUS SIGN}4"
    assert recompute("1e-3 * 1000", "1", ["1000 gives 1", text]).outcome == "passed"
    assert recompute("0.95 * 4", "3.8", ["3.8", text]).outcome == "passed"  # 0.95 is the value of 95%
    assert recompute("-4 + 4.0", "0", ["0", text]).outcome == "passed"  # 4 is -4 with its sign as an operator
    assert recompute("10 ** -3", "1e-3", [text]).outcome == "passed"  # 10 and -3 are written


def test_the_result_must_be_written_as_the_text_writes_it() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("1.2e3", "1200", [r"$1.2 \times 10^{3}$"])
    assert raised.value.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert "the result 1200 is not written" in raised.value.message
    assert "the cited chunks contain 1.2e3, 1.2, 10, 3, 1e3" in raised.value.message
    with pytest.raises(CgxError) as raised:
        recompute("350", "350.0", ["350"])
    assert raised.value.code == ArithmeticCode.OPERAND_NOT_IN_TEXT


def test_an_operand_no_text_contains_is_refused_with_the_numerals_they_do_contain() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("750 / 2 + 0.1", "375", [r"$f_s=750$~Hz", r"bandwidth $375$~Hz"])
    assert raised.value.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert raised.value.message == (
        "the numerals 2, 0.1 of the expression are not in the cited chunks' text (compared by exact value); "
        "the cited chunks contain 750, 375"
    )


def test_texts_without_numerals() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("1 + 1", "2", ["no numbers here", ""])
    assert raised.value.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert "contain no numerals" in raised.value.message


def test_operands_are_checked_before_anything_is_computed() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("10 ** 10 ** 10", "1", ["1"])
    assert raised.value.code == ArithmeticCode.OPERAND_NOT_IN_TEXT


def test_parse_errors_come_before_the_text_check() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("2 ^ 3", "8", [])
    assert raised.value.code == Code.EXPRESSION_INVALID


def test_arguments_of_the_wrong_type_are_our_own_error() -> None:
    with pytest.raises(CgxError) as raised:
        recompute(350, "350", ["350"])  # type: ignore[arg-type]
    assert raised.value.code == Code.EXPRESSION_INVALID
    with pytest.raises(CgxError) as raised:
        recompute("350", "350", [350])  # type: ignore[list-item]
    assert raised.value.code == Code.EXPRESSION_INVALID
    with pytest.raises(CgxError) as raised:
        recompute("350", "350", "350")
    assert raised.value.code == Code.INTERNAL_ERROR


def test_same_observation_key() -> None:
    texts = ["750 / 2 is 375, also 0.5 of 750"]
    halved = recompute("750 / 2", "375", texts)
    reordered = recompute("(750) / 2.0", "375", texts)
    assert halved.expression != reordered.expression
    assert observation_key(halved) == observation_key(reordered)
    assert observation_key(halved) == "value=375/1;expected=375/1;half_unit=1/2;operands=2/1,750/1"
    # The same value from other operands is another observation: each rests on its own numbers.
    scaled = recompute("0.5 * 750", "375", texts)
    assert observation_key(scaled) != observation_key(halved)
    other = recompute("750 / 2", "375", [*texts, "375.0"])
    assert observation_key(other) == observation_key(halved)
    rounded = recompute("750 / 2", "375.0", [*texts, "375.0"])
    assert observation_key(rounded) != observation_key(halved)  # another rounding is another observation

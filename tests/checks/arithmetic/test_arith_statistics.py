"""mean, median, min and max in recompute-numbers: an average, a best or a middle value the text reports from
numbers it writes elsewhere (a table's column), with no count the agent supplies."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgx_checks.arithmetic import evaluate, parse_expression, recompute
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError

ROWS = [
    "Table 2 (caption s-14); row Dataset: MNIST; Accuracy: 99.1; Time: 12 min",
    "Table 2 (caption s-14); row Dataset: CIFAR-10; Accuracy: 91.4; Time: 1.5 h",
    "Table 2 (caption s-14); row Dataset: SVHN; Accuracy: 95.2; Time: 40 min",
]
CLAIM = "Averaged over the three datasets, our method reaches 95.3% accuracy, at best 99.1, in 45 minutes on average."


def test_an_average_of_a_tables_column_is_checked_without_a_count_from_the_agent() -> None:
    checked = recompute("mean(99.1, 91.4, 95.2)", "95.3", [CLAIM, *ROWS])
    assert (checked.outcome, checked.value) == ("failed", F(2857, 30))  # 95.2333..., not 95.3 +- 0.05
    assert checked.detail.startswith("mean(99.1, 91.4, 95.2) = 95.23")
    assert recompute("max(99.1, 91.4, 95.2)", "99.1", [CLAIM, *ROWS]).outcome == "passed"
    assert recompute("median(99.1, 91.4, 95.2)", "95.3", [CLAIM, *ROWS]).outcome == "failed"


def test_an_average_of_times_in_mixed_units_converts_each() -> None:
    checked = recompute("mean(12 min, 1.5 h, 40 min)", "45 minutes", [CLAIM, *ROWS])
    assert (checked.outcome, checked.value, checked.unit) == ("failed", F(142, 3), "minute")  # 47.33 min


def test_values_of_different_dimensions_are_refused() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("mean(12 min, 99.1)", "45 minutes", [CLAIM, *ROWS])
    assert raised.value.code == ArithmeticCode.UNIT_INCOMPATIBLE
    assert "takes values of one dimension" in raised.value.message


def test_a_value_restated_through_a_statistic_of_itself_is_free_evidence() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("mean(99.1)", "99.1", [CLAIM])
    assert raised.value.code == ArithmeticCode.EXPRESSION_IS_RESULT
    # Citing the row that prints 99.1 too, it compares the sentence with the table (docs/numbers.md).
    assert recompute("mean(99.1)", "99.1", [CLAIM, *ROWS]).outcome == "passed"


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("median(3, 1, 2, 10)", F(5, 2)),
        ("median(4, 1, 7)", F(4)),
        ("min(2, -3, 1)", F(-3)),
        ("max(1 min, 30 s)", F(60)),  # base units: seconds
        ("mean(1/3, 2/3)", F(1, 2)),
    ],
)
def test_exact_values(expression: str, value: F) -> None:
    assert evaluate(parse_expression(expression)) == value


def test_an_irrational_argument_is_enclosed_and_decided() -> None:
    text = "The values are 2 and 1.41, so the smaller is 1.414 and the mean is 1.707."
    assert recompute("min(2, sqrt(2))", "1.414", [text]).outcome == "passed"
    assert recompute("mean(2, sqrt(2))", "1.707", [text]).outcome == "passed"


def test_argument_counts_are_bounded() -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression("mean(" + ", ".join(["1"] * 201) + ")")
    assert raised.value.code == Code.EXPRESSION_INVALID
    assert "takes 1 to 200 argument(s), not 201" in raised.value.message


@settings(deadline=None, max_examples=200)
@given(st.lists(st.fractions(min_value=-1000, max_value=1000, max_denominator=1000), min_size=1, max_size=12))
def test_each_statistic_agrees_with_pythons(values: list[F]) -> None:
    import statistics

    written = ", ".join(f"({value.numerator}/{value.denominator})" for value in values)
    assert evaluate(parse_expression(f"mean({written})")) == statistics.mean(values)
    assert evaluate(parse_expression(f"median({written})")) == statistics.median(values)
    assert evaluate(parse_expression(f"min({written})")) == min(values)
    assert evaluate(parse_expression(f"max({written})")) == max(values)

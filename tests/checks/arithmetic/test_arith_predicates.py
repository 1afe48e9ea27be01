"""recompute with roundings (round, sig), predicates over cited numbers (comparisons, all, any, count,
within, sorted_desc, sorted_asc), the admissible range of a quantity's kind (is_probability, ...), the words a
text writes a relation with, and the rules that keep each form from passing a claim by construction."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from cgx_checks.arithmetic import observation_key, parse_expression, recompute
from cgx_checks.arithmetic.predicate_check import PredicateCheck
from cgx_checks.arithmetic.recompute import Recomputation, decide_recorded
from cgx_checks.arithmetic.tree import render
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers.enumeration import enumerated_items

ROWS = [
    "Table 1 (caption s-1); row A; Original: 8.53; Reproduced: 8.53",
    "Table 1 (caption s-1); row B; Original: 7.12; Reproduced: 7.12",
    "Table 1 (caption s-1); row C; Original: 6.40; Reproduced: 6.41",
]
IDENTICAL = "The original and reproduced values are identical (Table 1)."


def refused(expression: str, result: str, texts: list[str], **options: object) -> CgxError:
    with pytest.raises(CgxError) as raised:
        recompute(expression, result, texts, **options)  # type: ignore[arg-type]
    return raised.value


def predicate(expression: str, result: str, texts: list[str], **options: object) -> PredicateCheck:
    checked = recompute(expression, result, texts, **options)  # type: ignore[arg-type]
    assert isinstance(checked, PredicateCheck)
    return checked


def number(expression: str, result: str, texts: list[str], **options: object) -> Recomputation:
    checked = recompute(expression, result, texts, **options)  # type: ignore[arg-type]
    assert isinstance(checked, Recomputation)
    return checked


# -- rounding -------------------------------------------------------------------------------------------


def test_round_checks_agreement_within_the_precision_reported_and_says_that_precision() -> None:
    text = "The reproduced 8.537 is identical to the original 8.53 within the precision reported."
    checked = number("round(8.537, 2)", "8.53", [text])
    assert (checked.outcome, checked.value) == ("failed", F(854, 100))  # 8.537 rounds to 8.54
    assert checked.detail == (
        "round(8.537, 2) = 8.54, reported 8.53 +- 0.005 (2 decimals, 3 significant digits): failed"
    )
    as_predicate = predicate("round(8.537, 2) == 8.53", "identical", [text])
    assert (as_predicate.outcome, as_predicate.holds, as_predicate.meaning) == ("failed", False, "==")
    assert as_predicate.to_json()["relations"] == {"==": "identical"}
    assert predicate("round(8.531, 2) == 8.53", "identical", [text.replace("8.537", "8.531")]).outcome == "passed"


def test_round_is_half_away_from_zero_and_sig_keeps_significant_digits() -> None:
    text = "values 2.5, -2.5, 0.012345 and 1234.5 round to 3, -3, 0.0123 and 1.2e3"
    assert number("round(2.5, 0)", "3", [text]).outcome == "passed"
    assert number("round(-2.5, 0)", "-3", [text + " and -3"]).outcome == "passed"
    assert number("sig(0.012345, 3)", "0.0123", [text]).outcome == "passed"
    assert number("sig(1234.5, 2)", "1.2e3", [text]).outcome == "passed"
    # 1200 as written is 1200 +- 0.5: two significant digits are coarser than that.
    assert refused("sig(1234.5, 2)", "1200", [text + " or 1200"]).code == ArithmeticCode.ROUNDING_TOO_COARSE


def test_a_rounding_coarser_than_the_reported_numeral_is_refused_not_passed() -> None:
    # 8.46 is not 8.51; rounded to one decimal it would be 8.5, so a free n could pass it by construction.
    error = refused("round(8.46, 1)", "8.51", ["8.46 against 8.51"])
    assert error.code == ArithmeticCode.ROUNDING_TOO_COARSE
    assert "coarser than 8.51 is written (2 decimals, 3 significant digits)" in error.message
    assert refused("round(8.46, 1) == 8.51", "identical", ["8.46 is identical to 8.51"]).code == (
        ArithmeticCode.ROUNDING_TOO_COARSE
    )
    assert refused("sig(8.46, 2)", "8.51", ["8.46 against 8.51"]).code == ArithmeticCode.ROUNDING_TOO_COARSE
    # A padded zero states no digit: 8.50 states 8.5, so a rounding to one decimal is compared with it, but
    # not one coarser than its significant digits.
    assert number("round(8.46, 1)", "8.50", ["8.46 against 8.50"]).outcome == "passed"
    assert refused("round(8.46, 0)", "8.50", ["8.46 against 8.50"]).code == ArithmeticCode.ROUNDING_TOO_COARSE
    # A rounding compared with no numeral has nothing bounding it.
    assert refused("round(8.46, 1) + 1", "9.5", ["8.46 and 1 make 9.5"]).code == ArithmeticCode.ROUNDING_TOO_COARSE


def test_round_of_a_numeral_against_its_own_rounding_is_no_new_pass() -> None:
    # "8.537 (8.54 in the table)": round adds nothing the plain comparison does not decide the same way, and
    # round(8.54, 2) against 8.54 restates the result.
    text = "The value is 8.537 (8.54 in Table 2)."
    assert number("round(8.537, 2)", "8.54", [text]).outcome == number("8.537", "8.54", [text]).outcome == "passed"
    assert refused("round(8.54, 2)", "8.54", [text]).code == ArithmeticCode.EXPRESSION_IS_RESULT
    # The n of a rounding is the agent's, not a numeral of the text.
    assert number("round(8.537, 2)", "8.54", [text]).operands == ("8.537",)


@pytest.mark.parametrize("expression", ["round(8.537, 2.5)", "round(8.537, 21)", "sig(8.537, 0)", "round(8.537)"])
def test_a_rounding_takes_a_whole_number_of_digits(expression: str) -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression(expression)
    assert raised.value.code == Code.EXPRESSION_INVALID


# -- predicates over cited rows -------------------------------------------------------------------------


def test_identical_columns_with_one_row_that_differs_fail() -> None:
    expression = "all(8.53 == 8.53, 7.12 == 7.12, 6.40 == 6.41)"
    checked = predicate(expression, "identical", [IDENTICAL, *ROWS])
    assert (checked.outcome, checked.holds) == ("failed", False)
    assert checked.detail == f"{expression} is false; the text writes 'identical' (==): failed"
    assert checked.to_json()["relations"] == {"==": "identical"}
    assert predicate("all(8.53 == 8.53, 7.12 == 7.12)", "identical", [IDENTICAL, *ROWS[:2]]).outcome == "passed"


def test_a_count_of_rows_whose_columns_differ_against_the_count_the_text_states() -> None:
    text = "Three rows changed between the two versions."
    checked = number("count(8.53 != 8.53, 7.12 != 7.12, 6.40 != 6.41)", "Three", [text, *ROWS])
    assert (checked.outcome, checked.value) == ("failed", F(1))
    assert checked.to_json()["relations"] == {"!=": "changed"}
    # A count needs the text's word for its relation.
    error = refused("count(8.53 < 8.54)", "1", ["1 of 8.53 and 8.54 changed"])
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT


def test_an_estimate_outside_its_own_confidence_interval_fails() -> None:
    text = "Every estimate lies within its 95% confidence interval: 0.52 [0.55, 0.91] and 0.70 [0.61, 0.80]."
    checked = predicate("all(within(0.52, 0.55, 0.91), within(0.70, 0.61, 0.80))", "within", [text])
    assert checked.outcome == "failed"
    assert predicate("within(0.70, 0.61, 0.80)", "within", [text]).outcome == "passed"


def test_a_column_said_to_decrease_is_checked_in_order() -> None:
    text = "Error decreases with depth: 12.1, 10.4, 10.9, 8.2."
    assert predicate("sorted_desc(12.1, 10.4, 10.9, 8.2)", "decreases", [text]).outcome == "failed"
    assert predicate("sorted_asc(8.2, 10.4, 12.1)", "increase", [text + " They increase the other way."]).outcome == (
        "passed"
    )


def test_relation_words_write_the_relations_and_are_recorded_with_the_word() -> None:
    text = "Every listed value is at least 0.65: 0.70, 0.66 and 0.61. The loss stays below 2.5, at 2.1."
    checked = predicate("all(0.70 >= 0.65, 0.66 >= 0.65, 0.61 >= 0.65)", "at least", [text])
    assert (checked.outcome, checked.to_json()["relations"]) == ("failed", {">=": "at least"})
    assert predicate("2.1 < 2.5", "below", [text]).outcome == "passed"
    assert predicate("2.5 > 2.1", "below", [text]).outcome == "passed"  # the same relation written the other way
    assert predicate("2.1 <= 2.5", "at least", [text]).outcome == "passed"  # at least, mirrored
    exceeds = "The speed-up exceeds 3, at 2.9; no more than 5 runs, 6 in all."
    assert predicate("2.9 > 3", "exceeds", [exceeds]).outcome == "failed"
    assert predicate("6 <= 5", "no more than", [exceeds]).outcome == "failed"


def test_a_relation_the_word_does_not_write_is_refused() -> None:
    # "identical" is ==: an agent may not weaken it into >=.
    error = refused("all(8.53 >= 8.53, 6.41 >= 6.40)", "identical", [IDENTICAL, *ROWS])
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT
    assert "not what the result word writes (==)" in error.message
    # The result word must be the text's, and one of the vocabulary.
    assert refused("6.40 == 6.41", "identical", ROWS).code == ArithmeticCode.RELATION_NOT_IN_TEXT
    assert refused("6.40 == 6.41", "kept", [*ROWS, "all kept"]).code == ArithmeticCode.RELATION_NOT_IN_TEXT
    # any() holds when one condition does: the text must write a word for it.
    error = refused("any(8.53 == 8.53, 6.40 == 6.41)", "identical", [IDENTICAL, *ROWS])
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT and "any()" in error.message
    some = "Some of the values are identical (Table 1)."
    assert predicate("any(8.53 == 8.53, 6.40 == 6.41)", "identical", [some, *ROWS]).outcome == "passed"


def test_a_predicate_cannot_compare_a_numeral_with_itself() -> None:
    # The threshold written once is not "every value is at least 0.65".
    text = "The threshold is set to 0.65 so that every value is at least 0.65 (0.70 and 0.66)."
    assert refused("all(0.65 >= 0.65)", "at least", [text.replace(" at least 0.65", " at least that")]).code == (
        ArithmeticCode.EXPRESSION_IS_RESULT
    )
    once = "The value 0.61 is at least the threshold."
    assert refused("0.61 >= 0.61", "at least", [once]).code == ArithmeticCode.EXPRESSION_IS_RESULT
    assert refused("within(0.61, 0.61, 0.61)", "within", ["0.61 within"]).code == ArithmeticCode.EXPRESSION_IS_RESULT
    assert refused("sorted_desc(0.61, 0.61)", "decreasing", ["0.61 decreasing"]).code == (
        ArithmeticCode.EXPRESSION_IS_RESULT
    )
    # Written twice (two cells), the comparison is evidence.
    assert predicate("8.53 == 8.53", "identical", [IDENTICAL, ROWS[0]]).outcome == "passed"


def test_operands_of_a_predicate_must_be_written_in_the_cited_chunks() -> None:
    error = refused("all(8.53 == 8.53, 9.99 == 9.99)", "identical", [IDENTICAL, *ROWS])
    assert error.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert refused("1 < 2", "below", ["1 is below 2"], relation="<").code == Code.EXPRESSION_INVALID


@pytest.mark.parametrize(
    "expression",
    ["all(3)", "all(1 < 2) + 1", "sqrt(1 < 2)", "within(1 < 2, 1, 2)", "count(5)", "(1 < 2)", "1 < 2 < 3"],
)
def test_a_truth_value_stands_only_where_a_condition_belongs(expression: str) -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression(expression)
    assert raised.value.code == Code.EXPRESSION_INVALID


def test_comparisons_of_quantities_with_units_convert_and_refuse_other_dimensions() -> None:
    text = "Training took 90 min, below the 2 h budget, and used 3 m of cable."
    checked = predicate("90 min < 2 h", "below", [text])
    assert checked.outcome == "passed" and str(checked.library).startswith("pint ")
    assert refused("90 min < 3 m", "below", [text]).code == ArithmeticCode.UNIT_INCOMPATIBLE


def test_an_irrational_comparison_is_decided_by_enclosures() -> None:
    checked = predicate("sqrt(2) < 1.415", "below", ["sqrt of 2 is below 1.415"])
    assert checked.outcome == "passed" and checked.precision == 64


# -- admissible ranges by kind --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "result", "text", "outcome"),
    [
        ("is_condition_number(0.8)", "condition number", "The condition number is 0.8.", "failed"),
        ("is_condition_number(12.5)", "condition number", "The condition number is 12.5.", "passed"),
        ("is_probability(1.3)", "probability", "a probability of 1.3", "failed"),
        ("is_probability(0.3)", "probability", "a probability of 0.3", "passed"),
        ("is_variance(-0.2)", "variance", "a variance of -0.2", "failed"),
        ("is_sd(0.2)", "SD", "SD 0.2", "passed"),
        ("is_correlation(-1.2)", "correlation", "a correlation of -1.2", "failed"),
        ("is_pvalue(0.04)", "p-value", "a p-value of 0.04", "passed"),
        ("is_proportion(0.4)", "proportion", "a proportion of 0.4", "passed"),
        ("is_percentage(130%)", "%", r"130\% of the runs", "failed"),
        ("is_count(2.5)", "number of", "the number of runs was 2.5", "failed"),
        ("is_count(3)", "number of", "the number of runs was 3", "passed"),
    ],
)
def test_a_quantity_outside_the_range_its_kind_admits_fails(
    expression: str, result: str, text: str, outcome: str
) -> None:
    checked = predicate(expression, result, [text])
    assert checked.outcome == outcome
    assert checked.meaning == expression.split("(")[0]


def test_a_kind_the_text_does_not_name_is_refused_and_a_percentage_needs_its_percent_sign() -> None:
    assert refused("is_probability(1.3)", "probability", ["a value of 1.3"]).code == (
        ArithmeticCode.RELATION_NOT_IN_TEXT
    )
    assert refused("is_probability(1.3)", "variance", ["a variance, 1.3"]).code == ArithmeticCode.RELATION_NOT_IN_TEXT
    assert refused("is_percentage(45)", "percentage", ["a percentage of 45"]).code == ArithmeticCode.UNIT_MISSING


# -- items a chunk enumerates ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("in five settings: (a) clean, (b) noisy, (c) shifted, (d) rotated", 4),
        ("three steps: (i) fit, (ii) prune, (iii) refit", 3),
        ("two stages (1) warm-up and (2) training", 2),
        (r"\begin{itemize}\item one \item two \item three\end{itemize}", 3),
        ("First, we fit; second, we prune; third, we refit; fourth, we test.", 4),
        ("We first fit the model.", None),
        ("no enumeration here", None),
        ("(a) one, (b) two; first, second and third", None),  # two forms that disagree are not guessed
        ("Fig. 2(a) shows (b)", None),  # a panel reference is no enumeration
        # A list announced without labels, after its count and noun.
        ("We evaluate on three datasets (MNIST and SVHN).", 2),
        ("the three settings (random initialization, warm starting, and warm-starting with Shrink-Perturb)", 3),
        (
            "split into four mechanism: the shape mechanism, the texture mechanism, the background mechanism, "
            "and the composer.",
            4,
        ),
        ("The study used four measures: accuracy, recall, precision and F1.", 4),
        ("two baselines (ResNet and VGG) and two datasets (A and C)", 2),  # two lists of one size
        ("three heads (shape, texture, and background)", 3),
        # ... and the look-alikes, whose items could be read two ways.
        ("12 participants (8 women and 4 men) took part.", None),  # a breakdown, not a list of 12
        ("30 participants (mean age 24, SD 3) took part.", None),
        ("three models were trained (A and B used dropout).", None),  # the noun is no plural before it
        ("We found three results: A improves and B degrades.", None),  # clauses, not items
        ("two results: accuracy rose and loss fell", None),
        ("three cases: the matrix is singular and the system has no solution", None),
        ("three tasks: reading and writing, arithmetic, and drawing", None),  # two items or three
        ("two datasets (e.g. MNIST and SVHN)", None),  # a partial list
        ("two studies (Smith and Jones, 2010; Lee 2012)", None),  # a citation
        ("two parameters ($\\alpha$ and $\\beta$)", None),  # LaTeX
        ("two models (large, pretrained)", None),  # no "and": two adjectives of one model, perhaps
        ("three tasks (A and B and C)", None),
        ("two tasks: A and B.", None),  # two items after a colon may be two clauses
        ("two baselines (ResNet and VGG) and three datasets (A, B and C)", None),  # which list is counted?
        ("three tasks (A and B and C) and two datasets (X and Y)", None),  # one list not counted: none is
    ],
)
def test_items_counts_the_enumeration_a_chunk_writes(text: str, count: int | None) -> None:
    assert enumerated_items(text) == count


def test_items_is_a_count_like_rows_and_a_chunk_without_an_enumeration_is_refused() -> None:
    text = "We test in five settings: (a) clean, (b) noisy, (c) shifted, (d) rotated."
    checked = number("items(s-3)", "five", [text], items={"s-3": 4})
    assert (checked.outcome, checked.to_json()["items"]) == ("failed", {"s-3": 4})
    assert render(parse_expression("items(s-3) + rows(t-1)")) == "items(s-3) + rows(t-1)"
    assert refused("items(s-3)", "five", [text], items={"s-3": None}).code == ArithmeticCode.ENUMERATION_NOT_FOUND
    assert refused("items(s-4)", "five", [text], items={"s-3": 4}).code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    again = decide_recorded("items(s-3)", "five", "=", None, items={"s-3": 4})
    assert observation_key(again) == observation_key(checked)


def test_a_list_without_labels_is_counted_against_the_count_the_text_states() -> None:
    text = "Notes were checked by three assessors (a physiotherapist and a nurse)."
    checked = number("items(s-13)", "three", [text], items={"s-13": enumerated_items(text)})
    assert (checked.outcome, checked.to_json()["items"]) == ("failed", {"s-13": 2})
    listed = "Reminders were sent through two channels (text and voice)."
    assert number("items(s-12)", "two", [listed], items={"s-12": enumerated_items(listed)}).outcome == "passed"


def test_the_last_label_of_a_numbered_list_is_not_its_count() -> None:
    # "3)" writes 3, but a count checked against its own label passes by construction.
    text = "We proceed as follows: 1) fit, 2) prune and 3) refit."
    assert refused("items(s-5)", "3", [text], items={"s-5": 3}).code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    stated = number("items(s-5)", "three", [text + " These three steps repeat."], items={"s-5": 3})
    assert stated.outcome == "passed"


def test_a_predicate_decided_again_from_its_record_gives_the_same_observation() -> None:
    checked = predicate("all(8.53 == 8.53, 6.40 == 6.41)", "identical", [IDENTICAL, *ROWS])
    again = decide_recorded(checked.expression, checked.result, "=", None)
    assert observation_key(again) == observation_key(checked)
    assert again.to_json() == checked.to_json()

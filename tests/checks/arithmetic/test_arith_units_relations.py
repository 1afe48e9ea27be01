"""recompute with units, relations and hedge tolerances, constants and functions, the free-evidence rule
and refusals that name every problem and the chunks that write a missing numeral."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from cgx_checks.arithmetic import Chunk, ProposalProblems, observation_key, recompute
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.errors import CgxError

TEN_PERCENT = {"approximately": F(1, 10), "about": F(1, 10), "~": F(1, 10)}
FIVE_PERCENT = {"approximately": F(1, 20)}
TIMES = "The run took 90 minutes to set up, 20 hours to train and 1 day to evaluate: approximately 2 days."


def problems(expression: str, result: str, texts: list[str], **options: object) -> CgxError:
    with pytest.raises(CgxError) as raised:
        recompute(expression, result, texts, **options)  # type: ignore[arg-type]
    return raised.value


# -- units ----------------------------------------------------------------------------------------------


def test_a_total_in_mixed_units_is_decided_by_the_rubrics_tolerance() -> None:
    loose = recompute("90 minutes + 20 hours + 1 day", "2 days", [TIMES], tolerances=TEN_PERCENT)
    assert loose.outcome == "passed"
    assert loose.value == F(91, 48)  # 45.5 hours in days, exactly
    assert (loose.relation, loose.hedge, loose.tolerance, loose.unit) == ("~", "approximately", F(1, 10), "day")
    assert loose.detail == (
        "90 minutes + 20 hours + 1 day = 1.8958333333333333333... day, reported approximately 2 day "
        "(within 10%: 1.8 to 2.2): passed"
    )
    tight = recompute("90 minutes + 20 hours + 1 day", "2 days", [TIMES], tolerances=FIVE_PERCENT)
    assert tight.outcome == "failed"  # 45.5 h is 5.2% short of 48 h
    assert observation_key(loose) != observation_key(tight)


def test_units_convert_exactly_and_the_result_is_compared_in_its_own_unit() -> None:
    text = r"a speed of $4.1\times10^{-3}$ m/s for 3600 s covers 14.76 m, or 1476 cm"
    assert recompute("4.1e-3 m/s * 3600 s", "14.76 m", [text]).outcome == "passed"
    in_cm = recompute("4.1e-3 m/s * 3600 s", "1476 cm", [text])
    assert (in_cm.outcome, in_cm.value, in_cm.unit) == ("passed", F(1476), "centimeter")
    assert in_cm.library is not None and in_cm.library.startswith("pint ")


def test_siunitx_quantities_are_read_with_their_units() -> None:
    text = r"We train for \SI{20}{\hour} after \qty{90}{\minute}, \SI{21.5}{\hour} in all."
    assert recompute("20 h + 90 min", "21.5 h", [text]).outcome == "passed"


def test_incompatible_units_are_a_clear_error() -> None:
    text = "5 min of data and 3 m of cable, 8 in all"
    error = problems("5 min + 3 m", "8", [text])
    assert error.code == ArithmeticCode.UNIT_INCOMPATIBLE
    assert "adds [length] to [time]" in error.message
    # The agent's mistake (a unit the text writes, left out) is refused, naming it; the paper's own mismatch,
    # with every unit as the text writes it, fails (tests/checks/arithmetic/test_arith_dimensions.py).
    mismatch = problems("5 * 2", "10 m", ["5 min twice, 2, is 10 m"])
    assert mismatch.code == ArithmeticCode.UNIT_INCOMPATIBLE
    assert "the expression is dimensionless and the result 10 has m ([length])" in mismatch.message
    assert "write each numeral and the result with exactly the unit the text writes with it" in mismatch.message


def test_an_operand_must_carry_the_unit_the_text_writes() -> None:
    error = problems("90 s + 20 h", "2 days", [TIMES], tolerances=TEN_PERCENT)
    assert error.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert "90 s (the text writes 90 with the unit minutes)" in error.message


def test_dropping_units_the_text_writes_differently_is_refused() -> None:
    # 90 minutes + 20 hours is not 110 of anything: the numbers are in different units.
    text = "set-up took 90 minutes and training 20 hours, 110 hours in all"
    error = problems("90 + 20", "110", [text])
    assert error.code == ArithmeticCode.UNIT_MISSING
    assert "90 minutes" in error.message and "20 hours" in error.message
    assert recompute("90 min + 20 h", "110 h", [text]).outcome == "failed"  # the paper's error, caught


def test_one_unit_throughout_may_be_left_out() -> None:
    text = r"sampling at $f_s=750$~Hz, the noise bandwidth is $375$~Hz, half the rate"
    assert recompute("750 * 0.5", "375", [text]).outcome == "passed"
    assert recompute("750 Hz * 0.5", "375 Hz", [text]).outcome == "passed"


def test_information_is_not_a_plain_number() -> None:
    error = problems("16 GB + 1", "17", ["16 GB and 1 more, 17"])
    assert error.code == ArithmeticCode.UNIT_INCOMPATIBLE


# -- relations ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "result", "text", "outcome", "relation"),
    [
        ("abs(4.52 - 4.6) / 4.6", "2%", "4.52 and 4.6 differ by less than 2%", "passed", "<"),
        ("abs(4.52 - 4.8) / 4.8", "2%", "4.52 and 4.8 differ by less than 2%", "failed", "<"),
        ("(16.3 - 4.52) / 16.3", "30%", "from 16.3 to 4.52, a reduction of more than 30%", "passed", ">"),
        ("(16.3 - 4.52) / 16.3", "72%", "from 16.3 to 4.52, a 72% reduction", "passed", "="),
        ("16.3e-5 / 4.52e-5", "3.6", r"$4.52\cdot10^{-5}$ is 3.6 times lower than $16.3\cdot10^{-5}$", "passed", "="),
        ("16.3e-5 / 4.52e-5", "4.2", r"$4.52\cdot10^{-5}$ is 4.2 times lower than $16.3\cdot10^{-5}$", "failed", "="),
        ("3 * 4", "12", "3 learning rates and 4 batch sizes: at most 12 pairs", "passed", "<="),
        ("3 * 4", "12", r"3 rates, 4 sizes: $\geq 12$ pairs", "passed", ">="),
        ("3 * 4", "13", r"3 rates, 4 sizes: $< 13$ pairs", "passed", "<"),
        ("3 * 4", "12", r"3 rates, 4 sizes: $> 12$ pairs", "failed", ">"),
    ],
)
def test_relations_the_text_writes(expression: str, result: str, text: str, outcome: str, relation: str) -> None:
    check = recompute(expression, result, [text])
    assert (check.outcome, check.relation) == (outcome, relation)


def test_inequalities_are_exact_at_the_bound() -> None:
    assert recompute("1 / 50", "2%", [r"1 in 50 is $<2$\%"]).outcome == "failed"  # 2% is not < 2%
    assert recompute("1 / 50", "2%", ["1 in 50 is at most 2%"]).outcome == "passed"


def test_a_relative_change_needs_no_hundred() -> None:
    text = r"the fit index rose from $25.4\%$ to $93.2\%$, by 67.8 points"
    assert recompute("93.2% - 25.4%", "67.8%", [text + ", or 67.8%"]).outcome == "passed"


def test_the_agent_cannot_choose_a_relation_the_text_does_not_write() -> None:
    error = problems("3 * 5", "12", ["3 rates and 5 sizes give 12 pairs"], relation=">=")
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT
    assert "it writes '12' (relation =)" in error.message


def test_a_result_written_with_two_relations_needs_the_relation_named() -> None:
    text = "fewer than 12 runs, 3 by 4, so 12 in all"
    error = problems("3 * 4", "12", [text])
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT
    assert "give `relation`" in error.message
    assert recompute("3 * 4", "12", [text], relation="=").outcome == "passed"
    assert recompute("3 * 4", "12", [text], relation="<").outcome == "failed"


def test_a_hedge_the_table_does_not_declare_is_refused() -> None:
    error = problems("90 min + 20 h + 1 day", "2 days", [TIMES], tolerances={"about": F(1, 10)})
    assert error.code == ArithmeticCode.HEDGE_UNDECLARED
    assert "'approximately'" in error.message and "declares 'about'" in error.message


def test_a_hedge_replaces_the_rounding_of_the_digits() -> None:
    # "approximately 2 days" is 2 days +- 10%, not 2 +- 0.5 days: 1.6 days fails.
    text = "1.6 days, approximately 2 days"
    assert recompute("1.6 days", "2 days", [text], tolerances=TEN_PERCENT).outcome == "failed"


# -- constants and functions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "result", "text", "outcome"),
    [
        ("2 * pi * 5", "31.4", "a circle of radius 5 and 2 sides has a perimeter of 31.4", "passed"),
        ("2 * pi * 5", "31.5", "a circle of radius 5 and 2 sides has a perimeter of 31.5", "failed"),
        ("sqrt(2) * 5", "7.07", "5 times 2 to the half is 7.07", "passed"),
        ("sqrt(9) * 5", "15", "5 times 9 to the half is 15", "passed"),
        ("ln(2) * 100", "69.3", "100 times the log of 2 is 69.3", "passed"),
        ("log10(1000)", "3", "1000 has 3 digits after the first", "passed"),
        ("exp(1) * 10", "27.18", "e times 10 is 27.18 and 1", "passed"),
        ("cbrt(27)", "3", "the cube root of 27 is 3", "passed"),
        ("root(32, 5)", "2", "the 5th root of 32 is 2", "passed"),
        ("log(8, 2)", "3", "8 is 2 cubed, 3", "passed"),
    ],
)
def test_constants_and_functions_are_decided_exactly(expression: str, result: str, text: str, outcome: str) -> None:
    check = recompute(expression, result, [text])
    assert check.outcome == outcome


def test_an_irrational_value_records_the_precision_that_decided_it() -> None:
    check = recompute("sqrt(2) * 5", "7.07", ["5 times 2 to the half is 7.07"])
    assert check.precision == 64
    assert check.to_json()["precision_bits"] == 64
    assert "(enclosed at 64 bits)" in check.detail
    exact = recompute("sqrt(9) * 5", "15", ["5 times 9 to the half is 15"])
    assert exact.precision is None and "precision_bits" not in exact.to_json()


def test_a_value_on_the_bound_that_no_precision_decides_is_an_error() -> None:
    # sqrt(2) * sqrt(8) is exactly 4, which no enclosure can show is not below 4.
    error = problems("sqrt(2) * sqrt(8)", "4", ["2 and 8, less than 4"], relation="<")
    assert error.code == ArithmeticCode.VALUE_UNDECIDED


# -- no free evidence -----------------------------------------------------------------------------------


@pytest.mark.parametrize("expression", ["30", "(30)", "-(-30)", "30 * 1", "30 + 0", "30 ** 1"])
def test_an_expression_that_is_only_its_result_is_refused(expression: str) -> None:
    error = problems(expression, "30", ["30 epochs, 1 GPU, 0 failures, 30 again"])
    assert error.code == ArithmeticCode.EXPRESSION_IS_RESULT
    assert "restates the result 30" in error.message


@pytest.mark.parametrize(("expression", "result"), [("93.2", "93.2%"), ("93.2%", "93.2"), ("4.52e-5 s", "4.52e-5 mm")])
def test_the_result_without_its_percent_or_unit_is_not_a_recomputation_either(expression: str, result: str) -> None:
    error = problems(expression, result, ["a fit of 93.2%, an error of 4.52e-5 mm, 4.52e-5 s"])
    assert ArithmeticCode.EXPRESSION_IS_RESULT in getattr(error, "codes", (error.code,))


def test_a_unit_conversion_is_not_free_evidence() -> None:
    text = "90 minutes (1.5 h)"
    assert recompute("90 min", "1.5 h", [text]).outcome == "passed"


# -- refusals -------------------------------------------------------------------------------------------


def test_every_problem_of_a_proposal_is_named_at_once() -> None:
    error = problems("750 / 2 + 0.1 + 5 s", "376", [r"$f_s=750$~Hz", r"bandwidth $375$~Hz, 5 min"])
    assert isinstance(error, ProposalProblems)
    assert error.codes == (ArithmeticCode.OPERAND_NOT_IN_TEXT,)
    assert "the numerals 2, 0.1 of the expression are not in the cited chunks' text" in error.message
    assert "5 s (the text writes 5 with the unit min)" in error.message
    assert "the result 376 is not written" in error.message
    assert error.message.endswith("the cited chunks contain 750, 375, 5")


def test_a_missing_constant_is_never_advised_from_chunks_that_write_it_about_something_else() -> None:
    """750 Hz / 2 for a Nyquist bandwidth: the 2 is the agent's, and the chunks that write a 2 ("Figure 2")
    state no such relation; citing one would pass what the paper never writes."""
    chunks = [
        Chunk("s-1", "sentence", "Samples were taken at 750 Hz, so the bandwidth was 375 Hz."),
        Chunk("s-2", "sentence", "Figure 2 shows the spectrum."),
        Chunk("s-3", "sentence", "The window was 1000 samples long."),
    ]
    error = problems("750 Hz / 2", "375 Hz", [chunks[0].text], chunks=chunks)
    assert error.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert "2 is written in s-2 (sentence), but cite one only where it states this 2" in error.message
    assert "add those chunks" not in error.message
    thousand = problems("375 Hz * 1000 / 375", "1000", [chunks[0].text], chunks=chunks)
    assert "cite one only where it states this 1000" in thousand.message
    plane = Chunk("s-4", "sentence", "We defined the plane z = 9.0 for that subfigure.")
    measured = problems("9.0 - 0.05", "8.95", ["a tolerance of 0.05, so z between 8.95 and 9.05"], chunks=[plane])
    assert "9.0 is written in s-4 (sentence): add those chunks to `cites`" in measured.message


def test_a_missing_numeral_names_the_chunks_that_write_it_table_rows_included() -> None:
    chunks = [
        Chunk("s-3", "sentence", "The total is 60k images."),
        Chunk("t-1-2", "table-row", r"Table 1, row C-MNIST: Train & 50k & Test & 10k & Total & 60k"),
        Chunk("s-9", "sentence", "50k of them train."),
    ]
    error = problems("50k + 10k", "60k", [chunks[0].text], chunks=chunks)
    assert error.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert "50k is written in t-1-2 (table-row), s-9" in error.message
    assert "10k is written in t-1-2 (table-row)" in error.message
    assert "add those chunks to `cites`" in error.message
    assert recompute("50k + 10k", "60k", [chunks[0].text, chunks[1].text]).outcome == "passed"
    nowhere = problems("50k + 7", "60k", [chunks[0].text], chunks=chunks)
    assert "(50k is written in t-1-2 (table-row), s-9 (sentence); 7 is written in no chunk of the run: add" in (
        nowhere.message
    )


def test_free_evidence_and_missing_operands_are_named_together() -> None:
    error = problems("30 * 1", "30", ["30 epochs"])
    assert isinstance(error, ProposalProblems)
    assert error.codes == (ArithmeticCode.OPERAND_NOT_IN_TEXT, ArithmeticCode.EXPRESSION_IS_RESULT)


# A real paper's pass by construction: max(49, 50) against the "50" of the one sentence that writes both.
PICKED = "Of the runs, 49, 51 and 50 epochs, the third took 50 epochs."


@pytest.mark.parametrize(
    "expression", ["max(49, 50)", "max(50, 49)", "min(50, 51)", "max(min(50, 51), 49)", "abs(-50)"]
)
def test_a_function_whose_value_is_its_own_operand_and_the_result_is_refused(expression: str) -> None:
    error = problems(expression, "50", [PICKED])
    assert error.code == ArithmeticCode.EXPRESSION_IS_RESULT
    assert "recomputes nothing" in error.message


def test_the_same_function_over_another_chunks_numbers_is_a_recomputation() -> None:
    rows = ["Table 3 (caption s-2); row Run: a; Epochs: 49", "Table 3 (caption s-2); row Run: b; Epochs: 50"]
    assert recompute("max(49, 50)", "50", ["The longer run took 50 epochs.", *rows]).outcome == "passed"
    assert recompute("max(49, 50)", "49", ["The longer run took 49 epochs.", *rows]).outcome == "failed"
    # A value that is not an operand is a real recomputation even in one sentence.
    assert recompute("49 + 1", "50", ["49 and 1 made 50."]).outcome == "passed"

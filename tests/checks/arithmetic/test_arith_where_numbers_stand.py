"""Every number where it stands: a table cited as a range of rows or whole (expanded and recorded), a
header's or a row name's numeral never taken as the text's, precision read from the digits as printed with
padded zeros, and a failure of a text against a table naming the chunk of each number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cgx_checks.arithmetic import recompute
from cgx_checks.arithmetic.predicate_check import PredicateCheck
from cgx_checks.arithmetic.ranges import MAX_CITED, expand_cites
from cgx_checks.arithmetic.recompute import Recomputation
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.audit.replay import replay
from cgx_core.errors import CgxError
from cgx_core.plugin_api import NodeView, Refusal
from cgx_core.tooling.registry import call_tool
from support import ROOT

STAGES = r"Table 4 \ref{tab:stages} (caption s-31); row Model: A; Stage 1 (h): 2.5; Stage 2 (h): 6.0"
SENTENCE = "Model A's second stage takes 3.5 h longer than its first."


def refused(expression: str, result: str, texts: list[str], **options: Any) -> CgxError:
    with pytest.raises(CgxError) as raised:
        recompute(expression, result, texts, **options)
    return raised.value


# -- a header's numeral is a name -----------------------------------------------------------------------------


def test_a_column_headers_numeral_is_never_the_texts() -> None:
    checked = recompute("6.0 h - 2.5 h", "3.5 h", [SENTENCE, STAGES], columns=[STAGES])
    assert isinstance(checked, Recomputation) and checked.outcome == "passed"
    # "Stage 1" and "Stage 2" name columns: their 1 and 2 are neither a result nor an operand
    error = refused("6.0 - 2.5 - 2.5", "1", [STAGES], columns=[STAGES])
    assert error.code == ArithmeticCode.OPERAND_NOT_IN_TEXT and "the result 1 is not written" in error.message
    assert refused("6.0 h / 2", "3 h", [STAGES, "3 h"], columns=[STAGES]).code == ArithmeticCode.OPERAND_NOT_IN_TEXT


def test_a_row_named_with_a_numeral_gives_none_and_a_row_labelled_by_a_value_gives_it() -> None:
    named = r"Table 1 (caption s-2); row Stage 3; Duration: 4.5"
    assert refused("4.5 - 1.5", "3", [named, "1.5"], columns=[named]).code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    valued = r"Table 1 (caption s-2); row Year: 2019; Count: 12"
    checked = recompute("2019 - 2017", "2", [valued, "since 2017, 2 years"], columns=[valued])
    assert isinstance(checked, Recomputation) and checked.outcome == "passed"


# -- precision as printed, padded zeros included --------------------------------------------------------------

PADDED = r"Table 3 (caption s-30); row Metric: Accuracy; Original: 8.530; Reproduced: 8.537"
CLAIM = "The reproduced accuracy is identical to the original within the precision reported."


def test_a_padded_zero_is_read_as_printed_and_compared_at_the_coarser_precision() -> None:
    texts = [CLAIM, PADDED]
    identical = recompute("round(8.537, 2) == 8.530", "identical", texts, columns=[PADDED])
    assert isinstance(identical, PredicateCheck) and identical.outcome == "failed"  # 8.54 is not 8.53
    close = PADDED.replace("8.537", "8.531")
    assert recompute("round(8.531, 2) == 8.530", "identical", [CLAIM, close], columns=[close]).outcome == "passed"
    against = recompute("round(8.537, 2)", "8.530", texts, columns=[PADDED])
    assert isinstance(against, Recomputation) and against.half_unit * 2 == against.expected / 8530  # +- 0.0005
    assert "(3 decimals, 4 significant digits; 2 decimals without its padded zero): failed" in against.detail
    # Coarser than the numeral's significant digits is still refused.
    assert refused("round(8.537, 1) == 8.530", "identical", texts, columns=[PADDED]).code == (
        ArithmeticCode.ROUNDING_TOO_COARSE
    )


# -- a failure of a text against a table names both chunks ----------------------------------------------------

SNR_ROW = r"Table 2 (caption s-29); row Binary: B1; SNR: 4.49"
SNR_TEXT = "The detector found binary B1 with an SNR of 4.94."


def test_a_failure_of_a_text_against_a_table_names_the_sentence_and_the_cell() -> None:
    checked = recompute(
        "4.94 == 4.49",
        "identical",
        [SNR_TEXT + " identical", SNR_ROW],
        columns=[SNR_ROW],
        ids=["s-11", "t-04"],
        premised=True,
    )
    assert checked.outcome == "failed"
    assert checked.detail.endswith("failed (written: 4.94 in s-11; 4.49 in t-04)")
    numeric = recompute(
        "4.49 * 1.2", "4.94", [SNR_TEXT, SNR_ROW, "1.2"], columns=[SNR_ROW], ids=["s-11", "t-04", "s-12"]
    )
    assert numeric.outcome == "failed"
    assert numeric.detail.endswith("(written: the result 4.94 in s-11; 4.49 in t-04; 1.2 in s-12)")
    # A pass, a failure without a table row, or one over rows alone names nothing more.
    fine = recompute(
        "4.49 * 1.1", "4.939", [SNR_TEXT + " 4.939", SNR_ROW, "1.1"], columns=[SNR_ROW], ids=["s", "t", "u"]
    )
    assert "written:" not in fine.detail
    prose = recompute("4.49 * 1.2", "4.94", [SNR_TEXT, "4.49", "1.2"], ids=["s-11", "s-12", "s-13"])
    assert prose.outcome == "failed" and "written:" not in prose.detail


# -- a text restating a table: a real comparison ---------------------------------------------------------------

ACCURACY = "Our model reaches an accuracy of 81.4 on the test set, and the baseline 62.9."
ACCURACY_ROWS = [
    r"Table 2 \ref{tab:accuracy} (caption s-7); row Model: Ours; Accuracy: 81.4",
    r"Table 2 \ref{tab:accuracy} (caption s-7); row Model: Baseline; Accuracy: 62.8",
]


def test_a_number_restated_from_another_cited_chunk_is_compared_both_ways() -> None:
    # The sentence's 81.4 against the row's 81.4 passes, its 62.9 against the row's 62.8 fails: a text-equals-table
    # check is recordable whichever way it comes out, not only as a failure.
    texts, ids = [ACCURACY, *ACCURACY_ROWS], ["s-3", "t-1", "t-2"]
    same = recompute("81.4", "81.4", texts, columns=ACCURACY_ROWS, ids=ids)
    assert isinstance(same, Recomputation) and same.outcome == "passed"
    differ = recompute("62.8", "62.9", texts, columns=ACCURACY_ROWS, ids=ids)
    assert differ.outcome == "failed" and differ.detail.endswith("(written: the result 62.9 in s-3; 62.8 in t-2)")


def test_a_number_restated_from_the_result_s_own_chunk_is_still_the_result() -> None:
    error = refused("81.4", "81.4", [ACCURACY])
    assert error.code == ArithmeticCode.EXPRESSION_IS_RESULT
    assert "no cited chunk but the one reporting the result writes it" in error.message
    # A row that writes another number is no second writing of 81.4, nor is the same sentence cited twice.
    assert refused("81.4", "81.4", [ACCURACY, ACCURACY_ROWS[1]], columns=ACCURACY_ROWS[1:]).code == (
        ArithmeticCode.EXPRESSION_IS_RESULT
    )
    assert refused("81.4", "81.4", [ACCURACY, ACCURACY]).code == ArithmeticCode.EXPRESSION_IS_RESULT


ACCURACY_PAPER = r"""\documentclass{article}
\begin{document}
Our model reaches an accuracy of 81.4 on the test set, and the baseline 62.9.

\begin{table}
\caption{Accuracy.}\label{tab:accuracy}
\begin{tabular}{lc}
Model & Accuracy \\
\hline
Ours & 81.4 \\
Baseline & 62.8 \\
\end{tabular}
\end{table}
\end{document}
"""


def test_through_the_tools_a_restatement_of_a_table_passes_or_fails_and_replays(tmp_path: Path) -> None:
    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        payload, is_error = call_tool(tool, {"model": "test-model", "run": str(tmp_path / "run"), **arguments})
        assert not is_error, payload
        return payload

    (tmp_path / "paper.tex").write_text(ACCURACY_PAPER, encoding="utf-8")
    rubric = ROOT / "examples" / "rubrics" / "paper.toml"
    call("start_run", paper=str(tmp_path / "paper.tex"), rubric=str(rubric), store_source=True)
    call("classify", records=[{"node": "s-1", "type": "result", "rests_on": ["t-1", "t-2"]}])
    proposal = {"type": "recompute-numbers", "target": "s-1", "expression": "81.4", "result": "81.4"}
    alone = call("run_checks", proposals=[{**proposal, "cites": ["s-1"]}])
    assert [item["code"] for item in alone["refused"]] == ["expression-is-result"]
    checked = call(
        "run_checks",
        proposals=[
            {**proposal, "cites": ["s-1", "t-1"]},
            {**proposal, "cites": ["s-1", "t-2"], "expression": "62.8", "result": "62.9"},
        ],
    )
    assert checked["refused"] == []
    assert [check["result"] for check in checked["checks"]] == ["passed", "failed"]
    assert replay(tmp_path / "run", source=None, sources=None).identical


# -- a range of rows, a whole table ---------------------------------------------------------------------------


def _row(number: int, table: str = "sites", text: str = "row") -> NodeView:
    return NodeView(
        f"t-{number:02d}",
        "data",
        "table-row",
        f"Table 5 \\ref{{tab:{table}}} (caption s-3); {text} {number}",
        {"origin": "document", "table": {"kind": "table", "label": table}},
    )


NODES = [
    NodeView("s-01", "method", "sentence", "Every site exceeds 0.60.", {"origin": "document"}),
    *(_row(number) for number in range(1, 23)),
    *(_row(number, "other") for number in range(23, 25)),
    NodeView("t-03a", "data", "table-row", "a clause", {"origin": "document"}),
]


def test_a_range_and_a_table_expand_to_their_rows_in_order() -> None:
    sites = [f"t-{number:02d}" for number in range(1, 23)]
    assert expand_cites(["s-01", "t-01..t-22"], NODES) == ["s-01", *sites]
    assert expand_cites(["s-01", "table(t-07)"], NODES) == ["s-01", *sites]
    assert expand_cites(["table(t-24)", "t-22..t-23", "s-01"], NODES) == ["t-23", "t-24", "t-22", "s-01"]
    assert expand_cites(["s-01", "t-03"], NODES) == ["s-01", "t-03"]  # no range: as written


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("t-22..t-01", "ends before it starts"),
        ("t-01..t-99", "t-99 is not a chunk"),
        ("table(t-99)", "t-99 is not a table row"),
        ("t-01..s-01", None),  # two kinds: not a range, an unknown chunk the check then refuses
    ],
)
def test_a_range_that_names_no_run_of_chunks_is_refused(entry: str, said: str | None) -> None:
    expanded = expand_cites([entry], NODES)
    if said is None:
        assert expanded == [entry]
        return
    assert isinstance(expanded, Refusal) and expanded.code == "unknown-node" and said in expanded.message
    assert "t-07..t-28" in expanded.fix and "table(t-07)" in expanded.fix


def test_a_range_is_bounded() -> None:
    many = [_row(number) for number in range(1, MAX_CITED + 3)]
    refusal = expand_cites([f"t-01..t-{MAX_CITED + 2:02d}"], many)
    assert isinstance(refusal, Refusal) and f"at most {MAX_CITED}" in refusal.message

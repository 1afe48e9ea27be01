r"""A table's cells read with the unit their column header names (`Recall (\%): 78.4` is 78.4%,
`Time (h): 3.5` is 3.5 h), and a percentage result computed from plain cells of a percent column refused
rather than failed: 78.4 against "78.4%" would compare 78.4 with 0.784 and fail a true claim."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from cgx_checks.arithmetic import recompute
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.audit.replay import replay
from cgx_core.errors import CgxError
from cgx_core.numbers.columns import column_occurrences, header_unit
from cgx_core.tooling.registry import call_tool
from support import ROOT

ROWS = [
    r"Table 1 \ref{tab:sites} (caption s-7); row Site: Berlin; $n$: 12; Recall (\%): 68.5; Time (h): 1.5",
    r"Table 1 \ref{tab:sites} (caption s-7); row Site: Lyon; $n$: 12; Recall (\%): 74.1; Time (h): 2",
    r"Table 1 \ref{tab:sites} (caption s-7); row Site: Oslo; $n$: 12; Recall (\%): 78.4; Time (h): 2.5",
]
CLAIM = "Mean recall was 71.2%, the best site reached 78.4%, and sessions took 120 minutes on average."


def test_a_header_gives_its_unit_to_every_cell_of_its_column() -> None:
    read = [(item.numeral.written, item.numeral.value, item.unit) for item in column_occurrences(ROWS[2])]
    assert [(written, value) for written, value, _ in read] == [("78.4%", F(784, 1000)), ("2.5", F(5, 2))]
    assert read[1][2] is not None and read[1][2].written == "h"
    assert column_occurrences("We recruited 12 participants (Table 1).") == ()  # not a row


@pytest.mark.parametrize(
    ("header", "unit"),
    [("Recall (\\%)", "%"), ("Acc. (%)", "%"), ("Share [percent]", "%"), ("Time (h)", "h"), ("Size [GB]", "GB")],
)
def test_header_units(header: str, unit: str) -> None:
    found = header_unit(header)
    assert found == unit if isinstance(found, str) else found is not None and found.written == unit


@pytest.mark.parametrize("header", ["Recall", "Error ($\\times 10^{-3}$)", "Model (ours)", "$n$"])
def test_headers_without_a_unit_give_none(header: str) -> None:
    assert header_unit(header) is None


def test_a_percentage_from_plain_cells_of_a_percent_column_is_refused_with_how_to_write_them() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("max(68.5, 74.1, 78.4)", "78.4%", [CLAIM, *ROWS], columns=ROWS)
    assert raised.value.code == ArithmeticCode.UNIT_MISSING
    assert "write them as percentages (68.5%, 74.1%, 78.4%)" in raised.value.message


def test_cells_written_as_their_header_says_are_compared_on_one_scale() -> None:
    best = recompute("max(68.5%, 74.1%, 78.4%)", "78.4%", [CLAIM, *ROWS], columns=ROWS)
    mean = recompute("mean(68.5%, 74.1%, 78.4%)", "71.2%", [CLAIM, *ROWS], columns=ROWS)
    assert (best.outcome, mean.outcome) == ("passed", "failed")  # 73.67%, not 71.2%
    time = recompute("mean(1.5 h, 2 h, 2.5 h)", "120 minutes", [CLAIM, *ROWS], columns=ROWS)
    assert (time.outcome, time.value) == ("passed", F(120))


def test_without_the_rows_as_columns_a_percent_cell_is_not_in_the_text() -> None:
    with pytest.raises(CgxError) as raised:
        recompute("max(68.5%, 74.1%, 78.4%)", "78.4%", [CLAIM, *ROWS])
    assert raised.value.code == ArithmeticCode.OPERAND_NOT_IN_TEXT


PAPER = r"""\documentclass{article}
\begin{document}
Mean recall across the sites was 71.2\%, with the best site at 78.4\%.

\begin{table}
\caption{Recall by site.}\label{tab:sites}
\begin{tabular}{lr}
Site & Recall (\%) \\
\hline
Berlin & 68.5 \\
Lyon & 74.1 \\
Oslo & 78.4 \\
\end{tabular}
\end{table}
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    model = {} if tool == "get_state" else {"model": "test-model"}
    payload, is_error = call_tool(tool, {**model, **arguments})
    assert not is_error, payload
    return payload


def test_through_the_tools_a_true_best_value_passes_and_a_wrong_mean_fails(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    rubric = ROOT / "examples" / "rubrics" / "paper.toml"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(rubric), store_source=True)
    call("classify", run=str(run), records=[{"node": "s-1", "type": "result", "rests_on": ["t-1", "t-2", "t-3"]}])
    cites = ["s-1", "t-1", "t-2", "t-3"]
    proposal = {"type": "recompute-numbers", "target": "s-1", "cites": cites}
    plain = call(
        "run_checks", run=str(run), proposals=[{**proposal, "expression": "max(68.5, 74.1, 78.4)", "result": "78.4%"}]
    )
    assert [item["code"] for item in plain["refused"]] == ["unit-missing"]  # refused, never a false fail
    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            {**proposal, "expression": "max(68.5%, 74.1%, 78.4%)", "result": "78.4%"},
            {**proposal, "expression": "mean(68.5%, 74.1%, 78.4%)", "result": "71.2%"},
        ],
    )
    assert [check["result"] for check in checked["checks"]] == ["passed", "failed"]
    assert replay(run, source=None, sources=None).identical


GROUPED = r"""\documentclass{article}
\begin{document}
On the first task the probability of a correct answer changed by 1\%. On the second task it changed by 1\% too.

\begin{table}
\caption{Probabilities.}\label{tab:probability}
\begin{tabular}{lcc}
 & \multicolumn{2}{c}{Probability (\%)} \\
Task & original & reproduction \\
\hline
First & 93 & 94 \\
Second & 90 & 92 \\
\end{tabular}
\end{table}

\begin{table}
\caption{Scores.}\label{tab:scores}
\begin{tabular}{lcc}
Task & original & reproduction \\
\hline
First & 93 & 94 \\
Second & 90 & 95 \\
\end{tabular}
\end{table}
The second task's score rose by 5.6\% and the first task's by 1\%, as Table 2 shows.
\end{document}
"""


@pytest.mark.parametrize(
    ("header", "unit"),
    [
        ("Probability (\\%) / original", "%"),
        ("Time (h) / mean", "h"),
        ("Speed (m / s)", "m / s"),
        ("(\\%) / a", "%"),
        ("Duration (d)", "d"),
        ("Cost (GPU h)", "GPU h"),
        ("Volume [L]", "L"),
    ],
)
def test_a_unit_in_any_header_row_above_the_cell_is_its_column_s(header: str, unit: str) -> None:
    found = header_unit(header)
    assert found == unit if isinstance(found, str) else found is not None and found.written == unit


def test_two_header_rows_naming_different_units_leave_the_unit_unknown() -> None:
    assert header_unit("Time (s) / median (ms)") is None


def grouped_run(tmp_path: Path) -> Path:
    (tmp_path / "paper.tex").write_text(GROUPED, encoding="utf-8")
    run = tmp_path / "run"
    rubric = ROOT / "examples" / "rubrics" / "paper.toml"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(rubric), store_source=True)
    return run


def sentence(run: Path, words: str) -> str:
    """The id of the chunk whose text has these words."""
    nodes = call("get_state", run=str(run))["nodes"]
    return next(str(node["id"]) for node in nodes if words in (node.get("text") or ""))


def test_a_grouped_percent_header_makes_both_columns_percent_so_a_true_change_passes(tmp_path: Path) -> None:
    run = grouped_run(tmp_path)
    state = call("get_state", run=str(run), unit="table-row")
    texts = {node["id"]: node["text"] for node in state["nodes"]}
    assert "Probability (\\%) / original: 93" in texts["t-1"]
    first, second = sentence(run, "first task the"), sentence(run, "second task it")
    records = [{"node": node, "type": "result", "rests_on": ["t-1", "t-2"]} for node in (first, second)]
    call("classify", run=str(run), records=records)
    proposal = {"type": "recompute-numbers", "cites": ["t-1", "t-2"]}
    plain = call(
        "run_checks",
        run=str(run),
        proposals=[
            {**proposal, "target": first, "cites": [first, "t-1"], "expression": "abs(93 - 94)", "result": "1%"}
        ],
    )
    assert [item["code"] for item in plain["refused"]] == ["unit-missing"]  # refused, never failed with 1 vs 0.01
    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            {**proposal, "target": first, "cites": [first, "t-1"], "expression": "abs(93% - 94%)", "result": "1%"},
            {**proposal, "target": second, "cites": [second, "t-2"], "expression": "abs(90% - 92%)", "result": "1%"},
        ],
    )
    assert [check["result"] for check in checked["checks"]] == ["passed", "failed"]
    assert replay(run, source=None, sources=None).identical


def test_cells_under_a_header_naming_no_unit_are_decided_only_when_their_unit_does_not_matter(tmp_path: Path) -> None:
    run = grouped_run(tmp_path)
    rose = sentence(run, "rose by 5.6")
    call("classify", run=str(run), records=[{"node": rose, "type": "result", "rests_on": ["t-3", "t-4"]}])
    proposal = {"type": "recompute-numbers", "target": rose, "cites": [rose, "t-3", "t-4"]}
    relative = call(
        "run_checks", run=str(run), proposals=[{**proposal, "expression": "(95 - 90) / 90", "result": "5.6%"}]
    )
    assert [check["result"] for check in relative["checks"]] == ["passed"]  # the same on both readings
    difference = call("run_checks", run=str(run), proposals=[{**proposal, "expression": "94 - 93", "result": "1%"}])
    assert [item["code"] for item in difference["refused"]] == ["unit-missing"]
    assert "names no unit" in difference["refused"][0]["message"]


def test_the_table_number_start_run_writes_is_no_numeral_of_the_paper(tmp_path: Path) -> None:
    run = grouped_run(tmp_path)
    rose = sentence(run, "rose by 5.6")
    call("classify", run=str(run), records=[{"node": rose, "type": "result", "rests_on": ["t-3", "t-4"]}])
    assert ">Table 2 " in call("get_state", run=str(run), nodes=["t-4"])["nodes"][0]["text"]
    # The row's "Table 2" is start_run's: 2 is no result the row reports (95 - 93 = 2, written nowhere).
    refused = call(
        "run_checks",
        run=str(run),
        proposals=[
            {"type": "recompute-numbers", "target": rose, "cites": ["t-4"], "expression": "95 - 93", "result": "2"}
        ],
    )
    assert [item["code"] for item in refused["refused"]] == ["operand-not-in-text"]


def test_cells_of_a_table_without_a_header_are_of_unknown_unit_too() -> None:
    row = "Table 1 (unnumbered); row First; 93; 94"
    claim = "The probability changed by 1% between the runs."
    with pytest.raises(CgxError) as raised:
        recompute("94 - 93", "1%", [claim, row], columns=[row])
    assert raised.value.code == ArithmeticCode.UNIT_MISSING
    relative = recompute("(94 - 93) / 93", "1.1%", [claim + " It rose by 1.1%.", row], columns=[row])
    assert relative.outcome == "passed"


@pytest.mark.parametrize(
    ("header", "unit"),
    [
        ("\\textbf{Computational Cost (GPU Hours)}", "GPU Hours"),
        ("\\textbf{Time (h)} ", "h"),
        ("{\\itshape Acc. (\\%)}", "%"),
        ("\\textbf{\\emph{Size [GB]}}", "GB"),
    ],
)
def test_a_unit_inside_the_header_s_formatting_is_its_column_s(header: str, unit: str) -> None:
    found = header_unit(header)
    assert found == unit if isinstance(found, str) else found is not None and found.written == unit


COST = r"""\documentclass{article}
\begin{document}
The reproducibility experiments took 112 GPU hours, and the additional results 50 GPU hours.

\begin{table}
\caption{Cost taxonomy.}\label{tab:cost}
\begin{tabular}{llc}
\textbf{Experiment type} & \textbf{Experiment name} & \textbf{Computational Cost (GPU Hours)} \\
\hline
Reproducibility & Inductive biases & 84.0 \\
Reproducibility & Invariant classifiers & 14.0 \\
Reproducibility & Ablation & 14.0 \\
Additional & Improved training & 48.0 \\
\end{tabular}
\end{table}
\end{document}
"""


def test_a_bold_header_s_unit_gives_its_cells_the_unit_so_a_sum_of_hours_is_decided(tmp_path: Path) -> None:
    # cgn's cost table: `\textbf{Computational Cost (GPU Hours)}`. Without the header's unit the cells are plain
    # numbers and `84.0 GPU hours` is refused as a unit the text does not write.
    (tmp_path / "paper.tex").write_text(COST, encoding="utf-8")
    run = tmp_path / "run"
    rubric = ROOT / "examples" / "rubrics" / "paper.toml"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(rubric), store_source=True)
    claim = sentence(run, "reproducibility experiments took")
    call("classify", run=str(run), records=[{"node": claim, "type": "result", "rests_on": ["t-1", "t-2", "t-3"]}])
    proposal = {"type": "recompute-numbers", "target": claim, "cites": [claim, "t-1", "t-2", "t-3", "t-4"]}
    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            {**proposal, "expression": "84.0 GPU hours + 14.0 GPU hours + 14.0 GPU hours", "result": "112 GPU hours"},
            {**proposal, "expression": "48.0 GPU hours", "result": "50 GPU hours"},
        ],
    )
    assert checked["refused"] == []
    assert [check["result"] for check in checked["checks"]] == ["passed", "failed"]
    assert replay(run, source=None, sources=None).identical

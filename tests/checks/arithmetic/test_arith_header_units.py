r"""A table's cells read with the unit their column header names (`Recall (\%): 78.4` is 78.4%,
`Time (h): 3.5` is 3.5 h), and a percentage result computed from plain cells of a percent column refused
rather than failed: 78.4 against "78.4%" would compare 78.4 with 0.784 and fail a true claim."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from cgx_checks.arithmetic import recompute
from cgx_checks.arithmetic.codes import ArithmeticCode
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
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
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

r"""`rows(t-N)` in recompute-numbers: a count the text states ("five datasets", "10 parameters") against the
number of body rows of the table it describes, through the tools an agent calls. The count comes from the
run's tables, is recorded with the check, replays byte for byte and is re-counted by verify from graph.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_checks.arithmetic import parse_expression
from cgx_checks.arithmetic.tree import render
from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.recompute_numbers import RecomputeNumbers
from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.checks.view import JsonRunView
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"

# Two tables one after the other, neither numbered by a label the other shares: the count must not run on
# from one into the next.
PAPER = r"""\documentclass{article}
\begin{document}
We evaluate on five datasets, listed in Table~\ref{tab:data}.
We compare against three baselines (Table~\ref{tab:base}).

\begin{table}
\caption{Datasets.}\label{tab:data}
\begin{tabular}{lr}
Dataset & Size \\
\hline
MNIST & 60000 \\
CIFAR-10 & 50000 \\
SVHN & 73257 \\
STL-10 & 5000 \\
\end{tabular}
\end{table}

\begin{table}
\caption{Baselines.}\label{tab:base}
\begin{tabular}{ll}
Method & Year \\
\hline
ResNet & 2016 \\
VGG & 2014 \\
AlexNet & 2012 \\
\end{tabular}
\end{table}
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
    assert not is_error, payload
    return payload


def started(tmp_path: Path) -> tuple[Path, str, str]:
    """A run of PAPER with both sentences typed as claims resting on their tables' rows."""
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(RUBRIC), store_source=True)
    listed, _ = call_tool("get_state", {"run": str(run), "unit": "sentence", "limit": 500})
    datasets, baselines = [node["id"] for node in listed["nodes"]]
    typed = call(
        "classify",
        run=str(run),
        records=[
            {"node": datasets, "type": "claim", "form": {"shape": "existential"}, "rests_on": ["t-1"]},
            {"node": baselines, "type": "claim", "form": {"shape": "existential"}, "rests_on": ["t-5"]},
        ],
    )
    assert typed["refused"] == []
    left, _ = call_tool("get_state", {"run": str(run), "type": "unassigned", "limit": 500})
    call("classify", run=str(run), records=[{"node": node["id"], "type": "context"} for node in left["nodes"]])
    return run, datasets, baselines


def test_a_stated_count_is_checked_against_the_rows_of_its_table_and_the_run_replays_and_verifies(
    tmp_path: Path,
) -> None:
    run, datasets, baselines = started(tmp_path)
    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            # "five datasets": Table 1 lists four.
            {
                "type": "recompute-numbers",
                "target": datasets,
                "cites": [datasets, "t-1"],
                "expression": "rows(t-1)",
                "result": "five",
            },
            # "three baselines": Table 2 lists three (its rows are counted apart from Table 1's).
            {
                "type": "recompute-numbers",
                "target": baselines,
                "cites": [baselines, "t-6"],
                "expression": "rows(t-6)",
                "result": "three",
            },
        ],
    )
    assert checked["refused"] == []
    assert [(check["result"], check["detail"]) for check in checked["checks"]] == [
        ("failed", "rows(t-1) = 4, reported 5 +- 0 (a number word is exact): failed"),
        ("passed", "rows(t-6) = 3, reported 3 +- 0 (a number word is exact): passed"),
    ]
    first = json.loads((run / "checks" / "c-001" / "inputs.json").read_bytes())
    assert first["rows"] == {"t-1": 4}  # the count the check used, recorded with its inputs
    assert call("finish_run", run=str(run))["verdicts"]["fails"] == 1
    assert replay(run, source=None, sources=None).identical
    verdict = verify_run(run)
    assert verdict.error is None and verdict.differences == () and verdict.rerun == 2


def test_a_count_of_a_row_the_proposal_does_not_cite_is_refused_with_the_other_problems(tmp_path: Path) -> None:
    run, datasets, _ = started(tmp_path)
    proposal = {"type": "recompute-numbers", "target": datasets, "expression": "rows(t-1) + 7", "result": "five"}
    refused = call("run_checks", run=str(run), proposals=[{**proposal, "cites": [datasets]}])["refused"]
    assert [item["code"] for item in refused] == ["operand-not-in-text"]
    message = refused[0]["message"]
    assert "t-1 is not a table row among the cited chunks (add the row to `cites`)" in message
    assert "the numeral 7 of the expression is not in the cited chunks' text" in message  # both at once
    accepted = call(
        "run_checks", run=str(run), proposals=[{**proposal, "expression": "rows(t-2)", "cites": [datasets, "t-2"]}]
    )
    # Any row of the table names it: t-2 counts the same four rows as t-1 would (the row's "Table 1" title
    # is start_run's, so its 1 is no operand: `rows(t-2) + 1` is refused).
    [detail] = [check["detail"] for check in accepted["checks"]]
    assert detail == "rows(t-2) = 4, reported 5 +- 0 (a number word is exact): failed"


def test_a_rerun_reports_a_recorded_count_the_runs_tables_do_not_give(tmp_path: Path) -> None:
    """verify re-counts from graph.json (whose digest the manifest holds): a count recorded with the check
    that the graph's tables do not give is an error, not a silent pass."""
    run, datasets, _ = started(tmp_path)
    proposal = {"type": "recompute-numbers", "target": datasets, "cites": [datasets, "t-1"], "expression": "rows(t-1)"}
    call("run_checks", run=str(run), proposals=[{**proposal, "result": "five"}])
    call("finish_run", run=str(run))
    graph = json.loads((run / "graph.json").read_bytes())
    inputs = json.loads((run / "checks" / "c-001" / "inputs.json").read_bytes())
    check = RecomputeNumbers()
    assert check.rerun(inputs, JsonRunView(graph, "verify")).result == "failed"  # as recorded
    graph["nodes"] = [node for node in graph["nodes"] if node["id"] != "t-4"]  # Table 1 now has three rows
    outcome = check.rerun(inputs, JsonRunView(graph, "verify"))
    assert (outcome.result, outcome.code) == ("error", "tampered")
    assert "{'t-1': 4}" in outcome.detail and "{'t-1': 3}" in outcome.detail


@pytest.mark.parametrize(
    ("expression", "fragment"),
    [
        ("sqrt(t-1)", "sqrt at column 1 takes a number as its argument, not the table row t-1"),
        ("rows(3)", "rows at column 1 takes one table row id as its argument, such as rows(t-3)"),
        ("rows(t-1, t-2)", "unexpected ','"),
    ],
)
def test_rows_takes_exactly_one_table_row(expression: str, fragment: str) -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression(expression)
    assert raised.value.code in (Code.EXPRESSION_INVALID, ExpressionCode.UNKNOWN_FUNCTION)
    assert fragment in raised.value.message


def test_rows_is_written_back_as_the_agent_wrote_it() -> None:
    assert render(parse_expression("rows(t-12)-1")) == "rows(t-12) - 1"
    assert render(parse_expression("2*rows(t-3)")) == "2 * rows(t-3)"


def test_a_real_papers_ten_parameters_against_its_table_of_six(papers: Path, tmp_path: Path) -> None:
    """hastings-powell-replication: "hence 10 parameters only", while its Table 1 lists six."""
    run = tmp_path / "run"
    main = papers / "hastings-powell-replication" / "article" / "article.tex"
    call("start_run", run=str(run), paper=str(main), rubric=str(RUBRIC))
    listed, _ = call_tool("get_state", {"run": str(run), "limit": 500})
    claim = next(node["id"] for node in listed["nodes"] if "hence 10 parameters only" in node["text"])
    call(
        "classify",
        run=str(run),
        records=[{"node": claim, "type": "claim", "form": {"shape": "existential"}, "rests_on": ["t-1"]}],
    )
    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            {
                "type": "recompute-numbers",
                "target": claim,
                "cites": [claim, "t-1"],
                "expression": "rows(t-1)",
                "result": "10",
            }
        ],
    )
    assert [check["detail"] for check in checked["checks"]] == ["rows(t-1) = 6, reported 10 +- 0.5: failed"]

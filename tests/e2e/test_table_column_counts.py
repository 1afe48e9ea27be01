r"""`cols(t-N)` in recompute-numbers: a count the text states ("seven stages") against the number of columns of
the table it describes, through the tools an agent calls. Ingestion records the count in each row's
`attributes.table.columns` (from the column specification and the widest row, a `\multicolumn` counted by its
span), since a row's text leaves its empty cells out; the check records it, replay rebuilds it byte for byte
and verify re-counts it from graph.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_checks.recompute_numbers import RecomputeNumbers
from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.checks.view import JsonRunView
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def paper(columns: int, spec: str | None = None) -> str:
    """A pipeline of seven stages described by a table of `columns` stage columns after a label column,
    whose one body row leaves every stage but the last empty (so its text names two cells only)."""
    stages = " & ".join(f"S{index}" for index in range(1, columns + 1))
    empty = " & " * (columns - 1)
    return rf"""\documentclass{{article}}
\begin{{document}}
The pipeline has seven stages, shown in Table~\ref{{tab:stages}}.

\begin{{table}}
\caption{{Stages.}}\label{{tab:stages}}
\begin{{tabular}}{{{spec or "c" * columns}}}
\multicolumn{{{columns}}}{{c}}{{Pipeline}} \\
{stages} \\
\hline
run{empty}done \\
\end{{tabular}}
\end{{table}}
\end{{document}}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
    assert not is_error, payload
    return payload


def started(tmp_path: Path, text: str) -> tuple[Path, str]:
    """A run of the paper with its sentence typed as a claim resting on the table's row."""
    (tmp_path / "paper.tex").write_text(text, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(RUBRIC), store_source=True)
    listed, _ = call_tool("get_state", {"run": str(run), "unit": "sentence", "limit": 500})
    claim = next(node["id"] for node in listed["nodes"] if "seven stages" in node["text"])
    typed = call(
        "classify",
        run=str(run),
        records=[{"node": claim, "type": "claim", "form": {"shape": "existential"}, "rests_on": ["t-1"]}],
    )
    assert typed["refused"] == []
    left, _ = call_tool("get_state", {"run": str(run), "type": "unassigned", "limit": 500})
    call("classify", run=str(run), records=[{"node": node["id"], "type": "context"} for node in left["nodes"]])
    return run, claim


def stages_checked(run: Path, claim: str, expression: str = "cols(t-1)") -> dict[str, Any]:
    proposal = {"type": "recompute-numbers", "target": claim, "cites": [claim, "t-1"], "expression": expression}
    return call("run_checks", run=str(run), proposals=[{**proposal, "result": "seven"}])


@pytest.mark.parametrize(("columns", "outcome"), [(6, "failed"), (7, "passed")])
def test_seven_stages_against_the_columns_of_its_table_and_the_run_replays_and_verifies(
    tmp_path: Path, columns: int, outcome: str
) -> None:
    run, claim = started(tmp_path, paper(columns))
    listed, _ = call_tool("get_state", {"run": str(run), "unit": "table-row", "limit": 500})
    text = next(node["text"] for node in listed["nodes"] if node["id"] == "t-1")
    assert text.count("Pipeline / S") == 2  # the row's text names two cells: its columns cannot be counted from it
    checked = stages_checked(run, claim)
    assert checked["refused"] == []
    assert [(check["result"], check["detail"]) for check in checked["checks"]] == [
        (outcome, f"cols(t-1) = {columns}, reported 7 +- 0 (a number word is exact): {outcome}")
    ]
    inputs = json.loads((run / "checks" / "c-001" / "inputs.json").read_bytes())
    assert inputs["cols"] == {"t-1": columns}  # the count the check used, recorded with its inputs
    call("finish_run", run=str(run))
    assert replay(run, source=None, sources=None).identical
    verdict = verify_run(run)
    assert verdict.error is None and verdict.differences == () and verdict.rerun == 1


def test_a_rerun_reports_a_recorded_column_count_the_graph_does_not_give(tmp_path: Path) -> None:
    run, claim = started(tmp_path, paper(6))
    stages_checked(run, claim)
    call("finish_run", run=str(run))
    graph = json.loads((run / "graph.json").read_bytes())
    inputs = json.loads((run / "checks" / "c-001" / "inputs.json").read_bytes())
    check = RecomputeNumbers()
    assert check.rerun(inputs, JsonRunView(graph, "verify")).result == "failed"  # as recorded
    for node in graph["nodes"]:
        if node["id"] == "t-1":
            node["attributes"]["table"]["columns"] = 7
    outcome = check.rerun(inputs, JsonRunView(graph, "verify"))
    assert (outcome.result, outcome.code) == ("error", "tampered")
    assert "{'t-1': 6}" in outcome.detail and "{'t-1': 7}" in outcome.detail


def test_no_form_passes_seven_stages_against_a_table_of_six(tmp_path: Path) -> None:
    """The count is the run's, never the agent's: it adds no numeral the text does not write, counts only in a
    cited table row, and a table whose columns ingestion could not establish is refused, not counted."""
    run, claim = started(tmp_path, paper(6))
    added = stages_checked(run, claim, "cols(t-1) + 1")["refused"]
    assert [item["code"] for item in added] == ["operand-not-in-text"]  # the row's "Table 1" writes no 1
    sentence = call(
        "run_checks",
        run=str(run),
        proposals=[
            {
                "type": "recompute-numbers",
                "target": claim,
                "cites": [claim],
                "expression": f"cols({claim})",
                "result": "seven",
            }
        ],
    )["refused"]
    assert [item["code"] for item in sentence] == ["operand-not-in-text"]
    assert f"{claim} is not a table row among the cited chunks" in sentence[0]["message"]
    # A specification of eight columns that rows fill six of: no count, so no check either way.
    other = tmp_path / "unfilled"
    other.mkdir()
    run, claim = started(other, paper(6, spec="c" * 8))
    unfilled = stages_checked(run, claim)["refused"]
    assert [item["code"] for item in unfilled] == ["columns-not-counted"]
    assert unfilled[0]["fix"]

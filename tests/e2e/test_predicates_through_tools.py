r"""Predicates, roundings, ranges by kind, dates and enumeration counts in recompute-numbers, through the
tools an agent calls, on a paper written for the test with each example of issue 24 (parts 2 to 6) and
issue 23 (part 3): each gives the right result, is recorded with the word it came from, replays byte for
byte and is re-evaluated by verify from graph.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cgx_checks.recompute_numbers import RecomputeNumbers
from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.checks.view import JsonRunView
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"

PAPER = r"""\documentclass{article}
\begin{document}
The original and reproduced values are identical (Table~\ref{tab:repro}).
Three rows changed between the two runs.
The reproduced score 8.537 matches the original 8.53 within the precision reported.
Every estimate lies within its 95\% confidence interval (Table~\ref{tab:ci}).
The error decreases with depth: 12.1, 10.4, 10.9 and 8.2.
The threshold keeps every listed value, each at least 0.65: 0.70, 0.66 and 0.61.
The condition number of the system is 0.8.
The probability of success is 1.3.
The analyses, run in May 2018, used version 2.1 (2019-03-04), released before the analyses.
We test in five settings: (a) clean, (b) noisy, (c) shifted, (d) rotated.

\begin{table}
\caption{Original and reproduced scores.}\label{tab:repro}
\begin{tabular}{lrr}
Task & Original & Reproduced \\
\hline
A & 8.53 & 8.53 \\
B & 7.12 & 7.12 \\
C & 6.40 & 6.41 \\
\end{tabular}
\end{table}

\begin{table}
\caption{Estimates with their intervals.}\label{tab:ci}
\begin{tabular}{lrrr}
Model & Estimate & Low & High \\
\hline
M1 & 0.52 & 0.55 & 0.91 \\
M2 & 0.70 & 0.61 & 0.80 \\
\end{tabular}
\end{table}
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
    assert not is_error, payload
    return payload


def test_each_example_gives_the_right_result_and_the_run_replays_and_verifies(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(RUBRIC), store_source=True)
    listed, _ = call_tool("get_state", {"run": str(run), "unit": "sentence", "limit": 500})
    sentences = [node["id"] for node in listed["nodes"]]
    identical, changed, precision, within, decreases, threshold, condition, probability, release, settings = sentences
    rows = ["t-1", "t-2", "t-3"]
    intervals = ["t-4", "t-5"]
    claims = [(identical, rows), (changed, rows), (within, intervals)]
    typed = call(
        "classify",
        run=str(run),
        records=[
            *({"node": node, "type": "claim", "form": {"shape": "existential"}, "rests_on": on} for node, on in claims),
            *(
                {"node": node, "type": "claim", "form": {"shape": "existential"}, "rests_on": ["t-1"]}
                for node in (precision, decreases, threshold, condition, probability, release, settings)
            ),
        ],
    )
    assert typed["refused"] == []
    left, _ = call_tool("get_state", {"run": str(run), "type": "unassigned", "limit": 500})
    call("classify", run=str(run), records=[{"node": node["id"], "type": "context"} for node in left["nodes"]])

    def proposal(target: str, expression: str, result: str, cites: list[str] | None = None) -> dict[str, Any]:
        return {
            "type": "recompute-numbers",
            "target": target,
            "cites": [target, *(cites or [])],
            "expression": expression,
            "result": result,
        }

    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            proposal(identical, "all(8.53 == 8.53, 7.12 == 7.12, 6.40 == 6.41)", "identical", rows),
            proposal(changed, "count(8.53 != 8.53, 7.12 != 7.12, 6.40 != 6.41)", "Three", rows),
            proposal(precision, "round(8.537, 2)", "8.53"),
            proposal(within, "all(within(0.52, 0.55, 0.91), within(0.70, 0.61, 0.80))", "within", intervals),
            proposal(decreases, "sorted_desc(12.1, 10.4, 10.9, 8.2)", "decreases"),
            proposal(threshold, "all(0.70 >= 0.65, 0.66 >= 0.65, 0.61 >= 0.65)", "at least"),
            proposal(condition, "is_condition_number(0.8)", "condition number"),
            proposal(probability, "is_probability(1.3)", "probability"),
            proposal(release, "date(2019, 3, 4) < date(2018, 5)", "before"),
            proposal(settings, f"items({settings})", "five"),
        ],
    )
    assert checked["refused"] == []
    # Every example states something the paper's own numbers contradict.
    assert [check["result"] for check in checked["checks"]] == ["failed"] * 10
    details = [check["detail"] for check in checked["checks"]]
    assert details[0] == (
        "all(8.53 == 8.53, 7.12 == 7.12, 6.40 == 6.41) is false; the text writes 'identical' (==): failed"
    )
    assert details[2] == "round(8.537, 2) = 8.54, reported 8.53 +- 0.005 (2 decimals, 3 significant digits): failed"
    assert details[8] == "date(2019, 3, 4) < date(2018, 5) is false; the text writes 'before' (<): failed"
    assert details[9] == f"items({settings}) = 4, reported 5 +- 0 (a number word is exact): failed"

    outputs = [json.loads((run / "checks" / f"c-00{index}" / "output.json").read_bytes())["output"] for index in (1, 2)]
    assert outputs[0]["relations"] == {"==": "identical"}
    assert outputs[1]["relations"] == {"!=": "changed"}
    inputs = json.loads((run / "checks" / "c-010" / "inputs.json").read_bytes())
    assert inputs["items"] == {settings: 4}  # the count the check used, recorded with its inputs

    assert call("finish_run", run=str(run))["verdicts"]["fails"] == 10
    assert replay(run, source=None, sources=None).identical
    verdict = verify_run(run)
    assert verdict.error is None and verdict.differences == () and verdict.rerun == 10


def test_verify_recounts_items_and_reevaluates_a_predicate_from_the_graph(tmp_path: Path) -> None:
    """A chunk whose enumeration no longer gives the recorded count, or a cell that no longer holds the
    numeral a predicate compares, is an error on re-run, never the recorded outcome."""
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(RUBRIC), store_source=True)
    listed, _ = call_tool("get_state", {"run": str(run), "unit": "sentence", "limit": 500})
    identical, settings = listed["nodes"][0]["id"], listed["nodes"][-1]["id"]
    call(
        "classify",
        run=str(run),
        records=[
            {"node": node, "type": "claim", "form": {"shape": "existential"}, "rests_on": ["t-1"]}
            for node in (identical, settings)
        ],
    )
    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            {
                "type": "recompute-numbers",
                "target": settings,
                "expression": f"items({settings})",
                "result": "five",
            },
            {
                "type": "recompute-numbers",
                "target": identical,
                "cites": [identical, "t-1", "t-2"],
                "expression": "all(8.53 == 8.53, 7.12 == 7.12)",
                "result": "identical",
            },
        ],
    )
    assert [check["result"] for check in checked["checks"]] == ["failed", "passed"]
    # One predicate per word per node: a second "identical" over a friendlier subset of rows is a duplicate.
    again = {"type": "recompute-numbers", "target": identical, "cites": [identical, "t-1"], "result": "identical"}
    proposals = [
        {**again, "expression": "8.53 == 8.53"},
        {**again, "expression": "8.53 == 8.53", "result": "Identical"},
    ]
    refused = call("run_checks", run=str(run), proposals=proposals)["refused"]
    assert [item["code"] for item in refused] == ["check-duplicate", "check-duplicate"]
    left, _ = call_tool("get_state", {"run": str(run), "type": "unassigned", "limit": 500})
    call("classify", run=str(run), records=[{"node": node["id"], "type": "context"} for node in left["nodes"]])
    call("finish_run", run=str(run))
    graph = json.loads((run / "graph.json").read_bytes())
    check = RecomputeNumbers()
    inputs = [json.loads((run / "checks" / f"c-00{index}" / "inputs.json").read_bytes()) for index in (1, 2)]
    assert check.rerun(inputs[0], JsonRunView(graph, "verify")).result == "failed"  # as recorded
    assert check.rerun(inputs[1], JsonRunView(graph, "verify")).result == "passed"
    # The enumeration now lists three items: the recorded count of four is not what the graph gives.
    outcome = check.rerun(inputs[0], _edited(graph, settings, ", (d) rotated", ""))
    assert (outcome.result, outcome.code) == ("error", "tampered")
    # The second row now prints 7.13: the predicate's numeral 7.12 is no longer written twice.
    assert check.rerun(inputs[1], _edited(graph, "t-2", "Reproduced: 7.12", "Reproduced: 7.13")).result == "error"


def _edited(graph: dict[str, Any], node_id: str, old: str, new: str) -> JsonRunView:
    """The run's graph as verify reads it, with one chunk's text changed."""
    nodes = [
        {**node, "statement": node["statement"].replace(old, new)} if node["id"] == node_id else node
        for node in graph["nodes"]
    ]
    assert nodes != graph["nodes"], f"{old!r} is not in {node_id}"
    return JsonRunView({**graph, "nodes": nodes}, "verify")

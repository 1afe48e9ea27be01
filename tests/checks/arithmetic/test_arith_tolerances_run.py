"""Hedge tolerances end to end, through the tools: the rubric's author declares them beside the rubric,
start_run copies them into the run by digest, a check records the relation and tolerance it used, and
replay and verify use exactly those bytes (and refuse a run whose copy was changed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from credencegraph.core import load
from credencegraph.rubric import check_graph, load_rubric

from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.errors import CgxError
from cgx_core.numbers.tolerances import DEFAULT_NAME, default_bytes
from cgx_core.testing import RUBRIC
from cgx_core.tooling.registry import call_tool
from support import listed_nodes

PAPER = r"""\documentclass{article}
\begin{document}
We set up the cluster in 90 minutes, trained for 20 hours and evaluated for 1 day.

The whole study took approximately 2 days.
\end{document}
"""

CHECKS = """
[checks.recompute-numbers]
description = "Recompute the numbers a result states."
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""


def tolerances(percent: str, name: str = "cgx-testing", version: str = "1") -> str:
    return f'[rubric]\nname = "{name}"\nversion = "{version}"\n\n[hedges]\n"approximately" = "{percent}"\n'


def start(tmp_path: Path, companion: str | None) -> tuple[Path, dict[str, Any]]:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    rubric = tmp_path / "paper-rubric.toml"
    rubric.write_text(RUBRIC + CHECKS, encoding="utf-8")
    if companion is not None:
        (tmp_path / "paper-rubric.tolerances.toml").write_text(companion, encoding="utf-8")
    run = tmp_path / "run"
    args = {"run": str(run), "paper": str(paper), "rubric": str(rubric), "model": "m", "store_source": True}
    payload, _ = call_tool("start_run", args)
    return run, payload


def call(run: Path, tool: str, **arguments: Any) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"run": str(run), "model": "m", **arguments})
    return payload


def checked_run(tmp_path: Path, companion: str | None) -> tuple[Path, dict[str, Any]]:
    run, started = start(tmp_path, companion)
    assert "error" not in started, started
    method, result = (chunk["id"] for chunk in listed_nodes(run, type="unassigned"))
    records = [
        {"node": method, "type": "method", "form": {"kind": "procedure"}},
        {"node": result, "type": "result", "rests_on": [method]},
    ]
    assert call(run, "classify", records=records)["refused"] == []
    proposal = {
        "type": "recompute-numbers",
        "target": result,
        "cites": [method, result],
        "expression": "90 minutes + 20 hours + 1 day",
        "result": "2 days",
    }
    checks = call(run, "run_checks", proposals=[proposal])
    assert checks["refused"] == [], checks
    return run, checks["checks"][0]


def record(run: Path, check_id: str) -> dict[str, Any]:
    state = json.loads((run / "state.json").read_bytes())
    node = next(item for item in state["graph"]["nodes"] if item["id"] == check_id)
    found: dict[str, Any] = node["attributes"]["check"]
    return found


@pytest.mark.parametrize(("percent", "outcome"), [("10%", "passed"), ("5%", "failed")])
def test_approximately_two_days_is_decided_by_the_rubrics_tolerance(tmp_path: Path, percent: str, outcome: str) -> None:
    run, check = checked_run(tmp_path, tolerances(percent))
    assert check["result"] == outcome
    inputs = record(run, check["id"])["inputs"]
    assert inputs["relation"] == "~"
    assert inputs["hedge"] == "approximately"
    assert inputs["tolerance"] == {"10%": "1/10", "5%": "1/20"}[percent]
    assert record(run, check["id"])["tool"]["libraries"]["pint"]
    manifest = json.loads((run / "manifest.json").read_bytes())
    assert manifest["tolerances"]["name"] == "paper-rubric.tolerances.toml"
    assert (run / "tolerances.toml").read_text(encoding="utf-8") == tolerances(percent)


def test_a_run_with_a_hedged_check_finishes_replays_and_verifies(tmp_path: Path) -> None:
    run, check = checked_run(tmp_path, None)  # the default table: approximately is 10%
    assert check["result"] == "passed"
    assert json.loads((run / "manifest.json").read_bytes())["tolerances"]["name"] == DEFAULT_NAME
    assert (run / "tolerances.toml").read_bytes() == default_bytes()
    assert "error" not in call(run, "finish_run")
    graph = load(run / "graph.json")
    assert check_graph(graph, load_rubric(run / "rubric.toml"), "assessed", rubric_credences=True) == []
    assert replay(run, source=None, sources=None).identical
    verdict = verify_run(run)
    assert (verdict.error, verdict.differences, verdict.rerun) == (None, (), 1)


def test_a_changed_copy_of_the_tolerances_is_refused_by_replay_and_verify(tmp_path: Path) -> None:
    run, _ = checked_run(tmp_path, tolerances("10%"))
    assert "error" not in call(run, "finish_run")
    tampered = tmp_path / "tampered"
    shutil.copytree(run, tampered)
    (tampered / "tolerances.toml").write_text(tolerances("50%"), encoding="utf-8")
    with pytest.raises(CgxError, match=r"tolerances\.toml' differs from the digest in its manifest"):
        replay(tampered, source=None, sources=None)
    verdict = verify_run(tampered)  # refused before any check is re-run: the run at rest is not what it recorded
    assert verdict.error is not None and verdict.error["code"] == "tampered", verdict
    assert "tolerances.toml' differs from the digest in its manifest" in verdict.error["message"]


@pytest.mark.parametrize(
    ("companion", "problems"),
    [
        (
            '[rubric]\nname = "other"\nversion = "2"\n[hedges]\n"approximately" = "200%"\n"whatever" = "5%"\n[x]\n',
            [
                "unknown tables or keys ['x']",
                "[rubric] name is 'other'",
                "[rubric] version is '2'",
                "the tolerance of 'approximately'",
                "'whatever' is not a hedge phrase",
            ],
        ),
        ("[hedges]\n", ["[rubric] must name the rubric"]),
        ("not toml [", ["is not TOML"]),
    ],
)
def test_a_bad_tolerance_table_is_refused_with_every_problem_and_nothing_written(
    tmp_path: Path, companion: str, problems: list[str]
) -> None:
    run, payload = start(tmp_path, companion)
    assert payload["error"]["code"] == "tolerances-invalid"
    for problem in problems:
        assert problem in payload["error"]["message"]
    assert not run.exists()


def test_a_hedge_the_table_leaves_out_is_refused_with_a_fix(tmp_path: Path) -> None:
    companion = '[rubric]\nname = "cgx-testing"\nversion = "1"\n[hedges]\n"about" = "10%"\n'
    run, _ = start(tmp_path, companion)
    method, result = (chunk["id"] for chunk in listed_nodes(run, type="unassigned"))
    call(
        run,
        "classify",
        records=[
            {"node": method, "type": "method", "form": {"kind": "procedure"}},
            {"node": result, "type": "result", "rests_on": [method]},
        ],
    )
    proposal = {
        "type": "recompute-numbers",
        "target": result,
        "cites": [method, result],
        "expression": "90 minutes + 20 hours + 1 day",
        "result": "2 days",
    }
    [refused] = call(run, "run_checks", proposals=[proposal])["refused"]
    assert refused["code"] == "hedge-undeclared"
    assert "tolerances.toml" in refused["fix"]

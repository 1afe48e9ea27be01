"""The shipped paper rubric's credences, as a reviewer reads them: a failure certified by proof is never
outweighed by passes that check other aspects of the same statement (issue 36's done-when), and the rubric
says it is calibrated and on what."""

from __future__ import annotations

import importlib.util
import json
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cgx_core.calibration.labels import load_run, read_key
from cgx_core.calibration.score import against_verdict
from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PAPER = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\section{Method}\label{sec:method}
\begin{equation}
s = a + b \label{eq:sum}
\end{equation}
\begin{table}
\caption{The two inputs.}\label{tab:inputs}
\begin{tabular}{ll}
a & 3 \\
b & 4 \\
\end{tabular}
\end{table}
\begin{figure}
\caption{The inputs drawn.}\label{fig:inputs}
\end{figure}
Squaring Eq.~\eqref{eq:sum} with Table~\ref{tab:inputs} and Figure~\ref{fig:inputs} gives $s^2 = a^2 + b^2$.
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"model": "test-model", **arguments})
    assert "error" not in payload, payload
    return payload


def test_a_certified_failure_and_three_passing_cross_references_leave_the_step_below_its_prior(tmp_path: Path) -> None:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(paper), rubric=str(RUBRIC))
    step = "s-3"  # s-1 and s-2 are the captions, e-1 the equation, t-1 and t-2 the rows
    records = [
        {"node": step, "type": "derivation", "rests_on": ["e-1"]},
        {"node": "s-1", "type": "context"},
        {"node": "s-2", "type": "context"},
    ]
    assert call("classify", run=str(run), records=records)["refused"] == []
    crossref = [
        {"type": "cross-reference", "target": step, "ref": ref, "cites": cites}
        for ref, cites in (("eq:sum", ["e-1"]), ("tab:inputs", ["t-1"]), ("fig:inputs", ["s-2"]))
    ]
    maths = {
        "type": "rederive-maths",
        "target": step,
        "equations": ["e-1"],
        "symbols": {"a": ["real"], "b": ["real"]},
        "lhs": "(a + b)^2",
        "rhs": "a^2 + b^2",
    }
    checked = call("run_checks", run=str(run), proposals=[*crossref, maths])
    assert checked["refused"] == []
    assert [check["result"] for check in checked["checks"]] == ["passed", "passed", "passed", "failed"]
    assert checked["checks"][3]["detail"].endswith("which is not 0")  # an exact witness: the failure is proved
    call("finish_run", run=str(run))
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    credence = report["credences"]["nodes"][step]
    assert credence["after"] < credence["before"], credence
    assert not credence.get("against_verdict"), credence
    assert step not in report["credences"].get("against_verdict", [])


def test_the_shipped_rubric_says_it_is_calibrated_and_on_what() -> None:
    calibration = tomllib.loads(RUBRIC.read_text(encoding="utf-8"))["calibration"]
    assert calibration["status"] == "calibrated"
    assert "labelled runs" in calibration["against"] and "maths soundness corpus" in calibration["against"]
    assert str(calibration["date"]).startswith("20")


@pytest.mark.parametrize("name", ["dynonet-paper-planted", "hastings-powell-replication-planted"])
def test_no_failing_node_of_a_labelled_run_ends_above_its_credence_before_the_checks(name: str, tmp_path: Path) -> None:
    """Two labelled runs rebuilt from their sessions (calibration/build.py): under the shipped rubric, the
    observations never raise a node whose verdict is `fails`, and each planted false node a check failed on
    ends below where it started."""
    build = _build_module()
    run = build.build(name, build.spec(ROOT / "calibration" / "runs" / f"{name}.toml"), tmp_path)
    labelled = load_run(run, read_key(tmp_path / "keys" / f"{name}.toml"))
    rubric = load_rubric_bytes(RUBRIC.read_bytes(), RUBRIC.name)
    assert "fails" not in against_verdict(labelled, rubric)
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    failed_targets = {check["target"] for check in report["failed_checks"]}
    planted = [node for node, truth in labelled.truth.items() if not truth and node in failed_targets]
    assert planted, "the planted errors were caught"
    credences = report["credences"]["nodes"]
    assert all(credences[node]["after"] < credences[node]["before"] for node in planted), planted


def _build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("calibration_build", ROOT / "calibration" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

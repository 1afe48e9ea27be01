"""A derivation checked line by line through run_checks: successive lines are separate observations (the
key holds the lines' chunks), the relations of one chain are separate checks of one target, and a step
that could not fail is refused with a fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_RUBRIC

PAPER = r"""\documentclass{article}
\begin{document}
We expand the square in two lines.
\begin{equation}
(x + 1)^2 = (x + 1)(x + 1)
\end{equation}
Multiplying out,
\begin{equation}
(x + 1)(x + 1) = x^2 + 2x + 1 = x^2 + 2x + 1.
\end{equation}
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
    assert not is_error, payload
    return payload


@pytest.fixture
def run(tmp_path: Path) -> Path:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    started = call("start_run", run=str(run), paper=str(paper), rubric=str(EXAMPLE_RUBRIC))
    assert started["next"] is None  # a short paper: every chunk is on the first page
    equations = [chunk["id"] for chunk in started["nodes"] if chunk["unit"] == "equation"]
    assert equations == ["e-1", "e-2"]
    records = [{"node": node, "type": "derivation"} for node in equations]
    records += [
        {"node": chunk["id"], "type": "method", "form": {"kind": "procedure"}}
        for chunk in started["nodes"]
        if chunk["unit"] == "sentence"
    ]
    assert call("classify", run=str(run), records=records)["refused"] == []
    return run


X = {"x": ["real"]}


def test_successive_lines_that_expand_alike_are_two_observations(run: Path) -> None:
    lines = [
        {
            "type": "rederive-maths",
            "target": "e-1",
            "equations": ["e-1"],
            "symbols": X,
            "latex": "(x + 1)^2 = (x + 1)(x + 1)",
        },
        {
            "type": "rederive-maths",
            "target": "e-2",
            "equations": ["e-2"],
            "symbols": X,
            "latex": "(x + 1)(x + 1) = x^2 + 2x + 1",
        },
    ]
    result = call("run_checks", run=str(run), proposals=lines)
    assert result["refused"] == []
    assert [check["result"] for check in result["checks"]] == ["passed", "passed"]
    # The same line of the same chunk on another target is still one observation.
    again = {**lines[1], "target": "e-1", "latex": None, "lhs": "x^2 + 2*x + 1", "rhs": "(1 + x)^2"}
    del again["latex"]
    refused = call("run_checks", run=str(run), proposals=[again])["refused"]
    assert [refusal["code"] for refusal in refused] == ["check-same-observation"]


def test_the_relations_of_one_chain_are_separate_checks_and_a_trivial_one_is_refused(run: Path) -> None:
    chain = {
        "type": "rederive-maths",
        "target": "e-2",
        "equations": ["e-2"],
        "symbols": X,
        "latex": "(x + 1)(x + 1) = x^2 + 2x + 1 = x^2 + 2x + 1",
    }
    result = call("run_checks", run=str(run), proposals=[{**chain, "split": 1}, {**chain, "split": 2}])
    assert [check["result"] for check in result["checks"]] == ["passed"]
    [trivial] = result["refused"]
    assert trivial["code"] == "step-trivial" and "could not fail" in trivial["message"]
    assert "split 2" in trivial["fix"]
    sympy_spelled = {"type": "rederive-maths", "target": "e-1", "symbols": X, "lhs": "x + 1", "rhs": "1 + x"}
    assert call("run_checks", run=str(run), proposals=[sympy_spelled])["refused"][0]["code"] == "step-trivial"


def test_a_unicode_name_is_read_as_its_sympy_name_and_the_check_records_the_mapping(run: Path) -> None:
    proposal = {
        "type": "rederive-maths",
        "target": "e-1",
        "symbols": {"\u03bb": ["positive"], "x": ["real"]},
        "lhs": "Derivative(exp(\u03bb*x), x)",
        "rhs": "lambda*exp(\u03bb*x)",
    }
    result = call("run_checks", run=str(run), proposals=[proposal])
    assert [check["result"] for check in result["checks"]] == ["passed"]
    output = json.loads((run / "checks" / "c-001" / "output.json").read_bytes())["output"]
    assert output["read"] == {"names": {"\u03bb": "lambda"}}

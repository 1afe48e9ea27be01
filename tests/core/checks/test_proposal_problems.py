"""A refused check proposal names every problem that can be seen before its plugin reads it: its shape,
its type, its target and its fields, at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support import EXAMPLE_RECORDS, call, start_example


@pytest.fixture
def run(tmp_path: Path) -> Path:
    root = tmp_path / "run"
    start_example(root)
    assert call(root, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    return root


def codes(refusal: dict[str, Any]) -> list[str]:
    every = [refusal, *refusal.get("also", [])]
    assert all(problem["message"] and problem["fix"] for problem in every)
    return [problem["code"] for problem in every]


def test_a_proposal_with_a_bad_target_and_bad_fields_names_both(run: Path) -> None:
    proposal = {"type": "recompute-numbers", "target": "s-404", "expression": 12, "colour": "red"}
    [refusal] = call(run, "run_checks", proposals=[proposal])["refused"]
    assert codes(refusal) == ["unknown-node", "proposal-invalid"]
    fields = refusal["also"][0]["message"]
    assert "$.expression must be string" in fields
    assert "unknown argument(s) ['colour']" in fields
    assert "the required argument 'result' is missing" in fields


def test_a_proposal_without_type_and_target_names_both(run: Path) -> None:
    [refusal] = call(run, "run_checks", proposals=[{"expression": "1"}])["refused"]
    assert codes(refusal) == ["proposal-invalid", "proposal-invalid"]
    assert "'type'" in refusal["message"] and "'target'" in refusal["also"][0]["message"]


def test_a_proposal_of_an_undeclared_type_with_bad_fields_names_both(cgx_run: Any) -> None:
    started = cgx_run()  # the testing rubric declares no check type
    [refusal] = started.call("run_checks", proposals=[{"type": "recompute-numbers", "target": "s-1", "cites": 3}])[
        "refused"
    ]
    assert codes(refusal) == ["check-type-undeclared", "proposal-invalid"]


def test_a_proposal_on_a_node_of_the_wrong_type_with_bad_fields_names_both(run: Path) -> None:
    proposal = {"type": "recompute-numbers", "target": "s-01", "expression": "1"}  # s-01 is a claim, no result
    [refusal] = call(run, "run_checks", proposals=[proposal])["refused"]
    assert codes(refusal) == ["check-target-type", "proposal-invalid"]


def test_a_proposal_with_one_problem_reads_as_before(run: Path) -> None:
    [refusal] = call(run, "run_checks", proposals=[{"type": "no-such-check", "target": "s-12"}])["refused"]
    assert list(refusal) == ["proposal", "node", "code", "message", "fix"]
    assert refusal["code"] == "check-type-unknown"

"""One pass per proposal (issue 28): a recompute-numbers proposal is parsed and decided once in a live call,
prepare's recomputation serving observation_key and run; verify still decides it from the recorded inputs, to
the same outcome. The count is of `parse_expression`, which every path that decides an expression goes through."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

from cgx_core.testing import StartedRun

# The module, not the function the package exports under the same name.
recompute_module = importlib.import_module("cgx_checks.arithmetic.recompute")

CHECKS = """
[checks.recompute-numbers]
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""

RECORDS: list[dict[str, Any]] = [
    {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-8"], "hedge": "We show"},
    {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
    {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
    {"node": "s-4", "type": "method", "form": {"kind": "procedure"}},
    {"node": "s-5", "type": "derivation"},
    {"node": "s-6", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-8"], "hedge": "likely"},
    {"node": "s-7", "type": "literature_claim"},
    {"node": "s-8", "type": "result", "rests_on": ["s-2"]},
]


def test_a_proposal_is_evaluated_once_and_verify_agrees(
    cgx_run: Callable[..., StartedRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = cgx_run(rubric_extra=CHECKS)
    assert run.call("classify", records=RECORDS)["refused"] == []
    parsed: list[str] = []
    real = recompute_module.parse_expression

    def counted(expression: str) -> Any:
        parsed.append(expression)
        return real(expression)

    monkeypatch.setattr(recompute_module, "parse_expression", counted)
    proposals = [
        {
            "type": "recompute-numbers",
            "target": "s-3",
            "cites": ["s-3", "s-2"],
            "expression": "4 s * 4096 Hz",
            "result": "16384",
        },
        {
            "type": "recompute-numbers",
            "target": "s-8",
            "cites": ["s-8", "s-2"],
            "expression": "961 / 1000",
            "result": "96%",
        },
    ]
    result = run.call("run_checks", proposals=proposals)
    assert result["refused"] == [] and [check["result"] for check in result["checks"]] == ["passed", "passed"], result
    assert parsed == ["4 s * 4096 Hz", "961 / 1000"]  # prepare's one evaluation each served the key and the run
    monkeypatch.setattr(recompute_module, "parse_expression", real)
    verified = run.verify()  # replayed byte for byte, and re-run from the recorded inputs alone to the same outcome
    assert (verified.checks, verified.rerun) == (2, 2)

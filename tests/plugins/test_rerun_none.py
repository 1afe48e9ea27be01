"""verify says so when a third party's check type that declares no model decides it returns None from
rerun: its checks are not re-derived, which must not pass for verified in silence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cgx_core.audit.verify import verify_run
from cgx_core.checks.installed import build_plugin_manager, build_registry, check_types_scope
from cgx_core.testing import StartedRun

CHECKS = """
[checks.unrepeatable]
description = "A computed check type that cannot be re-run."
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""

SOURCE = """
from cgx_core.plugin_api import Outcome, Prepared, hookimpl


class Unrepeatable:
    name = "unrepeatable"
    tool = "run_checks"
    description = "Passes, and cannot be re-run."
    proposal_schema = {"properties": {}, "additionalProperties": False}
    uses_model = USES_MODEL

    def prepare(self, proposal, run):
        return Prepared(proposal["target"], {"target": proposal["target"]})

    def run(self, prepared, run, *, model):
        return Outcome("passed", "computed")

    def rerun(self, inputs, run):
        return None


@hookimpl
def cgx_register_check_types(register):
    register(Unrepeatable())
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


def verified_notes(fake_distribution: Any, cgx_run: Callable[..., StartedRun], uses_model: bool) -> tuple[str, ...]:
    fake_distribution("cgx-unrepeatable", SOURCE.replace("USES_MODEL", str(uses_model)))
    registry = build_registry(build_plugin_manager())
    assert registry.invalid == [], registry.invalid
    try:
        with check_types_scope(registry):
            run = cgx_run(rubric_extra=CHECKS)
            assert run.call("classify", records=RECORDS)["refused"] == []
            result = run.call("run_checks", proposals=[{"type": "unrepeatable", "target": "s-8"}], model="m")
            assert [check["result"] for check in result["checks"]] == ["passed"], result
            assert "error" not in run.call("finish_run")
            verdict = verify_run(run.path)
    finally:
        registry.worker.close()
    assert verdict.differences == () and verdict.rerun == 0
    return verdict.notes


def test_a_computed_type_whose_rerun_returns_none_is_named_in_verifys_notes(
    fake_distribution: Any, cgx_run: Callable[..., StartedRun]
) -> None:
    [note] = verified_notes(fake_distribution, cgx_run, uses_model=False)
    assert note.startswith("c-") and "unrepeatable" in note and "rerun returned None" in note


def test_a_model_judged_type_that_cannot_re_run_is_not_flagged(
    fake_distribution: Any, cgx_run: Callable[..., StartedRun]
) -> None:
    assert verified_notes(fake_distribution, cgx_run, uses_model=True) == ()

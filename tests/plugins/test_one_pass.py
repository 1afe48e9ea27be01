"""One pass per proposal: what `prepare` worked out (`Prepared.memo`) reaches `observation_key` and `run` of
the same call, so a check type decides a proposal once; `rerun` (verify) works from the recorded inputs
alone. Shown on a third-party type installed as a distribution (its memo stays in the plugin worker), which
counts how often it decides each proposal and says so in its detail."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cgx_core.checks.installed import build_plugin_manager, build_registry, check_types_scope
from cgx_core.testing import StartedRun

COUNTING = """
from cgx_core.plugin_api import CheckTypeBase, Outcome, Prepared, hookimpl

DECIDED = {}


def decide(n):
    DECIDED[n] = DECIDED.get(n, 0) + 1
    return int(n) % 2 == 0


class Counting(CheckTypeBase):
    name = "counting"
    tool = "run_checks"
    description = "Passes when n is even."
    proposal_schema = {"properties": {"n": {"type": "string"}}, "required": ["n"], "additionalProperties": False}

    def prepare(self, proposal, run):
        inputs = {"target": proposal["target"], "n": proposal["n"]}
        return Prepared(proposal["target"], inputs, memo=decide(proposal["n"]))

    def observation_key(self, prepared):
        even = prepared.memo if prepared.memo is not None else decide(prepared.inputs["n"])
        return prepared.inputs["n"] + (":even" if even else ":odd")

    def run(self, prepared, run, *, model):
        even = prepared.memo if prepared.memo is not None else decide(prepared.inputs["n"])
        return Outcome("passed" if even else "failed", "decided %d time(s)" % DECIDED[prepared.inputs["n"]])

    def rerun(self, inputs, run):
        return self.run(Prepared(inputs["target"], inputs), run, model=None)


@hookimpl
def cgx_register_check_types(register):
    register(Counting())
"""

CHECKS = """
[checks.counting]
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""


@pytest.fixture
def counting(fake_distribution: Any, cgx_run: Callable[..., StartedRun]) -> Iterator[StartedRun]:
    fake_distribution("cgx-counting", COUNTING)
    registry = build_registry(build_plugin_manager())
    assert registry.invalid == [], registry.invalid
    with check_types_scope(registry):
        run = cgx_run(rubric_extra=CHECKS)
        records = [
            {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
            {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
            {"node": "s-8", "type": "result", "rests_on": ["s-2"]},
        ]
        assert run.call("classify", records=records)["refused"] == []
        yield run
    registry.worker.close()


def test_a_proposal_is_decided_once_in_a_live_call(counting: StartedRun) -> None:
    result = counting.call(
        "run_checks",
        proposals=[{"type": "counting", "target": "s-8", "n": "4"}, {"type": "counting", "target": "s-3", "n": "7"}],
    )
    assert [(check["result"], check["detail"]) for check in result["checks"]] == [
        ("passed", "decided 1 time(s)"),
        ("failed", "decided 1 time(s)"),
    ]
    # a memo is never recorded: the check records hold the inputs alone
    assert [record["inputs"] for record in counting.checks()] == [
        {"target": "s-8", "n": "4"},
        {"target": "s-3", "n": "7"},
    ]

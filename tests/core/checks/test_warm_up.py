"""A call's check types may begin their slow set-up (rederive-maths: its worker process) before the call opens
its run, so that it overlaps the run's opening (figure g2). The warm-up is an optimisation only: once per type
named, for built-in types alone, never failing a call, never changing a result."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from cgx_core.checks.api import Outcome, Prepared, ProposingTool, Refusal, RunView
from cgx_core.checks.installed import CheckTypeRegistry, check_types_scope, warm_up_proposed
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_RECORDS, call, start_example


class Warming:
    """A check type that records its warm-ups (and, through `seen`, whether the run was open then)."""

    tool: ProposingTool = "run_checks"
    proposal_schema: Mapping[str, Any] = {"properties": {}, "additionalProperties": False}

    def __init__(self, name: str, *, fails: bool = False, lock: Path | None = None) -> None:
        self.name = name
        self.description = f"the {name} check"
        self.fails = fails
        self.lock = lock
        self.warmed: list[bool] = []
        """One entry per warm-up: whether the run's lock was free at that moment."""

    def warm_up(self) -> None:
        self.warmed.append(self.lock is None or _free(self.lock))
        if self.fails:
            raise RuntimeError("the warm-up broke")

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        return Prepared(str(proposal["target"]), {})

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return Outcome("passed", "fine")


def _free(lock: Path) -> bool:
    """Whether nobody holds the run's flock (a non-blocking flock on a second open file succeeds)."""
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def registry_of(*kinds: Warming, distribution: str | None = None) -> CheckTypeRegistry:
    registry = CheckTypeRegistry()
    if distribution is not None:  # a third party's module: its types run isolated, in the plugin worker
        registry.providing(distribution, "1.0", module="tests.not_imported")
    for kind in kinds:
        registry(kind)
    return registry


def test_each_named_built_in_type_is_warmed_up_once_and_nothing_else() -> None:
    first, second, idle = Warming("first"), Warming("second"), Warming("idle")
    proposals = [
        {"type": "first", "target": "s-1"},
        {"type": "second", "target": "s-2"},
        {"type": "first", "target": "s-3"},
        {"type": "not-installed", "target": "s-4"},
        "not a proposal",
    ]
    with check_types_scope(registry_of(first, second, idle)):
        warm_up_proposed({"proposals": proposals})
        warm_up_proposed({"records": proposals})  # only `proposals` names check types
    assert (first.warmed, second.warmed, idle.warmed) == ([True], [True], [])


def test_a_third_partys_type_is_never_warmed_up_and_a_failing_warm_up_is_dropped() -> None:
    isolated, failing = Warming("isolated"), Warming("failing", fails=True)
    with check_types_scope(registry_of(isolated, distribution="someone-elses-checks")):
        warm_up_proposed({"proposals": [{"type": "isolated", "target": "s-1"}]})
    with check_types_scope(registry_of(failing)):
        warm_up_proposed({"proposals": [{"type": "failing", "target": "s-1"}]})  # raises nothing
    assert (isolated.warmed, failing.warmed) == ([], [True])


@pytest.mark.parametrize("fails", [False, True])
def test_run_checks_warms_up_before_it_opens_the_run_and_a_failing_warm_up_changes_nothing(
    tmp_path: Path, fails: bool
) -> None:
    run = tmp_path / "run"
    start_example(run)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    kind = Warming("recompute-numbers", fails=fails, lock=run / ".lock")  # a name the example's rubric declares
    arguments = {"run": str(run), "model": "m", "proposals": [{"type": "recompute-numbers", "target": "s-12"}]}
    with check_types_scope(registry_of(kind)):
        result, is_error = call_tool("run_checks", arguments)
        without_model = {name: value for name, value in arguments.items() if name != "model"}
        refused, refused_is_error = call_tool("run_checks", without_model)
    assert not is_error, result
    assert [check["result"] for check in result["checks"]] == ["passed"], result
    assert kind.warmed == [True]  # once, with the run's lock still free; none for the call refused at its arguments
    assert refused_is_error and refused["error"]["code"] == "invalid-arguments"

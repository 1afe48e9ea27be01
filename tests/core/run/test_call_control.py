"""Cancelling a call through its Control: whatever step it had reached, the call stops, its lock is free
and the run is exactly as it was. The Control here cancels itself when the call reports a given step, so
each test stops a call at a known place, with no race."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from cgx_core.run.call_control import Cancelled, Control, checkpoint, controlled, progress, stopping
from cgx_core.run.lock import lock_holder
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE, EXAMPLE_PREMISES, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, call, start_example, tree


def cancelling_at(step: str, heard: list[str]) -> Control:
    """A control that records every step reported and cancels the call when `step` is reported."""
    control: Control

    def report(done: int, total: int | None, message: str) -> None:
        heard.append(message)
        if message.startswith(step):
            control.cancel()

    control = Control(report=report)
    return control


@pytest.fixture
def run(tmp_path: Path) -> Path:
    root = tmp_path / "run"
    start_example(root)
    assert call(root, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    return root


def assert_untouched(run: Path, before: dict[str, bytes]) -> None:
    assert {name: data for name, data in tree(run).items() if name != ".lock"} == before
    assert lock_holder(run / ".lock") is None


def snapshot(run: Path) -> dict[str, bytes]:
    return {name: data for name, data in tree(run).items() if name != ".lock"}


def test_run_checks_cancelled_after_a_check_ran_commits_nothing(run: Path) -> None:
    before = snapshot(run)
    heard: list[str] = []
    proposals = [
        {"type": "recompute-numbers", "target": "s-12", "cites": ["s-12"], "expression": "12 * 300", "result": "3000"},
        {
            "type": "recompute-numbers",
            "target": "s-13",
            "cites": ["s-13"],
            "expression": "300 * 300",
            "result": "90000",
        },
    ]
    arguments = {"run": str(run), "model": "m", "proposals": proposals}
    payload, is_error = call_tool("run_checks", arguments, control=cancelling_at("proposal 2 of 2", heard))
    assert is_error and payload["error"]["code"] == "cancelled"
    assert heard == ["proposal 1 of 2: recompute-numbers on s-12", "proposal 2 of 2: recompute-numbers on s-13"]
    assert_untouched(run, before)
    assert call(run, "run_checks", proposals=proposals)["checks"][0]["id"] == "c-001"


def test_run_checks_cancelled_once_every_check_ran_still_commits_nothing(run: Path) -> None:
    """The last safe point is in the transaction, after the work and before anything is written."""
    before = snapshot(run)
    proposals = [{"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"}]
    arguments = {"run": str(run), "model": "m", "proposals": proposals}
    payload, _ = call_tool("run_checks", arguments, control=cancelling_at("checks done", []))
    assert payload["error"]["code"] == "cancelled"
    assert_untouched(run, before)


def test_start_run_cancelled_while_it_ingests_leaves_no_run_directory(tmp_path: Path) -> None:
    arguments = {"run": str(tmp_path / "run"), "paper": str(EXAMPLE / "paper.tex"), "rubric": str(EXAMPLE_RUBRIC)}
    heard: list[str] = []
    for step in ("ingesting the paper", "writing the run"):
        payload, _ = call_tool("start_run", {**arguments, "model": "m"}, control=cancelling_at(step, heard))
        assert payload["error"]["code"] == "cancelled", step
        assert not (tmp_path / "run").exists()
    assert heard[:3] == ["reading the paper", "ingesting the paper", "reading the paper"]


def test_finish_run_cancelled_while_it_checks_the_graph_leaves_the_run_unfinished(run: Path) -> None:
    assert call(run, "add_premises", records=EXAMPLE_PREMISES)["refused"] == []
    before = snapshot(run)
    arguments = {"run": str(run), "model": "m"}
    payload, _ = call_tool("finish_run", arguments, control=cancelling_at("checking the graph", []))
    assert payload["error"]["code"] == "cancelled"
    assert_untouched(run, before)
    assert not (run / "graph.json").exists()
    assert call(run, "finish_run")["finished"] is True


def test_a_call_without_a_control_is_neither_reported_nor_stopped() -> None:
    checkpoint()
    progress(0, 1, "nobody listens")


def test_stopping_tells_blocking_work_to_stop_when_the_call_is_cancelled() -> None:
    control = Control()
    stopped = threading.Event()
    late: list[str] = []
    with controlled(control), stopping(stopped.set):
        control.cancel()
        assert stopped.is_set()
        with pytest.raises(Cancelled):
            checkpoint()
        with stopping(lambda: late.append("stopped")):  # registered after the cancel: told at once
            assert late == ["stopped"]
    assert not stopped.is_set() or control.cancelled


def test_the_error_a_cancelled_call_returns_is_documented(run: Path) -> None:
    from cgx_core.codes import MEANINGS, Code

    assert "nothing was written to the log" in MEANINGS[Code.CANCELLED]
    payload: dict[str, Any]
    payload, _ = call_tool("get_state", {"run": str(run)}, control=cancelling_at("", []))
    assert "error" not in payload  # a reading call has no step to stop at and nothing to undo

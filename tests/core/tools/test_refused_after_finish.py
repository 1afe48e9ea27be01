"""A call whose records are all refused leaves a finished run finished (issue 37): it is logged with its
refusals, which go into rejections.json; graph.json and report.json stay the finish's; replay rebuilds the
same files, verify and report take the run as finished. A call that changes the graph still reopens it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.report.integrity import Integrity, not_run
from cgx_core.report.model import build_report
from support import EXAMPLE, EXAMPLE_RECORDS, call, start_example


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("refused-after-finish") / "run"
    start_example(run)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    proposal = {"type": "recompute-numbers", "target": "s-13", "expression": "1200 * 75", "result": "90000"}
    assert call(run, "run_checks", proposals=[proposal])["refused"] == []
    assert call(run, "finish_run").get("finished") is True
    return run


@pytest.fixture
def copy(finished: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(finished, target)
    return target


def files(run: Path) -> dict[str, bytes]:
    return {name: (run / name).read_bytes() for name in ("graph.json", "report.json", "rejections.json")}


def state(run: Path) -> dict[str, object]:
    from cgx_core.tooling.registry import call_tool

    result, _ = call_tool("get_state", {"run": str(run), "limit": 1})
    return dict(result["progress"])


REFUSED_CALLS = [
    pytest.param(
        "run_checks",
        {"proposals": [{"type": "recompute-numbers", "target": "s-13", "expression": "1200 * 75", "result": "90000"}]},
        "check-duplicate",
        id="run_checks",
    ),
    pytest.param("classify", {"records": [{"node": "s-99", "type": "claim"}]}, "unknown-node", id="classify"),
    pytest.param(
        "add_premises",
        {"records": [{"conclusion": "s-05", "premises": [{"statement": "Anything."}]}]},
        "not-a-conclusion",
        id="add_premises",
    ),
    pytest.param(
        "review",
        {"check": "c-999", "verdict": "holds", "reviewer": "Ada", "reason": "checked"},
        "unknown-node",
        id="review",
    ),
]


@pytest.mark.parametrize(("tool", "arguments", "code"), REFUSED_CALLS)
def test_a_call_refused_whole_leaves_the_run_finished_and_its_refusal_in_rejections(
    copy: Path, tool: str, arguments: dict[str, object], code: str
) -> None:
    before = files(copy)
    calls = len((copy / "calls.jsonl").read_bytes().splitlines())
    result = call(copy, tool, **arguments)
    [refusal] = result["refused"]
    assert refusal["code"] == code
    assert len((copy / "calls.jsonl").read_bytes().splitlines()) == calls + 1  # logged, with its refusal
    after = files(copy)
    assert after["graph.json"] == before["graph.json"] and after["report.json"] == before["report.json"]
    rejections = json.loads(after["rejections.json"])
    assert rejections["seq"] == calls + 1
    assert rejections["rejections"][-1] == {"seq": calls + 1, "tool": tool, **refusal}
    manifest = json.loads((copy / "manifest.json").read_bytes())
    assert manifest["finished"]["seq"] == calls + 1
    assert state(copy)["finished"] is True
    verdict = verify_run(copy)
    assert verdict.error is None and verdict.differences == (), verdict
    assert replay(copy, source=EXAMPLE / "paper.tex", sources=None).identical
    report = build_report(copy, Integrity(not_run("test"), not_run("test")))
    assert report.refused_records == len(rejections["rejections"])


def test_the_run_stays_finished_when_its_state_is_rebuilt_from_the_log(copy: Path) -> None:
    call(copy, "classify", records=[{"node": "s-99", "type": "claim"}])
    (copy / "state.json").unlink()
    assert state(copy)["finished"] is True  # rebuilt in memory by get_state
    assert call(copy, "classify", records=[{"node": "s-98", "type": "claim"}])["refused"]  # and by a call
    assert json.loads((copy / "state.json").read_bytes())["finished"] is True
    assert verify_run(copy).error is None


def test_a_call_that_changes_the_graph_still_reopens_the_run(copy: Path) -> None:
    call(copy, "classify", records=[{"node": "s-99", "type": "claim"}])
    proposal = {"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"}
    assert call(copy, "run_checks", proposals=[proposal])["checks"]
    assert state(copy)["finished"] is False
    assert not (copy / "graph.json").exists() and not (copy / "rejections.json").exists()
    assert verify_run(copy).error["code"] == "not-finished"  # type: ignore[index]


def test_an_anchor_moved_onto_a_call_that_changed_the_graph_is_tampering(copy: Path) -> None:
    """Only a call that left the graph as it was may carry the finish: a forged anchor on another is seen."""
    from cgx_core.audit.integrity import _finish_problem
    from cgx_core.run import log

    entries = log.scan(copy / "calls.jsonl", 0, 1, None).entries
    assert _finish_problem("run", entries) is None
    assert "changed the graph after any finish_run" in str(_finish_problem("run", entries[:-1]))

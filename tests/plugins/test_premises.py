"""Premises on a check (checks/premises.py): statements the agent reads into the paper, recorded as analyst
assumptions, and a reading of the target that the check observes, so a premise a reviewer rejects undoes the
check's effect. Shown with a third-party type installed as a distribution, so the engine's contract is what
any plugin meets."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cgx_core.checks.installed import build_plugin_manager, build_registry, check_types_scope
from cgx_core.report.integrity import Integrity, not_run
from cgx_core.report.model import build_report
from cgx_core.report.text import text_report
from cgx_core.testing import TINY_RECORDS, StartedRun

WORD = """
from cgx_core.plugin_api import CheckTypeBase, Outcome, Prepared, hookimpl


class Word(CheckTypeBase):
    name = "word"
    tool = "run_checks"
    description = "Passes when the target's text writes the word."
    proposal_schema = {"properties": {"word": {"type": "string"}}, "required": ["word"], "additionalProperties": False}
    accepts_premises = True

    def prepare(self, proposal, run):
        inputs = {"target": proposal["target"], "word": proposal["word"]}
        if "premises" in proposal:
            inputs["premises"] = proposal["premises"]
        return Prepared(proposal["target"], inputs)

    def run(self, prepared, run, *, model):
        return self.rerun(prepared.inputs, run)

    def rerun(self, inputs, run):
        text = run.node(inputs["target"]).text or ""
        found = inputs["word"] in text
        return Outcome("passed" if found else "failed", "written" if found else "not written")


@hookimpl
def cgx_register_check_types(register):
    register(Word())
"""

CHECKS = """
[checks.word]
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []

[checks.human-review]
targets = ["result", "assumption"]
sensitivity = "beta:9,1"
false_pass = "beta:1,9"
models = []
"""

PREMISE = "The realisations and the trials are the same quantity."


@pytest.fixture
def words(fake_distribution: Any, cgx_run: Callable[..., StartedRun]) -> Iterator[StartedRun]:
    fake_distribution("cgx-word", WORD)
    registry = build_registry(build_plugin_manager())
    assert registry.invalid == [], registry.invalid
    with check_types_scope(registry):
        run = cgx_run(rubric_extra=CHECKS)
        assert run.call("classify", records=TINY_RECORDS)["refused"] == []
        yield run
    registry.worker.close()


def graph(run: StartedRun) -> dict[str, Any]:
    from cgx_core.run.layout import RunPaths
    from cgx_core.run.state import read_state_json

    found: dict[str, Any] = read_state_json(RunPaths(run.path).state)["graph"]
    return found


def relations(run: StartedRun) -> set[tuple[str, str, str]]:
    return {(item["source"], item["type"], item["target"]) for item in graph(run)["relations"]}


def test_a_premised_check_observes_the_reading_of_its_target_with_its_premises(words: StartedRun) -> None:
    result = words.call(
        "run_checks", proposals=[{"type": "word", "target": "s-8", "word": "trials", "premises": [f"  {PREMISE} "]}]
    )
    assert result["refused"] == []
    assert [(check["id"], check["result"]) for check in result["checks"]] == [("c-001", "failed")]
    premise, reading = words.node("a-1"), words.node("a-2")
    assert (premise["kind"], premise["statement"], premise["attributes"]["origin"]) == (
        "assumption",
        PREMISE,
        "analyst",
    )
    assert (reading["kind"], reading["statement"]) == ("reading", "s-8, read with the premise a-1")
    assert reading["attributes"]["reading_of"] == "s-8"
    assert {
        ("s-8", "requires", "a-2"),
        ("a-1", "requires", "a-2"),
        ("a-2", "observes", "c-001"),
        ("c-001", "assesses", "s-8"),
    } <= relations(words)
    assert ("s-8", "observes", "c-001") not in relations(words)
    record = words.checks()[0]
    assert (record["target"], record["premises"], record["reading"]) == ("s-8", ["a-1"], "a-2")
    assert record["inputs"]["premises"] == [PREMISE]


def test_one_statement_is_one_premise_and_one_premise_set_one_reading(words: StartedRun) -> None:
    added = words.call("add_premises", records=[{"conclusion": "s-3", "premises": [{"statement": PREMISE}]}])
    assert added["refused"] == []
    proposals = [
        {"type": "word", "target": "s-8", "word": "trials", "premises": [PREMISE]},
        {"type": "word", "target": "s-3", "word": "samples", "premises": [PREMISE]},
    ]
    assert words.call("run_checks", proposals=proposals)["refused"] == []
    kinds = {node["id"]: node["kind"] for node in graph(words)["nodes"] if node["attributes"]["origin"] == "analyst"}
    # the add_premises statement a-1 is shared; one reading per target
    assert kinds == {"a-1": "assumption", "a-2": "reading", "a-3": "reading"}
    assert {("a-1", "requires", "s-3"), ("a-1", "requires", "a-2"), ("a-1", "requires", "a-3")} <= relations(words)


@pytest.mark.parametrize(
    ("premises", "code", "said"),
    [
        ([], "premises-invalid", "got 0 items"),
        ("one", "premises-invalid", "got a string"),
        ([PREMISE, PREMISE.replace(" ", "  ")], "premises-invalid", "written twice"),
        (["short"], "premises-invalid", "characters"),
        (["12345678 90"], "premises-invalid", "writes no word"),
        (["The cutoff is 0.755 for every value shown."], "premises-invalid", "0.755"),
    ],
)
def test_a_malformed_premise_is_refused_with_a_fix(words: StartedRun, premises: Any, code: str, said: str) -> None:
    result = words.call(
        "run_checks", proposals=[{"type": "word", "target": "s-8", "word": "trials", "premises": premises}]
    )
    [refused] = result["refused"]
    assert refused["code"] == code and said in refused["message"], refused
    assert refused["fix"]
    assert result["checks"] == []


def test_a_premise_may_name_a_number_the_target_writes(words: StartedRun) -> None:
    premise = "The 961 realisations are the trials the result counts."
    result = words.call("run_checks", proposals=[{"type": "word", "target": "s-8", "word": "x", "premises": [premise]}])
    assert result["refused"] == [], result["refused"]


def test_a_type_that_takes_no_premises_refuses_them(words: StartedRun) -> None:
    result = words.call("review", node="s-8", verdict="holds", reviewer="Ada", reason="read it", premises=[PREMISE])
    assert "error" in result or result["refused"], result


def test_a_rejected_premise_undoes_the_premised_failure(words: StartedRun) -> None:
    failed = {"type": "word", "target": "s-8", "word": "trials", "premises": [PREMISE]}
    assert words.call("run_checks", proposals=[failed])["checks"][0]["result"] == "failed"
    finished = words.call("finish_run")
    assert "error" not in finished, finished
    lowered = _credence(words, "s-8")
    assert lowered["after"] < lowered["before"]
    listed = json.loads((words.path / "report.json").read_bytes())["review"]["analyst_assumptions"]
    # the reading a-2 rests on s-8: it is no assumption, and the premise a-1 is named one of s-8
    assert [(item["node"], item["conclusions"]) for item in listed] == [("a-1", ["s-8"])]
    skipped = Integrity(not_run("the test skips it"), not_run("the test skips it"))
    text = text_report(build_report(words.path, skipped))
    assumptions = text.split("Assumptions to review")[1].split("Awaiting review")[0]
    assert f"a-1: {PREMISE} (needed by s-8)" in assumptions and "a-2" not in assumptions
    review = words.call("review", node="a-1", verdict="fails", reviewer="Ada", reason="they are different counts")
    assert review["refused"] == [], review
    assert "error" not in words.call("finish_run")
    restored = _credence(words, "s-8")
    # with the premise rejected the failure is explained by the premise: the target is nearly back at its prior
    assert abs(restored["after"] - restored["before"]) < abs(lowered["after"] - lowered["before"]) / 3
    assert graph(words)  # the run still verifies and replays byte for byte
    assert words.verify().checks == 2


def _credence(run: StartedRun, node_id: str) -> dict[str, Any]:
    report = json.loads((run.path / "report.json").read_bytes())
    entry: dict[str, Any] = report["credences"]["nodes"][node_id]
    return entry

"""Counting units declared in the rubric, from the units module to the tools: "120 C" is 120 of the count C
(never coulomb) in a run whose tolerances file declares it, each count its own dimension; the check records the
counts it read with, and verify refuses a record whose counts are not the run's."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cgx_checks.arithmetic.recompute import recompute
from cgx_checks.arithmetic.units import scale_of
from cgx_checks.recompute_numbers import RecomputeNumbers
from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.checks.view import JsonRunView
from cgx_core.errors import CgxError
from cgx_core.numbers import read_quantity
from cgx_core.numbers.counts import counting
from cgx_core.numbers.tolerances import run_tolerances
from cgx_core.testing import RUBRIC
from cgx_core.tooling.registry import call_tool
from support import listed_nodes

COUNTS = {"C": "C", "cell": "cell", "cells": "cell"}


def unit_of(text: str) -> Any:
    with counting(COUNTS):
        unit = read_quantity(text)[1]
    assert unit is not None
    return unit


def test_a_count_is_its_own_dimension_with_factor_one_and_never_a_pint_unit() -> None:
    assert scale_of(unit_of("1 C")) == (Fraction(1), (("[count:C]", 1),))  # not coulomb: [current]*[time]
    assert scale_of(unit_of("1 C/h")) == (Fraction(1, 3600), (("[count:C]", 1), ("[time]", -1)))
    assert scale_of(unit_of("1 cells")) == scale_of(unit_of("1 cell"))  # spellings of one count
    assert scale_of(unit_of("1 cells"))[1] != scale_of(unit_of("1 C"))[1]


TEXTS = ["We counted 120 C in 4 h, that is 30 C per hour.", "Of 120 cells, 20 cells died; 100 cells remained."]


def decided(expression: str, result: str, texts: list[str] = TEXTS) -> str:
    return recompute(expression, result, texts, counts=COUNTS).outcome


def test_counts_compute_as_counts() -> None:
    assert decided("120 C / 4 h", "30 C/h") == "passed"
    assert decided("120 C / (4 h)", "30 C per hour") == "passed"
    assert decided("120 cells - 20 cells", "100 cells") == "passed"
    assert decided("120 cells - 20 cells", "100 cell") == "passed"  # one count, two spellings
    wrong = ["We counted 120 C in 4 h, that is 40 C per hour."]
    assert decided("120 C / 4 h", "40 C/h", wrong) == "failed"


@pytest.mark.parametrize(
    ("expression", "result", "texts"),
    [
        ("120 C + 4 h", "30 C/h", TEXTS),  # a count never adds to a time
        ("120 C / 4 h", "30", ["We counted 120 C in 4 h: 30 each."]),  # nor drops out of the result
        ("120 C / 4 cells", "30", ["We counted 120 C on 4 cells: 30 each."]),  # two counts never cancel
        ("120 cells - 20 C", "100 cells", ["Of 120 cells, 20 C died; 100 cells remained."]),
    ],
)
def test_a_count_never_cancels_against_another_count_or_a_unit(expression: str, result: str, texts: list[str]) -> None:
    with pytest.raises(CgxError) as raised:
        recompute(expression, result, texts, counts=COUNTS)
    assert raised.value.code == "unit-incompatible", raised.value.message


def test_a_count_the_text_does_not_write_is_refused() -> None:
    """The agent cannot give a plain number of the text a count to make a result's unit come out right."""
    with pytest.raises(CgxError, match="gives units the text does not write") as raised:
        recompute("120 C / 4 h", "30 C/h", ["We counted 120 in 4 h, that is 30 C per hour."], counts=COUNTS)
    assert raised.value.code == "operand-not-in-text"
    with pytest.raises(CgxError, match="result 30 with the unit C/h is not written") as raised:
        recompute("120 C / 4 h", "30 C/h", ["We counted 120 C in 4 h, that is 30 per hour."], counts=COUNTS)
    assert raised.value.code == "operand-not-in-text"


def test_without_a_declaration_c_is_no_unit_and_the_refusal_says_where_to_declare_it() -> None:
    with pytest.raises(CgxError, match=r"\[counts\] table") as raised:
        recompute("120 C / 4 h", "30 C/h", TEXTS)
    assert raised.value.code == "expression-invalid"


# -- through the tools -----------------------------------------------------------------------------------

PAPER = r"""\documentclass{article}
\begin{document}
We plated the samples and counted 120 C in 4 h. Of the 120 cells seeded, 20 cells died.

Growth was 30 C per hour, 100 cells remained, and 25 C per hour were kept.
\end{document}
"""

CHECKS = """
[checks.recompute-numbers]
description = "Recompute the numbers a result states."
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""

TOLERANCES = '[rubric]\nname = "cgx-testing"\nversion = "1"\n\n[hedges]\n"about" = "10%"\n\n[counts]\n'


def start(tmp_path: Path, counts: str | None) -> tuple[Path, dict[str, Any]]:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir(parents=True)
    paper.write_text(PAPER, encoding="utf-8")
    rubric = tmp_path / "paper-rubric.toml"
    rubric.write_text(RUBRIC + CHECKS, encoding="utf-8")
    if counts is not None:
        (tmp_path / "paper-rubric.tolerances.toml").write_text(TOLERANCES + counts, encoding="utf-8")
    run = tmp_path / "run"
    args = {"run": str(run), "paper": str(paper), "rubric": str(rubric), "model": "m", "store_source": True}
    payload, _ = call_tool("start_run", args)
    return run, payload


def call(run: Path, tool: str, **arguments: Any) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"run": str(run), "model": "m", **arguments})
    return payload


def classified(tmp_path: Path, counts: str | None) -> tuple[Path, list[str], str]:
    run, started = start(tmp_path, counts)
    assert "error" not in started, started
    chunks = [chunk["id"] for chunk in listed_nodes(run, type="unassigned")]
    method, *results = chunks
    records = [{"node": method, "type": "method", "form": {"kind": "procedure"}}]
    records += [{"node": node, "type": "result", "rests_on": [method]} for node in results]
    assert call(run, "classify", records=records)["refused"] == []
    return run, chunks, results[-1]


def proposal(chunks: list[str], target: str, expression: str, result: str) -> dict[str, Any]:
    return {"type": "recompute-numbers", "target": target, "cites": chunks, "expression": expression, "result": result}


def inputs_of(run: Path, check_id: str) -> dict[str, Any]:
    state = json.loads((run / "state.json").read_bytes())
    node = next(item for item in state["graph"]["nodes"] if item["id"] == check_id)
    found: dict[str, Any] = node["attributes"]["check"]["inputs"]
    return found


DECLARED = 'units = ["C", ["cell", "cells"]]\n'


def test_counts_through_the_tools_record_replay_and_verify(tmp_path: Path) -> None:
    run, chunks, target = classified(tmp_path, DECLARED)
    proposals = [
        proposal(chunks, target, "120 C / 4 h", "30 C/h"),
        proposal(chunks, target, "120 cells - 20 cells", "100 cells"),
        proposal(chunks, target, "120 C / 4 h", "25 C/h"),
        proposal(chunks, target, "120 C + 4 h", "30 C/h"),
    ]
    answer = call(run, "run_checks", proposals=proposals)
    assert [check["result"] for check in answer["checks"]] == ["passed", "passed", "failed"], answer
    assert [refused["code"] for refused in answer["refused"]] == ["unit-incompatible"], answer["refused"]
    inputs = inputs_of(run, answer["checks"][0]["id"])
    assert inputs["count_units"] == {"C": "C", "cell": "cell", "cells": "cell"}
    again = call(run, "run_checks", proposals=[proposal(chunks, target, "120 C / (4 h)", "30 C per hour")])
    assert [refused["code"] for refused in again["refused"]] == ["check-duplicate"], again  # one slot, one count
    assert "error" not in call(run, "finish_run")
    assert replay(run, source=None, sources=None).identical
    verdict = verify_run(run)
    assert (verdict.error, verdict.differences, verdict.rerun) == (None, (), 3)


def test_a_record_whose_counts_differ_from_the_runs_table_is_tampered(tmp_path: Path) -> None:
    run, chunks, target = classified(tmp_path, DECLARED)
    [check] = call(run, "run_checks", proposals=[proposal(chunks, target, "120 C / 4 h", "30 C/h")])["checks"]
    assert check["result"] == "passed"
    inputs = inputs_of(run, check["id"])
    manifest = json.loads((run / "manifest.json").read_bytes())
    graph = json.loads((run / "state.json").read_bytes())["graph"]
    view = JsonRunView(graph, "verify", root=run, tolerances=run_tolerances(run, manifest))
    assert RecomputeNumbers().rerun(inputs, view).result == "passed"
    for changed in ({**inputs, "count_units": {"C": "C"}}, {k: v for k, v in inputs.items() if k != "count_units"}):
        outcome = RecomputeNumbers().rerun(changed, view)
        assert (outcome.result, outcome.code) == ("error", "tampered"), outcome
        assert "counting units" in outcome.detail


def test_start_run_tells_the_agent_the_counts_it_may_write_and_says_nothing_without_them(tmp_path: Path) -> None:
    _, declared = start(tmp_path / "declared", 'units = ["patients", ["cells", "cell"], "C"]\n')
    assert declared["count_units"] == [["C"], ["cells", "cell"], ["patients"]]  # each count's name first
    _, plain = start(tmp_path / "plain", None)
    assert "error" not in plain and "count_units" not in plain


def test_a_run_without_counts_records_none_and_refuses_a_count(tmp_path: Path) -> None:
    run, chunks, target = classified(tmp_path, None)
    answer = call(run, "run_checks", proposals=[proposal(chunks, target, "120 C / 4 h", "30 C/h")])
    assert [refused["code"] for refused in answer["refused"]] == ["expression-invalid"]
    assert "[counts]" in answer["refused"][0]["message"]
    [check] = call(run, "run_checks", proposals=[proposal(chunks, target, "120 - 20", "100")])["checks"]
    assert "count_units" not in inputs_of(run, check["id"])


def test_a_bad_counts_table_is_refused_by_start_run_and_nothing_is_written(tmp_path: Path) -> None:
    run, payload = start(tmp_path, 'units = ["C", "h", "C"]\n')
    assert payload["error"]["code"] == "tolerances-invalid"
    assert "'h' is already read as the unit hour" in payload["error"]["message"]
    assert "'C' is declared twice" in payload["error"]["message"]
    assert not run.exists()

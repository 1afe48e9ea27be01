"""A third-party check type in the plugin worker asks the run for its counting units (`RunView.count_units`,
API 1.2) through the worker's ask-bridge, and reads the paper with them through `plugin_api.counting`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cgx_core.checks.installed import build_plugin_manager, build_registry, check_types_scope
from cgx_core.checks.plugin_tasks import answer_view
from cgx_core.testing import StartedRun
from support import listed_nodes

PLUGIN = '''
from cgx_core.plugin_api import CheckTypeBase, Outcome, Prepared, counting, hookimpl, read_text


class CountUnit(CheckTypeBase):
    """Passes when the target's first numeral is a count of C."""

    name = "count-unit"
    tool = "run_checks"
    description = "Check that the target counts C."
    proposal_schema = {"properties": {}, "additionalProperties": False}

    def prepare(self, proposal, run):
        target = str(proposal["target"])
        counts = dict(sorted(run.count_units().items()))
        with counting(counts):
            units = [item.unit.text if item.unit else None for item in read_text(run.node(target).text)]
        return Prepared(target, {"target": target, "count_units": counts, "units": units})

    def run(self, prepared, run, *, model):
        counted = prepared.inputs["units"][:1] == ["count:C"]
        return Outcome("passed" if counted else "failed", f"units {prepared.inputs['units']}")


@hookimpl
def cgx_register_check_types(register):
    register(CountUnit())
'''

CHECK = '[checks.count-unit]\ntargets = ["result"]\nsensitivity = "beta:19,1"\nfalse_pass = "beta:1,9"\nmodels = []\n'
PAPER = "\\documentclass{article}\n\\begin{document}\nWe counted 120 C in 4 h.\n\\end{document}\n"
TABLE = '[rubric]\nname = "cgx-testing"\nversion = "1"\n\n[counts]\nunits = ["C", ["cell", "cells"]]\n'


def test_a_plugin_in_the_worker_reads_the_runs_counting_units(
    tmp_path: Path, fake_distribution: Any, cgx_run: Callable[..., StartedRun]
) -> None:
    fake_distribution("cgx-count-unit", PLUGIN)
    registry = build_registry(build_plugin_manager())
    assert registry.invalid == [], registry.invalid
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    (tmp_path / "rubric-0.tolerances.toml").write_text(TABLE, encoding="utf-8")  # beside cgx_run's first rubric
    try:
        with check_types_scope(registry):
            run = cgx_run(rubric_extra=CHECK, paper=paper)
            [chunk] = [node["id"] for node in listed_nodes(run.path, type="unassigned")]
            assert run.call("classify", records=[{"node": chunk, "type": "result"}])["refused"] == []
            [check] = run.call("run_checks", proposals=[{"type": "count-unit", "target": chunk}])["checks"]
            assert check["result"] == "passed", check
            record = run.node(check["id"])["attributes"]["check"]
            assert record["inputs"]["count_units"] == {"C": "C", "cell": "cell", "cells": "cell"}
            assert record["inputs"]["units"] == ["count:C", "hour"]
            assert "budget" in record["tool"], record["tool"]  # it ran in the worker, asking across the pipe
    finally:
        registry.worker.close()


def test_the_parent_answers_count_units_as_a_plain_dict() -> None:
    class View:
        def count_units(self) -> Any:
            from types import MappingProxyType

            return MappingProxyType({"C": "C"})  # a read-only mapping does not pickle: the answer is a dict

    answer = answer_view(View(), ("count_units",))
    assert answer == {"C": "C"} and type(answer) is dict

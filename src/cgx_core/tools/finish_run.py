"""finish_run: derive the verdicts, pass credencegraph's check, and write graph.json, rejections.json and
report.json. They exist only while the run is finished: a later changing call that changes the graph removes
them; one that changes nothing of it (every record or proposal refused) leaves the run finished, its
refusals added to rejections.json (`cgx_core.run.finished`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from credencegraph.core import dumps

from cgx_core.base.digests import bytes_digest
from cgx_core.checks.credences import credences, credences_result
from cgx_core.checks.installed import installed_check_types
from cgx_core.checks.verdicts import assess, gate, report
from cgx_core.run.call_control import progress
from cgx_core.run.finished import derived_json, rejections_bytes
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import CallContext

TOOL = "finish_run"


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    run = context.run
    rubric = run.rubric
    live = context.mode == "live"
    if live:
        progress(0, 3, "deriving the verdicts")
    graph = assess(state.graph, rubric, run.id, TOOL)
    if live:
        progress(1, 3, "checking the graph with credencegraph")
    gate(graph, rubric)
    if live:
        progress(2, 3, "computing the credences")
    graph_bytes = dumps(graph).encode("utf-8") + b"\n"
    registry = installed_check_types()
    another_source = {installed.check_type.name: installed.check_type.another_source_codes for installed in registry}
    summary = report(graph, rubric, state.rejections, context.seq, another_source)
    summary = {"run": run.id, "graph": bytes_digest(graph_bytes), **summary, "credences": credences(graph)}
    if "limits" in run.manifest["document"]:  # a PDF's: what the report's reader must know it lacks
        summary["document_limits"] = run.manifest["document"]["limits"]
    derived = {
        "graph.json": graph_bytes,
        "rejections.json": rejections_bytes(run.id, context.seq, state.rejections),
        "report.json": derived_json(summary),
    }
    result = {
        "finished": True,
        "graph": summary["graph"],
        "verdicts": summary["verdicts"],
        "untied_citation_checks": len(summary["untied_citation_checks"]),
        "references": {name: len(items) for name, items in summary["references"].items()},
        "uncalibrated": len(summary["uncalibrated"]),
        "review": {name: len(items) for name, items in summary["review"].items()},
        "credences": credences_result(summary["credences"]),
        "files": {name: bytes_digest(data) for name, data in derived.items()},
    }
    return Effect(graph=graph, result=result, finished=True, derived=derived)

"""finish_run: derive the verdicts, pass credencegraph's check, and write graph.json, rejections.json and
report.json. They exist only while the run is finished: a later changing call that changes the graph removes
them; one that changes nothing of it (every record or proposal refused) leaves the run finished, its
refusals added to rejections.json (`kept_finished`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs
from credencegraph.core import dumps

from cgx_core.base.digests import bytes_digest
from cgx_core.checks.credences import credences, credences_result
from cgx_core.checks.installed import installed_check_types
from cgx_core.checks.verdicts import assess, gate, report
from cgx_core.run.call_control import progress
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import CallContext

TOOL = "finish_run"


def _json(value: Any) -> bytes:
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n"


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
    rejections = {"run": run.id, "seq": context.seq, "rejections": list(state.rejections)}
    registry = installed_check_types()
    another_source = {installed.check_type.name: installed.check_type.another_source_codes for installed in registry}
    summary = report(graph, rubric, state.rejections, context.seq, another_source)
    summary = {"run": run.id, "graph": bytes_digest(graph_bytes), **summary, "credences": credences(graph)}
    if "limits" in run.manifest["document"]:  # a PDF's: what the report's reader must know it lacks
        summary["document_limits"] = run.manifest["document"]["limits"]
    derived = {
        "graph.json": graph_bytes,
        "rejections.json": _json(rejections),
        "report.json": _json(summary),
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


def kept_finished(context: CallContext, state: RunState, effect: Effect, tool: str) -> Effect:
    """The effect of a changing call on a finished run that left its graph as it was (every record or proposal
    refused): the run stays finished, graph.json and report.json are the finish's, and rejections.json gains
    the call's refusals. Any other effect is returned as it is.

    A refused call is logged with its refusals (the spec), and it used to reopen the run: the agent had to
    finish and verify it again for a call that changed nothing."""
    if (
        not state.finished
        or effect.finished
        or context.run.graph_digest(effect.graph) != context.run.graph_digest(state.graph)
    ):
        return effect
    added = [{"seq": context.seq, "tool": tool, **refusal} for refusal in effect.rejections]
    rejections = {"run": context.run.id, "seq": context.seq, "rejections": [*state.rejections, *added]}
    return attrs.evolve(effect, finished=True, derived={"rejections.json": _json(rejections)})

"""The example plugin `cgx-percent-of` (examples/plugins/percent-of), installed into the environment and
named nowhere in our code, is a first-class check type: start_run lists it, the manifest records its
version, the MCP tool description of run_checks teaches it, and run_checks runs it into a check node."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import metadata
from typing import Any

import anyio
from cgx_percent_of import PercentOf
from mcp import Client

from cgx_core.testing import StartedRun
from cgx_core.tooling.registry import call_tool
from cgx_mcp.server import build_server

CHECKS = """
[checks.percent-of]
description = "Recompute a stated percentage from the counts the paper gives."
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""

PROPOSAL = {"type": "percent-of", "target": "s-8", "cites": ["s-8", "s-2"], "part": "961", "whole": "1000"}


def test_start_run_lists_the_plugin_when_the_rubric_declares_it(cgx_run: Callable[..., StartedRun]) -> None:
    run = cgx_run(rubric_extra=CHECKS)
    [listed] = run.start["checks"]
    proposal = listed.pop("proposal")
    assert listed == {
        "name": "percent-of",
        "description": "Recompute a stated percentage from the counts the paper gives.",
        "targets": ["result"],
        "installed": True,
        "tool": "run_checks",
        "fallback_for": None,
    }
    # The schema of a proposal comes from the plugin itself: its fields, with type and target.
    assert proposal["required"] == ["type", "target", "part", "whole", "percent"]
    assert proposal["properties"]["type"]["enum"] == ["percent-of"]
    assert proposal["properties"]["percent"] == PercentOf.proposal_schema["properties"]["percent"]
    manifest = json.loads((run.path / "manifest.json").read_bytes())
    assert manifest["versions"]["check_types"]["percent-of"] == {
        "name": "percent-of",
        "distribution": "cgx-percent-of",
        "version": metadata.version("cgx-percent-of"),
        "tool": "run_checks",
        "fallback_for": None,
    }


def test_start_run_does_not_offer_it_when_the_rubric_does_not_declare_it(cgx_run: Callable[..., StartedRun]) -> None:
    assert cgx_run().start["checks"] == []


def test_the_mcp_description_of_run_checks_teaches_the_plugin() -> None:
    async def listing() -> dict[str, Any]:
        async with Client(build_server()) as client:
            return {tool.name: tool for tool in (await client.list_tools()).tools}

    found = anyio.run(listing)
    assert "percent-of" in (found["run_checks"].description or "")  # named; its prose is get_state describe's
    described, _ = call_tool("get_state", {"run": "any", "describe": "percent-of"})
    assert described["check_type"]["description"] == PercentOf.description
    branches = found["run_checks"].input_schema["properties"]["proposals"]["items"]["anyOf"]
    [branch] = [branch for branch in branches if branch["title"] == "percent-of"]
    assert branch["required"] == ["type", "target", "part", "whole", "percent"]
    assert "percent-of" not in (found["judge_citation"].description or "")
    assert "percent-of" not in json.dumps(found["judge_citation"].input_schema)


def test_run_checks_runs_the_plugin_into_a_check_node(cgx_run: Callable[..., StartedRun]) -> None:
    run = cgx_run(rubric_extra=CHECKS)
    records: list[dict[str, Any]] = [
        {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
        {"node": "s-8", "type": "result", "rests_on": ["s-2"]},
    ]
    assert run.call("classify", records=records)["refused"] == []
    result = run.call("run_checks", proposals=[{**PROPOSAL, "percent": "96%"}])
    assert result["refused"] == []
    [check] = result["checks"]
    assert (check["type"], check["target"], check["result"]) == ("percent-of", "s-8", "passed")
    state = json.loads((run.path / "state.json").read_bytes())["graph"]
    evidence = next(item for item in state["nodes"] if item["id"] == check["id"])
    assert evidence["kind"] == "percent-of"
    assert evidence["attributes"]["observed"] is True
    assert evidence["attributes"]["check"]["tool"]["plugin"] == {
        "distribution": "cgx-percent-of",
        "version": metadata.version("cgx-percent-of"),
    }
    [observes] = [item for item in state["relations"] if item["target"] == check["id"]]
    assert (observes["type"], observes["source"]) == ("observes", "s-8")
    assert sorted(path.name for path in (run.path / "checks" / check["id"]).iterdir()) == [
        "inputs.json",
        "log.txt",
        "output.json",
    ]

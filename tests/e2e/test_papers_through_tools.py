"""The four real papers through the tools an agent calls: start_run, classify, add_premises, then the
graph passes credencegraph's check at level typed, and rebuilding the run from its document and log gives
identical bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from credencegraph.core import graph_from_dict
from credencegraph.rubric import check_graph, load_rubric
from paper_scripts import SCRIPTS

from cgx_core.audit.replay import replay
from cgx_core.tooling.registry import call_tool
from support import ROOT, listed_nodes

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
    assert not is_error, payload
    return payload


def unassigned(run: Path) -> list[dict[str, Any]]:
    """Every chunk left to classify, read from get_state page by page, as an agent reads them."""
    return listed_nodes(run, type="unassigned")


@pytest.mark.parametrize("paper", sorted(SCRIPTS))
def test_a_real_paper_classified_through_the_tools_checks_and_replays_identically(
    papers: Path, tmp_path: Path, paper: str
) -> None:
    import json

    script = SCRIPTS[paper]
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(papers / paper / script["main"]), rubric=str(RUBRIC), store_source=True)
    scripted = {record["node"] for record in script["records"]}
    rest = [{"node": chunk["id"], "type": "context"} for chunk in unassigned(run) if chunk["id"] not in scripted]
    typed = call("classify", run=str(run), records=[*script["records"], *rest])
    assert typed["refused"] == []
    premised = call("add_premises", run=str(run), records=script["premises"])
    assert premised["refused"] == []
    assert len(premised["overflow"]) == 1
    state = json.loads((run / "state.json").read_bytes())
    graph = graph_from_dict(state["graph"])
    assert check_graph(graph, load_rubric(RUBRIC), "typed", rubric_credences=True) == []
    report = replay(run, source=None, sources=None)
    assert report.identical, report.body

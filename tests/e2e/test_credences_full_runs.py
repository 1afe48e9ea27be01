"""Each shared paper's full run (every chunk typed, premises shared as agents share them, checks and a
person's reviews; benchmarks/full_runs.py builds it through the tools by one rule for every paper):
finish_run credences every assessed node, exactly or with a recorded bound, and the run replays byte for
byte."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cgx_core.audit.replay import replay
from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from full_runs import MAIN_FILES, build_full_run


@pytest.mark.parametrize("paper", sorted(MAIN_FILES))
def test_a_full_run_credences_every_assessed_node_and_replays(paper: str, tmp_path: Path) -> None:
    run = tmp_path / "run"
    finished = build_full_run(paper, run)
    graph = json.loads((run / "graph.json").read_bytes())
    assessed = {node["id"] for node in graph["nodes"] if "assessment" in node["attributes"]}
    credences = json.loads((run / "report.json").read_bytes())["credences"]
    assert credences["missing"] == {} and finished["credences"]["missing"] == 0
    assert assessed <= set(credences["nodes"])
    for entry in credences["nodes"].values():
        assert 0.0 <= entry["after"] <= 1.0
        assert (entry["method"] == "exact") is ("bound" not in entry)
    failed = [node for node in graph["nodes"] if node["attributes"].get("assessment", {}).get("verdict") == "fails"]
    # own_checks is given only with exact credences: mlrc-cgn-repro's run, read whole (its largest clique holds
    # 21 variables, twice the exact budget's table), is estimated, each credence with its half-width
    exact = credences["nodes"][failed[0]["id"]]["method"] == "exact" if failed else None
    assert failed and all(("own_checks" in credences["nodes"][node["id"]]) is exact for node in failed)
    assert replay(run, source=None, sources=None).identical

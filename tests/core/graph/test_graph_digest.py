"""A run digests and writes its graph per node (`cgx_core.graph.digest`), through credencegraph 0.4.x's private
per-item writers, so a call costs O(what it changed). These tests prove that the per-node JSON is
credencegraph's own `graph_to_dict`, and that the digest state.json is checked by (computed from JSON,
without credencegraph) is the digest the run logs, on the committed example run's finished graph."""

from __future__ import annotations

import json

from credencegraph.core import graph_from_dict, graph_to_dict

from cgx_core.base.digests import graph_json_digest
from cgx_core.graph.digest import GraphDigester
from support import ROOT

GRAPH = ROOT / "examples" / "end-to-end" / "run" / "graph.json"


def test_the_graph_written_per_node_is_credencegraphs_own_json() -> None:
    graph = graph_from_dict(json.loads(GRAPH.read_text(encoding="utf-8")))
    written = json.loads(GraphDigester().graph_json(graph))
    assert written == graph_to_dict(graph)
    assert len(written["nodes"]) > 10 and written["relations"]


def test_the_digest_from_objects_equals_the_digest_from_json() -> None:
    graph = graph_from_dict(json.loads(GRAPH.read_text(encoding="utf-8")))
    digester = GraphDigester()
    from_objects = digester.digest(graph)
    assert from_objects == graph_json_digest(json.loads(digester.graph_json(graph)))
    assert digester.digest(graph) == from_objects  # the cached per-node digests give the same answer
    logged = [json.loads(line) for line in (GRAPH.parent / "calls.jsonl").read_text(encoding="utf-8").splitlines()]
    assert from_objects in json.dumps(logged[-1])  # finish_run's line records this graph's digest

"""A run digests and writes its graph per node (`cgx_core.graph.digest`), through credencegraph 0.4.x's private
per-item writers, so a call costs O(what it changed). These tests prove that the per-node JSON is
credencegraph's own `graph_to_dict`, and that the digest state.json is checked by (computed from JSON,
without credencegraph) is the digest the run logs, on the committed example run's finished graph."""

from __future__ import annotations

import json
from typing import Any

from credencegraph.core import Graph, graph_from_dict, graph_to_dict

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


def _example() -> tuple[Graph, dict[str, Any]]:
    stored = json.loads(GraphDigester().graph_json(graph_from_dict(json.loads(GRAPH.read_text(encoding="utf-8")))))
    return graph_from_dict(stored), stored


def test_adopting_the_json_a_graph_was_built_from_gives_the_digest_and_text_of_the_graph_itself() -> None:
    graph, stored = _example()
    expected = GraphDigester().digest(graph)
    digester = GraphDigester()
    assert digester.adopt(graph, stored, expected)
    assert digester.digest(graph) == expected
    assert digester.graph_json(graph) == GraphDigester().graph_json(graph)


def test_json_that_is_not_the_logged_graph_is_not_adopted() -> None:
    graph, stored = _example()
    expected = GraphDigester().digest(graph)
    digester = GraphDigester()
    assert not digester.adopt(graph, stored, "sha256:" + "0" * 64)
    nodes = stored["nodes"]
    edited = {**stored, "nodes": [{**nodes[0], "statement": nodes[0]["statement"] + " (edited)"}, *nodes[1:]]}
    assert not digester.adopt(graph, edited, expected)
    shuffled = {**stored, "nodes": [*nodes[1:], nodes[0]]}  # the same items, each given to another node
    assert not digester.adopt(graph, shuffled, GraphDigester().digest(graph_from_dict(shuffled)))
    assert not digester.adopt(graph, {"nodes": "broken"}, expected)
    assert digester.digest(graph) == expected  # nothing wrong was remembered

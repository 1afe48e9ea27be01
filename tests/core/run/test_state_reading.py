"""A call in a new process reads state.json and checks it against the digest its log line recorded, from the
JSON as read (`GraphDigester.adopt`): an intact state.json is taken as it is, one whose JSON differs only in
ways the graph does not keep (the order of a node's own keys, the layout) names the same graph and is taken too, and the
runs go on to replay identically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.graph import digest
from cgx_core.run import transaction
from support import EXAMPLE_RECORDS, call, start_example

RETYPE = [{"node": "s-09", "type": "assumption"}]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "run"
    start_example(root, store_source=True)
    call(root, "classify", records=EXAMPLE_RECORDS)
    for cache in ("_STATES", "_DIGESTERS", "_CHAINS"):  # as a new process finds them
        monkeypatch.setattr(transaction, cache, {})
    return root


def test_an_intact_state_json_is_taken_as_read(run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nodes = json.loads((run / "state.json").read_bytes())["graph"]["nodes"]
    serialised: list[str] = []

    def node_json(node: Any) -> dict[str, Any]:
        serialised.append(node.id)
        return original(node)

    original = digest.node_json
    monkeypatch.setattr(digest, "node_json", node_json)
    result = call(run, "classify", records=RETYPE)
    assert "recovery" not in result, result
    # Only what the call changed was serialised: the rest kept the text it was read with.
    assert 0 < len(serialised) < len(nodes) // 4, serialised
    assert "s-09" in serialised
    texts = [json.dumps(node, separators=(",", ":"), ensure_ascii=False).encode() for node in nodes]
    assert sum(text in (run / "state.json").read_bytes() for text in texts) >= len(nodes) - len(serialised)
    assert replay(run, source=None, sources=None).identical


def reordered(graph: dict[str, Any]) -> dict[str, Any]:
    """The graph with each node's and relation's own keys in reverse order (credencegraph writes them in its
    order whatever it read; an attribute's keys are another matter: their order is part of the graph)."""
    return {
        **graph,
        "nodes": [{key: node[key] for key in reversed(node)} for node in graph["nodes"]],
        "relations": [{key: relation[key] for key in reversed(relation)} for relation in graph["relations"]],
    }


def test_a_state_json_in_another_key_order_and_layout_is_the_same_state(run: Path) -> None:
    state = json.loads((run / "state.json").read_bytes())
    (run / "state.json").write_text(json.dumps({**state, "graph": reordered(state["graph"])}, indent=2))
    result = call(run, "classify", records=RETYPE)
    assert "recovery" not in result, result
    assert replay(run, source=None, sources=None).identical

"""What finish_run records of each credence (checks/credences.py), against credencegraph's own exact
inference: what moved it, its credence given its own checks alone, and the shared assumptions."""

from __future__ import annotations

import pytest
from credencegraph.core import Graph, Node, Relation
from credencegraph.inference import conditional
from credencegraph.semantics import compile_graph

from cgx_core.checks.credences import credences

FAILS = {"origin": "document", "assessment": {"verdict": "fails"}}
HOLDS = {"origin": "document", "assessment": {"verdict": "holds"}}


def shared_assumption_graph() -> tuple[Graph, dict[str, bool]]:
    """An analyst assumption a-1 under two results; s-1 fails its check, s-2 (resting on s-1) passes, s-3
    has no check of its own: only the shared assumption carries s-1's failure to it."""
    graph = Graph()
    graph.add_node(Node("a-1", kind="assumption", base=0.8, attributes={"origin": "analyst"}))
    graph.add_node(Node("s-1", kind="result", base=0.8, attributes=FAILS))
    graph.add_node(Node("s-2", kind="result", base=0.8, attributes=HOLDS))
    graph.add_node(
        Node(
            "s-3",
            kind="result",
            base=0.8,
            attributes={"origin": "document", "assessment": {"verdict": "not_assessed", "reason": "not selected"}},
        )
    )
    for conclusion in ("s-1", "s-3"):
        graph.add_relation(Relation(f"a-1-{conclusion}", "requires", "a-1", conclusion, strength=0.9))
    graph.add_relation(Relation("s-1-s-2", "requires", "s-1", "s-2", strength=0.9))
    observed = {"c-001": False, "c-002": True}
    for check, target in (("c-001", "s-1"), ("c-002", "s-2")):
        graph.add_node(Node(check, kind="check", attributes={"origin": "evidence", "observed": observed[check]}))
        graph.add_relation(Relation(f"{target}-{check}", "observes", target, check, sensitivity=0.85, false_pass=0.15))
    return graph, observed


def test_each_entry_is_what_credencegraphs_own_inference_says() -> None:
    graph, observed = shared_assumption_graph()
    network = compile_graph(graph)
    found = credences(graph)
    assert found["missing"] == {} and set(found["nodes"]) == {"a-1", "s-1", "s-2", "s-3"}
    s1 = found["nodes"]["s-1"]
    alone = conditional(network, "s-1", {"c-001": False}, draws=0).point
    assert s1["own_checks"] == pytest.approx(alone, abs=5e-6)
    assert s1["after"] > s1["own_checks"]  # the step resting on it passed: it rises from its own checks' value
    for node_id, entry in found["nodes"].items():
        assert entry["after"] == pytest.approx(conditional(network, node_id, observed, draws=0).point, abs=5e-6)
        for mover in entry.get("moved_by", ()):
            rest = {check: value for check, value in observed.items() if check != mover["check"]}
            without = conditional(network, node_id, rest, draws=0).point
            assert mover["by"] == pytest.approx(entry["after"] - without, abs=5e-6)
    assert [mover["check"] for mover in found["nodes"]["s-1"]["moved_by"]] == ["c-001", "c-002"]
    assert found["nodes"]["s-1"]["moved_by"][0]["by"] < 0 < found["nodes"]["s-1"]["moved_by"][1]["by"]


def test_a_node_moved_through_a_shared_assumption_is_marked() -> None:
    graph, _ = shared_assumption_graph()
    found = credences(graph)["nodes"]
    assert found["s-3"]["shared"] == ["a-1"]  # no check of its own; a-1 carried s-1's failure to it
    assert found["s-3"]["after"] < found["s-3"]["before"]
    assert found["s-2"]["shared"] == ["a-1"]  # through s-1
    assert "shared" not in found["a-1"]

"""The fast graph edits equal the validated rebuild they replace (they copy credencegraph's private indexes)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from credencegraph.core import Graph, Node, Relation, graph_from_dict, graph_to_dict

from cgx_core.graph.edit import copy_graph, replace_nodes, without_relations
from support import EXAMPLE_RECORDS, call, start_example


def rebuilt(graph: Graph) -> Graph:
    return graph_from_dict(graph_to_dict(graph))


def classified(tmp_path: Path) -> Graph:
    import json

    run = tmp_path / "run"
    start_example(run)
    call(run, "classify", records=EXAMPLE_RECORDS)
    return graph_from_dict(json.loads((run / "state.json").read_bytes())["graph"])


def test_copies_and_edits_equal_the_validated_rebuild_and_keep_the_cycle_check(tmp_path: Path) -> None:
    graph = classified(tmp_path)
    copied = copy_graph(graph)
    assert graph_to_dict(copied) == graph_to_dict(graph)
    assert copied._acyclic_out == rebuilt(graph)._acyclic_out
    node = graph.nodes["s-12"]
    edited = replace_nodes(graph, {"s-12": dataclasses.replace(node, statement="Changed.")})
    assert graph_to_dict(edited) == graph_to_dict(rebuilt(edited))
    assert edited._acyclic_out == rebuilt(edited)._acyclic_out
    assert graph.nodes["s-12"].statement != "Changed."  # the original is untouched
    relation = next(iter(graph.relations))
    smaller = without_relations(graph, [relation])
    assert relation not in smaller.relations
    assert smaller._acyclic_out == rebuilt(smaller)._acyclic_out
    # the copy still refuses a cycle, as the original would
    copied.add_node(Node("x", kind="claim"))
    copied.add_relation(Relation("x-requires-s-12", "requires", "x", "s-12", strength=0.9))
    try:
        copied.add_relation(Relation("s-12-requires-x", "requires", "s-12", "x", strength=0.9))
    except Exception as error:  # credencegraph's CycleError
        assert "cycle" in str(error)
    else:
        raise AssertionError("the copy accepted a cycle")
    assert "x" not in graph.nodes

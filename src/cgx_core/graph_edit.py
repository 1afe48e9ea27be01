"""Replacing nodes and dropping relations: credencegraph's Graph has no replace or remove.

Edits rebuild the graph in its order, reusing every untouched node and relation object (which keeps
GraphDigester's per-object cache warm) and re-validating through `Graph.add_node`/`add_relation`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from credencegraph.core import Graph, Node


def replace_nodes(graph: Graph, replaced: Mapping[str, Node]) -> Graph:
    """The graph with some nodes swapped for new versions of themselves (same ids, same places)."""
    if not replaced:
        return graph
    out = Graph()
    for node in graph:
        out.add_node(replaced.get(node.id, node))
    for relation in graph.relations.values():
        out.add_relation(relation)
    return out


def without_relations(graph: Graph, relation_ids: Collection[str]) -> Graph:
    """The graph without some relations."""
    if not relation_ids:
        return graph
    out = Graph()
    for node in graph:
        out.add_node(node)
    for relation in graph.relations.values():
        if relation.id not in relation_ids:
            out.add_relation(relation)
    return out


def copy_graph(graph: Graph) -> Graph:
    """A new graph with the same nodes and relations, to add to without touching the original."""
    out = Graph()
    for node in graph:
        out.add_node(node)
    for relation in graph.relations.values():
        out.add_relation(relation)
    return out

"""The edits credencegraph's `Graph` lacks: replace a node or relation, drop relations, append nodes.

credencegraph's own edits (`split_node`, `annotate_node`) are pure and rebuild the graph; these do the
same, in the graph's order, reusing every untouched node and relation object (which keeps the run's
per-object digest cache warm) and re-validating through `Graph.add_node` and `Graph.add_relation`.
Replacing and dropping come from `cgx_core.graph.edit`, shared with the check engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from credencegraph.core import Graph, Node, Relation

from cgx_core.graph.edit import replace_nodes, without_relations

__all__ = ["appended", "replace_node", "replace_nodes", "replace_relations", "without_relations"]


def replace_node(graph: Graph, node: Node) -> Graph:
    """The graph with the node of the same id swapped for `node`, in the same place.

    credencegraph has no API to set `stated` or to clear a node: this is how both are done.
    """
    return replace_nodes(graph, {node.id: node})


def replace_relations(graph: Graph, replaced: Mapping[str, Relation]) -> Graph:
    """The graph with some relations swapped for new versions of themselves (same ids, same places)."""
    if not replaced:
        return graph
    out = Graph()
    for node in graph:
        out.add_node(node)
    for relation in graph.relations.values():
        out.add_relation(replaced.get(relation.id, relation))
    return out


def appended(graph: Graph, nodes: Sequence[Node] = (), relations: Sequence[Relation] = ()) -> Graph:
    """A copy of the graph with `nodes` added after its last node and `relations` after its last relation."""
    out = Graph()
    for node in [*graph, *nodes]:
        out.add_node(node)
    for relation in [*graph.relations.values(), *relations]:
        out.add_relation(relation)
    return out

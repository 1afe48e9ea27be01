"""The edits credencegraph's `Graph` lacks: replace nodes or relations, drop relations, append nodes.

credencegraph's own edits (`split_node`, `annotate_node`) are pure and rebuild the graph; these do the
same, in the graph's order, reusing every untouched node and relation object (which keeps GraphDigester's
per-object cache warm). Re-adding every relation through `Graph.add_relation` would re-run its cycle check
on the whole graph for each edit, which dominated a call's cost; so when the edit cannot change what that
check guards (the same node ids, a subset of the relations), the graph's indexes are copied instead. That
reaches into credencegraph 0.4.x's private fields (`_nodes`, `_relations`, `_acyclic_out`), pinned with
the 0.4 series; tests/core/graph/test_graph_edit.py proves the copy equals the validated rebuild, so a change in
a 0.4.x release is caught. Replacing relations and appending re-validate through `Graph.add_relation`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from credencegraph.core import Graph, Node, Relation


def _clone(graph: Graph, replaced: Mapping[str, Node], dropped: Collection[str] = ()) -> Graph:
    """The copy, made by the dictionaries' own copies (in C): a call edits a few items of a graph of
    thousands, and a copy walked item by item in Python grew each call's cost with the paper. Only the edge
    lists of the dropped relations' sources are filtered; the others are copied, since `add_relation` on the
    copy appends to them."""
    out = Graph()
    out._nodes = dict(graph._nodes)
    out._nodes.update(replaced)  # every id is already a key: the order stays the graph's
    out._relations = dict(graph._relations)
    out._acyclic_out = dict(zip(graph._acyclic_out, map(list, graph._acyclic_out.values()), strict=True))
    if dropped:
        gone = frozenset(dropped)
        for relation_id in gone:
            relation = out._relations.pop(relation_id, None)
            if relation is not None and relation.source in out._acyclic_out:
                edges = out._acyclic_out[relation.source]
                out._acyclic_out[relation.source] = [edge for edge in edges if edge[0] not in gone]
    return out


def replace_nodes(graph: Graph, replaced: Mapping[str, Node]) -> Graph:
    """The graph with some nodes swapped for new versions of themselves (same ids, same places)."""
    if not replaced:
        return graph
    unknown = [node_id for node_id in replaced if node_id not in graph.nodes or replaced[node_id].id != node_id]
    if unknown:
        raise KeyError(f"replace_nodes: no node {unknown} to replace, or a replacement with another id")
    return _clone(graph, replaced)


def without_relations(graph: Graph, relation_ids: Collection[str]) -> Graph:
    """The graph without some relations (removing one can never close a cycle)."""
    if not relation_ids:
        return graph
    return _clone(graph, {}, frozenset(relation_ids))


def copy_graph(graph: Graph) -> Graph:
    """A new graph with the same nodes and relations, to add to without touching the original."""
    return _clone(graph, {})


def replace_node(graph: Graph, node: Node) -> Graph:
    """The graph with the node of the same id swapped for `node`, in the same place.

    credencegraph has no API to set `stated` or to clear a node: this is how both are done.
    """
    return replace_nodes(graph, {node.id: node})


def replace_relations(graph: Graph, replaced: Mapping[str, Relation]) -> Graph:
    """The graph with some relations swapped for new versions of themselves (same ids, same places)."""
    if not replaced:
        return graph
    return _built(graph, [replaced.get(relation.id, relation) for relation in graph.relations.values()])


def appended(graph: Graph, nodes: Sequence[Node] = (), relations: Sequence[Relation] = ()) -> Graph:
    """A copy of the graph with `nodes` added after its last node and `relations` after its last relation."""
    return _built([*graph, *nodes], [*graph.relations.values(), *relations])


def _built(nodes: Iterable[Node], relations: Iterable[Relation]) -> Graph:
    """A graph of these nodes and relations, each validated by credencegraph as it is added."""
    out = Graph()
    for node in nodes:
        out.add_node(node)
    for relation in relations:
        out.add_relation(relation)
    return out

"""Graph identity: the digest of a credencegraph graph, computed per node so a call costs O(changes).

A run digests the graph after every call. Serialising the whole graph just to hash it would make a call's
cost grow with the graph; instead each node and relation is digested once, from the same JSON
credencegraph writes for it, and the graph's digest combines those digests in graph order. The cache is
keyed by object identity: credencegraph's edits are pure and reuse the objects of unchanged nodes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from credencegraph.core import Graph, Node, Relation

# credencegraph 0.4.x writes one node or relation through these helpers; graph_to_dict is built from them,
# and tests/core/test_graphs.py proves the two agree, so a change in a 0.4.x release is caught.
from credencegraph.core.serialization import _node_to_dict, _relation_to_dict

from cgx_core.digests import PREFIX


def node_json(node: Node) -> dict[str, Any]:
    """The JSON credencegraph writes for a node."""
    data: dict[str, Any] = _node_to_dict(node)
    return data


def relation_json(relation: Relation) -> dict[str, Any]:
    """The JSON credencegraph writes for a relation."""
    data: dict[str, Any] = _relation_to_dict(relation)
    return data


def _ordered_json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


class GraphDigester:
    """Digests graphs, remembering the digest of every node and relation it has seen."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[object, bytes]] = {}

    def _item(self, item: Node | Relation) -> bytes:
        cached = self._seen.get(id(item))
        if cached is not None and cached[0] is item:
            return cached[1]
        data = node_json(item) if isinstance(item, Node) else relation_json(item)
        # In credencegraph's own key order (not sorted): that order reaches graph.json's bytes, so a rebuild
        # that orders an attribute's keys differently must diverge at the call that did it.
        digest = hashlib.sha256(_ordered_json(data)).digest()
        self._seen[id(item)] = (item, digest)
        return digest

    def digest(self, graph: Graph) -> str:
        """`sha256:` of the node digests then the relation digests, in graph order."""
        hasher = hashlib.sha256(b"credencegraph-extract graph 1\n")
        for node in graph.nodes.values():
            hasher.update(b"n" + self._item(node))
        for relation in graph.relations.values():
            hasher.update(b"r" + self._item(relation))
        if len(self._seen) > 4 * (len(graph.nodes) + len(graph.relations)) + 1024:
            self._forget(graph)
        return PREFIX + hasher.hexdigest()

    def _forget(self, graph: Graph) -> None:
        """Drop what the current graph no longer holds, so a long session keeps bounded memory."""
        live = {id(item) for item in (*graph.nodes.values(), *graph.relations.values())}
        self._seen = {key: value for key, value in self._seen.items() if key in live}


def plain(value: Any) -> Any:
    """A credencegraph attribute value as plain JSON types: its frozen mappings become dicts, tuples lists."""
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value

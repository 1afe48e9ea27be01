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
# and tests/core/graph/test_graph_digest.py proves the two agree, so a change in a 0.4.x release is caught.
from credencegraph.core.serialization import FORMAT as GRAPH_FORMAT
from credencegraph.core.serialization import VERSION as GRAPH_VERSION
from credencegraph.core.serialization import _node_to_dict, _relation_to_dict

from cgx_core.base.digests import GRAPH_DIGEST_HEADER, PREFIX


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
    """Digests graphs and writes their JSON, remembering each node's and relation's text and digest.

    The text is the JSON credencegraph writes for the item, compact and in its own key order (not sorted:
    that order reaches graph.json's bytes, so a rebuild that orders an attribute's keys differently must
    diverge at the call that did it). state.json is written by joining these texts, so a call serialises
    only what it changed.
    """

    def __init__(self) -> None:
        self._seen: dict[int, tuple[object, bytes, bytes]] = {}

    def _item(self, item: Node | Relation) -> tuple[bytes, bytes]:
        cached = self._seen.get(id(item))
        if cached is not None and cached[0] is item:
            return cached[1], cached[2]
        text = _ordered_json(node_json(item) if isinstance(item, Node) else relation_json(item))
        digest = hashlib.sha256(text).digest()
        self._seen[id(item)] = (item, text, digest)
        return text, digest

    def digest(self, graph: Graph) -> str:
        """`sha256:` of the node digests then the relation digests, in graph order."""
        item = self._item
        nodes = b"".join(b"n" + item(node)[1] for node in graph.nodes.values())
        relations = b"".join(b"r" + item(relation)[1] for relation in graph.relations.values())
        hasher = hashlib.sha256(GRAPH_DIGEST_HEADER + nodes + relations)
        if len(self._seen) > 4 * (len(graph.nodes) + len(graph.relations)) + 1024:
            self._forget(graph)
        return PREFIX + hasher.hexdigest()

    def adopt(self, graph: Graph, stored: Mapping[str, Any], expected: str) -> bool:
        """Whether `stored`, the JSON `graph` was just built from (state.json's), digests to `expected`; when
        it does, its items' texts become those of the graph's nodes and relations, in order.

        A call in a new process checks state.json against the digest its log line recorded. Digesting the
        JSON it read costs a third of digesting the built graph (no credencegraph serialisation), and when
        it matches, that JSON is, item for item, the text this class wrote for the graph the line left: the
        text a graph built from it writes back. So the call's own digest and state.json then serialise only
        what it changed. The ids are checked item by item, so no text is given to another item.
        """
        try:
            nodes = [_ordered_json(node) for node in stored["nodes"]]
            relations = [_ordered_json(relation) for relation in stored["relations"]]
            ids = [item["id"] for item in (*stored["nodes"], *stored["relations"])]
        except (KeyError, TypeError, ValueError):
            return False
        items = [*graph.nodes.values(), *graph.relations.values()]
        if [item.id for item in items] != ids:
            return False
        digests = [hashlib.sha256(text).digest() for text in (*nodes, *relations)]
        marks = [b"n"] * len(nodes) + [b"r"] * len(relations)
        combined = b"".join(mark + digest for mark, digest in zip(marks, digests, strict=True))
        if PREFIX + hashlib.sha256(GRAPH_DIGEST_HEADER + combined).hexdigest() != expected:
            return False
        for item, text, digest in zip(items, (*nodes, *relations), digests, strict=True):
            self._seen[id(item)] = (item, text, digest)
        return True

    def graph_json(self, graph: Graph) -> bytes:
        """The graph as compact JSON, equal (as JSON) to credencegraph's `graph_to_dict`."""
        nodes = b",".join(self._item(node)[0] for node in graph.nodes.values())
        relations = b",".join(self._item(relation)[0] for relation in graph.relations.values())
        head = _ordered_json({"format": GRAPH_FORMAT, "version": GRAPH_VERSION})[:-1]
        return head + b',"nodes":[' + nodes + b'],"relations":[' + relations + b"]}"

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

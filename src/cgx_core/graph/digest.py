"""Graph identity: the digest of a credencegraph graph, computed per node so a call costs O(changes).

A run digests the graph after every call. Serialising the whole graph just to hash it would make a call's
cost grow with the graph; instead each node and relation is digested once, from the same JSON
credencegraph writes for it, and the graph's digest combines those digests in graph order. The cache is
keyed by object identity: credencegraph's edits are pure and reuse the objects of unchanged nodes.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import operator
from collections.abc import Collection, Iterator, Mapping
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

    The caches are keyed by `id()`, and `_held` holds each item they name, so an id in them can never be
    another object's (the item cannot be freed while its entry lives; entries are dropped only together, by
    `_bound`). That lets a graph's walk run in C (`map` over the ids, `dict.get` for each digest or text): a
    replay digests the whole graph after every call, and a walk in Python, one lookup per item, was most of
    what replay added to applying the calls. Only the items a call created are serialised and hashed.
    """

    def __init__(self) -> None:
        self._held: dict[int, object] = {}
        """By id: the item itself, which keeps its id from being reused while the entries below live."""
        self._texts: dict[int, bytes] = {}
        """By id: the item's text."""
        self._marked: dict[int, bytes] = {}
        """By id: the item's mark (`n` for a node, `r` for a relation) and the sha256 of its text."""
        self._last: dict[str, tuple[list[Node] | list[Relation], list[bytes]]] = {}
        """By the list made (node digests, relation texts, ...): the items it was last made for, and their
        entries, in order. It holds the items, so their ids stay theirs."""

    def _entries(
        self, key: str, table: dict[int, bytes], items: Collection[Node] | Collection[Relation]
    ) -> list[bytes]:
        """`table`'s entries for `items`, in order; the items not seen before (a call's new nodes and relations,
        a few) are serialised and hashed first.

        A call's graph holds most of the items of the graph before it at the same places, so the entries are
        first taken from the list last made under `key`, place by place where the item is the very same object
        (`is`, so an entry is never another item's); only the items at other places are looked up by id. Every
        pass over the items runs in C."""
        ordered = list(items)
        last_items, last_entries = self._last.get(key, ([], []))
        same = bytes(map(operator.is_, ordered, last_items))  # 1 where the item is the one last made for
        if 4 * same.count(0) > len(same):  # another graph than the last one's successor: look every item up
            entries = self._looked_up(table, ordered)
        else:
            entries = last_entries[: len(same)]
            index = same.find(0)
            while index >= 0:
                entries[index] = self._looked_up(table, [ordered[index]])[0]
                index = same.find(0, index + 1)
            entries += self._looked_up(table, ordered[len(same) :])
        self._last[key] = (ordered, entries)
        return entries

    def _looked_up(self, table: dict[int, bytes], items: list[Node] | list[Relation]) -> list[bytes]:
        """`table`'s entries for `items` by id, serialising and hashing the items not seen before."""
        ids = list(map(id, items))
        found = list(map(table.get, ids))
        if None in found:
            for index in itertools.compress(range(len(found)), map(operator.is_, found, itertools.repeat(None))):
                self._learn(items[index], _text_of(items[index]))
                found[index] = table[ids[index]]
        return found  # type: ignore[return-value]

    def _learn(self, item: Node | Relation, text: bytes) -> None:
        key = id(item)
        self._held[key] = item
        self._texts[key] = text
        self._marked[key] = (b"n" if isinstance(item, Node) else b"r") + hashlib.sha256(text).digest()

    def digest(self, graph: Graph) -> str:
        """`sha256:` of the node digests then the relation digests, in graph order, each digest after its
        mark (`n` or `r`)."""
        hasher = hashlib.sha256(GRAPH_DIGEST_HEADER)
        hasher.update(b"".join(self._entries("node digests", self._marked, graph.nodes.values())))
        hasher.update(b"".join(self._entries("relation digests", self._marked, graph.relations.values())))
        self._bound(graph)
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
        marks = [b"n"] * len(nodes) + [b"r"] * len(relations)
        marked = [mark + hashlib.sha256(text).digest() for mark, text in zip(marks, (*nodes, *relations), strict=True)]
        if PREFIX + hashlib.sha256(GRAPH_DIGEST_HEADER + b"".join(marked)).hexdigest() != expected:
            return False
        for item, text in zip(items, (*nodes, *relations), strict=True):
            self._learn(item, text)
        return True

    def graph_json(self, graph: Graph, *, before: bytes = b"", after: bytes = b"") -> bytes:
        """The graph as compact JSON, equal (as JSON) to credencegraph's `graph_to_dict`, between `before`
        and `after`. One join makes the whole text: on a long paper each copy of megabytes (and the fresh
        pages it touches) cost more than the rest of writing state.json."""
        nodes = self._entries("node texts", self._texts, graph.nodes.values())
        relations = self._entries("relation texts", self._texts, graph.relations.values())
        head = _ordered_json({"format": GRAPH_FORMAT, "version": GRAPH_VERSION})[:-1]
        return b"".join(
            itertools.chain(
                (before, head, b',"nodes":['),
                _comma_separated(nodes),
                (b'],"relations":[',),
                _comma_separated(relations),
                (b"]}", after),
            )
        )

    def _bound(self, graph: Graph) -> None:
        """Drop what the current graph no longer holds once the caches are well beyond its size, so a long
        session keeps bounded memory."""
        if len(self._held) > 4 * (len(graph.nodes) + len(graph.relations)) + 1024:
            live = set(map(id, graph.nodes.values())) | set(map(id, graph.relations.values()))
            self._held = {key: value for key, value in self._held.items() if key in live}
            self._texts = {key: value for key, value in self._texts.items() if key in live}
            self._marked = {key: value for key, value in self._marked.items() if key in live}


def _comma_separated(texts: list[bytes]) -> Iterator[bytes]:
    """The texts with a comma between each two, as an iterator (walked in C) for one join."""
    return itertools.islice(itertools.chain.from_iterable(zip(itertools.repeat(b","), texts)), 1, None)


def _text_of(item: Node | Relation) -> bytes:
    """The JSON credencegraph writes for the item, compact, in its own key order."""
    return _ordered_json(node_json(item) if isinstance(item, Node) else relation_json(item))


def plain(value: Any) -> Any:
    """A credencegraph attribute value as plain JSON types: its frozen mappings become dicts, tuples lists."""
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value

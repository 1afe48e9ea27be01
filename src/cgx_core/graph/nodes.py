"""What the assembler asks of a graph: a node's clauses, its parent, the checks that target it.

These read the graph as credencegraph leaves it after ingestion and edits: a split chunk is the
target of `part-of` relations from its clauses, a check is an evidence node reached from its target by
an `observes` relation.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Collection, Iterator
from itertools import compress, count, product
from string import ascii_lowercase

from credencegraph.core import Graph, Node, Relation
from credencegraph.rubric.model import COMPOUND, DOCUMENT, EVIDENCE, UNASSIGNED
from credencegraph.rubric.validate import PART_OF, origin_of

__all__ = [
    "COMPOUND",
    "DOCUMENT",
    "UNASSIGNED",
    "children",
    "clause_parent_id",
    "origin_of",
    "parent",
    "predicted_children",
    "targeting_checks",
    "touching",
]

# A clause id is its chunk's id and a letter suffix (s-2a, s-02ab): what split_node names children.
_CLAUSE_ID = re.compile(r"^(?P<chunk>.*\d)(?P<suffix>[a-z]+)$")


def touching(graph: Graph, node_ids: Collection[str], ends: tuple[str, ...] = ("source", "target")) -> list[Relation]:
    """The relations with one of `ends` in `node_ids`, in graph order. A call touches a few nodes of a graph
    of thousands, so the scan runs in C (a loop in Python over every relation grew each call with the paper)."""
    relations = list(graph.relations.values())
    wanted = frozenset(node_ids)
    masks = [map(wanted.__contains__, map(operator.attrgetter(end), relations)) for end in ends]
    return list(compress(relations, masks[0] if len(masks) == 1 else map(operator.or_, *masks)))


def children(graph: Graph, node_id: str) -> list[str]:
    """The clauses of a split chunk, in graph order."""
    sources = {r.source for r in graph.relations.values() if r.type == PART_OF and r.target == node_id}
    return [node.id for node in graph if node.id in sources]


def parent(graph: Graph, node_id: str) -> str | None:
    """The chunk a clause is part of, or None for a node that is not a clause."""
    for relation in touching(graph, (node_id,), ("source",)):
        if relation.type == PART_OF:
            return str(relation.target)
    return None


def targeting_checks(graph: Graph, node_id: str) -> list[Node]:
    """The checks of a node: the evidence nodes its `observes` relations reach, and the premised checks that
    assess it (they observe its reading, checks/premises.py), in graph order."""
    ids = []
    for relation in touching(graph, (node_id,)):
        if relation.type == "observes" and relation.source == node_id:
            ids.append(relation.target)
        elif relation.type == "assesses" and relation.target == node_id:
            ids.append(relation.source)
    found = [graph.nodes[check] for check in dict.fromkeys(ids) if origin_of(graph.nodes[check]) == EVIDENCE]
    if len(found) < 2:
        return found
    order = dict(zip(graph.nodes, count()))
    return sorted(found, key=lambda node: order[node.id])


def clause_parent_id(graph: Graph, node_id: str) -> str | None:
    """For an id shaped like a clause of a chunk of the graph (s-2a of s-2), that chunk's id."""
    match = _CLAUSE_ID.match(node_id)
    if match is None or match["chunk"] not in graph:
        return None
    return match["chunk"]


def _suffixes() -> Iterator[str]:
    for length in count(1):
        for letters in product(ascii_lowercase, repeat=length):
            yield "".join(letters)


def predicted_children(graph: Graph, node_id: str, how_many: int) -> list[str]:
    """The ids split_node will give the clauses of `node_id`: `<id>a`, `<id>b`, ..., skipping taken ids."""
    free = (f"{node_id}{suffix}" for suffix in _suffixes() if f"{node_id}{suffix}" not in graph)
    return [next(free) for _ in range(how_many)]


def is_document(node: Node) -> bool:
    """Whether the node is a chunk of the document (or a clause of one)."""
    return bool(origin_of(node) == DOCUMENT)

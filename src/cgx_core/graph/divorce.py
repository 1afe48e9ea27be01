"""Parent divorcing: the same distribution with no table growing with fan-in.

credencegraph compiles a proposition's `requires`, `supports` and `refutes` parents into one table over all of
them, built eagerly when the network is made: a summary claim resting on 32 results is a table of 2^33 entries
(a MemoryError), and 24 parents already passed its size limit. Each of the three relations is one independent
mechanism of a product (noisy-AND, noisy-OR, inhibition; credencegraph.semantics.cpt), so a chain of
auxiliary propositions computes it exactly, two parents at a time:

- `requires` r_1..r_n into X: g_1 requires P_1 (r_1); g_k requires g_{k-1} (1) and P_k (r_k), base 1;
  X requires g_n (1). g_n is true with probability prod over false P_k of (1 - r_k), X's necessity gate.
- `refutes` f_1..f_n: the same chain with each P_k refuting at f_k: g_n is "no refuter inhibited X".
- `supports` s_1..s_n: g_k supports from g_{k-1} (1) and P_k (s_k), base 0 (a noisy-OR); X supports g_n (1):
  X then has its base when no support fired and is certain when one did, as with the parents direct.

Every marginal of the original nodes is unchanged; only inference sees the auxiliary nodes (ids with `~`,
which no node of a run has). Nodes merged by `equivalent` share one variable, so their relations are chained
together.
"""

from __future__ import annotations

from collections.abc import Sequence

from credencegraph.core import Graph, Node, Relation

from cgx_core.graph.edit import appended, without_relations

DIRECT_PARENTS = 3
"""A variable with at most this many strength relations keeps them direct (its table has 2^4 entries)."""

CHAIN_MARK = "~"
STRENGTH_TYPES = ("requires", "supports", "refutes")
_LINK_TYPE = {"requires": "requires", "refutes": "requires", "supports": "supports"}
_CHAIN_BASE = {"requires": 1.0, "refutes": 1.0, "supports": 0.0}


def _chain(target: str, kind: str, relations: Sequence[Relation]) -> tuple[list[Node], list[Relation]]:
    """The auxiliary nodes and relations that carry `relations` (all of type `kind`, into `target`)."""
    nodes: list[Node] = []
    links: list[Relation] = []
    previous: str | None = None
    for position, relation in enumerate(relations, start=1):
        gate = f"{target}{CHAIN_MARK}{kind}{CHAIN_MARK}{position}"
        nodes.append(Node(gate, kind="divorce-gate", base=_CHAIN_BASE[kind]))
        links.append(Relation(f"{gate}{CHAIN_MARK}in", kind, relation.source, gate, strength=relation.strength))
        if previous is not None:
            links.append(Relation(f"{gate}{CHAIN_MARK}prev", _LINK_TYPE[kind], previous, gate, strength=1.0))
        previous = gate
    assert previous is not None
    links.append(Relation(f"{previous}{CHAIN_MARK}out", _LINK_TYPE[kind], previous, target, strength=1.0))
    return nodes, links


def divorced(graph: Graph) -> Graph:
    """`graph` with every variable of more than DIRECT_PARENTS strength relations fed through chains.

    Returns `graph` itself when no variable needs it (the common case costs nothing)."""
    from credencegraph.semantics import inference_sets

    representative = {member: root for root, members in inference_sets(graph).items() for member in members}
    into: dict[str, dict[str, list[Relation]]] = {}
    for relation in graph.relations.values():
        if relation.type in STRENGTH_TYPES and relation.target in representative:
            into.setdefault(representative[relation.target], {}).setdefault(relation.type, []).append(relation)
    crowded = {root: kinds for root, kinds in into.items() if sum(map(len, kinds.values())) > DIRECT_PARENTS}
    if not crowded:
        return graph
    nodes: list[Node] = []
    relations: list[Relation] = []
    replaced: list[str] = []
    for root, kinds in crowded.items():
        for kind in STRENGTH_TYPES:
            chained = kinds.get(kind, [])
            if len(chained) < 2:
                continue
            more_nodes, more_relations = _chain(root, kind, chained)
            nodes += more_nodes
            relations += more_relations
            replaced += [relation.id for relation in chained]
    return appended(without_relations(graph, replaced), nodes, relations)

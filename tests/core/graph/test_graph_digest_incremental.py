"""GraphDigester digests a graph from what it cached of earlier graphs (each node's and relation's text and
digest, found by object identity, the walk done in C). These tests prove that cached answer equal to the
digest computed from scratch, from credencegraph's own `graph_to_dict`, after every step of many seeded random
edit sequences: nodes replaced, appended and rebuilt equal, relations dropped, replaced and appended, earlier
graphs digested again, graphs rebuilt from JSON (new objects, same text), state.json's JSON adopted, and old
graphs dropped so their items are freed and their ids reused by new objects once the cache has let go of them.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from credencegraph.core import Graph, Node, Relation, graph_from_dict, graph_to_dict

from cgx_core.base.digests import graph_json_digest
from cgx_core.graph.digest import GraphDigester
from cgx_core.graph.edit import appended, copy_graph, replace_nodes, replace_relations, without_relations
from support import ROOT

EXAMPLE_GRAPH = ROOT / "examples" / "end-to-end" / "run" / "graph.json"


def from_scratch(graph: Graph) -> str:
    """The digest with no cache: credencegraph serialises the whole graph, every item is hashed anew."""
    return graph_json_digest(graph_to_dict(graph))


def small_graph() -> Graph:
    graph = Graph()
    for index in range(6):
        graph.add_node(Node(f"n-{index}", kind="claim", statement=f"Statement {index}.", attributes={"i": index}))
    for index in range(1, 6):
        graph.add_relation(Relation(f"r-{index}", "requires", f"n-{index - 1}", f"n-{index}", strength=0.9))
    return graph


class Editor:
    """Random pure edits of a graph, each returning the graph after it (the graph before is left as it was)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.made = 0

    def _fresh(self, prefix: str) -> str:
        self.made += 1
        return f"{prefix}-{self.made}"

    def restate(self, graph: Graph) -> Graph:
        node = self.rng.choice(list(graph.nodes.values()))
        statement = f"Restated {self.rng.randrange(10**6)}."
        return replace_nodes(graph, {node.id: dataclasses.replace(node, statement=statement)})

    def annotate(self, graph: Graph) -> Graph:
        """A new attribute, keys in an order that is not sorted (the text keeps credencegraph's order)."""
        node = self.rng.choice(list(graph.nodes.values()))
        attributes = {"zeta": self.rng.random(), **dict(node.attributes), "alpha": [1, {"b": 2, "a": None}]}
        return replace_nodes(graph, {node.id: dataclasses.replace(node, attributes=attributes)})

    def same_again(self, graph: Graph) -> Graph:
        """A node replaced by an equal but new object: its text is the same, its identity new."""
        node = self.rng.choice(list(graph.nodes.values()))
        return replace_nodes(graph, {node.id: dataclasses.replace(node)})

    def add(self, graph: Graph) -> Graph:
        anchor = self.rng.choice(list(graph.nodes))
        node = Node(self._fresh("c"), kind="check", statement="A check.", attributes={"of": anchor})
        relation = Relation(self._fresh("o"), "observes", anchor, node.id, sensitivity=0.9, false_pass=0.1)
        return appended(graph, [node], [relation])

    def drop(self, graph: Graph) -> Graph:
        if not graph.relations:
            return graph
        return without_relations(graph, self.rng.sample(list(graph.relations), k=min(2, len(graph.relations))))

    def reweigh(self, graph: Graph) -> Graph:
        strong = [relation for relation in graph.relations.values() if relation.strength is not None]
        if not strong:
            return graph
        relation = self.rng.choice(strong)
        changed = dataclasses.replace(relation, strength=round(self.rng.uniform(0.05, 0.95), 3))
        return replace_relations(graph, {relation.id: changed})

    def copy(self, graph: Graph) -> Graph:
        return copy_graph(graph)

    def from_json(self, graph: Graph) -> Graph:
        return graph_from_dict(graph_to_dict(graph))

    @property
    def edits(self) -> list[Callable[[Graph], Graph]]:
        return [self.restate, self.annotate, self.same_again, self.add, self.drop, self.reweigh, self.copy]


def check(digester: GraphDigester, graph: Graph) -> str:
    """The long-lived digester's digest and JSON of `graph` against those computed from scratch."""
    digest = digester.digest(graph)
    assert digest == from_scratch(graph) == GraphDigester().digest(graph)
    written = digester.graph_json(graph)
    assert written == GraphDigester().graph_json(graph)
    assert json.loads(written) == graph_to_dict(graph)
    assert digester.digest(graph) == digest  # asked again, from the cache only
    return digest


@pytest.mark.parametrize("seed", range(6))
def test_the_cached_digest_equals_the_digest_from_scratch_after_every_random_edit(seed: int) -> None:
    rng = random.Random(seed)
    editor = Editor(rng)
    start = small_graph() if seed % 2 else graph_from_dict(json.loads(EXAMPLE_GRAPH.read_text(encoding="utf-8")))
    digester = GraphDigester()
    history = [start]
    check(digester, start)
    for step in range(300):
        graph = history[-1]
        roll = rng.random()
        if roll < 0.05 and len(history) > 1:
            check(digester, rng.choice(history[:-1]))  # an earlier graph, after its successors
            continue
        if roll < 0.10:
            rebuilt = editor.from_json(graph)  # new objects with the same texts as cached ones
            assert check(digester, rebuilt) == check(digester, graph)
            history.append(rebuilt)
            continue
        if roll < 0.13:
            fresh = GraphDigester()  # a new process reading state.json: adopt, then go on editing
            stored = json.loads(digester.graph_json(graph))
            built = graph_from_dict(stored)
            assert fresh.adopt(built, stored, digester.digest(graph))
            digester = fresh
            history.append(built)
            continue
        if roll < 0.16:
            del history[: len(history) - 1]  # old graphs freed: their items' ids can be reused
            gc.collect()
        edited = rng.choice(editor.edits)(graph)
        before = from_scratch(graph)
        check(digester, edited)
        assert from_scratch(graph) == before, f"step {step}: the edit changed the graph before it"
        history.append(edited)


def test_a_long_session_keeps_the_cache_bounded_and_exact_when_ids_are_reused() -> None:
    """Thousands of throwaway nodes on a small graph: the cache drops what no graph holds (so ids come free and
    are reused by new objects), and every digest still equals the one from scratch."""
    rng = random.Random(7)
    editor = Editor(rng)
    digester = GraphDigester()
    graph = small_graph()
    sizes: list[int] = []
    for _ in range(1500):
        graph = editor.restate(graph)
        assert digester.digest(graph) == from_scratch(graph)
        sizes.append(len(digester._held))
    limit = 4 * (len(graph.nodes) + len(graph.relations)) + 1024
    assert max(sizes) <= limit + 1 and sizes[-1] < max(sizes)  # it was let go of, at least once


def test_an_item_that_is_not_a_graphs_own_json_is_not_hidden_by_the_cache() -> None:
    """Two graphs that differ in one node's attribute order (equal as Python values, not as text) digest apart,
    whichever is digested first: the text is credencegraph's, in its own key order."""
    first = small_graph()
    node = first.nodes["n-2"]
    one = replace_nodes(first, {"n-2": dataclasses.replace(node, attributes={"a": 1, "b": 2})})
    other = replace_nodes(first, {"n-2": dataclasses.replace(node, attributes={"b": 2, "a": 1})})
    digester = GraphDigester()
    digests: dict[str, Any] = {"one": digester.digest(one), "other": digester.digest(other)}
    assert digests["one"] != digests["other"]
    assert digests == {"one": from_scratch(one), "other": from_scratch(other)}

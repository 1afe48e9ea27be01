"""A labelled run's credences under a rubric, and how good they are.

The run's graph is re-parameterised with the rubric's values (each node's base, each `requires` strength,
each `observes` relation's sensitivity and false_pass, by the rules `--rubric-credences` checks), and every
credence is computed given the run's observations, a person's reviews left out: a review is the label the
credence is scored against, never evidence for it. Scored are the labelled nodes a reviewer reads a credence
for (finish_run's `credences`: assessed nodes and assumptions): the Brier score, mean (p - y)^2, and the log
loss, mean -ln P(y), both lower for better credences.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

import attrs

from cgx_core.calibration.labels import LabelledRun
from cgx_core.checks.credences import against_verdict as moved_against
from cgx_core.checks.credences import credenced_nodes, node_verdict
from cgx_core.checks.inference import Budget, all_marginals
from cgx_core.graph import analyst
from cgx_core.graph.divorce import divorced
from cgx_core.graph.extraction import tool_of
from cgx_core.graph.review_queue import REVIEW_TOOL

if TYPE_CHECKING:
    from credencegraph.core import Credence, Graph, Node
    from credencegraph.rubric import Rubric
    from credencegraph.semantics import Network

FLOOR = 1e-6
"""The least probability a log loss takes of a credence: a certain, wrong credence costs ln(1e6), not infinity."""


@attrs.frozen
class Scores:
    """How good some credences are, over `count` labelled nodes."""

    brier: float
    log_loss: float
    count: int

    @staticmethod
    def of(pairs: Iterable[tuple[float, bool]]) -> Scores:
        found = list(pairs)
        if not found:
            return Scores(0.0, 0.0, 0)
        brier = math.fsum((p - (1.0 if y else 0.0)) ** 2 for p, y in found) / len(found)
        loss = math.fsum(-math.log(max(FLOOR, p if y else 1.0 - p)) for p, y in found) / len(found)
        return Scores(brier, loss, len(found))

    def to_json(self) -> dict[str, float | int]:
        return {"brier": round(self.brier, 6), "log_loss": round(self.log_loss, 6), "nodes": self.count}


def reparameterised(graph: Graph, rubric: Rubric) -> Graph:
    """The graph with every base and inferential credence the rubric's (as `--rubric-credences` requires)."""
    from credencegraph.core import Graph as Built
    from credencegraph.rubric.validate import check_of, origin_of, rubric_base

    out = Built()
    for node in graph:
        if node.base is not None and origin_of(node) in ("document", "analyst"):
            node = replace(node, base=rubric_base(rubric, node))
        out.add_node(node)
    for relation in graph.relations.values():
        source, target = graph.nodes[relation.source], graph.nodes[relation.target]
        if relation.type == analyst.REQUIRES:
            relation = replace(relation, strength=_requires_strength(rubric, source, target, relation.strength))
        elif relation.type == "observes" and (check := check_of(rubric, target)) is not None:
            relation = replace(relation, sensitivity=check.sensitivity, false_pass=check.false_pass)
        out.add_relation(relation)
    return out


def _requires_strength(rubric: Rubric, source: Node, target: Node, current: Credence | None) -> Credence | None:
    from credencegraph.rubric.validate import origin_of

    if origin_of(source) == "analyst" and rubric.premises is not None:
        return rubric.premises.strength
    node_type = rubric.types.get(target.kind)
    rule = node_type.rests_on if node_type is not None else None
    return rule.strength if rule is not None else current


def _observed(run: LabelledRun, rubric: Rubric) -> tuple[Graph, Network, dict[int, int]]:
    """The run's graph under `rubric`, its network, and the evidence of its observations but its reviews."""
    from credencegraph.semantics import compile_graph

    graph = reparameterised(run.graph, rubric)
    network = compile_graph(divorced(graph))
    evidence = {
        network.index(node.id): int(bool(node.attributes["observed"]))
        for node in graph
        if "observed" in node.attributes and tool_of(node.attributes) != REVIEW_TOOL
    }
    return graph, network, evidence


def credences(run: LabelledRun, rubric: Rubric, budget: Budget | None = None) -> dict[str, float]:
    """Each scored node's credence given the run's observations but its reviews, under `rubric`."""
    _, network, evidence = _observed(run, rubric)
    marginals = all_marginals(network, evidence, budget or Budget())
    return {node_id: float(marginals.true[network.index(node_id)]) for node_id in scored_nodes(run)}


def against_verdict(run: LabelledRun, rubric: Rubric, budget: Budget | None = None) -> dict[str, list[str]]:
    """The run's nodes whose credence the observations (reviews left out) moved against their verdict under
    `rubric`, by verdict (checks/credences.py flags them in a report): `fails` lists failing nodes raised
    (the bar: none), `holds` holding ones lowered (a failed parent, or a pass that checked one aspect)."""
    graph, network, evidence = _observed(run, rubric)
    before = all_marginals(network, {}, budget or Budget()).true
    after = all_marginals(network, evidence, budget or Budget()).true
    found: dict[str, list[str]] = {}
    for node_id in credenced_nodes(graph):
        verdict = node_verdict(graph.nodes[node_id])
        index = network.index(node_id)
        if isinstance(verdict, str) and moved_against(verdict, float(before[index]), float(after[index])):
            found.setdefault(verdict, []).append(node_id)
    return found


def scored_nodes(run: LabelledRun) -> list[str]:
    """The labelled nodes a reviewer reads a credence for, readings aside, in graph order."""
    return [
        node_id
        for node_id in credenced_nodes(run.graph)
        if node_id in run.truth and run.graph.nodes[node_id].kind != analyst.READING
    ]

"""Credences before and after the observations, from credencegraph's inference on the finished graph.

Before is the marginal with no evidence (the rubric's bases and strengths); after is conditioned on every
check's `observed` value (passes and fails; an errored check carries none and moves nothing). Both are exact
(`draws=0`): the report shows points, not bands.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from credencegraph.core import Graph


@attrs.frozen
class Credence:
    """A node's credence before and after the observations."""

    before: float
    after: float


@attrs.frozen
class Credences:
    """Each node's credence, and the nodes inference could not answer for (with credencegraph's reason)."""

    by_node: dict[str, Credence]
    failed: dict[str, str]
    observed: dict[str, bool]


def observations(graph: Graph) -> dict[str, bool]:
    """Every check's observed value: true for a pass, false for a fail."""
    return {node.id: bool(node.attributes["observed"]) for node in graph if "observed" in node.attributes}


def credences(graph: Graph, node_ids: Iterable[str]) -> Credences:
    """Before and after for each of `node_ids` (inference variables; others are skipped)."""
    from credencegraph.core import CredenceGraphError
    from credencegraph.inference import conditional, marginal
    from credencegraph.semantics import CompileError, compile_graph

    observed = observations(graph)
    wanted = list(node_ids)
    try:
        network = compile_graph(graph)
    except CompileError as error:
        return Credences({}, dict.fromkeys(wanted, f"the graph does not compile: {error}"), observed)
    by_node: dict[str, Credence] = {}
    failed: dict[str, str] = {}
    for node_id in wanted:
        try:
            before = marginal(network, node_id, draws=0).point
            after = conditional(network, node_id, observed, draws=0).point if observed else before
        except (CredenceGraphError, KeyError) as error:
            failed[node_id] = f"{type(error).__name__}: {error}"
            continue
        by_node[node_id] = Credence(float(before), float(after))
    return Credences(by_node, failed, observed)

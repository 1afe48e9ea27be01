"""What a call of the assembler returns: the graph with the records applied, and the tool's result.

A record it does not apply is reported in the result under `refused` (see `cgx_core.refusals`), with a
stable code, the message (credencegraph's own when credencegraph refused) and a fix computed from the
record, the rubric and the run.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from credencegraph.core import Graph
from credencegraph.core.credence import Credence
from credencegraph.core.serialization import credence_to_json

from cgx_core.refusals import ItemRefused


@attrs.frozen
class Applied:
    """The graph after a call of the assembler, and the tool's JSON result body."""

    graph: Graph
    result: dict[str, Any]


def credence_json(credence: Credence) -> float | dict[str, float]:
    """A credence as credencegraph writes it: a Point as a number, a Beta as {"alpha", "beta"}."""
    written: float | dict[str, float] = credence_to_json(credence)
    return written


def screened[R](
    graph: Graph,
    records: Sequence[tuple[int, R]],
    node_of: Callable[[R], str],
    check: Callable[[R], None],
    refused: dict[int, dict[str, Any]],
) -> list[tuple[int, R]]:
    """The records that pass `check` on their own (the checks that need no edit of the graph), in the graph's
    order of their nodes; each record `check` refuses goes into `refused`, under its number."""
    passed = []
    for index, record in records:
        try:
            check(record)
        except ItemRefused as refusal:
            refused[index] = refusal.to_json(index, node_of(record))
        else:
            passed.append((index, record))
    if len(passed) < 2:
        return passed
    order = dict(zip(graph.nodes, itertools.count()))
    return sorted(passed, key=lambda item: order[node_of(item[1])])

"""Analyst nodes: the premises an analyst states and the readings a premised check observes.

Both add_premises and the check engine make analyst nodes, so their naming and sharing live here, once:

- an analyst node is named `a-1`, `a-2`, ... in the order it is created, skipping any id the graph has;
- an **assumption** (a premise in words) is one node per statement: statements equal after text
  normalisation are the same node, a common parent of every conclusion and reading that needs it, so a
  shared premise is never counted as independent copies;
- a **reading** is what a premised check observes: its target as the check read it with its premises, true
  only when the target and every premise hold (`requires` from each). One node per target and set of
  premises, shared by every check that reads the target with the same premises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from credencegraph.rubric.model import ANALYST

from cgx_core.graph.nodes import origin_of

if TYPE_CHECKING:
    from credencegraph.core import Graph, Node
    from credencegraph.rubric import Rubric

ASSUMPTION: Final = "assumption"
READING: Final = "reading"
REQUIRES: Final = "requires"
READING_OF: Final = "reading_of"
"""A reading's attribute naming the node it reads (its premises are its other `requires` parents)."""


def next_analyst_id(graph: Graph, taken: Sequence[str] = ()) -> str:
    """The next analyst id: a-1, a-2, ..., skipping any id the graph (or `taken`) already has."""
    number = 1
    while f"a-{number}" in graph or f"a-{number}" in taken:
        number += 1
    return f"a-{number}"


def shared_assumption(graph: Graph, statement: str) -> Node | None:
    """The analyst assumption with this (normalised) statement, if the graph has one."""
    return next(
        (
            node
            for node in graph
            if origin_of(node) == ANALYST and node.kind == ASSUMPTION and node.statement == statement
        ),
        None,
    )


def reading_statement(target: str, premises: Sequence[str]) -> str:
    """A reading's statement: what it stands for, in words a reviewer reads."""
    named = premises[0] if len(premises) == 1 else ", ".join(premises[:-1]) + " and " + premises[-1]
    which = "premise" if len(premises) == 1 else "premises"
    return f"{target}, read with the {which} {named}"


def shared_reading(graph: Graph, target: str, premises: Sequence[str]) -> Node | None:
    """The reading of `target` with exactly these premise nodes, if the graph has one."""
    statement = reading_statement(target, sorted(premises))
    return next(
        (
            node
            for node in graph
            if origin_of(node) == ANALYST
            and node.kind == READING
            and node.attributes.get(READING_OF) == target
            and node.statement == statement
        ),
        None,
    )


def reading_problem(rubric: Rubric, target_kind: str) -> str | None:
    """What the rubric lacks to record a premised check on a node of `target_kind`, or None.

    A reading is an analyst node of type `reading` resting on its target and on analyst assumptions, so the
    rubric needs a [premises] table, type `assumption` for origin analyst, and type `reading` for origin
    analyst whose rests_on rule is `requires` and admits the target's type and `assumption`."""
    if rubric.premises is None:
        return f"rubric {rubric.name!r} has no [premises] table"
    assumption = rubric.types.get(ASSUMPTION)
    if assumption is None or ANALYST not in assumption.origins:
        return f"rubric {rubric.name!r} does not declare type {ASSUMPTION!r} for origin {ANALYST}"
    reading = rubric.types.get(READING)
    if reading is None or ANALYST not in reading.origins:
        return f"rubric {rubric.name!r} does not declare type {READING!r} for origin {ANALYST}"
    rule = reading.rests_on
    if rule is None or rule.relation != REQUIRES:
        return f"type {READING!r} of rubric {rubric.name!r} rests on nothing by requires"
    missing = [kind for kind in (target_kind, ASSUMPTION) if kind not in rule.types]
    if missing:
        return f"type {READING!r} of rubric {rubric.name!r} does not rest on {missing}"
    return None

"""Premises on a check: what the agent reads into the paper that a computation needs, stated openly.

A proposal may carry `premises`, statements the text does not write as such ("the caption's steps and the
text's steps are the same quantity", "the analyses used this release, so it predates them"). The computation
stays the check type's and deterministic; numbers still come only from the text: a premise states a relation,
an identification or a bound, never a number (a numeral it writes must be one the target or the cited chunks
write). A check type that takes premises says so (`accepts_premises`) and decides what they license.

How a premised check moves credence (docs/report.md): it does not observe its target but a **reading**, an
analyst node that holds only when the target and every premise hold (`requires` from each, the rubric's
strengths). A failure then lowers the target and the premises together, in proportion to how much each could
be at fault; a pass raises them together. A premise a reviewer rejects (a failed human-review of it) makes the
reading false whatever the target, so the check's observation is explained by the premise and the target goes
back to the credence it would have without the check. Each premise is an analyst assumption shared with every
other use of the same statement (add_premises included), listed for review like any assumption.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from cgx_core.base.json_values import json_kind
from cgx_core.codes import Code
from cgx_core.graph import analyst, extraction
from cgx_core.numbers import Occurrence, read_text
from cgx_core.refusals import ItemRefused

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.rubric import Rubric

FIELD: Final = "premises"
MAX_PREMISES: Final = 5
MIN_CHARS: Final = 8
MAX_CHARS: Final = 400
ASSESSES: Final = "assesses"
"""The annotation from a premised check to its target: what backs the target's verdict (credencegraph counts
any relation into a node from an evidence node), since the check observes the reading, not the target."""

_EXAMPLE = '"premises": ["the caption\'s steps and the text\'s steps are the same quantity"]'


def premise_problems(proposal: Mapping[str, Any], accepts: bool, type_name: str) -> list[ItemRefused]:
    """What is wrong with a proposal's `premises` as JSON, or with sending them to this type (none when fine)."""
    if FIELD not in proposal:
        return []
    premises = proposal[FIELD]
    if not accepts:
        return [
            ItemRefused(
                Code.PREMISES_NOT_ACCEPTED,
                f"'{type_name}' takes no premises",
                "leave `premises` out; a premise licenses a computation (recompute-numbers), not a judgement",
            )
        ]
    shape = f"send {_EXAMPLE}: 1 to {MAX_PREMISES} distinct statements in words, {MIN_CHARS} to {MAX_CHARS} characters"
    if not isinstance(premises, list) or not 1 <= len(premises) <= MAX_PREMISES:
        got = f"{len(premises)} items" if isinstance(premises, list) else json_kind(premises)
        return [
            ItemRefused(
                Code.PREMISES_INVALID, f"`premises` must be a list of 1 to {MAX_PREMISES} statements, got {got}", shape
            )
        ]
    found = []
    for position, premise in enumerate(premises):
        if not isinstance(premise, str):
            found.append(f"premises[{position}] is {json_kind(premise)}, not a statement")
        elif not MIN_CHARS <= len(normalised(premise)) <= MAX_CHARS:
            found.append(
                f"premises[{position}] has {len(normalised(premise))} characters, not {MIN_CHARS} to {MAX_CHARS}"
            )
        elif not any(character.isalpha() for character in premise):
            found.append(f"premises[{position}] writes no word")
    texts = [normalised(premise) for premise in premises if isinstance(premise, str)]
    if len(set(texts)) < len(texts):
        found.append("the same premise is written twice")
    return [ItemRefused(Code.PREMISES_INVALID, "; ".join(found), shape)] if found else []


def normalised(statement: str) -> str:
    from credencegraph.rubric import normalise_text

    return str(normalise_text(statement))


def numeral_problem(premises: Sequence[str], texts: Sequence[str]) -> ItemRefused | None:
    """A premise that writes a number the texts (the target's, the cited chunks') do not: a premise may name
    a quantity the text gives, never supply one."""
    written = {abs(item.numeral.value) for text in texts for item in _numerals(text)}
    foreign = [
        item.numeral.written
        for premise in premises
        for item in _numerals(premise)
        if abs(item.numeral.value) not in written
    ]
    if not foreign:
        return None
    return ItemRefused(
        Code.PREMISES_INVALID,
        f"a premise writes {', '.join(dict.fromkeys(foreign))}, which neither the target nor the cited chunks write: "
        "a premise states a relation, an identification or a bound, never a number",
        "name the quantity by what the text calls it ('the cutoff', 'the caption's steps') and let the expression "
        "take its number from the chunk that writes it",
    )


def _numerals(text: str) -> tuple[Occurrence, ...]:
    try:
        return tuple(read_text(text))
    except Exception:  # the reader refuses nothing it is given; defensive: no numeral read, none foreign
        return ()


def rubric_problem(rubric: Rubric, target_kind: str) -> ItemRefused | None:
    """A rubric that cannot record a premised check on a node of this type."""
    missing = analyst.reading_problem(rubric, target_kind)
    if missing is None:
        return None
    return ItemRefused(
        Code.PREMISES_UNDECLARED,
        f"{missing}, so a premised check cannot be recorded",
        "propose the check without premises, or start the run with a rubric that declares [premises], "
        "type assumption and type reading (the shipped paper.toml does)",
    )


def add_reading(
    graph: Graph, rubric: Rubric, target: str, premises: Sequence[str], stamp: Mapping[str, str]
) -> tuple[str, list[str]]:
    """Add to `graph` (the engine's working copy) the premises' assumption nodes and the reading of `target`
    with them, each made or shared; return the reading's id and the premise nodes' ids in the order given."""
    from credencegraph.core import Node, Relation

    assert rubric.premises is not None
    declared = rubric.premises
    ids: list[str] = []
    for statement in premises:
        shared = analyst.shared_assumption(graph, statement)
        if shared is None:
            shared = Node(
                analyst.next_analyst_id(graph),
                analyst.ASSUMPTION,
                statement,
                (),
                declared.base,
                None,
                {"origin": "analyst", extraction.KEY: dict(stamp)},
            )
            graph.add_node(shared)
        ids.append(shared.id)
    reading = analyst.shared_reading(graph, target, ids)
    if reading is not None:
        return reading.id, ids
    reading_id = analyst.next_analyst_id(graph)
    attributes = {"origin": "analyst", analyst.READING_OF: target, extraction.KEY: dict(stamp)}
    statement = analyst.reading_statement(target, sorted(ids))
    graph.add_node(Node(reading_id, analyst.READING, statement, (), declared.base, None, attributes))
    rule = rubric.types[analyst.READING].rests_on
    assert rule is not None
    strengths = [(target, rule.strength)] + [(premise_id, declared.strength) for premise_id in sorted(ids)]
    for source, strength in strengths:
        graph.add_relation(
            Relation(
                f"{source}-requires-{reading_id}",
                analyst.REQUIRES,
                source,
                reading_id,
                strength=strength,
                attributes={extraction.KEY: dict(stamp)},
            )
        )
    return reading_id, ids

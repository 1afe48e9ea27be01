"""Applying premise records: what else must be true for a conclusion to follow from what it rests on.

A premise the document states (`stated_at`) becomes a `requires` from that chunk, through
credencegraph's `annotate_node`, with the conclusion's edge-rule strength. A premise the document leaves
unsaid (`statement`) becomes an analyst node: type `assumption`, no source, base `premises.base`, joined
to the conclusion by a `requires` of `premises.strength`. These are built with `Node` and `Relation`
directly, because `annotate_node` would write the type's base and the rule's strength, which
`--rubric-credences` rejects wherever they differ from `[premises]`.

credencegraph 0.4.1 parses `premises.for` and `premises.max_per_conclusion` but does not enforce them:
this module does. Statements equal after text normalisation are one node, a common parent of every
conclusion that needs it, so a shared assumption is not counted as independent copies. Records are
applied in document order of their conclusions, each whole or not at all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Final

from credencegraph.core import CredenceGraphError, Graph, Node, Relation
from credencegraph.rubric import Rubric, annotate_node, normalise_text
from credencegraph.rubric.model import ANALYST

from cgx_core.assembler import fixes
from cgx_core.assembler.applied import Applied, screened
from cgx_core.assembler.converter import structure
from cgx_core.assembler.credencegraph_errors import Step, code_of, message_of
from cgx_core.assembler.records import PremiseRecord, StatedAt, Statement
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph import analyst, extraction, nodes
from cgx_core.graph.edit import appended, replace_relations
from cgx_core.refusals import ItemRefused

TOOL = extraction.ADD_PREMISES
ASSUMPTION: Final = analyst.ASSUMPTION
REQUIRES: Final = analyst.REQUIRES
_CORE_ERRORS = (CredenceGraphError, KeyError)


def add_premises(graph: Graph, rubric: Rubric, records: Sequence[object], *, run_id: str) -> Applied:
    """Apply an add_premises call's records; refuse, with a fix, the ones that cannot be applied.

    The result is `{"applied", "refused", "overflow"}`: applied and refused by record number, overflow
    (the statements beyond `premises.max_per_conclusion`, not added) in document order.
    """
    refused: dict[int, dict[str, Any]] = {}
    built: list[tuple[int, PremiseRecord]] = []
    naming: dict[str, list[int]] = defaultdict(list)
    for index, raw in enumerate(records):
        try:
            record: PremiseRecord = structure(raw, PremiseRecord, path=f"$.records[{index}]")
        except CgxError as error:
            conclusion = raw.get("conclusion") if isinstance(raw, dict) else None
            node = conclusion if isinstance(conclusion, str) and conclusion else None
            refusal = ItemRefused(Code.RECORD_INVALID, error.message, fixes.premise_record_invalid(raw))
            refused[index] = refusal.to_json(index, node)
        else:
            built.append((index, record))
            node = record.conclusion
        if node is not None:
            naming[node].append(index)  # a malformed record still names its conclusion
    pending = screened(
        graph,
        built,
        lambda record: record.conclusion,
        lambda record: _check_conclusion(graph, rubric, record, naming),
        refused,
    )
    applied: dict[int, dict[str, Any]] = {}
    overflow: list[dict[str, Any]] = []
    for index, record in pending:
        try:
            graph, entry, beyond = _Applying(rubric, run_id).apply(graph, record)
        except ItemRefused as refusal:
            refused[index] = refusal.to_json(index, record.conclusion)
            continue
        applied[index] = {"record": index, **entry}
        if beyond:
            overflow.append({"record": index, "conclusion": record.conclusion, "statements": beyond})
    result = {
        "applied": [applied[index] for index in sorted(applied)],
        "refused": [refused[index] for index in sorted(refused)],
        "overflow": overflow,
    }
    return Applied(graph, result)


def assumption_declared(rubric: Rubric) -> bool:
    """Whether the rubric declares type `assumption` for origin analyst, as statement premises need."""
    node_type = rubric.types.get(ASSUMPTION)
    return node_type is not None and ANALYST in node_type.origins


def _check_conclusion(graph: Graph, rubric: Rubric, record: PremiseRecord, naming: Mapping[str, list[int]]) -> None:
    """Refuse a record for every fault of its conclusion or of the rubric, and every fault of a premise that
    can be seen without linking it, before any premise is linked."""
    node_id = record.conclusion
    if rubric.premises is None:
        message = f"rubric {rubric.name!r} has no [premises] table"
        raise ItemRefused(Code.NO_PREMISES_TABLE, message, fixes.no_premises_table(rubric))
    alone = (fixes.named_twice(node_id, naming), _conclusion_problem(graph, rubric, node_id))
    problems: list[ItemRefused] = [problem for problem in alone if problem is not None]
    if not assumption_declared(rubric) and any(isinstance(premise, Statement) for premise in record.premises):
        message = f"rubric {rubric.name!r} does not declare type {ASSUMPTION!r} for origin {ANALYST}"
        problems.append(ItemRefused(Code.ASSUMPTION_UNDECLARED, message, fixes.assumption_undeclared(rubric)))
    if problems:
        for position, premise in enumerate(record.premises):
            if isinstance(premise, StatedAt):
                found = _source_problem(graph, rubric, node_id, premise.stated_at)
                if found is not None:
                    problems.append(found.at(premise=position))
        raise ItemRefused.every(problems)


def _conclusion_problem(graph: Graph, rubric: Rubric, node_id: str) -> ItemRefused | None:
    """What makes a node no conclusion a premise may be added to, or None."""
    assert rubric.premises is not None
    if node_id not in graph:
        return fixes.missing_node(graph, node_id)
    node = graph.nodes[node_id]
    if (outside := fixes.outside_document(graph, node_id, "premises go to")) is not None:
        return outside
    if node.kind == nodes.COMPOUND:
        message = f"node {node_id!r} is a compound; its clauses are the conclusions"
        return ItemRefused(Code.COMPOUND_NODE, message, fixes.compound_node(graph, node_id))
    if node.kind not in rubric.premises.for_types:
        message = (
            f"node {node_id!r} has type {node.kind!r}, which is not in premises.for {list(rubric.premises.for_types)}"
        )
        return ItemRefused(Code.NOT_A_CONCLUSION, message, fixes.not_a_conclusion(graph, rubric, node_id))
    return None


def _source_problem(graph: Graph, rubric: Rubric, conclusion: str, source: str) -> ItemRefused | None:
    """What makes a chunk no stated premise of `conclusion`, seen without linking it, or None."""
    if source == conclusion:
        return ItemRefused(Code.RESTS_ON_SELF, f"{conclusion!r} would be its own premise", fixes.rests_on_self(source))
    if source not in graph:
        chunk = nodes.clause_parent_id(graph, source)
        if chunk is not None and graph.nodes[chunk].kind != nodes.COMPOUND:
            message = f"no node {source!r} in the run: {chunk!r} is not split"
            return ItemRefused(Code.CHILD_NOT_SPLIT, message, fixes.rests_on_unknown(graph, source))
        message = f"stated_at names {source!r}, which is not a node of the run"
        return ItemRefused(Code.UNKNOWN_NODE, message, fixes.unknown_node(graph, source))
    node = graph.nodes[source]
    if not nodes.is_document(node) or node.kind in (nodes.COMPOUND, nodes.UNASSIGNED):
        what = {nodes.COMPOUND: "a compound", nodes.UNASSIGNED: "unassigned"}.get(node.kind, "not a chunk")
        if not nodes.is_document(node):
            what = f"{nodes.origin_of(node)}, not a chunk of the document"
        message = f"stated_at names {source!r}, which is {what}"
        return ItemRefused(Code.PREMISE_NOT_CHUNK, message, fixes.premise_not_chunk(graph, rubric, conclusion, source))
    return None


class _Applying:
    """Applies one record at a time to the graph as the call's earlier records left it."""

    def __init__(self, rubric: Rubric, run_id: str) -> None:
        assert rubric.premises is not None, "a rubric without [premises] refuses every record before this"
        self.rubric = rubric
        self.premises = rubric.premises
        self.run_id = run_id

    def apply(self, graph: Graph, record: PremiseRecord) -> tuple[Graph, dict[str, Any], list[str]]:
        """The graph with the record's premises, its result entry and its overflowing statements."""
        conclusion = record.conclusion
        entries: list[dict[str, Any]] = []
        beyond: list[str] = []
        problems: list[ItemRefused] = []
        for position, premise in enumerate(record.premises):
            entry: dict[str, Any] | None
            try:
                if isinstance(premise, StatedAt):
                    graph, entry = self._stated_at(graph, conclusion, premise.stated_at)
                else:
                    graph, entry = self._statement(graph, conclusion, premise.statement)
            except ItemRefused as refusal:
                # The next premises are judged on the graph without this one: every bad premise is named.
                problems.append(refusal.at(premise=position))
                continue
            if entry is not None:
                entries.append(entry)
            elif isinstance(premise, Statement):
                beyond.append(normalise_text(premise.statement))
        if problems:
            raise ItemRefused.every(problems)
        return graph, {"conclusion": conclusion, "premises": entries}, beyond

    def _stated_at(self, graph: Graph, conclusion: str, source: str) -> tuple[Graph, dict[str, Any]]:
        problem = _source_problem(graph, self.rubric, conclusion, source)
        if problem is not None:
            raise problem
        rule = self.rubric.types[graph.nodes[conclusion].kind].rests_on
        relation_id = f"{source}-{rule.relation if rule is not None else REQUIRES}-{conclusion}"
        if rule is not None and relation_id in graph.relations:
            relation = graph.relations[relation_id]
            if not extraction.made_by(relation, TOOL):
                # The premise record vouches for the link now: classifying the conclusion again keeps it.
                stamped = extraction.stamped_relation(relation, self.run_id, TOOL)
                graph = replace_relations(graph, {relation_id: stamped})
            return graph, {"stated_at": source, "relation": relation_id, "added": False}
        try:
            linked = annotate_node(graph, self.rubric, conclusion, rests_on=[source])
        except _CORE_ERRORS as error:
            raise self._link_refusal(graph, conclusion, source, error) from None
        stamped = extraction.stamped_relation(linked.relations[relation_id], self.run_id, TOOL)
        return replace_relations(linked, {relation_id: stamped}), {
            "stated_at": source,
            "relation": relation_id,
            "added": True,
        }

    def _link_refusal(self, graph: Graph, conclusion: str, source: str, error: Exception) -> ItemRefused:
        code = code_of(error, Step.PREMISE_LINK)
        message = message_of(error)
        if code is Code.RESTS_ON_NO_RULE:
            return ItemRefused(code, message, fixes.premise_no_rule(graph.nodes[conclusion].kind))
        if code is Code.PREMISE_NOT_CHUNK:
            return ItemRefused(code, message, fixes.premise_not_chunk(graph, self.rubric, conclusion, source))
        if code is Code.CYCLE and hasattr(error, "cycle"):
            return ItemRefused(code, message, fixes.cycle(error, conclusion, "the premises"))
        return ItemRefused(code, message, fixes.unexpected(code))

    def _statement(self, graph: Graph, conclusion: str, text: str) -> tuple[Graph, dict[str, Any] | None]:
        """Link an analyst premise, made or shared; None when the conclusion has all it may take."""
        statement = normalise_text(text)
        shared = analyst.shared_assumption(graph, statement)
        node_id = shared.id if shared is not None else analyst.next_analyst_id(graph)
        relation_id = f"{node_id}-{REQUIRES}-{conclusion}"
        entry: dict[str, Any] = {"statement": statement, "node": node_id, "created": shared is None}
        if relation_id in graph.relations:
            return graph, {**entry, "relation": relation_id, "added": False}
        if _analyst_premises(graph, conclusion) >= self.premises.max_per_conclusion:
            return graph, None
        stamp = extraction.stamp(self.run_id, TOOL)
        made = []
        if shared is None:
            attributes = {"origin": ANALYST, extraction.KEY: stamp}
            made.append(Node(node_id, ASSUMPTION, statement, (), self.premises.base, None, attributes))
        relation = Relation(
            relation_id,
            REQUIRES,
            node_id,
            conclusion,
            strength=self.premises.strength,
            attributes={extraction.KEY: stamp},
        )
        return appended(graph, made, [relation]), {**entry, "relation": relation_id, "added": True}


def _analyst_premises(graph: Graph, conclusion: str) -> int:
    """How many analyst premises a conclusion already has."""
    return sum(
        1
        for relation in graph.relations.values()
        if relation.target == conclusion
        and relation.type == REQUIRES
        and nodes.origin_of(graph.nodes[relation.source]) == ANALYST
    )

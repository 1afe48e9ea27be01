"""Applying classify records: split, type, fill in, hedge and link chunks, each record whole or not at all.

The records of one call are judged together, as a careful agent expects: a claim in the abstract may
rest on a result of section 4 typed by the same call. So a call runs in passes over the records in
document order (the graph's node order, whatever order they were sent in):

0. every node classified again is returned to its ingested state (unassigned, no base, form or stated,
   none of the relations an earlier classify made into it);
1. every record splits, types, fills in and hedges its node (credencegraph's `split_node` and
   `annotate_node`); nothing links yet, so every type of the call is in place before any link is judged;
2. the relations a node classified again keeps (nodes resting on it, premises add_premises gave it) are
   checked against its new type;
3. every record links its node to what it rests on, with the edge rule's strength.

A record refused in any step is left out and the pass starts again from the graph the call was given,
so a refused record leaves no trace, and no record is applied on the strength of one that was refused.
A record's links are judged against the types the call's other records give their nodes in step 1.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Any

import attrs
from credencegraph.core import CredenceGraphError, Graph, Node, Relation
from credencegraph.rubric import Rubric, annotate_node, normalise_text, split_node
from credencegraph.rubric.model import ANALYST, hedge_key
from credencegraph.rubric.validate import PART_OF

from cgx_core.assembler import fixes
from cgx_core.assembler.applied import Applied, credence_json, screened
from cgx_core.assembler.converter import structure
from cgx_core.assembler.credencegraph_errors import Step, code_of, message_of
from cgx_core.assembler.records import AnyClassifyRecord, ChildRecord, ClassifyRecord, SplitRecord
from cgx_core.assembler.text import contains_phrase, mapped_hedge, occurrences, whole_words
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph import extraction, nodes
from cgx_core.graph.edit import replace_node, replace_relations, without_relations
from cgx_core.refusals import ItemRefused

TOOL = extraction.CLASSIFY
_CORE_ERRORS = (CredenceGraphError, KeyError)
_KEY_ORDER = ("record", "node", "type", "previous", "dropped", "stated", "hedge", "relations", "children")


@attrs.frozen
class _Pending:
    """A record that passed the checks needing no edit, waiting to be applied."""

    index: int
    record: ClassifyRecord | SplitRecord

    @property
    def node(self) -> str:
        return self.record.node

    @property
    def typings(self) -> tuple[ChildRecord, ...]:
        record = self.record
        return record.children if isinstance(record, SplitRecord) else (record.as_child(),)


def classify(graph: Graph, rubric: Rubric, records: Sequence[object], *, run_id: str) -> Applied:
    """Apply a classify call's records to the graph; refuse, with a fix, the ones that cannot be applied.

    `records` are raw JSON values. The result is `{"applied", "refused", "unmapped_hedges"}`, each in a
    fixed order (applied and refused by record number, unmapped hedges in document order).
    """
    refused: dict[int, dict[str, Any]] = {}
    pending = _admit(graph, records, refused)
    final, excluded = _passes(graph, rubric, run_id, pending)
    node_of = {item.index: item.node for item in pending}
    for index, refusal in excluded.items():
        refused[index] = refusal.to_json(index, node_of[index])
    result = {
        "applied": [final.effects[index] for index in sorted(final.effects)],
        "refused": [refused[index] for index in sorted(refused)],
        "unmapped_hedges": final.unmapped,
    }
    return Applied(final.graph, result)


def _raw_node(raw: object) -> str | None:
    node = raw.get("node") if isinstance(raw, dict) else None
    return node if isinstance(node, str) and node else None


def _admit(graph: Graph, records: Sequence[object], refused: dict[int, dict[str, Any]]) -> list[_Pending]:
    """Build the records and refuse the ones whose fault needs no edit to see, in document order."""
    built: list[tuple[int, ClassifyRecord | SplitRecord]] = []
    naming: dict[str, list[int]] = defaultdict(list)
    for index, raw in enumerate(records):
        try:
            record: ClassifyRecord | SplitRecord = structure(raw, AnyClassifyRecord, path=f"$.records[{index}]")
        except CgxError as error:
            refusal = ItemRefused(Code.RECORD_INVALID, error.message, fixes.classify_record_invalid(raw))
            refused[index] = refusal.to_json(index, _raw_node(raw))
            node = _raw_node(raw)
        else:
            built.append((index, record))
            node = record.node
        if node is not None:
            naming[node].append(index)  # a malformed record still names its node: two records are ambiguous
    clauses_of_splits: dict[str, tuple[int, str]] = {}
    for index, record in built:
        node = graph.nodes.get(record.node)
        if isinstance(record, SplitRecord) and len(naming[record.node]) == 1 and node is not None:
            for child in nodes.predicted_children(graph, record.node, len(record.split)):
                clauses_of_splits[child] = (index, record.node)
    passed = screened(
        graph,
        built,
        lambda record: record.node,
        lambda record: _check_alone(graph, record, naming, clauses_of_splits),
        refused,
    )
    return [_Pending(index, record) for index, record in passed]


def _check_alone(
    graph: Graph,
    record: ClassifyRecord | SplitRecord,
    naming: Mapping[str, list[int]],
    clauses_of_splits: Mapping[str, tuple[int, str]],
) -> None:
    """Refuse a record for every fault of its own: a node named twice, missing, not a chunk, split, checked,
    a split that does not fit, a node or clause that rests on itself, a rests_on naming no chunk."""
    node_id = record.node
    alone = (fixes.named_twice(node_id, naming), _node_problem(graph, record, clauses_of_splits))
    problems: list[ItemRefused] = [problem for problem in alone if problem is not None]
    split = isinstance(record, SplitRecord)
    if isinstance(record, SplitRecord) and len(record.split) != len(record.children):
        message = f"the split of {node_id!r} has {len(record.split)} clauses and {len(record.children)} children"
        problems.append(
            ItemRefused(Code.SPLIT_MISMATCH, message, fixes.split_mismatch(len(record.split), len(record.children)))
        )
    count = len(record.split) if isinstance(record, SplitRecord) else 1
    own = nodes.predicted_children(graph, node_id, count) if split and node_id in graph else [node_id]
    typings = record.children if isinstance(record, SplitRecord) else (record.as_child(),)
    for position, (child_id, typing) in enumerate(zip(own, typings, strict=False)):
        if child_id in typing.rests_on:
            refusal = ItemRefused(Code.RESTS_ON_SELF, f"{child_id!r} rests on itself", fixes.rests_on_self(child_id))
            problems.append(refusal.at(child=position) if split else refusal)
    if problems:
        # Also every rests_on that names no chunk, which needs no edit to see.
        coming = {*own, *clauses_of_splits}
        for position, typing in enumerate(typings):
            for found in _sources_problems(graph, graph, node_id, typing.rests_on, coming):
                problems.append(found.at(child=position) if split else found)
        raise ItemRefused.every(problems)


def _node_problem(
    graph: Graph, record: ClassifyRecord | SplitRecord, clauses_of_splits: Mapping[str, tuple[int, str]]
) -> ItemRefused | None:
    """What makes the record's node one this record cannot type (or split), or None."""
    node_id = record.node
    if node_id not in graph:
        if node_id in clauses_of_splits:
            number, chunk = clauses_of_splits[node_id]
            message = f"record {number} of this call splits {chunk!r} and types its clause {node_id!r}"
            return ItemRefused(Code.DUPLICATE_RECORD, message, fixes.duplicate_child(node_id, number, chunk))
        return fixes.missing_node(graph, node_id)
    node = graph.nodes[node_id]
    if (outside := fixes.outside_document(graph, node_id)) is not None:
        return outside
    if node.kind == nodes.COMPOUND:
        if isinstance(record, SplitRecord):
            message = f"node {node_id!r} is already a compound"
            return ItemRefused(Code.ALREADY_SPLIT, message, fixes.already_split(graph, node_id))
        message = f"node {node_id!r} is a compound; annotate its children instead"
        return ItemRefused(Code.COMPOUND_NODE, message, fixes.compound_node(graph, node_id))
    checks = nodes.targeting_checks(graph, node_id)
    if checks:
        message = f"node {node_id!r} is the target of {fixes.ids([check.id for check in checks])}"
        return ItemRefused(Code.TARGETED_BY_CHECK, message, fixes.targeted_by_check(graph, node_id))
    if isinstance(record, SplitRecord) and nodes.parent(graph, node_id) is not None:
        message = f"node {node_id!r} is a child of a compound, and a child is never itself a compound"
        return ItemRefused(Code.SPLIT_INVALID, message, fixes.split_of_clause(graph, node_id))
    return None


def _sources_problems(
    graph: Graph, original: Graph, node_id: str, rests_on: Sequence[str], coming: Collection[str] = ()
) -> list[ItemRefused]:
    """Every node `rests_on` names that is not in the run or not a chunk of the document (the text rests
    only on the text: an analyst premise is added by add_premises, a check is reached by observes). A
    clause a split of this call will make (`coming`) counts as there."""
    found = []
    for source in dict.fromkeys(rests_on):
        if source == node_id or source in coming:
            continue  # rests-on-self is said on its own
        if source not in graph:
            message = f"rests_on names {source!r}, which is not a node of the run"
            found.append(ItemRefused(Code.RESTS_ON_UNKNOWN, message, fixes.rests_on_unknown(original, source)))
        elif not nodes.is_document(graph.nodes[source]):
            origin = nodes.origin_of(graph.nodes[source])
            message = f"rests_on names {source!r}, which is {origin}, not a chunk of the document"
            found.append(ItemRefused(Code.NOT_A_CHUNK, message, fixes.rests_on_not_a_chunk(graph, source, node_id)))
    return found


@attrs.define
class _Result:
    """The graph and result body of the pass that applied every record left."""

    graph: Graph
    effects: dict[int, dict[str, Any]] = attrs.Factory(dict)
    unmapped: list[dict[str, str]] = attrs.Factory(list)


def _passes(
    graph: Graph, rubric: Rubric, run_id: str, pending: list[_Pending]
) -> tuple[_Result, dict[int, ItemRefused]]:
    """The passes of one call, each from the given graph without the records refused so far, until one applies
    every record it was given: its result, and every record refused."""
    excluded: dict[int, ItemRefused] = {}
    while True:
        attempt = _Pass(graph, rubric, run_id, [item for item in pending if item.index not in excluded])
        excluded.update(attempt.run())
        if attempt.complete:
            return attempt.result, excluded


class _Pass:
    """One pass over the records left: reset, type, check kept relations, link."""

    def __init__(self, graph: Graph, rubric: Rubric, run_id: str, entries: list[_Pending]) -> None:
        self.original = graph
        self.rubric = rubric
        self.run_id = run_id
        self.entries = entries
        self.result = _Result(graph)
        self.complete = False
        self.clauses = {
            clause
            for item in entries
            if isinstance(item.record, SplitRecord)
            for clause in nodes.predicted_children(self.original, item.node, len(item.record.split))
        }
        """The clauses the call's splits make: a rests_on may name one before its split is applied."""

    def run(self) -> dict[int, ItemRefused]:
        """Apply the records; the refusals found. `complete` tells whether the result stands as it is."""
        graph, resets = self._reset_all(self.original)
        failures: dict[int, ItemRefused] = {}
        typed: list[_Pending] = []
        restart = False
        for item in self.entries:
            try:
                graph = self._type(graph, item)
                typed.append(item)
            except ItemRefused as refusal:
                failures[item.index] = refusal
                if resets.get(item.node, ("", []))[1]:
                    restart = True  # its reset dropped relations another record may have counted on
                elif item.node in resets:
                    graph = replace_node(graph, self.original.nodes[item.node])
        if restart:
            return failures
        conflicts = self._conflicts(graph, {item.node: item.index for item in typed if item.node in resets})
        if conflicts:
            return {**failures, **conflicts}
        linked = True
        for item in typed:
            try:
                graph = self._link(graph, item)
            except ItemRefused as refusal:
                failures[item.index] = refusal
                linked = False
        if not linked:
            return failures
        for item in typed:
            effect = self.result.effects[item.index]
            if item.node in resets:
                previous, dropped = resets[item.node]
                effect["previous"] = previous
                gone = [relation_id for relation_id in dropped if relation_id not in graph.relations]
                if gone:
                    effect["dropped"] = gone  # what it no longer rests on (a relation made again is not listed)
            self.result.effects[item.index] = {key: effect[key] for key in _KEY_ORDER if key in effect}
        self.result.graph = graph
        self.complete = True
        return failures

    # -- step 0: classifying again starts from the ingested node --------------------------------------

    def _reset_all(self, graph: Graph) -> tuple[Graph, dict[str, tuple[str, list[str]]]]:
        resets: dict[str, tuple[str, list[str]]] = {}
        for item in self.entries:
            node = graph.nodes[item.node]
            if node.kind == nodes.UNASSIGNED:
                continue
            dropped = [
                relation.id
                for relation in nodes.touching(graph, (item.node,), ("target",))
                if extraction.made_by(relation, TOOL)
            ]
            attributes = extraction.plain_attributes(node.attributes, form=None, assessment=None, extraction=None)
            ingested = replace(node, kind=nodes.UNASSIGNED, base=None, stated=None, attributes=attributes)
            graph = replace_node(without_relations(graph, dropped), ingested)
            resets[item.node] = (node.kind, dropped)
        return graph, resets

    # -- step 1: split, type, fill in, hedge ------------------------------------------------------------

    def _type(self, graph: Graph, item: _Pending) -> Graph:
        record = item.record
        if isinstance(record, SplitRecord):
            return self._split(graph, item.index, record)
        unmapped: list[dict[str, str]] = []
        graph, typed = self._type_one(graph, record.node, record.as_child(), unmapped)
        self.result.effects[item.index] = {"record": item.index, "node": record.node, **typed}
        self.result.unmapped.extend(unmapped)
        return graph

    def _split(self, graph: Graph, index: int, record: SplitRecord) -> Graph:
        node_id = record.node
        clauses = [normalise_text(clause) for clause in record.split]
        chunk_text = graph.nodes[node_id].statement or ""
        self._refuse_overlap(node_id, chunk_text, clauses)
        try:
            graph, clause_ids = split_node(graph, node_id, clauses)
        except _CORE_ERRORS as error:
            raise self._split_refusal(graph, node_id, chunk_text, clauses, error) from None
        graph = replace_node(graph, extraction.stamped_node(graph.nodes[node_id], self.run_id, TOOL))
        typed_children = []
        unmapped: list[dict[str, str]] = []
        problems: list[ItemRefused] = []
        for position, (clause_id, typing) in enumerate(zip(clause_ids, record.children, strict=True)):
            try:
                graph, typed = self._type_one(graph, clause_id, typing, unmapped)
            except ItemRefused as refusal:
                problems.append(refusal.at(child=position))  # and the other children are judged too
                continue
            typed_children.append({"node": clause_id, **typed})
        if problems:
            raise ItemRefused.every(problems)
        self.result.unmapped.extend(unmapped)
        self.result.effects[index] = {
            "record": index,
            "node": node_id,
            "type": nodes.COMPOUND,
            "children": typed_children,
        }
        return graph

    def _refuse_overlap(self, node_id: str, chunk_text: str, clauses: list[str]) -> None:
        """Clauses that each occur once must be whole words and not share text.

        A clause cut inside a word, or two clauses that overlap, would make a clause state something the
        text does not say, or two clauses state one thing twice.
        """
        spans = []
        for clause in clauses:
            starts = occurrences(chunk_text, clause)
            if len(starts) != 1:
                return  # credencegraph refuses the split, with its own message
            start, end = starts[0], starts[0] + len(clause)
            whole = whole_words(chunk_text, start, end)
            if whole != clause:
                message = f"the clause {clause!r} begins or ends inside a word of the text of {node_id!r}"
                raise ItemRefused(Code.SPLIT_INVALID, message, fixes.clause_cuts_word(clause, whole))
            spans.append((start, end, clause))
        spans.sort()
        for (_, end, first), (start, _, second) in pairwise(spans):
            if start < end:
                message = f"the clauses {first!r} and {second!r} overlap in the text of {node_id!r}"
                raise ItemRefused(Code.SPLIT_INVALID, message, fixes.clauses_overlap(first, second))

    def _split_refusal(
        self, graph: Graph, node_id: str, chunk_text: str, clauses: list[str], error: Exception
    ) -> ItemRefused:
        code = code_of(error, Step.SPLIT)
        message = message_of(error)
        if code is Code.CLAUSE_NOT_ONCE:
            for position, clause in enumerate(clauses):
                times = len(occurrences(chunk_text, clause))
                if times != 1:
                    return ItemRefused(code, message, fixes.clause_not_once(chunk_text, clause, times), clause=position)
        if code is Code.SPLIT_INVALID and nodes.parent(graph, node_id) is not None:
            return ItemRefused(code, message, fixes.split_of_clause(graph, node_id))
        if code is Code.SPLIT_INVALID and "endpoint of relations" in message:
            return ItemRefused(code, message, fixes.split_with_relations(graph, node_id))
        return ItemRefused(code, message, fixes.unexpected(code))

    def _type_one(
        self, graph: Graph, node_id: str, typing: ChildRecord, unmapped: list[dict[str, str]]
    ) -> tuple[Graph, dict[str, Any]]:
        """Type and fill in one node (a chunk or a clause) and set what its hedge states.

        A hedge phrase the rubric does not list sets nothing and is added to `unmapped`.
        """
        # The rubric's field order, not the order the agent wrote them in: the graph's bytes must not depend on
        # how a JSON object was serialised (the log stores it canonically, with sorted keys).
        declared = list(self.rubric.types[typing.type].form) if typing.type in self.rubric.types else []
        rank = {name: index for index, name in enumerate(declared)}
        form = dict(sorted(typing.form.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))
        if typing.type == nodes.UNASSIGNED:  # credencegraph takes it as "remove the type"; a record gives one
            message = (
                f"type {typing.type!r} is built in; rubric {self.rubric.name!r} declares {list(self.rubric.types)}"
            )
            fix = fixes.unknown_type(self.rubric, nodes.origin_of(graph.nodes[node_id]) or nodes.DOCUMENT, typing.type)
            raise ItemRefused(Code.UNKNOWN_TYPE, message, fix)
        problems: list[ItemRefused] = []
        node = graph.nodes[node_id]
        try:
            node = _annotated(graph, self.rubric, node_id, typing.type, form or None)
        except _CORE_ERRORS as error:
            problems.append(self._type_refusal(graph, node_id, typing, error))
        if typing.hedge is not None and not contains_phrase(node.statement or "", typing.hedge):
            message = f"the text of {node_id!r} does not contain the phrase {typing.hedge!r}"
            fix = fixes.hedge_not_in_text(self.rubric, node.statement or "", typing.hedge)
            problems.append(ItemRefused(Code.HEDGE_NOT_IN_TEXT, message, fix))
        if problems:
            # Also what is wrong with its rests_on that needs no type to see.
            graph = replace_node(graph, node)
            problems.extend(_sources_problems(graph, self.original, node_id, typing.rests_on, self.clauses))
            raise ItemRefused.every(problems)
        typed: dict[str, Any] = {"type": node.kind}
        stated = None
        if typing.hedge is not None:
            matched = mapped_hedge(self.rubric.hedges, typing.hedge)
            if matched is None:
                unmapped.append({"node": node_id, "phrase": hedge_key(typing.hedge)})
            else:
                stated = self.rubric.hedges[matched]
                typed["stated"] = credence_json(stated)
                if matched != hedge_key(typing.hedge):  # a longer phrase, read as the mapped one it holds
                    typed["hedge"] = matched
        graph = replace_node(graph, extraction.stamped_node(node, self.run_id, TOOL, stated=stated))
        return graph, typed

    def _type_refusal(self, graph: Graph, node_id: str, typing: ChildRecord, error: Exception) -> ItemRefused:
        code = code_of(error, Step.TYPE)
        node = graph.nodes[node_id]
        chunk_text = node.statement or ""
        origin = nodes.origin_of(node) or nodes.DOCUMENT
        if code in (Code.UNKNOWN_TYPE, Code.ORIGIN_NOT_ALLOWED):
            fix = fixes.unknown_type(self.rubric, origin, typing.type)
        elif code is Code.FORM_INVALID and typing.type in self.rubric.types:
            fix = fixes.form_invalid(self.rubric, typing.type, typing.form, chunk_text)
        elif code is Code.FORM_NOT_IN_TEXT and typing.type in self.rubric.types:
            fix = fixes.form_not_in_text(self.rubric, typing.type, typing.form, chunk_text)
        else:
            fix = fixes.unexpected(code)
        return ItemRefused(code, message_of(error), fix)

    # -- step 2: relations a node classified again keeps ------------------------------------------------

    def _conflicts(self, graph: Graph, reset: Mapping[str, int]) -> dict[int, ItemRefused]:
        found: dict[int, ItemRefused] = {}
        for relation in nodes.touching(graph, reset.keys()):
            if relation.strength is None:
                continue
            problem = self._problem(graph, relation, {})
            if problem is None:
                continue
            blamed = relation.target if relation.target in reset else relation.source
            index = reset[blamed]
            if index not in found:
                found[index] = ItemRefused(Code.RECLASSIFY_CONFLICT, problem, self._conflict_fix(graph, blamed))
        return found

    def _problem(self, graph: Graph, relation: Relation, kinds: Mapping[str, str]) -> str | None:
        """What is wrong with a kept relation under the nodes' types (`kinds` overrides some), or None."""
        source, target = graph.nodes[relation.source], graph.nodes[relation.target]
        source_kind = kinds.get(source.id, source.kind)
        target_kind = kinds.get(target.id, target.kind)
        where = f"{target.id!r} rests on {source.id!r} ({relation.id})"
        if nodes.origin_of(source) == ANALYST:
            premises = self.rubric.premises
            allowed = list(premises.for_types) if premises is not None else []
            if target_kind in allowed:
                return None
            return f"{source.id!r} is a premise of {target.id!r} ({relation.id}), and type {target_kind!r} " + (
                f"is not in premises.for {allowed}"
            )
        node_type = self.rubric.types.get(target_kind)
        rule = node_type.rests_on if node_type is not None else None
        if rule is None:
            return f"{where}, and type {target_kind!r} rests on nothing"
        if relation.type != rule.relation or source_kind not in rule.types:
            return f"{where}, and type {target_kind!r} rests on {list(rule.types)}, not on {source_kind!r}"
        if relation.strength != rule.strength:
            return (
                f"{where} with strength {fixes.credence_text(relation.strength)}, and type {target_kind!r} "
                f"gives {fixes.credence_text(rule.strength)}"
            )
        return None

    def _conflict_fix(self, graph: Graph, node_id: str) -> str:
        kept = [
            relation
            for relation in graph.relations.values()
            if relation.strength is not None and node_id in (relation.source, relation.target)
        ]
        allowed = [
            kind
            for kind in fixes.types_for(self.rubric, nodes.DOCUMENT)
            if all(self._problem(graph, relation, {node_id: kind}) is None for relation in kept)
        ]
        dependents = [relation.target for relation in kept if relation.source == node_id]
        premises = [relation.source for relation in kept if relation.target == node_id]
        return fixes.reclassify_conflict(node_id, dependents, premises, allowed)

    # -- step 3: links ----------------------------------------------------------------------------------

    def _link(self, graph: Graph, item: _Pending) -> Graph:
        effect = self.result.effects[item.index]
        if isinstance(item.record, SplitRecord):
            problems: list[ItemRefused] = []
            for position, (child, typing) in enumerate(zip(effect["children"], item.typings, strict=True)):
                try:
                    graph, child["relations"] = self._link_one(graph, child["node"], typing.rests_on)
                except ItemRefused as refusal:
                    problems.append(refusal.at(child=position))
            if problems:
                raise ItemRefused.every(problems)
            return graph
        graph, effect["relations"] = self._link_one(graph, item.node, item.record.rests_on)
        return graph

    def _link_one(self, graph: Graph, node_id: str, rests_on: Sequence[str]) -> tuple[Graph, list[str]]:
        wanted = list(dict.fromkeys(rests_on))
        if not wanted:
            return graph, []
        problems = _sources_problems(graph, self.original, node_id, wanted)
        node = graph.nodes[node_id]
        rule = self.rubric.types[node.kind].rests_on
        relation_type = rule.relation if rule is not None else "requires"
        relation_ids = [f"{source}-{relation_type}-{node_id}" for source in wanted]
        new = [source for source, rid in zip(wanted, relation_ids, strict=True) if rid not in graph.relations]
        linkable = [source for source in new if source in graph and nodes.is_document(graph.nodes[source])]
        # What credencegraph's annotate_node would refuse, for every source rather than the first it meets
        # (its own words, so a record with one problem reads as before).
        if rule is None and linkable:
            message = f"type {node.kind!r} of node {node_id!r} has no edge rule, so it rests on nothing"
            problems.append(ItemRefused(Code.RESTS_ON_NO_RULE, message, fixes.rests_on_no_rule(node.kind)))
        for source in linkable if rule is not None else ():
            kind = graph.nodes[source].kind
            if kind not in rule.types:
                message = f"node {source!r} has type {kind!r}; type {node.kind!r} rests on {list(rule.types)}"
                problems.append(
                    ItemRefused(Code.RESTS_ON_TYPE, message, fixes.rests_on_type(graph, self.rubric, node_id, source))
                )
        if problems:
            raise ItemRefused.every(problems)
        try:
            linked = annotate_node(graph, self.rubric, node_id, rests_on=new) if new else graph
        except _CORE_ERRORS as error:
            raise self._link_refusal(graph, node_id, new, error) from None
        stamped = {
            rid: extraction.stamped_relation(linked.relations[rid], self.run_id, TOOL)
            for source, rid in zip(wanted, relation_ids, strict=True)
            if source in new
        }
        return replace_relations(linked, stamped), relation_ids

    def _link_refusal(self, graph: Graph, node_id: str, sources: list[str], error: Exception) -> ItemRefused:
        code = code_of(error, Step.LINK)
        message = message_of(error)
        kind = graph.nodes[node_id].kind
        if code is Code.RESTS_ON_NO_RULE:
            return ItemRefused(code, message, fixes.rests_on_no_rule(kind))
        if code is Code.CYCLE and hasattr(error, "cycle"):
            return ItemRefused(code, message, fixes.cycle(error, node_id))
        if code is Code.RESTS_ON_TYPE:
            rule = self.rubric.types[kind].rests_on
            accepted = rule.types if rule is not None else ()
            wrong = next((source for source in sources if graph.nodes[source].kind not in accepted), sources[0])
            return ItemRefused(code, message, fixes.rests_on_type(graph, self.rubric, node_id, wrong))
        return ItemRefused(code, message, fixes.unexpected(code))


def _annotated(graph: Graph, rubric: Rubric, node_id: str, node_type: str, form: Mapping[str, Any] | None) -> Node:
    """The node as credencegraph's `annotate_node` types it and fills in its form, run on a graph of the node
    and the chunk it is part of, if any: that is all typing and filling in read (a field child's form is
    checked against its parent's text), and `annotate_node` rebuilds the graph it is given, validating every
    relation again, which made a one-record call's cost grow with the paper. Its errors name only the node,
    its type and its form, so they are the same."""
    local = Graph()
    local.add_node(graph.nodes[node_id])
    for relation in nodes.touching(graph, (node_id,), ("source",)):
        if relation.type == PART_OF:
            if relation.target not in local:
                local.add_node(graph.nodes[relation.target])
            local.add_relation(relation)
    return annotate_node(local, rubric, node_id, node_type=node_type, settings=form).nodes[node_id]

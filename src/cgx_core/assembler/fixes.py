"""The fix of each refusal: what the agent should send instead, computed from the record, rubric and run.

A refusal's message says what is wrong; its fix says what to do, in terms the agent can act on at once:
the types it may use, the numerals the text really has, a longer clause that occurs once, the nodes
that have a type the edge rule accepts. Every fix is a pure function of its inputs, so a replayed call
gives the same fix byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from credencegraph.core import CycleError, Graph
from credencegraph.core.credence import format_credence
from credencegraph.rubric import Rubric
from credencegraph.rubric.model import ANALYST, EQREF, NUMBER, QUANTITY, VERBATIM, FormField
from credencegraph.rubric.validate import form_problems

from cgx_core.assembler import text
from cgx_core.codes import MEANINGS, Code
from cgx_core.graph import nodes
from cgx_core.refusals import ItemRefused

CREDENCE_WORDS: Final = frozenset(
    {"credence", "base", "stated", "strength", "probability", "confidence", "prior", "sensitivity", "false_pass"}
)
CLASSIFY_FIELDS: Final = ("node", "type", "form", "rests_on", "hedge")
SPLIT_FIELDS: Final = ("node", "split", "children")
CHILD_FIELDS: Final = ("type", "form", "rests_on", "hedge")
PREMISE_RECORD_FIELDS: Final = ("conclusion", "premises")
PREMISE_FIELDS: Final = ("stated_at", "statement")

CLASSIFY_FORMAT: Final = (
    'write it as {"node", "type", "form"?, "rests_on"?, "hedge"?}, or for a chunk that makes several '
    'statements {"node", "split": [clauses], "children": [{"type", "form"?, "rests_on"?, "hedge"?}, ...]} '
    "with one child per clause; node, type, hedge and clauses are strings, rests_on and split arrays of "
    "strings, form an object"
)
PREMISE_FORMAT: Final = (
    'write it as {"conclusion": "<node id>", "premises": [{"stated_at": "<chunk id>"} or '
    '{"statement": "<text>"}, ...]} with one premise at least'
)
_NEAR: Final = 12


def ids(items: Sequence[str]) -> str:
    """Node ids for a sentence: `s-1, s-2 and s-3`."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def names(items: Sequence[str]) -> str:
    """Names as credencegraph lists them: `['claim', 'result']`."""
    return repr(list(items))


def _close(wanted: str, choices: Sequence[str]) -> str | None:
    folded = {choice.casefold(): choice for choice in choices}
    if wanted.casefold() in folded:
        return folded[wanted.casefold()]
    from difflib import get_close_matches  # a refusal's fix only: kept off a classify's import path

    matches = get_close_matches(wanted, list(choices), n=1, cutoff=0.6)
    return matches[0] if matches else None


# -- record-invalid ------------------------------------------------------------------------------


def _unknown_keys(raw: object, allowed: Sequence[str]) -> list[str]:
    return [key for key in raw if isinstance(key, str) and key not in allowed] if isinstance(raw, dict) else []


def _items(raw: object, key: str) -> list[object]:
    value = raw.get(key) if isinstance(raw, dict) else None
    return value if isinstance(value, list) else []


def _key_advice(unknown: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    credences = sorted({key for key, _ in unknown if key in CREDENCE_WORDS})
    advice = []
    if credences:
        advice.append(
            f"leave out {', '.join(repr(key) for key in credences)}: a record carries no credence "
            "(the rubric gives every base and strength, and a hedge phrase gives stated)"
        )
    for key, allowed in unknown:
        if key in CREDENCE_WORDS:
            continue
        close = _close(key, allowed)
        advice.append(f"'{key}' is not a field: did you mean '{close}'?" if close else f"'{key}' is not a field")
    return list(dict.fromkeys(advice))


def classify_record_invalid(raw: object) -> str:
    """Fix a classify record the converter refused: its unknown fields, then the format."""
    split = isinstance(raw, dict) and ("split" in raw or "children" in raw)
    allowed = SPLIT_FIELDS if split else CLASSIFY_FIELDS
    unknown: list[tuple[str, Sequence[str]]] = [(key, allowed) for key in _unknown_keys(raw, allowed)]
    for child in _items(raw, "children") if split else []:
        unknown.extend((key, CHILD_FIELDS) for key in _unknown_keys(child, CHILD_FIELDS))
    return "; ".join([*_key_advice(unknown), CLASSIFY_FORMAT])


def premise_record_invalid(raw: object) -> str:
    """Fix a premise record the converter refused: its unknown fields, then the format."""
    unknown: list[tuple[str, Sequence[str]]] = [
        (key, PREMISE_RECORD_FIELDS) for key in _unknown_keys(raw, PREMISE_RECORD_FIELDS)
    ]
    for premise in _items(raw, "premises"):
        unknown.extend((key, PREMISE_FIELDS) for key in _unknown_keys(premise, PREMISE_FIELDS))
    return "; ".join([*_key_advice(unknown), PREMISE_FORMAT])


# -- naming nodes ----------------------------------------------------------------------------------


def _padded(graph: Graph, node_id: str) -> str | None:
    """The id of the graph that differs from `node_id` only in zero padding (s-3 for s-03, or back)."""
    head, _, number = node_id.rpartition("-")
    digits = number.rstrip("abcdefghijklmnopqrstuvwxyz")
    if not head or not digits.isdigit():
        return None
    suffix = number[len(digits) :]
    for node in graph:
        other_head, _, other = node.id.rpartition("-")
        other_digits = other.rstrip("abcdefghijklmnopqrstuvwxyz")
        if (
            other_head == head
            and other_digits.isdigit()
            and other[len(other_digits) :] == suffix
            and int(other_digits) == int(digits)
        ):
            return str(node.id)
    return None


def unknown_node(graph: Graph, node_id: str) -> str:
    """Fix a record naming a node the run does not have."""
    chunk = nodes.clause_parent_id(graph, node_id)
    if chunk is not None and graph.nodes[chunk].kind == nodes.COMPOUND:
        return f"{chunk} is split into {ids(nodes.children(graph, chunk))}: name one of those"
    padded = _padded(graph, node_id)
    if padded is not None:
        return (
            f"the run has no node {node_id}: did you mean {padded}? "
            "(chunk ids are zero-padded to the width of their count)"
        )
    from difflib import get_close_matches

    close = get_close_matches(node_id, list(graph.nodes), n=1, cutoff=0.8)
    if close:
        return f"the run has no node {node_id}: did you mean {close[0]}?"
    runs: dict[str, list[str]] = {}
    for node in graph:
        if nodes.is_document(node) and nodes.parent(graph, node.id) is None:
            runs.setdefault(node.id.rpartition("-")[0], []).append(node.id)
    if not runs:
        return f"the run has no node {node_id}"
    spans = [
        chunk_ids[0] if len(chunk_ids) == 1 else f"{chunk_ids[0]} to {chunk_ids[-1]}" for chunk_ids in runs.values()
    ]
    return f"the run has no node {node_id}; its chunks are {', '.join(spans)} (get_state lists them)"


def child_not_split(chunk: str) -> str:
    """Fix a record naming a clause id of a chunk that is not split."""
    return f"{chunk} is not split yet: send a split record for {chunk}"


def rests_on_unknown(graph: Graph, node_id: str) -> str:
    """Fix a rests_on (or stated_at) naming a node the run does not have."""
    chunk = nodes.clause_parent_id(graph, node_id)
    if chunk is not None and graph.nodes[chunk].kind != nodes.COMPOUND:
        return f"{chunk} is not split yet: send a split record for {chunk}, or name {chunk} itself"
    return unknown_node(graph, node_id)


def not_a_chunk(graph: Graph, node_id: str, purpose: str = "classify types") -> str:
    """Fix a record naming an analyst or check node where a chunk is needed."""
    origin = nodes.origin_of(graph.nodes[node_id])
    made = {"analyst": " (add_premises made it)", "evidence": " (a check made it)"}.get(origin or "", "")
    return f"{node_id} is not a chunk of the document{made}: {purpose} chunks and their clauses only"


def rests_on_not_a_chunk(graph: Graph, source: str, node_id: str) -> str:
    """Fix a rests_on naming an analyst or check node."""
    if nodes.origin_of(graph.nodes[source]) == ANALYST:
        return (
            f"{source} is a premise add_premises made: leave it out of rests_on, and send it to add_premises "
            f"as a premise of {node_id}, by its statement"
        )
    return f"{source} is a check, not a chunk: leave it out of rests_on"


def compound_node(graph: Graph, node_id: str) -> str:
    """Fix a plain record (or a conclusion) naming a split chunk."""
    return f"{node_id} is split into {ids(nodes.children(graph, node_id))}: name those clauses instead"


def already_split(graph: Graph, node_id: str) -> str:
    """Fix a split record for a chunk already split."""
    clauses = ids(nodes.children(graph, node_id))
    return (
        f"{node_id} is already split into {clauses}, and a split chunk is not split again: "
        f"classify {clauses} with plain records"
    )


def targeted_by_check(graph: Graph, node_id: str) -> str:
    """Fix a record that would classify again a node a check targets."""
    checks = [f"{check.id} ({check.kind})" for check in nodes.targeting_checks(graph, node_id)]
    verb = "targets" if len(checks) == 1 else "target"
    noun = "check" if len(checks) == 1 else "checks"
    kind = graph.nodes[node_id].kind
    return f"{noun} {ids(checks)} {verb} {node_id}, so it keeps its type '{kind}' (checks are append-only)"


def duplicate_record(node_id: str, records: Sequence[int]) -> str:
    """Fix two records of one call naming the same node."""
    return f"records {ids([str(index) for index in records])} all name {node_id}: send one record per node"


def named_twice(node_id: str, naming: Mapping[str, Sequence[int]]) -> ItemRefused | None:
    """The refusal of a record whose node another record of the same call also names (classify and
    add_premises alike), or None."""
    numbers = naming[node_id]
    if len(numbers) < 2:
        return None
    message = f"records {ids([str(i) for i in numbers])} of this call all name {node_id!r}"
    return ItemRefused(Code.DUPLICATE_RECORD, message, duplicate_record(node_id, numbers))


def missing_node(graph: Graph, node_id: str) -> ItemRefused:
    """The refusal of a record naming a node the run does not have: a clause of a chunk not split yet, or
    no node at all (classify and add_premises alike)."""
    parent = nodes.clause_parent_id(graph, node_id)
    if parent is not None and graph.nodes[parent].kind != nodes.COMPOUND:
        message = f"no node {node_id!r} in the run: {parent!r} is not split"
        return ItemRefused(Code.CHILD_NOT_SPLIT, message, child_not_split(parent))
    return ItemRefused(Code.UNKNOWN_NODE, f"no node {node_id!r} in the run", unknown_node(graph, node_id))


def outside_document(graph: Graph, node_id: str, purpose: str = "classify types") -> ItemRefused | None:
    """The refusal of a record naming a node that is not a chunk of the document (one add_premises or a check
    made), or None when it is one."""
    node = graph.nodes[node_id]
    if nodes.is_document(node):
        return None
    message = f"node {node_id!r} is {nodes.origin_of(node)}, not a chunk of the document"
    return ItemRefused(Code.NOT_A_CHUNK, message, not_a_chunk(graph, node_id, purpose))


def duplicate_child(node_id: str, split_record: int, chunk: str) -> str:
    """Fix a plain record for a clause a split record of the same call also types."""
    return (
        f"record {split_record} splits {chunk} and types its clause {node_id}: leave this record out "
        f"(classify {node_id} again in a later call to change it)"
    )


# -- splits ------------------------------------------------------------------------------------------


def split_mismatch(clauses: int, children: int) -> str:
    """Fix a split record whose children do not pair with its clauses."""
    return f"give one child per clause, in the same order: this record has {clauses} clauses and {children} children"


def split_of_clause(graph: Graph, node_id: str) -> str:
    """Fix a split record naming a clause: a clause is never split."""
    chunk = nodes.parent(graph, node_id)
    return f"{node_id} is a clause of {chunk}, and a clause is not split again: classify it with a plain record"


def split_with_relations(graph: Graph, node_id: str) -> str:
    """Fix a split record for a chunk other nodes rest on, or that has premises."""
    resting = sorted(
        {r.target for r in graph.relations.values() if r.source == node_id and r.type != "cites"},
        key=list(graph.nodes).index,
    )
    premises = sorted(
        {r.source for r in graph.relations.values() if r.target == node_id and r.type != "part-of"},
        key=list(graph.nodes).index,
    )
    parts = []
    if resting:
        parts.append(f"reclassify {ids(resting)} without {node_id} first")
    if premises:
        parts.append(f"{node_id} has the premises {ids(premises)}, which stay with it")
    return f"a split chunk takes no relations: {'; '.join(parts)}; or classify {node_id} whole"


def clauses_overlap(first: str, second: str) -> str:
    """Fix a split whose clauses share text."""
    return f"the clauses '{first}' and '{second}' share text: give clauses that do not overlap"


def clause_cuts_word(clause: str, whole: str) -> str:
    """Fix a clause that begins or ends inside a word."""
    return f"'{clause}' cuts a word of the text: give whole words, such as '{whole}'"


def clause_not_once(chunk_text: str, clause: str, times: int) -> str:
    """Fix a clause that does not occur exactly once in its chunk."""
    if times == 0:
        return f"'{clause}' is not in the text; its closest phrase is '{text.closest_phrase(chunk_text, clause)}'"
    longer = text.unique_clause(chunk_text, clause)
    return f"'{clause}' occurs {times} times in the text; '{longer}' occurs once"


# -- types and forms ----------------------------------------------------------------------------------


def types_for(rubric: Rubric, origin: str) -> list[str]:
    """The declared types a node of this origin may take, in declaration order."""
    return [name for name, node_type in rubric.types.items() if origin in node_type.origins]


def unknown_type(rubric: Rubric, origin: str, type_name: str) -> str:
    """Fix a type the rubric does not declare, or does not allow for the node's origin."""
    allowed = types_for(rubric, origin)
    declared = rubric.types.get(type_name)
    if declared is not None:
        hint = f"type '{type_name}' is for {' and '.join(declared.origins)} nodes; "
    else:
        close = _close(type_name, allowed)
        hint = f"did you mean '{close}'? " if close else ""
    return f"{hint}a {origin} node takes one of {names(allowed)}"


def _field_help(rubric: Rubric, field: FormField, chunk_text: str) -> str:
    kinds: dict[str, str] = {
        VERBATIM: "a string copied from the text",
        NUMBER: "a JSON number that is a numeral of the text",
        QUANTITY: '{"value": <numeral of the text>, "unit": "<unit as written in the text>"}',
        EQREF: "the label of an equation the text references, as a string",
        "enum": f"one of {names(field.values)}",
        "bool": "true or false",
        "scope": (
            f"{{<parameter>: [<low or null>, <high or null>]}} over the parameters {names(list(rubric.parameters))}"
        ),
    }
    help_text = kinds.get(field.type, str(field.type))
    if field.type in (NUMBER, QUANTITY):
        help_text += f" (its numerals are {text.listed(text.numerals_of(chunk_text))})"
    return help_text


def _form_fields(
    rubric: Rubric, type_name: str, form: Mapping[str, Any], chunk_text: str
) -> Iterator[tuple[str, Any, FormField | None, list[str], list[str]]]:
    """Each field of a form: its name, value, the type's declaration of it (None for a field the type does
    not have), and credencegraph's problems of its value alone (invalid, not found in the text)."""
    fields = rubric.types[type_name].form
    for name, value in form.items():
        field = fields.get(name)
        if field is None:
            yield name, value, None, [], []
            continue
        _, invalid, unfound = form_problems(rubric, type_name, {name: value}, chunk_text)
        yield name, value, field, list(invalid), list(unfound)


def form_invalid(rubric: Rubric, type_name: str, form: Mapping[str, Any], chunk_text: str) -> str:
    """Fix a form with a field its type does not have, or a value of the wrong kind."""
    fields = rubric.types[type_name].form
    advice = []
    for name, _, field, invalid, _ in _form_fields(rubric, type_name, form, chunk_text):
        if field is None:
            close = _close(name, list(fields))
            mean = f" (did you mean '{close}'?)" if close else ""
            declared = names(list(fields)) if fields else "none"
            advice.append(f"'{name}' is not a field of type '{type_name}'{mean}; its fields are {declared}")
        elif invalid:
            advice.append(f"'{name}' takes {_field_help(rubric, field, chunk_text)}")
    return "; ".join(advice) or f"type '{type_name}' takes the fields {names(list(fields))}"


def form_not_in_text(rubric: Rubric, type_name: str, form: Mapping[str, Any], chunk_text: str) -> str:
    """Fix form values the text does not contain: what the text does contain instead."""
    advice = []
    for name, value, field, _, unfound in _form_fields(rubric, type_name, form, chunk_text):
        if field is None or not unfound:
            continue
        if field.type == VERBATIM:
            advice.append(
                f"'{name}': the closest phrase of the text is '{text.closest_phrase(chunk_text, str(value))}'"
            )
        elif field.type in (NUMBER, QUANTITY):
            advice.append(f"'{name}': the numerals of the text are {text.listed(text.numerals_of(chunk_text))}")
            if field.type == QUANTITY and "not a token" in unfound[0]:
                advice.append(f"'{name}': write the unit exactly as the text does, as a whole token")
        elif field.type == EQREF:
            labels = text.eqrefs_of(chunk_text)
            advice.append(
                f"'{name}': the text references the equations {names(labels)}"
                if labels
                else f"'{name}': the text references no equation: leave the field out"
            )
    return "; ".join(advice) or "give form values the text contains"


def hedge_not_in_text(rubric: Rubric, chunk_text: str, hedge: str) -> str:
    """Fix a hedge phrase the node's text does not contain."""
    listed = [phrase for phrase in rubric.hedges if text.contains_phrase(chunk_text, phrase)]
    if listed:
        return f"the rubric's hedge phrases in the text are {names(listed)}; or leave out hedge"
    return f"the closest phrase of the text is '{text.closest_phrase(chunk_text, hedge)}'; or leave out hedge"


# -- rests_on ------------------------------------------------------------------------------------------


def nodes_of_types(graph: Graph, types: Sequence[str], near: str) -> str:
    """The nodes of the graph with one of `types`, the ones nearest `near` first listed in graph order."""
    order = list(graph.nodes)
    here = order.index(near) if near in order else 0
    found = [node.id for node in graph if node.kind in types and node.id != near]
    if not found:
        return "the run has no node of those types yet: classify one first"
    nearest = sorted(found, key=lambda node_id: (abs(order.index(node_id) - here), order.index(node_id)))[:_NEAR]
    shown = [f"{node_id} ({graph.nodes[node_id].kind})" for node_id in sorted(nearest, key=order.index)]
    more = len(found) - len(shown)
    tail = f", and {more} more" if more > 0 else ""
    return f"nodes of those types near {near}: {', '.join(shown)}{tail}"


def rests_on_type(graph: Graph, rubric: Rubric, node_id: str, source: str) -> str:
    """Fix a rests_on node whose type the edge rule does not accept."""
    node_type = graph.nodes[node_id].kind
    rule = rubric.types[node_type].rests_on
    allowed = list(rule.types) if rule is not None else []
    kind = graph.nodes[source].kind if source in graph else "unknown"
    if kind == nodes.COMPOUND:
        return f"{source} is split: name one of its clauses {ids(nodes.children(graph, source))}"
    first = f"classify {source} first, or " if kind == nodes.UNASSIGNED else ""
    return f"{first}name nodes whose type is one of {names(allowed)}; {nodes_of_types(graph, allowed, node_id)}"


def rests_on_no_rule(type_name: str) -> str:
    """Fix a rests_on given to a type with no edge rule."""
    return f"type '{type_name}' rests on nothing: leave out rests_on"


def rests_on_self(node_id: str) -> str:
    """Fix a node resting on itself."""
    return f"leave {node_id} out of its own rests_on"


def cycle(error: CycleError, node_id: str, field: str = "rests_on") -> str:
    """Fix a relation that would close a cycle: name the path by which the source already rests on the node.

    The cycle runs source -> node -> ... -> source along "rests on" relations in likelihood direction,
    so every node after `node_id` rests on the one before it.
    """
    path = list(error.cycle)
    source = path[0]
    between = list(reversed(path[2:-1]))
    through = f" through {ids(between)}" if between else ""
    return f"{source} already rests on {node_id}{through}: leave {source} out of {field}"


# -- premises ----------------------------------------------------------------------------------------


def no_premises_table(rubric: Rubric) -> str:
    """Fix premise records sent to a run whose rubric has no [premises] table."""
    return f"rubric '{rubric.name}' has no [premises] table, so this run takes no premise records"


def not_a_conclusion(graph: Graph, rubric: Rubric, node_id: str) -> str:
    """Fix a premise record for a node whose type is not in premises.for."""
    assert rubric.premises is not None, "checked before any conclusion is looked at"
    kinds = list(rubric.premises.for_types)
    kind = graph.nodes[node_id].kind
    first = f"classify {node_id} first; " if kind == nodes.UNASSIGNED else ""
    near = nodes_of_types(graph, kinds, node_id)
    return f"{first}premises go to nodes of the types {names(kinds)}; {node_id} is '{kind}'; {near}"


def premise_not_chunk(graph: Graph, rubric: Rubric, conclusion: str, source: str) -> str:
    """Fix a stated_at naming a node that is not a chunk of a type the conclusion's edge rule accepts (the
    conclusion may itself be refused in the same record: then no type is known to be accepted)."""
    spec = rubric.types.get(graph.nodes[conclusion].kind) if conclusion in graph else None
    rule = spec.rests_on if spec is not None else None
    allowed = list(rule.types) if rule is not None else []
    node = graph.nodes[source]
    if node.kind == nodes.COMPOUND:
        lead = f"{source} is split: name one of its clauses {ids(nodes.children(graph, source))}, "
    elif not nodes.is_document(node):
        lead = f"{source} is not a chunk of the document: name a chunk, "
    elif node.kind == nodes.UNASSIGNED:
        lead = f"classify {source} first, "
    else:
        lead = f"{source} is '{node.kind}': name a chunk of one of the types {names(allowed)}, "
    return f"{lead}or give the premise as a statement; {nodes_of_types(graph, allowed, conclusion)}"


def premise_no_rule(type_name: str) -> str:
    """Fix a stated_at premise for a conclusion whose type has no edge rule."""
    return f"type '{type_name}' rests on nothing, so no chunk can be its premise: give the premise as a statement"


def assumption_undeclared(rubric: Rubric) -> str:
    """Fix statement premises in a run whose rubric has no analyst assumption type."""
    return (
        f"rubric '{rubric.name}' does not declare type 'assumption' with origin {ANALYST}, so it takes no "
        "statement premises: give the premises with stated_at only"
    )


# -- classifying again -----------------------------------------------------------------------------


def reclassify_conflict(
    node_id: str, dependents: Sequence[str], premises: Sequence[str], allowed: Sequence[str]
) -> str:
    """Fix a new type that breaks relations the node keeps when it is classified again."""
    held = []
    if dependents:
        held.append(f"{ids(dependents)} {'rests' if len(dependents) == 1 else 'rest'} on {node_id}")
    if premises:
        held.append(f"{node_id} keeps the premises {ids(premises)}")
    keep = (
        f"classify {node_id} as one of {names(allowed)}, the types that keep them"
        if allowed
        else "no declared type keeps them all"
    )
    first = f", or first reclassify {ids(dependents)} without {node_id}" if dependents else ""
    return f"{' and '.join(held)}: {keep}{first}"


def unexpected(code: Code) -> str:
    """The fix of a refusal credencegraph gave for a reason the assembler does not expect at that step."""
    return f"{MEANINGS[code]} Change the record as the message says."


def credence_text(credence: object) -> str:
    """A credence as a rubric writes it, for messages."""
    written: str = format_credence(credence)
    return written

"""internal-consistency: the agent's judgement that two or more statements of the paper agree, or contradict.

A proposal names the target, `with` (the other nodes of the paper it is compared with), `passages` (one
verbatim passage of each node: the target's and each of `with`'s) and `consistent`, with `note` for the
reason. The tool decides only that each passage is the paper's own words: found in its node's text after the
normalisation citation-support uses for a cited work's passage (cgx_checks.citation.passage, the same code).
The result is the agent's judgement, recorded with its model like a citation check (uncalibrated unless the
rubric's `models` lists it): `consistent: false` fails the check, which lowers the target's credence. To
lower each node's, propose the judgement on each (`s-40` with `s-12` after `s-12` with `s-40`): one
observation per node, never two of one node.

It is proposed through run_checks, like every check on the paper's own nodes; judge_citation is for what a
cited work says. verify re-finds the passages and gives the recorded judgement back: it re-derives what the tool
decided, never the judgement.

Computation before opinion: when the target's passage and another passage both write numbers (a caption's
"256 steps" against the text's 128), a computation can state what the judgement states, and anyone can re-run
it. The judgement is still recorded, and its result carries a `computable` notice with the recompute-numbers
proposal to send instead (the other passage's number against the target's, premised on their being the same
quantity), so an agent learns it at the moment it reached for an opinion.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from cgx_checks.consistency_codes import MEANINGS, ConsistencyCode
from cgx_core.codes import Code
from cgx_core.plugin_api import (
    CheckTypeBase,
    CheckTypeRegistry,
    NodeView,
    Outcome,
    Prepared,
    ProposingTool,
    Refusal,
    RunView,
    define_codes,
    hookimpl,
)

MAX_WITH = 10
SAME_QUANTITY: Final = "the passages compared state the same quantity"
"""The premise of the computation a `computable` notice proposes: an identification, never a number (not even a
number word: "the two passages" writes 2, which a premise may not)."""
_REFERENCE: Final = re.compile(
    r"\b(?:fig(?:ure)?s?|tab(?:le)?s?|sec(?:tion)?s?|eqn?s?|equations?|appendix|refs?|chapters?|algorithms?|"
    r"theorems?|lemmas?|steps?\s+\d+\s+of)\.?(?:\s|~)*\(?\d+[a-z]?\)?",
    re.IGNORECASE,
)


def _paper_node(run: RunView, node_id: str) -> NodeView | None:
    """A node holding the paper's own words: a chunk, or a clause split from one."""
    node = run.node(node_id)
    if node is None or node.attributes.get("origin") != "document" or not node.text:
        return None
    return node


def _locate(run: RunView, node_id: str, passage: str) -> dict[str, Any] | Refusal:
    """Where the passage is in the node's text, or the refusal that says it is not there."""
    from cgx_checks.citation.passage import find_passage, normalise_for_search, passage_problem
    from cgx_checks.citation.text import SourceText

    node = _paper_node(run, node_id)
    if node is None or node.text is None:
        return Refusal(
            Code.UNKNOWN_NODE,
            f"'{node_id}' is not a chunk of the document",
            "compare chunks of the paper (get_state lists them)",
        )
    problem = passage_problem(passage)
    whole = normalise_for_search(passage)[0] == normalise_for_search(node.text)[0]
    if problem is not None and not (whole and len(passage) <= MAX_WHOLE):
        return Refusal(Code.PROPOSAL_INVALID, f"the passage of '{node_id}': {problem}", _longer(node_id, node.text))
    location = find_passage(SourceText(node.text), passage)
    if location is None:
        return Refusal(
            ConsistencyCode.PASSAGE_NOT_IN_CHUNK,
            f"the passage given for '{node_id}' is not in its text",
            f"copy the passage from '{node_id}''s text as get_state shows it (between the data fences), word for word",
        )
    return {
        "node": node_id,
        "text": node.text[location.start : location.end],
        "start": location.start,
        "end": location.end,
    }


MAX_WHOLE = 400
"""A node's whole text is a passage of it whatever its length up to this (a three-word equation has no longer
passage); a longer text has a passage long enough to be found in it."""


def _longer(node_id: str, text: str) -> str:
    """The fix of a passage too short to identify a place: a longer one, or the node's whole text when it is
    short, quoted so that the fix can be sent as it is."""
    if len(text) <= MAX_WHOLE:
        return f"quote a longer passage of '{node_id}', or its whole text: {json.dumps(text, ensure_ascii=False)}"
    return f"quote a longer passage of '{node_id}''s text (get_state shows it between the data fences)"


def _same_words(found: Sequence[Mapping[str, str]]) -> Refusal | None:
    """The refusal of passages that are the same words: a passage compared with itself agrees whatever it says."""
    from cgx_checks.citation.passage import normalise_for_search

    seen: dict[str, str] = {}
    for item in found:
        words = normalise_for_search(item["text"])[0]
        if words in seen:
            return Refusal(
                ConsistencyCode.PASSAGES_IDENTICAL,
                f"the passages of '{seen[words]}' and '{item['node']}' are the same words: a statement compared "
                "with itself shows nothing",
                f"quote from '{seen[words]}' and from '{item['node']}' the words that state what you compare (they "
                "differ where the statements could disagree), or check something else",
            )
        seen[words] = item["node"]
    return None


class InternalConsistency(CheckTypeBase):
    """The check type."""

    name = "internal-consistency"
    tool: ProposingTool = "run_checks"
    description = (
        "When two statements of the paper cannot both hold (or you checked that they agree): your judgement "
        "(`consistent`) on one verbatim passage of the target and of each `with` node, found in its text."
    )
    proposal_schema: Mapping[str, Any] = {
        "properties": {
            "with": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": 100},
                "minItems": 1,
                "maxItems": MAX_WITH,
            },
            "passages": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "node": {"type": "string", "minLength": 1, "maxLength": 100},
                        "text": {"type": "string", "minLength": 1, "maxLength": 5000},
                    },
                    "required": ["node", "text"],
                    "additionalProperties": False,
                },
                "minItems": 2,
                "maxItems": MAX_WITH + 1,
                "description": "one verbatim passage of the target and of each 'with' node",
            },
            "consistent": {"type": "boolean"},
            "note": {"type": "string", "minLength": 1, "maxLength": 2000},
        },
        "required": ["with", "passages", "consistent"],
        "additionalProperties": False,
    }
    uses_model = True
    codes = define_codes(MEANINGS)

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        target = str(proposal["target"])
        others = list(dict.fromkeys(str(item) for item in proposal["with"]))
        if target in others:
            return Refusal(Code.PROPOSAL_INVALID, f"'with' names the target '{target}'", "name the other nodes only")
        passages: dict[str, str] = {}
        for item in proposal["passages"]:
            node_id = str(item["node"])
            if node_id in passages:
                return Refusal(Code.PROPOSAL_INVALID, f"two passages for '{node_id}'", "give one passage per node")
            passages[node_id] = str(item["text"])
        wanted = [target, *others]
        if set(passages) != set(wanted):
            return Refusal(
                Code.PROPOSAL_INVALID,
                f"the passages are for {sorted(passages)}, not for the target and each 'with' node",
                f"give one passage for each of {wanted}",
            )
        for node_id in wanted:
            located = _locate(run, node_id, passages[node_id])
            if isinstance(located, Refusal):
                return located
        identical = _same_words([{"node": node_id, "text": passages[node_id]} for node_id in wanted])
        if identical is not None:
            return identical
        inputs: dict[str, Any] = {
            "target": target,
            "with": others,
            "passages": [{"node": node_id, "text": passages[node_id]} for node_id in wanted],
            "consistent": bool(proposal["consistent"]),
        }
        if "note" in proposal:
            inputs["note"] = str(proposal["note"])
        return Prepared(target, inputs)

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        """One judgement of the target against each set of other nodes."""
        return ",".join(sorted(str(item) for item in inputs.get("with", [])))

    def observation_key(self, prepared: Prepared) -> str:
        inputs = prepared.inputs
        return json.dumps([prepared.target, sorted(inputs["with"]), inputs["passages"]], ensure_ascii=False)

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return self._judged(prepared.inputs, run)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome | None:
        return self._judged(inputs, run)  # the passages found again; the judgement is the recorded one

    def _judged(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        found: list[dict[str, Any]] = []
        for item in _passages(inputs["passages"]):
            located = _locate(run, item["node"], item["text"])
            if isinstance(located, Refusal):  # the run changed under the inputs: never a result
                return Outcome("error", located.message, code=str(located.code))
            found.append(located)
        consistent = bool(inputs["consistent"])
        quoted = " and ".join(f'{item["node"]} ("{item["text"]}")' for item in found)
        detail = f"the model judged that {quoted} {'agree' if consistent else 'contradict each other'}"
        if inputs.get("note"):
            detail += f": {inputs['note']}"
        output = {"passages": found, "consistent": consistent}
        notice = computable_notice(str(inputs["target"]), _passages(inputs["passages"]))
        notices = [notice] if notice else []
        return Outcome("passed" if consistent else "failed", " ".join(detail.split()), output=output, notices=notices)


def _passages(raw: Sequence[Any]) -> list[dict[str, str]]:
    return [{"node": str(item["node"]), "text": str(item["text"])} for item in raw]


def _numbers(text: str) -> list[tuple[str, str | None, str]]:
    """The numbers a passage reports, as written, each with its unit as written and the relation the text
    writes before it ("within 10 000 steps": <=), a figure's, table's or equation's number left out."""
    from cgx_core.numbers.numeral import NumeralError
    from cgx_core.numbers.reader import read_text

    try:
        found = read_text(_REFERENCE.sub(" ", text))
    except NumeralError:
        return []
    numbers = (
        (item.numeral.written, item.unit.written if item.unit else None, item.relation)
        for item in found
        if item.reported
    )
    return list(dict.fromkeys(numbers))


def computable_notice(target: str, passages: Sequence[Mapping[str, str]]) -> dict[str, Any] | None:
    """The `computable` notice of a judgement whose target passage and another passage both write numbers
    (None when no two passages do). It carries a ready recompute-numbers `proposal` only when the pairing is
    unambiguous: each of the two passages reports one number, and not in two different units. With more, a
    proposal picked for the agent could compare two different quantities and fail a true statement."""
    numbers = {item["node"]: _numbers(item["text"]) for item in passages}
    mine = numbers.get(target) or []
    other = next((node for node, found in numbers.items() if node != target and found), None)
    if not mine or other is None:
        return None
    written = "; ".join(f"{node}: {', '.join(item[0] for item in found)}" for node, found in numbers.items() if found)
    notice: dict[str, Any] = {
        "type": "computable",
        "message": (
            f"both passages write numbers ({written}): if they state the same quantity, a computation states this "
            "comparison and verify re-runs it, where a judgement is only recorded: propose recompute-numbers on "
            f"{target} citing both, the number compared as `expression`, {target}'s as `result`, and the premise "
            f"{SAME_QUANTITY!r}"
        ),
    }
    if len(mine) == 1 and len(numbers[other]) == 1:
        (ours, our_unit, relation), (theirs, their_unit, _) = mine[0], numbers[other][0]
        if our_unit is None or their_unit is None or our_unit == their_unit:
            notice["proposal"] = {
                "type": "recompute-numbers",
                "target": target,
                "cites": [target, other],
                "expression": theirs,
                "result": ours,
                **({"relation": relation} if relation != "=" else {}),  # as the target writes it: "within" is <=
                "premises": [SAME_QUANTITY],
            }
    return notice


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(InternalConsistency())

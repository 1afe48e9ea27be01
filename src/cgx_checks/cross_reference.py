r"""cross-reference: whether what a sentence says a reference shows is in the object the reference names.

A proposal names the node that writes the reference, `ref` as its text writes it (a label, `tab:acc`, or a
number as printed, "Table 2", "Eqn. 5", "Fig. 4b", "Section 3") and `cites`, the chunks that hold what the
sentence says the reference shows. The check reads only what start_run recorded (cgx_core.ingest.numbering):
which objects each chunk belongs to, with their printed numbers and labels, and which references each
chunk's text writes. It passes when every cited chunk belongs to the referenced object (a row of subtable 1a
belongs to Table 1 too), and fails when one belongs to another object of that kind, naming which. A ref the
target does not write, one that names nothing in the paper, and a cited chunk of no object of the kind are
refused with what exists. A reference by number to a kind the paper numbers in a way the reading could not
follow (a number recorded as unknown, or printed twice) is an error: it moves no credence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from cgx_checks.crossref.codes import MEANINGS, CrossReferenceCode
from cgx_checks.crossref.numbering import (
    KIND_NAMES,
    Numbered,
    chunk_of,
    comparable,
    every_object,
    listed,
    owners,
    written,
)
from cgx_checks.crossref.panels import described_panels
from cgx_core.codes import Code
from cgx_core.plugin_api import (
    CheckTypeBase,
    CheckTypeRegistry,
    Outcome,
    Prepared,
    ProposingTool,
    Refusal,
    RunView,
    define_codes,
    hookimpl,
)

_BRACED: Final = re.compile(r"\\[A-Za-z]*ref\*?\s*\{([^{}]*)\}")


@attrs.frozen
class _Referenced:
    """What the target's reference names: its object, or (by number) every object printed so."""

    written: str
    kind: str
    objects: tuple[Numbered, ...]
    unknown: bool = False
    """Some object of the kind has a number the reading could not follow: a number may name it too."""
    word: str | None = None
    """The kind the word before a label says ("Table~\\ref{...}"), when the text writes one."""
    several: int = 1
    """How many objects the reference names ("Eqs. 3 and 4": 2); each must be one object."""


def _written_match(ref: str, target: str, run: RunView) -> Mapping[str, Any] | Refusal:
    chunk = chunk_of(run, target)
    refs = written(chunk) if chunk is not None else []
    node = run.node(target)
    if node is not None and chunk is not None and node.id != chunk.id:  # a clause: only what its own words write
        refs = [item for item in refs if str(item.get("written", "")) in (node.text or "")]
    wanted = comparable(ref)
    braced = _BRACED.findall(ref)
    for item in refs:
        label = item.get("label")
        if wanted == comparable(str(item.get("written", ""))):
            return item
        if label is not None and (ref.strip() == label or (braced and braced[-1].strip() == label)):
            return item  # the label alone, or with the words before it: "Table~\ref{tab:acc}"
    if not refs:
        return Refusal(
            CrossReferenceCode.REF_NOT_WRITTEN,
            f"'{target}' writes no reference (no \\ref and no number such as 'Table 2' or 'Eqn. 3')",
            "target the node whose text writes the reference (get_state shows each node's text)",
        )
    found = [f"'{item.get('label') or item.get('written')}'" for item in refs]
    return Refusal(
        CrossReferenceCode.REF_NOT_WRITTEN,
        f"'{target}' does not write the reference '{ref}'",
        f"give ref as '{target}' writes it: one of {listed(list(dict.fromkeys(found)))}",
    )


def _word_of_macro(written: str) -> str | None:
    """The kind a referencing macro says itself: `\\eqref` names an equation, with or without "Eq." before it,
    so that a reference is decided the same either way."""
    return "equation" if written.lstrip().startswith("\\eqref") else None


def _referenced(ref: str, target: str, run: RunView) -> _Referenced | Refusal:
    objects = every_object(run)
    if not objects:
        return Refusal(
            CrossReferenceCode.REF_UNKNOWN,
            "start_run recorded no numbered object for this paper (a text with no numbered sections, equations or "
            "floats, or a PDF whose captions and equation numbers could not be read)",
            "check the sentence by reading; cross-reference needs the paper's numbering (LaTeX's, or a PDF's as "
            "printed)",
        )
    item = _written_match(ref, target, run)
    if isinstance(item, Refusal):
        return item
    label = item.get("label")
    if label is not None:
        named = tuple(owner for owner in objects if label in owner.labels)
        if not named:
            labels = sorted({f"'{name}'" for owner in objects for name in owner.labels})
            return Refusal(
                CrossReferenceCode.REF_UNKNOWN,
                f"no numbered object of the paper has the label '{label}' (or it labels something the tool does not "
                "number: a theorem, an item, a footnote)",
                f"the labels are: {listed(labels)}",
            )
        word = str(item["kind"]) if item.get("kind") else _word_of_macro(str(item.get("written", "")))
        return _Referenced(str(item["written"]), named[0].kind, named, word=word)
    kind = str(item.get("kind"))
    if item.get("another_work"):
        return Refusal(
            CrossReferenceCode.REF_ANOTHER_WORK,
            f"'{item['written']}' in '{target}' is another work's number, as the words after it say",
            "cross-reference checks the paper's own numbering; check what the cited work shows with judge_citation",
        )
    numbers = [str(number) for number in item.get("numbers") or [item.get("number")]]
    unknown = bool(item.get("open")) or any(owner.kind == kind and owner.number is None for owner in objects)
    named = tuple(owner for owner in objects if owner.kind == kind and owner.number in numbers)
    missing = [number for number in numbers if not any(owner.number == number for owner in named)]
    described = described_panels(missing, kind, objects, run)  # "Fig. 4b": the panel its caption describes
    if described:
        missing = [number for number in missing if number not in described]
        named = tuple(dict.fromkeys([*named, *described.values()]))
    if missing and not unknown:
        printed = [str(owner.number) for owner in objects if owner.kind == kind]
        return Refusal(
            CrossReferenceCode.REF_UNKNOWN,
            f"the paper has no {KIND_NAMES.get(kind, kind).lower()} numbered {', '.join(missing)}",
            f"its {kind}s are numbered {listed(printed)}" if printed else f"the paper numbers no {kind}",
        )
    several = len(numbers) - len(described) + len(set(described.values()) - {o for o in named if o.number in numbers})
    return _Referenced(str(item["written"]), kind, named, unknown, several=several)


def _cites_problem(cites: Sequence[str], kind: str, run: RunView) -> Refusal | None:
    for node_id in cites:
        chunk = chunk_of(run, node_id)
        if chunk is None:
            return Refusal(
                Code.UNKNOWN_NODE, f"cites names '{node_id}', which is not a chunk of the document", "cite chunk ids"
            )
        if not any(owner.kind == kind for owner in owners(chunk)):
            holds = {
                "equation": "equation chunks (e-N)",
                "table": "a table's caption and its rows (t-N)",
                "figure": "a figure's caption (a panel's own caption for a panel)",
                "section": "chunks of the section",
                "theorem": "chunks of the theorem-like environment (a theorem, a lemma, ...)",
            }.get(kind, "chunks of the referenced object")
            return Refusal(
                CrossReferenceCode.CITE_NOT_NUMBERED,
                f"'{node_id}' belongs to no {kind} of the paper's numbering",
                f"cite the chunks that hold what the reference is said to show: {holds}",
            )
    return None


def _placed(cites: Sequence[str], referenced: _Referenced, run: RunView) -> tuple[list[str], list[str]] | Refusal:
    """The cited chunks that belong to what the reference names, and where each other one belongs."""
    named = referenced.objects
    belongs: list[str] = []
    elsewhere: list[str] = []
    for node_id in cites:
        chunk = chunk_of(run, node_id)
        held = [owner for owner in owners(chunk) if owner.kind == referenced.kind] if chunk is not None else []
        if any(owner in named or any(item.contains(owner) for item in named) for owner in held):
            belongs.append(node_id)
            continue
        others = [owner for owner in held if not any(owner.contains(item) for item in named)]
        if not others:
            names = " and ".join(item.named() for item in named)
            return Refusal(
                CrossReferenceCode.CITE_NOT_NUMBERED,
                f"'{node_id}' belongs to what holds {names}, not to it",
                "cite the chunks of the object itself: a panel's own caption, a subsection's chunks",
            )
        elsewhere.append(f"{node_id} belongs to {others[-1].named()}")
    return belongs, elsewhere


class CrossReference(CheckTypeBase):
    """The check type."""

    name = "cross-reference"
    tool: ProposingTool = "run_checks"
    description = (
        "When a node says what a reference shows: does the reference it writes (a \\ref label, or 'Eqn. 5', "
        "'Table 2', 'Fig. 4b' as printed) name the object whose chunks (`cites`) hold it?"
    )
    proposal_schema: Mapping[str, Any] = {
        "properties": {
            "ref": {"type": "string", "minLength": 1, "maxLength": 200, "description": "as the target writes it"},
            "cites": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": 100},
                "minItems": 1,
                "maxItems": 50,
                "description": "the chunks holding what the reference is said to show",
            },
        },
        "required": ["ref", "cites"],
        "additionalProperties": False,
    }
    codes = define_codes(MEANINGS)

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        target, ref = str(proposal["target"]), str(proposal["ref"])
        cites = list(dict.fromkeys(str(item) for item in proposal["cites"]))
        referenced = _referenced(ref, target, run)
        if isinstance(referenced, Refusal):
            return referenced
        problem = _cites_problem(cites, referenced.kind, run)
        if problem is not None:
            return problem
        if len(referenced.objects) == referenced.several and not referenced.unknown:
            placed = _placed(cites, referenced, run)
            if isinstance(placed, Refusal):
                return placed
        return Prepared(target, {"target": target, "ref": ref, "written": referenced.written, "cites": cites})

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        """One check per reference the target writes, however the proposal spelled it."""
        return comparable(str(inputs.get("written", "")))

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return self._decide(prepared.inputs, run)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome | None:
        return self._decide(inputs, run)

    def _decide(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        target, ref = str(inputs["target"]), str(inputs["ref"])
        cites = [str(item) for item in inputs["cites"]]
        referenced = _referenced(ref, target, run)
        if isinstance(referenced, Refusal):  # the run changed under the inputs: never a result
            return Outcome("error", referenced.message, code=str(referenced.code))
        if len(referenced.objects) != referenced.several or referenced.unknown:
            if len(referenced.objects) > referenced.several:
                how = "names more than one object (a label or a number the paper prints twice)"
            else:
                how = f"may name a {referenced.kind} whose number the tool could not follow"
            return Outcome(
                "error",
                f"{target} writes '{referenced.written}', which {how}: not decided",
                code=str(CrossReferenceCode.NUMBERING_UNKNOWN),
            )
        named = referenced.objects
        names = " and ".join(item.named() for item in named)
        if referenced.word is not None and referenced.word != named[0].kind:
            detail = f"{target} writes '{referenced.written}', but {named[0].labels[0]} labels {names}"
            return Outcome("failed", detail, output={"ref": referenced.written, "names": names})
        placed = _placed(cites, referenced, run)
        if isinstance(placed, Refusal):  # the run changed under the inputs: never a result
            return Outcome("error", placed.message, code=str(placed.code))
        belongs, elsewhere = placed
        output: dict[str, Any] = {"ref": referenced.written, "names": names, "belong": belongs, "elsewhere": elsewhere}
        if elsewhere:
            detail = f"{target} writes '{referenced.written}' ({names}), but " + "; ".join(elsewhere)
            return Outcome("failed", detail, output=output)
        verb = "belongs" if len(belongs) == 1 else "belong"
        detail = f"{target} writes '{referenced.written}' ({names}), and {', '.join(belongs)} {verb} to it"
        return Outcome("passed", detail, output=output)


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(CrossReference())

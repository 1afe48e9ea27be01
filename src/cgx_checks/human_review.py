"""human-review: a person's verdict on a node, entered through the `review` tool by the person or by an agent
acting for one (recorded as which).

A review is an observation like any other check: an evidence node joined to the reviewed node by `observes`
with the rubric's `[checks.human-review]` sensitivity and false_pass, so it moves the node's credence
through inference and never sets it. `holds` is a pass, `fails` a fail, and `undetermined` (the reviewer
could not decide) an error, which is recorded and moves nothing.

A review of a check is the reviewer's verdict on that check's target, made in view of the check: it names
the check and says whether it confirms or overrides the check's result. The check itself is never changed
(checks are append-only), so overriding a failed check adds a passing observation that weighs against it,
as strongly as the rubric says a review weighs. One reviewer gives one decisive verdict per node, whether
on the node or on one of its checks: two verdicts of one person on one node would be one judgement counted
twice. Another reviewer's verdict is another observation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cgx_checks.review_codes import MEANINGS, ReviewCode
from cgx_core.codes import Code
from cgx_core.plugin_api import (
    CheckTypeBase,
    CheckTypeRegistry,
    Outcome,
    Prepared,
    ProposingTool,
    Refusal,
    Result,
    RunView,
    define_codes,
    hookimpl,
)

RESULTS: dict[str, Result] = {"holds": "passed", "fails": "failed"}
ENTERED_BY = {"person": "entered by the person", "agent": "entered by an agent acting for the person"}


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _claims_entry(field: str, text: str) -> bool:
    """Whether a reviewer's name says who entered the review ("Ada (entered by the person)"), or a reason says it
    as the label this package prints does: printed beside the real label, either would contradict it."""
    said = reviewer_key(text)
    if field == "reviewer":
        return "entered by" in said
    return any(label in said for label in ("entered by the person", "entered by an agent"))


def reviewer_key(name: str) -> str:
    """What tells two reviewers apart: the name with its whitespace collapsed, case-folded."""
    return _one_line(name).casefold()


def agrees(verdict: str, result: str) -> bool | None:
    """Whether a verdict confirms a check's result (None when either is undecided)."""
    if verdict not in RESULTS or result not in ("passed", "failed"):
        return None
    return RESULTS[verdict] == result


class HumanReview(CheckTypeBase):
    """The check type."""

    name = "human-review"
    tool: ProposingTool = "review"
    description = (
        "A person's verdict on a node (holds, fails or undetermined) with their reason, entered by the person "
        "or by an agent acting for them; a review of a check is a verdict on its target in view of that check."
    )
    proposal_schema: Mapping[str, Any] = {
        "properties": {
            "verdict": {"type": "string", "enum": ["holds", "fails", "undetermined"]},
            "reviewer": {"type": "string", "minLength": 1, "maxLength": 200},
            "reason": {"type": "string", "minLength": 1, "maxLength": 5000},
            "entered_by": {"type": "string", "enum": ["person", "agent"]},
            "check": {"type": "string", "minLength": 1, "maxLength": 100},
            "model": {"type": "string", "minLength": 1, "maxLength": 200},
        },
        "required": ["verdict", "reviewer", "reason", "entered_by"],
        "additionalProperties": False,
    }
    uses_model = False  # the judgement is the reviewer's; an agent that enters it is named in the inputs
    retry_after_error = True  # an undetermined review may be followed by a decisive one
    codes = define_codes(MEANINGS)

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        target = str(proposal["target"])
        reviewer, reason = _one_line(str(proposal["reviewer"])), str(proposal["reason"]).strip()
        blank = [name for name, value in (("reviewer", reviewer), ("reason", reason)) if not value]
        if blank:
            return Refusal(
                Code.PROPOSAL_INVALID,
                f"{' and '.join(blank)} must not be blank",
                "name the person whose judgement this is, and say why they reached it",
            )
        claiming = [name for name, value in (("reviewer", reviewer), ("reason", reason)) if _claims_entry(name, value)]
        if claiming:
            return Refusal(
                Code.PROPOSAL_INVALID,
                f"the {' and the '.join(claiming)} must not say who entered the review: the run records that itself",
                "give the person's name alone, and their reason; the review is labelled with who entered it",
            )
        inputs: dict[str, Any] = {
            "target": target,
            "verdict": proposal["verdict"],
            "reviewer": reviewer,
            "entered_by": proposal["entered_by"],
            "reason": reason,
        }
        if proposal["entered_by"] == "agent" and "model" in proposal:
            inputs["model"] = proposal["model"]
        if "check" in proposal:
            reviewed = self._reviewed_check(str(proposal["check"]), target, run)
            if isinstance(reviewed, Refusal):
                return reviewed
            inputs["check"] = reviewed
        return Prepared(target, inputs)

    def _reviewed_check(self, check_id: str, target: str, run: RunView) -> dict[str, Any] | Refusal:
        node = run.node(check_id)
        record = node.attributes.get("check") if node is not None else None
        if node is None or node.attributes.get("origin") != "evidence" or not isinstance(record, Mapping):
            return Refusal(
                Code.UNKNOWN_NODE,
                f"'{check_id}' is not a check of this run",
                "give a check id (c-NNN: get_state lists each node's checks), or review the node itself",
            )
        if node.type == self.name:
            return Refusal(
                Code.PROPOSAL_INVALID,
                f"'{check_id}' is itself a review",
                f"review its node '{record.get('target')}' instead",
            )
        if record.get("target") != target:
            return Refusal(
                Code.PROPOSAL_INVALID,
                f"'{check_id}' checks '{record.get('target')}', not '{target}'",
                f"review '{check_id}' with its own target '{record.get('target')}'",
            )
        return {"id": check_id, "type": node.type, "result": str(record.get("result"))}

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        return reviewer_key(str(inputs.get("reviewer", "")))

    def observation_key(self, prepared: Prepared) -> str:
        return json.dumps([prepared.target, self.slot_of(prepared.inputs)], ensure_ascii=False)

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        inputs = prepared.inputs
        verdict = str(inputs["verdict"])
        detail = f"{inputs['reviewer']} ({ENTERED_BY[str(inputs['entered_by'])]}) judged that {inputs['target']} "
        detail += {"holds": "holds", "fails": "fails", "undetermined": "cannot be decided"}[verdict]
        reviewed = inputs.get("check")
        output: dict[str, Any] = {"verdict": verdict}
        if isinstance(reviewed, Mapping):
            agreement = agrees(verdict, str(reviewed["result"]))
            output["agrees_with_check"] = agreement
            stance = {True: "confirming", False: "overriding", None: "in view of"}[agreement]
            detail += f", {stance} {reviewed['id']} ({reviewed['type']}: {reviewed['result']})"
        if verdict == "undetermined":
            return Outcome("error", detail, output=output, code=str(ReviewCode.REVIEW_UNDETERMINED))
        return Outcome(RESULTS[verdict], detail, output=output)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome | None:
        return None  # it rests on a person's judgement


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(HumanReview())

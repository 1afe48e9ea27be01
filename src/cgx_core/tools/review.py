"""review: a person's verdict on a node, or on one check of a node, recorded as a check of the type the rubric
declares for reviews (human-review, a plugin like every check type).

The verdict never sets a credence: it becomes an evidence node observed with the rubric's sensitivity and
false_pass, and inference moves the node's credence. A review of a check is a verdict on the check's target
in view of that check (see cgx_checks.human_review); the check itself stays as it was.

Who entered the review is never an argument: a caller could claim anything. Every call through MCP, `tool` or
`batch` is recorded as entered by an agent, with the model it names; only the `review` command, when a person
runs it at a terminal, calls with `by_person` and is recorded as entered by the person (docs/guarantees.md,
"Who entered a review", says what that does and does not prove).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import attrs

from cgx_core.checks.engine import apply_proposals
from cgx_core.checks.installed import declared_type_for
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.evidence import check_record
from cgx_core.refusals import ItemRefused
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import Call, CallContext, Run

TOOL = "review"
DEFAULT_TYPE = "human-review"
FIELDS = ("verdict", "reviewer", "reason")
EnteredBy = Literal["person", "agent"]


def execute(args: Mapping[str, Any], *, wait: float, by_person: bool = False) -> dict[str, Any]:
    """The review call, logged with who entered it: the person only when `by_person` (the `review` command at
    a terminal says so), an agent otherwise. The log line records it, so replay and recovery apply it again."""
    from cgx_core.tooling.registry import handler_for, logged_arguments

    entered_by: EnteredBy = "person" if by_person else "agent"
    logged = {**logged_arguments(args), "entered_by": entered_by}
    call = Call(TOOL, logged, args["model"], args.get("agent"), args.get("note"))
    run = Run(Path(args["run"]), handler_for)
    applied = handler_for(TOOL)  # `apply`, leaving a finished run finished when the review is refused
    return run.change(call, lambda context, state: applied(context, state, logged), wait=wait).to_json()


def _unknown_check(state: RunState, check: str) -> Effect:
    refusal = ItemRefused(
        Code.UNKNOWN_NODE,
        f"'{check}' is not a check of this run",
        "give a check id (c-NNN: get_state lists each node's checks), or review the node itself with 'node'",
    ).to_json(0, check, "proposal")
    return Effect(graph=state.graph, result={"checks": [], "refused": [refusal]}, rejections=[refusal])


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    if ("node" in args) == ("check" in args):
        raise CgxError(
            Code.INVALID_ARGUMENTS,
            "review: give exactly one of 'node' (a verdict on a node) and 'check' (a verdict on a check's target, "
            "in view of that check)",
        )
    target = args.get("node")
    if "check" in args:
        checked = state.graph.nodes.get(args["check"])
        record = check_record(checked.attributes) if checked is not None else None
        if record is None:
            return _unknown_check(state, args["check"])
        target = record.get("target")
    proposal: dict[str, Any] = {
        "type": declared_type_for(TOOL, context.run.rubric.checks, DEFAULT_TYPE),
        "target": target,
        **{name: args[name] for name in FIELDS},
    }
    if "check" in args:
        proposal["check"] = args["check"]
    proposal["entered_by"] = args.get("entered_by", "agent")
    if proposal["entered_by"] == "agent":
        proposal["model"] = context.model  # whose hands entered the person's verdict
    effect = apply_proposals(context, state, [proposal], tool=TOOL)
    if not effect.rejections:
        return effect
    refused = [_reworded(refusal) for refusal in effect.rejections]
    return attrs.evolve(effect, result={**effect.result, "refused": refused}, rejections=refused)


def _reworded(refusal: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's refusal, with the fix a reviewer needs where the engine's speaks of checks."""
    if refusal.get("code") != Code.CHECK_DUPLICATE:
        return dict(refusal)
    fix = (
        "a reviewer gives one decisive verdict per node, on the node or on one of its checks, and it is never "
        "withdrawn; another reviewer's verdict is another observation"
    )
    return {**refusal, "fix": fix}

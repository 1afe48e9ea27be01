"""judge_citation: the agent's judgement of whether a cited work supports a node, on a source the tool
reads itself. It is the only way to propose a check of the type the rubric declares for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgx_core.checks.engine import apply_proposals
from cgx_core.checks.installed import declared_type_for
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import CallContext

TOOL = "judge_citation"
DEFAULT_TYPE = "citation-support"


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    """One proposal: the citing node as its target, and every other argument as a field of its type (the
    arguments are the fields the installed types declare: see `proposal_schemas.with_judgement_fields`)."""
    fields = {name: value for name, value in args.items() if name not in ("node", "type")}
    proposal = {
        "type": args.get("type") or declared_type_for(TOOL, context.run.rubric.checks, DEFAULT_TYPE),
        "target": args["node"],
        **fields,
    }
    return apply_proposals(context, state, [proposal], tool=TOOL)

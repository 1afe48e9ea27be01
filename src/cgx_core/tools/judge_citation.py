"""judge_citation: the agent's judgement of whether a cited work supports a node, on a source the tool
reads itself. It is the only way to propose a check of the type the rubric declares for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgx_core.checks.engine import apply_proposals
from cgx_core.checks.installed import installed_check_types
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import CallContext

TOOL = "judge_citation"
DEFAULT_TYPE = "citation-support"


def check_type_for(rubric_checks: Mapping[str, Any]) -> str:
    """The declared check type that judge_citation proposes (citation-support unless the rubric declares
    another installed type proposed through judge_citation)."""
    registry = installed_check_types()
    for name in rubric_checks:
        installed = registry.get(name)
        if installed is not None and installed.check_type.tool == TOOL:
            return name
    return DEFAULT_TYPE


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    """One proposal: the citing node as its target, and every other argument as a field of its type (the
    arguments are the fields the installed types declare: see `proposal_schemas.with_judgement_fields`)."""
    fields = {name: value for name, value in args.items() if name not in ("node", "type")}
    proposal = {"type": args.get("type") or check_type_for(context.run.rubric.checks), "target": args["node"], **fields}
    return apply_proposals(context, state, [proposal], tool=TOOL)

"""classify: type every chunk, splitting one that mixes kinds of statement (see cgx_core.assembler)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgx_core.assembler import classify
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import CallContext

TOOL = "classify"


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    outcome = classify(state.graph, context.run.rubric, args["records"], run_id=context.run.id)
    return Effect(graph=outcome.graph, result=outcome.result, rejections=outcome.result["refused"])

"""classify: type every chunk, splitting one that mixes kinds of statement (see cgx_core.assembler)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgx_core.assembler import classify
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import CallContext
from cgx_core.tooling.paging import fitted_records_result


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    """The records applied; the result held under 20,000 characters however many there were."""
    outcome = classify(state.graph, context.run.rubric, args["records"], run_id=context.run.id)
    result = fitted_records_result(outcome.result, ("refused", "applied", "unmapped_hedges"))
    return Effect(graph=outcome.graph, result=result, rejections=outcome.result["refused"])

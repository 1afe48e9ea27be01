"""run_checks: propose checks on assessed nodes; the engine runs them (see cgx_core.checks.engine)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgx_core.checks.engine import apply_proposals
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import CallContext

TOOL = "run_checks"


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    return apply_proposals(context, state, args["proposals"], tool=TOOL)

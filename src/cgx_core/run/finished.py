"""A finished run's rejections.json, and a call that leaves a finished run finished.

A changing call on a finished run that changes nothing of its graph (every record or proposal refused) is
logged with its refusals, as the spec says, and used to reopen the run: the agent had to finish and verify it
again for a call that changed nothing. It now leaves the run finished: graph.json and report.json stay the
finish's, and rejections.json gains the call's refusals (`kept_finished`). Any call that changes the graph
reopens the run, as before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from cgx_core.run.state import Effect, RunState
    from cgx_core.run.transaction import CallContext


def derived_json(value: Any) -> bytes:
    """A run file's bytes (manifest.json, a finished run's files): indented JSON, non-ASCII kept, one final
    newline."""
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n"


def rejections_bytes(run: str, seq: int, rejections: Sequence[Mapping[str, Any]]) -> bytes:
    """rejections.json: every record refused up to call `seq`."""
    return derived_json({"run": run, "seq": seq, "rejections": list(rejections)})


def kept_finished(context: CallContext, state: RunState, effect: Effect, tool: str) -> Effect:
    """The effect of a call of `tool` as it leaves the run: a finished run whose graph the call left as it was
    stays finished, rejections.json gaining the call's refusals; any other effect is returned as it is."""
    if (
        not state.finished
        or effect.finished
        or context.run.graph_digest(effect.graph) != context.run.graph_digest(state.graph)
    ):
        return effect
    added = [{"seq": context.seq, "tool": tool, **refusal} for refusal in effect.rejections]
    derived = {"rejections.json": rejections_bytes(context.run.id, context.seq, [*state.rejections, *added])}
    return attrs.evolve(effect, finished=True, derived=derived)

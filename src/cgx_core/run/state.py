"""The state of a run after a call: what `state.json` holds, and how a call's effect advances it.

The state is derived from the log and could always be rebuilt from it; it is kept so that a call costs
O(the graph), not O(the log). It records the log position it reflects (sequence number, byte offset and
the last line's digest), so a later call knows exactly which lines it still has to apply.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
from credencegraph.core import Graph, graph_from_dict

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.digest import GraphDigester
from cgx_core.run.layout import STATE_FORMAT

STATE_VERSION = 1


@attrs.frozen
class Effect:
    """What a changing call does, computed in memory before anything is written.

    `artifacts` are files (relative to the run) written before the commit, such as a check's inputs and
    output; `derived` are files written after it, such as graph.json. `rejections` are the records the
    call refused, kept for rejections.json.
    """

    graph: Graph
    result: Mapping[str, Any]
    rejections: Sequence[Mapping[str, Any]] = ()
    finished: bool = False
    read: Any = None
    artifacts: Mapping[str, bytes] = attrs.field(factory=dict)
    derived: Mapping[str, bytes] = attrs.field(factory=dict)


@attrs.frozen
class RunState:
    """The run after call `seq`, and where in the log that call ends."""

    run: str
    seq: int
    log_end: int
    last: str | None
    graph: Graph
    rejections: tuple[Mapping[str, Any], ...]
    finished: bool

    def advance(self, effect: Effect, *, tool: str, end: int, digest: str) -> RunState:
        """The state after a committed call."""
        seq = self.seq + 1
        new = tuple({"seq": seq, "tool": tool, **refusal} for refusal in effect.rejections)
        return RunState(self.run, seq, end, digest, effect.graph, self.rejections + new, effect.finished)

    def header(self) -> dict[str, Any]:
        """Everything state.json holds but the graph."""
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "run": self.run,
            "seq": self.seq,
            "log": {"end": self.log_end, "last": self.last},
            "finished": self.finished,
            "rejections": list(self.rejections),
        }


def state_bytes(state: RunState, digester: GraphDigester | None = None) -> bytes:
    """state.json's bytes: compact JSON, fields in a fixed order, the graph joined from each node's and
    relation's cached text (so a call that changed one node serialises one node)."""
    head = json.dumps(state.header(), separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
    return (digester or GraphDigester()).graph_json(state.graph, before=head[:-1] + b',"graph":', after=b"}\n")


def read_state_json(path: Path) -> dict[str, Any]:
    """state.json as JSON, checked for its format (the graph is left as JSON)."""
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as error:
        raise CgxError(Code.RUN_CORRUPT, f"state.json cannot be read: {error}") from None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT or data.get("version") != STATE_VERSION:
        raise CgxError(Code.RUN_CORRUPT, "state.json is not a state of this package's format")
    return data


def state_from_json(data: Mapping[str, Any]) -> RunState:
    """Build the state a state.json holds."""
    try:
        log = data["log"]
        return RunState(
            run=data["run"],
            seq=data["seq"],
            log_end=log["end"],
            last=log["last"],
            graph=graph_from_dict(data["graph"]),
            rejections=tuple(data["rejections"]),
            finished=bool(data["finished"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise CgxError(Code.RUN_CORRUPT, f"state.json is malformed: {error}") from None

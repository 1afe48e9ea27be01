"""The public API for check-type plugins: what a check type provides, and what it gets back.

A check type is an object with the attributes and methods of `CheckType`. A plugin registers it through
the `cgx_register_check_types` hook (see `cgx_core.hookspecs`). The built-in types in `cgx_checks`
use exactly this API, through the same entry-point group, so a third party's type is a first-class
citizen by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol, runtime_checkable

import attrs

from cgx_core.codes import Code

Result = Literal["passed", "failed", "error"]
ProposingTool = Literal["run_checks", "judge_citation"]


@attrs.frozen
class Refusal:
    """A proposal that cannot be run: a stable code, what is wrong, and what to change."""

    code: Code | str
    message: str
    fix: str


@attrs.frozen
class NodeView:
    """What a check may read of one node of the run."""

    id: str
    type: str
    unit: str | None
    text: str | None
    attributes: Mapping[str, Any]


class RunView(Protocol):
    """What a check may read of the run: its nodes, its rubric's check entry, its cited copies."""

    def node(self, node_id: str) -> NodeView | None: ...

    def nodes(self) -> Sequence[NodeView]: ...

    def cited_copy(self, name: str) -> bytes | None: ...

    def cited_digest(self, name: str) -> str | None: ...


@attrs.frozen
class Prepared:
    """A proposal validated against the run: the target, and the inputs the check will run from.

    `inputs` is JSON, recorded in the check record and in `checks/c-NNN/inputs.json`; `rerun` gets it
    back, so it must hold everything the check needs."""

    target: str
    inputs: Mapping[str, Any]


@attrs.frozen
class Outcome:
    """How a check ended. `detail` is one human line; `output` is JSON for `checks/c-NNN/output.json`;
    `log` is free text for `checks/c-NNN/log.txt`; `libraries` names the libraries used, with versions."""

    result: Result
    detail: str
    output: Mapping[str, Any] = attrs.field(factory=dict)
    log: str = ""
    libraries: Mapping[str, str] = attrs.field(factory=dict)
    code: str | None = None
    read: Any = None


@runtime_checkable
class CheckType(Protocol):
    """A check type. `name` is the rubric's `[checks]` key."""

    name: str
    tool: ProposingTool
    description: str
    proposal_schema: Mapping[str, Any]
    fallback_for: str | None

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        """Validate a proposal against the run; refuse it with a fix when it cannot be run."""
        ...

    def observation_key(self, prepared: Prepared) -> str:
        """A canonical key: two proposals that would pass or fail together have one key."""
        ...

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        """Run the check, in bounded time."""
        ...

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        """Run the check again from its recorded inputs (for `verify`); not re-runnable types return an
        Outcome with code 'not-rerunnable'."""
        ...

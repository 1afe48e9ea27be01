"""The smallest check type a plugin author writes: a subclass of `CheckTypeBase` that sets the four required
attributes and defines the two required methods, importing only `cgx_core.plugin_api`.

tests/plugins/test_plugin_api.py type-checks this file with `mypy --strict` (against the `CheckType`
protocol) and installs it as a distribution to show it registers and runs with every other member defaulted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgx_core.plugin_api import CheckType, CheckTypeBase, Outcome, Prepared, ProposingTool, Refusal, RunView, hookimpl


class Minimal(CheckTypeBase):
    """Passes when the target's text is not empty."""

    name = "minimal"
    tool: ProposingTool = "run_checks"
    description = 'Check that the target has text. Example: {"type": "minimal", "target": "s-8"}'
    proposal_schema: Mapping[str, Any] = {"properties": {}, "additionalProperties": False}

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        target = str(proposal["target"])
        return Prepared(target, {"target": target})

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        node = run.node(prepared.target)
        has_text = node is not None and bool(node.text)
        return Outcome("passed" if has_text else "failed", "the target has text" if has_text else "no text")


check_type: CheckType = Minimal()


@hookimpl
def cgx_register_check_types(register: Any) -> None:
    register(Minimal())

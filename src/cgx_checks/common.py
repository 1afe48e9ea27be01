"""Helpers the built-in check types share: reading cited chunks' texts, and turning our errors into
refusals and error outcomes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgx_core.errors import CgxError
from cgx_core.numbers.columns import TABLE_ROW, cells_text
from cgx_core.plugin_api import Outcome, Refusal, RunView


def cited_texts(run: RunView, target: str, cites: Sequence[str] | None) -> list[str] | Refusal:
    """The texts of the chunks a proposal cites (the target itself when it cites none), a table row's from
    its label on."""
    ids = list(cites) if cites else [target]
    texts = []
    for node_id in ids:
        node = run.node(node_id)
        if node is None or node.text is None or node.attributes.get("origin") != "document":
            # Only the document's own words count: an analyst premise or a check node is not the paper.
            return Refusal(
                "unknown-node", f"cites names '{node_id}', which is not a chunk of the document", "cite chunk ids"
            )
        # A table row's numerals are its cells': its "Table 2" title and caption id are start_run's words.
        texts.append(cells_text(node.text) if node.unit == TABLE_ROW else node.text)
    return texts


def refusal_of(error: CgxError, fixes: Mapping[str, str]) -> Refusal:
    return Refusal(error.code, error.message, fixes.get(str(error.code), "change the proposal as the message says"))


def error_outcome(error: CgxError) -> Outcome:
    return Outcome("error", error.message, code=str(error.code))


def inputs_list(inputs: Mapping[str, Any], name: str) -> list[str]:
    value = inputs.get(name) or []
    return [str(item) for item in value]

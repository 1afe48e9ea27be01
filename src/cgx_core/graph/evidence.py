"""Which node of a graph is a check, read one way whether the graph is credencegraph's or its JSON.

A check is an evidence node (`attributes.origin == "evidence"`) that carries its record under
`attributes.check` (docs/records.md). The engine, finish_run's verdicts, get_state, the review queue,
review, verify and the report all ask this of a node; they ask it here, so a node one of them counts as a
check is a check for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

EVIDENCE: Final = "evidence"


def check_record(attributes: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The check record of a node with these attributes, or None when the node is not a check."""
    record = attributes.get("check")
    if attributes.get("origin") != EVIDENCE or not isinstance(record, Mapping):
        return None
    return record

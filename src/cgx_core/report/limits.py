"""What a run could not read (report.json's `document_limits`: a PDF's limits, or a LaTeX body mostly in no
chunk that start_run was told to accept), as lines a person reads in the report: whoever reads the verdicts
must see what no check could look at, not only the agent that started the run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) if value else "none"
    return str(value)


def limit_lines(limits: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """One (what, how much) line per limit, a nested count flattened into `name value` pairs; the message
    (why the limits matter) is shown apart, so it is left out here."""
    lines = []
    for key, value in limits.items():
        if key == "message":
            continue
        if isinstance(value, Mapping):
            said = "; ".join(f"{name.replace('_', ' ')}: {_value(item)}" for name, item in value.items())
        else:
            said = _value(value)
        lines.append((key.replace("_", " "), said))
    return tuple(lines)


def unread_share(limits: Mapping[str, Any]) -> str | None:
    """The share of the body in no chunk (`"93%"`) of a LaTeX run read short, or None."""
    unread = limits.get("unread")
    return str(unread.get("share")) if isinstance(unread, Mapping) and unread.get("share") else None

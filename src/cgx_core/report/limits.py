"""What a PDF run could not read (report.json's `document_limits`), as lines a person reads in the report:
whoever reads the verdicts of a PDF run must see what no check could look at, not only the agent that
started it.
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

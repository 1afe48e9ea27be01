"""The bytes of a tool's JSON result, the same through MCP and the command line."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def result_text(payload: Mapping[str, Any]) -> str:
    """A result as compact JSON, keys in the order the tool built them, non-ASCII kept as is."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
